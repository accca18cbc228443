"""Decoding of Trainer outputs with hand-made arrays: -100 in predictions and labels, logits tuples, the causal-LM
shift, empty generations, all-padding rows, whitespace between characters, torch tensors, and bad input."""

from __future__ import annotations

import logging

import numpy as np
import pytest
import torch
from transformers import EvalPrediction

from helpers.trainer_models import make_tokenizer
from zheval.adapters.trainer import decode_predictions, prediction_ids, preprocess_logits_for_metrics


@pytest.fixture(scope="module")
def tok():
    return make_tokenizer()


def ids(tok, text):
    """Ids of ``text`` without </s> (one per character)."""
    return tok(text, add_special_tokens=False)["input_ids"]


def row(tok, text, length, fill):
    r = ids(tok, text)
    return r + [fill] * (length - len(r))


def one_hot_logits(rows, vocab, dtype=np.float32):
    """Logits whose argmax is the given id at each position (ties impossible)."""
    rows = np.asarray(rows)
    out = np.random.default_rng(0).normal(size=(*rows.shape, vocab)).astype(dtype)
    b, t = np.indices(rows.shape)
    out[b, t, rows] = 100.0
    return out


def test_fixture_tokenizer_decodes_with_spaces_between_characters(tok):
    # the situation the hook must repair: a character vocabulary decodes with spaces
    assert tok.decode(ids(tok, "今天天气"), skip_special_tokens=True) == "今 天 天 气"


def test_minus_100_in_labels_and_predictions(tok):
    eos, pad = tok.eos_token_id, tok.pad_token_id
    preds = np.array([row(tok, "今天天气", 6, -100), row(tok, "小黄鸭", 3, 0) + [eos, -100, -100]])
    labels = np.array([row(tok, "今天天气很好", 6, -100), row(tok, "小黄鸭", 6, -100)])
    labels[1, 3] = eos
    # without the replacement a fast tokenizer overflows on -100 (the bug this hook exists for)
    with pytest.raises(OverflowError):
        tok.batch_decode(preds.tolist(), skip_special_tokens=True)
    p, r = decode_predictions(EvalPrediction(predictions=preds, label_ids=labels), tok)
    assert p == ["今天天气", "小黄鸭"]
    assert r == ["今天天气很好", "小黄鸭"]
    # a plain (predictions, label_ids) tuple works the same
    assert decode_predictions((preds, labels), tok) == (p, r)
    # and -100 becomes the pad id in the id rows
    p_rows, l_rows = prediction_ids(preds, labels, pad_token_id=pad)
    assert p_rows[0] == ids(tok, "今天天气") + [pad, pad]
    assert l_rows[1] == ids(tok, "小黄鸭") + [eos, pad, pad]


def test_logits_tuple_takes_first_element_and_argmax(tok):
    target = [row(tok, "明天有雨", 5, tok.eos_token_id), row(tok, "带伞", 5, tok.pad_token_id)]
    logits = one_hot_logits(target, len(tok))
    hidden = np.zeros((2, 5, 7), dtype=np.float32)
    labels = np.array([row(tok, "明天有雨", 5, -100), row(tok, "记得带伞", 5, -100)])
    p, r = decode_predictions(EvalPrediction(predictions=(logits, hidden), label_ids=labels), tok)
    assert p == ["明天有雨", "带伞"]
    assert r == ["明天有雨", "记得带伞"]


def test_logits_padded_with_minus_100_do_not_decode_as_id_0():
    """The Trainer pads *logits* with -100 along the length axis (nested_concat of batches of different lengths,
    accelerate's pad_across_processes); argmax of such a position must not become id 0 (an ordinary character in
    GPT-2-like vocabularies)."""
    from transformers.trainer_pt_utils import nested_concat

    tok = make_tokenizer(specials_last=True)
    assert tok.convert_ids_to_tokens(0) not in tok.all_special_tokens
    long = one_hot_logits([ids(tok, "明天有雨")], len(tok))
    short = one_hot_logits([ids(tok, "带伞")], len(tok))
    logits = nested_concat(long, short, padding_index=-100)  # what EvalLoopContainer does
    assert logits.shape == (2, 4, len(tok)) and (logits[1, 2:] == -100).all()
    labels = nested_concat(np.array([ids(tok, "明天有雨")]), np.array([ids(tok, "带伞")]), padding_index=-100)
    assert decode_predictions((logits, labels), tok) == (["明天有雨", "带伞"], ["明天有雨", "带伞"])
    # the same on the device, per batch (preprocess_logits_for_metrics after pad_across_processes)
    out = preprocess_logits_for_metrics(torch.tensor(logits), None)
    assert out[1, 2:].tolist() == [-100, -100]
    assert decode_predictions((out, torch.tensor(labels)), tok) == (["明天有雨", "带伞"], ["明天有雨", "带伞"])


