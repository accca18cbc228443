"""zheval.results.reducers: the exact mean, the bootstrap interval (reproducible, brackets the mean, its width; a
statistic of column sums gives the identical interval), grouping indices."""

import numpy as np
import pytest

from zheval.results.reducers import bootstrap_interval, group_indices, mean


def test_mean_exact():
    assert mean([0.1] * 10) == 0.1 * 10 / 10
    assert mean([]) == 0.0


def test_bootstrap_interval_reproducible_and_brackets_mean():
    values = np.random.default_rng(0).random(400)
    a = bootstrap_interval(values, lambda r: r.mean(axis=-1), seed=7)
    b = bootstrap_interval(values, lambda r: r.mean(axis=-1), seed=7)
    assert a == b
    assert a[0] < values.mean() < a[1]
    # for a mean, the 95% interval half-width is about 1.96 * sd / sqrt(n)
    half = 1.96 * values.std(ddof=1) / np.sqrt(len(values))
    assert (a[1] - a[0]) / 2 == pytest.approx(half, rel=0.15)


def test_bootstrap_interval_errors():
    with pytest.raises(ValueError, match="at least one item"):
        bootstrap_interval(np.array([]), lambda r: r.mean(axis=-1))
    with pytest.raises(ValueError, match="n_resamples"):
        bootstrap_interval(np.ones(3), lambda r: r.mean(axis=-1), n_resamples=0)


def test_group_indices():
    assert group_indices(["a", None, "a", "b", None]) == {"a": [0, 2], None: [1, 4], "b": [3]}


def test_bootstrap_sums_statistic_gives_identical_interval():
    from zheval.definitions.bleu_score import score_stats
    from zheval.results.reducers import bootstrap_interval

    rng = np.random.default_rng(0)
    rows = rng.integers(0, 30, size=(500, 11))
    rows[:, 3:7] = np.minimum(rows[:, 3:7], rows[:, 7:11])

    def per_rows(r):
        sums = r.sum(axis=-2).reshape(-1, 11)
        return np.array([score_stats(s).score for s in sums.tolist()]).reshape(r.shape[:-2])

    def per_sums(sums):
        return np.array([score_stats(s).score for s in sums.tolist()])

    for dtype in (np.int64, np.int32):
        a = rows.astype(dtype)
        assert bootstrap_interval(a, per_rows, 200, seed=5) == bootstrap_interval(a, per_rows, 200, seed=5,
                                                                                  sums_statistic=per_sums)


def test_bootstrap_standard_error_of_a_mean_is_sd_over_root_n():
    from zheval.results.reducers import bootstrap_standard_error

    values = np.random.default_rng(1).random(300)
    se = bootstrap_standard_error(values, lambda r: r.mean(axis=-1), n_resamples=4000, seed=3)
    assert se == bootstrap_standard_error(values, lambda r: r.mean(axis=-1), n_resamples=4000, seed=3)
    # the bootstrap estimates the plug-in standard error of the mean: population sd / sqrt(n) (Monte-Carlo error of
    # 4000 resamples about 1 %)
    assert se == pytest.approx(values.std(ddof=0) / np.sqrt(len(values)), rel=0.05)
    # the draws are bootstrap_interval's: the same seed gives the same resamples, so their spread matches the
    # interval's width for a normal-looking mean
    low, high = bootstrap_interval(values, lambda r: r.mean(axis=-1), n_resamples=4000, seed=3)
    assert (high - low) / (2 * 1.96) == pytest.approx(se, rel=0.1)


def test_bootstrap_standard_error_sums_statistic_and_edge_cases():
    from zheval.results.reducers import bootstrap_standard_error

    rows = np.random.default_rng(2).integers(0, 9, size=(50, 3))

    def ratio(r):  # a statistic of column sums: sum(col 0) / sum(col 1 + col 2)
        s = r.sum(axis=-2)
        return s[..., 0] / np.maximum(1, s[..., 1] + s[..., 2])

    def ratio_of_sums(sums):
        return sums[:, 0] / np.maximum(1, sums[:, 1] + sums[:, 2])

    plain = bootstrap_standard_error(rows.astype(np.float64), ratio, n_resamples=500, seed=5)
    fast = bootstrap_standard_error(rows, ratio, n_resamples=500, seed=5, sums_statistic=ratio_of_sums)
    assert fast == pytest.approx(plain, rel=1e-12)
    assert bootstrap_standard_error(np.array([0.4]), lambda r: r.mean(axis=-1)) == 0.0
    with pytest.raises(ValueError, match="from 2 .*got 1; one resample has no spread"):
        bootstrap_standard_error(np.ones(3), lambda r: r.mean(axis=-1), n_resamples=1)
    with pytest.raises(ValueError, match="at least one item"):
        bootstrap_standard_error(np.array([]), lambda r: r.mean(axis=-1))
