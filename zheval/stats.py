"""Aggregation of per-item statistics: exact means, bootstrap confidence intervals, per-group selections.

Per-item statistics are the unit of work: a corpus score is a function of the rows of an ``(n_items, k)`` array
(mean of per-item ROUGE F; corpus BLEU from summed n-gram statistics). Bootstrap intervals resample *rows* and
recompute that function, so they never re-tokenise.

Resampling and the percentile interval are done by :func:`scipy.stats.bootstrap` (SciPy ≥ 1.15, ``method=
"percentile"``, seeded with :class:`numpy.random.Generator`) — the same percentile interval as sacrebleu's
``estimate_ci`` and rouge-score's ``BootstrapAggregator``, but with an explicit seed instead of the global RNG.
"""

from __future__ import annotations

from typing import Callable, Hashable, Sequence

import numpy as np

__all__ = ["mean", "bootstrap_interval", "group_indices"]


def mean(values: Sequence[float]) -> float:
    """Exact arithmetic mean (``math.fsum`` / n); 0.0 for an empty sequence."""
    import math

    values = list(values)
    return math.fsum(values) / len(values) if values else 0.0


def bootstrap_interval(
    rows: np.ndarray,
    statistic: Callable[[np.ndarray], np.ndarray],
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 12345,
) -> tuple[float, float]:
    """Percentile bootstrap confidence interval of a corpus statistic over items.

    Args:
        rows: ``(n_items,)`` or ``(n_items, k)`` array of per-item statistics.
        statistic: vectorised corpus statistic: receives an array of shape ``(..., n_items[, k])`` — resampled
            rows with any leading batch dimensions — and returns shape ``(...)``. E.g. for a mean of per-item
            scores ``lambda r: r.mean(axis=-1)``; for corpus BLEU ``lambda r: bleu_from_sums(r.sum(axis=-2))``.
        n_resamples: number of bootstrap resamples (≥ 1; default 1000 as sacrebleu and rouge-score).
        confidence: confidence level in (0, 1), default 0.95.
        seed: seed of the :class:`numpy.random.Generator` (results are reproducible for equal seeds).

    Returns:
        ``(low, high)`` on the statistic's scale. With one item, both equal the statistic.

    Raises:
        ValueError: no items, ``n_resamples`` < 1, or ``confidence`` outside (0, 1).
    """
    from scipy.stats import bootstrap

    rows = np.asarray(rows)
    n = rows.shape[0]
    if n == 0:
        raise ValueError("bootstrap needs at least one item")
    if not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise ValueError(f"n_resamples must be a positive integer, got {n_resamples!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    if n == 1:
        value = float(statistic(rows))
        return value, value

    def on_indices(idx: np.ndarray, axis: int = -1) -> np.ndarray:
        # idx: resampled item indices, shape (..., n); rows[idx] has shape (..., n[, k])
        return statistic(rows[idx.astype(np.intp)])

    res = bootstrap(
        (np.arange(n),),
        on_indices,
        n_resamples=int(n_resamples),
        confidence_level=confidence,
        method="percentile",
        vectorized=True,
        batch=max(1, min(int(n_resamples), 2_000_000 // max(1, rows.size))),
        rng=np.random.default_rng(seed),
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def group_indices(groups: Sequence[Hashable]) -> dict[Hashable, list[int]]:
    """Item indices of each group value, in order of first appearance (``None`` is a group of its own)."""
    out: dict[Hashable, list[int]] = {}
    for i, g in enumerate(groups):
        out.setdefault(g, []).append(i)
    return out
