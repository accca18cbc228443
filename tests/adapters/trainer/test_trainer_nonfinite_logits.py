"""Float predictions that hold NaN or infinities (issue 35, "nothing reinterpreted silently"): ``argmax`` treats NaN
as the largest value, so a NaN logit decided the token (BLEU 0.643 -> 1.0 in a break-it run), and a position whose
logits are all NaN or all ``-inf`` became token id 0. Such positions are refused, naming the row and the position,
in the hook (numpy arrays and torch tensors) and in ``preprocess_logits_for_metrics``. ``-inf`` (masked tokens) and
one ``+inf`` per position (an unambiguous maximum) are still read; float ids holding whole numbers still decode."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from helpers.trainer_models import make_tokenizer
from zheval.adapters.trainer import build_compute_metrics, decode_predictions, preprocess_logits_for_metrics


@pytest.fixture(scope="module")
def tok():
    return make_tokenizer()


def _ids(tok, text):
    return tok(text, add_special_tokens=False)["input_ids"]


def _logits(tok, texts, fill=0.0):
    """Logits ``(len(texts), 4, vocab)``: 1.0 on each character's id, ``fill`` everywhere else; positions past a
    text's end put 1.0 on the pad id."""
    out = np.full((len(texts), 4, len(tok)), fill, dtype=np.float32)
    for b, text in enumerate(texts):
        row = _ids(tok, text) + [tok.pad_token_id] * (4 - len(text))
        for t, i in enumerate(row):
            out[b, t, i] = 1.0
    return out


def _labels(tok, texts):
    return np.array([_ids(tok, t) + [-100] * (4 - len(t)) for t in texts])


TEXTS = ["今天天气", "小黄鸭"]


def test_numpy_argmax_alone_picks_a_nan_and_makes_an_all_nan_vector_id_0():
    # the silent behaviour the hook must not inherit
    assert int(np.argmax(np.array([0.0, np.nan, 5.0]))) == 1
    assert int(np.argmax(np.full(4, np.nan))) == 0
    assert int(np.argmax(np.full(4, -np.inf))) == 0


def test_clean_logits_decode(tok):
    # the arrays of the tests below, before anything is broken
    assert decode_predictions((_logits(tok, TEXTS), _labels(tok, TEXTS)), tok) == (TEXTS, TEXTS)


def test_one_nan_logit_is_refused_naming_row_and_position(tok):
    logits = _logits(tok, TEXTS)
    logits[1, 2, _ids(tok, "好")[0]] = np.nan  # argmax would read 小黄好 where the model wrote 小黄鸭
    with pytest.raises(ValueError, match=r"predictions row 1 position 2: the logits hold NaN"):
        decode_predictions((logits, _labels(tok, TEXTS)), tok)


def test_an_all_nan_position_is_refused_not_read_as_id_0(tok):
    logits = _logits(tok, TEXTS)
    logits[0, 3, :] = np.nan
    with pytest.raises(ValueError, match=r"predictions row 0 position 3: the logits hold NaN"):
        decode_predictions((logits, _labels(tok, TEXTS)), tok)


def test_the_first_bad_position_is_named_and_the_others_counted(tok):
    logits = _logits(tok, TEXTS)
    logits[1, 3, 5] = np.nan
    logits[0, 1, 7] = np.nan
    logits[1, 0, :] = np.nan
    # row-major order: (0, 1) first; two more positions
    with pytest.raises(ValueError, match=r"predictions row 0 position 1: .*NaN.*\(and 2 more positions\)"):
        decode_predictions((logits, _labels(tok, TEXTS)), tok)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_torch_logits_with_nan_are_refused(tok, dtype):
    logits = torch.tensor(_logits(tok, TEXTS)).to(dtype)
    logits[0, 2, 4] = float("nan")
    with pytest.raises(ValueError, match=r"predictions row 0 position 2: the logits hold NaN"):
        decode_predictions(((logits,), torch.tensor(_labels(tok, TEXTS))), tok)


