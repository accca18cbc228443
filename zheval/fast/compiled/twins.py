"""The compiled twins: numba kernels (`zheval.fast.compiled.kernels`) behind the numpy twins' interfaces, with
the same exact integers and bit-identical floats. Each is listed in `zheval.fast.TWINS` and checked against
its reference by ``tests/fast/test_fast_twins.py`` (when numba is installed); the numpy twin is the fallback,
chosen by `zheval.fast.usable_for` ``"compiled"`` (work size and cache state, `zheval.fast.compiled`).
"""

from __future__ import annotations

import numpy as np

from ...definitions.lcs import wlcs_f_table
from ..progress import work_bar
from . import load_kernels

__all__ = ["PACKED_BITS", "packed_fits", "pair_ngram_lcs_stats", "item_bleu_matches", "pair_skip_bigram_hits",
           "wlcs_pairs", "union_lcs_hits_pairs", "exercise"]

#: Bits for an n-gram's packed tokens in a kernel's hash key (the order sits above them).
PACKED_BITS = 58
#: Cells of one WLCS kernel call (pairs are batched up to it; a longer pair runs in row blocks of about this many
#: cells), so the progress bar moves about every 0.1 s.
WLCS_CALL_CELLS = 1 << 27
#: Sentence-aligned blocks of the packed reference in the union-LCS kernel (positions; a longer sentence is a block of
#: its own), and the most stop-mask words of one candidate sentence against one block (256 MiB); a pair beyond it
#: goes to the reference.
UNION_BLOCK_POSITIONS = 2048
UNION_MAX_STOP_WORDS = 1 << 25


def _i64(*arrays):
    return [np.ascontiguousarray(a, dtype=np.int64) for a in arrays]


def packed_fits(vocab_size: int, max_order: int) -> bool:
    """Whether ``max_order`` token ids below ``vocab_size`` pack into `PACKED_BITS` bits (the kernels' n-gram
    keys); else the numpy twins (dense n-gram ids) serve."""
    return max_order * max(1, (max(int(vocab_size), 1) - 1).bit_length()) <= PACKED_BITS


def _vb(vocab_size: int) -> int:
    return max(1, (max(int(vocab_size), 1) - 1).bit_length())


def pair_ngram_lcs_stats(tokens, offsets, dh, dcount, u_ref, max_order: int, vocab_size: int, want_lcs: bool):
    """ROUGE-N hits of orders ``1..max_order`` and LCS lengths of every distinct (prediction, reference) pair: the
    compiled twin of `zheval.definitions.rouge.clipped_overlap` on `zheval.definitions.rouge.ngram_counts`
    and of `zheval.definitions.lcs.lcs_length` (as `zheval.fast.slots.pair_ngram_hits_sorted` and
    `zheval.fast.slot_lcs.slot_lcs_lengths`).

    Args:
        tokens, offsets: int token ids (``0 <= id < vocab_size``) of all texts concatenated, ``(n_texts + 1,)``
            start offsets.
        dh, dcount: the distinct predictions (text indices) and the number of references of each; u_ref: ``(P,)``
            the references' texts, ``dcount[0]`` for ``dh[0]`` first.
        max_order: highest order (``packed_fits(vocab_size, max_order)`` must hold); want_lcs: also the LCS.
    Returns:
        ``(hits, lcs)``: ``(P, max_order)`` and ``(P,)`` int64 (lcs zeros without ``want_lcs``).
    Raises:
        ValueError: keys that do not pack (check `packed_fits` first).
    """
    if not packed_fits(vocab_size, max_order):
        raise ValueError(f"{max_order}-grams of {vocab_size} token ids do not pack into {PACKED_BITS} bits")
    tokens, offsets, dh, dcount, u_ref = _i64(tokens, offsets, dh, dcount, u_ref)
    return load_kernels().rouge_pair_stats(tokens, offsets, dh, dcount, u_ref, int(max_order), _vb(vocab_size),
                                      bool(want_lcs), max(int(vocab_size), 1))


