"""ROUGE-N, L, Lsum, W, S and SU on token sequences (pure functions).

Everything here works on already tokenised text: a *text* is a list of tokens (any hashables, ``str`` or ``int``
ids); a *sentence-split text* is a list of such lists. Nothing tokenises, normalises or reads global state. All
scores are on the 0-1 scale.

Sources followed
    Chin-Yew Lin (2004), "ROUGE: A Package for Automatic Evaluation of Summaries", Text Summarization Branches Out
    (WAS 2004): section 2 (ROUGE-N), 3.1-3.2 (ROUGE-L, sentence and summary level), 3.3 (ROUGE-W), 4 (ROUGE-S,
    ROUGE-SU). Where the paper leaves a choice open (clipping, tie-breaking, empty inputs) we follow rouge-score
    0.1.2 (``rouge_score/rouge_scorer.py``) so that ``rouge1..9``, ``rougeL`` and ``rougeLsum`` are bit-identical to
    ``RougeScorer(...).score(target, prediction)`` fed the same tokens.

Precision, recall and F
    For each ROUGE type a (prediction, reference) pair gives sufficient statistics ``(hit, ref_total, hyp_total)``;
    ``P = hit / hyp_total``, ``R = hit / ref_total`` (0 when the total is 0), and::

        F_beta = (1 + beta**2) * P * R / (R + beta**2 * P)        (Lin 2004, eq. for F_lcs; 0 if P = R = 0)

    With beta = 1 this is computed as ``2 * P * R / (P + R)``, exactly rouge-score's ``scoring.fmeasure``.
    ROUGE-1.5.5 instead takes ``alpha`` (``-p``, default 0.5): ``F = P*R / ((1-alpha)*P + alpha*R)``, the same
    family with ``alpha = 1 / (1 + beta**2)``, i.e. ``beta**2 = (1 - alpha) / alpha``; ``-p 0.5`` is ``beta = 1``.
    alpha -> 1 (beta -> 0) weighs precision, alpha -> 0 (beta -> inf) weighs recall.

Multiple references (``multi_ref``)
    * ``"max"`` (default): per ROUGE type, the reference whose F is highest; ties go to the first reference
      (rouge-score ``RougeScorer.score_multi``: ``np.argmax`` over F). F never depends on reference order; P and R
      can, but only between references with exactly equal F.
    * ``"mean"``: the mean of the per-reference P, R and F (each averaged separately; ``math.fsum``, so the result
      does not depend on reference order).
    * ``"pool"``: ROUGE-1.5.5 ``-f A`` ("model average"): hits and reference totals summed over the k references,
      ``R = sum(hit) / sum(ref_total)``, ``P = sum(hit) / (k * hyp_total)``. For ROUGE-W the sums are taken of the
      weighted quantities before f^-1 is applied.
    * ``"best_recall"``: ROUGE-1.5.5 ``-f B``: the reference with the highest recall; ties go to the first
      reference (the only documented reference-order dependence).

Empty input
    Empty texts, texts whose sentences are all empty and n-grams longer than the text all give
    ``Score(0.0, 0.0, 0.0)``; nothing raises. Only an empty *list of references* is an error (ambiguous).
"""

from __future__ import annotations

import math
import numbers
from collections import Counter
from typing import Callable, Dict, Hashable, Iterable, NamedTuple, Optional, Sequence, Tuple

from zheval.definitions.union_lcs import PackedReference, union_lcs_tokens
from zheval.definitions.lcs import lcs_length, lcs_length_masks, match_masks, wlcs, wlcs_f
from zheval.definitions.orders import check_beta
from zheval.definitions.rouge_types import RougeType, parse_rouge_type
from zheval.io.lists import split_entries

__all__ = [
    "Score",
    "MULTI_REF_MODES",
    "f_measure",
    "ngram_counts",
    "skip_bigram_counts",
    "clipped_overlap",
    "summary_level_lcs_hits",
    "summary_and_text_lcs_hits",
    "rouge_n",
    "rouge_l",
    "rouge_lsum",
    "rouge_w",
    "rouge_s",
    "rouge_su",
    "score_from_stats",
    "combine_references",
    "check_scorer_options",
    "check_rouge_w_weight_value",
    "WLCS_ROUNDING",
    "make_item_scorer",
    "score_item",
]

