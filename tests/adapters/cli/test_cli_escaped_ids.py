"""Ids, group values and group field names in the terminal (and Markdown) tables and in explain's header are escaped
as the text cells are (`zheval.text.controls.escaped_text`): every backslash doubled, so an id holding the literal
text ``x\\x1b`` (backslash, x, 1, b) never reads like an id holding a real ESC."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers.cli import run_cli as run
from helpers.cli import write_jsonl

REPO = Path(__file__).resolve().parents[3]
LITERAL, ESC = "x\\x1b", "x\x1b"  # four characters after x, and x + ESC


def _records(tmp_path):
    rows = [{"id": LITERAL, "predict": "今天天气很好", "label": "今天天气很好", "cat": LITERAL},
            {"id": ESC, "predict": "我们去公园", "label": "我们去公园玩", "cat": ESC},
            {"id": "q3", "predict": "你好", "label": "你好呀", "cat": ESC}]
    return write_jsonl(tmp_path / "r.jsonl", rows)


def test_score_table_and_markdown_tell_them_apart(tmp_path):
    rec = _records(tmp_path)
    out = run("score", "-p", rec, "--group-field", "cat", "--items", "-q", "--bootstrap", 0).stdout
    assert "cat=x\\\\x1b " in out and "cat=x\\x1b " in out  # the literal's backslash doubled; the ESC escaped
    items = out[out.index("items ("):].splitlines()
    assert any(line.startswith("x\\\\x1b ") for line in items) and any(line.startswith("x\\x1b ") for line in items)
    md = run("score", "-p", rec, "--group-field", "cat", "--items", "-q", "--bootstrap", 0, "-f", "markdown").stdout
    # rendered, the Markdown source \\\\\\\\x1b shows x\\\\x1b and \\\\x1b shows x\\x1b
    assert "cat=x\\\\\\\\x1b" in md and "| x\\\\\\\\x1b |" in md and "| x\\\\x1b |" in md


def test_group_field_names_too(tmp_path):
    rec = write_jsonl(tmp_path / "r.jsonl", [{"predict": "你好", "label": "你好呀", "a\\b": "v"}])
    out = run("score", "-p", rec, "--group-field", "a\\b", "-q", "--bootstrap", 0).stdout
    assert "a\\\\b=v" in out


def test_explain_header(tmp_path):
    rec = _records(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1", "COLUMNS": "200"}
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        env.pop(name, None)
    proc = subprocess.run([sys.executable, "-m", "zheval", "explain", "-p", str(rec), "--id", LITERAL, "--id", ESC],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=600)
    assert proc.returncode == 0, proc.stderr
    heads = [line.strip() for line in proc.stdout.splitlines() if line.strip().startswith("x\\")]
    assert [h.split()[0] for h in heads] == ["x\\\\x1b", "x\\x1b"], proc.stdout


def test_compare_table(tmp_path):
    rec = _records(tmp_path)
    other = write_jsonl(tmp_path / "b.jsonl", [{"id": LITERAL, "predict": "今天", "label": "今天天气很好", "cat": LITERAL},
                                               {"id": ESC, "predict": "我们", "label": "我们去公园玩", "cat": ESC},
                                               {"id": "q3", "predict": "你", "label": "你好呀", "cat": ESC}])
    res = run("compare", "-p", rec, other, "--group-field", "cat", "-q", "--bootstrap", 20)
    assert res.exit_code == 0, res.output
    assert "cat=x\\\\x1b " in res.stdout and "cat=x\\x1b " in res.stdout
