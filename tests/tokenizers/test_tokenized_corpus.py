"""zheval.tokenizers.corpus.tokenize_corpus: a corpus as integer ids (one id per distinct token), sentences, empty
texts kept empty (the empty-reference rule is the caller's)."""

import pytest

import zheval
from zheval.tokenizers import get_tokenizer
from zheval.tokenizers.corpus import tokenize_corpus


def test_tokenize_corpus_ids_and_sentences():
    c = tokenize_corpus(["今天好。明天好"], [["今天不好", "好"]], get_tokenizer("char"))
    p = c.predictions[0]
    assert c.decode(p.tokens) == ["今", "天", "好", "。", "明", "天", "好"]
    assert [c.decode(s) for s in p.sentences] == [["今", "天", "好", "。"], ["明", "天", "好"]]
    assert [c.decode(r.tokens) for r in c.references[0]] == [["今", "天", "不", "好"], ["好"]]
    assert c.reference_counts == [2]
    # the same token always gets the same id within a corpus
    assert p.tokens[1] == p.tokens[5]


def test_tokenize_corpus_keeps_an_empty_reference_empty():
    # the empty-reference rule is the caller's (zheval.compute.inputs.check_references), not the tokenizer's
    c = tokenize_corpus(["a"], [[" "]], get_tokenizer("char"))
    assert c.references[0][0].tokens == () and c.reference_lengths() == [0]
    with pytest.raises(ValueError, match=r"references\[1\]\[0\] is empty after normalisation"):
        zheval.compute_rouge(["a", "b"], [["x"], ["\u200b "]])


def test_tokenize_corpus_empty_prediction_allowed():
    c = tokenize_corpus([""], [["参考"]], get_tokenizer("char"))
    assert c.predictions[0].tokens == () and c.predictions[0].sentences == ()
