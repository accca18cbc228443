"""Agreement of a metric with human ratings over items: Spearman's ρ and Kendall's τ-b (`rank_correlations`),
with seeded percentile bootstrap intervals over items.

The correlations are SciPy's (``scipy.stats.spearmanr``: Pearson correlation of average ranks; ``scipy.stats.
kendalltau`` with ``variant="b"``: ties corrected in both variables), the p-values SciPy's (two-sided; Kendall's is
exact for small tie-free samples, asymptotic otherwise). Bootstrap: items are resampled with replacement,
``numpy.random.default_rng(seed).integers(0, n, size=(n_resamples, n))``, both correlations recomputed on each
resample (`resampled_correlations`, the same two formulas vectorised), and the percentile interval taken. A resample in which the metric or the ratings are constant has no
correlation (it is undefined); such resamples are left out of the interval and **counted** (``degenerate``), never
silently.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from .reducers import check_bootstrap, check_confidence, check_seed

__all__ = ["MIN_CORRELATION_ITEMS", "SCORE_TIE_TOLERANCE", "TIE_TOLERANCE", "best_first", "tied_scores", "rank_separators",
           "NO_CORRELATION", "unranked_groups", "rank_correlations", "resampled_correlations"]

#: Fewest items a correlation is computed on: with 2 items every correlation is ±1 (or undefined).
MIN_CORRELATION_ITEMS = 3

#: Two correlations are tied when they differ by at most this much (`best_first`): the same ρ computed from two
#: different columns (the same ranks in another order of summation) may differ in the last bits of a float64.
TIE_TOLERANCE = 1e-12

#: zheval's own per-item metric scores (a review key's BLEU/ROUGE/chrF/BERTScore, the three layers' metric columns)
#: are tied before they are ranked when they are equal to within this relative tolerance (`tied_scores`): sorted,
#: a score whose difference from the one before it is at most ``SCORE_TIE_TOLERANCE * max(1, |either|)`` takes
#: that one's value (a chain: each run of such neighbours becomes its smallest value). Two mathematically equal
#: scores computed in another order (ROUGE-L F = 28/51 as 0.5490196078431372 and 0.5490196078431373) then share a
#: rank. External scores (``--scores``) and ratings are ranked exactly as written, never tied this way.
SCORE_TIE_TOLERANCE = 1e-12


def tied_scores(values: Sequence[float]) -> np.ndarray:
    """``values`` (finite floats) with the scores equal to within `SCORE_TIE_TOLERANCE` made one value (the rule
    there: sorted neighbours within ``SCORE_TIE_TOLERANCE * max(1, |either|)`` take the smaller's value, chained);
    the order of the values is otherwise kept, so only such near-equal scores change ranks (they tie)."""
    x = np.asarray(values, dtype=np.float64)
    if x.size < 2:
        return x.copy()
    order = np.argsort(x, kind="stable")
    s = x[order]
    scale = np.maximum(1.0, np.maximum(np.abs(s[1:]), np.abs(s[:-1])))
    starts = np.concatenate(([True], (s[1:] - s[:-1]) > SCORE_TIE_TOLERANCE * scale))
    firsts = np.flatnonzero(starts)
    out = np.empty_like(x)
    out[order] = s[firsts[np.cumsum(starts) - 1]]
    return out


def best_first(values: Sequence, tolerance: float = TIE_TOLERANCE) -> list[tuple[int, int | None]]:
    """The order "which metric agrees best" shows, with its ties: ``[(index, rank)]``, highest value first.

    ``values``: one correlation per metric in table order (``None``: no correlation). ``rank`` is the competition
    rank (1, 1, 1, 4, ...): a value within ``tolerance`` of the value before it in the order is **tied** with it
    and shares its rank (a chain: each within ``tolerance`` of the next); tied values are listed in table order.
    The values without a correlation come last, in table order, with rank ``None``.
    """
    defined = sorted((i for i, v in enumerate(values) if v is not None), key=lambda i: (-values[i], i))
    groups: list[list[int]] = []
    for i in defined:
        if groups and abs(values[groups[-1][-1]] - values[i]) <= tolerance:
            groups[-1].append(i)
        else:
            groups.append([i])
    out: list[tuple[int, int | None]] = []
    for g in groups:
        rank = len(out) + 1
        out += [(i, rank) for i in sorted(g)]
    return out + [(i, None) for i, v in enumerate(values) if v is None]


def rank_separators(ranks: Sequence) -> list[str]:
    """What stands before each entry of a ranking (best first, as `best_first` orders it, ``ranks`` its ranks):
    ``""`` before the first, ``" = "`` between two that share a rank (tied), ``" > "`` otherwise (a ``None`` rank,
    no correlation, is never tied): ``BLEU +0.200 = ROUGE-2 +0.200 > ROUGE-1 +0.100``."""
    return [""] + [" = " if ranks[k] is not None and ranks[k] == ranks[k - 1] else " > " for k in range(1, len(ranks))]


#: What the reports say of a metric/rating pair without a correlation (the agreement table's notes, and the ranking
#: of "which metric agrees best", `unranked_groups`), followed by the reason in parentheses.
NO_CORRELATION = "no correlation"


def unranked_groups(ranks: Sequence, reasons: Sequence) -> list[tuple[str, str, list[int]]]:
    """The entries of a ranking (as `best_first` orders it: ``ranks`` its ranks, ``reasons`` why each has no
    correlation or ``None``) that have no correlation -- rank ``None`` --, which are never ranked: ``[(sep, reason,
    [their indices])]``, one group per reason in order of first appearance; ``sep`` is ``"; "`` after anything
    before it, ``""`` first. A ranking line shows the ranked entries with `rank_separators` (of the ranked ones
    only), then each group as ``{sep}no correlation ({reason}): {names}``: ``ROUGE-L +0.400 > BLEU +0.200; no
    correlation (constant metric over the 6 items): chrF``, never ``chrF – > …``."""
    groups: dict = {}
    for k, (rank, reason) in enumerate(zip(ranks, reasons)):
        if rank is None:
            groups.setdefault(str(reason), []).append(k)
    ranked = any(rank is not None for rank in ranks)
    return [("; " if ranked or j else "", reason, idx) for j, (reason, idx) in enumerate(groups.items())]


def _correlations(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float]:
    from scipy.stats import kendalltau, spearmanr

    rho = spearmanr(x, y)
    tau = kendalltau(x, y, variant="b")
    return float(rho.statistic), float(rho.pvalue), float(tau.statistic), float(tau.pvalue)


def resampled_correlations(xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Spearman's ρ and Kendall's τ-b of every row pair of ``xs``/``ys`` (``(m, n)`` arrays, no row constant), the
    vectorised equivalents of ``scipy.stats.spearmanr`` (Pearson correlation of ``rankdata`` average ranks) and
    ``kendalltau(variant="b")`` (``Σ sign(x_i − x_j)·sign(y_i − y_j) / sqrt(pairs untied in x · pairs untied in
    y)``, which is ``(P − Q) / sqrt((P + Q + T)(P + Q + U))``), computed in chunks of rows.

    Returns:
        ``(rho, tau)``, two ``(m,)`` arrays.
    """
    from scipy.stats import rankdata

    m, n = xs.shape
    rx = rankdata(xs, axis=1)
    ry = rankdata(ys, axis=1)
    rx -= rx.mean(axis=1, keepdims=True)
    ry -= ry.mean(axis=1, keepdims=True)
    rho = (rx * ry).sum(axis=1) / np.sqrt((rx * rx).sum(axis=1) * (ry * ry).sum(axis=1))
    tau = np.empty(m)
    step = max(1, 4_000_000 // max(1, n * n))
    for start in range(0, m, step):
        a, b = xs[start:start + step], ys[start:start + step]
        sx = np.sign(a[:, :, None] - a[:, None, :])
        sy = np.sign(b[:, :, None] - b[:, None, :])
        num = (sx * sy).sum(axis=(1, 2))
        tau[start:start + step] = num / np.sqrt(np.abs(sx).sum(axis=(1, 2)) * np.abs(sy).sum(axis=(1, 2)))
    return np.clip(rho, -1.0, 1.0), np.clip(tau, -1.0, 1.0)


def _none(value):
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else value


def rank_correlations(
    metric: Sequence[float],
    ratings: Sequence[float],
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 12345,
) -> dict:
    """Spearman's ρ and Kendall's τ-b between a metric's per-item scores and human ratings of the same items.

    Args:
        metric: per-item metric scores (any scale; only their order matters). ratings: the ratings of the same items
            in the same order (numbers; ties allowed). Both finite.
        n_resamples: bootstrap resamples of items for the intervals (0 = no interval; at most
            `MAX_BOOTSTRAP_RESAMPLES`). confidence: level in (0, 1). seed: an int in
            ``[0, MAX_SEED]``.

    Returns:
        ``{"n", "spearman", "spearman_p", "spearman_low", "spearman_high", "kendall", "kendall_p", "kendall_low",
        "kendall_high", "n_resamples", "degenerate", "seed", "undefined"}``: correlations in [-1, 1]. ``undefined``
        is ``None``, or why there is no correlation (fewer than `MIN_CORRELATION_ITEMS` items, or constant
        metric or ratings); then every number is ``None``. ``degenerate``: resamples left out of the intervals
        because the metric or the ratings were constant in them (an interval is ``None`` when no resample is left).

    Raises:
        ValueError: different lengths, a non-finite value, bad ``n_resamples``/``confidence``/``seed``.
    """
    x = np.asarray(metric, dtype=np.float64)
    y = np.asarray(ratings, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"metric and ratings must be two 1-D sequences of the same length, got {x.shape} and {y.shape}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("metric scores and ratings must be finite numbers")
    n_resamples = check_bootstrap(n_resamples, "n_resamples")
    confidence = check_confidence(confidence)
    seed = check_seed(seed)
    n = int(x.size)
    out = {"n": n, "spearman": None, "spearman_p": None, "spearman_low": None, "spearman_high": None,
           "kendall": None, "kendall_p": None, "kendall_low": None, "kendall_high": None,
           "n_resamples": n_resamples, "degenerate": 0, "seed": seed, "undefined": None}
    if n < MIN_CORRELATION_ITEMS:
        out["undefined"] = f"n={n}: a correlation needs at least {MIN_CORRELATION_ITEMS} items"
        return out
    const = [name for name, v in (("metric", x), ("ratings", y)) if np.all(v == v[0])]
    if const:
        out["undefined"] = f"constant {' and '.join(const)} over the {n} items"
        return out
    rho, rho_p, tau, tau_p = _correlations(x, y)
    out.update(spearman=rho, spearman_p=_none(rho_p), kendall=tau, kendall_p=_none(tau_p))
    if n_resamples:
        idx = np.random.default_rng(seed).integers(0, n, size=(n_resamples, n))
        xs, ys = x[idx], y[idx]
        ok = ~(np.all(xs == xs[:, :1], axis=1) | np.all(ys == ys[:, :1], axis=1))
        out["degenerate"] = int(n_resamples - ok.sum())
        if ok.any():
            rhos, taus = resampled_correlations(xs[ok], ys[ok])
            alpha = (1 - confidence) / 2
            lo, hi = 100 * alpha, 100 * (1 - alpha)
            out["spearman_low"], out["spearman_high"] = (float(v) for v in np.percentile(rhos, [lo, hi]))
            out["kendall_low"], out["kendall_high"] = (float(v) for v in np.percentile(taus, [lo, hi]))
    return out
