"""``zheval score … --output d.json`` wrote the text table into d.json, saying only ``wrote d.json``: a
``--output`` file whose extension says another format than ``-f`` writes is refused before any work, at every
command whose ``--output`` holds its ``-f`` format; a name without an extension, ``.txt`` for the table, or an
extension of no format are taken as they are."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_cli, write_sample_files


def _commands(tmp_path) -> dict:
    data, preds, txt, _ = write_sample_files(tmp_path)
    (tmp_path / "ratings.csv").write_text("id,overall\nq1,3\n", encoding="utf-8")
    (tmp_path / "key.json").write_text(json.dumps({"items": []}), encoding="utf-8")
    return {"score": ["score", "-d", data, "-p", preds, "--bootstrap", "0", "-q"],
            "score --stream": ["score", "-p", preds, "--stream", "-q"],
            "ceiling": ["ceiling", "-d", data, "--bootstrap", "0", "-q"],
            "compare": ["compare", "-d", data, "-p", preds, txt, "--bootstrap", "10", "-q"],
            "demo": ["demo", "--bootstrap", "0"],
            "agree": ["agree", "--ratings", tmp_path / "ratings.csv", "--key", tmp_path / "key.json"]}


COMMANDS = ["score", "score --stream", "ceiling", "compare", "demo", "agree"]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("name, fmt, said", [
    ("d.json", [], "--output {out} holds the text table (-f table): add -f json, or name the file .txt"),
    ("d.md", [], "--output {out} holds the text table (-f table): add -f markdown, or name the file .txt"),
    ("d.jsonl", ["-f", "json"], "--output {out} holds one indented JSON document (-f json): -f json writes one JSON "
                                "document, not JSON Lines, or name the file .json"),
    ("d.txt", ["-f", "json"], "--output {out} holds one indented JSON document (-f json): add -f table, or name the "
                              "file .json"),
], ids=["json", "md", "jsonl", "txt-json"])
def test_an_output_extension_of_another_format_is_refused(tmp_path, command, name, fmt, said):
    out = tmp_path / name
    res = run_cli(*_commands(tmp_path)[command], "-o", out, *fmt)
    assert res.exit_code == 2, res.output
    assert said.format(out=out) in res.output
    assert not out.exists()


@pytest.mark.parametrize("command", ["score", "compare"])
def test_an_html_output_names_the_html_option(tmp_path, command):
    out = tmp_path / "d.html"
    res = run_cli(*_commands(tmp_path)[command], "-o", out)
    assert res.exit_code == 2 and f"for the HTML report use --html {out}" in res.output


@pytest.mark.parametrize("command", ["score", "demo"])
@pytest.mark.parametrize("name, fmt, first", [("d", [], "zheval"), ("d.txt", [], None), ("d.json", ["-f", "json"], "{"),
                                              ("d.md", ["-f", "markdown"], None), ("d.out", ["-f", "json"], "{")])
def test_an_output_matching_its_format_is_written(tmp_path, command, name, fmt, first):
    out = tmp_path / name
    res = run_cli(*_commands(tmp_path)[command], "-o", out, *fmt)
    assert res.exit_code == 0, res.output
    text = out.read_text(encoding="utf-8")
    if first == "{":
        json.loads(text)
    elif "markdown" in fmt:
        assert "|" in text
