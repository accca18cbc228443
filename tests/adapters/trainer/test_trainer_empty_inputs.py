"""The Trainer hook on nothing to score: an empty evaluation set is an error; items whose reference has no tokens for
a metric's scoring tokenizer (not only references that decode to "") are skipped and counted, or refused with
``empty_references="error"`` — the library is never handed a reference it would read as length 0."""

from __future__ import annotations

import logging

import numpy as np
import pytest
import torch
from transformers import EvalPrediction

from helpers.trainer_models import make_tokenizer
from zheval.adapters.trainer import build_compute_metrics, decode_predictions
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge

PAIRS = [
    ("今天天气很好", "今天天气很好！"),
    ("好", "……"),  # punctuation only: no tokens with punct="drop"
    ("明天有雨", "明天有雨记得带伞"),
    ("嗯", "！？"),  # punctuation only
    ("小黄鸭", "小黄鸭"),
]
KEEP = [0, 2, 4]


@pytest.fixture(scope="module")
def tok():
    return make_tokenizer(extra_chars="".join(p + r for p, r in PAIRS))


def arrays(tok, pairs):
    def enc(texts, width):
        rows = [tok(t, add_special_tokens=False)["input_ids"] + [tok.eos_token_id] for t in texts]
        return np.array([r + [-100] * (width - len(r)) for r in rows])

    return enc([p for p, _ in pairs], 12), enc([r for _, r in pairs], 12)


# -- an empty evaluation set -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: (np.zeros((0, 7), dtype=np.int64), np.zeros((0, 7), dtype=np.int64)),
        lambda: (np.zeros((0, 7, 11), dtype=np.float32), np.zeros((0, 7), dtype=np.int64)),  # logits
        lambda: (np.array([]), np.array([])),
        lambda: ([], []),
        lambda: EvalPrediction(predictions=torch.zeros(0, 5, dtype=torch.long), label_ids=torch.zeros(0, 5)),
    ],
    ids=["ids", "logits", "1-d", "lists", "torch"],
)
def test_empty_evaluation_set_is_a_clear_error(tok, make):
    hook = build_compute_metrics(tok)
    with pytest.raises(ValueError, match=r"empty evaluation set \(0 items in this call\).*eval_dataset"):
        hook(make())
    # decoding nothing is not an error: it is the scoring that has no meaning
    assert decode_predictions(make(), tok) == ([], [])


def test_empty_evaluation_set_in_batch_mode(tok):
    hook = build_compute_metrics(tok)
    empty = EvalPrediction(predictions=torch.zeros(0, 5, dtype=torch.long), label_ids=torch.zeros(0, 5))
    assert hook(empty, compute_result=False) == {}
    with pytest.raises(ValueError, match=r"empty evaluation set \(0 items in the batches of this evaluation\)"):
        hook(empty, compute_result=True)
    # the state was reset: the next evaluation is scored normally (an empty batch among real ones adds nothing)
    preds, labels = arrays(tok, PAIRS[:1])
    assert hook(empty, compute_result=False) == {}
    got = hook(EvalPrediction(predictions=torch.tensor(preds), label_ids=torch.tensor(labels)), compute_result=True)
    assert got == build_compute_metrics(tok)((preds, labels))


def test_every_reference_empty_is_still_nan_and_counted(tok):
    """Items were given but all skipped (the documented case): nan scores and the count, not the empty-set error."""
    preds, labels = arrays(tok, [("好", "")])
    labels[:] = -100
    got = build_compute_metrics(tok)((preds, labels))
    assert got["empty_references"] == 1.0 and np.isnan(got["bleu"]) and np.isnan(got["rouge1"])


# -- references with no tokens for the scoring tokenizer ---------------------------------------------------------------


