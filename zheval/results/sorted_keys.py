"""A growing set of hash keys kept sorted in numpy columns, with payload columns: the memory of the streaming
structures ([`StreamingRepetition`][zheval.results.distinct.StreamingRepetition], the ids of ``zheval score --stream``).

New keys are inserted where they belong (``numpy.insert`` column by column), never by re-sorting the whole table:
the transient memory of an insertion is one column of the table, not a copy of every column plus a sort order.
"""

from __future__ import annotations

from typing import Dict, Tuple

import numpy as np

__all__ = ["SortedKeys", "unique_rows", "widened"]

_WIDTHS = (np.uint8, np.uint16, np.uint32, np.int64)


def widened(col: np.ndarray, largest: int) -> np.ndarray:
    """``col`` (an integer column) as it is when ``largest`` fits its dtype, else converted to the first of uint8,
    uint16, uint32, int64 at least as wide that holds ``largest`` (a counter or a position grows a byte width at a
    time instead of wrapping)."""
    if largest <= np.iinfo(col.dtype).max:
        return col
    for dt in _WIDTHS:
        if np.dtype(dt).itemsize >= col.dtype.itemsize and largest <= np.iinfo(dt).max:
            return col.astype(dt)
    return col.astype(np.int64)


def unique_rows(keys: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct rows of ``keys`` (``(k, words)`` uint64) in sorted order (first word, then the next), with the
    index of each one's first occurrence in ``keys`` and its count: ``(unique (u, words), first (u,), counts (u,))``."""
    order = np.lexsort(tuple(keys[:, j] for j in range(keys.shape[1] - 1, -1, -1)))
    ordered = keys[order]
    new = np.ones(ordered.shape[0], dtype=bool)
    new[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    starts = np.flatnonzero(new)
    first = np.minimum.reduceat(order, starts) if starts.size else np.zeros(0, dtype=np.int64)
    counts = np.diff(np.append(starts, ordered.shape[0]))
    return ordered[starts], first, counts


class SortedKeys:
    """Distinct keys of ``words`` words each (64-bit hashes, or 96/128-bit ones as two words), sorted, each with
    payload columns.

    Args:
        words: 1 or 2. payload: ``{name: dtype}`` of the columns kept beside each key (integers).
        last_word: the dtype of the second word (``np.uint32`` for 96-bit keys: the keys given then hold values
            below 2**32 in their second column).

    Memory: the words' itemsizes a key (8 or 12 or 16 bytes) plus its payload's; a payload column whose values outgrow
    its dtype is widened (`widened`; never wrapped).
    """

    def __init__(self, words: int, payload: Dict[str, type], last_word: type = np.uint64) -> None:
        if words not in (1, 2):
            raise ValueError(f"words must be 1 or 2, got {words!r}")
        self.words = [np.zeros(0, dtype=np.uint64 if j == 0 else last_word) for j in range(words)]
        self.payload = {name: np.zeros(0, dtype=dt) for name, dt in payload.items()}

    def __len__(self) -> int:
        return int(self.words[0].shape[0])

    def locate(self, keys: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """For sorted distinct ``keys`` (``(k, words)`` uint64): ``(positions, found)`` -- where each key is in the
        table, or where it would be inserted."""
        first = self.words[0]
        pos = np.searchsorted(first, keys[:, 0]).astype(np.int64)
        n = first.shape[0]
        if len(self.words) == 2:  # equal first words (probability 2**-64 a pair) sit side by side: step over them
            while True:
                at = np.minimum(pos, max(n - 1, 0))
                step = (pos < n) & (first[at] == keys[:, 0]) & (self.words[1][at] < keys[:, 1]) if n else pos < 0
                if not step.any():
                    break
                pos[step] += 1
        at = np.minimum(pos, max(n - 1, 0))
        found = pos < n
        for j, col in enumerate(self.words):
            found &= (col[at] == keys[:, j]) if n else False
        return pos, found

    def insert(self, positions: np.ndarray, keys: np.ndarray, payload: Dict[str, np.ndarray]) -> None:
        """Insert ``keys`` (new, sorted, distinct) at their ``positions`` from `locate`, with their payload."""
        if not keys.shape[0]:
            return
        for j in range(len(self.words)):
            self.words[j] = np.insert(self.words[j], positions, keys[:, j].astype(self.words[j].dtype))
        for name, values in payload.items():
            col = self.payload[name]
            if values.size:
                col = widened(col, int(values.max()))
            self.payload[name] = np.insert(col, positions, values.astype(col.dtype))
