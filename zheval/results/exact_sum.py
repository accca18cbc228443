"""Exact sums of float64 values as Python integers: the same total whatever the partitioning and the order.

A finite double is ``x = M * 2**(e - 53)`` with an integer mantissa ``|M| < 2**53`` and an exponent
``e >= -1073`` (`numpy.frexp`), so ``x * 2**SCALE_BITS`` (``SCALE_BITS = 1127``) is an integer. The sum of
those integers is the exact sum of the doubles, scaled: integer addition is associative and commutative, so sums of
chunks, partitions or machines merge (``+``) to exactly the sum of the whole, in any order. One correct rounding at
the end (`exact_value`: Python's ``int / int`` true division is correctly rounded) gives the double nearest to
the exact sum -- which is what `math.fsum` returns for the whole list ("an accurate floating point sum ...
avoids loss of precision"; CPython's ``fsum`` is correctly rounded, Shewchuk 1997 "Adaptive Precision
Floating-Point Arithmetic"). So ``exact_mean(exact_int(v), len(v)) == zheval.results.reducers.mean(v)`` for every
finite ``v``, and the means of a streamed or engine-reduced corpus equal [`zheval.score`][zheval.compute.joint.score] on the whole list.

The summing is vectorised: mantissas are split into two halves of at most 27 bits, grouped by exponent and summed
with `numpy.bincount` (float64 sums of integers below ``2**53`` are exact), then shifted into one Python int.
Weighted sums (`weighted_exact_ints`: the Poisson bootstrap's resamples, small integer weights) use one float64
matrix product over the same halves, exact for the same reason.
"""

from __future__ import annotations

from typing import List

import numpy as np

__all__ = ["SCALE_BITS", "exact_int", "weighted_exact_ints", "exact_value", "exact_mean"]

SCALE_BITS = 1127
"""Exact sums are integers counting units of ``2**-SCALE_BITS`` (1074 + 53: the smallest subnormal's exponent plus the
mantissa bits, so every finite double is an integer number of units)."""

_HALF = 26  # mantissa split: |hi| < 2**27, 0 <= lo < 2**26
# bincount / matmul in float64 stay exact while every partial sum is below 2**53: at most 2**25 values of < 2**28
# (hi, lo) per call, or with weights <= MAX_WEIGHT at most 2**53 / (2**27 * MAX_WEIGHT) values.
_CHUNK = 1 << 25
_MAX_WEIGHT = 255


def _halves(values: np.ndarray):
    """Per value: exponent bucket index, the bucket exponents, mantissa high and low halves (float64 integers)."""
    arr = np.asarray(values, dtype=np.float64).ravel()
    if not np.isfinite(arr).all():
        bad = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise ValueError(f"exact sums need finite values; value {bad} is {arr[bad]!r}")
    m, e = np.frexp(arr)
    mant = np.ldexp(m, 53).astype(np.int64)  # exact: |m| < 1 has 53 significant bits
    hi = mant >> _HALF
    lo = mant - (hi << _HALF)
    exps, bucket = np.unique(e, return_inverse=True)
    return bucket.ravel(), exps, hi.astype(np.float64), lo.astype(np.float64)


def _combine(hi_sum, lo_sum, exps) -> int:
    total = 0
    for h, lo_, e in zip(hi_sum.tolist(), lo_sum.tolist(), exps.tolist()):
        total += ((int(h) << _HALF) + int(lo_)) << (int(e) + 1074)
    return total


def exact_int(values) -> int:
    """The exact sum of ``values`` in units of ``2**-SCALE_BITS`` (a Python ``int``; 0 for no value).

    Args:
        values: array-like of finite floats (converted to float64), any shape (flattened).

    Raises:
        ValueError: a NaN or an infinity (naming its flat index).
    """
    arr = np.asarray(values, dtype=np.float64).ravel()
    total = 0
    for start in range(0, arr.shape[0], _CHUNK):
        bucket, exps, hi, lo = _halves(arr[start:start + _CHUNK])
        total += _combine(np.bincount(bucket, weights=hi, minlength=len(exps)),
                          np.bincount(bucket, weights=lo, minlength=len(exps)), exps)
    return total


def weighted_exact_ints(weights: np.ndarray, values) -> List[int]:
    """For each row ``w`` of ``weights``, the exact ``sum(w[i] * values[i])`` in units of ``2**-SCALE_BITS``.

    Args:
        weights: ``(B, n)`` non-negative integers at most 255 (Poisson(1) resample weights).
        values: ``(n,)`` finite floats.

    Returns:
        ``B`` Python ints.

    Raises:
        ValueError: shapes that do not match, a weight outside ``[0, 255]``, a non-finite value.
    """
    w = np.asarray(weights)
    arr = np.asarray(values, dtype=np.float64).ravel()
    if w.ndim != 2 or w.shape[1] != arr.shape[0]:
        raise ValueError(f"weights must be (B, {arr.shape[0]}), got shape {w.shape}")
    if w.size and (w.min() < 0 or w.max() > _MAX_WEIGHT):
        raise ValueError(f"weights must be integers in [0, {_MAX_WEIGHT}]")
    totals = [0] * w.shape[0]
    step = (1 << 53) // ((1 << 27) * _MAX_WEIGHT)  # values per product whose partial sums stay below 2**53
    for start in range(0, arr.shape[0], step):
        bucket, exps, hi, lo = _halves(arr[start:start + step])
        k = len(exps)
        rows = np.arange(bucket.shape[0])
        cols = np.zeros((bucket.shape[0], 2 * k), dtype=np.float64)
        cols[rows, bucket] = hi
        cols[rows, k + bucket] = lo
        sums = w[:, start:start + step].astype(np.float64) @ cols  # exact: integers below 2**53
        for b in range(w.shape[0]):
            totals[b] += _combine(sums[b, :k], sums[b, k:], exps)
    return totals


def exact_value(total: int) -> float:
    """The double nearest to ``total * 2**-SCALE_BITS`` (one correct rounding: ``int / int`` true division).

    Raises:
        OverflowError: a sum beyond the float64 range.
    """
    return total / (1 << SCALE_BITS)


def exact_mean(total: int, count: int) -> float:
    """``exact_value(total) / count`` -- equal to ``math.fsum(values) / len(values)``
    (`zheval.results.reducers.mean`) for the values whose exact sum is ``total``; 0.0 when ``count`` is 0."""
    return exact_value(total) / count if count else 0.0
