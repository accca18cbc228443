"""chrF / chrF++ scores from sufficient statistics -- THE scoring rule of every chrF number zheval reports
(`f_score`, `score_stats`), on the statistics of `zheval.definitions.chrf`.

Pure functions: nothing here reads text or global state. Scale: 0-1 (sacrebleu reports the same number times 100).

Sources followed
----------------
* Popović (2015), "chrF: character n-gram F-score for automatic MT evaluation", WMT: character n-gram precision and
  recall averaged over the orders 1..6, then ``F_beta = (1 + beta**2) P R / (beta**2 P + R)``; beta = 2 (Popović
  2016, WMT16 metrics task) weighs recall twice as much as precision.
* Popović (2017), "chrF++: words helping character n-grams", WMT: word unigrams and bigrams added as two more orders.
* sacrebleu 2.6.0 ``sacrebleu/metrics/chrf.py`` ``CHRF._compute_f_score``: the default ("effective order", sacreBLEU
  < 2.0 style, signature ``eff:yes``) averages P and R over the orders whose hypothesis and reference n-gram counts
  are both > 0, then computes one F; an empty average or ``P + R == 0`` gives 0. With ``eps_smoothing=True``
  (``eff:no``, "chrF++.py style EPS smoothing", as Moses and NLTK) ``P = 1e-16`` when the hypothesis has no n-gram of
  an order, ``R = 1e-16`` when the reference has none, each order gets its own F (``1e-16`` if its denominator is
  0), and the score is the mean of the per-order F over **all** orders. The float operations are sacrebleu's in the
  same order, without its final ``100 *`` (so ``score * 100`` equals sacrebleu's score to the last few ulps).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Sequence, Tuple

import numpy as np

from .orders import MAX_ORDER, check_beta  # the one bound of every n-gram order (chrF's char and word orders)

__all__ = ["EPS", "MAX_ORDER", "ChrfScore", "check_chrf_options", "stats_orders", "f_score", "score_stats", "metric_name"]

#: sacrebleu's epsilon (``CHRF._compute_f_score``): the precision/recall of an order that has no n-gram with
#: ``eps_smoothing``, and the F of an order whose denominator is 0.
EPS = 1e-16


def _check_int(name: str, value, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an int >= {low}, got {value!r}")
    if value > MAX_ORDER:
        raise ValueError(f"{name} must be at most {MAX_ORDER} (one statistics column triple per order; an order "
                         f"above every text's length adds nothing), got {value!r}")
    return int(value)


def check_chrf_options(char_order, word_order, beta, eps_smoothing) -> Tuple[int, int, float, bool]:
    """``(char_order, word_order, beta, eps_smoothing)`` checked: ``char_order`` an int in [0, `MAX_ORDER`],
    ``word_order`` an int in [0, `MAX_ORDER`], not both 0; ``beta`` a number in [0, `MAX_BETA`] (1e100: F is then the recall; sacrebleu takes any int; 0 scores precision alone);
    ``eps_smoothing`` a bool.

    Raises:
        ValueError: an order that is not an int in range, both orders 0, a negative or non-finite ``beta`` or one above `MAX_BETA`.
        TypeError: ``beta`` not a number, ``eps_smoothing`` not True/False.
    """
    char_order = _check_int("char_order", char_order, 0)
    word_order = _check_int("word_order", word_order, 0)
    if char_order + word_order == 0:
        raise ValueError("char_order and word_order are both 0: chrF needs at least one n-gram order")
    check_beta(beta)
    if not isinstance(eps_smoothing, (bool, np.bool_)):
        raise TypeError(f"eps_smoothing must be True or False, got {type(eps_smoothing).__name__} {eps_smoothing!r}")
    # a whole beta stays an int (sacrebleu's name "chrF2"), unless too large for int64 arithmetic
    beta = int(beta) if float(beta).is_integer() and beta < 2 ** 53 else float(beta)
    return char_order, word_order, beta, bool(eps_smoothing)


def metric_name(beta, word_order: int) -> str:
    """sacrebleu's score name (``CHRFScore``): ``chrF<beta>`` plus one ``+`` per word order (``chrF2``, ``chrF2++``)."""
    return f"chrF{format(beta, 'g')}" + "+" * int(word_order)


def stats_orders(stats) -> int:
    """The number of orders (``char_order + word_order``) of a statistics row (1-D) or matrix (2-D).

    Raises:
        ValueError: a width that is not a positive multiple of 3.
    """
    width = np.shape(stats)[-1] if np.ndim(stats) else 0
    orders, rest = divmod(width, 3)
    if rest or orders < 1:
        raise ValueError(f"chrF statistics must have 3 columns [hyp, ref, match] per order; got width {width}")
    return orders


