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
    if command == "agree" and name == "d.md":
        pytest.skip("agree's sheet mode writes no markdown: test_agree_sheet_mode_names_its_own_f_choices")
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


# ---- names of formats no -f writes, and .gz (break-it: o.json.gz held the table uncompressed; every zheval reader
# takes .gz for gzip; o.csv, o.tsv, o.yaml, o.parquet held the table or JSON under that name) ----------------------

@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("name, kind", [("o.csv", "CSV"), ("o.tsv", "TSV"), ("o.yaml", "YAML"), ("o.YML", "YAML"),
                                        ("o.parquet", "Parquet"), ("o.pq", "Parquet")])
def test_an_output_named_for_a_format_no_f_writes_is_refused(tmp_path, command, name, kind):
    out = tmp_path / name
    res = run_cli(*_commands(tmp_path)[command], "-o", out)
    assert res.exit_code == 2, res.output
    ext = "." + name.split(".")[1]
    markdown = "" if command == "agree" else ", -f markdown a Markdown table (.md)"  # agree's sheet mode: no markdown
    assert (f"--output {out}: zheval writes no {kind} file ({ext}); it writes what -f says: -f table the text table "
            f"(.txt), -f json one indented JSON document (.json){markdown}; name the file .txt for -f table") in res.output
    assert not out.exists()


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("name, fmt", [("d.json.gz", ["-f", "json"]), ("d.txt.gz", []), ("d.gz", []),
                                       ("d.md.GZ", ["-f", "markdown"])])
def test_a_gz_output_is_refused(tmp_path, command, name, fmt):
    if command == "agree" and "markdown" in fmt:
        pytest.skip("agree's sheet mode writes no markdown")
    out = tmp_path / name
    res = run_cli(*_commands(tmp_path)[command], "-o", out, *fmt)
    assert res.exit_code == 2, res.output
    gz = name[-3:]
    assert f"--output {out}: zheval writes no gzip ({gz}), and every zheval reader takes a .gz file for gzip" in res.output
    assert f"uncompressed: name the file {str(out)[:-3]} (and compress it afterwards" in res.output
    assert not out.exists()


def test_a_gz_output_is_checked_against_f_without_its_gz(tmp_path):
    out = tmp_path / "d.json.gz"
    res = run_cli(*_commands(tmp_path)["score"], "-o", out)
    assert res.exit_code == 2
    assert f"--output {out} holds the text table (-f table): add -f json, or name the file .txt" in res.output


def test_an_output_as_typed_in_the_refusal(tmp_path, monkeypatch):
    _commands(tmp_path)
    monkeypatch.chdir(tmp_path)
    res = run_cli("score", "-p", "./preds.jsonl", "-d", "./data.jsonl", "-q", "-o", "./o.csv")
    assert res.exit_code == 2 and "--output ./o.csv: zheval writes no CSV file (.csv)" in res.output
    res = run_cli("score", "-p", "./preds.jsonl", "-d", "./data.jsonl", "-q", "-o", "./o.json.gz", "-f", "json")
    assert res.exit_code == 2 and "--output ./o.json.gz: zheval writes no gzip" in res.output
    assert "name the file ./o.json (and" in res.output


def _jsonl_outputs(tmp_path) -> dict:
    data, preds, _, _ = write_sample_files(tmp_path)
    out = {"clean": ["clean", data]}
    try:
        import openai  # noqa: F401  (zheval judge needs it before it reads its options)
        out["judge"] = ["judge", preds, "--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    except ImportError:
        pass
    return out


@pytest.mark.parametrize("command", ["clean", "judge"])
@pytest.mark.parametrize("name, kind", [("o.csv", "CSV"), ("o.TSV", "TSV"), ("o.parquet", "Parquet"),
                                        ("o.yaml", "YAML"), ("o.md", "Markdown"), ("o.html", "HTML")])
def test_a_jsonl_output_named_for_another_format_is_refused(tmp_path, command, name, kind):
    args = _jsonl_outputs(tmp_path).get(command) or pytest.skip("zheval judge needs openai")
    out = tmp_path / name
    res = run_cli(*args, "-o", out)
    assert res.exit_code == 2, res.output
    assert (f"--output {out}: zheval {command} writes JSON Lines, not {kind} (.{name.split('.')[1]}); name the file "
            ".jsonl") in res.output
    assert not out.exists()


@pytest.mark.parametrize("command", ["clean", "judge"])
def test_a_gz_jsonl_output_is_refused(tmp_path, command):
    args = _jsonl_outputs(tmp_path).get(command) or pytest.skip("zheval judge needs openai")
    out = tmp_path / "o.jsonl.gz"
    res = run_cli(*args, "-o", out)
    assert res.exit_code == 2, res.output
    assert (f"--output {out}: zheval {command} writes no gzip (.gz), and every zheval reader takes a .gz file for "
            f"gzip; it writes JSON Lines uncompressed: name the file {str(out)[:-3]}") in res.output
    assert not out.exists()


@pytest.mark.parametrize("name", ["c.jsonl", "c.json", "c.ndjson", "c"])
def test_clean_writes_a_jsonl_output_named_for_json_lines(tmp_path, name):
    data, _, _, _ = write_sample_files(tmp_path)
    out = tmp_path / name
    res = run_cli("clean", data, "-o", out, "--min-chars", "1")
    assert res.exit_code == 0, res.output
    assert [json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines()] == ["q1", "q2", "q3"]


def test_agree_sheet_mode_names_its_own_f_choices(tmp_path):
    out = tmp_path / "d.md"  # before: "add -f markdown", which the sheet mode refuses
    res = run_cli(*_commands(tmp_path)["agree"], "-o", out)
    assert res.exit_code == 2
    assert (f"--output {out}: zheval writes no Markdown file (.md); it writes what -f says: -f table the text table "
            "(.txt), -f json one indented JSON document (.json); name the file .txt for -f table") in res.output
    csv = run_cli(*_commands(tmp_path)["agree"], "-o", tmp_path / "d.csv")
    assert csv.exit_code == 2 and "markdown" not in csv.output
