"""ROUGE-W's weight (break-it 5, F1): a weight below 1 is refused at every door (it gave P = R = F = 1.0 through a
silent clip), w = 1 is ROUGE-L, a weight whose f(length) overflows is a clear error (it was a bare OverflowError),
and a large finite weight gives the hand-computed number.

The rule (Lin 2004, section 3.3: f(k) = k**w with f(x + y) > f(x) + f(y); ROUGE-1.5.5's ``-w``: "typically this is
set to 1.2 or other number greater than 1") is `zheval.definitions.rouge.check_rouge_w_weight_value`.
"""

from __future__ import annotations

import re

import pytest

import zheval
from helpers.cli import run_cli
from zheval.compute.options import RougeOptions
from zheval.definitions.lcs import wlcs_f
from zheval.definitions.rouge import make_item_scorer, rouge_w, score_from_stats, score_item
from zheval.presets.rouge155 import make_rouge155_item_scorer

# 甲乙丙丁 against 甲子乙子丙子丁子 (char tokens): four runs of one matched character, LCS 4, |hyp| 4, |ref| 8
HYP, REF = "甲乙丙丁", "甲子乙子丙子丁子"
BELOW = "rouge_w_weight must be a finite number >= 1"


@pytest.mark.parametrize("weight", [0.5, 0.999, 0.001, 0, -1.2, float("nan"), float("inf"), True])
def test_a_weight_below_one_or_not_a_number_is_refused_by_the_library(weight):
    # on main, 0.5 gave P = R = F = 1.0: WLCS = 4 * 1**0.5 = 4 > f(4) = 4**0.5 = 2, so (4/2)**2 = 4, clipped to 1
    with pytest.raises(ValueError, match=re.escape(BELOW)):
        zheval.compute_rouge([HYP], [[REF]], rouge_types=["rougeW"], rouge_w_weight=weight,
                             return_precision_recall=True)
    with pytest.raises(ValueError, match=re.escape(BELOW)):
        RougeOptions(rouge_types=["rougeW"], rouge_w_weight=weight)
    with pytest.raises(ValueError, match=re.escape(BELOW)):
        zheval.score([HYP], [[REF]], metrics=["rouge"], rouge_types=["rougeW"], rouge_w_weight=weight)
    with pytest.raises(ValueError, match=re.escape(BELOW)):
        zheval.explain(HYP, [REF], metrics=["rouge"], rouge_types=["rougeW"], rouge_w_weight=weight)


@pytest.mark.parametrize("weight", [0.5, 0.999])
def test_a_weight_below_one_is_refused_by_the_definitions_and_the_rouge155_formula(weight):
    for call in (lambda: make_item_scorer(["rougeW"], rouge_w_weight=weight),
                 lambda: score_item([list(HYP)], [[list(REF)]], ["rougeW"], rouge_w_weight=weight),
                 lambda: rouge_w(list(HYP), list(REF), weight),
                 lambda: make_rouge155_item_scorer(["rougeW"], rouge_w_weight=weight),
                 lambda: zheval.compute_rouge([HYP], [[REF]], preset="rouge155", rouge_types=["rougeW"],
                                              rouge_w_weight=weight)):
        with pytest.raises(ValueError, match=re.escape(BELOW)):
            call()


def test_weight_one_is_accepted_and_equals_rouge_l():
    # f(k) = k: WLCS = 1 + 1 + 1 + 1 = 4 = LCS; P = 4/4 = 1, R = 4/8 = 0.5, F = 2 * 0.5 / 1.5 = 2/3
    out = zheval.compute_rouge([HYP], [[REF]], rouge_types=["rougeW", "rougeL"], rouge_w_weight=1,
                               return_precision_recall=True)
    assert (out["rougeW_precision"], out["rougeW_recall"]) == (1.0, 0.5)
    assert out["rougeW"] == pytest.approx(2 / 3, abs=1e-15)
    assert out["rougeW"] == out["rougeL"]
    assert "|w:1|" in out["signature"]


