"""Ids the tokenizer cannot decode, in both directions (issue 35): a negative prediction or label id other than
-100 is refused; a label id >= the vocabulary size is refused; a prediction id >= the vocabulary size (an output
layer wider than the tokenizer, as T5's 32,128 logits for 32,100 tokens) is left out and counted in a warning —
never dropped without a word, which is what the tokenizer alone does (rougeL 0.4821 -> 0.4817 in newcomer-4 S3)."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from helpers.trainer_models import make_tokenizer
from zheval.adapters.trainer import build_compute_metrics, decode_predictions, prediction_ids


@pytest.fixture(scope="module")
def tok():
    return make_tokenizer()


def _ids(tok, text, length):
    r = tok(text, add_special_tokens=False)["input_ids"]
    return r + [-100] * (length - len(r))


def test_the_tokenizer_alone_drops_an_id_beyond_its_vocabulary_without_a_word(tok):
    # the silent behaviour the hook must not inherit: the fast tokenizer decodes the id to nothing
    good = tok(["今天"], add_special_tokens=False)["input_ids"][0]
    assert tok.decode(good + [len(tok) + 5], skip_special_tokens=True) == tok.decode(good, skip_special_tokens=True)


def test_prediction_id_beyond_the_vocabulary_is_counted_and_warned(tok, caplog):
    vocab = len(tok)
    preds = np.array([_ids(tok, "今天天气", 6), _ids(tok, "小黄鸭", 6)])
    labels = np.array([_ids(tok, "今天天气很好", 6), _ids(tok, "小黄鸭", 6)])
    preds[1, 1] = vocab  # the first id past the end
    preds[1, 4] = 1_000_000
    with caplog.at_level(logging.WARNING, logger="zheval.adapters.trainer"):
        p, r = decode_predictions((preds, labels), tok)
    assert p == ["今天天气", "小鸭"]  # 黄 replaced by an undecodable id: left out, as the tokenizer would
    messages = [rec.getMessage() for rec in caplog.records]
    assert any("left out 2 prediction id(s)" in m and f"vocabulary size {vocab}" in m and "1 of 2 items" in m
               and "item 1" in m for m in messages), messages


def test_prediction_ids_reports_the_count_per_item(tok):
    vocab = len(tok)
    preds = np.array([[5, vocab + 1, 6], [5, 6, 7]])
    labels = np.array([[5, 6, 7], [5, 6, 7]])
    dropped: list[int] = []
    p_rows, _ = prediction_ids(preds, labels, pad_token_id=0, vocab_size=vocab, dropped=dropped)
    assert dropped == [1, 0]
    assert p_rows == [[5, 6], [5, 6, 7]]


def test_label_id_beyond_the_vocabulary_is_refused(tok):
    vocab = len(tok)
    preds = np.array([[5, 6, 7]])
    labels = np.array([[5, vocab, 7]])
    with pytest.raises(ValueError, match=rf"label_ids row 0 holds the id {vocab}, beyond .* vocabulary of {vocab}"):
        decode_predictions((preds, labels), tok)


@pytest.mark.parametrize("where", ["predictions", "label_ids"])
def test_negative_ids_are_refused_in_both_arrays(tok, where):
    preds = np.array([[5, 6, 7]])
    labels = np.array([[5, 6, 7]])
    (preds if where == "predictions" else labels)[0, 1] = -1
    with pytest.raises(ValueError, match=rf"{where} row 0 holds the negative id -1"):
        decode_predictions((preds, labels), tok)


def test_the_hook_warns_and_scores_without_the_undecodable_id(tok, caplog):
    hook = build_compute_metrics(tok, metrics=("chinese_rouge",))
    preds = np.array([_ids(tok, "今天天气", 6)])
    labels = np.array([_ids(tok, "今天天气很好", 6)])
    clean = hook((preds, labels))
    preds[0, 5] = len(tok) + 100
    with caplog.at_level(logging.WARNING, logger="zheval.adapters.trainer"):
        dirty = hook((preds, labels))
    # the id is left out (it decodes to nothing), every score as without it, and counted among the metrics
    assert dirty.pop("out_of_vocabulary_ids") == 1.0 and "out_of_vocabulary_ids" not in clean
    assert dirty == clean
    assert any("left out 1 prediction id(s)" in rec.getMessage() for rec in caplog.records)  # ... and said


def test_batched_hook_counts_the_undecodable_ids_of_every_batch(tok):
    hook = build_compute_metrics(tok, metrics=("chinese_rouge",))
    preds = np.array([_ids(tok, "今天天气", 6)])
    labels = np.array([_ids(tok, "今天天气很好", 6)])
    preds[0, 5] = len(tok) + 7
    assert hook((preds, labels), compute_result=False) == {}
    out = hook((preds, labels), compute_result=True)
    assert out["out_of_vocabulary_ids"] == 2.0  # one in each batch


def test_a_generated_unknown_token_is_counted_not_silently_dropped(tok, caplog):
    """A model that writes [UNK]: skip_special_tokens=True drops it (transformers' decode), so the text loses a token;
    the hook says so and counts it as 'unknown_tokens' (issue 35: never a silent drop)."""
    assert tok.unk_token_id in tok.all_special_ids
    hook = build_compute_metrics(tok, metrics=("chinese_rouge",))
    labels = np.array([_ids(tok, "今天天气很好", 6)])
    clean = hook((np.array([_ids(tok, "今天天气", 6)]), labels))
    preds = np.array([_ids(tok, "今天天气", 6)])
    preds[0, 4] = tok.unk_token_id
    with caplog.at_level(logging.WARNING, logger="zheval.adapters.trainer"):
        dirty = hook((preds, labels))
    assert dirty.pop("unknown_tokens") == 1.0 and "unknown_tokens" not in clean
    assert dirty == clean  # the [UNK] decodes to nothing: the same text, the same scores
    assert any("unknown token" in rec.getMessage() and "'unknown_tokens'" in rec.getMessage()
               for rec in caplog.records)


def test_unknown_label_tokens_and_empty_predictions_are_counted(tok, caplog):
    """An [UNK] in the labels is dropped from the reference by the decode, and a prediction row of padding decodes
    to nothing: both are counted in the metrics and logged, never silent (issue 35 second break-it pass)."""
    hook = build_compute_metrics(tok, metrics=("chinese_rouge",))
    preds = np.array([_ids(tok, "今天天气", 6), [-100] * 6])
    labels = np.array([_ids(tok, "今天天气很好", 6), _ids(tok, "好的", 6)])
    labels[0, 5] = tok.unk_token_id
    with caplog.at_level(logging.WARNING, logger="zheval.adapters.trainer"):
        out = hook((preds, labels))
    # every unknown id in the label array (the vocabulary lacks some of these characters too) and the one set here
    assert out["reference_unknown_tokens"] == float((labels == tok.unk_token_id).sum()) >= 1.0
    assert out["empty_predictions"] == 1.0
    messages = " ".join(rec.getMessage() for rec in caplog.records)
    assert "'reference_unknown_tokens'" in messages and "'empty_predictions'" in messages
