"""BLEU scores from sufficient statistics: smoothing, the brevity penalty and the geometric mean -- THE scoring rule
of every BLEU number zheval reports (`score_stats`), on the statistics of `zheval.definitions.bleu`.

Pure functions: nothing here tokenises text or reads global state. Sources: Papineni, Roukos, Ward, Zhu (2002),
section 2.2.2 (the brevity penalty ``BP = exp(1 - r / c)`` for ``c < r``, else 1) and 2.3 (the geometric mean of
the modified precisions); sacrebleu 2.6.0 ``BLEU.compute_bleu`` (smoothing ``none``, ``floor``, ``add-k``, ``exp``,
``effective_order``, ``my_log``) and nltk 3.10 ``SmoothingFunction.method3`` (``nltk3``): see
`zheval.definitions.bleu` for the exact equivalences. Scale: 0-1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Set as AbstractSet
from dataclasses import dataclass, field
from typing import Hashable, List, Optional, Sequence, Tuple

import numpy as np

from .bleu import (CLOSEST_REF_LEN, HYP_LEN, N_LENGTH_COLUMNS, SHORTEST_REF_LEN, corpus_stats, item_stats,
                   stats_max_order, sum_stats)

__all__ = [
    "SMOOTH_METHODS",
    "SMOOTH_DEFAULTS",
    "BP_REF_LENGTHS",
    "BleuScore",
    "validate_options",
    "score_stats",
    "corpus_score",
    "sentence_scores",
    "corpus_bleu",
    "sentence_bleu",
]

#: Valid ``smooth_method`` values. The first four are sacrebleu's (same semantics, same defaults), ``"nltk3"`` is
#: nltk's ``SmoothingFunction().method3``.
SMOOTH_METHODS: Tuple[str, ...] = ("none", "floor", "add-k", "exp", "nltk3")

#: Default ``smooth_value`` per method (sacrebleu's ``BLEU.SMOOTH_DEFAULTS``; ``None`` = takes no value).
SMOOTH_DEFAULTS = {"none": None, "floor": 0.1, "add-k": 1, "exp": None, "nltk3": None}

#: Valid ``bp_ref_length`` values: which reference length enters the brevity penalty.
BP_REF_LENGTHS: Tuple[str, ...] = ("closest", "shortest", "none")


# ----------------------------------------------------------------------------------------------------------------
# Scoring
# ----------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BleuScore:
    """A BLEU score with the quantities it was computed from (all on the 0-1 scale).

    Attributes:
        score: BLEU in [0, 1].
        precisions: per-order precisions after smoothing, in [0, 1] (only a "floor" smooth_value larger than an
            order's n-gram total can push one above 1).
        brevity_penalty: in [0, 1]; 1.0 when ``bp_ref_length="none"``.
        length_ratio: ``hyp_len / ref_len`` (0.0 when ``ref_len == 0``, as sacrebleu).
        hyp_len: total hypothesis length in tokens.
        ref_len: total reference length used for the brevity penalty (the closest-length sum for ``"closest"``
            and ``"none"``, the shortest-length sum for ``"shortest"``).
        counts: clipped n-gram matches per order (before any smoothing).
        totals: hypothesis n-grams per order (before any smoothing).
        order_used: number of orders that entered the geometric mean (``max_order`` unless ``effective_order``).
        smooth_method, smooth_value, bp_ref_length, effective_order: the options used (smooth_value resolved).
    """

    score: float
    precisions: Tuple[float, ...]
    brevity_penalty: float
    length_ratio: float
    hyp_len: int
    ref_len: int
    counts: Tuple[int, ...]
    totals: Tuple[int, ...]
    order_used: int
    smooth_method: str
    smooth_value: Optional[float]
    bp_ref_length: str
    effective_order: bool
    weights: Optional[Tuple[float, ...]] = field(default=None)

    def as_dict(self) -> dict:
        """Keys of the Hugging Face ``bleu`` module (``bleu``, ``precisions``, ``brevity_penalty``,
        ``length_ratio``, ``translation_length``, ``reference_length``) plus ``counts`` and ``totals``."""
        return {
            "bleu": self.score,
            "precisions": list(self.precisions),
            "brevity_penalty": self.brevity_penalty,
            "length_ratio": self.length_ratio,
            "translation_length": self.hyp_len,
            "reference_length": self.ref_len,
            "counts": list(self.counts),
            "totals": list(self.totals),
        }


def validate_options(
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    bp_ref_length: str = "closest",
    weights: Optional[Sequence[float]] = None,
    max_order: Optional[int] = None,
) -> Tuple[Optional[float], Optional[Tuple[float, ...]]]:
    """Check scoring options; return ``(resolved smooth_value, weights as a tuple or None)``.

    Raises ``ValueError`` listing the valid values for an unknown ``smooth_method`` / ``bp_ref_length``, for a
    ``smooth_value`` given to a method that takes none (``none``, ``exp``, ``nltk3``) or that is negative, and for
    weights that are not ``max_order`` finite non-negative numbers with a positive sum; ``TypeError`` for weights
    that are not a sequence of numbers (a str, a mapping -- iterating it gives its keys -- or a set -- unordered --, or
    an entry that is a str or a bool, named by its position ``weights[i]``: ``"0.25"`` would be converted and
    ``True`` would count as 1, silently).
    """
    if smooth_method not in SMOOTH_METHODS:
        raise ValueError(f"unknown smooth_method {smooth_method!r}; valid values: {', '.join(SMOOTH_METHODS)}")
    if bp_ref_length not in BP_REF_LENGTHS:
        raise ValueError(f"unknown bp_ref_length {bp_ref_length!r}; valid values: {', '.join(BP_REF_LENGTHS)}")
    default = SMOOTH_DEFAULTS[smooth_method]
    if smooth_value is None:
        smooth_value = default
    elif default is None:
        raise ValueError(
            f"smooth_value applies only to smooth_method 'floor' and 'add-k', not {smooth_method!r}"
        )
    else:
        if isinstance(smooth_value, bool) or not isinstance(smooth_value, (int, float, np.integer, np.floating)):
            raise TypeError(f"smooth_value must be a number, got {type(smooth_value).__name__}")
        if not math.isfinite(smooth_value) or smooth_value < 0:
            raise ValueError(f"smooth_value must be a finite number >= 0, got {smooth_value!r}")
    if weights is not None:
        if isinstance(weights, (str, bytes)) or not hasattr(weights, "__iter__"):
            raise TypeError(f"weights must be a sequence of numbers, got {type(weights).__name__} {weights!r}")
        if isinstance(weights, Mapping):  # iterating it would give its keys: {1: .25, ...} read as weights 1, 2, ...
            raise TypeError(f"weights is a {type(weights).__name__} (a mapping: iterating it would use its keys, "
                            f"{list(weights)[:4]!r}, as the weights); pass a list of max_order numbers")
        if isinstance(weights, AbstractSet):
            raise TypeError(f"weights is a {type(weights).__name__} (unordered: which weight goes with which n-gram "
                            "order would be arbitrary); pass a list of max_order numbers")
        weights = list(weights)
        for i, w in enumerate(weights):  # a str would be converted, a bool would count as 1/0: both refused
            if isinstance(w, (bool, np.bool_)) or not isinstance(w, (int, float, np.integer, np.floating)):
                raise TypeError(f"weights[{i}] must be a number, got {type(w).__name__} {w!r}")
        weights = tuple(float(w) for w in weights)
        if max_order is not None and len(weights) != max_order:
            raise ValueError(f"weights has {len(weights)} entries but max_order is {max_order}")
        if not weights or any(not math.isfinite(w) or w < 0 for w in weights) or sum(weights) <= 0:
            raise ValueError(f"weights must be finite, >= 0 and sum to > 0, got {weights!r}")
    return smooth_value, weights


def _my_log(x: float) -> float:
    # sacrebleu.utils.my_log: log(0) floored to -9999999999
    return -9999999999 if x == 0.0 else math.log(x)


def score_stats(
    stats,
    *,
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    effective_order: bool = False,
    bp_ref_length: str = "closest",
    weights: Optional[Sequence[float]] = None,
) -> BleuScore:
    """BLEU (0-1) from one statistics row, or from a matrix whose columns are summed first.

    Args:
        stats: a row ``[hyp_len, closest_ref_len, shortest_ref_len, matches_1..N, totals_1..N]`` (summed over
            the items to score) or an items x columns matrix of such rows.
        smooth_method: ``"none"``, ``"floor"``, ``"add-k"``, ``"exp"`` -- sacrebleu 2.6.0 ``BLEU.compute_bleu``
            (floor: a zero-match order gets ``smooth_value / total``; add-k: orders >= 2 get ``(m+k)/(t+k)``;
            exp: the k-th zero-match order gets ``1 / (2**k * total)``), or ``"nltk3"`` -- nltk
            ``SmoothingFunction().method3`` with nltk's ``max(1, total)`` denominators.
        smooth_value: for ``floor`` (default 0.1) and ``add-k`` (default 1) only.
        effective_order: sacrebleu's ``effective_order``: the geometric mean runs over the leading orders that
            have at least one hypothesis n-gram (``totals_n > 0``), not over all N (with ``add-k`` and k > 0,
            sacrebleu adds k to the totals of orders >= 2 before this test, so every order counts).
        bp_ref_length: reference length for the brevity penalty: ``"closest"`` (Papineni, sacrebleu, nltk),
            ``"shortest"``, or ``"none"`` (brevity penalty fixed at 1.0).
        weights: optional per-order weights (N finite non-negative numbers, positive sum); default uniform. With
            ``effective_order`` the first ``order_used`` weights are renormalised to sum to 1. An order whose
            precision is 0 and whose weight is 0 is skipped; with a positive weight it makes the score 0.

    Semantics shared with sacrebleu: if no n-gram of any order matches, the score is 0.0 whatever the smoothing
    (sacrebleu #141; nltk returns 0 too). Without ``effective_order``, an order with no hypothesis n-grams
    (``totals_n == 0``, e.g. a 2-token corpus at order 3) has precision 0 and the score is 0.0 under every
    sacrebleu smoothing method. ``nltk3`` instead gives such an order ``1 / 2**k`` (nltk's denominator is
    ``max(1, total)``).

    With uniform weights the four sacrebleu methods use sacrebleu's exact arithmetic (0-100 precisions,
    ``bp * exp(sum(log p) / order)``, then / 100); ``nltk3`` uses nltk's (``bp * exp(fsum(w * log p))``). So the
    results equal ``sacrebleu.metrics.BLEU(...).corpus_score(...).score / 100`` and nltk's ``corpus_bleu`` /
    ``sentence_bleu`` bit for bit on the same statistics -- except that a value above 1.0 caused only by float
    rounding (sacrebleu reports 100.00000000000004 for some perfect matches) is returned as 1.0 (nltk's corpus denominators differ, see ``nltk3`` in the
    README). No input makes this function divide by zero.

    Raises:
        ValueError: unknown option values (message lists the valid ones), a malformed statistics row, or
            weights of the wrong length.
    """
    row = sum_stats(stats)
    order = stats_max_order(row)
    smooth_value, weights = validate_options(smooth_method, smooth_value, bp_ref_length, weights, order)
    vals = [v.item() if hasattr(v, "item") else v for v in row]
    hyp_len = int(vals[HYP_LEN])
    ref_len = int(vals[SHORTEST_REF_LEN]) if bp_ref_length == "shortest" else int(vals[CLOSEST_REF_LEN])
    counts = tuple(int(v) for v in vals[N_LENGTH_COLUMNS:N_LENGTH_COLUMNS + order])
    totals = tuple(int(v) for v in vals[N_LENGTH_COLUMNS + order:])

    # brevity penalty: sacrebleu's expression (nltk's is the same except bp=0 for an empty hypothesis, a case
    # that always scores 0 anyway because there are no matches)
    bp = 1.0
    if bp_ref_length != "none" and hyp_len < ref_len:
        bp = math.exp(1 - ref_len / hyp_len) if hyp_len > 0 else 0.0

    def result(score, precisions, order_used):
        if score > 1.0 and all(p <= 1.0 for p in precisions):
            # Mathematically <= 1 (every precision and the BP are <= 1); the excess is float rounding, e.g.
            # sacrebleu's exp(log(100.0)) = 100.00000000000004 for a perfect match. Clamp to 1.0 -- the only
            # place where score differs from sacrebleu_score / 100, by at most a few ulps.
            score = 1.0
        return BleuScore(score=score, precisions=tuple(precisions), brevity_penalty=bp,
                         length_ratio=hyp_len / ref_len if ref_len else 0.0, hyp_len=hyp_len, ref_len=ref_len,
                         counts=counts, totals=totals, order_used=order_used, smooth_method=smooth_method,
                         smooth_value=smooth_value, bp_ref_length=bp_ref_length,
                         effective_order=bool(effective_order), weights=weights)

    # leading orders with at least one hypothesis n-gram (sacrebleu's effective order)
    n_eff = 0
    for t in totals:
        if t == 0:
            break
        n_eff += 1
    order_used = n_eff if effective_order else order
    if not any(counts):
        # sacrebleu: early return 0.0 with all precisions 0 (#141); nltk: returns 0 when no unigram matches
        return result(0.0, [0.0] * order, order_used)
    if smooth_method == "nltk3":
        return result(*_nltk3_score(counts, totals, bp, weights, order, order_used), order_used)
    unit, p100, order_used = _sacrebleu_precisions(counts, totals, smooth_method, smooth_value, effective_order,
                                                   order)
    return result(_sacrebleu_score(unit, p100, bp, weights, order, order_used), unit, order_used)


def _nltk3_score(counts, totals, bp: float, weights, order: int, order_used: int) -> tuple:
    """``(score, precisions)`` under nltk's ``SmoothingFunction().method3`` (denominators ``max(1, total)``; the
    k-th zero-match order gets ``1 / (2**k * total)``; nltk's ``bp * exp(fsum(w * log p))``)."""
    precisions = []
    k = 1
    for m, t in zip(counts, totals):
        d = max(1, t)
        if m == 0:
            precisions.append(1 / (2 ** k * d))
            k += 1
        else:
            precisions.append(m / d)
    ws = weights if weights is not None else (1 / order,) * order
    if order_used < order:
        ws = _renormalise(ws[:order_used])
    if any(p == 0.0 and w > 0 for p, w in zip(precisions, ws)):
        return 0.0, precisions
    s = math.fsum(w * math.log(p) for w, p in zip(ws, precisions) if p > 0)
    return bp * math.exp(s), precisions


def _sacrebleu_precisions(counts, totals, smooth_method: str, smooth_value, effective_order: bool,
                          order: int) -> tuple:
    """``(precisions 0-1, precisions 0-100, order used)``: sacrebleu.metrics.bleu.BLEU.compute_bleu, step by step.
    Its effective order is the last order reached before a zero total; add-k adds k to the totals of orders >= 2
    first, so with k > 0 it never stops early."""
    p100 = [0.0] * order
    unit = [0.0] * order
    smooth_mteval = 1.0
    eff = order
    for n in range(1, order + 1):
        m, t = counts[n - 1], totals[n - 1]
        if smooth_method == "add-k" and n > 1:
            m += smooth_value
            t += smooth_value
        if t == 0:
            break
        if effective_order:
            eff = n
        if m == 0:
            if smooth_method == "exp":
                smooth_mteval *= 2
                p100[n - 1] = 100.0 / (smooth_mteval * t)
                unit[n - 1] = 1.0 / (smooth_mteval * t)
            elif smooth_method == "floor":
                p100[n - 1] = 100.0 * smooth_value / t
                unit[n - 1] = smooth_value / t
        else:
            p100[n - 1] = 100.0 * m / t
            unit[n - 1] = m / t
    return unit, p100, eff


def _sacrebleu_score(unit, p100, bp: float, weights, order: int, order_used: int) -> float:
    """The score of sacrebleu's precisions: uniform weights with sacrebleu's arithmetic (``bp * exp(sum(log p100) /
    order)`` / 100; ``my_log(0)`` underflows to exactly 0.0), other weights with nltk's (``fsum(w * log p)``)."""
    if weights is None:
        if order_used == 0 or any(p == 0.0 for p in p100[:order_used]):
            return 0.0
        logs = [_my_log(p) for p in p100[:order_used]]
        return bp * math.exp(sum(logs) / order_used) / 100.0
    ws = weights if order_used == order else _renormalise(weights[:order_used])
    if not ws or any(p == 0.0 and w > 0 for p, w in zip(unit, ws)):
        return 0.0
    return bp * math.exp(math.fsum(w * math.log(p) for w, p in zip(ws, unit) if w > 0))


def _renormalise(ws: Sequence[float]) -> Tuple[float, ...]:
    total = sum(ws)
    if total <= 0:
        return ()
    return tuple(w / total for w in ws)


def corpus_score(stats, **options) -> BleuScore:
    """Corpus BLEU from a per-item statistics matrix: `score_stats` of the column sums (Papineni 2.2).

    ``options`` are those of `score_stats`. Any subset / shard / resample of rows is scored the same way.
    """
    return score_stats(sum_stats(stats), **options)


def sentence_scores(stats, **options) -> List[BleuScore]:
    """Score every row of a statistics matrix alone (sentence BLEU); ``options`` as in `score_stats`.

    Callers wanting sacrebleu's ``sentence_bleu`` pass ``effective_order=True`` (its default there).
    """
    arr = np.asarray(stats)
    if arr.ndim != 2:
        raise ValueError(f"sentence_scores needs an items x columns matrix, got shape {arr.shape}")
    stats_max_order(arr)
    return [score_stats(row, **options) for row in arr.tolist()]


def corpus_bleu(
    hypotheses: Sequence[Sequence[Hashable]],
    references: Sequence[Sequence[Sequence[Hashable]]],
    max_order: int = 4,
    **options,
) -> BleuScore:
    """Convenience: corpus BLEU (0-1) of tokenised hypotheses against ragged lists of tokenised references.

    Equivalent to ``corpus_score(corpus_stats(hypotheses, references, max_order), **options)``; defaults as
    sacrebleu's ``corpus_bleu`` (``smooth_method="exp"``, no effective order, closest reference length).
    """
    return corpus_score(corpus_stats(hypotheses, references, max_order), **options)


def sentence_bleu(
    hypothesis: Sequence[Hashable],
    references: Sequence[Sequence[Hashable]],
    max_order: int = 4,
    **options,
) -> BleuScore:
    """Convenience: BLEU (0-1) of one tokenised hypothesis; ``options`` as `score_stats`, with sacrebleu's
    ``sentence_bleu`` defaults (``smooth_method="exp"``, ``effective_order=True``)."""
    return score_stats(item_stats(hypothesis, references, max_order), **{"effective_order": True, **options})