Token = Hashable
Text = Sequence[Token]
Sentences = Sequence[Sequence[Token]]
Stats = Tuple[float, float, float]  # (hit, ref_total, hyp_total)

MULTI_REF_MODES = ("max", "mean", "pool", "best_recall")

class Score(NamedTuple):
    """Precision, recall and F-measure of one ROUGE type, each a float in [0, 1] (rouge-score's ``Score``)."""

    precision: float
    recall: float
    fmeasure: float


def f_measure(precision: float, recall: float, beta: float = 1.0) -> float:
    """F-measure of Lin (2004): ``(1 + beta**2) * P * R / (R + beta**2 * P)``; 0.0 when the denominator is 0.

    With ``beta == 1`` it is evaluated as ``2 * P * R / (P + R)``, bit-identical to rouge-score 0.1.2
    ``scoring.fmeasure``. ROUGE-1.5.5's ``-p alpha`` corresponds to ``beta = sqrt((1 - alpha) / alpha)``.

    Args:
        precision, recall: floats in [0, 1].
        beta: >= 0; beta < 1 favours precision, beta > 1 recall.
    Returns:
        float in [0, 1].
    """
    if beta == 1.0:
        s = precision + recall
        return 2 * precision * recall / s if s > 0 else 0.0
    b2 = beta * beta
    d = recall + b2 * precision
    return (1 + b2) * precision * recall / d if d > 0 else 0.0




# ----------------------------------------------------------------------------------------------------------------
# Counting units


def ngram_counts(tokens: Text, n: int) -> Counter:
    """Multiset of the n-grams of ``tokens`` (Lin 2004, section 2).

    For n == 1 the keys are the tokens themselves; for n >= 2 they are n-tuples. A text shorter than n has no
    n-grams (empty Counter).
    """
    if n == 1:
        return Counter(tokens)
    if len(tokens) < n:
        return Counter()
    return Counter(zip(*[tokens[i:] for i in range(n)]))


def skip_bigram_counts(tokens: Text, skip: Optional[int]) -> Counter:
    """Multiset of skip-bigrams ``(tokens[i], tokens[j])`` with ``i < j <= i + skip + 1`` (Lin 2004, section 4).

    ``skip=None`` means no distance limit (all C(n, 2) ordered pairs). ``skip=0`` gives plain bigrams. This is
    ROUGE-1.5.5 ``createSkipBigram`` with ``-2 skip`` (``-2 -1`` = unlimited).
    """
    n = len(tokens)
    c: Counter = Counter()
    if n < 2:
        return c
    max_gap = n - 1 if skip is None else min(n - 1, skip + 1)
    for gap in range(1, max_gap + 1):
        c.update(zip(tokens, tokens[gap:]))
    return c


def clipped_overlap(a: Counter, b: Counter) -> int:
    """Sum over keys of ``min(a[k], b[k])``: clipped co-occurrence count (ROUGE-1.5.5 ``ngramScore``)."""
    if len(a) > len(b):
        a, b = b, a
    get = b.get
    hit = 0
    for k, ca in a.items():
        cb = get(k)
        if cb:
            hit += ca if ca < cb else cb
    return hit


def summary_level_lcs_hits(ref_sents: Sentences, can_sents: Sentences) -> int:
    """Clipped union-LCS hit count of Lin (2004) section 3.2, exactly as rouge-score 0.1.2 ``_summary_level_lcs``.

    For each reference sentence r_i, the union of the reference positions of one LCS (chosen as in
    `zheval.definitions.lcs.lcs_ref_positions`) with every candidate sentence is taken; walking those positions in order,
    a token counts as a hit only while its remaining count is positive in both the whole reference and the whole
    candidate, and each hit decrements both counts (ROUGE-1.5.5 ``lcs`` clipping; prevents double counting).
    Computed as ``sum over tokens t of min(#union positions holding t, count of t in the candidate)`` -- the same
    number -- with the unions from `zheval.definitions.lcs.union_lcs_tokens` (packed bit-parallel columns).

    Args:
        ref_sents: reference sentences (lists of tokens).
        can_sents: candidate sentences.
    Returns:
        int hits, in [0, min(total ref tokens, total candidate tokens)].
    """
    return summary_and_text_lcs_hits(ref_sents, can_sents)[0]


