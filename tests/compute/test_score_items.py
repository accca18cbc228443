"""zheval.score as a pair: score_result(score_items(...)) is score(...), and the items of batches concatenate to the
items of the whole -- the same result for every tokenizer and preset, split in 1, 3 or 8 batches (what the engine
doors rely on); item_scores are compute_rouge's per-item lists and compute_bleu(level="sentence")'s scores."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from helpers.engines import CASES, case_id, real_rows

import zheval
from zheval.compute.joint import ScoreItems, item_scores, score_config, score_items, score_result


@pytest.fixture(scope="module")
def texts():
    rows = real_rows()
    return [r["prediction"] for r in rows], [r["references"] for r in rows]


def chunks(n: int, k: int) -> list[tuple[int, int]]:
    step = -(-n // k)
    return [(i, min(n, i + step)) for i in range(0, n, step)]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_batches_concatenate_to_the_result_of_score(texts, case):
    metrics, options = case
    preds, refs = texts
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = zheval.score(preds, refs, metrics, **options)
        config = score_config(metrics, **options)
        assert score_result(score_items(preds, refs, config), config) == want
        for k in (3, 8):
            parts = [score_items(preds[a:b], refs[a:b], config, warn=False) for a, b in chunks(len(preds), k)]
            assert score_result(ScoreItems.concat(parts), config) == want, k


def test_a_group_is_the_score_of_its_rows(texts):
    preds, refs = texts
    config = score_config(bootstrap=100)
    items = score_items(preds, refs, config)
    idx = list(range(0, len(preds), 3))
    assert score_result(items.select(idx), config) == zheval.score([preds[i] for i in idx], [refs[i] for i in idx],
                                                                   bootstrap=100)


def test_item_scores_are_the_per_item_results(texts):
    preds, refs = texts
    config = score_config(tokenizer="jieba", smooth_method="floor")
    cols = item_scores(score_items(preds, refs, config), config)
    rouge = zheval.compute_rouge(preds, refs, tokenizer="jieba", use_aggregator=False, return_precision_recall=True)
    for t in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        for suffix in ("", "_precision", "_recall"):
            assert cols[t + suffix].tolist() == rouge[t + suffix]
    bleu = zheval.compute_bleu(preds, refs, tokenizer="jieba", smooth_method="floor", level="sentence")["scores"]
    assert cols["sentence_bleu"].tolist() == bleu  # the per-item name of every door (--items, --items-out, engines)
    assert cols["sentence_bleu"].dtype == np.float64 and len(cols["sentence_bleu"]) == len(preds)
    assert "bleu" not in cols


def test_concat_refuses_parts_of_different_metrics(texts):
    preds, refs = texts
    both = score_items(preds[:5], refs[:5], score_config())
    rouge_only = score_items(preds[:5], refs[:5], score_config(["rouge"]))
    with pytest.raises(ValueError, match="same metrics"):
        ScoreItems.concat([both, rouge_only])
    with pytest.raises(ValueError, match="at least one part"):
        ScoreItems.concat([])