def test_preprocess_logits_for_metrics_refuses_nan(tok):
    logits = torch.tensor(_logits(tok, TEXTS))
    logits[1, 1, :] = float("nan")
    with pytest.raises(ValueError, match=r"logits row 1 position 1: the logits hold NaN"):
        preprocess_logits_for_metrics((logits, torch.zeros(2, 4, 3)), None)


def test_the_hook_refuses_nan_whole_set_and_per_batch(tok):
    hook = build_compute_metrics(tok, metrics=("chinese_bleu",))
    logits = _logits(tok, TEXTS)
    logits[1, 0, 3] = np.nan
    with pytest.raises(ValueError, match=r"predictions row 1 position 0: the logits hold NaN"):
        hook((logits, _labels(tok, TEXTS)))
    with pytest.raises(ValueError, match=r"predictions row 1 position 0: the logits hold NaN"):
        hook((torch.tensor(logits), torch.tensor(_labels(tok, TEXTS))), compute_result=False)


def test_nan_is_refused_even_where_causal_lm_masks_the_position(tok):
    # predictions 请打开鸭 at positions 0..3 are for the labels at 1..4: -100 at 1 masks position 0 (请),
    # positions 1 and 2 (打, 开) are scored against 开, 鸭, position 3 has no label. NaN at 0 is a broken model too
    logits = _logits(tok, ["请打开鸭"])
    labels = np.array([[-100, -100] + _ids(tok, "开鸭")])
    assert decode_predictions((logits, labels), tok, causal_lm=True) == (["打开"], ["开鸭"])
    logits[0, 0, :] = np.nan
    with pytest.raises(ValueError, match=r"predictions row 0 position 0: the logits hold NaN"):
        decode_predictions((logits, labels), tok, causal_lm=True)


def test_minus_inf_for_masked_tokens_is_read(tok):
    # -inf on every token but the chosen one (constrained decoding, masked vocabularies): a valid maximum
    logits = _logits(tok, TEXTS, fill=-np.inf)
    assert decode_predictions((logits, _labels(tok, TEXTS)), tok) == (TEXTS, TEXTS)
    out = preprocess_logits_for_metrics(torch.tensor(logits), None)
    assert out[1].tolist() == _ids(tok, "小黄鸭") + [tok.pad_token_id]


def test_a_position_whose_logits_are_all_minus_inf_is_refused(tok):
    logits = _logits(tok, TEXTS, fill=-np.inf)
    logits[1, 1, :] = -np.inf
    with pytest.raises(ValueError, match=r"predictions row 1 position 1: every logit is -inf"):
        decode_predictions((logits, _labels(tok, TEXTS)), tok)
    with pytest.raises(ValueError, match=r"logits row 1 position 1: every logit is -inf"):
        preprocess_logits_for_metrics(torch.tensor(logits), None)


def test_one_plus_inf_is_the_maximum_two_are_refused(tok):
    logits = _logits(tok, TEXTS)
    logits[0, 1, _ids(tok, "好")[0]] = np.inf  # one +inf: the model's clear choice, 今好天气
    assert decode_predictions((logits, _labels(tok, TEXTS)), tok)[0] == ["今好天气", "小黄鸭"]
    logits[0, 1, _ids(tok, "雨")[0]] = np.inf  # two: a tie between overflows, no maximum
    with pytest.raises(ValueError, match=r"predictions row 0 position 1: 2 logits are \+inf"):
        decode_predictions((logits, _labels(tok, TEXTS)), tok)
    with pytest.raises(ValueError, match=r"predictions row 0 position 1: 2 logits are \+inf"):
        decode_predictions((torch.tensor(logits), torch.tensor(_labels(tok, TEXTS))), tok)