def summary_and_text_lcs_hits(
    ref_sents: Sentences, can_sents: Sentences, packed_ref: Optional[PackedReference] = None
) -> Tuple[int, int]:
    """``(summary_level_lcs_hits(ref_sents, can_sents), lcs_length(concat(ref_sents), concat(can_sents)))`` -- the
    ROUGE-Lsum and ROUGE-L hit counts of one pair -- from one pass over the candidate tokens
    (`zheval.definitions.lcs.union_lcs_tokens`).

    Args:
        ref_sents, can_sents: reference and candidate sentences (sequences of hashable tokens).
        packed_ref: optional ``PackedReference(ref_sents)``, to build once for a reference scored many times.
    Returns:
        two ints, each in [0, min(total ref tokens, total candidate tokens)].
    """
    if not ref_sents or not can_sents:
        return 0, 0
    if len(ref_sents) == 1 and len(can_sents) == 1:
        # One LCS; its tokens are a sub-multiset of both texts, so clipping never binds.
        hits = lcs_length(ref_sents[0], can_sents[0])
        return hits, hits
    tokens, text_lcs = union_lcs_tokens(packed_ref if packed_ref is not None else ref_sents, can_sents)
    if not tokens:
        return 0, text_lcs
    # Walking the union in order with both counts decremented (rouge-score) gives, token by token,
    # min(#union positions holding t, count of t in the candidate): the union holds distinct reference positions,
    # so the reference count never binds, and the order does not matter.
    cnt_c: Dict[Token, int] = Counter()
    for s in can_sents:
        cnt_c.update(s)
    return sum(k if k <= cnt_c[t] else cnt_c[t] for t, k in Counter(tokens).items()), text_lcs


# ----------------------------------------------------------------------------------------------------------------
# Statistics -> scores


def score_from_stats(
    hit: float, ref_total: float, hyp_total: float, beta: float = 1.0, inv_weight: Optional[float] = None
) -> Score:
    """Turn ``(hit, ref_total, hyp_total)`` into a `Score`.

    ``P = hit / hyp_total``, ``R = hit / ref_total`` (0.0 when a total is 0). For ROUGE-W pass
    ``inv_weight = 1 / w``: totals are then f(length) and ``P = (hit / hyp_total) ** (1 / w)`` (Lin 2004, 3.3,
    f^-1(x) = x ** (1/w)).
    """
    p = hit / hyp_total if hyp_total else 0.0
    r = hit / ref_total if ref_total else 0.0
    if inv_weight is not None:
        p = _wlcs_root(p, inv_weight)
        r = _wlcs_root(r, inv_weight)
    return Score(p, r, f_measure(p, r, beta))


#: How far above 1 float rounding may carry a ROUGE-W ratio before it is an error rather than rounding.
WLCS_ROUNDING = 1e-12


def _wlcs_root(ratio: float, inv_weight: float) -> float:
    """``ratio ** (1 / w)`` of ROUGE-W, kept in [0, 1]. With w >= 1, f(k) = k**w is superadditive (f(a) + f(b) <=
    f(a + b)), so WLCS <= f(min length) and the ratio is <= 1 in exact arithmetic; only float rounding (the sum of
    the runs' f against one power, a few ulps) can cross 1, and that is set to 1. A value further above 1 is not
    rounding -- a weight below 1, where the sum of short runs outweighs f(length), or inconsistent statistics --
    and raises instead of being clipped to a plausible 1."""
    value = ratio ** inv_weight
    if value > 1.0:
        if value > 1.0 + WLCS_ROUNDING:
            raise ValueError(f"ROUGE-W ratio {ratio!r} ** (1/w) = {value!r} exceeds 1: the weighted LCS outweighs "
                             f"f(length), which cannot happen with w >= 1 (w = {1 / inv_weight!r})")
        return 1.0
    return value


