"""The numba kernels of the compiled twins (imported only when `zheval.fast.usable_for` ``"compiled"`` says
yes, or by `zheval.fast.warmup`): loops over token ids that numpy can only express as sorts and gathers.

Every kernel is ``@njit(cache=True)``: compiled once per machine into numba's on-disk cache (next to this file,
or the user-wide cache directory when that is read-only; ``NUMBA_CACHE_DIR`` overrides both), loaded from there
afterwards. No ``fastmath``: floats follow IEEE operation by operation, as the references' Python floats do.
The twins that call them, and what each equals, are in `zheval.fast.compiled.twins`; the union-LCS kernel of
ROUGE-Lsum is in `zheval.fast.compiled.union_kernel` (re-exported here).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...tokenizers.char_spans_kernel import token_bounds, token_ids  # noqa: F401  (the char tokenizer's, in its layer)
from ...tokenizers.term_spans_kernel import merge_terms  # noqa: F401  (the char tokenizer's with terms)
from .union_kernel import add_with_carry, union_lcs_hits  # noqa: F401  (the ROUGE-Lsum kernel, in its own module)

_GOLD = np.uint64(0x9E3779B97F4A7C15)
_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
#: Bit of a hash key where the n-gram order starts (packed tokens below it).
ORDER_SHIFT = 58


@njit(cache=True, inline="always")
def _slot(keys, key, lg):
    """Open addressing (linear probing) in a power-of-two table of 2**lg int64 keys, -1 = empty: the slot of
    ``key`` or of the empty cell where it would go."""
    mask = (1 << lg) - 1
    s = np.int64((np.uint64(key) * _GOLD) >> np.uint64(64 - lg))
    while keys[s] != -1 and keys[s] != key:
        s = (s + 1) & mask
    return s


@njit(cache=True)
def _table_bits(entries):
    lg = 4
    while (1 << lg) < 2 * entries + 2:
        lg += 1
    return lg


@njit(cache=True, inline="always")
def _popcount(v):
    v = v - ((v >> np.uint64(1)) & np.uint64(0x5555555555555555))
    v = (v & np.uint64(0x3333333333333333)) + ((v >> np.uint64(2)) & np.uint64(0x3333333333333333))
    v = (v + (v >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((v * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def _lcs_bits(ids, b0, b1, loc, masks, m, V, zero):
    """LCS length of the prediction whose match-mask rows are ``masks[loc[token]]`` (``m`` tokens, bit j = position
    j; a token absent from the prediction has the all-zero row ``zero``, which leaves V as it is) and the reference
    ``ids[b0:b1]``: the bit-parallel recurrence V' = (V + U) | (V - U), U = V & M(token) (Crochemore et al. 2001),
    carries across 64-bit words."""
    w = (m + 63) >> 6
    for x in range(w):
        V[x] = _ALL
    if w == 1:
        v = _ALL
        for i in range(b0, b1):
            u = v & masks[loc[ids[i]], 0]
            v = (v + u) | (v ^ u)
        V[0] = v
    else:
        for i in range(b0, b1):
            r = loc[ids[i]]
            if r == zero:
                continue
            carry = np.uint64(0)
            for x in range(w):
                vx = V[x]
                u = vx & masks[r, x]
                s2, carry = add_with_carry(vx, u, carry)
                V[x] = s2 | (vx ^ u)
    zeros = 0
    for x in range(w):
        bits = m - 64 * x
        v = V[x]
        if bits < 64:
            v = v & ((_ONE << np.uint64(bits)) - _ONE)
        zeros += _popcount(v)
    return m - zeros


@njit(cache=True)
def _distinct_rows(ids, offsets, texts, vocab):
    """The largest number of distinct tokens of any of ``texts`` (rows of a match-mask table)."""
    seen = np.zeros(vocab, dtype=np.uint8)
    best = 0
    for k in range(len(texts)):
        a0, a1 = offsets[texts[k]], offsets[texts[k] + 1]
        d = 0
        for j in range(a0, a1):
            if seen[ids[j]] == 0:
                seen[ids[j]] = 1
                d += 1
        for j in range(a0, a1):
            seen[ids[j]] = 0
        if d > best:
            best = d
    return best


@njit(cache=True)
def _longest_text(offsets, texts):
    """The most tokens of any of ``texts`` (at least 1)."""
    maxm = 1
    for k in range(len(texts)):
        m = offsets[texts[k] + 1] - offsets[texts[k]]
        if m > maxm:
            maxm = m
    return maxm


@njit(cache=True)
def _gram_table(max_order, maxm):
    """An empty open-addressing table for the n-grams (orders 1..max_order) of a text of up to ``maxm`` tokens:
    ``(lg, keys (-1 empty), counts, orders, inserted, touched)``, 2**lg slots."""
    lg = _table_bits(max_order * maxm)
    hkey = np.full(1 << lg, -1, dtype=np.int64)
    hcnt = np.zeros(1 << lg, dtype=np.int64)
    hord = np.zeros(1 << lg, dtype=np.int64)
    inserted = np.empty(max_order * maxm, dtype=np.int64)
    touched = np.empty(max_order * maxm + 1, dtype=np.int64)
    return lg, hkey, hcnt, hord, inserted, touched


@njit(cache=True, inline="always")
def _gram_slot(ids, j, n, key, vb, hkey, lg):
    """The order-``n`` n-gram at ``j`` from the order ``n - 1`` one's packed ``key``: ``(key, key with the order
    above ORDER_SHIFT, its slot in the open-addressing table)``."""
    key = (key << vb) | ids[j + n - 1]
    k2 = key | (np.int64(n) << ORDER_SHIFT)
    return key, k2, _slot(hkey, k2, lg)


@njit(cache=True, inline="always")
def _count_grams(ids, a0, a1, max_order, vb, hkey, lg, insert, counts, hord, listed, uni_count, uni_used):
    """Count the n-grams (orders 1..max_order) of ``ids[a0:a1]`` into ``counts`` by their slots of the table;
    returns ``(how many slots it counted first (listed in listed), clipped unigram hits)``. ``insert`` (the
    prediction): an n-gram not in the table is put there (``hord``: each slot's order); else (a reference) an
    n-gram not there ends the longer ones at that start: they cannot be there either. ``counts`` is zero wherever
    the table is empty. With ``uni_count`` (a table by token id; empty: none) the unigrams are counted there, not
    in the hash table: the prediction's counts, and a reference's uses in ``uni_used`` (a use below the count is a
    clipped hit); a reference position whose token is not in the prediction starts no n-gram there."""
    nl = 0
    hits1 = 0
    dense = len(uni_count) > 0
    for j in range(a0, a1):
        key = np.int64(0)
        lowest = 1
        if dense:
            t = ids[j]
            if insert:
                uni_count[t] += 1
            elif uni_count[t] == 0:
                continue
            else:
                if uni_used[t] < uni_count[t]:
                    hits1 += 1
                uni_used[t] += 1
            key = t
            lowest = 2
        for n in range(lowest, max_order + 1):
            if j + n > a1:
                break
            key, k2, s = _gram_slot(ids, j, n, key, vb, hkey, lg)
            if hkey[s] == -1:
                if not insert:
                    break
                hkey[s] = k2
                hord[s] = n
                listed[nl] = s
                nl += 1
            elif not insert and counts[s] == 0:
                listed[nl] = s
                nl += 1
            counts[s] += 1
    return nl, hits1


@njit(cache=True, inline="always")
def _clear_prediction(hkey, hcnt, inserted, ni, ids, a0, a1, by_token):
    """Empty the ``ni`` slots the prediction ``ids[a0:a1]`` filled (``inserted``) and its per-token marks
    ``by_token``, so the next prediction starts from clean tables without a pass over them."""
    for x in range(ni):
        hkey[inserted[x]] = -1
        hcnt[inserted[x]] = 0
    for j in range(a0, a1):
        by_token[ids[j]] = 0


@njit(cache=True)
def rouge_pair_stats(ids, offsets, dh, dcount, u_ref, max_order, vb, want_lcs, vocab):
    """ROUGE-N hits of orders 1..max_order and the LCS length of every distinct (prediction, reference) pair,
    pairs grouped by distinct prediction (``dh[k]`` has the next ``dcount[k]`` references of ``u_ref``).

    The prediction's unigrams are counted in a table by token id; its n-grams of orders 2..max_order
    (``max_order * vb <= 58`` bits of packed tokens, the order above) go into an open-addressing table with their
    counts. A reference n-gram found there is a clipped hit while the reference has used fewer than the
    prediction's count (Lin 2004: sum_g min(c_hyp(g), c_ref(g))); a reference position whose token is not in the
    prediction starts no matching n-gram, and an n-gram not in the prediction ends the longer ones at that start.
    The LCS: `_lcs_bits` over the prediction's match-mask rows. Returns ``(hits (P, max_order), lcs (P,))``
    int64."""
    P = len(u_ref)
    hits = np.zeros((P, max_order), dtype=np.int64)
    lcs = np.zeros(P, dtype=np.int64)
    maxm = _longest_text(offsets, dh)
    lg, hkey, hcnt, hord, inserted, touched = _gram_table(max_order, maxm)
    hused = np.zeros(1 << lg, dtype=np.int64)
    cnt1 = np.zeros(vocab, dtype=np.int32)  # the prediction's count of each token, and the reference's use of it
    used1 = np.zeros(vocab, dtype=np.int32)
    rows = _distinct_rows(ids, offsets, dh, vocab) if want_lcs else 0
    masks = np.zeros((rows + 1, (maxm + 63) >> 6), dtype=np.uint64)  # the last row stays zero
    loc = np.full(vocab, rows, dtype=np.int64)
    V = np.empty((maxm + 63) >> 6, dtype=np.uint64)
    p = 0
    for k in range(len(dh)):
        a0, a1 = offsets[dh[k]], offsets[dh[k] + 1]
        m = a1 - a0
        ni, _ = _count_grams(ids, a0, a1, max_order, vb, hkey, lg, True, hcnt, hord, inserted, cnt1, used1)
        nrows = 0
        if want_lcs:
            for j in range(m):
                t = ids[a0 + j]
                if loc[t] == rows:
                    loc[t] = nrows
                    nrows += 1
                masks[loc[t], j >> 6] |= _ONE << np.uint64(j & 63)
        for q in range(dcount[k]):
            b0, b1 = offsets[u_ref[p]], offsets[u_ref[p] + 1]
            nt, h1 = _count_grams(ids, b0, b1, max_order, vb, hkey, lg, False, hused, hord, touched, cnt1, used1)
            for j in range(b0, b1):
                used1[ids[j]] = 0
            hits[p, 0] = h1
            for x in range(nt):
                sl = touched[x]
                hits[p, hord[sl] - 1] += hused[sl] if hused[sl] < hcnt[sl] else hcnt[sl]
            for x in range(nt):
                hused[touched[x]] = 0
            if want_lcs and h1 > 0:  # no token in common: LCS 0
                lcs[p] = _lcs_bits(ids, b0, b1, loc, masks, m, V, rows)
            p += 1
        _clear_prediction(hkey, hcnt, inserted, ni, ids, a0, a1, cnt1)
        if want_lcs:
            w = (m + 63) >> 6
            for j in range(m):
                t = ids[a0 + j]
                if loc[t] != rows:
                    for x in range(w):
                        masks[loc[t], x] = 0
                    loc[t] = rows
    return hits, lcs


@njit(cache=True)
def bleu_item_matches(ids, offsets, hyp, ref, ref_counts, max_order, vb):
    """BLEU's clipped matches of orders 1..max_order of every item: sum over the prediction's n-grams of
    min(count in the prediction, max over references of the count there) (Papineni et al. 2002; sacrebleu's
    ``_compute_segment_statistics``). The prediction's n-grams in an open-addressing table (packed as in
    `rouge_pair_stats`); each reference's counts of those n-grams, the maximum over references kept.
    Returns ``(I, max_order)`` int64."""
    I = len(hyp)
    out = np.zeros((I, max_order), dtype=np.int64)
    lg, hkey, hcnt, hord, inserted, touched = _gram_table(max_order, _longest_text(offsets, hyp))
    tmp = np.zeros(1 << lg, dtype=np.int64)
    mx = np.zeros(1 << lg, dtype=np.int64)
    none = np.zeros(0, dtype=np.int32)  # unigrams in the hash table with the other orders
    p = 0
    for i in range(I):
        a0, a1 = offsets[hyp[i]], offsets[hyp[i] + 1]
        ni, _ = _count_grams(ids, a0, a1, max_order, vb, hkey, lg, True, hcnt, hord, inserted, none, none)
        for q in range(ref_counts[i]):
            b0, b1 = offsets[ref[p]], offsets[ref[p] + 1]
            nt, _ = _count_grams(ids, b0, b1, max_order, vb, hkey, lg, False, tmp, hord, touched, none, none)
            for x in range(nt):
                s = touched[x]
                if tmp[s] > mx[s]:
                    mx[s] = tmp[s]
                tmp[s] = 0
            p += 1
        for x in range(ni):
            s = inserted[x]
            out[i, hord[s] - 1] += hcnt[s] if hcnt[s] < mx[s] else mx[s]
            hkey[s] = -1
            hcnt[s] = 0
            mx[s] = 0
    return out


@njit(cache=True, inline="always")
def _insert_skip_bigrams(ids, a0, a1, skip, vocab, hkey, hcnt, inserted, lg, present):
    """Count the skip-bigrams of ``ids[a0:a1]`` (``a * vocab + b``) into the table and mark its tokens in
    ``present``; returns how many slots it took (listed in ``inserted``)."""
    ni = 0
    for i in range(a0, a1):
        present[ids[i]] = 1
        hi = a1 if skip < 0 else min(a1, i + skip + 2)
        for j in range(i + 1, hi):
            key = ids[i] * vocab + ids[j]
            s = _slot(hkey, key, lg)
            if hkey[s] == -1:
                hkey[s] = key
                inserted[ni] = s
                ni += 1
            hcnt[s] += 1
    return ni


@njit(cache=True)
def skip_bigram_pair_hits(ids, offsets, dh, dcount, u_ref, skip, vocab):
    """Clipped skip-bigram co-occurrences (pairs ``(x_i, x_j)``, ``i < j <= i + skip + 1``; ``skip < 0``: no
    limit) of every distinct (prediction, reference) pair, grouped as in `rouge_pair_stats`: the prediction's
    skip-bigrams (``a * vocab + b``) with counts in an open-addressing table; the reference's positions whose token
    occurs in the prediction are paired and looked up (a pair with another token cannot match). Returns ``(P,)``."""
    P = len(u_ref)
    hits = np.zeros(P, dtype=np.int64)
    maxs = 1
    maxlen = 1
    for k in range(len(dh)):
        m = offsets[dh[k] + 1] - offsets[dh[k]]
        g = m - 1 if skip < 0 else min(m - 1, skip + 1)
        c = 0
        for gap in range(1, g + 1):
            c += m - gap
        if c > maxs:
            maxs = c
    for t in range(len(offsets) - 1):
        if offsets[t + 1] - offsets[t] > maxlen:
            maxlen = offsets[t + 1] - offsets[t]
    lg, hkey, hcnt, _, inserted, touched = _gram_table(1, maxs)
    hused = np.zeros(1 << lg, dtype=np.int64)
    present = np.zeros(vocab, dtype=np.uint8)
    cpos = np.empty(maxlen, dtype=np.int64)
    ctok = np.empty(maxlen, dtype=np.int64)
    p = 0
    for k in range(len(dh)):
        a0, a1 = offsets[dh[k]], offsets[dh[k] + 1]
        ni = _insert_skip_bigrams(ids, a0, a1, skip, vocab, hkey, hcnt, inserted, lg, present)
        for q in range(dcount[k]):
            b0, b1 = offsets[u_ref[p]], offsets[u_ref[p] + 1]
            c = 0
            for i in range(b0, b1):
                if present[ids[i]]:
                    cpos[c] = i
                    ctok[c] = ids[i]
                    c += 1
            nt = 0
            h = 0
            for x in range(c):
                for y in range(x + 1, c):
                    if skip >= 0 and cpos[y] - cpos[x] > skip + 1:
                        break
                    key = ctok[x] * vocab + ctok[y]
                    s = _slot(hkey, key, lg)
                    if hkey[s] == -1:
                        continue
                    if hused[s] == 0:
                        touched[nt] = s
                        nt += 1
                    if hused[s] < hcnt[s]:
                        h += 1
                    hused[s] += 1
            for x in range(nt):
                hused[touched[x]] = 0
            hits[p] = h
            p += 1
        _clear_prediction(hkey, hcnt, inserted, ni, ids, a0, a1, present)
    return hits


@njit(cache=True)
def wlcs_rows(ref, can, fw, prev_b, prev_l, i0, i1, present):
    """Rows ``i0 .. i1 - 1`` of `zheval.definitions.lcs.wlcs`'s table (reference ``ref`` as rows, candidate
    ``can`` as columns), in place on the previous row's bases ``prev_b`` and run lengths ``prev_l`` (``n + 1``
    entries each): the reference's operations in its order, so the floats are the same bit for bit.

    ``present[token]`` is non-zero for the tokens of ``can``. A row whose token is absent makes every cell the
    running maximum of the row above (run lengths 0); on a row that already is such a maximum -- the first row's
    zeros, or the result of an absent row -- it changes nothing (``b + f(0)`` is ``b + 0.0 == b``, and the running
    maximum of a non-decreasing row is the row), so an absent row right after an absent row (or first) is skipped."""
    n = len(can)
    cur_b = np.empty(n + 1, dtype=np.float64)
    cur_l = np.empty(n + 1, dtype=np.int64)
    for i in range(i0, i1):
        x = ref[i]
        if present[x] == 0 and (i == 0 or present[ref[i - 1]] == 0):
            continue
        cur_b[0] = 0.0
        cur_l[0] = 0
        left_b = 0.0
        left_l = 0
        left_v = 0.0
        for j in range(n):
            if x == can[j]:
                k = prev_l[j]
                left_b = prev_b[j]
                left_l = k + 1
                left_v = left_b + fw[k + 1]
            else:
                up_v = prev_b[j + 1] + fw[prev_l[j + 1]]
                if up_v >= left_v:
                    left_v = up_v
                left_b = left_v
                left_l = 0
            cur_b[j + 1] = left_b
            cur_l[j + 1] = left_l
        prev_b[:] = cur_b
        prev_l[:] = cur_l


@njit(cache=True)
def wlcs_many(ids, offsets, ref, can, fw, vocab):
    """`zheval.definitions.lcs.wlcs` of every pair ``(text ref[p], text can[p])`` (0.0 where one is
    empty), each by `wlcs_rows` (token ids below ``vocab``). Returns ``(P,)`` float64."""
    P = len(ref)
    out = np.zeros(P, dtype=np.float64)
    present = np.zeros(vocab, dtype=np.uint8)
    for p in range(P):
        r0, r1 = offsets[ref[p]], offsets[ref[p] + 1]
        c0, c1 = offsets[can[p]], offsets[can[p] + 1]
        n = c1 - c0
        if r1 == r0 or n == 0:
            continue
        for j in range(c0, c1):
            present[ids[j]] = 1
        prev_b = np.zeros(n + 1, dtype=np.float64)
        prev_l = np.zeros(n + 1, dtype=np.int64)
        wlcs_rows(ids[r0:r1], ids[c0:c1], fw, prev_b, prev_l, 0, r1 - r0, present)
        out[p] = prev_b[n] + fw[prev_l[n]]
        for j in range(c0, c1):
            present[ids[j]] = 0
    return out
