"""ROUGE-Lsum union-LCS hits of many (prediction, reference) pairs at once, with numpy: the corpus-at-once twin of
`zheval.definitions.rouge.summary_level_lcs_hits` (the same LCS paths as rouge-score 0.1.2 ``_union_lcs``).

Method -- the algorithm of `zheval.definitions.union_lcs`, vectorised across pairs
    * *Packed reference.* Each reference's sentences are laid out one after another with a guard position after
      each (the layout of `zheval.definitions.union_lcs.PackedReference`), as ``w`` 64-bit words.
    * *Forward pass.* For every pair at once, one step per prediction token: ``U = V & M``, ``V = ((V + U) | (V -
      U)) & segments`` (the guard bits cleared, so every reference sentence evolves on its own), with V reset to
      the segment bits at the start of each prediction sentence. The step stores the stop mask ``(segments ^ V) |
      M``: the rows where that DP column increases or holds the token. Pairs are ordered by prediction length, so
      step k updates a prefix of them; carries between words are propagated until none is left.
    * *Backtrack.* rouge-score's path of every (pair, prediction sentence, reference sentence) at once, one LCS
      element per round: from column j and the row bound a, the highest stop row below a in column j (within the
      sentence: else the path is over) is recorded; if its reference token equals the prediction token of column
      j the path goes diagonally, else it goes left along that row to the nearest earlier column of the same
      sentence holding that token (a sorted search) and takes that diagonal.
    * *Clipping.* The union of the recorded positions of a reference sentence over all prediction sentences, and
      hits = sum over tokens t of min(#union positions holding t, count of t in the prediction) (the definition's
      formula).

It serves pairs whose packed reference fits in `MAX_WORDS` words (``zheval.fast.usable_for("union_lcs")``;
the caller gives wider ones to the reference); memory is bounded by processing pairs in chunks of at most
`STOP_BYTES` of stop masks.
"""

from __future__ import annotations

import numpy as np

from .keys import int64_arrays, lookup, runs, sort_with_index, step_schedule, unique_inverse

__all__ = ["MAX_WORDS", "STOP_BYTES", "packed_words", "union_lcs_hits_pairs"]

#: Widest packed reference (in 64-bit words) scored here.
MAX_WORDS = 64
#: Bytes of stop masks held at once (pairs are processed in chunks that stay below it).
STOP_BYTES = 1 << 26

_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


def _bit_length(x: np.ndarray) -> np.ndarray:
    """``int(v).bit_length()`` of every uint64 ``v`` (0 for 0), exactly (two 32-bit halves through float64)."""
    hi = (x >> np.uint64(32)).astype(np.float64)
    lo = (x & np.uint64(0xFFFFFFFF)).astype(np.float64)
    return np.where(hi > 0, np.frexp(hi)[1] + 32, np.frexp(lo)[1]).astype(np.int64)


def _or_bits(rows: np.ndarray, n_rows: int, w: int, pos: np.ndarray) -> np.ndarray:
    """``(n_rows, w)`` uint64 with bit ``pos % 64`` of word ``pos // 64`` set in row ``rows`` for every entry (the
    (row, position) entries are distinct, so the OR is a sum: two exact float64 bincounts of 32-bit halves)."""
    cell = rows * w + pos // 64
    bit = pos % 64
    lo = np.where(bit < 32, np.left_shift(1, np.minimum(bit, 31)), 0).astype(np.float64)
    hi = np.where(bit >= 32, np.left_shift(1, np.maximum(bit - 32, 0)), 0).astype(np.float64)
    size = n_rows * w
    out = np.bincount(cell, weights=lo, minlength=size).astype(np.uint64)
    out |= np.bincount(cell, weights=hi, minlength=size).astype(np.uint64) << np.uint64(32)
    return out.reshape(n_rows, w)


def _ragged(starts: np.ndarray, lens: np.ndarray):
    """Concatenated ranges ``starts[k] : starts[k] + lens[k]`` and the owner k of each entry."""
    total = int(lens.sum())
    owner = np.repeat(np.arange(len(lens), dtype=np.int64), lens)
    if not total:
        return np.zeros(0, dtype=np.int64), owner
    ends = np.cumsum(lens)
    return np.arange(total, dtype=np.int64) - np.repeat(ends - lens, lens) + np.repeat(starts, lens), owner


