"""Model text never drives the terminal: predictions, references, ids and group values holding an OSC "set window
title" sequence, a CSI "clear screen", the 8-bit CSI ``\\x9b``, a carriage return and rich markup reach every
printing command's output as visible escapes (``\\x1b``), with and without colour, while JSON and the written files
keep the text exact (zheval.text.terminal)."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys

import pytest

from helpers import REPO
from helpers.cli import run_cli, write_jsonl
from zheval.text.terminal import markdown_text, terminal_json, terminal_text

EVIL = "\x1b]0;TITLE\x07\x1b[2J\x9b31m\r[red]x[/red]"
SHOWN = "\\x1b]0;TITLE\\x07\\x1b[2J\\x9b31m\\r[red]x[/red]"  # what the terminal must show instead
# SHOWN in a Markdown report's source: each backslash and [ escaped (it renders as SHOWN; test_cli_markdown_render)
MD_SHOWN = "\\\\x1b]0;TITLE\\\\x07\\\\x1b\\[2J\\\\x9b31m\\\\r\\[red]x\\[/red]"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _safe(text: str) -> None:
    bad = RAW.findall(text)
    assert not bad, f"raw control characters reached the terminal: {bad!r}"


def test_terminal_text_by_hand():
    assert terminal_text(EVIL) == SHOWN
    assert terminal_text("a\nb\tc") == "a\nb\tc"
    assert terminal_text("a\nb\tc", one_line=True) == "a\\nb\\tc"
    assert terminal_text("\x00\x7f\x85\u202e\u2066") == "\\x00\\x7f\\x85\\u202e\\u2066"
    # kept: Han, full-width punctuation, U+3000, ZWJ, emoji
    assert terminal_text("好的，　谢谢\u200d👍") == "好的，　谢谢\u200d👍"
    assert terminal_text(SHOWN) == SHOWN  # idempotent


def test_terminal_json_is_exact_and_inert():
    obj = {"id": EVIL, "p": "\x7f\x85\u202e好"}
    s = terminal_json(obj)
    _safe(s)
    assert json.loads(s) == obj


def _records(tmp_path):
    rows = [{"id": f"a{EVIL}", "predict": f"好的{EVIL}", "label": "好的", "cat": EVIL},
            {"id": "b", "predict": f"好的{EVIL}", "label": "不客气", "cat": "b"},
            {"id": "c", "predict": "谢谢", "label": "谢谢你", "cat": "b"}]
    return write_jsonl(tmp_path / "rec.jsonl", rows), rows


def _duck(tmp_path, domain=EVIL):
    rows = [{"id": f"q{EVIL}", "query": f"问{EVIL}", "responses": [f"好的{EVIL}", "不客气"], "domain": domain,
             "difficulty": "易"},
            {"id": "q2", "query": "你好", "responses": ["你好呀", "您好"], "domain": "生活咨询", "difficulty": "中"},
            {"id": "q3", "query": "谢谢", "responses": ["不客气", "不用谢"], "domain": "生活咨询", "difficulty": "易"}]
    data = write_jsonl(tmp_path / "data.jsonl", rows)
    a = write_jsonl(tmp_path / "a.jsonl", [{"id": rows[0]["id"], "prediction": f"好的{EVIL}"},
                                           {"id": "q2", "prediction": "你好"}, {"id": "q3", "prediction": "不客气"}])
    b = write_jsonl(tmp_path / "b.jsonl", [{"id": rows[0]["id"], "prediction": "好"},
                                           {"id": "q2", "prediction": "你好呀"}, {"id": "q3", "prediction": "谢谢"}])
    return data, a, b, rows


def _ok(res):
    assert res.exit_code == 0, res.output
    _safe(res.output)
    return res.output


def test_score_records_table_markdown_items(tmp_path):
    rec, _ = _records(tmp_path)
    for fmt in ("table", "markdown"):
        out = _ok(run_cli("score", "-p", rec, "--id-field", "id", "--group-field", "cat", "--items", "-q",
                          "--bootstrap", 20, "-f", fmt))
        shown = SHOWN if fmt == "table" else MD_SHOWN
        assert f"cat={shown}" in out  # the group value
        assert f"a{shown}" in out  # the id of --items
        # the most repeated prediction, as written (not lower-cased)
        assert ("\\x1b]0;TITLE\\x07" if fmt == "table" else "\\\\x1b]0;TITLE\\\\x07") in out


def test_score_json_keeps_the_text_exact(tmp_path):
    rec, rows = _records(tmp_path)
    out = _ok(run_cli("score", "-p", rec, "--id-field", "id", "--group-field", "cat", "--items", "-q", "--bootstrap", 0,
                      "-f", "json"))
    d = json.loads(out[out.index("{"):])
    assert [it["id"] for it in d["items"]] == [r["id"] for r in rows]
    assert [it["prediction"] for it in d["items"]] == [r["predict"] for r in rows]
    assert {g["value"] for g in d["groups"]} >= {EVIL}
    # written to a file: exact as well
    o = tmp_path / "r.json"
    _ok(run_cli("score", "-p", rec, "--id-field", "id", "--items", "-q", "--bootstrap", 0, "-f", "json", "-o", o))
    assert [it["id"] for it in json.loads(o.read_text(encoding="utf-8"))["items"]] == [r["id"] for r in rows]


def test_score_data_compare_ceiling(tmp_path):
    data, a, b, _ = _duck(tmp_path)
    out = _ok(run_cli("score", "-d", data, "-p", a, "--domains", "any", "--min-refs", 1, "--items", "-q",
                      "--bootstrap", 20, "--by", "domain"))
    assert f"domain={SHOWN}" in out and f"q{SHOWN}" in out
    for fmt in ("table", "markdown"):
        out = _ok(run_cli("compare", "-d", data, "-p", a, b, "--domains", "any", "--min-refs", 1, "-q",
                          "--bootstrap", 20, "--by", "domain", "-f", fmt))
        assert f"domain={SHOWN if fmt == 'table' else MD_SHOWN}" in out
    out = _ok(run_cli("ceiling", "-d", data, "--domains", "any", "-q", "--bootstrap", 20, "--by", "domain"))
    assert f"domain={SHOWN}" in out


def test_explain_table_json_with_and_without_colour(tmp_path, monkeypatch):
    data, a, _, rows = _duck(tmp_path, "生活咨询")
    monkeypatch.setenv("COLUMNS", "300")
    # in a fresh process with colours off the documented way (NO_COLOR), so matched runs print in [...] whatever
    # state an earlier test of this worker left behind
    plain_env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1", "COLUMNS": "300"}
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        plain_env.pop(name, None)
    proc = subprocess.run([sys.executable, "-m", "zheval", "explain", "-d", str(data), "-p", str(a), "--min-refs", "1"],
                          capture_output=True, text=True, env=plain_env, cwd=REPO, timeout=900)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"q{SHOWN}" in out  # the id
    # matched runs in [...], the text's own brackets \\[ \\] (unambiguous; test_cli_explain_brackets)
    assert "[好的]\\x1b[\\]0;TITLE]\\x07\\x1b[\\[2J]\\x9b[31m]\\r[\\[red\\]x\\[/red\\]]" in out
    res = run_cli("explain", "-d", data, "-p", a, "--min-refs", 1, "--format", "json")
    _ok(res)
    got = json.loads(res.stdout)  # stderr says the controls the tokenizer drops (ControlCharacterWarning), counted
    assert "control characters (" in res.stderr and "are in no token (tok:zh-char)" in res.stderr
    assert got[0]["id"] == rows[0]["id"] and got[0]["explanation"]["prediction"]["text"] == f"好的{EVIL}"
    # colour on (a terminal): rich's own SGR sequences only, and "[red]x[/red]" printed literally, not as markup
    env = {**os.environ, "PYTHONPATH": str(REPO), "FORCE_COLOR": "1", "COLUMNS": "300", "TERM": "xterm-256color"}
    for name in ("NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        env.pop(name, None)
    proc = subprocess.run([sys.executable, "-m", "zheval", "explain", "-d", str(data), "-p", str(a), "--min-refs", "1",
                           "--id", rows[0]["id"]], capture_output=True, text=True, env=env, cwd=REPO, timeout=900)
    assert proc.returncode == 0, proc.stderr
    assert "\x1b[" in proc.stdout, (proc.stdout, proc.stderr)  # coloured
    plain = re.sub(r"\x1b\[[0-9;]*m", "", proc.stdout)
    _safe(plain)
    _safe(proc.stderr)
    assert "[red]x[/red]" in plain and "\\x1b]0;TITLE\\x07" in plain


def test_sample_and_agree(tmp_path):
    data, a, _, rows = _duck(tmp_path, "生活咨询")
    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.json"
    _ok(run_cli("sample", "-d", data, "-p", a, "--k", 3, "--min-refs", 1, "-o", sheet, "--key", key, "-q"))
    with sheet.open(encoding="utf-8-sig", newline="") as f:
        got = list(csv.DictReader(f))
    # the sheet shows the controls as escapes (break-it F10: it is read by people, with cat or a spreadsheet); the
    # key keeps the text exact, and agree matches the sheet's shown ids to it
    assert {r["id"] for r in got} == {terminal_text(r["id"]) for r in rows}
    assert any(r["prediction"] == f"好的{SHOWN}" for r in got)
    assert json.loads(key.read_text(encoding="utf-8"))["items"][0]["id"] in {r["id"] for r in rows}
    cols = list(got[0])
    rating = [c for c in cols if c not in ("id", "query", "prediction", "references")][0]
    for i, r in enumerate(got):
        r[rating] = "" if r["id"] == rows[0]["id"] else str(i + 1)
    with sheet.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        w.writerows(got)
    out = _ok(run_cli("agree", "--ratings", sheet, "--key", key, "--bootstrap", 0))
    assert f"q{SHOWN}" in out  # the empty cell's id, named in the notes


def test_error_messages_and_warnings_escape_ids(tmp_path):
    data, a, _, rows = _duck(tmp_path, "生活咨询")
    res = run_cli("explain", "-d", data, "-p", a, "--min-refs", 1, "--id", f"no{EVIL}")
    assert res.exit_code == 2
    _safe(res.output)
    # a duplicate id in a records file (the error names the id)
    rec = write_jsonl(tmp_path / "dup.jsonl", [{"id": EVIL, "predict": "好", "label": "好"}] * 2)
    res = run_cli("score", "-p", rec, "--id-field", "id", "-q")
    assert res.exit_code == 2
    _safe(res.output)


def test_text_file_commands(tmp_path):
    ref, hyp = tmp_path / f"ref{EVIL[:8]}.txt", tmp_path / "hyp.txt"
    ref.write_text("今天天气很好\n好的\n", encoding="utf-8")
    hyp.write_text("今天天气不错\n好的\n", encoding="utf-8")
    for cmd in ("bleu", "rouge"):
        for fmt in ("table", "json"):
            out = _ok(run_cli(cmd, ref, "-i", hyp, "-f", fmt))
            if fmt == "json":
                json.loads(out[out.index("{"):])
    # zheval chrf: the file names are in its JSON (systems) and its text table; a system named by an evil file name
    hyp2 = tmp_path / f"hyp{EVIL[:8]}.txt"
    hyp2.write_text("今天天气很好\n好\n", encoding="utf-8")
    for args in (["-f", "json"], ["-f", "text"], ["-f", "text", "--paired-bs", "--paired-bs-n", "50"],
                 ["-f", "json", "--paired-ar", "--paired-ar-n", "50"]):
        out = _ok(run_cli("chrf", ref, "-i", hyp, hyp2, *args))
        if args[1] == "json":
            assert str(hyp2) in [r["system"] for r in json.loads(out)]  # exact text, escaped on screen


def test_clean_prints_no_raw_control_characters(tmp_path):
    data, _, _, _ = _duck(tmp_path, "生活咨询")
    out = tmp_path / "clean.jsonl"
    _ok(run_cli("clean", data, "-o", out, "--min-refs", 1, "-q"))
    assert json.loads(out.read_text(encoding="utf-8").splitlines()[0])["id"] == f"q{EVIL}"  # the file keeps it exact


def test_markdown_escapes_html_of_ids_and_group_values(tmp_path):
    """A Markdown renderer passes raw HTML through: ids and group values reach every Markdown report with ``&``,
    ``<``, ``>`` as entities and ``|`` as ``\\|`` (zheval.text.terminal.markdown_text); expected strings by hand."""
    rows = [{"id": "<script>alert(1)</script>", "prediction": "今天天气很好", "reference": "今天天气很好",
             "cat": "<img src=x onerror=alert(2)>"},
            {"id": "a&b|c", "prediction": "好的", "reference": "好的呢", "cat": "x"}]
    rec = write_jsonl(tmp_path / "r.jsonl", rows)
    other = write_jsonl(tmp_path / "o.jsonl", [{**r, "prediction": "好"} for r in rows])
    out = _ok(run_cli("score", "-p", rec, "--id-field", "id", "--group-field", "cat", "--items", "-q",
                      "--bootstrap", 0, "-f", "markdown"))
    cmp = _ok(run_cli("compare", "-p", rec, other, "--id-field", "id", "--group-field", "cat", "-q",
                      "--bootstrap", 20, "-f", "markdown"))
    for text in (out, cmp):
        assert "<img" not in text and "<script" not in text
        assert "cat=&lt;img src=x onerror=alert(2)&gt;" in text
    assert "| &lt;script&gt;alert(1)&lt;/script&gt; |" in out  # the --items id
    assert "| a&amp;b\\|c |" in out


def test_markdown_text_by_hand():
    # the visible escapes of terminal_text (\x1b) keep their backslash when rendered: \\ in the source
    assert markdown_text("<b>a&b</b>|\x1b\n") == "&lt;b&gt;a&amp;b&lt;/b&gt;\\|\\\\x1b\\\\n"
    assert markdown_text("好的，谢谢") == "好的，谢谢"
