"""No silent repair of the library's options (break-it F11): a metric named twice, an empty or repeated
normalisation step, ``rouge_w_weight`` without ``rougeW`` and a skip distance with a leading zero are refused, each
named, as a duplicate ROUGE type, an unknown step and ``smooth_value`` with ``smooth_method="exp"`` already were."""

from __future__ import annotations

import re

import pytest

from zheval import compute_rouge, score
from zheval.compute.options import RougeOptions, check_metrics, check_rouge_types
from zheval.text.normalize import get_normalizer


def test_a_metric_named_twice_is_refused_as_a_rouge_type_twice_is():
    with pytest.raises(ValueError, match=re.escape("metrics has duplicates: ['bleu', 'bleu']")):
        score(["今天天气好"], [["今天天气很好"]], metrics=["bleu", "bleu"])
    with pytest.raises(ValueError, match=re.escape("rouge_types has duplicates: ['rouge1', 'rouge1']")):
        check_rouge_types(["rouge1", "rouge1"])
    assert check_metrics(["bleu", "rouge"], ("rouge", "bleu", "chrf")) == ["bleu", "rouge"]


@pytest.mark.parametrize("spec, message", [
    ("nfkc++zw", "normalize 'nfkc++zw' has an empty step (a '+' at an end or two '+' together)"),
    ("nfkc+", "normalize 'nfkc+' has an empty step (a '+' at an end or two '+' together)"),
    ("+nfkc", "normalize '+nfkc' has an empty step (a '+' at an end or two '+' together)"),
    ("nfkc+nfkc", "normalize 'nfkc+nfkc' names the step 'nfkc' more than once"),
    ("", "normalize '' is empty: give a '+'-joined step list such as 'nfkc+space', 'default', or 'none'"),
    (" ", "normalize ' ' is empty: give a '+'-joined step list"),
    (["zw", "space", "zw"], "normalize ['zw', 'space', 'zw'] names the step 'zw' more than once"),
])
def test_empty_and_repeated_normalize_steps_are_refused(spec, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        get_normalizer(spec)


def test_the_steps_of_the_flags_beside_a_spec_are_still_one_step():
    assert get_normalizer("nfkc+t2s", t2s=True).steps == ("nfkc", "t2s")
    assert get_normalizer("nfkc+zw").steps == ("nfkc", "zw")


def test_rouge_w_weight_without_rouge_w_is_refused():
    msg = "rouge_w_weight is the weight of rougeW, which rouge_types does not name (rouge_types: ['rouge1'])"
    with pytest.raises(ValueError, match=re.escape(msg)):
        compute_rouge(["今天天气好"], [["今天天气很好"]], rouge_types=["rouge1"], rouge_w_weight=1.5)
    msg = ("rouge_w_weight is the weight of rougeW, which rouge_types does not name (rouge_types: ['rouge1', "
           "'rouge2', 'rougeL', 'rougeLsum'])")  # the default types
    with pytest.raises(ValueError, match=re.escape(msg)):
        compute_rouge(["今天天气好"], [["今天天气很好"]], rouge_w_weight=1.5)
    # with rougeW: w = 2, one common run of 4 (今天天气) and 好: WLCS f = 4^2 + 1 = 17; P = sqrt(17/5^2), R = sqrt(17/6^2)
    out = compute_rouge(["今天天气好"], [["今天天气很好"]], rouge_types=["rougeW"], rouge_w_weight=2.0)
    p, r = (17 / 25) ** 0.5, (17 / 36) ** 0.5
    assert out["rougeW"] == pytest.approx(2 * p * r / (p + r), abs=1e-12)


@pytest.mark.parametrize("name", ["rougeS01", "rougeSU04", "rougeS00"])
def test_a_skip_distance_with_a_leading_zero_is_refused_like_rouge01(name):
    for bad in (name, "rouge01"):
        with pytest.raises(ValueError, match=re.escape(f"Unknown ROUGE type {bad!r}")):
            check_rouge_types([bad])
    assert check_rouge_types(["rougeS0", "rougeSU4", "rougeS10"]) == ["rougeS0", "rougeSU4", "rougeS10"]
    assert RougeOptions(rouge_types=["rougeS4"]).rouge_types == ["rougeS4"]
