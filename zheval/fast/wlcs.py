"""Weighted LCS (ROUGE-W, Lin 2004 section 3.3) of many (reference, candidate) pairs at once, with numpy: the same
floats, bit for bit, as `zheval.definitions.lcs.wlcs`.

Why it exists
    The reference fills an m x n table in pure Python (about 0.1 microsecond per cell and per operation); a
    distinct-text corpus of 6,000 dialogue items has tens of millions of cells.

Method
    The cells are those of `zheval.definitions.lcs.wlcs` -- each keeps ``(base, run length)``, its value is
    ``base + f(run length)`` -- and every cell is computed with the same IEEE operations in the same order:
    a match takes the upper-left cell's base and run length + 1; otherwise the value is the larger of the upper and
    the left cell's value (the upper one on a tie: the same float either way), which becomes the base, run length
    0. Pairs are grouped by size (the same band of `BAND` rows and of `BAND` columns, groups
    of at most `GROUP_CELLS` padded cells); within a group the table is filled row by row for all pairs at once, the upper-left and upper values of a
    row as whole-row array operations and the left-to-right dependence as one vector step per column. Padding
    tokens never match, and a cell depends only on cells above and to the left, so each pair's value is read at its
    own (rows, columns) cell.
"""

from __future__ import annotations

import numpy as np

from ..definitions.lcs import wlcs, wlcs_f_table
from .keys import int64_arrays
from .progress import work_bar

__all__ = ["BAND", "GROUP_CELLS", "MIN_GROUP", "REFERENCE_CELL_SECONDS", "ARRAY_CELL_SECONDS", "wlcs_pairs"]

#: Padded cells (pairs x rows x columns) of one group.
GROUP_CELLS = 1 << 24
#: Width of the row and column bands that group pairs of similar size (padding stays below a band per side).
BAND = 48
#: Groups of fewer pairs are computed by the reference, pair by pair (an array step costs about as much as 20
#: Python cells).
MIN_GROUP = 24


def wlcs_pairs(tokens: np.ndarray, offsets: np.ndarray, ref: np.ndarray, can: np.ndarray,
               weight: float) -> np.ndarray:
    """``(P,)`` float64: ``wlcs(text ref[p], text can[p], weight)`` for every pair p.

    Args:
        tokens: int64 token ids (>= 0) of all texts, concatenated; offsets: ``(n_texts + 1,)`` start offsets.
        ref, can: ``(P,)`` text indices (the reference is the table's rows, as in ``wlcs(ref, can)``).
        weight: w > 0 in f(k) = k**w.
    Returns:
        The WLCS values (0.0 where either text is empty).
    """
    tokens, offsets, ref, can = int64_arrays(tokens, offsets, ref, can)
    P = len(ref)
    out = np.zeros(P, dtype=np.float64)
    m_all = offsets[ref + 1] - offsets[ref]
    n_all = offsets[can + 1] - offsets[can]
    live = np.flatnonzero((m_all > 0) & (n_all > 0))
    if not len(live):
        return out
    longest = int(np.minimum(m_all[live], n_all[live]).max())
    # f(k) with Python's float power, as the reference builds its table
    fw = np.array(wlcs_f_table(longest, weight), dtype=np.float64)
    # groups: pairs in the same band of rows and of columns (BAND wide), split to at most GROUP_CELLS padded cells
    band = ((m_all[live] + BAND - 1) // BAND) * (int(n_all.max()) // BAND + 2) + (n_all[live] + BAND - 1) // BAND
    order = live[np.argsort(band, kind="stable")]
    band = np.sort(band, kind="stable")
    edges = np.flatnonzero(np.diff(band)) + 1
    plan = []  # (pairs, by the reference pair by pair?)
    for part in np.split(order, edges):
        step = max(1, GROUP_CELLS // (int(m_all[part].max()) * int(n_all[part].max())))
        plan += [(part[lo:lo + step], len(part[lo:lo + step]) < MIN_GROUP) for lo in range(0, len(part), step)]
    seconds = sum(int((m_all[idx] * n_all[idx]).sum()) * (REFERENCE_CELL_SECONDS if by_ref else ARRAY_CELL_SECONDS)
                  for idx, by_ref in plan)
    cells = int((m_all[live] * n_all[live]).sum())
    bar = work_bar(cells, seconds / cells, "rougeW weighted LCS")
    try:
        for idx, by_ref in plan:
            if by_ref:  # too few pairs to pay for one array step per cell: the reference itself
                for p in idx.tolist():
                    r, c = int(ref[p]), int(can[p])
                    out[p] = wlcs(tokens[offsets[r]:offsets[r + 1]].tolist(), tokens[offsets[c]:offsets[c + 1]].tolist(),
                                  weight, row_done=bar.update)
                continue
            out[idx] = _group(tokens, offsets, ref[idx], can[idx], m_all[idx], n_all[idx], int(m_all[idx].max()),
                              int(n_all[idx].max()), fw)
            bar.update(int((m_all[idx] * n_all[idx]).sum()))
    finally:
        bar.close()
    return out


#: CPU seconds of one cell of `zheval.definitions.lcs.wlcs` (pure Python) and of one cell filled by
#: `_group` (numpy): for the progress bar's estimate only.
REFERENCE_CELL_SECONDS = 2e-7
ARRAY_CELL_SECONDS = 2e-8


def _padded(tokens, offsets, texts, lengths, width, pad):
    """``(width, G)`` int64: column g holds text ``texts[g]``'s tokens, then ``pad``."""
    G = len(texts)
    grid = np.full((G, width), pad, dtype=np.int64)
    rows = np.repeat(np.arange(G, dtype=np.int64), lengths)
    starts = offsets[texts]
    pos = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    grid[rows, pos] = tokens[np.repeat(starts, lengths) + pos]
    return np.ascontiguousarray(grid.T)


def _group(tokens, offsets, ref, can, m_p, n_p, m, n, fw):
    G = len(ref)
    R = _padded(tokens, offsets, ref, m_p, m, -1)  # (m, G)
    C = _padded(tokens, offsets, can, n_p, n, -2)  # (n, G)
    prev_b = np.zeros((n + 1, G), dtype=np.float64)
    prev_l = np.zeros((n + 1, G), dtype=np.int64)
    out = np.zeros(G, dtype=np.float64)
    cols = np.arange(G)
    done_at = m_p - 1  # the row after which each pair's value is read
    for i in range(m):
        eq = C == R[i]  # (n, G): cell (i + 1, j + 1) is a match
        match_b = prev_b[:-1]  # upper-left base and run length + 1
        match_l = prev_l[:-1] + 1
        match_v = match_b + fw[match_l]
        up_v = prev_b[1:] + fw[prev_l[1:]]
        cur_v = np.empty((n + 1, G), dtype=np.float64)
        cur_v[0] = 0.0
        for j in range(n):
            # no match: the larger of up and left (ties: up, the same float); a match: upper-left + f(k + 1)
            row = cur_v[j + 1]
            np.maximum(up_v[j], cur_v[j], out=row)
            np.copyto(row, match_v[j], where=eq[j])
        cur_v = cur_v[1:]
        cur_b = np.zeros((n + 1, G), dtype=np.float64)
        cur_l = np.zeros((n + 1, G), dtype=np.int64)
        cur_b[1:] = np.where(eq, match_b, cur_v)
        cur_l[1:] = np.where(eq, match_l, 0)
        prev_b, prev_l = cur_b, cur_l
        ready = np.flatnonzero(done_at == i)
        if len(ready):
            c = n_p[ready]
            out[ready] = prev_b[c, cols[ready]] + fw[prev_l[c, cols[ready]]]
    return out
