"""``zheval explain`` without colours: the matched runs are marked ``[...]`` and the text's own brackets, backslashes
and control characters are escaped, so a reader recovers exactly the text and which of its characters matched,
even when the text holds brackets (prediction ``[好]的[呀]`` used to read ``[[好]][的][呀]``: ``呀`` looked
matched)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

import zheval
from helpers import REPO
from zheval.adapters.highlight import bracketed

_NAMED = {"\\": "\\", "[": "[", "]": "]", "n": "\n", "t": "\t", "r": "\r"}


def parse(shown: str):
    """The reader of the documented notation: ``(text, [matched per character])``; a bare ``[``/``]`` is a mark,
    a backslash starts ``\\\\``, ``\\[``, ``\\]``, ``\\n``, ``\\t``, ``\\r``, ``\\xNN`` or ``\\uNNNN``."""
    chars, marks, inside, i = [], [], False, 0
    while i < len(shown):
        c = shown[i]
        if c == "\\":
            e = shown[i + 1]
            if e in _NAMED:
                c, i = _NAMED[e], i + 2
            else:
                width = {"x": 2, "u": 4}[e]
                c, i = chr(int(shown[i + 2:i + 2 + width], 16)), i + 2 + width
        elif c in "[]":
            assert inside == (c == "]"), f"unbalanced mark at {i} of {shown!r}"
            inside, i = c == "[", i + 1
            continue
        else:
            i += 1
        chars.append(c)
        marks.append(inside)
    assert not inside, shown
    return "".join(chars), marks


def expected(entry, indices):
    """The characters inside the spans of the highlighted tokens (the explanation's own offsets)."""
    mark = [False] * len(entry["text"])
    for k in indices:
        for c in range(entry["tokens"][k]["start"], entry["tokens"][k]["end"]):
            mark[c] = True
    return entry["text"], mark


def _check(pred, ref):
    e = zheval.explain(pred, [ref])
    h = e["highlight"]
    for entry, idx in ((e["prediction"], h["prediction"]), (e["references"][h["reference"]], h["reference_tokens"])):
        assert parse(bracketed(entry, idx)) == expected(entry, idx), (pred, ref, bracketed(entry, idx))


@pytest.mark.parametrize("pred,ref", [
    ("[好]的[呀]", "好的"),
    ("好]的[呀", "[好的]"),
    ("a\\[好]的", "好\\的"),
    ("[[好]]的\\\\", "的[好]"),
    ("好\x1b[2J的\\x1b", "好的\\x1b"),
])
def test_bracketed_reads_back_the_text_and_its_matches(pred, ref):
    _check(pred, ref)


def test_bracketed_reads_back_random_texts_of_brackets_and_backslashes():
    rng = random.Random(12)
    alphabet = ["[", "]", "\\", "好", "的", "呀", "x", "1", "b", "\x1b", "\n"]
    for _ in range(300):
        pred = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        ref = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        if not pred.strip() or not ref.strip():
            continue
        try:
            _check(pred, ref)
        except zheval.EmptyReferenceError:
            continue


def test_cli_no_color_marks_only_the_matched_tokens(tmp_path):
    data = tmp_path / "br.jsonl"
    data.write_text(json.dumps({"id": "a", "predict": "[好]的[呀]", "label": "好的"}, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1", "COLUMNS": "100"}
    res = subprocess.run([sys.executable, "-m", "zheval", "explain", "-p", str(data), "--id", "a"],
                         capture_output=True, text=True, env=env, cwd=REPO, timeout=300)
    assert res.returncode == 0, res.stderr
    row = next(line for line in res.stdout.splitlines() if "好" in line and "│" in line)
    pred_cell, ref_cell = (c.strip() for c in row.strip("│ ").split("│"))
    text, marks = parse(pred_cell)
    assert text == "[好]的[呀]"
    assert [c for c, m in zip(text, marks) if m] == ["好", "的"]  # not 呀, not the brackets
    assert parse(ref_cell) == ("好的", [True, True])
