"""Ids, group values and answers that differ only by an invisible format character (U+200B ZWSP, U+FEFF, U+2060
WJ …) print differently (break-it 18 A: ids ``x\\u200by`` and ``xy`` both showed ``xy`` in the table, the Markdown
and the HTML ``data-id``), and ``explain --id`` and the id joins say when an id equals another once such characters
are removed (`zheval.text.controls`, `zheval.adapters.duck.mismatch.invisible_pairs`)."""

from __future__ import annotations

import pytest

from helpers.cli import run_cli as run
from helpers.cli import write_jsonl


def _records(tmp_path):
    return write_jsonl(tmp_path / "zw.jsonl", [
        {"id": "x\u200by", "prediction": "今天天气很好", "references": ["今天天气不错"], "g": "a\u2060b"},
        {"id": "xy", "prediction": "明天下雨", "references": ["明天会下雨"], "g": "ab"}])


def test_items_table_and_markdown_show_the_zero_width_space(tmp_path):
    rec = _records(tmp_path)
    out = run("score", "-p", rec, "--items", "--group-field", "g", "-q", "--bootstrap", 0).stdout
    rows = out[out.index("items ("):].splitlines()
    assert any(r.startswith("x\\u200by ") for r in rows) and any(r.startswith("xy ") for r in rows)
    assert "g=a\\u2060b" in out and "g=ab" in out and "\u200b" not in out and "\u2060" not in out
    md = run("score", "-p", rec, "--items", "-q", "--bootstrap", 0, "-f", "markdown").stdout
    assert "| x\\\\u200by |" in md and "| xy |" in md and "\u200b" not in md


def test_html_data_id_shows_it(tmp_path):
    pytest.importorskip("jinja2")
    html = tmp_path / "r.html"
    res = run("score", "-p", _records(tmp_path), "--items", "-q", "--bootstrap", 0, "--html", html)
    assert res.exit_code == 0, res.output
    page = html.read_text(encoding="utf-8")
    assert "x\\u200by" in page and "\u200b" not in page


def test_explain_id_hints_the_id_with_an_invisible_character(tmp_path):
    rec = write_jsonl(tmp_path / "f.jsonl", [
        {"id": "x\ufeffy", "prediction": "今天天气很好", "references": ["今天天气不错"]}])
    res = run("explain", "-p", rec, "--id", "xy")
    assert res.exit_code != 0
    err = " ".join(res.stderr.split())
    assert "no item with this id" in err and "equals the id 'x\\ufeffy'" in err and "invisible characters" in err
    assert "\ufeff" not in res.stderr


def test_join_hints_name_ids_equal_once_invisible_characters_are_removed():
    from zheval.adapters.duck.mismatch import id_hints, invisible_pairs, visible_id

    assert invisible_pairs(["x\u200by", "7"], ["xy", "\ufeff7", "8"]) == [("x\u200by", "xy"), ("7", "\ufeff7")]
    assert invisible_pairs(["caf\u00e9"], ["cafe\u0301"]) == []  # NFC alone: the Unicode normalisation line
    assert invisible_pairs([7], ["7"]) == []
    lines = id_hints(["x\u200by"], ["xy"])
    assert len(lines) == 1 and "once invisible characters" in lines[0] and "'x\\u200by'" in lines[0]
    assert visible_id("\u2764\ufe0f") == "'\u2764\\ufe0f'"  # a variation selector, which repr keeps


def test_judge_failure_answer_with_a_leading_bom_is_shown():
    from zheval.cli.judge import render_judge
    from zheval.text.terminal import terminal_text

    result = {"scale": (1, 5), "judged": 0, "criteria": [], "signature": "s",
              "usage": {"requests": 1, "retries": 0, "answer_retries": 0, "cached": 0, "prompt_tokens": 1,
                        "completion_tokens": 1, "seconds": 0.1},
              "failed": 1, "failures": [{"item": 0, "kind": "unparsable", "detail": "no JSON object",
                                         "answer": "\ufeff{\"score\": 5}"}]}
    shown = terminal_text(render_judge(result, ["i1"]))  # what echo prints
    assert "answer: \\ufeff{" in shown and "\ufeff" not in shown
