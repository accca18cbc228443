"""The library doors of the 小黄鸭 report and cleaner take no loose value (break-it F4, F12).

F4: ``evaluate_predictions(metrics="bleu,,rouge" / by="domain,,difficulty" / rouge_types="rouge1,,rougeL" /
buckets="10,,20")`` dropped the empty entries (while a duplicate was refused at the same door).
F12: ``clean_duck(min_chars=True, min_refs=True, dedup_threshold=True)`` read True as 1; ``dedup_threshold="0.5"``
failed with Python's own TypeError from a comparison."""

from __future__ import annotations

import pytest
from datasets import Dataset

from zheval.adapters.duck import clean_duck, duck_features, evaluate_predictions

ROWS = [
    {"id": "a", "query": "快递柜几点关门？", "domain": "售后支持", "difficulty": "易",
     "responses": ["快递柜24小时开放，随时可以取件。", "全天都可以取件，不关门。"]},
    {"id": "b", "query": "晚安。", "domain": "情感陪伴", "difficulty": "中",
     "responses": ["晚安，做个好梦。", "祝你睡个好觉，晚安。"]},
]
PREDS = ["快递柜全天开放。", "晚安，好梦。"]


def _ds():
    return Dataset.from_list(ROWS, features=duck_features())


@pytest.mark.parametrize("kw, message", [
    ({"metrics": "bleu,,rouge"}, "metrics 'bleu,,rouge' has an empty entry (entry 2)"),
    ({"metrics": "bleu,"}, "metrics 'bleu,' has an empty entry (entry 2)"),
    ({"by": "domain,,difficulty"}, "by 'domain,,difficulty' has an empty entry (entry 2)"),
    ({"metrics": "rouge", "rouge_types": "rouge1,,rougeL"}, "rouge_types 'rouge1,,rougeL' has an empty entry (entry 2)"),
    ({"buckets": "10,,20"}, "buckets '10,,20' has an empty entry (entry 2)"),
])
def test_evaluate_refuses_an_empty_list_entry(kw, message):
    with pytest.raises(ValueError) as err:
        evaluate_predictions(_ds(), PREDS, bootstrap=0, **kw)
    assert str(err.value) == message


def test_evaluate_still_takes_comma_lists():
    report = evaluate_predictions(_ds(), PREDS, bootstrap=0, metrics="bleu,rouge", by="domain", buckets="10,20",
                                  rouge_types="rouge1,rougeL")
    assert report is not None


@pytest.mark.parametrize("kw, message", [
    ({"min_chars": True}, "min_chars must be an integer ≥ 0, got bool True"),
    ({"max_chars": True, "min_chars": 0}, "max_chars must be an integer ≥ min_chars (0), got bool True"),
    ({"min_refs": True}, "min_refs must be an integer ≥ 1, got bool True"),
    ({"dedup_threshold": True}, "dedup_threshold must be a number in (0, 1] or None, got bool True"),
    ({"dedup_threshold": "0.5"}, "dedup_threshold must be a number in (0, 1] or None, got str '0.5'"),
    ({"min_chars": "5"}, "min_chars must be an integer ≥ 0, got str '5'"),
])
def test_clean_refuses_bools_and_strings_naming_the_option(kw, message):
    with pytest.raises(ValueError) as err:
        clean_duck(_ds(), **kw)
    assert str(err.value) == message
