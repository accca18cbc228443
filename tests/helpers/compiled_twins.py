"""Checks of the compiled twins (:mod:`zheval.fast.compiled.twins`) against their references, for the table test
``tests/fast/test_fast_twins.py`` (its ``CHECKS``). Without numba (the ``fast`` extra) each check skips, saying so.

Every check runs the kernels on random texts (small alphabets: many ties and repeats; empty texts; texts longer than
64 tokens, so the LCS spans several words) and, when given, the real CrossWOZ items, and compares each number with
the pure-Python definition (exact integers; floats bit for bit). The kernels are loaded for the check only: the
process's compiled state is restored afterwards, so the order of tests never changes which path other tests take.
"""

from __future__ import annotations

import contextlib
import importlib.util
import random

import numpy as np
import pytest

from zheval.definitions import bleu as ref_bleu
from zheval.definitions import rouge as ref_rouge
from zheval.definitions.lcs import lcs_length, wlcs
from zheval.fast.ngrams import flatten_texts

NO_NUMBA = "numba is not installed (pip install 'zheval[fast]'): the compiled twins are not checked here"


@contextlib.contextmanager
def kernels_loaded_for_the_check():
    """Skip without numba; otherwise run with the kernels loaded and restore the process's compiled state."""
    if importlib.util.find_spec("numba") is None:
        pytest.skip(NO_NUMBA)
    import zheval.fast.compiled as compiled

    before = dict(compiled._LOADED)
    try:
        yield
    finally:
        compiled._LOADED.clear()
        compiled._LOADED.update(before)


def compiled_modes() -> tuple:
    """``(False, True)`` with numba installed, else ``(False,)``: the twins with a ``compiled`` switch are checked both
    ways where the compiled one can run."""
    return (False, True) if importlib.util.find_spec("numba") is not None else (False,)


def _texts(real, seed: int):
    """Token-id texts: random ones over 2, 5 and 300 ids (lengths 0..300), and the real items' char tokens."""
    rng = random.Random(seed)
    out = []
    for V in (2, 5, 300):
        out.append([tuple(rng.randrange(V) for _ in range(rng.choice([0, 1, 2, 3, 9, 40, 70, 130, 300])))
                    for _ in range(50)])
    if real is not None:
        from zheval.tokenizers import get_tokenizer

        tok = get_tokenizer("char")
        vocab: dict = {}
        words = [tok(t) for t in list(real[0][:150]) + [r for rs in real[1][:150] for r in rs]]
        out.append([tuple(vocab.setdefault(w, len(vocab)) for w in ws) for ws in words])
    return out


def _pairs(texts, rng):
    """Distinct (prediction, reference) pairs grouped by prediction, as the ROUGE twins receive them."""
    n = len(texts)
    keys = sorted({(rng.randrange(n), rng.randrange(n)) for _ in range(3 * n)})
    hyp = np.array([h for h, _ in keys], dtype=np.int64)
    ref = np.array([r for _, r in keys], dtype=np.int64)
    dh, dcount = np.unique(hyp, return_counts=True)
    return hyp, ref, dh, dcount


def check_pair_ngram_lcs_stats(real):
    from zheval.fast.compiled.twins import pair_ngram_lcs_stats

    with kernels_loaded_for_the_check():
        rng = random.Random(3)
        for texts in _texts(real, 43):
            tokens, offsets = flatten_texts(texts)
            V = int(tokens.max()) + 1
            hyp, ref, dh, dcount = _pairs(texts, rng)
            for top, want_lcs in ((4, True), (2, False), (1, True)):
                hits, lcs = pair_ngram_lcs_stats(tokens, offsets, dh, dcount, ref, top, V, want_lcs)
                for q, (h, r) in enumerate(zip(hyp.tolist(), ref.tolist())):
                    for n in range(1, top + 1):
                        want = ref_rouge.clipped_overlap(ref_rouge.ngram_counts(texts[h], n),
                                                         ref_rouge.ngram_counts(texts[r], n))
                        assert hits[q, n - 1] == want, (h, r, n)
                    assert lcs[q] == (lcs_length(texts[h], texts[r]) if want_lcs else 0), (h, r)


def check_item_bleu_matches(real):
    from zheval.fast.compiled.twins import item_bleu_matches

    with kernels_loaded_for_the_check():
        rng = random.Random(5)
        for texts in _texts(real, 47):
            tokens, offsets = flatten_texts(texts)
            V = int(tokens.max()) + 1
            counts = np.array([rng.randint(1, 4) for _ in range(40)], dtype=np.int64)
            hyp = np.array([rng.randrange(len(texts)) for _ in range(40)], dtype=np.int64)
            ref = np.array([rng.randrange(len(texts)) for _ in range(int(counts.sum()))], dtype=np.int64)
            starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
            for order in (1, 2, 4):
                got = item_bleu_matches(tokens, offsets, hyp, ref, counts, order, V)
                for i in range(40):
                    refs = [texts[r] for r in ref[starts[i]:starts[i] + counts[i]].tolist()]
                    want = ref_bleu.item_stats(texts[hyp[i]], refs, order)[3:3 + order]
                    assert got[i].tolist() == list(want), (i, order)