def item_bleu_matches(tokens, offsets, hyp, ref, ref_counts, max_order: int, vocab_size: int) -> np.ndarray:
    """BLEU's clipped matches of orders ``1..max_order`` of every item: the compiled twin of the ``matches_1..N``
    columns of `zheval.definitions.bleu.item_stats` (as `zheval.fast.slot_bleu.item_clipped_matches_sorted`).

    Args:
        tokens, offsets: as `pair_ngram_lcs_stats`; hyp: ``(I,)`` prediction text of each item; ref: ``(P,)``
            reference texts, items in order; ref_counts: ``(I,)`` references per item (>= 1).
    Returns:
        ``(I, max_order)`` int64.
    Raises:
        ValueError: keys that do not pack.
    """
    if not packed_fits(vocab_size, max_order):
        raise ValueError(f"{max_order}-grams of {vocab_size} token ids do not pack into {PACKED_BITS} bits")
    tokens, offsets, hyp, ref, ref_counts = _i64(tokens, offsets, hyp, ref, ref_counts)
    return load_kernels().bleu_item_matches(tokens, offsets, hyp, ref, ref_counts, int(max_order), _vb(vocab_size))


def pair_skip_bigram_hits(tokens, offsets, dh, dcount, u_ref, skip, vocab_size: int) -> np.ndarray:
    """Clipped skip-bigram co-occurrences of every distinct (prediction, reference) pair (grouped as in
    `pair_ngram_lcs_stats`): the compiled twin of `zheval.definitions.rouge.clipped_overlap` on
    `zheval.definitions.rouge.skip_bigram_counts` (``skip`` None = no distance limit).

    Returns:
        ``(P,)`` int64.
    Raises:
        ValueError: ``vocab_size ** 2`` beyond int64 (the pair key ``a * V + b``).
    """
    V = max(int(vocab_size), 1)
    if V * V >= 1 << 62:
        raise ValueError(f"skip-bigram keys of {V} token ids do not fit int64")
    tokens, offsets, dh, dcount, u_ref = _i64(tokens, offsets, dh, dcount, u_ref)
    return load_kernels().skip_bigram_pair_hits(tokens, offsets, dh, dcount, u_ref, -1 if skip is None else int(skip), V)


def wlcs_pairs(tokens, offsets, ref, can, weight: float) -> np.ndarray:
    """``(P,)`` float64 ``wlcs(text ref[p], text can[p], weight)``: the compiled twin of
    `zheval.definitions.lcs.wlcs` (the same IEEE operations in the same order: bit for bit), with the
    progress bar of `zheval.fast.progress.work_bar` on long work.

    Args:
        tokens, offsets: as `pair_ngram_lcs_stats`; ref, can: ``(P,)`` text indices (reference = rows).
        weight: w > 0 in f(k) = k**w.
    """
    k = load_kernels()
    tokens, offsets, ref, can = _i64(tokens, offsets, ref, can)
    m = offsets[ref + 1] - offsets[ref]
    n = offsets[can + 1] - offsets[can]
    out = np.zeros(len(ref), dtype=np.float64)
    live = np.flatnonzero((m > 0) & (n > 0))
    if not len(live):
        return out
    # f(k) with Python's float power, as the reference builds it
    fw = np.array(wlcs_f_table(int(np.minimum(m[live], n[live]).max()), weight), dtype=np.float64)
    cells = (m * n)[live]
    vocab = int(tokens.max()) + 1
    bar = work_bar(int(cells.sum()), 2e-9, "rougeW weighted LCS")
    try:
        batch, batch_cells = [], 0
        for p, c in zip(live.tolist(), cells.tolist()):
            if c > WLCS_CALL_CELLS:  # one long pair, in row blocks
                out[p] = _long_wlcs(k, tokens[offsets[ref[p]]:offsets[ref[p] + 1]],
                                    tokens[offsets[can[p]]:offsets[can[p] + 1]], fw, bar, vocab)
                continue
            batch.append(p)
            batch_cells += c
            if batch_cells >= WLCS_CALL_CELLS:
                out[batch] = k.wlcs_many(tokens, offsets, ref[batch], can[batch], fw, vocab)
                bar.update(batch_cells)
                batch, batch_cells = [], 0
        if batch:
            out[batch] = k.wlcs_many(tokens, offsets, ref[batch], can[batch], fw, vocab)
    finally:
        bar.close()
    return out


