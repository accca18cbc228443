"""Sorted-key helpers of the fast twins: ``np.unique``, argsort and lookups by one ``np.sort`` of int64 keys.

numpy sorts int64 keys several times faster than it argsorts them, and ``np.searchsorted`` runs far faster with
sorted needles than with random ones; these helpers pack an index into the low bits of a key so one ``np.sort``
gives both. Pure functions of their arguments (exact: integer keys only).
"""

from __future__ import annotations

import numpy as np

__all__ = ["runs", "sort_with_index", "unique_inverse", "lookup", "step_schedule", "int64_arrays", "popcount64",
           "lcs_step", "lcs_from_rows"]


def runs(sorted_keys: np.ndarray):
    """Distinct values of a sorted array and the length of each run."""
    if not len(sorted_keys):
        return sorted_keys, np.zeros(0, dtype=np.int64)
    first = np.empty(len(sorted_keys), dtype=bool)
    first[0] = True
    np.not_equal(sorted_keys[1:], sorted_keys[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    return sorted_keys[starts], np.diff(np.append(starts, len(sorted_keys)))


def sort_with_index(keys: np.ndarray):
    """``(sorted keys, the original index of each)`` for non-negative int64 keys, by one ``np.sort`` of the keys
    packed with their index (an argsort is several times slower); ``np.argsort`` when the packing does not fit."""
    n = len(keys)
    bits = max(1, (n - 1).bit_length())
    if n and int(keys.max()) >= 1 << (62 - bits):
        order = np.argsort(keys, kind="stable")
        return keys[order], order
    packed = np.sort((keys << bits) | np.arange(n, dtype=np.int64))
    return packed >> bits, packed & ((1 << bits) - 1)


def unique_inverse(keys: np.ndarray):
    """``np.unique(keys, return_inverse=True)`` (sorted unique values, and each key's rank among them)."""
    sk, idx = sort_with_index(keys)
    uniq, lens = runs(sk)
    inv = np.empty(len(keys), dtype=np.int64)
    inv[idx] = np.repeat(np.arange(len(uniq), dtype=np.int64), lens)
    return uniq, inv


def lookup(table: np.ndarray, q: np.ndarray, missing: int) -> np.ndarray:
    """Index of each ``q`` in the sorted unique ``table`` (``missing`` where absent), searched with sorted needles."""
    out = np.full(len(q), missing, dtype=np.int64)
    if not len(q) or not len(table):
        return out
    sq, idx = sort_with_index(q)
    hit = np.searchsorted(table, sq)
    np.minimum(hit, len(table) - 1, out=hit)
    ok = table[hit] == sq
    out[idx[ok]] = hit[ok]
    return out


def step_schedule(lengths_desc: np.ndarray):
    """The step-major layout of a DP run over pairs sorted by decreasing length: ``(steps, active, step_off)`` where
    ``steps`` is the longest length, ``active[k]`` the number of pairs longer than ``k`` (a prefix of the pairs)
    and ``step_off[k]`` the first row of step ``k`` (``step_off[steps]`` = the total)."""
    steps = int(lengths_desc[0])
    active = np.searchsorted(-lengths_desc, -np.arange(steps, dtype=np.int64), side="left")
    step_off = np.zeros(steps + 1, dtype=np.int64)
    np.cumsum(active, out=step_off[1:])
    return steps, active, step_off


def int64_arrays(*arrays):
    """Each argument as an int64 numpy array (a list comes in from the compute layer, an array passes through)."""
    return [np.asarray(a, dtype=np.int64) for a in arrays]


#: set bits of each byte value, for `popcount64` on numpy < 2 (which has no ``np.bitwise_count``)
_BYTE_POPCOUNT = np.array([bin(b).count("1") for b in range(256)], dtype=np.uint8)


def popcount64(words: np.ndarray) -> np.ndarray:
    """Number of set bits of each element of a uint64 array (same shape, small unsigned ints).

    ``np.bitwise_count`` where numpy has it (numpy >= 2.0); on numpy 1.24-1.26 the same counts from a 256-entry
    byte table over the array's bytes. Both are exact integer counts, so the result never depends on the numpy
    version (pyproject declares ``numpy>=1.24``; the lowest-versions CI job runs this branch).
    """
    words = np.ascontiguousarray(words, dtype=np.uint64)
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(words)
    return _BYTE_POPCOUNT[words.view(np.uint8)].reshape(words.shape + (8,)).sum(axis=-1, dtype=np.uint8)


def lcs_step(vv: np.ndarray, u: np.ndarray) -> None:
    """One step of the bit-parallel LCS (Hyyro 2004; `zheval.definitions.lcs.lcs_length_masks`) on many pairs at
    once, in place: ``V = (V + U) | (V & ~U)`` with ``U = V & M`` (a subset of V) already taken. ``vv``, ``u``:
    ``(pairs, w)`` uint64, each row a w-word bit vector, lowest word first (the sum carries across the words)."""
    rest = vv ^ u  # V & ~U
    if vv.shape[1] == 1:
        vv += u
    else:
        carry = np.zeros(len(vv), dtype=np.uint64)
        for k in range(vv.shape[1]):
            t = vv[:, k] + u[:, k]
            c1 = t < u[:, k]
            s = t + carry
            carry = (c1 | (s < t)).astype(np.uint64)
            vv[:, k] = s
    vv |= rest


def lcs_from_rows(v: np.ndarray, n: np.ndarray) -> np.ndarray:
    """The LCS lengths from the last bit rows ``v`` (``(pairs, w)`` uint64) of `lcs_step`: ``n - popcount(V)``
    over each pair's ``n`` column bits (``(pairs,)`` int64). Returns ``(pairs,)`` int64."""
    one = np.uint64(1)
    low = np.zeros(v.shape, dtype=np.uint64)
    for k in range(v.shape[1]):
        bits = np.clip(n - 64 * k, 0, 64)
        low[:, k] = np.where(bits == 64, np.iinfo(np.uint64).max,
                             np.left_shift(one, np.minimum(bits, 63).astype(np.uint64)) - one)
    return n - popcount64(v & low).sum(axis=1).astype(np.int64)
