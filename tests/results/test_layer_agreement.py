"""The three-layer agreement table: every coefficient equals SciPy's on the joined columns (items without a value
left out), the Pearson interval equals a loop of ``scipy.stats.pearsonr`` over the same resamples, per group."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import kendalltau, pearsonr, spearmanr

from zheval.results.layer_agreement import agreement_table, best_metrics, pearson_with_interval


def columns(n=40, seed=3):
    rng = np.random.default_rng(seed)
    judge = rng.integers(1, 6, size=n).astype(float)
    bleu = judge * 0.1 + rng.normal(0, 0.15, n)
    bert = judge * 0.2 + rng.normal(0, 0.1, n)
    judge[[4, 17]] = np.nan  # two items the judge could not rate
    return {"BLEU": bleu, "BERTScore-F1": bert}, {"judge:overall": judge}


def test_coefficients_equal_scipy_on_the_joined_columns():
    metrics, ratings = columns()
    rows = agreement_table(metrics, ratings, n_resamples=0)
    y = ratings["judge:overall"]
    keep = ~np.isnan(y)
    for row in rows:
        x = metrics[row["metric"]]
        assert row["n"] == 38 and row["excluded"] == 2
        assert row["spearman"] == pytest.approx(spearmanr(x[keep], y[keep]).statistic, abs=1e-12)
        assert row["kendall"] == pytest.approx(kendalltau(x[keep], y[keep], variant="b").statistic, abs=1e-12)
        assert row["pearson"] == pytest.approx(pearsonr(x[keep], y[keep]).statistic, abs=1e-12)
        assert row["pearson_p"] == pytest.approx(pearsonr(x[keep], y[keep]).pvalue, rel=1e-9)
    assert best_metrics(rows)["judge:overall"][0]["metric"] == "BERTScore-F1"


def test_pearson_interval_is_scipy_over_the_same_resamples():
    metrics, ratings = columns(n=25, seed=5)
    y = ratings["judge:overall"]
    keep = ~np.isnan(y)
    x, y = metrics["BLEU"][keep], y[keep]
    out = pearson_with_interval(x, y, 200, 0.9, 7)
    idx = np.random.default_rng(7).integers(0, len(x), size=(200, len(x)))
    rs = [pearsonr(x[i], y[i]).statistic for i in idx if len(set(x[i])) > 1 and len(set(y[i])) > 1]
    low, high = np.percentile(rs, [5, 95])
    assert out["pearson_low"] == pytest.approx(low, abs=1e-12) and out["pearson_high"] == pytest.approx(high, abs=1e-12)


def test_per_group_rows_equal_scipy_on_the_group():
    metrics, ratings = columns(n=60, seed=11)
    groups = ["售后支持" if i % 3 else "生活咨询" for i in range(60)]
    groups[5], groups[7], groups[8], groups[10] = None, "null", "overall", "overall"
    rows = agreement_table(metrics, ratings, groups=groups, group_name="domain", n_resamples=50, seed=1)
    # labelled as zheval score labels groups: <field>=<value>; the string "null" is not the missing value, and a
    # group whose value is "overall" is not the overall row
    assert [r["group"] for r in rows[::2]] == ["overall", "domain=生活咨询", "domain=售后支持", "domain=null",
                                               'domain="null"', "domain=overall"]
    assert [(r["dimension"], r["value"]) for r in rows[::2]] == [
        ("overall", None), ("domain", "生活咨询"), ("domain", "售后支持"), ("domain", None), ("domain", "null"),
        ("domain", "overall")]
    assert {c: [r["group"] for r in rs] for c, rs in best_metrics(rows).items()} == {
        c: ["overall"] * len(metrics) for c in ratings}  # the group "overall" is not ranked as the overall rows
    y = ratings["judge:overall"]
    for row in rows:
        if row["dimension"] == "overall":
            continue
        g = row["value"]
        sel = np.array([v == g for v in groups]) & ~np.isnan(y)
        x = metrics[row["metric"]]
        if sel.sum() < 3:
            assert row["undefined"]
            continue
        assert row["spearman"] == pytest.approx(spearmanr(x[sel], y[sel]).statistic, abs=1e-12)
        assert row["pearson"] == pytest.approx(pearsonr(x[sel], y[sel]).statistic, abs=1e-12)
        assert row["spearman_low"] <= row["spearman"] + 1e-9 or math.isclose(row["spearman_low"], row["spearman"])


def test_constant_and_short_columns_have_no_correlation():
    rows = agreement_table({"m": [0.1, 0.2, 0.3, 0.4]}, {"r": [3, 3, 3, 3]}, n_resamples=10)
    assert rows[0]["undefined"] and rows[0]["pearson"] is None
    with pytest.raises(ValueError, match="one value per item"):
        agreement_table({"m": [0.1, 0.2]}, {"r": [3, 3, 3]})
