"""zheval.fast.ngrams: n-gram count tables (ids, prefix ids, extension, dense ids) and clipped hits per pair
(pair_clipped_hits, ROUGE-N) and per item (item_clipped_hits_orders: dense tables, candidates pruned by lower orders)
equal the dict counts of zheval.definitions.rouge / zheval.definitions.bleu.item_stats and the one-sort-per-order
oracle (oracles.ngram_sort), on random corpora (forced into small chunks and tables) and on real CrossWOZ texts."""

import random

import numpy as np
import pytest

import zheval.fast.ngrams as ngrams
from helpers import crosswoz_items
from oracles.ngram_sort import item_clipped_hits
from zheval.definitions.bleu import item_stats
from zheval.definitions.rouge import clipped_overlap, ngram_counts
from zheval.fast.bleu import layout_stats
from zheval.fast.index import CorpusLayout
from zheval.tokenizers import get_tokenizer


def _random_texts(rnd, n_texts, vocab, max_len):
    return [tuple(rnd.randrange(vocab) for _ in range(rnd.randint(0, max_len))) for _ in range(n_texts)]


def _both_paths(tabs, hyp, ref, ref_item, order):
    fast = ngrams.item_clipped_hits_orders(tabs, hyp, ref, ref_item, order)
    general = np.stack([item_clipped_hits(tabs[n], hyp, ref, ref_item) for n in range(order)], axis=1) \
        if len(hyp) else np.zeros((0, order), dtype=np.int64)
    return fast, general


@pytest.mark.parametrize("cells", [None, 7, 64])
def test_item_clipped_hits_orders_equal_sort_path_and_dict_counts(monkeypatch, cells):
    if cells:
        monkeypatch.setattr(ngrams, "_TABLE_CELLS", cells)  # forces many small item batches
    for trial in range(200):
        rnd = random.Random(500 + trial)
        vocab = rnd.randint(1, 6)
        texts = _random_texts(rnd, rnd.randint(1, 8), vocab, 14)
        order = rnd.randint(1, 5)
        tabs = ngrams.ngram_counts_by_text(*ngrams.flatten_texts(texts), vocab, order)
        refs = [[rnd.randrange(len(texts)) for _ in range(rnd.randint(1, 4))] for _ in range(rnd.randint(0, 7))]
        hyp = np.array([rnd.randrange(len(texts)) for _ in refs], dtype=np.int64)
        ref = np.array([x for rs in refs for x in rs], dtype=np.int64)
        ref_item = np.array([i for i, rs in enumerate(refs) for _ in rs], dtype=np.int64)
        fast, general = _both_paths(tabs, hyp, ref, ref_item, order)
        assert fast.dtype == np.int64 and fast.shape == (len(refs), order)
        assert np.array_equal(fast, general)
        exp = [item_stats(texts[a], [texts[b] for b in rs], order)[3:3 + order] for a, rs in zip(hyp, refs)]
        assert fast.tolist() == exp


@pytest.mark.parametrize("cells", [None, 7])
def test_item_clipped_hits_orders_pair_sums_are_rouge_n_hits(monkeypatch, cells):
    # the pass's per-pair sums (pair_orders) equal ROUGE-N hits counted on their own (sort path) and by dicts
    if cells:
        monkeypatch.setattr(ngrams, "_TABLE_CELLS", cells)
    from zheval.definitions.rouge import clipped_overlap, ngram_counts

    for trial in range(200):
        rnd = random.Random(900 + trial)
        vocab = rnd.randint(1, 5)
        texts = _random_texts(rnd, rnd.randint(1, 8), vocab, 14)
        order = rnd.randint(1, 5)
        pair_orders = rnd.randint(1, order)
        tabs = ngrams.ngram_counts_by_text(*ngrams.flatten_texts(texts), vocab, order)
        refs = [[rnd.randrange(len(texts)) for _ in range(rnd.randint(1, 4))] for _ in range(rnd.randint(0, 7))]
        hyp = np.array([rnd.randrange(len(texts)) for _ in refs], dtype=np.int64)
        ref = np.array([x for rs in refs for x in rs], dtype=np.int64)
        ref_item = np.array([i for i, rs in enumerate(refs) for _ in rs], dtype=np.int64)
        plain = ngrams.item_clipped_hits_orders(tabs, hyp, ref, ref_item, order)
        hits, pair = ngrams.item_clipped_hits_orders(tabs, hyp, ref, ref_item, order, pair_orders)
        assert np.array_equal(hits, plain) and pair.shape == (len(ref), pair_orders) and pair.dtype == np.int64
        for n in range(1, pair_orders + 1):
            assert pair[:, n - 1].tolist() == ngrams.pair_clipped_hits(tabs[n - 1], hyp[ref_item], ref).tolist()
            assert pair[:, n - 1].tolist() == [clipped_overlap(ngram_counts(texts[hyp[i]], n), ngram_counts(texts[r], n))
                                               for i, r in zip(ref_item, ref)]


