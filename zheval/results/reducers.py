"""Aggregation of per-item statistics: exact means, bootstrap confidence intervals, per-group selections.

Per-item statistics are the unit of work: a corpus score is a function of the rows of an ``(n_items, k)`` array
(mean of per-item ROUGE F; corpus BLEU from summed n-gram statistics). Bootstrap intervals resample *rows* and
recompute that function, so they never re-tokenise.

Resampling and the percentile interval are done by `scipy.stats.bootstrap` (SciPy ≥ 1.15, ``method=
"percentile"``, seeded with `numpy.random.Generator`) — the same percentile interval as sacrebleu's
``estimate_ci`` and rouge-score's ``BootstrapAggregator``, but with an explicit seed instead of the global RNG.
"""

from __future__ import annotations

import numbers
from typing import Callable, Hashable, Sequence

import numpy as np

__all__ = [
    "MAX_BOOTSTRAP_RESAMPLES",
    "MIN_BOOTSTRAP_RESAMPLES",
    "MIN_INTERVAL_ITEMS",
    "RESAMPLE_CAUTION",
    "SOUND_RESAMPLES",
    "resample_cautions",
    "no_interval_reason",
    "add_stats_interval",
    "MAX_SEED",
    "check_bootstrap",
    "check_trials",
    "check_seed",
    "check_confidence",
    "check_interval_options",
    "mean",
    "bootstrap_interval",
    "stats_interval",
    "corpus_statistic",
    "bootstrap_standard_error",
    "group_indices",
    "paired_bootstrap",
    "resampled_scores",
    "mean_and_halfwidth",
]

#: The largest number of bootstrap resamples accepted (library ``bootstrap=``, the evaluate modules, the CLI's
#: ``--bootstrap``). 100 000 resamples put the Monte-Carlo error of a 95 % percentile bound far below any reported
#: digit (sacrebleu and rouge-score use 1000); beyond that a typo (an extra digit, a seed given as the count)
#: would run for hours or forever.
MAX_BOOTSTRAP_RESAMPLES = 100_000

#: The fewest bootstrap resamples accepted when an interval is asked for (``bootstrap`` > 0): one resample has no
#: spread (its "interval" is one resampled score, which need not even contain the score, and its standard error
#: divides by zero degrees of freedom); sacrebleu likewise computes an interval only for ``n_bootstrap > 1``.
#: Two is the floor of the definition, not a recommendation: stable 95 % bounds take 1,000 or more.
MIN_BOOTSTRAP_RESAMPLES = 2

#: Fewest resamples of a bootstrap interval given without a caution (`resample_cautions`; fewer are computed, not
#: refused): sacrebleu's default (``--confidence-n`` and ``--paired-bs-n``: 1000) and Efron & Tibshirani (1993,
#: *An Introduction to the Bootstrap*, §13.3 and §19.3), who ask for about 1000 resamples for a percentile
#: interval (25 to 200 suffice only for a standard error): each 95 % bound is the 2.5 % or 97.5 % quantile of the
#: resampled scores, so with B resamples it rests on about 0.025 B of them -- 25 at 1000, 2 or 3 at 100.
SOUND_RESAMPLES = 1000

#: The first words of every `resample_cautions` message (the CLI prints these report notes on stderr too).
RESAMPLE_CAUTION = "caution: "

#: Fewest items a bootstrap interval needs. Resampling a single item always returns that item, so its "interval"
#: would be the point value twice, which reads as certainty; every door gives no interval then and says why
#: (`no_interval_reason`): the library's results a ``no_interval`` key instead of ``<score>_ci_low``/``_ci_high``,
#: the CLI ``n=1, no interval``.
MIN_INTERVAL_ITEMS = 2


def no_interval_reason(n: int | None) -> str:
    """Why a group of ``n`` items (< `MIN_INTERVAL_ITEMS`) has no interval (``n=None``: the general text)."""
    head = f"n={n}: " if n is not None else ""
    return f"{head}a bootstrap interval needs at least {MIN_INTERVAL_ITEMS} items (resampling one item always returns it)"


#: Seeds are integers in ``[0, MAX_SEED]`` (2**32 - 1): the range that every seeded generator in the stack accepts
#: (``numpy.random.default_rng`` and also ``numpy.random.seed``, which evaluate's own ``seed`` feeds).
MAX_SEED = 2**32 - 1