def combine_references(
    stats: Sequence[Sequence[float]],
    multi_ref: str = "max",
    beta: float = 1.0,
    inv_weight: Optional[float] = None,
    *,
    score: Optional[Callable[..., Score]] = None,
    recall: Optional[Callable[[Sequence[float]], float]] = None,
    pool: Callable[[Iterable[float]], float] = math.fsum,
) -> Score:
    """THE multi-reference rule: combine per-reference statistics of one ROUGE type into one `Score` (module
    docstring). Every scorer -- the definitions here, the fast twin
    (`zheval.fast.rouge.scores_from_pair_stats`, vectorised) and the presets -- selects with this function;
    a preset plugs in its own per-reference formula.

    Args:
        stats: one ``(hit, ref_total, hyp_total, ...)`` per reference, in reference order (at least one); extra
            elements are passed to ``recall``.
        multi_ref: ``"max"`` (first best F), ``"mean"`` (``math.fsum`` of P, R and F over references / k),
            ``"pool"`` (the statistics summed with ``pool``, then scored), or ``"best_recall"`` (first best recall).
        beta: F-measure beta (for the default formula).
        inv_weight: ``1 / w`` for ROUGE-W, else None (for the default formula).
        score: the per-reference formula ``score(hit, ref_total, hyp_total) -> Score``; default
            `score_from_stats` with ``beta`` and ``inv_weight``.
        recall: the value ``"best_recall"`` compares for one reference's statistics (default: the formula's recall;
            ROUGE-1.5.5 compares its own rounded per-model score).
        pool: how ``"pool"`` sums a statistic over references (default ``math.fsum``; ROUGE-1.5.5 adds in reference
            order, ``sum``).
    Raises:
        ValueError: empty ``stats`` or unknown ``multi_ref``.
    """
    k = len(stats)
    if k == 0:
        raise ValueError("combine_references needs at least one reference")
    if score is None:
        def score(hit, ref_total, hyp_total):
            return score_from_stats(hit, ref_total, hyp_total, beta, inv_weight)
    if k == 1:
        return score(*stats[0][:3])
    if multi_ref == "max" or multi_ref == "best_recall":
        best = key = None
        for st in stats:
            s = score(*st[:3])
            value = s.fmeasure if multi_ref == "max" else (s.recall if recall is None else recall(st))
            if best is None or value > key:
                best, key = s, value
        return best
    if multi_ref == "mean":
        scores = [score(*st[:3]) for st in stats]
        return Score(
            math.fsum(s.precision for s in scores) / k,
            math.fsum(s.recall for s in scores) / k,
            math.fsum(s.fmeasure for s in scores) / k,
        )
    if multi_ref == "pool":
        return score(pool(st[0] for st in stats), pool(st[1] for st in stats), pool(st[2] for st in stats))
    raise ValueError(f"Unknown multi_ref {multi_ref!r}; valid values: {', '.join(MULTI_REF_MODES)}")


# ----------------------------------------------------------------------------------------------------------------
# Single-pair convenience functions (one prediction, one reference)


def rouge_n(hyp: Text, ref: Text, n: int = 1, beta: float = 1.0) -> Score:
    """ROUGE-N (Lin 2004, section 2) with clipped (multiset) counts.

    ``R = sum_g min(c_hyp(g), c_ref(g)) / sum_g c_ref(g)``, ``P = same hits / sum_g c_hyp(g)`` over n-grams g.
    Example: hyp ``好好好好``, ref ``好`` -> hits 1, P = 1/4, R = 1/1, F = 0.4.

    Args:
        hyp, ref: token sequences. n: n-gram order >= 1. beta: F beta.
    Returns:
        `Score`; all 0.0 if either text has fewer than n tokens.
    """
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    ch = ngram_counts(hyp, n)
    cr = ngram_counts(ref, n)
    return score_from_stats(clipped_overlap(ch, cr), sum(cr.values()), sum(ch.values()), beta)


def rouge_l(hyp: Text, ref: Text, beta: float = 1.0) -> Score:
    """ROUGE-L, sentence level (Lin 2004, section 3.1): ``R = LCS / |ref|``, ``P = LCS / |hyp|``.

    LCS length is bit-parallel (`zheval.definitions.lcs.lcs_length`).
    """
    return score_from_stats(lcs_length(hyp, ref), len(ref), len(hyp), beta)