def test_causal_lm_shift_and_label_mask(tok):
    # sequence: prompt 请打开 | answer 小黄鸭 </s> | padding; labels -100 on the prompt and the padding
    prompt, answer = ids(tok, "请打开"), ids(tok, "小黄鸭") + [tok.eos_token_id]
    seq = prompt + answer + [tok.pad_token_id] * 2
    labels = np.array([[-100] * len(prompt) + answer + [-100, -100]])
    # position t predicts token t+1. Prediction: correct except the second answer token (黄 -> 天)
    wanted = seq[1:] + [tok.pad_token_id]
    wanted[len(prompt)] = ids(tok, "天")[0]  # predicts seq[len(prompt) + 1] = 黄
    wanted[0] = ids(tok, "我")[0]  # a wrong prompt prediction is masked out
    logits = one_hot_logits([wanted], len(tok))
    p, r = decode_predictions((logits, labels), tok, causal_lm=True)
    assert r == ["小黄鸭"]
    assert p == ["小天鸭"]
    # without the shift the same arrays would be read one position off
    p_rows, l_rows = prediction_ids(logits, labels, pad_token_id=tok.pad_token_id, causal_lm=True)
    assert l_rows == [answer]
    assert len(p_rows[0]) == len(answer)
    # ids (from preprocess_logits_for_metrics), padded with -100 by the Trainer, give the same result
    pred_ids = np.array([wanted[:-2] + [-100, -100]])
    assert decode_predictions((pred_ids, labels), tok, causal_lm=True) == (p, r)


def test_causal_lm_warns_on_generated_ids(tok, caplog):
    # model.generate returns the prompt copied, then the answer: each id equals the label at its own position, so
    # causal_lm=True (the prediction at t is for the label at t + 1) reads them one position off
    prompt, answer = ids(tok, "请打开"), ids(tok, "小黄鸭") + [tok.eos_token_id]
    generated = np.array([prompt + answer + [tok.pad_token_id] * 2])
    labels = np.array([[-100] * len(prompt) + answer + [-100, -100]])
    with caplog.at_level(logging.WARNING, logger="zheval"):
        p, r = decode_predictions((generated, labels), tok, causal_lm=True)
    assert r == ["小黄鸭"] and p == ["开小黄鸭"]  # shifted as asked: the prompt's last id is read for 小
    warned = [rec.getMessage() for rec in caplog.records if "generated ids" in rec.getMessage()]
    assert len(warned) == 1 and "4 prediction id(s) equal the label at their own position" in warned[0]
    assert "causal_lm=False" in warned[0]
    # read in place (causal_lm=False) the same arrays give the answer, without the warning
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="zheval"):
        assert decode_predictions((generated, labels), tok)[0] == ["请打开小黄鸭"]
    assert not [rec for rec in caplog.records if "generated ids" in rec.getMessage()]


def test_causal_lm_teacher_forced_predictions_do_not_warn(tok, caplog):
    answer = ids(tok, "小黄鸭") + [tok.eos_token_id]
    labels = np.array([[-100] + answer])
    teacher_forced = np.array([answer + [tok.pad_token_id]])  # the prediction at t is the label at t + 1
    with caplog.at_level(logging.WARNING, logger="zheval"):
        assert decode_predictions((teacher_forced, labels), tok, causal_lm=True) == (["小黄鸭"], ["小黄鸭"])
    assert not [rec for rec in caplog.records if "generated ids" in rec.getMessage()]


def test_empty_generations_and_all_padding_rows(tok):
    pad, eos = tok.pad_token_id, tok.eos_token_id
    preds = np.array([[pad, eos, pad, pad], [pad, pad, pad, pad], [pad] + ids(tok, "好") + [eos, pad]])
    labels = np.array([row(tok, "很好", 4, -100), [-100] * 4, [pad] * 4])
    p, r = decode_predictions((preds, labels), tok)
    assert p == ["", "", "好"]
    assert r == ["很好", "", ""]