def test_float_ids_holding_whole_numbers_still_decode(tok):
    preds = np.array([_ids(tok, "今天天气"), _ids(tok, "小黄鸭") + [-100]], dtype=np.float32)
    assert decode_predictions((preds, _labels(tok, TEXTS)), tok) == (TEXTS, TEXTS)
    assert decode_predictions((torch.tensor(preds), torch.tensor(_labels(tok, TEXTS))), tok) == (TEXTS, TEXTS)


@pytest.mark.parametrize("value, shown", [(np.nan, "NaN"), (np.inf, r"\+inf"), (-np.inf, "-inf"), (2.5, "2.5")])
def test_float_ids_that_are_not_whole_numbers_name_row_and_position(tok, value, shown):
    preds = np.array([_ids(tok, "今天天气"), _ids(tok, "小黄鸭") + [-100]], dtype=np.float64)
    preds[1, 2] = value
    with pytest.raises(ValueError, match=rf"predictions of shape \(2, 4\).*non-integer.*row 1 position 2: {shown}"):
        decode_predictions((preds, _labels(tok, TEXTS)), tok)


@pytest.mark.parametrize("dtype, limit", [(np.float16, 2048), (np.float32, 16777216)])
def test_float_ids_beyond_the_exact_integers_of_their_type_are_refused(tok, dtype, limit):
    # float16 has 10 mantissa bits: 2049 is stored as 2048, another token; float32 (23 bits): 2 ** 24 + 1 -> 2 ** 24
    assert float(np.array(limit + 1, dtype=dtype)) == limit
    preds = np.array([_ids(tok, "今天天气"), _ids(tok, "小黄鸭") + [-100]], dtype=np.float64)
    preds[1, 1] = limit + 1
    preds = preds.astype(dtype)
    name = np.dtype(dtype).name
    with pytest.raises(ValueError, match=rf"token ids in {name}, which keeps whole numbers apart only below {limit}; "
                                         rf"row 1 position 1 holds {limit}"):
        decode_predictions((preds, _labels(tok, TEXTS)), tok)
    with pytest.raises(ValueError, match=rf"only below {limit}; row 1 position 1"):
        decode_predictions((torch.tensor(preds), torch.tensor(_labels(tok, TEXTS))), tok)


def test_bfloat16_ids_beyond_256_are_refused_and_a_huge_float_id_is_not_a_negative_id(tok):
    preds = torch.tensor([_ids(tok, "今天天气"), _ids(tok, "小黄鸭") + [-100]], dtype=torch.float32)
    preds[0, 3] = 257.0  # bfloat16 has 7 mantissa bits: 257 is stored as 256
    with pytest.raises(ValueError, match=r"token ids in bfloat16, which keeps whole numbers apart only below 256; "
                                         r"row 0 position 3 holds 256"):
        decode_predictions((preds.to(torch.bfloat16), torch.tensor(_labels(tok, TEXTS))), tok)
    huge = np.array([_ids(tok, "今天天气"), _ids(tok, "小黄鸭") + [1e30]], dtype=np.float64)
    with pytest.raises(ValueError, match=r"only below 9007199254740992; row 1 position 3 holds 1e\+30"):
        decode_predictions((huge, _labels(tok, TEXTS)), tok)


def test_unsigned_ids_beyond_int64_are_refused_not_wrapped(tok):
    # uint64 2**64 - 100 cast to int64 is -100, the padding id: the item lost a token without a word
    preds = np.array([_ids(tok, "今天天气"), _ids(tok, "小黄鸭") + [0]], dtype=np.uint64)
    preds[0, 1] = np.uint64(2 ** 64 - 100)
    with pytest.raises(ValueError, match=r"predictions row 0 position 1 holds 18446744073709551516 \(uint64\), "
                                         r"beyond int64: not a token id"):
        decode_predictions((preds, _labels(tok, TEXTS)), tok)
    small = np.array([_ids(tok, "今天天气"), _ids(tok, "小黄鸭") + [0]], dtype=np.uint32)
    assert decode_predictions((small, _labels(tok, TEXTS)), tok)[0] == TEXTS