def f_score(stats: Sequence[int], beta, eps_smoothing: bool = False) -> float:
    """chrF (0-1) of one statistics row ``[hyp_1, ref_1, match_1, hyp_2, ...]`` (an item's, or a corpus' column
    sums). The hot path of the reference choice: no checking here (`score_stats` checks).

    Same arithmetic as sacrebleu 2.6.0 ``CHRF._compute_f_score`` divided by 100 (module docstring).
    """
    factor = beta ** 2
    orders = len(stats) // 3
    score = 0.0
    effective = 0
    avg_prec = avg_rec = 0.0
    for i in range(orders):
        n_hyp, n_ref, n_match = stats[3 * i], stats[3 * i + 1], stats[3 * i + 2]
        prec = n_match / n_hyp if n_hyp > 0 else EPS
        rec = n_match / n_ref if n_ref > 0 else EPS
        if eps_smoothing:
            denom = factor * prec + rec
            score += ((1 + factor) * prec * rec / denom) if denom > 0 else EPS
        elif n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective += 1
    if eps_smoothing:
        return score / orders
    if effective == 0:
        return 0.0
    avg_prec /= effective
    avg_rec /= effective
    if avg_prec + avg_rec:
        return (1 + factor) * avg_prec * avg_rec / ((factor * avg_prec) + avg_rec)
    return 0.0


@dataclass(frozen=True)
class ChrfScore:
    """A chrF score with what it was computed from; each field's text stands below it. ``name``: sacrebleu's score
    name (``chrF2``, ``chrF2++``)."""

    score: float
    """chrF in [0, 1]."""
    char_order: int
    """The character n-gram orders used (1..char_order)."""
    word_order: int
    """The word n-gram orders used (1..word_order; 0 for chrF, 2 for chrF++)."""
    beta: float
    """The F-measure's beta (recall weighted beta times as much as precision)."""
    eps_smoothing: bool
    """sacrebleu's ``eps_smoothing``: the mean of the orders' F-scores, an order without n-grams counting a tiny
    epsilon (else: the F-score of the mean precision and recall over the orders that have n-grams on both sides)."""
    precisions: Tuple[float, ...]
    """Per order (character orders 1..char_order, then word orders 1..word_order), in [0, 1]; 0.0 for an order
    without hypothesis n-grams."""
    recalls: Tuple[float, ...]
    """Per order as ``precisions``, in [0, 1]; 0.0 for an order without reference n-grams."""
    hyp_counts: Tuple[int, ...]
    """The summed hypothesis n-gram counts per order."""
    ref_counts: Tuple[int, ...]
    """The summed reference n-gram counts per order."""
    matches: Tuple[int, ...]
    """The summed matched (clipped) n-gram counts per order."""

    @property
    def name(self) -> str:
        return metric_name(self.beta, self.word_order)


def score_stats(stats, *, char_order: int, word_order: int, beta=2, eps_smoothing: bool = False) -> ChrfScore:
    """chrF (0-1) of one statistics row, or of a matrix (items x columns) whose columns are summed first.

    Args:
        stats: ``[hyp_1, ref_1, match_1, ...]``, 3 integers per order, character orders first
            (`zheval.definitions.chrf`); or an items x columns matrix of such rows.
        char_order, word_order: the orders the statistics were counted with (their sum must match the width).
        beta: recall weight (default 2, sacrebleu's). eps_smoothing: sacrebleu's option (module docstring).

    Raises:
        ValueError: a malformed row, a width that is not ``3 * (char_order + word_order)``, bad options.
    """
    char_order, word_order, beta, eps_smoothing = check_chrf_options(char_order, word_order, beta, eps_smoothing)
    arr = np.asarray(stats)
    if arr.ndim == 2:
        arr = arr.sum(axis=0, dtype=np.int64) if arr.dtype.kind in "iub" else arr.sum(axis=0)
    if arr.ndim != 1:
        raise ValueError(f"chrF statistics must be a row or an items x columns matrix, got shape {np.shape(stats)}")
    orders = stats_orders(arr)
    if orders != char_order + word_order:
        raise ValueError(f"chrF statistics have {orders} orders but char_order + word_order = "
                         f"{char_order + word_order}")
    row: List[int] = [int(v) for v in arr.tolist()]
    hyp, ref, match = row[0::3], row[1::3], row[2::3]
    return ChrfScore(
        score=f_score(row, beta, eps_smoothing),
        char_order=char_order, word_order=word_order, beta=beta, eps_smoothing=eps_smoothing,
        precisions=tuple(m / h if h > 0 else 0.0 for m, h in zip(match, hyp)),
        recalls=tuple(m / r if r > 0 else 0.0 for m, r in zip(match, ref)),
        hyp_counts=tuple(hyp), ref_counts=tuple(ref), matches=tuple(match),
    )
