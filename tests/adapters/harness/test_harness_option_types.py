"""The harness doors take no loose option value (break-it F12): ``ZhevalRougeEvaluator(details="False")`` turned
details on (``bool("False")`` is True); lm-eval's ``standard_error(..., n_resamples=-5)`` or ``True`` silently ran 2
resamples."""

from __future__ import annotations

import pytest

from zheval.adapters import harness_opencompass as OC


@pytest.mark.parametrize("value", ["False", 0, None])
def test_opencompass_details_must_be_a_bool(value):
    with pytest.raises(TypeError) as err:
        OC.ZhevalRougeEvaluator(details=value)
    assert str(err.value) == f"details must be True or False, got {type(value).__name__} {value!r}"


def test_opencompass_details_false_is_off():
    out = OC.ZhevalRougeEvaluator(details=False).score(["他在公园跑步"], ["他每天在公园里跑步"])
    assert "details" not in out


@pytest.mark.parametrize("value", [-5, 0, True, 2.0, "100"])
def test_lm_eval_standard_error_refuses_a_resample_count_out_of_range(value):
    pytest.importorskip("lm_eval", reason="lm-eval is in the test extra (pip install -e '.[test]')")
    from zheval.adapters import lm_eval_harness as H

    items = [H.process_results_char({"id": f"d{i}", "document": "x", "references": [r]}, [p])["zheval_bleu_char"]
             for i, (p, r) in enumerate([("北京今天天气晴朗", "北京今天天气很好"), ("请关窗户", "请关上窗户"),
                                         ("他在公园跑步", "他每天在公园里跑步")])]
    with pytest.raises(ValueError) as err:
        H.standard_error("zheval_bleu_char", items, value)
    assert str(err.value) == ("zheval_bleu_char: n_resamples (lm-eval's bootstrap_iters) must be an int >= 1 (1 gives "
                              f"NaN: a standard error needs 2; BLEU and chrF use at most 1000), got {value!r}")
    # lm-eval --bootstrap_iters 1: said and NaN (was 2 resamples without a word), not an error after a whole run
    import logging
    import math

    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logging.getLogger("zheval.adapters.lm_eval_harness").addHandler(handler)
    try:
        assert math.isnan(H.standard_error("zheval_bleu_char", items, 1))
    finally:
        logging.getLogger("zheval.adapters.lm_eval_harness").removeHandler(handler)
    assert any("no standard error from 1 bootstrap resample" in r.getMessage() for r in records)


def test_opencompass_rouge_types_as_a_comma_list():
    # before: the string was one unknown type ("Unknown ROUGE type 'rouge1,,rougeL'" / "'rouge1,rougeL'")
    with pytest.raises(ValueError) as err:
        OC.ZhevalRougeEvaluator(rouge_types="rouge1,,rougeL").score(["他在公园跑步"], ["他每天在公园里跑步"])
    assert str(err.value) == "rouge_types 'rouge1,,rougeL' has an empty entry (entry 2)"
    listed = OC.ZhevalRougeEvaluator(rouge_types=["rouge1", "rougeL"], details=False)
    joined = OC.ZhevalRougeEvaluator(rouge_types="rouge1,rougeL", details=False)
    args = (["他在公园跑步"], ["他每天在公园里跑步"])
    assert joined.score(*args) == listed.score(*args)
