"""Rank correlations of a metric with human ratings (zheval.results.agreement): Spearman's rho and Kendall's tau-b
against pure-Python hand implementations written here (average ranks by hand; concordant / discordant pairs with the
tau-b tie correction) and SciPy, the bootstrap interval against a hand loop over the documented draws, and the
undefined cases (too few items, a constant column) and degenerate resamples counted, never dropped silently."""

from __future__ import annotations


import numpy as np
import pytest

from oracles.rank_correlation import hand_kendall_b, hand_ranks, hand_spearman
from zheval.results.agreement import MIN_CORRELATION_ITEMS, rank_correlations, resampled_correlations


def test_hand_helpers_on_a_worked_example():
    # x ranks: 0.1 -> 1, 0.5 and 0.5 -> 2.5, 0.9 -> 4; y = 1, 3, 2, 3 -> ranks 1, 3.5, 2, 3.5
    assert hand_ranks([0.1, 0.5, 0.5, 0.9]) == [1, 2.5, 2.5, 4]
    x, y = [0.1, 0.5, 0.5, 0.9], [1, 3, 2, 3]
    # pairs: (0,1)+ (0,2)+ (0,3)+ (1,2) x tied (1,3)y tied (2,3)+ -> P=4, Q=0, T=1, U=1 -> 4 / sqrt(5*5) = 0.8
    assert hand_kendall_b(x, y) == pytest.approx(0.8)
    # rank deviations x: -1.5, 0, 0, 1.5 (squares 4.5); y: -1.5, 1, -0.5, 1 (squares 4.5);
    # products 2.25 + 0 + 0 + 1.5 = 3.75 -> 3.75 / sqrt(4.5 * 4.5) = 5/6
    assert hand_spearman(x, y) == pytest.approx(5 / 6)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_correlations_equal_the_hand_computation(seed):
    rng = np.random.default_rng(seed)
    metric = rng.random(25).round(2)  # some ties
    ratings = rng.integers(1, 6, 25).astype(float)  # many ties
    res = rank_correlations(metric, ratings, n_resamples=0)
    assert res["spearman"] == pytest.approx(hand_spearman(metric.tolist(), ratings.tolist()), abs=1e-12)
    assert res["kendall"] == pytest.approx(hand_kendall_b(metric.tolist(), ratings.tolist()), abs=1e-12)
    assert res["n"] == 25 and res["spearman_low"] is None and res["undefined"] is None
    from scipy.stats import kendalltau, spearmanr

    assert res["spearman_p"] == spearmanr(metric, ratings).pvalue
    assert res["kendall_p"] == kendalltau(metric, ratings).pvalue


def test_bootstrap_interval_equals_a_hand_loop():
    rng = np.random.default_rng(5)
    metric = rng.random(12).round(1)
    ratings = rng.integers(1, 4, 12).astype(float)
    res = rank_correlations(metric, ratings, n_resamples=300, seed=77)
    idx = np.random.default_rng(77).integers(0, 12, size=(300, 12)).tolist()
    rhos, taus, degenerate = [], [], 0
    for row in idx:
        xs, ys = [float(metric[i]) for i in row], [float(ratings[i]) for i in row]
        if len(set(xs)) == 1 or len(set(ys)) == 1:
            degenerate += 1
            continue
        rhos.append(hand_spearman(xs, ys))
        taus.append(hand_kendall_b(xs, ys))
    assert res["degenerate"] == degenerate
    assert res["spearman_low"] == pytest.approx(float(np.percentile(rhos, 2.5)), abs=1e-12)
    assert res["spearman_high"] == pytest.approx(float(np.percentile(rhos, 97.5)), abs=1e-12)
    assert res["kendall_low"] == pytest.approx(float(np.percentile(taus, 2.5)), abs=1e-12)
    assert res["kendall_high"] == pytest.approx(float(np.percentile(taus, 97.5)), abs=1e-12)
    assert res["spearman_low"] <= res["spearman"] <= res["spearman_high"] or degenerate


def test_vectorised_resamples_equal_scipy_row_by_row():
    from scipy.stats import kendalltau, spearmanr

    rng = np.random.default_rng(9)
    xs = rng.integers(0, 4, (40, 15)).astype(float)
    ys = rng.integers(0, 3, (40, 15)).astype(float)
    rho, tau = resampled_correlations(xs, ys)
    for i in range(40):
        assert rho[i] == pytest.approx(spearmanr(xs[i], ys[i]).statistic, abs=1e-12)
        assert tau[i] == pytest.approx(kendalltau(xs[i], ys[i]).statistic, abs=1e-12)


def test_undefined_cases_say_why_and_degenerate_resamples_are_counted():
    assert MIN_CORRELATION_ITEMS == 3
    two = rank_correlations([0.1, 0.2], [1, 2])
    assert two["spearman"] is None and "at least 3 items" in two["undefined"]
    const = rank_correlations([0.1, 0.2, 0.3, 0.4], [3, 3, 3, 3])
    assert const["kendall"] is None and const["undefined"] == "constant ratings over the 4 items"
    both = rank_correlations([1, 1, 1], [2, 2, 2])
    assert both["undefined"] == "constant metric and ratings over the 3 items"
    # 3 items, one different: a resample drawing only the two equal ones is degenerate; counted, not silent
    res = rank_correlations([0.1, 0.1, 0.9], [1, 1, 5], n_resamples=200, seed=1)
    assert res["degenerate"] > 0 and res["spearman"] == pytest.approx(hand_spearman([0.1, 0.1, 0.9], [1, 1, 5]))


def test_bad_inputs():
    with pytest.raises(ValueError, match="same length"):
        rank_correlations([0.1, 0.2, 0.3], [1, 2])
    with pytest.raises(ValueError, match="finite"):
        rank_correlations([0.1, float("nan"), 0.3], [1, 2, 3])
    with pytest.raises(ValueError, match="n_resamples"):
        rank_correlations([0.1, 0.2, 0.3], [1, 2, 3], n_resamples=-1)
