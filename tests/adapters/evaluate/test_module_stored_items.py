"""A bad batch never poisons a module (issue 13, item 10): add_batch()/add() run the compute path's own validation
(types, lengths, empty reference lists, lone surrogates, blank references) and refuse the whole batch, so nothing of
it is stored and later computes give the right numbers. What only compute()'s options decide (a reference that has
no token with punct="drop") is reported at compute time with the batch that stored the item, and the stored items
are kept. Expected values are hand computations written out here."""

from __future__ import annotations

import math

import evaluate
import pytest

from zheval.compute.inputs import EmptyReferenceError
from helpers import METRICS


# "猫坐在垫子上" (6 chars) vs "猫趴在垫子上面" (7): 5 shared unigrams -> rouge1 F = 10/13; bigrams 5 and 6, 3 shared
# (在垫 垫子 子上) -> rouge2 F = 6/11.
CAT_P, CAT_R = "猫坐在垫子上", "猫趴在垫子上面"
# "我爱北京天安门" (7) vs "我爱北京的天安门" (8): clipped matches 7/7, 5/6, 3/5, 1/4, BP exp(1 - 8/7).
BJ_P, BJ_R = "我爱北京天安门", "我爱北京的天安门"

BAD_BATCHES = [
    (dict(predictions=[CAT_P, CAT_P], references=[[CAT_R], ["  "]]), EmptyReferenceError,
     r"references\[1\]\[0\] is empty: '  ' is whitespace only"),
    (dict(predictions=[CAT_P, CAT_P], references=[[CAT_R], [CAT_R, ""]]), EmptyReferenceError,
     r"references\[1\]\[1\] is empty: '' is the empty string"),
    (dict(predictions=[CAT_P, CAT_P], references=[[CAT_R], []]), ValueError, r"references\[1\] is an empty list"),
    (dict(predictions=[CAT_P, None], references=[CAT_R, CAT_R]), TypeError, r"predictions\[1\] must be str"),
    (dict(predictions=[CAT_P], references=[CAT_R, CAT_R]), ValueError, "same length"),
    (dict(predictions=[CAT_P], references=[["\ud800" + CAT_R]]), ValueError, r"references\[0\]\[0\].*surrogate"),
]


@pytest.fixture(params=["chinese_rouge", "chinese_bleu"])
def module(request):
    return evaluate.load(str(METRICS / request.param))



def _check(name, out, n=1):
    if name == "chinese_rouge":
        assert out["rouge1"] == pytest.approx(10 / 13, abs=1e-12)
        assert out["rouge2"] == pytest.approx(6 / 11, abs=1e-12)
    else:
        # n copies of the BJ item: the counts add up, the ratios (and BLEU) stay
        assert out["counts"] == [7 * n, 5 * n, 3 * n, 1 * n] and out["reference_length"] == 8 * n
        assert out["bleu"] == pytest.approx(math.exp(1 - 8 / 7) * (1 * 5 / 6 * 3 / 5 * 1 / 4) ** 0.25, abs=1e-12)


def _good(name, n=1):
    p, r = (CAT_P, CAT_R) if name == "chinese_rouge" else (BJ_P, BJ_R)
    return [p] * n, [[r]] * n


@pytest.mark.parametrize("batch, error, message", BAD_BATCHES)
def test_a_bad_batch_is_refused_at_add_batch_and_leaves_nothing_behind(module, batch, error, message):
    with pytest.raises(error, match=message):
        module.add_batch(**batch)
    assert len(module) == 0
    # later computes with good data are not affected, with or without stored items
    preds, refs = _good(module.name)
    _check(module.name, module.compute(predictions=preds, references=refs))
    module.add_batch(predictions=preds, references=refs)
    with pytest.raises(error, match=message):
        module.add_batch(**batch)
    assert len(module) == 1
    _check(module.name, module.compute(predictions=preds * 2, references=refs * 2), n=3)  # stored + this call's
    assert len(module) == 0


@pytest.mark.parametrize("item, error, message", [
    (dict(prediction=CAT_P, reference="   "), EmptyReferenceError, r"references\[0\]\[0\] is empty"),
    (dict(prediction=CAT_P, reference=[CAT_R, "\n"]), EmptyReferenceError, r"references\[0\]\[1\] is empty"),
    (dict(prediction=CAT_P, reference=[]), ValueError, r"reference is an empty list"),
    (dict(prediction=3, reference=CAT_R), TypeError, r"prediction must be str"),
])
def test_a_bad_item_is_refused_at_add(module, item, error, message):
    preds, refs = _good(module.name)
    module.add(prediction=preds[0], reference=refs[0])
    with pytest.raises(error, match=message):
        module.add(**item)
    assert len(module) == 1
    _check(module.name, module.compute())


def test_an_option_dependent_empty_reference_is_reported_with_its_batch_and_kept(module):
    preds, refs = _good(module.name)
    module.add_batch(predictions=preds, references=refs)
    module.add_batch(predictions=["好", "好"], references=[["好"], ["……"]])  # "……" has tokens unless punct="drop"
    with pytest.raises(EmptyReferenceError) as info:
        module.compute(punct="drop")
    msg = str(info.value)
    assert "references[2][0] is empty after normalisation and tokenisation (tok:char+nopunct" in msg
    assert "stored by add_batch() call 2, as its references[1]" in msg
    assert "the module still holds its 3 stored item(s)" in msg
    assert len(module) == 3
    # the same stored items with the default options: item 0 as above, items 1-2 ("好" vs "好", "好" vs "……")
    out = module.compute()
    assert len(module) == 0
    if module.name == "chinese_rouge":
        # rouge1: 10/13, 1, 0 -> mean
        assert out["rouge1"] == pytest.approx((10 / 13 + 1 + 0) / 3, abs=1e-12)
    else:
        assert out["counts"][0] == 7 + 1 + 0 and out["totals"][0] == 7 + 1 + 1
