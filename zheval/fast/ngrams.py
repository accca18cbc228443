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
       then id (`NgramCounts`).
    3. **Clipped sums.** ROUGE pairs p (`pair_clipped_hits`): each side contributes keys ``(p * G + id) * C +
       count`` with ``C > max count``. After one sort, a hypothesis entry and a reference entry of the same (p, id)
       are adjacent, the smaller count first, so ``min`` is the low part of the first key of an equal-prefix pair;
       ``np.bincount`` sums them per p. Keys must stay below 2**62: pairs are processed in chunks that guarantee it.
       BLEU items (`item_clipped_hits_orders`): dense per-item tables, no sort (see there).

Everything is integer-valued, so the results equal the dict-based counts exactly (the tests compare them with
`zheval.definitions.rouge.clipped_overlap` and `zheval.definitions.bleu.item_stats` on random corpora).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Sequence

import numpy as np

from .keys import runs

__all__ = ["NgramCounts", "NgramTables", "flatten_texts", "ngram_counts_by_text", "pair_clipped_hits",
           "item_clipped_hits_orders"]

_KEY_LIMIT = 1 << 62
_DENSE_COUNT_MAX = 1 << 22  # widest (text, n-gram) key range counted with a bincount (32 MiB) instead of a sort


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
        prefix: for order >= 2, ``(n_ids,)`` int64: the order ``n - 1`` id of each n-gram's first ``n - 1`` tokens
            (non-decreasing in the id, because ids are assigned in order of ``(prefix id, last token)``); ``None``
            for order 1.
    """

    order: int
    offsets: np.ndarray
    ids: np.ndarray
    counts: np.ndarray
    n_ids: int
    max_count: int
    prefix: "np.ndarray | None" = None


def flatten_texts(texts: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """``(tokens, offsets)``: all token ids concatenated (int64) and ``(len(texts) + 1,)`` start offsets."""
    lengths = np.fromiter((len(t) for t in texts), dtype=np.int64, count=len(texts))
    offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    total = int(offsets[-1])
    if total:
        tokens = np.fromiter(chain.from_iterable(texts), dtype=np.int64, count=total)
    else:
        tokens = np.zeros(0, dtype=np.int64)
    return tokens, offsets


def ngram_counts_by_text(
    tokens: np.ndarray, offsets: np.ndarray, vocab_size: int, max_order: int, extend: "NgramTables | None" = None
) -> "NgramTables":
    """Per-text n-gram counts of orders ``1..max_order`` (see the module docstring, steps 1 and 2).

    Args:
        tokens: int32 or int64 token ids of all texts, concatenated; ``0 <= id < vocab_size``.
        offsets: ``(n_texts + 1,)`` int64 start offsets into ``tokens``.
        vocab_size: V >= 1 (an upper bound of the ids).
        max_order: highest order (>= 1).
        extend: the result of an earlier call on the same texts; only the missing orders are computed.
    Returns:
        `NgramTables`, a list ``[NgramCounts(order=1), ..., NgramCounts(order=max_order)]``.
    """
    if extend is not None and len(extend) >= max_order:
        return extend
    out = extend if extend is not None else NgramTables()
    if not out:
        n_texts = len(offsets) - 1
        n_tok = len(tokens)
        text_of = np.repeat(np.arange(n_texts, dtype=np.int64), np.diff(offsets))
        out._state = (text_of, offsets[1:][text_of] if n_tok else np.zeros(0, dtype=np.int64),
                      np.arange(n_tok, dtype=np.int64), tokens, n_texts)
        out.append(_count_by_text(1, text_of, tokens, max(int(vocab_size), 1), n_texts))
    text_of, end_of, starts, ids, n_texts = out._state
    V = max(int(vocab_size), 1)
    for n in range(len(out) + 1, max_order + 1):
        keep = starts + (n - 1) < end_of[starts] if len(starts) else np.zeros(0, dtype=bool)
        # ids of order n-1 at the kept start positions, extended by one token
        key = ids[keep].astype(np.int64, copy=False) * V + tokens[starts[keep] + (n - 1)]  # order 1: int32 ids
        starts = starts[keep]
        if len(key):
            uniq, ids = _dense_ids(key)
            G = len(uniq)
            prefix = uniq // V
        else:
            ids, G, prefix = key, 1, np.zeros(1, dtype=np.int64)
        out.append(_count_by_text(n, text_of[starts], ids, G, n_texts, prefix))
        out._state = (text_of, end_of, starts, ids, n_texts)
    return out


def _dense_ids(key: np.ndarray):
    """``np.unique(key, return_inverse=True)`` for non-negative int64 keys: one ``np.sort`` of ``key`` packed with
    the position (no argsort) when that fits in 63 bits, ``np.unique`` otherwise. Same arrays either way."""
    n = len(key)
    bits = max(1, (n - 1).bit_length())
    if int(key.max()) >= 1 << (62 - bits):
        return np.unique(key, return_inverse=True)
    packed = (key << bits) | np.arange(n, dtype=np.int64)
    packed.sort()
    sorted_key = packed >> bits
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(sorted_key[1:], sorted_key[:-1], out=new[1:])
    rank = np.cumsum(new)
    rank -= 1
    ids = np.empty(n, dtype=np.int64)
    ids[packed & ((1 << bits) - 1)] = rank
    return sorted_key[new], ids


class NgramTables(list):
    """``list`` of `NgramCounts` by order (index 0 = order 1), extendable to higher orders
    (`ngram_counts_by_text` with ``extend=``)."""

    _state = None


def _count_by_text(order: int, text: np.ndarray, ids: np.ndarray, G: int, n_texts: int,
                   prefix: "np.ndarray | None" = None) -> NgramCounts:
    if len(ids) == 0:
        return NgramCounts(order, np.zeros(n_texts + 1, dtype=np.int64), ids.astype(np.int64), ids.astype(np.int64),
                           max(G, 1), 0, prefix)
    key = text * G + ids
    if n_texts * G <= _DENSE_COUNT_MAX and n_texts * G <= 4 * len(key):
        # small key range: count with one bincount instead of a sort (same runs, same order)
        dense = np.bincount(key, minlength=n_texts * G)
        uniq = np.flatnonzero(dense)
        counts = dense[uniq]
        t = uniq // G
        offsets = np.searchsorted(t, np.arange(n_texts + 1, dtype=np.int64), side="left").astype(np.int64)
        return NgramCounts(order, offsets, uniq - t * G, counts.astype(np.int64), G, int(counts.max()), prefix)
    key.sort()
    uniq, counts = runs(key)
    t = uniq // G
    offsets = np.searchsorted(t, np.arange(n_texts + 1, dtype=np.int64), side="left").astype(np.int64)
    return NgramCounts(order, offsets, uniq - t * G, counts.astype(np.int64), G, int(counts.max()), prefix)


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
    eq = np.flatnonzero(q[1:] == q[:-1])
    lows = keys[eq] - q[eq] * C
    return np.bincount(q[eq] // G, weights=lows, minlength=n_owner).astype(np.int64)


def pair_clipped_hits(nc: NgramCounts, hyp: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """``sum_g min(c_hyp(g), c_ref(g))`` for every pair (ROUGE-N hits, Lin 2004 section 2).

    Args:
        nc: counts of one order (`ngram_counts_by_text`).
        hyp, ref: ``(P,)`` int arrays of text indices (pair p compares text ``hyp[p]`` with ``ref[p]``).
    Returns:
        ``(P,)`` int64 hits, each in ``[0, min(hyp n-grams, ref n-grams)]``.
    """
    hyp = np.asarray(hyp, dtype=np.int64)
    ref = np.asarray(ref, dtype=np.int64)
    P = len(hyp)
    out = np.zeros(P, dtype=np.int64)
    G, C = nc.n_ids, nc.max_count + 1
    base = nc.ids * C + nc.counts  # the per-entry part of a key
    for lo, hi in _chunks(P, G, C):
        owners = np.arange(hi - lo, dtype=np.int64) * (G * C)
        _, hlen, hidx = _ranges(nc.offsets, hyp[lo:hi])
        _, rlen, ridx = _ranges(nc.offsets, ref[lo:hi])
        keys = np.concatenate([np.repeat(owners, hlen) + base[hidx], np.repeat(owners, rlen) + base[ridx]])
        out[lo:hi] = _min_of_matches(keys, C, G, hi - lo)
    return out


def _ranges(offsets: np.ndarray, which: np.ndarray):
    """``(starts, lengths, entry indices)`` of the concatenated ranges ``offsets[k]:offsets[k + 1]``, k in ``which``."""
    starts = offsets[which]
    lens = offsets[which + 1] - starts
    total = int(lens.sum())
    if total == 0:
        return starts, lens, np.zeros(0, dtype=np.int64)
    shift = starts.copy()
    shift[1:] -= np.cumsum(lens)[:-1]
    return starts, lens, np.arange(total, dtype=np.int64) + np.repeat(shift, lens)


#: Cells of the dense per-item tables of `item_clipped_hits_orders` (items are processed in batches of
#: ``max(1, _TABLE_CELLS // n_ids)``; each table is reset entry by entry after a batch, never reallocated).
_TABLE_CELLS = 1 << 22


def item_clipped_hits_orders(tables: Sequence[NgramCounts], hyp: np.ndarray, ref: np.ndarray, ref_item: np.ndarray,
                             max_order: "int | None" = None, pair_orders: int = 0):
    """BLEU clipped matches ``sum_g min(c_hyp(g), max_r c_r(g))`` per item (Papineni et al. 2002 section 2.1) of
    every order ``1..max_order`` at once, without sorting, pruned by lower orders.

    Exact integers; the tests compare them with the per-item dict counts of `zheval.definitions.bleu.item_stats` and with
    a one-sort-per-order implementation on random and real corpora. Method:

    1. **Dense per-item tables instead of a sort.** For a batch of items, a table indexed ``item * G + id`` receives
       the hypothesis counts (an item's hypothesis n-grams are distinct, so no two writes collide). Each candidate
       reference entry reads its cell: ``min(c_hyp, c_ref)`` is its clipped contribution, and the maximum over the
       item's references is kept in a second table (Papineni 2.1: ``min(c_hyp, max_r c_r) = max_r min(c_hyp,
       c_r)``; contributions of 1 are plain writes, larger ones ``np.maximum.at``). Reading that table at the
       hypothesis entries gives each hypothesis n-gram's clipped count, summed per item. Only the written cells
       are reset after a batch, so the cost follows the number of entries, not the table size.
    2. **Candidates from the previous order.** An n-gram can only be matched if its first ``n - 1`` tokens are
       matched too (they occur in the same hypothesis and the same reference). So the candidates of order n, on
       both sides, are the order-n entries of the same text and item whose prefix entry matched at order ``n - 1``
       (`NgramCounts.prefix`; within a text the entries of one prefix are contiguous, because ids are ordered
       by prefix id). Order 1 takes every entry.

    Args:
        tables: `NgramCounts` of orders ``1..max_order`` (index 0 = order 1) of the same texts, as returned by
            `ngram_counts_by_text`.
        hyp: ``(I,)`` text index of each item's hypothesis.
        ref: ``(R,)`` text index of every reference, grouped by item (items in increasing order).
        ref_item: ``(R,)`` the item of each reference, non-decreasing.
        max_order: number of orders (default ``len(tables)``).
        pair_orders: also return, for orders ``1..pair_orders`` (<= max_order), every (hypothesis, reference) pair's
            own clipped sum ``sum_g min(c_hyp(g), c_ref(g))`` -- the ROUGE-N hits of the pair (Lin 2004 section 2),
            read off the same pass (each reference candidate's ``min`` is that pair's term for its n-gram, and the
            pruning keeps every n-gram a pair can match).
    Returns:
        ``(I, max_order)`` int64; column ``n - 1`` holds the clipped matches of order n, each in
        ``[0, number of hypothesis n-grams]``. With ``pair_orders``: ``(that, pair)``, ``pair`` an ``(R,
        pair_orders)`` int64 array of the pairs' sums (row r: the item's hypothesis against ``ref[r]``).
    """
    hyp = np.asarray(hyp, dtype=np.int64)
    ref = np.asarray(ref, dtype=np.int64)
    ref_item = np.asarray(ref_item, dtype=np.int64)
    N = len(tables) if max_order is None else int(max_order)
    I = len(hyp)
    out = np.zeros((I, N), dtype=np.int64)
    P = min(int(pair_orders), N)
    pair = np.zeros((len(ref), P), dtype=np.int64)
    if I == 0 or N == 0:
        return (out, pair) if pair_orders else out
    top = max(nc.max_count for nc in tables[:N])
    dtype = np.uint8 if top < 1 << 8 else (np.uint16 if top < 1 << 16 else np.int64)
    cells = max(_TABLE_CELLS, max(nc.n_ids for nc in tables[:N]))
    hyp_table = np.zeros(cells, dtype=dtype)
    max_table = np.zeros(cells, dtype=dtype)
    # order-1 candidates: every entry of every hypothesis / reference, in item order; (entry index, item) pairs
    # plus each item's start in them
    _, hlen, h_x = _ranges(tables[0].offsets, hyp)
    h_item = np.repeat(np.arange(I, dtype=np.int64), hlen)
    hb = _starts(hlen, I)
    _, rlen, r_x = _ranges(tables[0].offsets, ref)
    r_item = np.repeat(ref_item, rlen)
    rb = _starts(np.bincount(ref_item, weights=rlen, minlength=I).astype(np.int64), I)
    r_pair = np.repeat(np.arange(len(ref), dtype=np.int64), rlen) if P else None  # each candidate's reference
    for n in range(1, N + 1):
        nc = tables[n - 1]
        G = nc.n_ids
        counts = nc.counts.astype(dtype)
        # keys item * G + id, built in place over the item arrays (the item is key // G): no extra full-size arrays
        hkey = h_item
        hkey *= G
        hkey += nc.ids[h_x]
        rkey = r_item
        rkey *= G
        rkey += nc.ids[r_x]
        hcnt = counts[h_x]
        rcnt = counts[r_x]
        clipped = np.zeros(len(h_x), dtype=dtype)
        pair_min = np.zeros(len(r_x), dtype=dtype) if n <= P else None
        matched = []
        B = max(1, min(I, cells // G))
        for lo in range(0, I, B):
            hi = min(I, lo + B)
            h0, h1, r0, r1 = int(hb[lo]), int(hb[hi]), int(rb[lo]), int(rb[hi])
            if h0 == h1 or r0 == r1:
                continue  # no hypothesis or no reference candidate in these items: nothing matches
            hk = hkey[h0:h1]
            rk = rkey[r0:r1]
            if lo:
                hk = hk - lo * G
                rk = rk - lo * G
            hyp_table[hk] = hcnt[h0:h1]
            m = np.minimum(hyp_table[rk], rcnt[r0:r1])
            hyp_table[hk] = 0
            if pair_min is not None:
                pair_min[r0:r1] = m
            hit = np.flatnonzero(m > 0)
            if len(hit):
                mk = rk[hit]
                max_table[mk] = 1
                if top > 1:
                    mv = m[hit]
                    big = np.flatnonzero(mv > 1)
                    if len(big):
                        np.maximum.at(max_table, mk[big], mv[big])
                clipped[h0:h1] = max_table[hk]
                max_table[mk] = 0
                matched.append(hit + r0 if r0 else hit)
        csum = np.zeros(len(clipped) + 1, dtype=np.int64)
        np.cumsum(clipped, dtype=np.int64, out=csum[1:])
        out[:, n - 1] = csum[hb[1:]] - csum[hb[:-1]]
        if pair_min is not None and len(r_pair):
            pair[:, n - 1] = np.bincount(r_pair, weights=pair_min, minlength=len(ref)).astype(np.int64)
        if n == N:
            break
        # next order's candidates: children of the matched entries (hypothesis: clipped > 0; reference: min > 0)
        child = _child_starts(nc, tables[n])
        child_len = np.diff(child)
        h_x, h_item, hb = _children(child, child_len, h_x, hkey, np.flatnonzero(clipped > 0), I, G)
        r_hit = np.concatenate(matched) if matched else np.zeros(0, dtype=np.int64)
        if n < P:
            r_pair = np.repeat(r_pair[r_hit], child_len[r_x[r_hit]])
        r_x, r_item, rb = _children(child, child_len, r_x, rkey, r_hit, I, G)
    return (out, pair) if pair_orders else out


def _starts(per_owner: np.ndarray, n: int) -> np.ndarray:
    """``(n + 1,)`` cumulative offsets of ``n`` per-owner sizes."""
    b = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(per_owner, out=b[1:])
    return b


def _children(child: np.ndarray, child_len: np.ndarray, x: np.ndarray, key: np.ndarray, keep: np.ndarray,
              n_owners: int, G: int):
    """For the kept entries ``x[keep]`` (owners ``key[keep] // G``, non-decreasing): their children
    ``child[x]:child[x] + child_len[x]`` concatenated, the children's owners, and each owner's start in them."""
    x = x[keep]
    owner = key[keep]
    owner //= G
    lens = child_len[x]
    ends = np.zeros(len(x) + 1, dtype=np.int64)
    np.cumsum(lens, out=ends[1:])
    total = int(ends[-1])
    starts = ends[np.searchsorted(owner, np.arange(n_owners + 1, dtype=np.int64), side="left")]
    if total == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), starts
    xs = np.arange(total, dtype=np.int64) + np.repeat(child[x] - ends[:-1], lens)
    return xs, np.repeat(owner, lens), starts


def _child_starts(nc: NgramCounts, nxt: NgramCounts) -> np.ndarray:
    """``(len(nc.ids) + 1,)``: the order-``n + 1`` entries of ``nxt`` whose prefix is entry k of ``nc`` (same text)
    are ``child[k]:child[k + 1]``. Entries are ordered by (text, id) and a prefix id never decreases with the id,
    so each entry's children are contiguous and in entry order."""
    n_texts = len(nc.offsets) - 1
    texts = np.arange(n_texts, dtype=np.int64)
    keys = np.repeat(texts * nc.n_ids, np.diff(nc.offsets)) + nc.ids
    wanted = np.repeat(texts * nc.n_ids, np.diff(nxt.offsets)) + nxt.prefix[nxt.ids]
    parent = np.searchsorted(keys, wanted, side="left")
    out = np.zeros(len(keys) + 1, dtype=np.int64)
    np.cumsum(np.bincount(parent, minlength=len(keys)), out=out[1:])
    return out
