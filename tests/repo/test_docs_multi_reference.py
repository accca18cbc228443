"""docs/multi_reference.md stays true: its example prints what its comments say, and those numbers are the hand
computations of the page's table (ROUGE-1 on characters: 猫坐在垫子上 against 猫趴在垫子上面 and 坐垫上)."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

import zheval
from helpers import REPO

DOC = (REPO / "docs" / "multi_reference.md").read_text(encoding="utf-8")
PRED, REFS = ["猫坐在垫子上"], [["猫趴在垫子上面", "坐垫上"]]

# written out: reference 1 shares 5 of its 7 characters with the 6 of the prediction, reference 2 all its 3
P1, R1, F1 = 5 / 6, 5 / 7, 2 * 5 / (6 + 7)
P2, R2, F2 = 3 / 6, 3 / 3, 2 * 3 / (6 + 3)
HAND = {
    "max": (P1, R1, F1),  # F1 > F2
    "mean": ((P1 + P2) / 2, (R1 + R2) / 2, (F1 + F2) / 2),
    "pool": (8 / 12, 8 / 10, 2 * 8 / (12 + 10)),  # hits 5 + 3, reference lengths 7 + 3, k * 6 prediction characters
    "best_recall": (P2, R2, F2),  # R2 = 1 > R1
}


@pytest.mark.parametrize("rule", sorted(HAND))
def test_each_rule_is_the_hand_computation(rule):
    out = zheval.compute_rouge(PRED, REFS, rouge_types=["rouge1"], multi_ref=rule, return_precision_recall=True)
    got = (out["rouge1_precision"], out["rouge1_recall"], out["rouge1"])
    assert got == pytest.approx(HAND[rule], abs=1e-12)


def test_the_example_prints_what_its_comments_say():
    block = re.search(r"```python\n(.*?)```", DOC, flags=re.S).group(1)
    shown = {m.group(1): float(m.group(2)) for m in re.finditer(r"^# (\w+) (\d\.\d{4})", block, flags=re.M)}
    assert set(shown) == set(HAND)
    assert shown == {rule: round(HAND[rule][2], 4) for rule in HAND}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "docs/multi_reference.md", "exec"), {})
    assert out.getvalue().split() == [w for rule, v in shown.items() for w in (rule, str(v))]
    for rule, (_, _, f) in HAND.items():  # and the table's F column
        assert f"{round(f, 4):.4f}" in DOC


def test_bleu_paragraph():
    out = zheval.compute_bleu(PRED, REFS)
    # every character matched (坐 from the second reference), and 7 is the closest reference length to 6
    assert out["counts"][0] == out["totals"][0] == 6 and out["reference_length"] == 7
    assert "all 6\ncharacters match" in DOC or "all 6 characters match" in DOC.replace("\n", " ")