def union_lcs_hits_pairs(ids, sent_offsets, text_sents, hyp, ref, vocab_size: int) -> np.ndarray:
    """ROUGE-Lsum union-LCS hits of every (prediction ``hyp[p]``, reference ``ref[p]``) pair: the compiled twin of
    `zheval.definitions.rouge.summary_level_lcs_hits` (rouge-score 0.1.2's LCS paths; as
    `zheval.fast.union_lcs.union_lcs_hits_pairs`, without its width bound), memory linear in the texts.

    Args:
        ids: int token ids (``< vocab_size``) of every sentence, concatenated; sent_offsets: ``(n_sentences + 1,)``
            start offsets; text_sents: ``(n_texts + 1,)`` first sentence of each text; hyp, ref: ``(P,)`` texts.
    Returns:
        ``(P,)`` int64 hits; -1 for a pair whose stop masks would exceed `UNION_MAX_STOP_WORDS` (one candidate
        sentence of n tokens against one reference sentence of m: (n + 1) * m / 64 words), to be scored by the reference.
    """
    ids, sent_offsets, text_sents, hyp, ref = _i64(ids, sent_offsets, text_sents, hyp, ref)
    return load_kernels().union_lcs_hits(ids, sent_offsets, text_sents, hyp, ref, max(int(vocab_size), 1),
                                         UNION_BLOCK_POSITIONS, UNION_MAX_STOP_WORDS)


def _long_wlcs(k, r, c, fw, bar, vocab: int) -> float:
    prev_b = np.zeros(len(c) + 1, dtype=np.float64)
    prev_l = np.zeros(len(c) + 1, dtype=np.int64)
    present = np.zeros(vocab, dtype=np.uint8)
    present[c] = 1
    step = max(1, WLCS_CALL_CELLS // len(c))
    for i0 in range(0, len(r), step):
        i1 = min(len(r), i0 + step)
        k.wlcs_rows(r, c, fw, prev_b, prev_l, i0, i1, present)
        bar.update((i1 - i0) * len(c))
    return float(prev_b[len(c)] + fw[prev_l[len(c)]])


def exercise(mod) -> None:
    """Run every kernel of ``mod`` (`zheval.fast.compiled.kernels`) once on tiny inputs of the dtypes the twins pass (compiles or loads each signature)."""
    ids = np.array([0, 1, 2, 1, 0, 2], dtype=np.int64)
    off = np.array([0, 3, 6], dtype=np.int64)
    one, two = np.array([0], dtype=np.int64), np.array([1], dtype=np.int64)
    mod.rouge_pair_stats(ids, off, one, one + 1, two, 2, 2, True, 3)
    mod.bleu_item_matches(ids, off, one, two, one + 1, 4, 2)
    mod.skip_bigram_pair_hits(ids, off, one, one + 1, two, -1, 3)
    fw = np.array([x**1.2 for x in range(5)], dtype=np.float64)
    mod.wlcs_many(ids, off, two, one, fw, 3)
    pb, pl = np.zeros(4, dtype=np.float64), np.zeros(4, dtype=np.int64)
    mod.wlcs_rows(ids[:3], ids[3:], fw, pb, pl, 0, 3, np.ones(3, dtype=np.uint8))
    cp = np.array([97, 46, 22909, 32], dtype=np.uint32)
    b32 = [np.empty(len(cp), dtype=np.int32) for _ in range(3)]  # the positions and ids of the char token pass
    starts, ends, _ = mod.token_bounds(cp, off[:2], np.zeros(22910, dtype=np.uint8), False, b32[0], b32[1])
    mod.token_ids(cp, starts, ends, b32[2][:len(starts)])
    tcp, toff = np.array([97, 46], dtype=np.uint32), np.array([0, 2], dtype=np.int64)
    firsts = np.zeros(22910, dtype=np.bool_)
    firsts[97] = True
    s32, e32 = np.ascontiguousarray(starts), np.ascontiguousarray(ends)  # as term_ids._compiled_merge passes them
    mod.merge_terms(cp, off[:2], np.arange(len(starts), dtype=np.int32), s32, e32,
                    np.array([0, len(starts)], dtype=np.int64), np.zeros(22910, dtype=np.uint8), firsts, tcp, toff,
                    np.ones(1, dtype=np.bool_), np.zeros(1, dtype=np.int64), np.zeros(len(starts), dtype=np.bool_),
                    np.zeros(2, dtype=np.int64))
    mod.union_lcs_hits(ids, off, np.array([0, 1, 2], dtype=np.int64), one, two, 3, UNION_BLOCK_POSITIONS,
                       UNION_MAX_STOP_WORDS)