def packed_words(sent_offsets, text_sents) -> np.ndarray:
    """``(n_texts,)`` int64: 64-bit words of each text's packed layout (its tokens and one guard per sentence)."""
    so = np.asarray(sent_offsets, dtype=np.int64)
    ts = np.asarray(text_sents, dtype=np.int64)
    return (np.diff(so[ts]) + np.diff(ts) + 63) // 64


def union_lcs_hits_pairs(ids, sent_offsets, text_sents, hyp, ref) -> np.ndarray:
    """ROUGE-Lsum hits of every pair: ``summary_level_lcs_hits(ref sentences, hyp sentences)``.

    Args:
        ids: ``(n_tokens,)`` int64 token ids (>= 0) of all texts; sent_offsets: ``(n_sentences + 1,)`` sentence
            token offsets; text_sents: ``(n_texts + 1,)`` sentence offsets of each text
            (`zheval.tokenizers.corpus.TokenizedCorpus` arrays).
        hyp, ref: ``(P,)`` int64 text indices of the pairs (prediction = candidate, reference); every reference's
            `packed_words` at most `MAX_WORDS`.
    Returns:
        ``(P,)`` int64 hits, each in ``[0, min(reference tokens, prediction tokens)]``.
    Raises:
        ValueError: a reference wider than `MAX_WORDS` words.
    """
    ids, so, ts, hyp, ref = int64_arrays(ids, sent_offsets, text_sents, hyp, ref)
    P = len(hyp)
    out = np.zeros(P, dtype=np.int64)
    if P == 0:
        return out
    text_off = so[ts]
    n_tok = np.diff(text_off)
    n_sent = np.diff(ts)
    width = n_tok + n_sent  # packed positions (guards included)
    words = (width + 63) // 64
    if (words[ref] > MAX_WORDS).any():
        raise ValueError(f"union_lcs_hits_pairs: a reference wider than {MAX_WORDS} words")
    todo = np.flatnonzero((n_tok[hyp] > 0) & (n_tok[ref] > 0))
    if not len(todo):
        return out
    vocab = int(ids.max()) + 1 if len(ids) else 1
    for w in np.unique(words[ref[todo]]).tolist():
        sel = todo[words[ref[todo]] == w]
        # chunks: stop masks of a chunk = (prediction tokens) * w * 8 bytes
        cost = n_tok[hyp[sel]] * (w * 8)
        cum = np.cumsum(cost)
        lo = 0
        while lo < len(sel):
            hi = int(np.searchsorted(cum, (cum[lo - 1] if lo else 0) + STOP_BYTES, side="right"))
            hi = max(hi, lo + 1)
            part = sel[lo:hi]
            out[part] = _hits(ids, so, ts, text_off, hyp[part], ref[part], w, vocab)
            lo = hi
    return out