def test_item_clipped_hits_orders_counts_above_255():
    # counts that do not fit the uint8 tables: the tables widen, the numbers stay exact
    texts = [(0,) * 300 + (1, 2), (0,) * 280 + (1,), (0,) * 10 + (2, 1), (1, 2) * 3]
    tabs = ngrams.ngram_counts_by_text(*ngrams.flatten_texts(texts), 3, 4)
    assert tabs[0].max_count > 255
    hyp = np.array([0, 1, 3, 2], dtype=np.int64)
    ref = np.array([1, 2, 0, 0, 3, 0, 1], dtype=np.int64)
    ref_item = np.array([0, 0, 1, 2, 2, 3, 3], dtype=np.int64)
    fast, general = _both_paths(tabs, hyp, ref, ref_item, 4)
    assert np.array_equal(fast, general)
    assert fast[0, 0] == 280 + 1 + 1  # 280 zeros and the 1 from text 1, the 2 from text 2


def test_prefix_ids_name_the_first_n_minus_1_tokens():
    from collections import Counter

    rnd = random.Random(11)
    V = 5
    texts = _random_texts(rnd, 25, V, 12)
    tabs = ngrams.ngram_counts_by_text(*ngrams.flatten_texts(texts), V, 4)
    assert tabs[0].prefix is None
    id_of = {(t,): t for t in range(V)}  # order-1 ids are the token ids
    for n in range(2, 5):
        grams = sorted({tx[i:i + n] for tx in texts for i in range(len(tx) - n + 1)},
                       key=lambda g: id_of[g[:-1]] * V + g[-1])
        id_of.update({g: k for k, g in enumerate(grams)})  # the recipe of the module docstring, independently
        nc = tabs[n - 1]
        assert nc.n_ids == max(len(grams), 1)
        assert [nc.prefix[id_of[g]] for g in grams] == [id_of[g[:-1]] for g in grams]
        for t, tx in enumerate(texts):
            counts = Counter(id_of[tx[i:i + n]] for i in range(len(tx) - n + 1))
            lo, hi = nc.offsets[t], nc.offsets[t + 1]
            assert list(zip(nc.ids[lo:hi].tolist(), nc.counts[lo:hi].tolist())) == sorted(counts.items())
    # the children ranges of _child_starts hold exactly the entries (same text) whose prefix is that entry
    for n in range(1, 4):
        nc, nxt = tabs[n - 1], tabs[n]
        child = ngrams._child_starts(nc, nxt)
        assert child[0] == 0 and child[-1] == len(nxt.ids)
        for t in range(len(texts)):
            for k in range(nc.offsets[t], nc.offsets[t + 1]):
                kids = list(range(child[k], child[k + 1]))
                want = [j for j in range(nxt.offsets[t], nxt.offsets[t + 1]) if nxt.prefix[nxt.ids[j]] == nc.ids[k]]
                assert kids == want


def test_item_clipped_hits_orders_and_layout_stats_on_crosswoz(crosswoz_groups):
    preds, refs = crosswoz_items(crosswoz_groups[:400])
    tok = get_tokenizer("char")
    hyp_tokens = [tuple(tok.tokenize(p)) for p in preds]
    ref_tokens = [[tuple(tok.tokenize(r)) for r in rs] for rs in refs]
    layout = CorpusLayout.from_token_sequences(hyp_tokens, ref_tokens)
    tabs = [layout.ngram_counts(n) for n in range(1, 5)]
    fast, general = _both_paths(tabs, layout.hyp, layout.ref, layout.pair_item, 4)
    assert np.array_equal(fast, general)
    assert fast[:, 3].sum() > 0  # real 4-gram matches exercised
    stats = layout_stats(layout, 4)
    assert stats.tolist() == [item_stats(h, rs, 4) for h, rs in zip(hyp_tokens, ref_tokens)]


@pytest.mark.parametrize("high", [5, 1000, 1 << 40, 1 << 61])
def test_dense_ids_equal_np_unique(high):
    rng = np.random.default_rng(high % 97)
    for n in (1, 2, 7, 1000):
        key = rng.integers(0, high, n, dtype=np.int64)
        uniq, ids = ngrams._dense_ids(key)  # 1 << 61 takes the np.unique fallback
        exp_uniq, exp_ids = np.unique(key, return_inverse=True)
        assert np.array_equal(uniq, exp_uniq) and np.array_equal(ids, exp_ids.reshape(-1))


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
