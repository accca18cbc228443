"""Exact float sums (zheval.results.exact_sum) against math.fsum -- the correctly rounded sum that
zheval.results.reducers.mean uses -- for any partitioning and order, and the partial sums that merge them."""

from __future__ import annotations

import math

import numpy as np
import pytest

from zheval.results.exact_sum import exact_int, exact_mean, exact_value, weighted_exact_ints
from zheval.results.partial_sums import PartialSums, merge_groups
from zheval.results.reducers import mean

PARTITIONS = (1, 2, 8, 64)


def _cases():
    rng = np.random.default_rng(20261204)
    yield "uniform 0-1 (ROUGE F)", rng.random(5000)
    yield "wide exponents, both signs", rng.standard_normal(3000) * 10.0 ** rng.integers(-300, 300, 3000)
    yield "cancellation and subnormals", np.concatenate([[1e308, -1e308, 5e-324, 1.0, 1e-16, -1.0], rng.random(999)])
    yield "ties near rounding (1e-4 steps + tiny)", rng.integers(0, 3, 4000) * 1e-4 + rng.random(4000) * 1e-17
    yield "zeros", np.zeros(100)


@pytest.mark.parametrize("name,values", list(_cases()), ids=[c[0] for c in _cases()])
def test_exact_sum_equals_fsum_for_any_partitioning_and_order(name, values):
    want = math.fsum(values.tolist())
    total = exact_int(values)
    assert exact_value(total) == want
    rng = np.random.default_rng(len(values))
    for parts in PARTITIONS:
        shuffled = rng.permutation(values)
        assert sum(exact_int(p) for p in np.array_split(shuffled, parts)) == total, parts
    assert exact_mean(total, len(values)) == mean(values.tolist())


def test_plain_float_sum_does_depend_on_the_order():
    """Why exact sums are needed: numpy's and Python's own sums change with the order (the test would not catch a
    naive reducer otherwise)."""
    values = np.random.default_rng(1).random(100_000)
    orders = {float(np.sum(np.random.default_rng(s).permutation(values))) for s in range(20)}
    orders |= {sum(np.random.default_rng(s).permutation(values).tolist()) for s in range(20)}
    assert len(orders) > 1
    assert exact_value(exact_int(values)) == math.fsum(values.tolist())


def test_weighted_sums_equal_repeated_values():
    rng = np.random.default_rng(7)
    values = rng.random(3000)
    w = rng.poisson(1.0, size=(6, 3000))
    got = weighted_exact_ints(w, values)
    for b in range(6):
        assert got[b] == exact_int(np.repeat(values, w[b]))
        assert exact_value(got[b]) == math.fsum(np.repeat(values, w[b]).tolist())


def test_refusals():
    with pytest.raises(ValueError, match="value 2 is "):
        exact_int([0.0, 1.0, float("nan")])
    with pytest.raises(ValueError, match=r"weights must be \(B, 2\)"):
        weighted_exact_ints(np.ones((2, 3), dtype=int), [1.0, 2.0])
    with pytest.raises(ValueError, match="integers in"):
        weighted_exact_ints(np.full((1, 1), 300), [1.0])


def _sums(values, ints, counts, weights=None):
    s = PartialSums()
    s.add_items(len(values), weights)
    s.add_floats("f", values, weights)
    s.add_ints("stats", ints, weights)
    s.add_reference_counts(counts)
    return s


@pytest.mark.parametrize("parts", PARTITIONS)
def test_partial_sums_merge_is_independent_of_partitioning_and_order(parts):
    rng = np.random.default_rng(parts)
    n = 2000
    values, ints, counts = rng.random(n), rng.integers(0, 50, (n, 11)), rng.integers(1, 4, n)
    weights = rng.poisson(1.0, (20, n))
    whole = _sums(values, ints, counts, weights)
    chunks = [np.sort(c) for c in np.array_split(rng.permutation(n), parts)]
    pieces = [_sums(values[c], ints[c], counts[c], weights[:, c]) for c in chunks]
    rng.shuffle(pieces)
    merged = pieces[0]
    for p in pieces[1:]:
        merged = merged.merge(p)
    assert merged == whole
    assert merged.mean("f") == mean(values.tolist())
    assert merged.ints["stats"].tolist() == ints.sum(axis=0).tolist()
    assert merged.reference_counts == frozenset(counts.tolist())
    expect = [math.fsum(np.repeat(values, w).tolist()) / w.sum() for w in weights]
    assert merged.resampled_means("f").tolist() == expect


def test_merge_groups_keeps_each_group():
    a = {"x": _sums(np.array([0.5]), np.ones((1, 2), int), [1]), None: _sums(np.array([0.25]), np.ones((1, 2), int), [2])}
    b = {"x": _sums(np.array([0.125]), np.ones((1, 2), int), [3])}
    out = merge_groups(a, b)
    assert out["x"].n == 2 and out["x"].mean("f") == (0.5 + 0.125) / 2 and out["x"].reference_counts == {1, 3}
    assert out[None].n == 1
    assert a["x"].n == 1  # inputs unchanged
