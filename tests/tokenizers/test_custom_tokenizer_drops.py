"""A user tokenizer's empty or whitespace-only tokens are dropped with a DroppedTokensWarning, never silently
(issue 35): rouge-score counts them with the same callable, so the numbers differ and the user is told how to agree
with both; a tokenizer that returns none gives rouge-score's number, without a warning."""

from __future__ import annotations

import warnings

import pytest
from rouge_score import rouge_scorer

import zheval
from zheval.tokenizers.custom import DroppedTokensWarning


class _Tok:
    def __init__(self, fn):
        self.tokenize = fn


def test_dropped_tokens_warn_and_the_clean_tokenizer_equals_rouge_score():
    pred, ref = "猫坐在垫子上", "猫趴在垫子上面"
    with pytest.warns(DroppedTokensWarning, match="empty or whitespace-only tokens"):
        got = zheval.compute_rouge([pred], [[ref]], tokenizer=lambda s: [""] + list(s), rouge_types=["rouge1"])
    # by hand: 5 of the 6 prediction characters match 5 of the 7 reference characters -> F = 2*5/(6+7)
    assert got["rouge1"] == pytest.approx(10 / 13)
    clean = rouge_scorer.RougeScorer(["rouge1"], tokenizer=_Tok(list)).score(ref, pred)["rouge1"].fmeasure
    with warnings.catch_warnings():
        warnings.simplefilter("error", DroppedTokensWarning)
        assert zheval.compute_rouge([pred], [[ref]], tokenizer=list, rouge_types=["rouge1"])["rouge1"] == clean


PREDS, REFS = ["猫坐在垫子上", "你好", "再见"], [["猫趴在垫子上面"], ["您好"], ["再见"]]


def _drops(s):
    return [""] + list(s) + [" "]


@pytest.mark.parametrize("name, call", [
    ("compute_rouge", lambda: zheval.compute_rouge(PREDS, REFS, tokenizer=_drops, rouge_types=["rouge1", "rougeLsum"])),
    ("compute_bleu", lambda: zheval.compute_bleu(PREDS, REFS, tokenizer=_drops)),
    ("score", lambda: zheval.score(PREDS, REFS, tokenizer=_drops)),
    ("explain", lambda: zheval.explain(PREDS[0], REFS[0], tokenizer=_drops)),
])
def test_dropped_tokens_warn_once_per_call(name, call):
    """Issue 35: one warning per call, not one per text (6 texts here) nor one per metric (score and explain wrap
    the callable once per metric); pytest.warns records every warning ('always')."""
    with pytest.warns(DroppedTokensWarning) as record:
        call()
    assert sum(issubclass(w.category, DroppedTokensWarning) for w in record) == 1, [str(w.message) for w in record]
    with pytest.warns(DroppedTokensWarning) as record:
        call()  # the next call warns again
    assert sum(issubclass(w.category, DroppedTokensWarning) for w in record) == 1
