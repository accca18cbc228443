"""The char tokenizer with protected terms through the corpus-at-once path (`zheval.tokenizers.term_ids`, chosen by
``usable_for("char_ids")``) gives the reference tokenizer's tokens on the shared real data and adversarial texts;
a call that needs sentences, and a term holding a line break, keep the text-by-text path."""

from __future__ import annotations

import pytest

from zheval.fast import usable_for
from zheval.tokenizers import get_tokenizer
from zheval.tokenizers.corpus import tokenize_corpus
from zheval.tokenizers.term_ids import term_token_spans
from helpers.term_twins import ADVERSARIAL, TERM_LISTS

REAL_TERMS = ["地铁站", "酒店", "景点", "北京", "餐馆", "评分", "推荐", "电话", "地址", "免费", "门票", "附近", "研究",
              "方法", "结果", "系统", "分析", "实验", "模型", "数据"]


def _items(crosswoz_single, csl_rows):
    preds = [r["query"] for r in crosswoz_single[:1500]] + [r["summary"] for r in csl_rows[:300]] + ADVERSARIAL
    refs = [r["responses"] for r in crosswoz_single[:1500]] + [[r["document"]] for r in csl_rows[:300]]
    refs += [[a[::-1] or "好"] for a in ADVERSARIAL]
    return preds, refs


@pytest.mark.parametrize("terms", [REAL_TERMS, *map(list, TERM_LISTS)])
@pytest.mark.parametrize("punct", ["keep", "drop"])
def test_terms_corpus_equals_the_tokenizer(crosswoz_single, csl_rows, terms, punct):
    preds, refs = _items(crosswoz_single, csl_rows)
    tok = get_tokenizer("char", terms=terms, punct=punct)
    assert usable_for("char_ids", tokenizer=tok) and tok.term_ids_twin() and not tok.char_ids_twin()
    for sentences in (False, True):
        corpus = tokenize_corpus(preds, refs, tok, "punct", char_ids=True, sentences=sentences)
        assert len(set(corpus.ids.tolist())) == len(corpus.vocab)  # the vocabulary holds exactly the tokens present
        for p, tt in zip(preds, corpus.predictions):
            assert corpus.decode(tt.tokens) == tok.tokenize(p), p
            if sentences:
                assert [tuple(corpus.decode(s)) for s in tt.sentences] == list(tok.tokenize_sentences(p, "punct"))
        for rs, tts in zip(refs, corpus.references):
            assert [corpus.decode(t.tokens) for t in tts] == [tok.tokenize(r) for r in rs]


def test_a_term_with_a_line_break_is_not_served():
    tok = get_tokenizer("char", terms=["北京", "好\n的"], normalize=False)
    assert not tok.term_ids_twin() and not usable_for("char_ids", tokenizer=tok)
    with pytest.raises(ValueError, match="line break"):
        term_token_spans([ord("好")], [0, 1], tok, {})