def _hits(ids, so, ts, text_off, hyp, ref, w: int, vocab: int) -> np.ndarray:
    """Union-LCS hits of pairs whose packed references fit in ``w`` words."""
    n_pairs = len(hyp)
    # ---- packed references: position of every reference token, the segment bits and each sentence's [o, e)
    uref, ref_rank = unique_inverse(ref)
    r_sent_lo, r_sent_hi = ts[uref], ts[uref + 1]
    r_nsent = r_sent_hi - r_sent_lo
    sent_idx, sent_owner = _ragged(r_sent_lo, r_nsent)  # every sentence of every distinct reference
    sent_len = so[sent_idx + 1] - so[sent_idx]
    # packed start of each sentence within its reference: previous sentences' lengths + one guard each
    first_of_owner = np.zeros(len(uref) + 1, dtype=np.int64)
    np.cumsum(r_nsent, out=first_of_owner[1:])
    cum_len = np.zeros(len(sent_idx) + 1, dtype=np.int64)
    np.cumsum(sent_len + 1, out=cum_len[1:])
    sent_o = cum_len[:-1] - cum_len[first_of_owner[sent_owner]]
    # reference tokens: their packed positions
    tok_idx, tok_sent = _ragged(so[sent_idx], sent_len)
    tok_pos = sent_o[tok_sent] + (tok_idx - so[sent_idx][tok_sent])
    tok_owner = sent_owner[tok_sent]
    tok_id = ids[tok_idx]
    seg = _or_bits(tok_owner, len(uref), w, tok_pos)
    # packed token of every position (-1 at guards), per distinct reference: flat[ref_base + pos]
    ref_base = np.zeros(len(uref) + 1, dtype=np.int64)
    np.cumsum(r_nsent + (np.diff(text_off)[uref]), out=ref_base[1:])
    packed_tok = np.full(int(ref_base[-1]), -1, dtype=np.int64)
    packed_tok[ref_base[tok_owner] + tok_pos] = tok_id
    # match masks: one row per (distinct reference, token) present
    keys = tok_owner * vocab + tok_id
    table, key_row = unique_inverse(keys)
    masks = _or_bits(key_row, len(table) + 1, w, tok_pos)  # last row: no match
    # ---- forward pass, pairs by decreasing prediction length
    h_len = np.diff(text_off)[hyp]
    order = np.argsort(-h_len, kind="stable")
    hyp_o, ref_rank_o = hyp[order], ref_rank[order]
    hlen = h_len[order]
    steps, active, step_off = step_schedule(hlen)  # active[k]: the pairs with hlen > k
    h_idx, h_owner = _ragged(text_off[hyp_o], hlen)  # prediction token positions, pair by pair
    k_of = h_idx - np.repeat(text_off[hyp_o], hlen)
    slot = step_off[k_of] + h_owner  # row of (pair, step) in the step-major arrays
    mask_row = np.empty(len(slot), dtype=np.int64)
    mask_row[slot] = lookup(table, ref_rank_o[h_owner] * vocab + ids[h_idx], len(table))
    # prediction sentence starts: V is reset there
    reset = np.zeros(int(step_off[-1]), dtype=bool)
    hs_lo, hs_hi = ts[hyp_o], ts[hyp_o + 1]
    s_idx, s_owner = _ragged(hs_lo, hs_hi - hs_lo)
    s_start_local = so[s_idx] - text_off[hyp_o][s_owner]
    nonempty = so[s_idx + 1] > so[s_idx]
    reset[step_off[s_start_local[nonempty]] + s_owner[nonempty]] = True
    segs = seg[ref_rank_o]  # (pairs, w)
    v = segs.copy()
    stops = np.empty((int(step_off[-1]), w), dtype=np.uint64)
    for k in range(steps):
        a = int(active[k])
        lo, hi = int(step_off[k]), int(step_off[k + 1])
        vv = v[:a]
        sg = segs[:a]
        r = reset[lo:hi]
        if r.any():
            vv[r] = sg[r]
        m = masks[mask_row[lo:hi]]
        u = vv & m
        t = vv + u
        if w > 1:
            carry = t < u
            while carry[:, :-1].any():
                cin = np.zeros_like(t)
                cin[:, 1:] = carry[:, :-1]
                t += cin
                carry = t < cin
        vv[...] = (t | (vv ^ u)) & sg
        stops[lo:hi] = (sg ^ vv) | m
    # ---- backtrack: every (pair, prediction sentence, reference sentence)
    pair_sent_owner = s_owner[nonempty]
    ps_lo = so[s_idx[nonempty]] - text_off[hyp_o][pair_sent_owner]  # local start of each prediction sentence
    ps_hi = so[s_idx[nonempty] + 1] - text_off[hyp_o][pair_sent_owner]
    rs_first = first_of_owner[ref_rank_o]  # first sentence (row of sent_o/sent_len) of each pair's reference
    rs_count = r_nsent[ref_rank_o]
    # triples: for each prediction sentence of a pair, each non-empty sentence of its reference
    n_ps = len(pair_sent_owner)
    tri_ps = np.repeat(np.arange(n_ps, dtype=np.int64), rs_count[pair_sent_owner])
    tri_rs, _ = _ragged(rs_first[pair_sent_owner], rs_count[pair_sent_owner])
    keep = sent_len[tri_rs] > 0
    tri_ps, tri_rs = tri_ps[keep], tri_rs[keep]
    tri_pair = pair_sent_owner[tri_ps]
    o = sent_o[tri_rs]  # sentence [o, a) with a starting at its guard
    a = o + sent_len[tri_rs]
    lo_col = ps_lo[tri_ps]
    col = ps_hi[tri_ps]  # column j as a local prediction position: j = col - lo_col
    # nearest earlier occurrence of a token in the prediction: sorted (token, global position)
    hyp_tok = ids
    n_all = len(ids) + 1
    occ = np.sort(ids[h_idx] * n_all + h_idx)  # h_idx: every prediction token of these pairs (distinct keys)
    rec_pair, rec_pos = [], []
    idx = np.arange(len(tri_pair), dtype=np.int64)
    rbase = ref_base[ref_rank_o]
    hbase = text_off[hyp_o]
    while len(idx):
        p_ = tri_pair[idx]
        j = col[idx]
        done = j <= lo_col[idx]
        aa = a[idx]
        oo = o[idx]
        # highest stop row in [o, a) of column j (stops row of step j - 1 of the pair)
        rows = step_off[np.maximum(j - 1, 0)] + p_
        found = np.full(len(idx), -1, dtype=np.int64)
        kw = (aa - 1) // 64
        bits = aa - 64 * kw  # 1..64 bits of word kw below a
        low = np.where(bits >= 64, _ALL, (_ONE << np.minimum(bits, 63).astype(np.uint64)) - _ONE)
        pend = np.flatnonzero(~done & (aa > oo))
        if len(pend):
            word = stops[rows[pend], kw[pend]] & low[pend]
            kk = kw[pend]
            while len(pend):
                bl = _bit_length(word)
                got = bl > 0
                if got.any():
                    found[pend[got]] = 64 * kk[got] + bl[got] - 1
                more = ~got & (64 * kk > oo[pend])
                pend, kk = pend[more], kk[more] - 1
                if len(pend):
                    word = stops[rows[pend], kk]
        alive = found >= oo
        idx, p_, j, found = idx[alive], p_[alive], j[alive], found[alive]
        if not len(idx):
            break
        rec_pair.append(p_)
        rec_pos.append(found)
        a[idx] = found
        x = packed_tok[rbase[p_] + found]
        g = hbase[p_] + j - 1  # global position of the column's prediction token
        diag = hyp_tok[g] == x
        newj = j - 1
        left = np.flatnonzero(~diag)
        if len(left):
            # the nearest earlier column of this sentence holding x: largest occurrence < g
            sq, back = sort_with_index(x[left] * n_all + g[left])
            pos = np.searchsorted(occ, sq, side="left") - 1
            newj[left[back]] = occ[pos] - (sq - g[left[back]]) - hbase[p_[left[back]]]
        col[idx] = newj
    hits = np.zeros(n_pairs, dtype=np.int64)
    if rec_pair:
        rp = np.concatenate(rec_pair)
        rpos = np.concatenate(rec_pos)
        wbits = 64 * w
        mark = np.zeros(n_pairs * wbits, dtype=bool)  # the union: distinct (pair, reference position)
        mark[rp * wbits + rpos] = True
        cells = np.flatnonzero(mark)
        up, upos = cells // wbits, cells % wbits
        utok = packed_tok[rbase[up] + upos]
        # per (pair, token): #union positions, and the token's count in the prediction
        pk, pc = runs(np.sort(up * vocab + utok))
        hk, hc = runs(np.sort(h_owner * vocab + ids[h_idx]))
        at = np.searchsorted(hk, pk)
        hits_o = np.bincount(pk // vocab, weights=np.minimum(pc, hc[at]), minlength=n_pairs).astype(np.int64)
        hits[order] = hits_o
    return hits