def rouge_lsum(hyp_sents: Sentences, ref_sents: Sentences, beta: float = 1.0) -> Score:
    """ROUGE-L summary level (Lin 2004, section 3.2), union-LCS with clipping, = rouge-score ``rougeLsum``.

    ``R = sum_i LCS_u(r_i, C) / m``, ``P = same / n`` with m, n the total token counts of the reference and the
    candidate; ``LCS_u`` counts are clipped as in `summary_level_lcs_hits`. Given the same sentences, the
    result equals rouge-score 0.1.2 ``_summary_level_lcs`` exactly.
    """
    m = sum(len(s) for s in ref_sents)
    n = sum(len(s) for s in hyp_sents)
    if not m or not n:
        return Score(0.0, 0.0, 0.0)
    return score_from_stats(summary_level_lcs_hits(ref_sents, hyp_sents), m, n, beta)


def rouge_w(hyp: Text, ref: Text, weight: float = 1.2, beta: float = 1.0) -> Score:
    """ROUGE-W (Lin 2004, section 3.3), weighted LCS with f(k) = k**weight.

    ``R = f^-1(WLCS(ref, hyp) / f(|ref|))``, ``P = f^-1(WLCS(ref, hyp) / f(|hyp|))``, f^-1(x) = x**(1/weight).
    Identical non-empty texts score 1. Example (Lin 2004, weight 2): ref ABCDEFG, hyp ABCDHIK -> WLCS 16,
    R = (16/49)**0.5 = 4/7; hyp AHBKCID -> WLCS 4, R = 2/7.
    """
    weight = check_rouge_w_weight_value(weight)
    if not hyp or not ref:
        return Score(0.0, 0.0, 0.0)
    ref_total, hyp_total = wlcs_f(len(ref), weight), wlcs_f(len(hyp), weight)
    return score_from_stats(wlcs(ref, hyp, weight), ref_total, hyp_total, beta, 1.0 / weight)


def rouge_s(hyp: Text, ref: Text, skip: Optional[int] = 4, beta: float = 1.0) -> Score:
    """ROUGE-S (Lin 2004, section 4): skip-bigram co-occurrence with maximum skip distance ``skip``.

    Skip-bigrams of a text are the ordered pairs (t_i, t_j), i < j <= i + skip + 1 (``skip=None``: all pairs,
    Lin's original ROUGE-S whose totals are C(m, 2) and C(n, 2)). Clipped counts:
    ``R = SKIP2(ref, hyp) / |skip-bigrams(ref)|``, ``P = SKIP2 / |skip-bigrams(hyp)|``. Lin's example (skip=None):
    ref "police killed the gunman", hyp "police kill the gunman" -> 3 of 6 pairs, P = R = F = 0.5.
    """
    ch = skip_bigram_counts(hyp, skip)
    cr = skip_bigram_counts(ref, skip)
    return score_from_stats(clipped_overlap(ch, cr), sum(cr.values()), sum(ch.values()), beta)


def rouge_su(hyp: Text, ref: Text, skip: Optional[int] = 4, beta: float = 1.0) -> Score:
    """ROUGE-SU (Lin 2004, section 4): skip-bigrams (as `rouge_s`) plus unigrams as counting units.

    Hits and totals are the sums of the skip-bigram and the unigram ones, so with ``skip=None`` the totals are
    C(m, 2) + m and C(n, 2) + n. (ROUGE-1.5.5 ``-u``/``-U`` omits the unigram of the last token; that quirk lives
    in `zheval.presets.rouge155`.)
    """
    ch = skip_bigram_counts(hyp, skip)
    cr = skip_bigram_counts(ref, skip)
    uh = Counter(hyp)
    ur = Counter(ref)
    hit = clipped_overlap(ch, cr) + clipped_overlap(uh, ur)
    return score_from_stats(hit, sum(cr.values()) + len(ref), sum(ch.values()) + len(hyp), beta)


# ----------------------------------------------------------------------------------------------------------------
# Item-level scoring


