"""BLEU sufficient statistics and corpus / sentence scores on token sequences.

Pure functions: nothing here tokenises text or reads global state. Tokens are any hashable values
(``str`` tokens, or ``int`` ids after :mod:`zheval.tokenizers.corpus` maps them).

Sources followed
----------------
* Papineni, Roukos, Ward, Zhu (2002), "BLEU: a method for automatic evaluation of machine translation", ACL,
  section 2.1 (clipped n-gram precision against the maximum count over the references), 2.2 (corpus-level
  micro-averaging of the precision numerators and denominators), 2.2.2 (brevity penalty).
* sacrebleu 2.6.0 ``sacrebleu/metrics/bleu.py``: ``BLEU.compute_bleu`` (smoothing ``none``, ``floor``, ``add-k``,
  ``exp``; ``effective_order``; the early return of 0.0 when no n-gram matches at all; ``my_log``),
  ``BLEU._get_closest_ref_len`` (closest reference length, ties go to the shorter reference). The arithmetic of
  :func:`score_stats` for these four methods is the same sequence of float operations as sacrebleu's, done on
  sacrebleu's 0-100 scale and divided by 100 once at the end, so ``score == sacrebleu_score / 100`` holds bit for
  bit (the cross-check tests assert a difference of exactly 0), except for a score that float rounding pushes
  above 1 (sacrebleu: 100.00000000000004), which is clamped to 1.0.
* nltk 3.10 ``nltk/translate/bleu_score.py``: ``modified_precision`` (denominator ``max(1, total)``),
  ``SmoothingFunction.method3`` (Chen & Cherry 2014, method 3: the k-th order with zero matches gets precision
  ``1 / (2**k * denominator)``), ``brevity_penalty``, and the final ``bp * exp(fsum(w_i * log p_i))``. This is
  ``smooth_method="nltk3"``.

Statistics layout
-----------------
One item (a hypothesis with its references) is summarised by an integer row of width ``3 + 2 * max_order``::

    [hyp_len, closest_ref_len, shortest_ref_len, matches_1 .. matches_N, totals_1 .. totals_N]

* ``matches_n``: clipped n-gram matches, each hypothesis n-gram counted at most the maximum number of times it
  occurs in any single reference of the item (Papineni 2.1).
* ``totals_n``: number of n-grams in the hypothesis, ``max(0, hyp_len - n + 1)``.
* ``closest_ref_len``: length of the reference closest in length to the hypothesis, ties to the shorter one.
* ``shortest_ref_len``: length of the shortest reference.

Every column is additive: the statistics of a corpus, a shard, a subset or a bootstrap resample are the column
sums of its items' rows, and :func:`score_stats` scores any such sum. Corpus BLEU is therefore never an average of
per-item scores.

Scale: all scores and precisions returned here are on the 0-1 scale of the Hugging Face ``bleu`` module.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from itertools import repeat

try:  # the C helper behind Counter(iterable); same counts, without Counter's per-call overhead
    from collections import _count_elements
except ImportError:  # pragma: no cover - other Python implementations

    def _count_elements(mapping, iterable):
        get = mapping.get
        for elem in iterable:
            mapping[elem] = get(elem, 0) + 1
from typing import Hashable, List, Optional, Sequence, Tuple

import numpy as np


__all__ = [
    "SMOOTH_METHODS",
    "SMOOTH_DEFAULTS",
    "BP_REF_LENGTHS",
    "HYP_LEN",
    "CLOSEST_REF_LEN",
    "SHORTEST_REF_LEN",
    "N_LENGTH_COLUMNS",
    "BleuScore",
    "stats_width",
    "stats_max_order",
    "closest_ref_length",
    "ngram_counts",
    "item_stats",
    "corpus_stats",
    "sum_stats",
    "score_stats",
    "corpus_score",
    "sentence_scores",
    "corpus_bleu",
    "sentence_bleu",
    "validate_options",
    "check_max_order",
    "check_token_sequence",
    "check_references_list",
]

#: Valid ``smooth_method`` values. The first four are sacrebleu's (same semantics, same defaults), ``"nltk3"`` is
#: nltk's ``SmoothingFunction().method3``.
SMOOTH_METHODS: Tuple[str, ...] = ("none", "floor", "add-k", "exp", "nltk3")

#: Default ``smooth_value`` per method (sacrebleu's ``BLEU.SMOOTH_DEFAULTS``; ``None`` = takes no value).
SMOOTH_DEFAULTS = {"none": None, "floor": 0.1, "add-k": 1, "exp": None, "nltk3": None}

#: Valid ``bp_ref_length`` values: which reference length enters the brevity penalty.
BP_REF_LENGTHS: Tuple[str, ...] = ("closest", "shortest", "none")

#: Column indices of the length statistics in a statistics row.
HYP_LEN, CLOSEST_REF_LEN, SHORTEST_REF_LEN = 0, 1, 2
#: Number of length columns before the per-order matches.
N_LENGTH_COLUMNS = 3


def stats_width(max_order: int) -> int:
    """Width of one statistics row for ``max_order`` (an int >= 1): ``3 + 2 * max_order``."""
    check_max_order(max_order)
    return N_LENGTH_COLUMNS + 2 * max_order


def stats_max_order(stats) -> int:
    """The ``max_order`` a statistics row (1-D) or matrix (2-D, items x columns) was computed with.

    Raises ``ValueError`` if the width is not ``3 + 2 * N`` for some ``N >= 1``.
    """
    width = np.shape(stats)[-1] if np.ndim(stats) else 0
    order, rest = divmod(width - N_LENGTH_COLUMNS, 2)
    if rest or order < 1:
        raise ValueError(
            f"BLEU statistics must have 3 + 2 * max_order columns "
            f"[hyp_len, closest_ref_len, shortest_ref_len, matches_1..N, totals_1..N]; got width {width}"
        )
    return order


def check_max_order(max_order) -> None:
    """ValueError unless ``max_order`` is an int >= 1 (bool refused)."""
    if isinstance(max_order, bool) or not isinstance(max_order, (int, np.integer)) or max_order < 1:
        raise ValueError(f"max_order must be an int >= 1, got {max_order!r}")


# ----------------------------------------------------------------------------------------------------------------
# Per-item statistics
# ----------------------------------------------------------------------------------------------------------------


def closest_ref_length(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """Length of the reference closest in length to ``hyp_len``; on a tie the shorter reference wins.

    Same rule as sacrebleu 2.6.0 ``BLEU._get_closest_ref_len`` and nltk's ``closest_ref_length``.
    ``ref_lens`` must be non-empty (``ValueError`` otherwise).
    """
    if not ref_lens:
        raise ValueError("closest_ref_length needs at least one reference length")
    best = ref_lens[0]
    best_diff = abs(hyp_len - best)
    for r in ref_lens[1:]:
        d = abs(hyp_len - r)
        if d < best_diff or (d == best_diff and r < best):
            best, best_diff = r, d
    return best


def ngram_counts(tokens: Sequence[Hashable], n: int) -> Counter:
    """Counter of the n-grams of order ``n`` in ``tokens``.

    Keys are the tokens themselves for ``n == 1`` and tuples of ``n`` tokens for ``n >= 2`` (each order is kept in
    its own Counter, so the two kinds of keys never meet). A sequence shorter than ``n`` gives an empty Counter.
    """
    if n == 1:
        return Counter(tokens)
    return Counter(zip(*[tokens[i:] for i in range(n)]))


def check_token_sequence(tokens, what: str):
    """``tokens`` as a list/tuple of tokens; TypeError naming ``what`` for a str, bytes or None (a text, not tokens)."""
    if isinstance(tokens, (list, tuple)):
        return tokens
    if isinstance(tokens, (str, bytes)):
        raise TypeError(
            f"{what}: expected a sequence of tokens, got a {type(tokens).__name__}; tokenise the text first "
            f"(zheval.definitions.bleu never tokenises)"
        )
    if tokens is None:
        raise TypeError(f"{what}: expected a sequence of tokens, got None")
    try:
        return list(tokens)
    except TypeError:
        raise TypeError(f"{what}: expected a sequence of tokens, got {type(tokens).__name__}") from None


def item_stats(hypothesis: Sequence[Hashable], references: Sequence[Sequence[Hashable]], max_order: int = 4) -> List[int]:
    """Sufficient BLEU statistics of one item.

    Args:
        hypothesis: the hypothesis tokens (any hashables; may be empty).
        references: one or more reference token sequences (ragged; each may be empty, at least one is required).
        max_order: highest n-gram order N (>= 1).

    Returns:
        A list of ``3 + 2 * max_order`` Python ints laid out as described in the module docstring.

    Raises:
        ValueError: no reference, or a bad ``max_order``. TypeError: a str/None given instead of a token sequence.
    """
    check_max_order(max_order)
    row = _item_stats(check_token_sequence(hypothesis, "hypothesis"), check_references_list(references, None), max_order)
    return row


def check_references_list(references, index: Optional[int]):
    """``references`` as a non-empty list of token sequences (each checked by :func:`check_token_sequence`).

    Raises:
        TypeError: a str/None instead of a list; ValueError: an empty list (both name item ``index`` if given)."""
    where = "" if index is None else f"item {index}: "
    if isinstance(references, (str, bytes)) or references is None:
        raise TypeError(f"{where}references must be a list of token sequences, got {type(references).__name__}")
    refs = list(references)
    if not refs:
        raise ValueError(f"{where}empty reference list; every item needs at least one reference")
    for j, r in enumerate(refs):
        refs[j] = check_token_sequence(r, f"{where}reference {j}")
    return refs


def _item_stats(hyp, refs, max_order: int) -> List[int]:
    # Hot loop: kept free of validation. hyp: list/tuple; refs: non-empty list of lists/tuples.
    # n-grams are counted into plain dicts by collections' C helper (no Counter.__init__/update overhead); only the
    # hypothesis n-grams are looked up in the references (Papineni 2.1: clip to the max count over references).
    hyp_len = len(hyp)
    matches = [0] * max_order
    totals = [0] * max_order
    nref = len(refs)
    if nref == 1:
        ref = refs[0]
        closest = shortest = len(ref)
    else:
        ref_lens = [len(r) for r in refs]
        closest = closest_ref_length(hyp_len, ref_lens)
        shortest = min(ref_lens)
    for n in range(1, max_order + 1):
        t = hyp_len - n + 1
        if t <= 0:
            break
        totals[n - 1] = t
        h: dict = {}
        _count_elements(h, hyp if n == 1 else zip(*[hyp[i:] for i in range(n)]))
        if nref == 1:
            r: dict = {}
            _count_elements(r, ref if n == 1 else zip(*[ref[i:] for i in range(n)]))
            m = sum(map(min, h.values(), map(r.get, h, repeat(0))))
        else:
            lookups = []
            for ref in refs:
                r = {}
                _count_elements(r, ref if n == 1 else zip(*[ref[i:] for i in range(n)]))
                lookups.append(map(r.get, h, repeat(0)))
            m = sum(map(min, h.values(), map(max, *lookups)))
        if m == 0:
            # no n-gram of this order matches, so no longer one can (its prefix would match): the rest stay 0
            for k in range(n + 1, max_order + 1):
                tk = hyp_len - k + 1
                if tk <= 0:
                    break
                totals[k - 1] = tk
            break
        matches[n - 1] = m
    return [hyp_len, closest, shortest] + matches + totals


def corpus_stats(
    hypotheses: Sequence[Sequence[Hashable]],
    references: Sequence[Sequence[Sequence[Hashable]]],
    max_order: int = 4,
) -> np.ndarray:
    """Per-item statistics of a corpus: :func:`item_stats` of every item, stacked into an ``int64`` matrix of shape
    ``(len(hypotheses), 3 + 2 * max_order)`` -- the reference semantics; its corpus-at-once twin is
    :func:`zheval.fast.bleu.corpus_stats`.

    Args:
        hypotheses: one token sequence per item; references: one non-empty list of reference token sequences per
            item (ragged); max_order: highest n-gram order (>= 1).

    Raises:
        ValueError: different numbers of hypotheses and reference lists, an item without references (naming the
            item index), a bad ``max_order``. TypeError: a str/None where a token sequence is expected.
    """
    check_max_order(max_order)
    if isinstance(hypotheses, (str, bytes)) or isinstance(references, (str, bytes)):
        raise TypeError("hypotheses and references must be sequences, not strings")
    hypotheses, references = list(hypotheses), list(references)
    if len(hypotheses) != len(references):
        raise ValueError(
            f"got {len(hypotheses)} hypotheses but {len(references)} reference lists; "
            f"references must hold one list of references per hypothesis"
        )
    rows = [_item_stats(check_token_sequence(h, f"item {i}: hypothesis"), check_references_list(r, i), max_order)
            for i, (h, r) in enumerate(zip(hypotheses, references))]
    return np.array(rows, dtype=np.int64).reshape(len(rows), N_LENGTH_COLUMNS + 2 * max_order)


def sum_stats(stats) -> np.ndarray:
    """Column sums of a statistics matrix (items x columns) -> one ``int64`` row; a 1-D row is returned as is.

    An empty matrix sums to a row of zeros (which :func:`score_stats` scores 0.0).
    """
    arr = np.asarray(stats)
    if arr.ndim == 1:
        stats_max_order(arr)
        return arr
    if arr.ndim != 2:
        raise ValueError(f"BLEU statistics must be a row or an items x columns matrix, got shape {arr.shape}")
    stats_max_order(arr)
    return arr.sum(axis=0, dtype=np.int64) if arr.dtype.kind in "iub" else arr.sum(axis=0)


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
    weights that are not ``max_order`` finite non-negative numbers with a positive sum.
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
        try:
            weights = tuple(float(w) for w in weights)
        except (TypeError, ValueError):
            raise TypeError(f"weights must be a sequence of numbers, got {weights!r}") from None
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
    closest_len = int(vals[CLOSEST_REF_LEN])
    shortest_len = int(vals[SHORTEST_REF_LEN])
    counts = tuple(int(v) for v in vals[N_LENGTH_COLUMNS:N_LENGTH_COLUMNS + order])
    totals = tuple(int(v) for v in vals[N_LENGTH_COLUMNS + order:])
    ref_len = shortest_len if bp_ref_length == "shortest" else closest_len

    # brevity penalty: sacrebleu's expression (nltk's is the same except bp=0 for an empty hypothesis, a case
    # that always scores 0 anyway because there are no matches)
    bp = 1.0
    if bp_ref_length != "none" and hyp_len < ref_len:
        bp = math.exp(1 - ref_len / hyp_len) if hyp_len > 0 else 0.0
    length_ratio = hyp_len / ref_len if ref_len else 0.0

    def result(score, precisions, order_used):
        if score > 1.0 and all(p <= 1.0 for p in precisions):
            # Mathematically <= 1 (every precision and the BP are <= 1); the excess is float rounding, e.g.
            # sacrebleu's exp(log(100.0)) = 100.00000000000004 for a perfect match. Clamp to 1.0 -- the only
            # place where score differs from sacrebleu_score / 100, by at most a few ulps.
            score = 1.0
        return BleuScore(
            score=score,
            precisions=tuple(precisions),
            brevity_penalty=bp,
            length_ratio=length_ratio,
            hyp_len=hyp_len,
            ref_len=ref_len,
            counts=counts,
            totals=totals,
            order_used=order_used,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            bp_ref_length=bp_ref_length,
            effective_order=bool(effective_order),
            weights=weights,
        )

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
            return result(0.0, precisions, order_used)
        s = math.fsum(w * math.log(p) for w, p in zip(ws, precisions) if p > 0)
        return result(bp * math.exp(s), precisions, order_used)

    # sacrebleu.metrics.bleu.BLEU.compute_bleu, step by step. Its effective order is the last order reached
    # before a zero total; add-k adds k to the totals of orders >= 2 first, so with k > 0 it never stops early.
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
    order_used = eff

    if weights is None:
        if order_used == 0:
            return result(0.0, unit, order_used)
        logs = [_my_log(p) for p in p100[:order_used]]
        if any(p == 0.0 for p in p100[:order_used]):
            # sacrebleu: my_log(0) = -9999999999 -> exp(...) underflows to exactly 0.0
            return result(0.0, unit, order_used)
        score100 = bp * math.exp(sum(logs) / order_used)
        return result(score100 / 100.0, unit, order_used)

    ws = weights if order_used == order else _renormalise(weights[:order_used])
    if not ws or any(p == 0.0 and w > 0 for p, w in zip(unit, ws)):
        return result(0.0, unit, order_used)
    s = math.fsum(w * math.log(p) for w, p in zip(ws, unit) if w > 0)
    return result(bp * math.exp(s), unit, order_used)


def _renormalise(ws: Sequence[float]) -> Tuple[float, ...]:
    total = sum(ws)
    if total <= 0:
        return ()
    return tuple(w / total for w in ws)


def corpus_score(stats, **options) -> BleuScore:
    """Corpus BLEU from a per-item statistics matrix: :func:`score_stats` of the column sums (Papineni 2.2).

    ``options`` are those of :func:`score_stats`. Any subset / shard / resample of rows is scored the same way.
    """
    return score_stats(sum_stats(stats), **options)


def sentence_scores(stats, **options) -> List[BleuScore]:
    """Score every row of a statistics matrix alone (sentence BLEU); ``options`` as in :func:`score_stats`.

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
    """Convenience: BLEU (0-1) of one tokenised hypothesis; ``options`` as :func:`score_stats`, with sacrebleu's
    ``sentence_bleu`` defaults (``smooth_method="exp"``, ``effective_order=True``)."""
    return score_stats(item_stats(hypothesis, references, max_order), **{"effective_order": True, **options})