def test_weight_two_and_fifty_give_the_hand_computed_numbers():
    # w = 2: WLCS = 4 runs of 1 = 4; P = (4 / 4**2) ** 0.5 = 0.5, R = (4 / 8**2) ** 0.5 = 0.25, F = 1/3
    out = zheval.compute_rouge([HYP], [[REF]], rouge_types=["rougeW"], rouge_w_weight=2,
                               return_precision_recall=True)
    assert out["rougeW_precision"] == pytest.approx(0.5, abs=1e-15)
    assert out["rougeW_recall"] == pytest.approx(0.25, abs=1e-15)
    assert out["rougeW"] == pytest.approx(1 / 3, abs=1e-15)
    # w = 50: P = (4 / 4**50) ** (1/50) = 4 ** (1/50) / 4, R = (4 / 8**50) ** (1/50) = 4 ** (1/50) / 8
    out = zheval.compute_rouge([HYP], [[REF]], rouge_types=["rougeW"], rouge_w_weight=50,
                               return_precision_recall=True)
    p, r = 4 ** (1 / 50) / 4, 4 ** (1 / 50) / 8
    assert out["rougeW_precision"] == pytest.approx(p, rel=1e-12)
    assert out["rougeW_recall"] == pytest.approx(r, rel=1e-12)
    assert out["rougeW"] == pytest.approx(2 * p * r / (p + r), rel=1e-12)
    # one run: 甲乙丙丁 inside 甲乙丙丁戊: WLCS = 4**50, P = 1, R = (4**50 / 5**50) ** (1/50) = 0.8
    out = zheval.compute_rouge([HYP], [[HYP + "戊"]], rouge_types=["rougeW"], rouge_w_weight=50,
                               return_precision_recall=True)
    assert out["rougeW_precision"] == 1.0
    assert out["rougeW_recall"] == pytest.approx(0.8, rel=1e-12)


def test_a_weight_whose_power_overflows_is_a_clear_error_at_every_path():
    # 2 ** 1e6 overflows a float: a ValueError naming rouge_w_weight, never a bare OverflowError
    msg = "rouge_w_weight=1000000.0 is too large for these texts"
    with pytest.raises(ValueError, match=re.escape(msg)):
        zheval.compute_rouge([HYP], [[REF]], rouge_types=["rougeW"], rouge_w_weight=1e6)
    with pytest.raises(ValueError, match=re.escape(msg)):
        score_item([list(HYP)], [[list(REF)]], ["rougeW"], rouge_w_weight=1e6)
    with pytest.raises(ValueError, match=re.escape(msg)):
        zheval.compute_rouge([HYP], [[REF]], preset="rouge155", rouge_types=["rougeW"], rouge_w_weight=1e6)
    with pytest.raises(ValueError, match=re.escape(msg)):
        zheval.explain(HYP, [REF], metrics=["rouge"], rouge_types=["rougeW"], rouge_w_weight=1e6)
    # 8 ** w is finite up to w = log(1.797e308) / log(8) = 341.33...: the bound is named
    with pytest.raises(ValueError, match=re.escape("at k = 8, where w can be at most 341.333")):
        wlcs_f(8, 400.0)
    assert wlcs_f(8, 300.0) == 8 ** 300.0


def test_the_clip_of_a_rouge_w_ratio_covers_float_rounding_only():
    # a ratio above 1 by more than rounding is an error, no longer a plausible 1.0
    with pytest.raises(ValueError, match="exceeds 1"):
        score_from_stats(5.0, 4.0, 4.0, inv_weight=1 / 1.2)
    # one ulp above 1 is rounding: 1.0
    one_up = 1.0 + 2.0 ** -52
    assert score_from_stats(4.0 * one_up, 4.0, 4.0, inv_weight=1 / 1.2) == (1.0, 1.0, 1.0)


def test_the_command_line_refuses_a_weight_below_one_and_an_overflowing_one(tmp_path):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text(REF + "\n", encoding="utf-8")
    hyp.write_text(HYP + "\n", encoding="utf-8")
    below = BELOW.replace("rouge_w_weight", "--rouge-w-weight")  # the option as typed (cli/option_names.py)
    for weight, message in (("0.5", below), ("0.001", below), ("1e6", "is too large for these texts")):
        res = run_cli("rouge", ref, "-i", hyp, "--rouge-types", "rougeW", "--rouge-w-weight", weight, "-b")
        assert res.exit_code != 0
        assert message in res.stderr and "Traceback" not in res.output and "rouge_w_weight" not in res.stderr
    res = run_cli("rouge", ref, "-i", hyp, "--rouge-types", "rougeW", "--rouge-w-weight", "2", "-b",
                  "--tokenizer", "char")
    assert res.exit_code == 0 and res.stdout.strip() == "33.3"  # F = 1/3 (above), 0-100


def test_the_evaluate_module_refuses_a_weight_below_one():
    evaluate = pytest.importorskip("evaluate")
    from helpers import METRICS

    module = evaluate.load(str(METRICS / "chinese_rouge"))
    with pytest.raises(ValueError, match=re.escape(BELOW)):
        module.compute(predictions=[HYP], references=[[REF]], rouge_types=["rougeW"], rouge_w_weight=0.5)
