"""LCS lengths of many (prediction, reference) pairs at once, with numpy: the corpus-at-once twin of
`zheval.definitions.lcs.lcs_length` (the same bit-parallel recurrence, vectorised across pairs)."""

from __future__ import annotations

from ..definitions.lcs import lcs_length_masks, match_masks
from .keys import lcs_from_rows, lcs_step, lookup, runs, sort_with_index, step_schedule, unique_inverse

__all__ = ["lcs_length_pairs"]


def lcs_length_pairs(tokens, offsets, col, row, max_words: int = 4):
    """LCS lengths of many pairs of integer-id texts at once: the bit-parallel recurrence of the module docstring,
    vectorised across pairs with numpy (one ``uint64`` row of ``ceil(n / 64)`` words per pair).

    Same recurrence, same result as `lcs_length_masks` pair by pair (``V - U == V & ~U`` because
    ``U = V & mask`` is a subset of V; the addition propagates carries between 64-bit words; bits above n only
    receive carries and are masked off when the length is read). Pairs are ordered by row length, so step i of the
    recurrence updates a prefix of the pairs. Columns longer than ``64 * max_words`` tokens use
    `lcs_length_masks` (Python ints), where the per-step numpy overhead would no longer pay.

    Args:
        tokens, offsets: all texts' int token ids (``>= 0``) concatenated, and ``(n_texts + 1,)`` start offsets
            (`zheval.fast.ngrams.flatten_texts`).
        col, row: ``(P,)`` int arrays: pair p is (column text ``col[p]``, row text ``row[p]``).
        max_words: widest column (in 64-bit words) handled with numpy.
    Returns:
        ``(P,)`` int64 LCS lengths.
    """
    import numpy as np

    col = np.asarray(col, dtype=np.int64)
    row = np.asarray(row, dtype=np.int64)
    out = np.zeros(len(col), dtype=np.int64)
    if len(col) == 0:
        return out
    lengths = np.diff(offsets)
    ncol, nrow = lengths[col], lengths[row]
    words = (ncol + 63) // 64
    live = (ncol > 0) & (nrow > 0)
    for p in np.flatnonzero(live & (words > max_words)).tolist():
        c = tokens[offsets[col[p]]:offsets[col[p] + 1]].tolist()
        out[p] = lcs_length_masks(match_masks(c), len(c), tokens[offsets[row[p]]:offsets[row[p] + 1]].tolist())
    for w in range(1, max_words + 1):
        sel = np.flatnonzero(live & (words == w))
        if len(sel):
            out[sel] = _lcs_words(tokens, offsets, col[sel], row[sel], w)
    return out


def _ragged(offsets, which):
    """Concatenated index ranges ``offsets[k]:offsets[k + 1]`` for k in ``which``, and each entry's position."""
    import numpy as np

    starts = offsets[which]
    lens = offsets[which + 1] - starts
    ends = np.cumsum(lens)
    pos = np.arange(int(ends[-1]) if len(ends) else 0, dtype=np.int64) - np.repeat(ends - lens, lens)
    return np.repeat(starts, lens) + pos, pos, lens


_DENSE_LOOKUP_MAX = 1 << 24  # entries (64 MiB of int32) of the optional direct lookup table


def _lcs_words(tokens, offsets, col, row, w: int):
    """`lcs_length_pairs` for pairs whose column fits in ``w`` 64-bit words (all lengths > 0)."""
    import numpy as np

    lengths = np.diff(offsets)
    vocab = int(tokens.max()) + 1
    # Match masks of the distinct column texts: one (w,) uint64 row per (column text, token) present in it.
    ucol, col_rank = unique_inverse(col)
    idx, pos, clen = _ragged(offsets, ucol)
    keys = np.repeat(np.arange(len(ucol), dtype=np.int64), clen) * vocab + tokens[idx]
    table = runs(np.sort(keys))[0]
    masks = np.zeros((len(table) + 1, w), dtype=np.uint64)  # last row: no match
    np.bitwise_or.at(masks, (np.searchsorted(table, keys), pos // 64),
                     np.left_shift(np.uint64(1), (pos % 64).astype(np.uint64)))
    # Pairs by decreasing row length: at step i the pairs with a row token i are a prefix.
    rl = lengths[row]
    order = sort_with_index(int(rl.max()) - rl)[1]
    col_rank, row = col_rank[order], row[order]
    rlen = lengths[row]
    steps, active, step_off = step_schedule(rlen)  # active[i]: the pairs with rlen > i
    ridx, i_of, _ = _ragged(offsets, row)
    k_of = np.repeat(np.arange(len(row), dtype=np.int64), rlen)
    query = np.empty(len(ridx), dtype=np.int64)
    query[step_off[i_of] + k_of] = col_rank[k_of] * vocab + tokens[ridx]
    if len(ucol) * vocab <= _DENSE_LOOKUP_MAX:  # direct lookup table over (column text, token)
        lut = np.full(len(ucol) * vocab, len(table), dtype=np.int32)
        lut[table] = np.arange(len(table), dtype=np.int32)
        mask_row = lut[query]
    else:
        mask_row = lookup(table, query, len(table))
    v = np.full((len(row), w), np.iinfo(np.uint64).max, dtype=np.uint64)
    for i in range(steps):
        vv = v[:int(active[i])]
        lcs_step(vv, vv & masks[mask_row[step_off[i]:step_off[i + 1]]])
    res = np.empty(len(row), dtype=np.int64)
    res[order] = lcs_from_rows(v, lengths[col[order]])
    return res