def test_punctuation_only_references_are_skipped_with_punct_drop(tok, caplog):
    preds, labels = arrays(tok, PAIRS)
    hook = build_compute_metrics(tok, punct="drop")
    with caplog.at_level(logging.WARNING, logger="zheval.adapters.trainer"):
        got = hook((preds, labels))
    kept_p, kept_r = [PAIRS[i][0] for i in KEEP], [PAIRS[i][1] for i in KEEP]
    assert hook.predictions == kept_p and hook.references == kept_r
    bleu = compute_bleu(kept_p, kept_r, punct="drop")
    rouge = compute_rouge(kept_p, kept_r, punct="drop")
    assert got["bleu"] == bleu["bleu"] and got["reference_length"] == bleu["reference_length"]
    assert got["rouge1"] == rouge["rouge1"] and got["rougeL"] == rouge["rougeL"]
    assert got["empty_references"] == 2.0
    assert "skipped 2 of 5 items whose reference is empty" in caplog.text
    # the brevity penalty counts the kept references only: 6 + 8 + 3 characters (the "！" of item 0 is dropped)
    assert got["reference_length"] == 6 + 8 + 3
    # batch mode: the same items, the same count
    p, r = torch.tensor(preds), torch.tensor(labels)
    batched = build_compute_metrics(tok, punct="drop")
    assert batched(EvalPrediction(predictions=p[:2], label_ids=r[:2]), compute_result=False) == {}
    assert batched(EvalPrediction(predictions=p[2:], label_ids=r[2:]), compute_result=True) == got


def test_with_punct_kept_nothing_is_skipped(tok):
    preds, labels = arrays(tok, PAIRS)
    got = build_compute_metrics(tok)((preds, labels))
    assert "empty_references" not in got
    assert got["bleu"] == compute_bleu([p for p, _ in PAIRS], [r for _, r in PAIRS])["bleu"]


def test_one_metric_without_tokens_skips_the_item_for_every_metric(tok):
    """ROUGE drops punctuation, BLEU keeps it: both score the same 3 items (one count, comparable numbers)."""
    preds, labels = arrays(tok, PAIRS)
    hook = build_compute_metrics(tok, metrics=[("chinese_rouge", {"punct": "drop"}), "chinese_bleu"])
    got = hook((preds, labels))
    kept_p, kept_r = [PAIRS[i][0] for i in KEEP], [PAIRS[i][1] for i in KEEP]
    assert got["empty_references"] == 2.0
    assert got["bleu"] == compute_bleu(kept_p, kept_r)["bleu"]
    assert got["rouge2"] == compute_rouge(kept_p, kept_r, punct="drop")["rouge2"]


def test_error_mode_names_the_item_and_the_metric(tok):
    preds, labels = arrays(tok, PAIRS)
    hook = build_compute_metrics(tok, punct="drop", empty_references="error")
    with pytest.raises(ValueError, match=r"item 1 of this evaluation call \(and 1 more\) has a reference that has no "
                                         r"tokens for the scoring tokenizer of chinese_rouge \('……'\)"):
        hook((preds, labels))


def test_a_user_tokenizer_that_returns_no_tokens(tok):
    def content_words(text):
        return [c for c in text if c not in "好嗯"]  # a reference made only of these has no tokens

    pairs = [("今天天气很好", "今天天气很好"), ("嗯", "好"), ("小黄鸭", "小黄鸭好")]
    preds, labels = arrays(tok, pairs)
    got = build_compute_metrics(tok, tokenizer=content_words, metrics=["chinese_bleu"])((preds, labels))
    assert got["empty_references"] == 1.0
    want = compute_bleu(["今天天气很好", "小黄鸭"], ["今天天气很好", "小黄鸭好"], tokenizer=content_words)
    assert got["bleu"] == want["bleu"] and got["reference_length"] == want["reference_length"] == 5 + 3


def test_zheval_evaluate_modules_in_the_hook_skip_the_same_items(tok):
    """metrics/chinese_rouge loaded as an evaluate module (alone, and combined with chinese_bleu): the hook knows the
    tokenizer its compute builds and skips the same items (the module itself would refuse such a reference)."""
    import evaluate

    from helpers import REPO

    preds, labels = arrays(tok, PAIRS)
    rouge = evaluate.load(str(REPO / "metrics" / "chinese_rouge"), keep_in_memory=True)
    got = build_compute_metrics(tok, metrics=[rouge], punct="drop", rouge_types=["rouge1"])((preds, labels))
    kept_p, kept_r = [PAIRS[i][0] for i in KEEP], [PAIRS[i][1] for i in KEEP]
    assert got["empty_references"] == 2.0
    assert got["rouge1"] == compute_rouge(kept_p, kept_r, punct="drop", rouge_types=["rouge1"])["rouge1"]
    combined = evaluate.combine([str(REPO / "metrics" / "chinese_rouge"), str(REPO / "metrics" / "chinese_bleu")])
    got = build_compute_metrics(tok, metrics=[combined], punct="drop")((preds, labels))
    assert got["empty_references"] == 2.0
    assert got["bleu"] == compute_bleu(kept_p, kept_r, punct="drop")["bleu"]