def check_pair_skip_bigram_hits(real):
    from zheval.fast.compiled.twins import pair_skip_bigram_hits

    with kernels_loaded_for_the_check():
        rng = random.Random(7)
        for texts in _texts(real, 53):
            tokens, offsets = flatten_texts(texts)
            V = int(tokens.max()) + 1
            hyp, ref, dh, dcount = _pairs(texts, rng)
            for skip in (None, 0, 1, 4):
                got = pair_skip_bigram_hits(tokens, offsets, dh, dcount, ref, skip, V)
                want = [ref_rouge.clipped_overlap(ref_rouge.skip_bigram_counts(list(texts[h]), skip),
                                                  ref_rouge.skip_bigram_counts(list(texts[r]), skip))
                        for h, r in zip(hyp.tolist(), ref.tolist())]
                assert got.tolist() == want, skip


def check_compiled_wlcs_pairs(real):
    from zheval.fast.compiled import twins

    with kernels_loaded_for_the_check():
        rng = random.Random(11)
        for texts in _texts(real, 59)[-3:]:  # over 5 and 300 ids (rows of absent tokens, runs of them) and real
            tokens, offsets = flatten_texts(texts)
            hyp, ref, _, _ = _pairs(texts, rng)
            sel = rng.sample(range(len(hyp)), min(60, len(hyp)))
            hyp, ref = hyp[sel], ref[sel]
            # one call; many calls; long pairs in row blocks of a few rows
            for call_cells in (twins.WLCS_CALL_CELLS, 500, 90):
                old, twins.WLCS_CALL_CELLS = twins.WLCS_CALL_CELLS, call_cells
                try:
                    for weight in (1.2, 1.0, 2.0, 0.5):
                        got = twins.wlcs_pairs(tokens, offsets, ref, hyp, weight)
                        want = [wlcs(list(texts[r]), list(texts[h]), weight) for h, r in zip(hyp.tolist(),
                                                                                                ref.tolist())]
                        assert got.tolist() == want, (call_cells, weight)
                finally:
                    twins.WLCS_CALL_CELLS = old


CHECKS = {
    "zheval.fast.compiled.twins:pair_ngram_lcs_stats": check_pair_ngram_lcs_stats,
    "zheval.fast.compiled.twins:item_bleu_matches": check_item_bleu_matches,
    "zheval.fast.compiled.twins:pair_skip_bigram_hits": check_pair_skip_bigram_hits,
    "zheval.fast.compiled.twins:wlcs_pairs": check_compiled_wlcs_pairs,
}


def check_compiled_union_lcs_hits_pairs(real):
    from zheval.fast.compiled import twins
    from zheval.tokenizers import get_tokenizer
    from zheval.tokenizers.corpus import tokenize_corpus

    with kernels_loaded_for_the_check():
        rng = random.Random(13)
        tok = get_tokenizer("char")
        text = lambda alphabet, longest: "".join(rng.choice(alphabet) for _ in range(rng.randint(0, longest)))  # noqa: E731
        cases = [([text("abcab。\n好的好", 40) for _ in range(200)],
                  [[text("abcab。\n好的好", 40) for _ in range(rng.randint(1, 3))] for _ in range(200)]),
                 ([text("ab。c", 300) for _ in range(30)], [[text("ab。c", 300)] for _ in range(30)])]
        if real is not None:
            cases.append((real[0][:200], real[1][:200]))
        for preds, refs in cases:
            for split in ("punct", "newline"):
                corpus = tokenize_corpus(preds, refs, tok, split, char_ids=True)
                hyp = np.repeat(corpus.pred_text, corpus.ref_counts)
                texts = corpus.texts
                want = [ref_rouge.summary_level_lcs_hits(texts[r].sentences, texts[h].sentences)
                        for h, r in zip(hyp.tolist(), corpus.ref_text.tolist())]
                # whole references in one block; blocks of a few sentences (many blocks per reference)
                for block in (twins.UNION_BLOCK_POSITIONS, 40, 8):
                    old, twins.UNION_BLOCK_POSITIONS = twins.UNION_BLOCK_POSITIONS, block
                    try:
                        got = twins.union_lcs_hits_pairs(corpus.ids, corpus.sent_offsets, corpus.text_sents, hyp,
                                                         corpus.ref_text, len(corpus.vocab))
                    finally:
                        twins.UNION_BLOCK_POSITIONS = old
                    assert got.tolist() == want, (split, block)


CHECKS["zheval.fast.compiled.twins:union_lcs_hits_pairs"] = check_compiled_union_lcs_hits_pairs
