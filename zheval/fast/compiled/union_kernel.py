"""The numba kernel of the compiled ROUGE-Lsum union-LCS twin (`zheval.fast.compiled.twins.union_lcs_hits`):
the algorithm of `zheval.definitions.union_lcs` (packed reference sentences with guard bits, one bit-parallel
pass per candidate sentence storing the stop masks, rouge-score's path followed one LCS element at a time), in
compiled loops over 64-bit words. Imported only with the other kernels (`zheval.fast.compiled`)."""

from __future__ import annotations

import numpy as np
from numba import njit

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True, inline="always")
def _bit_length(v):
    """``int(v).bit_length()`` of a uint64 (binary search)."""
    n = 0
    half = 32
    while half:
        if v >= (_ONE << np.uint64(half)):
            v >>= np.uint64(half)
            n += half
        half >>= 1
    return n + (1 if v else 0)


@njit(cache=True, inline="always")
def add_with_carry(a, b, carry):
    """``(a + b + carry) mod 2**64`` and its carry out (0 or 1), for the words of a multi-word bit vector."""
    s1 = a + b
    s2 = s1 + carry
    return s2, _ONE if (s1 < b or s2 < s1) else _ZERO


@njit(cache=True, inline="always")
def _span(y, o, a):
    """The bits of positions o .. a - 1 within word y."""
    lo = max(o - 64 * y, 0)
    hi = min(a - 64 * y, 64)
    if hi <= lo:
        return _ZERO
    m = _ALL if hi == 64 else (_ONE << np.uint64(hi)) - _ONE
    return m & ~((_ONE << np.uint64(lo)) - _ONE)


@njit(cache=True)
def _top_below(stops, j, a, o):
    """Highest position < a and >= o whose bit is set in row j of ``stops``, plus one (0 when none)."""
    if a <= o:
        return 0
    x = (a - 1) >> 6
    lo = o >> 6
    b = a - 64 * x  # bits of word x below a: 1..64
    v = stops[j, x]
    if b < 64:
        v &= (_ONE << np.uint64(b)) - _ONE
    while True:
        if v:
            s = 64 * x + _bit_length(v)
            return s if s > o else 0
        x -= 1
        if x < lo:
            return 0
        v = stops[j, x]


@njit(cache=True)
def _block_pass(ids, c0, c1, loc, masks, seg_bits, starts, guards, W, stops, full, V, z):
    """The forward pass of one candidate sentence ``ids[c0:c1]`` against a block: ``stops[j]`` for j = 1..n (row 0
    zero), the last column's increase rows in ``z`` and the contained sentences OR-ed into ``full`` (guard bits).
    Returns whether the last column is non-zero."""
    for x in range(W):
        V[x] = seg_bits[x]
        z[x] = 0
        stops[0, x] = 0
    j = 0
    for i in range(c0, c1):
        j += 1
        r = loc[ids[i]]
        if r >= 0:
            carry = _ZERO
            for x in range(W):
                vx = V[x]
                u = vx & masks[r, x]
                s2, carry = add_with_carry(vx, u, carry)
                vx = (s2 | (vx ^ u)) & seg_bits[x]
                V[x] = vx
                z[x] = seg_bits[x] ^ vx
                stops[j, x] = z[x] | masks[r, x]
        else:
            for x in range(W):
                stops[j, x] = z[x]
    nonzero = False
    carry = _ZERO
    for x in range(W):
        if z[x]:
            nonzero = True
        s2, carry = add_with_carry(z[x], starts[x], carry)
        full[x] |= s2 & guards[x]
    return nonzero


