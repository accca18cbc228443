"""Clipped n-gram co-occurrence counts for a whole corpus at once, with numpy (shared by ROUGE-N and BLEU).

Pure functions on integer token ids (``0 <= id < vocab_size``); nothing here tokenises or reads global state.

Why this exists
    ROUGE-N of a (prediction, reference) pair needs ``sum_g min(c_hyp(g), c_ref(g))`` (Lin 2004, section 2); BLEU
    of an item needs ``sum_g min(c_hyp(g), max_r c_ref_r(g))`` (Papineni et al. 2002, section 2.1). Counting those
    with Python dicts per pair costs a few microseconds per n-gram. Here every *distinct* text is counted once per
    call, and the clipped sums of all pairs/items are obtained with a few sorts of int64 keys.

Method (exact integer arithmetic only)
    1. **Dense n-gram ids.** Order 1: the token id. Order n: ``np.unique`` inverse of ``id_{n-1}(i) * V +
       token(i + n - 1)`` over every start position i whose n-gram lies inside its text (V = vocabulary size), so
       two n-grams get the same id iff their token sequences are equal. Ids are in ``[0, G_n)``.
    2. **Counts per distinct text.** Sort ``text * G_n + id``; runs give ``(text, id, count)``, ordered by text and
       then id (:class:`NgramCounts`).
    3. **Clipped sums.** For pairs (or items) p, each side contributes keys ``(p * G + id) * C + count`` with
       ``C > max count``. After one sort, a hypothesis entry and a reference entry of the same (p, id) are
       adjacent, the smaller count first, so ``min`` is the low part of the first key of an equal-prefix pair;
       ``np.bincount`` sums them per p. Keys must stay below 2**62: pairs are processed in chunks that guarantee it.

Everything is integer-valued, so the results equal the dict-based counts exactly (the tests compare them with
:func:`zheval.rouge.clipped_overlap` and :func:`zheval.bleu.item_stats` on random corpora).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Sequence

import numpy as np

__all__ = ["NgramCounts", "flatten_texts", "ngram_counts_by_text", "pair_clipped_hits", "item_clipped_hits"]

_KEY_LIMIT = 1 << 62


@dataclass(frozen=True)
class NgramCounts:
    """Distinct n-grams of one order per distinct text.

    Attributes:
        order: n >= 1.
        offsets: ``(n_texts + 1,)`` int64; text t owns entries ``offsets[t]:offsets[t + 1]``.
        ids: dense n-gram ids in ``[0, n_ids)``, increasing within each text.
        counts: occurrences (>= 1) of that n-gram in that text.
        n_ids: number of distinct n-grams over all texts (G).
        max_count: largest entry of ``counts`` (0 when there is none).
    """

    order: int
    offsets: np.ndarray
    ids: np.ndarray
    counts: np.ndarray
    n_ids: int
    max_count: int


def flatten_texts(texts: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """``(tokens, offsets)``: all token ids concatenated (int64) and ``(len(texts) + 1,)`` start offsets."""
    lengths = np.fromiter((len(t) for t in texts), dtype=np.int64, count=len(texts))
    offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    total = int(offsets[-1])
    if total:
        tokens = np.fromiter((i for t in texts for i in t), dtype=np.int64, count=total)
    else:
        tokens = np.zeros(0, dtype=np.int64)
    return tokens, offsets


def ngram_counts_by_text(tokens: np.ndarray, offsets: np.ndarray, vocab_size: int, max_order: int) -> List[NgramCounts]:
    """Per-text n-gram counts of orders ``1..max_order`` (see the module docstring, steps 1 and 2).

    Args:
        tokens: int64 token ids of all texts, concatenated; ``0 <= id < vocab_size``.
        offsets: ``(n_texts + 1,)`` int64 start offsets into ``tokens``.
        vocab_size: V >= 1 (an upper bound of the ids).
        max_order: highest order (>= 1).
    Returns:
        ``[NgramCounts(order=1), ..., NgramCounts(order=max_order)]``.
    """
    n_texts = len(offsets) - 1
    n_tok = len(tokens)
    lengths = np.diff(offsets)
    text_of = np.repeat(np.arange(n_texts, dtype=np.int64), lengths)
    end_of = offsets[1:][text_of] if n_tok else np.zeros(0, dtype=np.int64)
    pos = np.arange(n_tok, dtype=np.int64)
    V = max(int(vocab_size), 1)
    out: List[NgramCounts] = []
    ids = tokens
    G = V
    starts = pos
    for n in range(1, max_order + 1):
        if n > 1:
            keep = starts + (n - 1) < end_of[starts] if len(starts) else np.zeros(0, dtype=bool)
            # ids of order n-1 at the kept start positions, extended by one token
            key = ids[keep] * V + tokens[starts[keep] + (n - 1)]
            starts = starts[keep]
            if len(key):
                uniq, ids = np.unique(key, return_inverse=True)
                G = len(uniq)
            else:
                ids = key
                G = 1
        out.append(_count_by_text(n, text_of[starts], ids, G, n_texts))
    return out


def _count_by_text(order: int, text: np.ndarray, ids: np.ndarray, G: int, n_texts: int) -> NgramCounts:
    if len(ids) == 0:
        return NgramCounts(order, np.zeros(n_texts + 1, dtype=np.int64), ids.astype(np.int64), ids.astype(np.int64), max(G, 1), 0)
    key = text * G + ids
    key.sort()
    first = np.empty(len(key), dtype=bool)
    first[0] = True
    np.not_equal(key[1:], key[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    uniq = key[starts]
    counts = np.diff(np.append(starts, len(key)))
    t = uniq // G
    offsets = np.searchsorted(t, np.arange(n_texts + 1, dtype=np.int64), side="left").astype(np.int64)
    return NgramCounts(order, offsets, uniq - t * G, counts.astype(np.int64), G, int(counts.max()))


def _ragged_gather(offsets: np.ndarray, which: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each i, the entry indices ``offsets[which[i]]:offsets[which[i] + 1]``: ``(owner i, entry index)``."""
    starts = offsets[which]
    lens = offsets[which + 1] - starts
    total = int(lens.sum())
    owner = np.repeat(np.arange(len(which), dtype=np.int64), lens)
    if total == 0:
        return owner, owner
    ends = np.cumsum(lens)
    idx = np.arange(total, dtype=np.int64) + np.repeat(starts - (ends - lens), lens)
    return owner, idx