class _Side:
    """Lazily computed counting units of one text (prediction or one reference)."""

    __slots__ = ("sents", "flat", "_ngrams", "_skips", "_masks")

    def __init__(self, sents: Sentences):
        self.sents = sents
        if len(sents) == 1:
            self.flat = sents[0]
        else:
            self.flat = [t for s in sents for t in s]
        self._ngrams: Dict[int, Tuple[Counter, int]] = {}
        self._skips: Dict[Optional[int], Tuple[Counter, int]] = {}
        self._masks = None

    def ngrams(self, n: int) -> Tuple[Counter, int]:
        r = self._ngrams.get(n)
        if r is None:
            c = ngram_counts(self.flat, n)
            r = (c, max(len(self.flat) - n + 1, 0))
            self._ngrams[n] = r
        return r

    def skips(self, skip: Optional[int]) -> Tuple[Counter, int]:
        r = self._skips.get(skip)
        if r is None:
            c = skip_bigram_counts(self.flat, skip)
            r = (c, sum(c.values()))
            self._skips[skip] = r
        return r

    def masks(self) -> Dict[Token, int]:
        if self._masks is None:
            self._masks = match_masks(self.flat)
        return self._masks


def _pair_stats(rt: RougeType, hyp: _Side, ref: _Side, weight: float) -> Stats:
    """Sufficient statistics (hit, ref_total, hyp_total) of one ROUGE type for one (prediction, reference)."""
    kind = rt.kind
    if kind == "N":
        ch, th = hyp.ngrams(rt.n)
        cr, tr = ref.ngrams(rt.n)
        return (clipped_overlap(ch, cr) if th and tr else 0), tr, th
    if kind == "L":
        nh = len(hyp.flat)
        nr = len(ref.flat)
        if not nh or not nr:
            return 0, nr, nh
        return lcs_length_masks(hyp.masks(), nh, ref.flat), nr, nh
    if kind == "Lsum":
        nh = len(hyp.flat)
        nr = len(ref.flat)
        if not nh or not nr:
            return 0, nr, nh
        if len(hyp.sents) == 1 and len(ref.sents) == 1:
            return lcs_length_masks(hyp.masks(), nh, ref.flat), nr, nh
        return summary_level_lcs_hits(ref.sents, hyp.sents), nr, nh
    if kind == "W":
        nh = len(hyp.flat)
        nr = len(ref.flat)
        ref_total, hyp_total = wlcs_f(nr, weight), wlcs_f(nh, weight)  # first: a clear error on overflow
        return (wlcs(ref.flat, hyp.flat, weight) if nh and nr else 0.0), ref_total, hyp_total
    if kind == "S" or kind == "SU":
        ch, th = hyp.skips(rt.skip)
        cr, tr = ref.skips(rt.skip)
        hit = clipped_overlap(ch, cr) if th and tr else 0
        if kind == "SU":
            uh, nh = hyp.ngrams(1)
            ur, nr = ref.ngrams(1)
            hit += clipped_overlap(uh, ur) if nh and nr else 0
            th += nh
            tr += nr
        return hit, tr, th
    raise AssertionError(kind)  # pragma: no cover


def check_scorer_options(rouge_types, multi_ref: str, beta: float, rouge_w_weight: float):
    """The options every item scorer takes (this module's and the presets'), checked once: returns ``(parsed
    types, weight as float)``.

    Raises:
        ValueError: unknown ROUGE type (message lists valid forms), unknown ``multi_ref``, empty ``rouge_types``,
            ``beta`` < 0 or not finite, ``rouge_w_weight`` below 1 or not finite (`check_rouge_w_weight_value`).
    """
    if isinstance(rouge_types, str):  # a comma list, "rouge1,rougeL" (an empty entry refused)
        rouge_types = split_entries(rouge_types, "rouge_types")
    types = [parse_rouge_type(t) for t in rouge_types]
    if not types:
        raise ValueError("rouge_types must name at least one ROUGE type")
    if multi_ref not in MULTI_REF_MODES:
        raise ValueError(f"Unknown multi_ref {multi_ref!r}; valid values: {', '.join(MULTI_REF_MODES)}")
    check_beta(beta, not_a_number=ValueError)  # (zheval.definitions.orders: F at MAX_BETA is the recall)
    return types, check_rouge_w_weight_value(rouge_w_weight)