#: Relative tolerance of "the interval contains its point estimate" (`resample_cautions`), of the numbers' scale
#: (``max(1, |low|, |point|, |high|)``, so 0-1 and 0-100 scores alike): ten identical items give ROUGE-1
#: 0.5882352941176471 and both bounds 0.588235294117647 -- the same number summed in another order, not a miss.
CONTAINS_RTOL = 1e-9


def _contains(low: float, point: float, high: float) -> bool:
    """``low <= point <= high`` up to `CONTAINS_RTOL` of the scale."""
    tol = CONTAINS_RTOL * max(1.0, abs(low), abs(point), abs(high))
    return low - tol <= point <= high + tol


def resample_cautions(n_resamples: int, intervals: Sequence[tuple] = (), what: str = "interval",
                      option: str = "bootstrap") -> list[str]:
    """The cautions of an interval from ``n_resamples`` bootstrap resamples (never a refusal): one when ``n_resamples``
    is below `SOUND_RESAMPLES`, and one naming every interval that does not contain its own point estimate
    (``intervals``: ``(label, point, low, high)``; ``None`` bounds are skipped) -- a percentile interval need not
    contain it (few resamples, a skewed resampled distribution), and a reader takes it for bounds around the score.
    Containment allows `CONTAINS_RTOL` of the numbers' scale (`_contains`): float noise is not an exclusion.
    ``what`` names the interval (``interval``, ``interval of B − A``), ``option`` the resample count as the door
    spells it: the library's keyword ``bootstrap`` by default, which a command writes as its own option
    (`zheval.cli.option_names.caution_option`: ``--bootstrap``, ``--paired-bs-n``). Each message starts with
    `RESAMPLE_CAUTION`; ``[]`` when there is nothing to say."""
    out = []
    n = int(n_resamples)
    if 0 < n < SOUND_RESAMPLES:
        out.append(f"{RESAMPLE_CAUTION}the {what} comes from {n} bootstrap resample{'s' if n != 1 else ''}, fewer than "
                   f"{SOUND_RESAMPLES} (sacrebleu's default; Efron & Tibshirani 1993 ask for about 1000 for a 95% "
                   f"interval): each bound rests on a handful of resamples and moves with the seed; give "
                   f"{SOUND_RESAMPLES} or more ({option})")
    outside = [f"{label} {point:.4f} outside [{low:.4f}, {high:.4f}]" for label, point, low, high in intervals
               if low is not None and high is not None and not _contains(low, point, high)]
    if outside:
        out.append(f"{RESAMPLE_CAUTION}the {what} does not contain its own point estimate: {'; '.join(outside)}. A "
                   f"percentile bootstrap interval need not (too few resamples, or a skewed resampled distribution), "
                   f"so read it as the resamples' spread, not as a range around that value")
    return out


def _is_int(x) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, (bool, np.bool_))


def check_bootstrap(bootstrap, name: str = "bootstrap", zero: bool = True) -> int:
    """``bootstrap`` (number of resamples; 0 = no interval) as an ``int``: 0 (only with ``zero``: where 0 means no
    interval), or from `MIN_BOOTSTRAP_RESAMPLES` (2) to `MAX_BOOTSTRAP_RESAMPLES`. The one rule and message of every
    resample count (library, evaluate modules, CLI options): a door where 0 has no meaning (a paired test, an
    interval asked for) passes ``zero=False`` and states the rule without the 0.

    Raises:
        ValueError: not an int (a bool, float or string included), 1 (one resample has no spread), 0 without
            ``zero``, negative or above the maximum; the message names ``name`` and the bounds.
    """
    if not _is_int(bootstrap) or not ((zero and bootstrap == 0)
                                      or MIN_BOOTSTRAP_RESAMPLES <= bootstrap <= MAX_BOOTSTRAP_RESAMPLES):
        why = (f"; one resample has no spread, so it gives no interval (sacrebleu also needs more than one; "
               f"1000 is the usual count)" if _is_int(bootstrap) and bootstrap == 1 else "")
        raise ValueError(
            f"{name} must be {'0 (no interval) or ' if zero else ''}an int from {MIN_BOOTSTRAP_RESAMPLES} "
            f"(MIN_BOOTSTRAP_RESAMPLES) to {MAX_BOOTSTRAP_RESAMPLES} (MAX_BOOTSTRAP_RESAMPLES) resamples, got "
            f"{bootstrap!r}{why}"
        )
    return int(bootstrap)