def _chunks(n: int, G: int, C: int):
    size = max(1, _KEY_LIMIT // (max(G, 1) * max(C, 1)) - 1)
    for lo in range(0, n, size):
        yield lo, min(n, lo + size)


def _min_of_matches(keys: np.ndarray, C: int, G: int, n_owner: int) -> np.ndarray:
    """Sorted-key trick: sum per owner of the smaller count of equal (owner, id) entries (one per side)."""
    if len(keys) < 2:
        return np.zeros(n_owner, dtype=np.int64)
    keys.sort()
    q = keys // C
    eq = q[1:] == q[:-1]
    lows = keys[:-1][eq] - q[:-1][eq] * C
    owner = q[:-1][eq] // G
    return np.bincount(owner, weights=lows, minlength=n_owner).astype(np.int64)


def pair_clipped_hits(nc: NgramCounts, hyp: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """``sum_g min(c_hyp(g), c_ref(g))`` for every pair (ROUGE-N hits, Lin 2004 section 2).

    Args:
        nc: counts of one order (:func:`ngram_counts_by_text`).
        hyp, ref: ``(P,)`` int arrays of text indices (pair p compares text ``hyp[p]`` with ``ref[p]``).
    Returns:
        ``(P,)`` int64 hits, each in ``[0, min(hyp n-grams, ref n-grams)]``.
    """
    hyp = np.asarray(hyp, dtype=np.int64)
    ref = np.asarray(ref, dtype=np.int64)
    P = len(hyp)
    out = np.zeros(P, dtype=np.int64)
    G, C = nc.n_ids, nc.max_count + 1
    for lo, hi in _chunks(P, G, C):
        ho, hi_idx = _ragged_gather(nc.offsets, hyp[lo:hi])
        ro, ri_idx = _ragged_gather(nc.offsets, ref[lo:hi])
        keys = np.concatenate([(ho * G + nc.ids[hi_idx]) * C + nc.counts[hi_idx],
                               (ro * G + nc.ids[ri_idx]) * C + nc.counts[ri_idx]])
        out[lo:hi] = _min_of_matches(keys, C, G, hi - lo)
    return out


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
    C2 = 2 * C
    bounds = np.searchsorted(ref_item, np.arange(I + 1, dtype=np.int64), side="left")
    for lo, hi in _chunks(I, G, C2):
        ho, hidx = _ragged_gather(nc.offsets, hyp[lo:hi])
        r_lo, r_hi = int(bounds[lo]), int(bounds[hi])
        ro, ridx = _ragged_gather(nc.offsets, ref[r_lo:r_hi])
        keys = np.concatenate([((ho * G + nc.ids[hidx]) * C + nc.counts[hidx]) * 2,
                               (((ref_item[r_lo:r_hi][ro] - lo) * G + nc.ids[ridx]) * C + nc.counts[ridx]) * 2 + 1])
        if len(keys) == 0:
            continue
        keys.sort()
        run = keys // C2  # item * G + id
        at = np.flatnonzero((keys & 1) == 0)  # hypothesis entries
        n = len(keys)
        nxt = at + 1
        has_next = nxt < n
        has_next[has_next] = run[nxt[has_next]] == run[at[has_next]]
        prv = at - 1
        has_prev = prv >= 0
        has_prev[has_prev] = run[prv[has_prev]] == run[at[has_prev]]
        count_of = (keys >> 1) % C
        clipped = np.where(has_next, count_of[at], np.where(has_prev, count_of[np.maximum(prv, 0)], 0))
        out[lo:hi] = np.bincount(run[at] // G, weights=clipped, minlength=hi - lo).astype(np.int64)
    return out