@njit(cache=True)
def union_lcs_hits(ids, sent_offsets, text_sents, hyp, ref, vocab, block_positions, max_stop_words):
    """ROUGE-Lsum union-LCS hits (rouge-score 0.1.2 ``_summary_level_lcs``: the clipped count of the union of
    rouge-score's LCS paths of every (reference sentence, candidate sentence) pair) of every pair (``hyp[p]``,
    ``ref[p]``); -1 for a pair whose stop masks would exceed ``max_stop_words`` words (the caller gives it to the
    reference). Texts are lists of sentences: sentence s is ``ids[sent_offsets[s]:sent_offsets[s + 1]]``, text t
    holds sentences ``text_sents[t] .. text_sents[t + 1] - 1``."""
    P = len(hyp)
    out = np.zeros(P, dtype=np.int64)
    loc = np.full(vocab, -1, dtype=np.int64)
    cnt_u = np.zeros(vocab, dtype=np.int64)
    cnt_c = np.zeros(vocab, dtype=np.int64)
    for p in range(P):
        h, r = hyp[p], ref[p]
        s0, s1 = text_sents[r], text_sents[r + 1]
        c_lo, c_hi = text_sents[h], text_sents[h + 1]
        if sent_offsets[s1] == sent_offsets[s0] or sent_offsets[c_hi] == sent_offsets[c_lo]:
            continue
        longest_c = 0
        for cs in range(c_lo, c_hi):
            longest_c = max(longest_c, sent_offsets[cs + 1] - sent_offsets[cs])
        bad = False
        s = s0
        while s < s1 and not bad:
            # one block: sentences s .. e - 1 (at least one), each followed by a guard position
            width = sent_offsets[s + 1] - sent_offsets[s] + 1
            e = s + 1
            while e < s1 and width + sent_offsets[e + 1] - sent_offsets[e] + 1 <= block_positions:
                width += sent_offsets[e + 1] - sent_offsets[e] + 1
                e += 1
            W = (width + 63) >> 6
            if (longest_c + 1) * W > max_stop_words:
                bad = True
                break
            flat = np.full(width, -1, dtype=np.int64)
            seg_bits = np.zeros(W, dtype=np.uint64)
            starts = np.zeros(W, dtype=np.uint64)
            guards = np.zeros(W, dtype=np.uint64)
            seg_o = np.empty(e - s, dtype=np.int64)
            seg_e = np.empty(e - s, dtype=np.int64)
            nseg = 0
            rows = 0
            pos = 0
            for q in range(s, e):
                a0, a1 = sent_offsets[q], sent_offsets[q + 1]
                if a1 > a0:
                    seg_o[nseg] = pos
                    seg_e[nseg] = pos + a1 - a0
                    nseg += 1
                    starts[pos >> 6] |= _ONE << np.uint64(pos & 63)
                    g = pos + a1 - a0
                    guards[g >> 6] |= _ONE << np.uint64(g & 63)
                for i in range(a0, a1):
                    t = ids[i]
                    if loc[t] < 0:
                        loc[t] = rows
                        rows += 1
                    flat[pos] = t
                    seg_bits[pos >> 6] |= _ONE << np.uint64(pos & 63)
                    pos += 1
                pos += 1
            masks = np.zeros((max(rows, 1), W), dtype=np.uint64)
            for a in range(width):
                if flat[a] >= 0:
                    masks[loc[flat[a]], a >> 6] |= _ONE << np.uint64(a & 63)
            stops = np.empty((longest_c + 1, W), dtype=np.uint64)
            full = np.zeros(W, dtype=np.uint64)
            V = np.empty(W, dtype=np.uint64)
            z = np.empty(W, dtype=np.uint64)
            inunion = np.zeros(width, dtype=np.uint8)
            seg_of = np.full(width, -1, dtype=np.int64)
            for k in range(nseg):
                seg_of[seg_o[k]:seg_e[k]] = k
            for cs in range(c_lo, c_hi):
                c0, c1 = sent_offsets[cs], sent_offsets[cs + 1]
                n = c1 - c0
                if n == 0:
                    continue
                if not _block_pass(ids, c0, c1, loc, masks, seg_bits, starts, guards, W, stops, full, V, z):
                    continue
                # only the sentences with an increase row in the last column have an LCS element (T > 0)
                wx = 0
                while wx < W:
                    if not z[wx]:
                        wx += 1
                        continue
                    low = z[wx] & (~z[wx] + _ONE)  # lowest set bit
                    k = seg_of[64 * wx + _bit_length(low) - 1]
                    o, a = seg_o[k], seg_e[k]
                    for y in range(wx, min(W, ((a - 1) >> 6) + 1)):  # clear the rest of this sentence's bits
                        z[y] &= ~_span(y, o, a)
                    if (full[a >> 6] >> np.uint64(a & 63)) & _ONE:
                        continue  # contained in some candidate sentence: its union is all of it
                    j = n
                    while True:
                        top = _top_below(stops, j, a, o)
                        if top == 0:
                            break
                        a = top - 1
                        inunion[a] = 1
                        x = flat[a]
                        if x == ids[c0 + j - 1]:
                            j -= 1
                        else:  # left along row a to the nearest column holding x, then that diagonal
                            q = j - 2
                            while ids[c0 + q] != x:
                                q -= 1
                            j = q
            for k in range(nseg):
                g = seg_e[k]
                if (full[g >> 6] >> np.uint64(g & 63)) & _ONE:
                    for a in range(seg_o[k], g):
                        inunion[a] = 1
            for a in range(width):
                if inunion[a]:
                    cnt_u[flat[a]] += 1
                if flat[a] >= 0:
                    loc[flat[a]] = -1
            s = e
        if bad:
            out[p] = -1
        else:
            for i in range(sent_offsets[c_lo], sent_offsets[c_hi]):
                cnt_c[ids[i]] += 1
            hits = 0
            for i in range(sent_offsets[s0], sent_offsets[s1]):
                t = ids[i]
                if cnt_u[t] > 0:
                    hits += cnt_u[t] if cnt_u[t] < cnt_c[t] else cnt_c[t]
                    cnt_u[t] = 0
            out[p] = hits
            for i in range(sent_offsets[c_lo], sent_offsets[c_hi]):
                cnt_c[ids[i]] = 0
        for i in range(sent_offsets[s0], sent_offsets[s1]):
            cnt_u[ids[i]] = 0
            loc[ids[i]] = -1
    return out
