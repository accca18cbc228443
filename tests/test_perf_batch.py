"""The corpus-at-once paths (zheval.fast.ngrams, zheval.fast.rouge) equal the per-pair/per-item reference code exactly."""

import random

import numpy as np
import pytest

import zheval.fast.ngrams as ngrams
from oracles.ngram_sort import item_clipped_hits
from zheval.definitions.bleu import item_stats
from zheval.tokenizers.corpus import tokenize_corpus
from zheval.definitions.rouge import clipped_overlap, make_item_scorer, ngram_counts
from zheval.fast.rouge import corpus_rouge_scores
from zheval.tokenizers import get_tokenizer


def _random_texts(rnd, n_texts, vocab, max_len):
    return [tuple(rnd.randrange(vocab) for _ in range(rnd.randint(0, max_len))) for _ in range(n_texts)]


@pytest.mark.parametrize("dense_max", [None, 0])
@pytest.mark.parametrize("key_limit", [None, 1 << 12])
def test_clipped_hits_equal_dict_counts(monkeypatch, key_limit, dense_max):
    if key_limit:
        monkeypatch.setattr(ngrams, "_KEY_LIMIT", key_limit)  # forces many small chunks
    if dense_max is not None:
        monkeypatch.setattr(ngrams, "_DENSE_COUNT_MAX", dense_max)  # per-text counts by sorting, never bincount
    for trial in range(150):
        rnd = random.Random(trial)
        vocab = rnd.randint(1, 6)
        texts = _random_texts(rnd, rnd.randint(1, 8), vocab, 12)
        tabs = ngrams.ngram_counts_by_text(*ngrams.flatten_texts(texts), vocab, 4)
        n_pairs = rnd.randint(0, 20)
        h = np.array([rnd.randrange(len(texts)) for _ in range(n_pairs)], dtype=np.int64)
        r = np.array([rnd.randrange(len(texts)) for _ in range(n_pairs)], dtype=np.int64)
        refs = [[rnd.randrange(len(texts)) for _ in range(rnd.randint(1, 3))] for _ in range(rnd.randint(0, 6))]
        hyp = np.array([rnd.randrange(len(texts)) for _ in refs], dtype=np.int64)
        ref = np.array([x for rs in refs for x in rs], dtype=np.int64)
        ref_item = np.array([i for i, rs in enumerate(refs) for _ in rs], dtype=np.int64)
        for n in range(1, 5):
            got = ngrams.pair_clipped_hits(tabs[n - 1], h, r).tolist()
            assert got == [clipped_overlap(ngram_counts(texts[a], n), ngram_counts(texts[b], n)) for a, b in zip(h, r)]
            got = item_clipped_hits(tabs[n - 1], hyp, ref, ref_item).tolist()
            assert got == [item_stats(texts[a], [texts[b] for b in rs], 4)[2 + n] for a, rs in zip(hyp, refs)]


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


@pytest.mark.parametrize("max_words", [1, 2, 4])
def test_lcs_length_pairs_equal_python_bit_parallel(max_words):
    from zheval.definitions.lcs import lcs_length
    from zheval.fast.lcs import lcs_length_pairs

    for trial in range(120):
        rnd = random.Random(1000 + trial)
        texts = _random_texts(rnd, rnd.randint(1, 6), rnd.randint(1, 5), rnd.choice([5, 64, 65, 140, 300]))
        col = [rnd.randrange(len(texts)) for _ in range(rnd.randint(0, 15))]
        row = [rnd.randrange(len(texts)) for _ in col]
        got = lcs_length_pairs(*ngrams.flatten_texts(texts), col, row, max_words=max_words).tolist()
        assert got == [lcs_length(texts[a], texts[b]) for a, b in zip(col, row)]


def test_bootstrap_sums_statistic_gives_identical_interval():
    from zheval.definitions.bleu import score_stats
    from zheval.results.reducers import bootstrap_interval

    rng = np.random.default_rng(0)
    rows = rng.integers(0, 30, size=(500, 11))
    rows[:, 3:7] = np.minimum(rows[:, 3:7], rows[:, 7:11])

    def per_rows(r):
        sums = r.sum(axis=-2).reshape(-1, 11)
        return np.array([score_stats(s).score for s in sums.tolist()]).reshape(r.shape[:-2])

    def per_sums(sums):
        return np.array([score_stats(s).score for s in sums.tolist()])

    for dtype in (np.int64, np.int32):
        a = rows.astype(dtype)
        assert bootstrap_interval(a, per_rows, 200, seed=5) == bootstrap_interval(a, per_rows, 200, seed=5,
                                                                                  sums_statistic=per_sums)


def test_ngram_tables_extend_equals_one_pass():
    rnd = random.Random(3)
    texts = _random_texts(rnd, 30, 4, 15)
    flat = ngrams.flatten_texts(texts)
    whole = ngrams.ngram_counts_by_text(*flat, 4, 4)
    grown = ngrams.ngram_counts_by_text(*flat, 4, 2)
    grown = ngrams.ngram_counts_by_text(*flat, 4, 4, extend=grown)
    for a, b in zip(whole, grown):
        assert a.order == b.order and a.n_ids == b.n_ids and a.max_count == b.max_count
        for f in ("offsets", "ids", "counts"):
            assert np.array_equal(getattr(a, f), getattr(b, f))