def check_rouge_w_weight_value(weight) -> float:
    """The ``rouge_w_weight`` rule, in one place (every door checks through it: `check_scorer_options`,
    [`RougeOptions.rouge_w_weight`][zheval.compute.options.RougeOptions.rouge_w_weight]): a finite number >= 1,
    returned as a float.

    ROUGE-W (Lin 2004, section 3.3) weighs a run of k consecutive matches f(k) = k**w with f(x + y) > f(x) + f(y),
    so that consecutive matches count more; ROUGE-1.5.5's ``-w`` help says "typically this is set to 1.2 or other
    number greater than 1". Only w >= 1 keeps WLCS <= f(length), i.e. P and R in [0, 1]; below 1 the ratios pass 1
    (a wrong number, formerly clipped to 1). w = 1 is accepted: f(k) = k, WLCS is the LCS and ROUGE-W equals
    ROUGE-L (Lin's f(k) = k case). A weight so large that f(text length) overflows a float is refused when the
    texts are scored (`zheval.definitions.lcs.wlcs_f`).

    Raises:
        ValueError: a bool, not a number, not finite, or below 1 -- naming the value and the source of the rule.
    """
    if isinstance(weight, bool) or not isinstance(weight, numbers.Real) or not math.isfinite(weight) or weight < 1:
        raise ValueError(f"rouge_w_weight must be a finite number >= 1, got {weight!r}: ROUGE-W weighs a run of k "
                         "consecutive matches k**w with w > 1 (Lin 2004, 3.3; ROUGE-1.5.5 -w, typically 1.2), w = 1 "
                         "is ROUGE-L, and below 1 precision and recall exceed 1")
    return float(weight)


def make_item_scorer(
    rouge_types: Sequence[str],
    multi_ref: str = "max",
    beta: float = 1.0,
    rouge_w_weight: float = 1.2,
) -> Callable[[Sentences, Sequence[Sentences]], Dict[str, Score]]:
    """Validate options once and return ``scorer(hyp_sentences, refs_sentences) -> {type: Score}``.

    The returned function behaves like `score_item` with these options, without re-validating them per item.

    Raises:
        ValueError: unknown ROUGE type (message lists valid forms), unknown ``multi_ref``, empty ``rouge_types``,
            ``beta`` < 0 or not finite, ``rouge_w_weight`` below 1 (`check_rouge_w_weight_value`).
    """
    types, weight = check_scorer_options(rouge_types, multi_ref, beta, rouge_w_weight)
    inv_w = 1.0 / weight

    def scorer(hyp_sentences: Sentences, refs_sentences: Sequence[Sentences]) -> Dict[str, Score]:
        if len(refs_sentences) == 0:
            raise ValueError("score_item needs at least one reference")
        hyp = _Side(hyp_sentences)
        refs = [_Side(r) for r in refs_sentences]
        out: Dict[str, Score] = {}
        for rt in types:
            stats = [_pair_stats(rt, hyp, ref, weight) for ref in refs]
            out[rt.name] = combine_references(stats, multi_ref, beta, inv_w if rt.kind == "W" else None)
        return out

    return scorer


def score_item(
    hyp_sentences: Sentences,
    refs_sentences: Sequence[Sentences],
    rouge_types: Iterable[str] = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
    multi_ref: str = "max",
    beta: float = 1.0,
    rouge_w_weight: float = 1.2,
) -> Dict[str, Score]:
    """Score one prediction against one or more references.

    Args:
        hyp_sentences: the prediction split into sentences, each a list of tokens (``list[list[token]]``). It is
            flattened (sentences concatenated) for every type except ``rougeLsum``.
        refs_sentences: the references, each in the same form (``list[list[list[token]]]``), at least one.
        rouge_types: names, see `parse_rouge_type`.
        multi_ref: ``"max"`` | ``"mean"`` | ``"pool"`` | ``"best_recall"`` (module docstring).
        beta: F-measure beta (1 = F1 as rouge-score).
        rouge_w_weight: w in f(k) = k**w for ``rougeW``.
    Returns:
        dict ``{type name: Score}`` in the order of ``rouge_types``; values in [0, 1].
    Raises:
        ValueError: no references, unknown type or multi_ref, bad beta/weight.
    """
    return make_item_scorer(list(rouge_types), multi_ref, beta, rouge_w_weight)(hyp_sentences, refs_sentences)
