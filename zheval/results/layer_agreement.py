"""The agreement table of the three evaluation layers: every metric column (BLEU, ROUGE-1/2/L, chrF, BERTScore-F1,
...) against every rating column (an LLM judge's criteria, or human ratings), with Spearman's ρ, Kendall's τ-b
and Pearson's r, bootstrap intervals over items, overall and per group ([`agreement_table`][zheval.results.layer_agreement.agreement_table]).

ρ and τ-b (with their intervals) are `zheval.results.agreement.rank_correlations`; r is
``scipy.stats.pearsonr`` (two-sided p-value), its interval the percentile interval of r over the **same**
resamples of items (``numpy.random.default_rng(seed).integers(0, n, size=(n_resamples, n))``), the degenerate ones
(a constant column) left out and counted as for ρ and τ. An item without a value in either column (a judge that gave
no valid rating: NaN) is left out of that pair's correlations and counted (``excluded``), never filled in.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence

import numpy as np

from .agreement import best_first, rank_correlations, tied_scores
from .group_labels import group_label

__all__ = ["pearson_with_interval", "agreement_table", "best_metrics", "best_ranks"]


def _pearson_rows(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    xs = xs - xs.mean(axis=1, keepdims=True)
    ys = ys - ys.mean(axis=1, keepdims=True)
    return np.clip((xs * ys).sum(axis=1) / np.sqrt((xs * xs).sum(axis=1) * (ys * ys).sum(axis=1)), -1.0, 1.0)


def pearson_with_interval(metric: np.ndarray, ratings: np.ndarray, n_resamples: int, confidence: float,
                          seed: int) -> dict:
    """``{"pearson", "pearson_p", "pearson_low", "pearson_high"}`` of two finite, non-constant columns of at least
    three items (``scipy.stats.pearsonr``; the interval as the module docstring says)."""
    from scipy.stats import pearsonr

    res = pearsonr(metric, ratings)
    out = {"pearson": float(res.statistic), "pearson_p": float(res.pvalue), "pearson_low": None,
           "pearson_high": None}
    if n_resamples:
        n = len(metric)
        idx = np.random.default_rng(seed).integers(0, n, size=(n_resamples, n))
        xs, ys = metric[idx], ratings[idx]
        ok = ~(np.all(xs == xs[:, :1], axis=1) | np.all(ys == ys[:, :1], axis=1))
        if ok.any():
            rs = _pearson_rows(xs[ok], ys[ok])
            alpha = (1 - confidence) / 2
            low, high = np.percentile(rs, [100 * alpha, 100 * (1 - alpha)])
            out["pearson_low"], out["pearson_high"] = float(low), float(high)
    return out


def _pair_row(metric: np.ndarray, ratings: np.ndarray, n_resamples: int, confidence: float, seed: int) -> dict:
    keep = np.isfinite(metric) & np.isfinite(ratings)
    x, y = metric[keep], ratings[keep]
    row = rank_correlations(tied_scores(x), y, n_resamples=n_resamples, confidence=confidence, seed=seed)
    row["excluded"] = int((~keep).sum())
    row.update(pearson=None, pearson_p=None, pearson_low=None, pearson_high=None)
    if row["undefined"] is None:
        row.update(pearson_with_interval(x, y, n_resamples, confidence, seed))
    return row


def agreement_table(metrics: Dict[str, Sequence[float]], ratings: Dict[str, Sequence[float]], *,
                    groups: Optional[Sequence[Optional[str]]] = None, group_name: str = "group",
                    n_resamples: int = 1000, confidence: float = 0.95, seed: int = 12345) -> List[dict]:
    """Spearman, Kendall and Pearson of every (metric, rating) column pair, overall and per group.

    Args:
        metrics: ``{name: per-item values}`` (any scale; NaN = no value): zheval's own scores, ranked for ρ and τ
            with the values equal to within `zheval.results.agreement.SCORE_TIE_TOLERANCE` tied
            (`zheval.results.agreement.tied_scores`; Pearson's r on the values as given).
        ratings: ``{name: per-item values}`` (NaN = no rating, e.g. a judge failure), ranked as given.
        groups: per item its group (``None`` = no group), or ``None``.
        group_name: the name of the groups' field (``--group-field``), for the rows' labels.
        n_resamples: bootstrap resamples of items for the intervals (0 = no interval; as `rank_correlations`).
        confidence: the intervals' level in (0, 1).
        seed: the bootstrap's seed, an int in ``[0, MAX_SEED]``.

    Returns:
        Rows ``{"group", "dimension", "value", "metric", "rating", "n", "excluded", "spearman",
        "spearman_p", "spearman_low", "spearman_high", "kendall", ..., "pearson", "pearson_p", "pearson_low",
        "pearson_high", "degenerate", "undefined", ...}``: overall first, then the groups in first-seen order; within
        a group, per rating column the metrics in the given order. ``group`` is the row's label, as ``zheval score``
        writes it (`zheval.results.group_labels.group_label`): ``overall`` for every item,
        ``<group_name>=<value>`` for a group (``domain=overall`` is a group, never the overall row; ``domain=null``
        the items without a group); ``dimension`` is ``"overall"`` or ``group_name``; ``value`` the group's exact
        value (``None`` for the overall row and for the items without a group).

    Raises:
        ValueError: columns of different lengths, ``groups`` of another length, bad bootstrap options.
    """
    cols = {k: np.asarray(v, dtype=np.float64) for k, v in {**metrics, **ratings}.items()}
    lengths = {len(v) for v in cols.values()}
    if len(lengths) > 1:
        raise ValueError(f"every column must have one value per item, got lengths "
                         f"{ {k: len(v) for k, v in cols.items()} }")
    n = lengths.pop() if lengths else 0
    if groups is not None and len(groups) != n:
        raise ValueError(f"groups has {len(groups)} values for {n} items")
    selections = [("overall", "overall", None, np.arange(n))]
    if groups is not None:
        for g in dict.fromkeys(groups):
            selections.append((f"{group_name}={group_label(g)}", group_name, None if g is None else str(g),
                               np.asarray([i for i, v in enumerate(groups) if v == g], dtype=np.intp)))
    rows = []
    for label, dimension, value, idx in selections:
        for rating in ratings:
            for metric in metrics:
                row = _pair_row(cols[metric][idx], cols[rating][idx], n_resamples, confidence, seed)
                rows.append({"group": label, "dimension": dimension, "value": value, "metric": metric,
                             "rating": rating, **row})
    return rows


def _ranked(rows: List[dict]) -> Dict[str, List[tuple]]:
    """``{rating: [(overall row, rank)]}`` in the order of `zheval.results.agreement.best_first`."""
    out: Dict[str, List[dict]] = {}
    for r in rows:
        if r["group"] == "overall":  # a group's label is <field>=<value>: never "overall"
            out.setdefault(r["rating"], []).append(r)
    return {c: [(rs[i], rank) for i, rank in best_first([None if r["undefined"] else r["spearman"] for r in rs])]
            for c, rs in out.items()}


def best_metrics(rows: List[dict]) -> Dict[str, List[dict]]:
    """``{rating: overall rows, best Spearman ρ first}`` (tied ρ -- within `zheval.results.agreement.TIE_TOLERANCE` -- in table order; rows
    without a correlation last, in their order); their ranks: `best_ranks`."""
    return {c: [r for r, _ in rs] for c, rs in _ranked(rows).items()}


def best_ranks(rows: List[dict]) -> Dict[str, List[Optional[int]]]:
    """``{rating: [rank of each row of best_metrics]}``: competition ranks (1, 1, 1, 4, ...), equal for tied ρ
    (`zheval.results.agreement.best_first`: within its ``TIE_TOLERANCE``), ``None`` for a row without a correlation."""
    return {c: [rank for _, rank in rs] for c, rs in _ranked(rows).items()}
