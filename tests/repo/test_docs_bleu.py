"""docs/bleu.md stays true: its example prints what its comment says, which is the page's hand computation of the
brevity penalty and the geometric mean, and sacrebleu's number on the same characters; the short-text sentence."""

from __future__ import annotations

import contextlib
import io
import math
import re

import pytest
from sacrebleu.metrics import BLEU

import zheval
from helpers import REPO

DOC = (REPO / "docs" / "bleu.md").read_text(encoding="utf-8")


def test_the_worked_example_is_the_hand_computation_and_sacrebleu():
    bp = math.exp(1 - 8 / 7)  # c = 7 < r = 8
    bleu = bp * (7 / 7 * 5 / 6 * 3 / 5 * 1 / 4) ** (1 / 4)
    theirs = BLEU(tokenize="none").corpus_score([" ".join("我爱北京天安门")], [[" ".join("我爱北京的天安门")]]).score
    assert bleu == pytest.approx(theirs / 100, abs=1e-12)
    block = re.search(r"```python\n(.*?)```", DOC, flags=re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "docs/bleu.md", "exec"), {})
    shown = re.search(r"^# (.+)$", block, flags=re.M).group(1)
    assert out.getvalue().strip() == shown == f"{round(bleu, 4)} {round(bp, 4)} [7, 5, 3, 1] [7, 6, 5, 4]"
    assert f"exp(1 − 8/7) = {round(bp, 4)}" in DOC and f"= {round(bleu, 4)}`" in DOC


def test_a_short_text_scores_0_as_corpus_and_1_as_sentence():
    assert zheval.compute_bleu(["你好"], [["你好"]])["bleu"] == 0.0
    assert zheval.compute_bleu(["你好"], [["你好"]], level="sentence")["bleu"] == 1.0
    assert "`你好` against `你好`\nscores 1" in DOC or "`你好` against `你好` scores 1" in DOC.replace("\n", " ")