def check_trials(trials, name: str = "resamples") -> int:
    """``trials`` (approximate-randomisation trials: one is a valid, if coarse, test, its p-value 1/2 or 1) as an
    ``int`` from 1 to `MAX_BOOTSTRAP_RESAMPLES`.

    Raises:
        ValueError: not an int (a bool included), below 1 or above the maximum, naming ``name`` and the bounds.
    """
    if not _is_int(trials) or not 1 <= trials <= MAX_BOOTSTRAP_RESAMPLES:
        raise ValueError(f"{name} must be an int from 1 to {MAX_BOOTSTRAP_RESAMPLES} (MAX_BOOTSTRAP_RESAMPLES) "
                         f"approximate-randomisation trials, got {trials!r}")
    return int(trials)


def check_seed(seed, name: str = "seed") -> int:
    """``seed`` as an ``int`` in ``[0, MAX_SEED]``.

    Raises:
        TypeError: not an int (a bool, float or string included), naming ``name``.
        ValueError: negative or above `MAX_SEED`, naming ``name``.
    """
    if not _is_int(seed):
        raise TypeError(f"{name} must be an int in [0, {MAX_SEED}] (it seeds the bootstrap), got "
                        f"{type(seed).__name__} {seed!r}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"{name} must be an int in [0, {MAX_SEED}] (it seeds the bootstrap), got {seed!r}")
    return int(seed)


def check_confidence(confidence, name: str = "confidence") -> float:
    """``confidence`` (the level of an interval) as a ``float`` strictly between 0 and 1.

    Raises:
        TypeError: not a real number (a bool or string included). ValueError: outside (0, 1) or NaN.
    """
    if isinstance(confidence, (bool, np.bool_)) or not isinstance(confidence, numbers.Real):
        raise TypeError(f"{name} must be a number in (0, 1), e.g. 0.95, got {type(confidence).__name__} "
                        f"{confidence!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"{name} must be a number in (0, 1), e.g. 0.95, got {confidence!r}")
    return float(confidence)


def check_interval_options(bootstrap, seed, confidence) -> None:
    """`check_bootstrap`, `check_seed` and `check_confidence` at once (every scoring entry point
    calls it, whether or not ``bootstrap`` is 0, so a slip is reported at the call that makes it)."""
    check_bootstrap(bootstrap)
    check_seed(seed)
    check_confidence(confidence)


def _check_resampling(what: str, n: int, n_resamples, confidence, seed) -> None:
    if n == 0:
        raise ValueError(f"{what} needs at least one item")
    check_bootstrap(n_resamples, "n_resamples", zero=False)
    check_confidence(confidence)
    check_seed(seed)


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
    sums_statistic: Callable[[np.ndarray], np.ndarray] | None = None,
) -> tuple[float, float]:
    """Percentile bootstrap confidence interval of a corpus statistic over items.

    Args:
        rows: ``(n_items,)`` or ``(n_items, k)`` array of per-item statistics.
        statistic: vectorised corpus statistic: receives an array of shape ``(..., n_items[, k])`` — resampled
            rows with any leading batch dimensions — and returns shape ``(...)``. E.g. for a mean of per-item
            scores ``lambda r: r.mean(axis=-1)``; for corpus BLEU ``lambda r: bleu_from_sums(r.sum(axis=-2))``.
        n_resamples: number of bootstrap resamples (`MIN_BOOTSTRAP_RESAMPLES` to `MAX_BOOTSTRAP_RESAMPLES`; default 1000 as
            sacrebleu and rouge-score).
        confidence: confidence level in (0, 1), default 0.95.
        seed: seed of the `numpy.random.Generator`, an int in ``[0, MAX_SEED]`` (results are reproducible
            for equal seeds).
        sums_statistic: optional, for statistics of **column sums of integer rows** (corpus BLEU): the same
            statistic as a function of sums, ``(m, k) -> (m,)``. The resampled sums are then computed from the same
            resampling draws as per-resample item counts (``np.bincount``) times ``rows`` -- exact integer
            arithmetic, so the sums, and the interval, are identical to gathering ``rows[idx]`` and summing, at a
            fraction of the cost at 10k+ items. Ignored (``statistic`` is used) for non-integer rows.

    Returns:
        ``(low, high)`` on the statistic's scale. With one item, both equal the statistic.

    Raises:
        ValueError: no items, ``n_resamples`` outside ``[2, MAX_BOOTSTRAP_RESAMPLES]``, ``confidence`` outside
            (0, 1), ``seed`` outside ``[0, MAX_SEED]``. TypeError: a non-int ``seed``, a non-number ``confidence``.
    """
    rows = np.asarray(rows)
    _check_resampling("bootstrap", rows.shape[0], n_resamples, confidence, seed)
    if rows.shape[0] == 1:
        value = float(statistic(rows))
        return value, value
    res = _scipy_bootstrap(rows, statistic, n_resamples, confidence, seed, sums_statistic)
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def stats_interval(
    stats: np.ndarray,
    item_scores: Sequence[float] | None,
    from_sums: Callable[[np.ndarray], np.ndarray],
    n_resamples: int,
    confidence: float,
    seed: int,
) -> tuple[float, float]:
    """The bootstrap interval of a score of additive per-item statistics (BLEU, chrF): ``(0.0, 0.0)`` for no item;
    the mean of ``item_scores`` resampled at sentence level (``item_scores`` given); else the corpus score of the
    resampled column sums (`bootstrap_interval` with its exact ``sums_statistic`` path).

    Args:
        stats: ``(n_items, k)`` integer statistics; item_scores: the per-item scores (sentence level) or ``None``
            (corpus level); from_sums: the corpus score of column sums, ``(m, k) -> (m,)`` (e.g.
            `zheval.compute.bleu.score_from_sums`); n_resamples, confidence, seed: as
            `bootstrap_interval`.

    Returns:
        ``(low, high)`` on the score's scale.
    """
    arr = np.asarray(stats)
    if arr.shape[0] == 0:
        return 0.0, 0.0
    if item_scores is not None:
        return bootstrap_interval(np.asarray(item_scores), lambda r: r.mean(axis=-1), n_resamples, confidence, seed)
    return bootstrap_interval(arr, corpus_statistic(from_sums, arr.shape[1]), n_resamples, confidence, seed,
                              sums_statistic=from_sums)


def add_stats_interval(out: dict, name: str, stats: np.ndarray, item_scores: Sequence[float] | None,
                       from_sums: Callable[[np.ndarray], np.ndarray], config) -> None:
    """Adds to ``out`` what a BLEU or chrF result says of its multinomial bootstrap interval: ``no_interval`` (why
    there is none, `no_interval_reason`) below `MIN_INTERVAL_ITEMS` items when ``config.bootstrap`` asks for one;
    ``{name}_ci_low`` / ``{name}_ci_high`` (`stats_interval` of ``stats``, ``item_scores`` and ``from_sums``) when
    ``config.bootstrap_method`` is ``"multinomial"``. ``config``: the metric's config (``bootstrap``,
    ``bootstrap_method``, ``confidence``, ``seed``); the Poisson interval comes from the items' keys
    (`zheval.results.poisson.add_poisson_bounds`). Raises the errors of `stats_interval`."""
    if config.bootstrap and len(stats) < MIN_INTERVAL_ITEMS:
        out["no_interval"] = no_interval_reason(len(stats))
    elif config.bootstrap and config.bootstrap_method == "multinomial":
        out[f"{name}_ci_low"], out[f"{name}_ci_high"] = stats_interval(stats, item_scores, from_sums, config.bootstrap,
                                                                       config.confidence, config.seed)


def corpus_statistic(from_sums: Callable[[np.ndarray], np.ndarray], width: int) -> Callable[[np.ndarray], np.ndarray]:
    """The vectorised corpus statistic of resampled rows ``(..., n_items, width) -> (...)`` for
    `bootstrap_interval` / `bootstrap_standard_error`: ``from_sums`` of each resample's column sums."""

    def statistic(r: np.ndarray) -> np.ndarray:
        return np.asarray(from_sums(r.sum(axis=-2).reshape(-1, width))).reshape(r.shape[:-2])

    return statistic


def _scipy_bootstrap(rows: np.ndarray, statistic, n_resamples: int, confidence: float, seed: int, sums_statistic):
    """`scipy.stats.bootstrap` (percentile method, seeded) of ``statistic`` over the rows of ``rows`` (at least
    two; options already checked) -- the resampling shared by `bootstrap_interval` and
    `bootstrap_standard_error`."""
    from scipy.stats import bootstrap

    n = rows.shape[0]

    def on_indices(idx: np.ndarray, axis: int = -1) -> np.ndarray:
        # idx: resampled item indices, shape (..., n); rows[idx] has shape (..., n[, k])
        return statistic(rows[idx.astype(np.intp)])

    if sums_statistic is not None and rows.dtype.kind in "iub":
        as_matrix = rows.reshape(n, -1).astype(np.int64)
        # counts @ rows in float64 (BLAS) is exact while every partial sum stays below 2**53
        exact_float = float(n) * float(np.abs(as_matrix).max(initial=0)) < 2.0**53

        def on_indices(idx: np.ndarray, axis: int = -1) -> np.ndarray:  # noqa: F811 - the fast variant
            flat = idx.reshape(-1, n).astype(np.int64)
            m = flat.shape[0]
            counts = np.bincount((flat + (np.arange(m, dtype=np.int64) * n)[:, None]).ravel(),
                                 minlength=m * n).reshape(m, n)
            if exact_float:
                sums = np.rint(counts.astype(np.float64) @ as_matrix.astype(np.float64)).astype(np.int64)
            else:
                sums = counts @ as_matrix
            return np.asarray(sums_statistic(sums)).reshape(idx.shape[:-1])

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
    return res


def bootstrap_standard_error(
    rows: np.ndarray,
    statistic: Callable[[np.ndarray], np.ndarray],
    n_resamples: int = 1000,
    seed: int = 12345,
    sums_statistic: Callable[[np.ndarray], np.ndarray] | None = None,
) -> float:
    """Bootstrap standard error of a corpus statistic over items: the sample standard deviation (``ddof=1``, as
    lm-evaluation-harness's ``bootstrap_stderr``) of the statistic over ``n_resamples`` resamples of the rows.

    Args:
        rows, statistic, sums_statistic: as `bootstrap_interval` (the same resampling, the same draws for equal
            seeds).
        n_resamples: number of resamples (2 to `MAX_BOOTSTRAP_RESAMPLES`).
        seed: seed of the `numpy.random.Generator`, an int in ``[0, MAX_SEED]``.

    Returns:
        The standard error on the statistic's scale; 0.0 for a single item (every resample is that item).

    Raises:
        ValueError: no items, ``n_resamples`` outside ``[2, MAX_BOOTSTRAP_RESAMPLES]``, ``seed`` outside
            ``[0, MAX_SEED]``. TypeError: a non-int ``seed``.
    """
    rows = np.asarray(rows)
    _check_resampling("bootstrap_standard_error", rows.shape[0], n_resamples, 0.95, seed)
    if rows.shape[0] == 1:
        return 0.0
    return float(_scipy_bootstrap(rows, statistic, n_resamples, 0.95, seed, sums_statistic).standard_error)


def group_indices(groups: Sequence[Hashable]) -> dict[Hashable, list[int]]:
    """Item indices of each group value, in order of first appearance (``None`` is a group of its own)."""
    out: dict[Hashable, list[int]] = {}
    for i, g in enumerate(groups):
        out.setdefault(g, []).append(i)
    return out


def paired_bootstrap(
    rows_a: np.ndarray,
    rows_b: np.ndarray,
    score_from_sums: Callable[[np.ndarray], np.ndarray],
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 12345,
) -> dict:
    """Paired bootstrap comparison of two systems scored on the same items (Koehn 2004; sacrebleu 2.6.0
    ``significance._paired_bs_test``, which replicates Moses' ``bootstrap-hypothesis-difference-significance.pl``).

    Both systems are resampled with the **same** item indices, drawn exactly as sacrebleu draws them:
    ``numpy.random.default_rng(seed).choice(n, size=(n_resamples, n), replace=True)``. On each resample the corpus
    score of each system is recomputed from its summed per-item statistics.

    Args:
        rows_a, rows_b: ``(n_items, k)`` per-item statistics of system A (baseline) and B, same items in the same
            order (``k`` may differ between the two only if ``score_from_sums`` copes; normally equal).
        score_from_sums: vectorised corpus score from column sums: ``(m, k) -> (m,)``. Every zheval statistic is a
            function of column sums: corpus BLEU of summed BLEU statistics; a mean of per-item scores from rows
            ``(score, 1)`` as ``sums[:, 0] / sums[:, 1]``.
        n_resamples: number of resamples (default 1000, as sacrebleu). confidence: level of the interval.
        seed: RNG seed (sacrebleu's default is 12345 too).

    Returns:
        ``{"score_a", "score_b", "delta" (= B − A), "delta_low", "delta_high" (percentile interval of the resampled
        B − A), "p_value", "n_resamples", "seed"}``. ``p_value`` is sacrebleu's: with ``d_i = |B_i − A_i|`` on
        resample i and ``d = |B − A|`` on the full set, ``p = (#{i: d_i − mean(d_i) > d} + 1) / (n_resamples + 1)``
        (the null distribution is the resampled differences shifted to mean 0) — the probability of a difference
        at least this large if the systems were equal. Scores are on the scale ``score_from_sums`` returns.

    Raises:
        ValueError: different numbers of items, no items, ``n_resamples`` outside ``[1, MAX_BOOTSTRAP_RESAMPLES]``,
            ``confidence`` outside (0, 1), ``seed`` outside ``[0, MAX_SEED]``. TypeError: a non-int ``seed``.
    """
    a = np.asarray(rows_a, dtype=np.float64)
    b = np.asarray(rows_b, dtype=np.float64)
    if a.ndim == 1:
        a = a[:, None]
    if b.ndim == 1:
        b = b[:, None]
    n = a.shape[0]
    if b.shape[0] != n:
        raise ValueError(f"paired bootstrap needs the same items for both systems; got {n} and {b.shape[0]} rows")
    _check_resampling("paired bootstrap", n, n_resamples, confidence, seed)
    score_a = float(score_from_sums(a.sum(axis=0)[None, :])[0])
    score_b = float(score_from_sums(b.sum(axis=0)[None, :])[0])
    rng = np.random.default_rng(seed)
    idx = rng.choice(n, size=(int(n_resamples), n), replace=True)
    res_a = np.empty(int(n_resamples))
    res_b = np.empty(int(n_resamples))
    chunk = max(1, 4_000_000 // max(1, n * max(a.shape[1], b.shape[1])))
    for start in range(0, int(n_resamples), chunk):
        sel = idx[start:start + chunk]
        res_a[start:start + len(sel)] = score_from_sums(a[sel].sum(axis=1))
        res_b[start:start + len(sel)] = score_from_sums(b[sel].sum(axis=1))
    diffs = res_b - res_a
    abs_d = np.abs(diffs)
    observed = abs(score_b - score_a)
    p = (int(np.sum((abs_d - abs_d.mean()) > observed)) + 1) / (int(n_resamples) + 1)
    alpha = (1 - confidence) / 2
    low, high = np.percentile(diffs, [100 * alpha, 100 * (1 - alpha)])
    return {
        "score_a": score_a,
        "score_b": score_b,
        "delta": score_b - score_a,
        "delta_low": float(low),
        "delta_high": float(high),
        "p_value": p,
        "n_resamples": int(n_resamples),
        "seed": seed,
    }


def resampled_scores(rows: np.ndarray, score_from_sums: Callable[[np.ndarray], np.ndarray], n_resamples: int = 1000,
                     seed: int = 12345) -> np.ndarray:
    """Corpus scores of ``n_resamples`` bootstrap resamples of the items, drawn exactly as sacrebleu 2.6.0 draws them
    (``significance._bootstrap_resample`` and the paired bootstrap: ``numpy.random.default_rng(seed).choice(n,
    size=(n_resamples, n), replace=True)``), each scored from its summed per-item statistics.

    Args:
        rows: ``(n_items, k)`` per-item statistics; score_from_sums: ``(m, k) -> (m,)``; n_resamples, seed: as
            `paired_bootstrap` (the same draws for the same ``n``, ``n_resamples`` and seed).

    Returns:
        ``(n_resamples,)`` scores, on the scale ``score_from_sums`` returns.

    Raises:
        ValueError: no items, ``n_resamples`` or ``seed`` out of range.
    """
    a = np.asarray(rows, dtype=np.float64)
    if a.ndim == 1:
        a = a[:, None]
    n = a.shape[0]
    _check_resampling("resampled_scores", n, n_resamples, 0.95, seed)
    idx = np.random.default_rng(seed).choice(n, size=(int(n_resamples), n), replace=True)
    out = np.empty(int(n_resamples))
    chunk = max(1, 4_000_000 // max(1, n * a.shape[1]))
    for start in range(0, int(n_resamples), chunk):
        sel = idx[start:start + chunk]
        out[start:start + len(sel)] = score_from_sums(a[sel].sum(axis=1))
    return out


def mean_and_halfwidth(scores: Sequence[float]) -> tuple[float, float]:
    """sacrebleu 2.6.0's ``μ ± CI`` of bootstrap scores (``significance.estimate_ci``, ``Score.estimate_ci``): the mean
    of the scores and half the distance between the order statistics ``n // 40`` and ``n - n // 40 - 1`` of the
    sorted scores (a 95 % interval's half-width).

    Raises:
        ValueError: no score.
    """
    s = np.sort(np.asarray(scores, dtype=np.float64))
    n = len(s)
    if n == 0:
        raise ValueError("mean_and_halfwidth needs at least one score")
    low = n // 40
    return float(s.mean()), float(0.5 * (s[n - low - 1] - s[low]))
