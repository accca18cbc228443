"""LCS lengths of every pair of a `zheval.fast.slots.SlotLayout` from the unigram groups' match masks.

The bit-parallel recurrence of `zheval.definitions.lcs` (Crochemore et al. 2001; the prediction is the bit
column), vectorised across pairs: pairs are grouped by the number of 64-bit words of their prediction and sorted by
decreasing reference length, so step s of the recurrence updates a prefix of them; the match mask of reference
position s of every pair is laid out step-major (rows of a zero array; a reference token absent from the prediction
keeps the zero row). Predictions longer than ``64 * max_words`` tokens use
`zheval.definitions.lcs.lcs_length_masks` (Python ints) pair by pair.
"""

from __future__ import annotations

import numpy as np

from ..definitions.lcs import lcs_length_masks, match_masks
from .keys import lcs_from_rows, lcs_step, step_schedule
from .slots import SlotLayout, pair_ngram_hits_sorted

__all__ = ["slot_lcs_lengths", "MAX_WORDS"]

#: Widest prediction (in 64-bit words) whose pairs run the numpy recurrence.
MAX_WORDS = 4

_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


def slot_lcs_lengths(lay: SlotLayout, masks=None, max_words: int = MAX_WORDS) -> "np.ndarray | None":
    """LCS length of every (item prediction, reference) pair of ``lay``: the corpus-at-once twin of
    `zheval.definitions.lcs.lcs_length` (same recurrence, exact integers).

    Args:
        lay: the layout (`zheval.fast.slots.SlotLayout`).
        masks: the match masks of `zheval.fast.slots.pair_ngram_hits_sorted` (order 1, ``masks_words =
            min(max_words, widest prediction in words)``); computed here when None.
        max_words: widest prediction (64-bit words) handled with numpy.
    Returns:
        ``(P,)`` int64 LCS lengths, or None when the unigram keys cannot fit (then the caller takes
        `zheval.fast.lcs.lcs_length_pairs`).
    """
    P = lay.n_pairs
    out = np.zeros(P, dtype=np.int64)
    if P == 0:
        return out
    nh = lay.hyp_len[lay.pair_item]
    nr = lay.ref_len
    wpair = (nh + 63) // 64
    words = mask_words(lay, max_words)
    if masks is None and words:
        res = pair_ngram_hits_sorted(lay, 1, masks_words=words)
        if res is None:
            return None
        masks = res[1]
    for p in np.flatnonzero((wpair > max_words) & (nr > 0)).tolist():
        i = int(lay.pair_item[p])
        h0 = int(lay.slot_start[lay.first_slot[i]])
        r0 = int(lay.slot_start[lay.ref_slot[p]])
        col = lay.tok[h0:h0 + int(nh[p])].tolist()
        out[p] = lcs_length_masks(match_masks(col), len(col), lay.tok[r0:r0 + int(nr[p])].tolist())
    if not words:
        return out
    e_pair, e_pos, gmask, e_group = masks
    for w in range(1, words + 1):
        sel = np.flatnonzero((wpair == w) & (nr > 0))
        if len(sel):
            out[sel] = _recurrence(sel, nr, nh, e_pair, e_pos, gmask, e_group, w)
    return out


def mask_words(lay: SlotLayout, max_words: int = MAX_WORDS) -> int:
    """Words of the match masks `slot_lcs_lengths` needs: the widest prediction of at most ``max_words``
    words that has a non-empty reference (0: none)."""
    if not lay.n_pairs:
        return 0
    nh = lay.hyp_len[lay.pair_item]
    w = (nh + 63) // 64
    live = (w <= max_words) & (lay.ref_len > 0)
    return int(w[live].max()) if live.any() else 0


def _recurrence(sel, nr, nh, e_pair, e_pos, gmask, e_group, w: int) -> np.ndarray:
    P = len(nr)
    order = sel[np.argsort(-nr[sel], kind="stable")]
    rank = np.full(P, -1, dtype=np.int64)
    rank[order] = np.arange(len(order), dtype=np.int64)
    steps, active, step_off = step_schedule(nr[order])
    rk = rank[e_pair]
    mine = np.flatnonzero(rk >= 0)
    M = np.zeros((int(step_off[-1]), w), dtype=np.uint64)
    M[step_off[e_pos[mine]] + rk[mine]] = gmask[e_group[mine], :w]
    V = np.full((len(order), w), _ALL, dtype=np.uint64)
    if w == 1:
        v = V[:, 0]
        m1 = M[:, 0]
        for s in range(steps):
            a = int(active[s])
            vv = v[:a]
            u = vv & m1[step_off[s]:step_off[s] + a]
            r = vv ^ u  # V & ~U (U is a subset of V)
            vv += u
            vv |= r
    else:
        for s in range(steps):
            a = int(active[s])
            vv = V[:a]
            lcs_step(vv, vv & M[step_off[s]:step_off[s] + a])
    res = lcs_from_rows(V, nh[order])
    out = np.empty(len(sel), dtype=np.int64)
    # results in the order of ``sel``
    pos_in_sel = np.empty(P, dtype=np.int64)
    pos_in_sel[sel] = np.arange(len(sel), dtype=np.int64)
    out[pos_in_sel[order]] = res
    return out
