"""The unsegmented-text guard looks at every tokenizer's output, callables included (issue 35 S2): a custom
tokenizer that does not split Chinese (``str.split`` on raw text) scored ROUGE 0.0 without a word, while
``tokenizer="none"`` warned on the same text."""

from __future__ import annotations

import warnings

import pytest

import zheval
from zheval import UnsegmentedTextWarning

PREDS = ["猫坐在垫子上", "你好"]
REFS = [["猫趴在垫子上面"], ["您好", "你好啊"]]


@pytest.mark.parametrize("fn", [zheval.compute_rouge, zheval.compute_bleu])
def test_a_callable_that_does_not_split_chinese_warns_like_none(fn):
    with pytest.warns(UnsegmentedTextWarning, match='tokenizer="none"'):
        fn(PREDS, REFS, tokenizer="none")
    with pytest.warns(UnsegmentedTextWarning, match=r"the tokenizer .*split.* does not split .*Han characters"):
        fn(PREDS, REFS, tokenizer=str.split)


@pytest.mark.parametrize("tokenizer", ["char", "jieba", list])
def test_tokenizers_that_split_chinese_stay_quiet(tokenizer):
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnsegmentedTextWarning)
        zheval.compute_rouge(PREDS, REFS, tokenizer=tokenizer)
