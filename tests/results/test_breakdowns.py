"""zheval.results.breakdowns: bucket edges checked and items assigned to half-open buckets (by hand), folds
reproducible from numpy's generator (an independent split written here), the stability summary against
statistics.mean/stdev, and the max_refs helpers."""

from __future__ import annotations

import statistics

import numpy as np
import pytest

from zheval.results.breakdowns import (
    DEFAULT_BUCKETS,
    bucket_groups,
    check_buckets,
    check_folds,
    check_max_refs,
    first_references,
    fold_groups,
    fold_stability,
    reference_limit,
)


def test_default_buckets_are_documented():
    assert DEFAULT_BUCKETS == (10, 20, 50)


@pytest.mark.parametrize("given, edges", [("10,20,50", (10, 20, 50)), ([5], (5,)), ("2.5, 7", (2.5, 7)),
                                          ((1, 2, 3), (1, 2, 3))])
def test_check_buckets_accepts_increasing_edges(given, edges):
    assert check_buckets(given) == edges


@pytest.mark.parametrize("given, message", [
    ("10,5", "--buckets must be strictly increasing, got 10 then 5"),
    ("10,10", "--buckets must be strictly increasing, got 10 then 10"),
    ("", "--buckets needs at least one edge"),
    ("0,10", "--buckets: every edge must be a number > 0"),
    ("-3", "--buckets: every edge must be a number > 0"),
    ("a,b", "--buckets must be a comma list of numbers"),
    ([1, float("inf")], "--buckets: every edge must be a number > 0"),
])
def test_check_buckets_refuses_with_the_option_name(given, message):
    with pytest.raises(ValueError) as ei:
        check_buckets(given, "--buckets")
    assert message in str(ei.value)


def test_buckets_are_half_open_by_hand():
    lengths = [0, 9.99, 10, 10.5, 19, 20, 49, 50, 500]
    got = bucket_groups(lengths, (10, 20, 50))
    assert [label for label, _ in got] == ["[0, 10)", "[10, 20)", "[20, 50)", "[50, ∞)"]
    assert [idx.tolist() for _, idx in got] == [[0, 1], [2, 3, 4], [5, 6], [7, 8]]
    # an empty bucket is listed, with no item
    assert [len(i) for _, i in bucket_groups([1, 2], (10,))] == [2, 0]


def test_folds_are_numpy_permutation_cut_in_near_equal_parts():
    for n, k, seed in ((10, 3, 0), (66, 5, 12345), (7, 7, 3)):
        folds = fold_groups(n, k, seed)
        perm = list(np.random.default_rng(seed).permutation(n))
        sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]  # array_split: the first n % k get one more
        start, want = 0, []
        for s in sizes:
            want.append(sorted(perm[start:start + s]))
            start += s
        assert [f.tolist() for f in folds] == want
        assert sorted(np.concatenate(folds).tolist()) == list(range(n))
    assert [f.tolist() for f in fold_groups(20, 4, 9)] == [f.tolist() for f in fold_groups(20, 4, 9)]
    assert [f.tolist() for f in fold_groups(20, 4, 9)] != [f.tolist() for f in fold_groups(20, 4, 10)]


@pytest.mark.parametrize("folds, n, message", [
    (1, 10, "--folds must be at least 2"), (0, 10, "--folds must be at least 2"),
    (11, 10, "--folds 11 is more than the 10 item(s)"), (2.0, 10, "--folds must be an int >= 2"),
    (True, 10, "--folds must be an int >= 2"),
])
def test_check_folds_refuses_with_the_option_name(folds, n, message):
    with pytest.raises(ValueError) as ei:
        check_folds(folds, n, "--folds")
    assert message in str(ei.value)
    assert check_folds(10, 10) == 10


def test_fold_stability_against_statistics():
    v = [0.31, 0.25, 0.40, 0.28, 0.36]
    s = fold_stability(v, 0.27, 0.38)
    m = statistics.mean(v)
    assert s["mean"] == pytest.approx(m, abs=1e-15)
    assert s["std"] == pytest.approx(statistics.stdev(v), abs=1e-15)
    assert s["max_deviation"] == pytest.approx(max(abs(x - m) for x in v), abs=1e-15)
    # K = 5: half-width 0.055 x sqrt(4) = 0.11 around the middle 0.325 -> band [0.215, 0.435]: no fold outside
    assert s["flagged"] == [] and s["band"] == pytest.approx([0.215, 0.435], abs=1e-15)
    assert s["interval"] == [0.27, 0.38] and s["folds"] == v
    # around the score on all items 0.30: band [0.19, 0.41]; with a fold at 0.45 that fold (4) is flagged
    s = fold_stability([0.31, 0.25, 0.40, 0.45, 0.36], 0.27, 0.38, value=0.30)
    assert s["band"] == pytest.approx([0.19, 0.41], abs=1e-15) and s["flagged"] == [4]
    no_interval = fold_stability(v)
    assert no_interval["flagged"] is None and no_interval["interval"] is None and no_interval["band"] is None


def test_fold_flags_fire_about_five_percent_of_the_time_on_homogeneous_items():
    # The old rule (outside the interval of all items) flags P(|Z| > 1.96 / sqrt(K - 1)) = 0.33 of the folds at
    # K = 5 on homogeneous random items; the fold band flags about 5%. 200 random sets of 400 items, scores 0/1 with
    # p = 0.4, a percentile bootstrap of the mean (numpy, 400 resamples), 5 random folds each: 1000 folds.
    rng = np.random.default_rng(3)
    k, flags, old = 5, 0, 0
    for _ in range(200):
        x = (rng.random(400) < 0.4).astype(float)
        boots = x[rng.integers(0, 400, (400, 400))].mean(axis=1)
        low, high = np.percentile(boots, [2.5, 97.5])
        folds = [float(f.mean()) for f in np.array_split(x[rng.permutation(400)], k)]
        s = fold_stability(folds, float(low), float(high), value=float(x.mean()))
        flags += len(s["flagged"])
        old += sum(1 for f in folds if f < low or f > high)
    assert 0.02 < flags / 1000 < 0.09
    assert 0.25 < old / 1000 < 0.42


@pytest.mark.parametrize("k, message", [(0, "max_refs must be at least 1"), (-2, "max_refs must be at least 1"),
                                        (1.5, "max_refs must be an int >= 1"), ("2", "max_refs must be an int >= 1")])
def test_check_max_refs(k, message):
    with pytest.raises(ValueError, match=message):
        check_max_refs(k)
    assert check_max_refs(None) is None and check_max_refs(3) == 3


def test_first_references_and_the_limit_summary():
    refs = [["a", "b", "c"], ["d"], ["e", "f"]]
    assert first_references(refs, 2) == [["a", "b"], ["d"], ["e", "f"]]
    assert first_references(refs, None) == refs
    # counts 3, 1, 2 with K = 2: one has fewer (1), one is cut (3 -> 2, one reference left out)
    assert reference_limit([3, 1, 2], 2) == {"max_refs": 2, "items": 3, "fewer": 1, "truncated": 1,
                                             "dropped_references": 1}
    assert reference_limit([7, 7], 1)["dropped_references"] == 12
