"""Test oracle: BLEU clipped matches of one order by one sort per chunk (the library's former path, replaced by
:func:`zheval.fast.ngrams.item_clipped_hits_orders`); the fast path is compared with it and with the per-item dict counts
of :func:`zheval.definitions.bleu.item_stats`."""

import numpy as np

from zheval.fast.ngrams import NgramCounts, _chunks, _ranges


def item_clipped_hits(nc: NgramCounts, hyp: np.ndarray, ref: np.ndarray, ref_item: np.ndarray) -> np.ndarray:
    """``sum_g min(c_hyp(g), max_r c_r(g))`` per item (BLEU clipped matches, Papineni et al. 2002 section 2.1).

    One sort per chunk: entries ``((item * G + id) * C + count) * 2 + side`` (side 0 = hypothesis, 1 = a
    reference). Within an (item, id) run, entries ascend by count, a reference after the hypothesis on equal
    counts. So for the (single) hypothesis entry of a run: if the next entry is in the same run, some reference
    count is >= the hypothesis count and the clipped count is the hypothesis count; otherwise the previous entry,
    if in the same run, is the largest reference count (< the hypothesis count) and is the clipped count; otherwise
    no reference has the n-gram.

    Args:
        nc: counts of one order.
        hyp: ``(I,)`` text index of each item's hypothesis.
        ref: ``(R,)`` text index of every reference, grouped by item (items in increasing order).
        ref_item: ``(R,)`` the item of each reference, non-decreasing.
    Returns:
        ``(I,)`` int64 clipped matches.
    """
    hyp = np.asarray(hyp, dtype=np.int64)
    ref = np.asarray(ref, dtype=np.int64)
    ref_item = np.asarray(ref_item, dtype=np.int64)
    I = len(hyp)
    out = np.zeros(I, dtype=np.int64)
    G, C = nc.n_ids, nc.max_count + 1
    span = 2 * G * C  # key range of one item
    base = (nc.ids * C + nc.counts) * 2  # the per-entry part of a key; + 1 on the reference side
    base_ref = base + 1
    bounds = np.searchsorted(ref_item, np.arange(I + 1, dtype=np.int64), side="left")
    for lo, hi in _chunks(I, G, 2 * C):
        hstart, hlen, hidx = _ranges(nc.offsets, hyp[lo:hi])
        r_lo, r_hi = int(bounds[lo]), int(bounds[hi])
        rstart, rlen, ridx = _ranges(nc.offsets, ref[r_lo:r_hi])
        keys = np.concatenate([np.repeat(np.arange(hi - lo, dtype=np.int64) * span, hlen) + base[hidx],
                               np.repeat((ref_item[r_lo:r_hi] - lo) * span, rlen) + base_ref[ridx]])
        if len(keys) == 0:
            continue
        keys.sort()
        at = np.flatnonzero((keys & 1) == 0)  # hypothesis entries
        if len(at) == 0:
            continue
        run_at = keys[at] // (2 * C)  # item * G + id
        n = len(keys)
        nxt = np.minimum(at + 1, n - 1)
        has_next = (at + 1 < n) & (keys[nxt] // (2 * C) == run_at)
        prv = np.maximum(at - 1, 0)
        prev_key = keys[prv]
        has_prev = (at > 0) & (prev_key // (2 * C) == run_at)
        hyp_count = (keys[at] >> 1) % C
        clipped = np.where(has_next, hyp_count, np.where(has_prev, (prev_key >> 1) % C, 0))
        out[lo:hi] = np.bincount(run_at // G, weights=clipped, minlength=hi - lo).astype(np.int64)
    return out
