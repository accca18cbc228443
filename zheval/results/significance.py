"""Paired approximate randomisation (AR) of two systems scored on the same items, with sacrebleu's p-value.

The test (Noreen 1989; Riezler & Maxwell 2005; sacrebleu 2.6.0 ``significance._paired_ar_test``, which follows
multeval's ``StratifiedApproximateRandomizationTest``): under the null hypothesis that A and B are equally good,
the label of each item's output (A or B) is exchangeable. Each trial swaps every item's pair of per-item statistics
with probability 1/2, giving two pseudo-systems; their corpus scores are recomputed from summed statistics. The
p-value is the share of trials whose absolute score difference is strictly larger than the observed one, with
sacrebleu's +1 smoothing (`p_value_from_trials`).

The shuffles are drawn exactly as sacrebleu draws them (``numpy.random.default_rng(seed).integers(2, size=(trials,
n_items), dtype=bool)``) and the pseudo-systems' sums are the same matrix products (``keep @ A + swap @ B``), so
on identical per-item statistics and seed the p-value equals sacrebleu's.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from .reducers import MAX_BOOTSTRAP_RESAMPLES, check_seed

__all__ = ["AR_DEFAULT_TRIALS", "FLOAT_TIE_TOLERANCE", "p_value_from_trials", "paired_approximate_randomization"]

#: Default number of AR trials: sacrebleu's (``PairedTest._DEFAULT_SAMPLES["ar"]``).
AR_DEFAULT_TRIALS = 10_000

#: For float (non-integer) statistics: a trial whose difference exceeds the observed one by less than this share of
#: the larger score is a tie, not "more extreme" (summation-order rounding, see
#: `paired_approximate_randomization`). Integer statistics (BLEU) are compared exactly, as sacrebleu does.
FLOAT_TIE_TOLERANCE = 1e-9


def p_value_from_trials(trial_statistics: np.ndarray, observed: float) -> float:
    """sacrebleu's p-value (``significance._compute_p_value``, from multeval):
    ``(#{t: trial_statistics[t] > observed} + 1) / (len(trial_statistics) + 1)``.

    The comparison is strict (a zero difference of a system with itself is not attributed to chance) and the +1
    keeps the test's false-rejection rate at most its level (so the smallest possible p is ``1 / (trials + 1)``).

    Args:
        trial_statistics: ``(trials,)`` test statistic per trial (AR: ``|A' − B'|``). observed: the observed one.

    Returns:
        p in ``(0, 1]``.

    Raises:
        ValueError: no trials.
    """
    t = np.asarray(trial_statistics, dtype=np.float64).ravel()
    if t.size == 0:
        raise ValueError("a p-value needs at least one trial")
    return (int(np.sum(t > observed)) + 1) / (t.size + 1)


def _as_rows(rows, name: str) -> np.ndarray:
    a = np.asarray(rows)
    if a.ndim == 1:
        a = a[:, None]
    if a.ndim != 2:
        raise ValueError(f"{name} must be an (n_items, k) array of per-item statistics, got shape {a.shape}")
    return a


def _pseudo_sums(sel: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(sel @ a + ~sel @ b, ~sel @ a + sel @ b)``, exactly as sacrebleu computes them. Integer statistics are
    summed in float64 (BLAS) when every partial sum stays below 2**53 -- then exact -- and returned as int64, the
    values sacrebleu's integer products give."""
    keep, swap = sel, ~sel
    if a.dtype.kind in "iub" and b.dtype.kind in "iub":
        bound = float(a.shape[0]) * float(max(np.abs(a).max(initial=0), np.abs(b).max(initial=0)))
        if bound < 2.0**53:
            fa, fb = a.astype(np.float64), b.astype(np.float64)
            k, s = keep.astype(np.float64), swap.astype(np.float64)
            x = np.rint(k @ fa).astype(np.int64) + np.rint(s @ fb).astype(np.int64)
            y = np.rint(s @ fa).astype(np.int64) + np.rint(k @ fb).astype(np.int64)
            return x, y
        ia, ib = a.astype(np.int64), b.astype(np.int64)
        return keep @ ia + swap @ ib, swap @ ia + keep @ ib
    fa, fb = a.astype(np.float64), b.astype(np.float64)
    k, s = keep.astype(np.float64), swap.astype(np.float64)
    return k @ fa + s @ fb, s @ fa + k @ fb


def paired_approximate_randomization(
    rows_a,
    rows_b,
    score_from_sums: Callable[[np.ndarray], np.ndarray],
    n_trials: int = AR_DEFAULT_TRIALS,
    seed: int = 12345,
) -> dict:
    """Paired two-sided approximate randomisation test of system B against system A on the same items.

    Args:
        rows_a, rows_b: ``(n_items, k)`` per-item statistics of A (baseline) and B, same items in the same order
            (a 1-D array is one column). Every zheval corpus score is a function of column sums: corpus BLEU of the
            summed rows ``[hyp_len, closest_ref_len, shortest_ref_len, matches_1..N, totals_1..N]``
            (`zheval.definitions.bleu`); a mean of per-item scores from rows ``(score, 1)``.
        score_from_sums: vectorised corpus score from column sums, ``(m, k) -> (m,)``, on any scale (zheval's
            are 0–1; the p-value does not depend on the scale except through float rounding).
        n_trials: number of shuffles, 1 to `MAX_BOOTSTRAP_RESAMPLES` (default
            10,000 as sacrebleu).
        seed: seed of ``numpy.random.default_rng``, an int in ``[0, MAX_SEED]``. sacrebleu's ``PairedTest`` takes
            it from ``SACREBLEU_SEED`` (default 12345, the default here too); it turns a seed of 0 into "unseeded",
            zheval seeds with 0.

    Returns:
        ``{"score_a", "score_b", "delta" (= B − A), "p_value", "n_trials", "seed", "test": "ar"}``. ``p_value`` is
        `p_value_from_trials` of ``|score(A') − score(B')|`` over the trials against ``|score(B) −
        score(A)|``; scores are computed with ``score_from_sums`` on the summed rows. Identical systems give the
        smallest p, ``1 / (n_trials + 1)`` (no trial differs strictly more than 0) -- sacrebleu's convention. With
        integer statistics (BLEU) the comparison is exactly sacrebleu's; with float statistics a trial exceeding the
        observed difference by less than `FLOAT_TIE_TOLERANCE` times the larger score counts as a tie (the
        sums of a trial and of the observed systems are added in different orders; without this, systems that
        differ on a few items only would get an inflated p from rounding errors).

    Raises:
        ValueError: different numbers of items (naming both), no items, rows that are not 2-D, ``n_trials`` < 1
            or above the bound (naming ``n_trials``). TypeError: a non-int ``seed`` or ``n_trials``.
    """
    a = _as_rows(rows_a, "rows_a")
    b = _as_rows(rows_b, "rows_b")
    n = a.shape[0]
    if b.shape[0] != n:
        raise ValueError(f"approximate randomisation needs the same items for both systems: rows_a has {n} items, "
                         f"rows_b has {b.shape[0]}")
    if a.shape[1] != b.shape[1]:
        raise ValueError(f"rows_a and rows_b must have the same statistics columns, got {a.shape[1]} and {b.shape[1]}")
    if n == 0:
        raise ValueError("approximate randomisation needs at least one item")
    if isinstance(n_trials, bool) or not isinstance(n_trials, (int, np.integer)):
        raise TypeError(f"n_trials must be an int from 1 to {MAX_BOOTSTRAP_RESAMPLES}, got {n_trials!r}")
    if not 1 <= n_trials <= MAX_BOOTSTRAP_RESAMPLES:
        raise ValueError(f"n_trials must be an int from 1 to {MAX_BOOTSTRAP_RESAMPLES} (MAX_BOOTSTRAP_RESAMPLES), "
                         f"got {n_trials!r}")
    seed = check_seed(seed)
    trials = int(n_trials)
    score_a = float(np.asarray(score_from_sums(a.sum(axis=0)[None, :]))[0])
    score_b = float(np.asarray(score_from_sums(b.sum(axis=0)[None, :]))[0])
    rng = np.random.default_rng(seed)
    sel = rng.integers(2, size=(trials, n), dtype=bool)  # sacrebleu's draw: one call, the whole matrix
    diffs = np.empty(trials)
    chunk = max(1, 2_000_000 // max(1, n))
    for start in range(0, trials, chunk):
        part = sel[start:start + chunk]
        x, y = _pseudo_sums(part, a, b)
        sa = np.asarray(score_from_sums(x), dtype=np.float64)
        sb = np.asarray(score_from_sums(y), dtype=np.float64)
        diffs[start:start + len(part)] = np.abs(sa - sb)
    observed = abs(score_a - score_b)
    integer = a.dtype.kind in "iub" and b.dtype.kind in "iub"
    # integer statistics: every pseudo-system's sums are exact, so equal sums give equal scores and sacrebleu's
    # strict comparison is kept as it is. Float statistics (a mean of per-item F) are summed in another order for
    # each trial than for the observed score, so a trial that is the observed split (or its mirror) -- frequent when
    # the systems agree on most items, as then only the few differing items' swaps matter -- could exceed the
    # observed difference by a rounding error; such near-ties count as ties.
    tolerance = 0.0 if integer else FLOAT_TIE_TOLERANCE * max(abs(score_a), abs(score_b))
    return {
        "score_a": score_a,
        "score_b": score_b,
        "delta": score_b - score_a,
        "p_value": p_value_from_trials(diffs, observed + tolerance),
        "n_trials": trials,
        "seed": seed,
        "test": "ar",
    }