def test_causal_all_masked_row_gives_empty_texts(tok):
    labels = np.array([[-100, -100, -100], [-100] + ids(tok, "好") + [-100]])
    logits = one_hot_logits([ids(tok, "好好好"), ids(tok, "好好好")], len(tok))
    assert decode_predictions((logits, labels), tok, causal_lm=True) == (["", "好"], ["", "好"])


def test_whitespace_normalisation(tok):
    preds = np.array([row(tok, "今天天气", 4, -100)])
    p, _ = decode_predictions((preds, preds), tok)
    assert p == ["今天天气"]
    p_raw, _ = decode_predictions((preds, preds), tok, clean_whitespace=False)
    assert p_raw == ["今 天 天 气"]


def test_torch_tensors_bfloat16_logits_and_devices(tok):
    target = [row(tok, "公园散步", 4, tok.pad_token_id)]
    logits = torch.tensor(one_hot_logits(target, len(tok))).to(torch.bfloat16)
    labels = torch.tensor([row(tok, "去公园散步", 5, -100)])
    p, r = decode_predictions(EvalPrediction(predictions=(logits,), label_ids=labels), tok)
    assert (p, r) == (["公园散步"], ["去公园散步"])


def test_preprocess_logits_for_metrics_reduces_on_device(tok):
    target = [row(tok, "明天", 3, tok.eos_token_id)]
    logits = torch.tensor(one_hot_logits(target, len(tok)))
    out = preprocess_logits_for_metrics((logits, torch.zeros(1, 3, 4)), None)
    assert isinstance(out, torch.Tensor) and out.dtype == torch.long and out.device == logits.device
    assert out.tolist() == target
    assert preprocess_logits_for_metrics(out, None) is out  # ids pass through
    with pytest.raises(ValueError, match=r"\(2, 3, 4, 5\)"):
        preprocess_logits_for_metrics(torch.zeros(2, 3, 4, 5), None)


def test_no_pad_token_is_a_clear_error():
    tok = make_tokenizer(with_pad=False)
    arr = np.zeros((1, 2), dtype=np.int64)
    with pytest.raises(ValueError, match=r"pad_token_id.*tokenizer\.pad_token = tokenizer\.eos_token"):
        decode_predictions((arr, arr), tok)


@pytest.mark.parametrize(
    "preds, labels, pattern",
    [
        (np.zeros(4, dtype=np.int64), np.zeros((4, 3), dtype=np.int64), r"predictions of shape \(4,\)"),
        (np.zeros((2, 3, 4, 5), dtype=np.float32), np.zeros((2, 3), dtype=np.int64), r"shape \(2, 3, 4, 5\)"),
        (np.zeros((2, 3, 4), dtype=np.int64), np.zeros((2, 3), dtype=np.int64), r"shape \(2, 3, 4\)"),
        (np.zeros((2, 3), dtype=np.int64), np.zeros(2, dtype=np.int64), r"label_ids of shape \(2,\)"),
        (
            np.zeros((4, 3), dtype=np.int64),
            np.zeros((2, 3), dtype=np.int64),
            r"\(4, 3\).*\(2, 3\).*num_return_sequences",
        ),
        (np.full((2, 3), 0.5), np.zeros((2, 3), dtype=np.int64), r"\(2, 3\).*non-integer"),
        (np.array([[5, -7, 0]]), np.zeros((1, 3), dtype=np.int64), r"predictions row 0 .*-7"),
        (np.array([[1, 2], [3]], dtype=object), np.zeros((2, 2), dtype=np.int64), r"dtype object"),
    ],
)
def test_undecodable_shapes_name_the_shape(tok, preds, labels, pattern):
    with pytest.raises(ValueError, match=pattern):
        decode_predictions((preds, labels), tok)


def test_causal_lm_needs_equal_lengths(tok):
    with pytest.raises(ValueError, match=r"causal_lm=True.*\(1, 4\).*\(1, 3\)"):
        decode_predictions((np.zeros((1, 4), dtype=np.int64), np.zeros((1, 3), dtype=np.int64)), tok, causal_lm=True)


def test_several_label_arrays_and_missing_labels(tok):
    arr = np.zeros((1, 2), dtype=np.int64)
    with pytest.raises(ValueError, match="tuple of 2 arrays"):
        decode_predictions((arr, (arr, arr)), tok)
    with pytest.raises(ValueError, match="label_ids is None"):
        decode_predictions(EvalPrediction(predictions=arr, label_ids=None), tok)
    with pytest.raises(TypeError, match="EvalPrediction"):
        decode_predictions(arr, tok)
