"""zheval.fast.rouge.corpus_rouge_scores (the corpus-at-once ROUGE) equals the per-item scorer of
zheval.definitions.rouge exactly, for every multi-reference mode, several β and both sentence splits."""

import random

import pytest

from zheval.definitions.rouge import make_item_scorer
from zheval.fast.rouge import corpus_rouge_scores
from zheval.tokenizers import get_tokenizer
from zheval.tokenizers.corpus import tokenize_corpus


@pytest.mark.parametrize("multi_ref", ["max", "mean", "pool", "best_recall"])
@pytest.mark.parametrize("beta", [1.0, 0.5, 2.0])
def test_corpus_rouge_scores_equal_item_scorer(multi_ref, beta):
    rnd = random.Random(7)
    alphabet = "今天天气好吗我很好\n。"
    texts = ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 25))) for _ in range(40)]
    preds = [rnd.choice(texts + [""]) for _ in range(60)]
    refs = [[rnd.choice(texts) for _ in range(rnd.randint(1, 4))] for _ in preds]
    types = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
    for split in ("newline", "punct"):
        corpus = tokenize_corpus(preds, [list(r) for r in refs], get_tokenizer("char"), split)
        got = corpus_rouge_scores(corpus, types, multi_ref, beta)
        scorer = make_item_scorer(types, multi_ref, beta)
        items = [scorer(p.sentences, [r.sentences for r in rs]) for p, rs in zip(corpus.predictions, corpus.references)]
        for t in types:
            exp = [tuple(it[t]) for it in items]
            assert list(zip(*(a.tolist() for a in got[t]))) == exp
