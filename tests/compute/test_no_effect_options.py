"""Options of the library that would change nothing, or be converted silently, are refused (issue 35, break-it
pass 5: F4, F7, F11)."""

from __future__ import annotations

import numpy as np
import pytest

import zheval

PREDS = ["猫坐在垫子上。", "今天天气很好"]
REFS = [["猫在垫子上坐着。"], ["今天天气不错"]]


@pytest.mark.parametrize("weights, where, kind", [
    (["0.25"] * 4, "weights[0]", "str"),
    ([0.5, 0.5, "0", 0], "weights[2]", "str"),
    ([True, False, False, False], "weights[0]", "bool"),
    ([1.0, 0.0, np.bool_(False), 0.0], "weights[2]", "bool"),
    ("1111", "weights", "str"),
])
def test_bleu_weights_refuse_strings_and_bools(weights, where, kind):
    """F11: a str would be converted to a number and a bool would count as 1/0; both refused, naming the entry."""
    with pytest.raises(TypeError, match=rf"{where.replace('[', '[[]')}.* {kind}"):
        zheval.compute_bleu(PREDS, REFS, weights=weights)


def test_bleu_weights_numbers_still_work():
    """Numbers (numpy ones too) still work: uniform weights 1/4 are the default."""
    base = zheval.compute_bleu(PREDS, REFS)["bleu"]
    assert zheval.compute_bleu(PREDS, REFS, weights=[0.25, 0.25, 0.25, 0.25])["bleu"] == pytest.approx(base)
    assert zheval.compute_bleu(PREDS, REFS, weights=np.full(4, 0.25))["bleu"] == pytest.approx(base)
