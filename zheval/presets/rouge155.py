"""The ``rouge155`` preset: what ROUGE-1.5.5 prints, on zheval's tokens.

Nothing here imports ROUGE-1.5.5; its behaviour is re-implemented on token sequences, every quirk documented next
to the code that reproduces it, and the tests compare with hand computations of ROUGE-1.5.5's formulas.

``rouge155``: ROUGE-1.5.5.pl (Chin-Yew Lin, v1.5.5, 2005-05-26)
-------------------------------------------------------------------
What ``ROUGE-1.5.5.pl -a -n 4 -w 1.2 -2 4 -U -f A -p 0.5`` (no ``-m`` stemming, no ``-s`` stopword removal, no
length limit) prints per evaluation (``-d``) when every token is a single "word" of its input files -- i.e. on the
same tokens. ROUGE-1.5.5 itself keeps only ``[A-Za-z0-9-]`` (``readText``: ``s/[^A-Za-z0-9\\-]/ /g``) and only
tokens starting with ``[a-z0-9$]`` (``createNGram``/``tokenizeText_LCS``), so Chinese must be fed to it mapped to
ids; this preset gives what it prints on such id-mapped tokens. Sub names below are those of ROUGE-1.5.5.pl.

* **Counting units.** ROUGE-N and ROUGE-S/SU are counted on the whole text (``readText`` joins all lines with a
  space), i.e. across sentence boundaries. ROUGE-L and ROUGE-W are computed per *unit* (``readText_LCS``: one
  unit per input line). Here ``rougeL`` and ``rougeW`` are what ROUGE-1.5.5 prints when each text is one line,
  ``rougeLsum`` what its ROUGE-L prints with one sentence per line (our sentence split).
* **ROUGE-L** (``computeLCSScore``, ``lcs``, ``lcs_inner``, ``markLCS``): per model (reference) unit the union
  of the LCS positions with every peer unit, hits clipped by the unigram counts of the whole model and peer
  (``%model_1grams``/``%tmp_peer_1grams``). LCS path: diagonal on equal tokens, else up when
  ``c[i-1][j] >= c[i][j-1]``, else left -- the same path as rouge-score 0.1.2, so for one reference ``rougeLsum``
  hits equal rouge-score's ``_summary_level_lcs`` (reused: `zheval.definitions.rouge.summary_level_lcs_hits`).
* **Multi-reference ``-f A``** (``computeNGramScore`` etc., ``$scoreMode eq "A"``): hits, model counts *and the
  peer count* are summed over the k models: ``R = sum(hit) / sum(|model units|)``, ``P = sum(hit) / (k * |peer
  units|)``. Sums are sequential in reference order, as in Perl. ``-f B``: the model with the highest *per-model
  score* wins, strictly greater (``$gramScore > $gramScoreBest``, initial -1), so the first model wins ties; for
  N and S that score is the recall **rounded** to 5 decimals (``ngramScore``/``skipBigramScore``:
  ``sprintf("%07.5f")``), for L and W it is unrounded (``lcs``, ``wlcs``).
* **Rounding** (``sprintf("%7.5f", ...)`` in every ``compute*Score``): R and P are rounded to 5 decimals *before*
  ``F = P*R / ((1-alpha)*P + alpha*R)`` is computed from the rounded values, and F is rounded again. ``alpha =
  0.5`` (``-p 0.5``) is F1; a ``beta`` given to this preset is converted with ``alpha = 1 / (1 + beta**2)``.
* **ROUGE-W** (``computeWLCSScore``, ``wlcs``, ``wlcs_inner``, ``wlcsWeight``): (1) the hit is *not* the WLCS DP
  value: ``wlcs`` marks the DP path's model positions in ``@hitMask`` (union over peer units) and then adds
  ``len**w`` for every run of *consecutive marked model positions* (a run that is consecutive in the model but
  not in the peer still counts as one run); a marked position whose token fails the unigram clipping is skipped
  without ending the current run, and a run still open at the end of the model unit is only flushed when the
  unit's last position itself is a counted hit. (2) The per-model base is ``sum_i len_i**w`` and
  ``computeWLCSScore`` weights it again: ``$totalLCSCount += wlcsWeight($lcsBase)``, so the recall denominator is
  ``f(f(|ref|))`` while the precision denominator is ``f(|peer|)``. R = ``(hit / f(f(|ref|)))**(1/w)``, so
  identical texts of length L get R = L**(1-w) < 1 (and P = 1). (3) ``wlcs`` divides by the base even under
  ``-f A``: ROUGE-1.5.5 dies ("Illegal division by zero") on an empty reference with ``-w``; we return 0.
* **ROUGE-SU** (``createSkipBigram`` with ``-U``/``-u``): the unigram of token i is added inside the loop
  ``for ($i = 0; $i < $#m_tokens; $i++)``, which stops before the last token, so **the last token's unigram is
  never counted** (and a one-token text has no units at all). Skip-bigrams (t_i, t_j), i < j <= i + d + 1.
* **Corpus average.** ROUGE-1.5.5 prints ``Average_X`` = the mean of ``-r`` (default 1000) bootstrap-resample
  means of the per-evaluation (already rounded) scores, itself rounded (``computeAverages``,
  ``bootstrapResampling``): resample ``i`` (0..999) calls ``srand(i)`` and draws n indices
  ``int(rand(n))`` into the evaluations sorted **as strings** by their ids (``sort keys``: with ``-z`` the ids are
  the file list's line numbers ``1..n``, so ``1, 10, 100, 11, ...``); the 1000 means are sorted, summed in that
  order and divided by 1000; the ``95%-conf.int.`` bounds are the sorted means at indices 25 and 974
  (``-c 95``). Perl's ``rand`` is its own drand48 since 5.20 (`perl_rand`), so all of it is deterministic and
  `rouge155_average` reproduces it bit for bit: the result's ``rouge155_<type>`` (and ``_ci_low``/``_ci_high``)
  are the script's ``Average_F`` and its interval for the items in the order given (``-z`` file list order;
  an XML config whose ``EVAL ID``s are not ``1..n`` in item order, e.g. pyrouge's zero-padded ones, resamples
  another order and prints another average).
  It is not the mean of the per-item scores (60 items: ROUGE-SU4 0.27707 vs 0.27558): zheval's ``<type>`` keys
  stay that exact mean. Only F is reported (``Average_R``/``_P`` are the same computation on R and P).
* Not reproduced: ``-m`` stemming, ``-s`` stopwords, ``-l``/``-b`` length limits, BE scoring, ``-t`` token-level
  averaging; a literal token ``_cn_`` (ROUGE-1.5.5 keeps its counts under that key).
"""

from __future__ import annotations

from dataclasses import dataclass
from collections import Counter
from functools import partial
from operator import itemgetter
from typing import Callable, Dict, Hashable, Iterator, Optional, Sequence, Tuple

import numpy as np

from ..definitions.lcs import lcs_length, wlcs_f, wlcs_ref_positions
from ..definitions.rouge import (
    Score,
    ngram_counts,
    skip_bigram_counts,
    summary_level_lcs_hits,
    clipped_overlap,
    check_scorer_options,
    combine_references,
)
from ..definitions.rouge_types import RougeType
from .base import Preset, RougePreset

__all__ = ["ROUGE155_TYPES", "ROUGE155_RESAMPLES", "ROUGE155_CONFIDENCE", "perl_rand", "rouge155_average",
           "rouge155_averages", "round5", "alpha_from_beta", "rouge155_su_counts", "rouge155_wlcs_hit",
           "make_rouge155_item_scorer", "rouge155_score_item", "PRESET"]

Token = Hashable

#: What ``-a -n 4 -w 1.2 -2 4 -U`` prints: ROUGE-1..4, L, W-1.2, S4 and SU4 (plus ``rougeLsum`` on request).
ROUGE155_TYPES: Tuple[str, ...] = ("rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeW", "rougeS4", "rougeSU4")

#: ROUGE-1.5.5's defaults for its corpus average: ``-r 1000`` bootstrap resamples, ``-c 95`` (a 95% interval).
ROUGE155_RESAMPLES = 1000
ROUGE155_CONFIDENCE = 95

_MASK48 = (1 << 48) - 1


def perl_rand(seed: int) -> Iterator[float]:
    """Perl's ``rand()`` after ``srand(seed)``: Perl >= 5.20 uses its own drand48 on every platform
    (``Perl_drand48_r``): ``srand(s)`` sets ``x = (s << 16) + 0x330E`` (``s`` as a U32), each ``rand()`` steps
    ``x = (0x5DEECE66D * x + 0xB) mod 2**48`` and returns ``x / 2**48`` (exact in a double)."""
    x = ((int(seed) & 0xFFFFFFFF) << 16) + 0x330E
    while True:
        x = (0x5DEECE66D * x + 0xB) & _MASK48
        yield x / 281474976710656.0  # 2**48


def _perl_draws(n: int, resamples: int) -> Iterator[np.ndarray]:
    """The script's n draws ``int(rand(n))`` of every resample at once: draw k of resample i (``srand(i)``) is
    ``yield``-ed k as element i. `perl_rand`'s LCG in uint64 (the product wraps mod 2**64, of which the 48 low bits
    are those mod 2**48), the same double ``n * (x / 2**48)`` truncated."""
    x = (np.arange(resamples, dtype=np.uint64) & np.uint64(0xFFFFFFFF)) << np.uint64(16)
    x += np.uint64(0x330E)
    mult, add, mask = np.uint64(0x5DEECE66D), np.uint64(0xB), np.uint64(_MASK48)
    for _ in range(n):
        x = (x * mult + add) & mask
        yield (float(n) * (x.astype(np.float64) / 281474976710656.0)).astype(np.int64)


def _perl_index(values: Sequence[float], i: int) -> float:
    return float(values[i]) if 0 <= i < len(values) else 0.0  # Perl: an element past the end is undef, 0


def rouge155_averages(columns: Dict[str, Sequence[float]], resamples: int = ROUGE155_RESAMPLES,
                      confidence: float = ROUGE155_CONFIDENCE) -> Dict[str, Tuple[float, float, float]]:
    """ROUGE-1.5.5's printed ``Average_X`` and ``(CF%-conf.int. low - high)`` of per-evaluation scores, bit for bit
    (``computeAverages``, ``bootstrapResampling``), for several columns at once (the same draws serve them all).

    Args:
        columns: ``{name: per-evaluation scores}`` (the 5-decimal numbers the script prints per ``Eval``), each in
            the order of the evaluations' ids ``1..n`` (``-z``: the file list's lines); they are resampled in the
            script's string order of the ids (``1, 10, 100, 11, ...``).
        resamples: ``-r`` (default 1000); confidence: ``-c`` (default 95).

    Returns:
        ``{name: (average, ci_low, ci_high)}``, each the script's ``sprintf("%7.5f")`` read back as a float. The
        average is the mean of the sorted bootstrap means, not the mean of the scores.
    """
    names = list(columns)
    n = len(columns[names[0]]) if names else 0
    order = sorted(range(n), key=lambda i: f"{i + 1}.X")  # @instances = sort keys: "$evalID.$peerID" as strings
    inst = np.array([[float(columns[c][i]) for c in names] for i in order], dtype=np.float64).reshape(n, len(names))
    totals = np.zeros((int(resamples), len(names)), dtype=np.float64)
    for k, idx in enumerate(_perl_draws(n, int(resamples))):
        totals = inst[idx] if k == 0 else totals + inst[idx]  # Perl's +=, in draw order (no pairwise sum)
    means = np.sort(totals / n if n else totals, axis=0)  # sort by_value (numeric)
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    ci_ua, ci_la = int(resamples - delta - 1), int(delta)
    ratio = resamples - delta - 1 - ci_ua
    out = {}
    for j, name in enumerate(names):
        col = means[:, j].tolist()
        total = 0.0
        for m in col:  # $resampleAvgROUGE += $rankedArray[$x], in sorted order
            total += m
        low = _perl_index(col, ci_la) + (_perl_index(col, ci_la + 1) - _perl_index(col, ci_la)) * ratio
        high = _perl_index(col, ci_ua) + (_perl_index(col, ci_ua + 1) - _perl_index(col, ci_ua)) * ratio
        out[name] = (round5(total / len(col)) if col else 0.0, round5(low), round5(high))
    return out


def rouge155_average(values: Sequence[float], resamples: int = ROUGE155_RESAMPLES,
                     confidence: float = ROUGE155_CONFIDENCE) -> Tuple[float, float, float]:
    """`rouge155_averages` of one column: ``(Average_X, CI low, CI high)`` as ROUGE-1.5.5 prints them."""
    return rouge155_averages({"x": values}, resamples, confidence)["x"]


def round5(x: float) -> float:
    """ROUGE-1.5.5's ``sprintf("%7.5f", x)`` read back as a number (correctly rounded, as C printf)."""
    return float("%.5f" % x)


def alpha_from_beta(beta: float) -> float:
    """ROUGE-1.5.5's ``-p alpha`` for an F-measure ``beta``: ``1 / (1 + beta**2)`` (beta 1 -> 0.5)."""
    return 1.0 / (1.0 + beta * beta)


def rouge155_su_counts(tokens: Sequence[Token], skip: Optional[int]) -> Tuple[Counter, Counter]:
    """ROUGE-1.5.5 ``createSkipBigram`` with ``-u``: (skip-bigram Counter, unigram Counter of all but the last token).

    The unigram of token i is added in ``for ($i = 0; $i < $#m_tokens; $i++)``, so the last token is never
    counted as a unigram.
    """
    return skip_bigram_counts(tokens, skip), Counter(tokens[:-1])


def rouge155_wlcs_hit(
    model_sents: Sequence[Sequence[Token]], peer_sents: Sequence[Sequence[Token]], weight: float
) -> Tuple[float, float]:
    """ROUGE-1.5.5 ``wlcs``: (hit, base) of one model against the peer, both as lists of units (sentences).

    ``base = sum_i len(model_i) ** weight``; hit: see the module docstring (runs of marked model positions after
    unigram clipping). Returns floats; (0.0, 0.0) for an empty model.
    """
    model_1 = Counter(t for s in model_sents for t in s)
    peer_1 = Counter(t for s in peer_sents for t in s)
    hit = 0.0
    base = 0.0
    for ms in model_sents:
        L = len(ms)
        base += wlcs_f(L, weight)
        if L == 0:
            continue
        mask = [0] * L
        for ps in peer_sents:
            if ps:
                for p in wlcs_ref_positions(ms, ps, weight):
                    mask[p] = 1
        hit_len = 0
        for j in range(L):
            if mask[j]:
                t = ms[j]
                if model_1[t] > 0 and peer_1[t] > 0:
                    hit_len += 1
                    if j + 1 < L and mask[j + 1] == 0:
                        hit += hit_len**weight
                        hit_len = 0
                    elif j + 1 == L:
                        hit += hit_len**weight
                        hit_len = 0
                    model_1[t] -= 1
                    peer_1[t] -= 1
    return hit, base


def _r155_model_stats(rt: RougeType, hyp_flat, hyp_sents, ref_flat, ref_sents, cache: dict, weight: float):
    """(hit, model_count, peer_count, best_score) of one model for one type, as ROUGE-1.5.5 accumulates them."""
    kind = rt.kind
    if kind == "N":
        key = ("N", rt.n)
        hc = cache.get(key)
        if hc is None:
            hc = cache[key] = ngram_counts(hyp_flat, rt.n)
        rc = ngram_counts(ref_flat, rt.n)
        hit = clipped_overlap(hc, rc)
        mcount = max(len(ref_flat) - rt.n + 1, 0)
        pcount = max(len(hyp_flat) - rt.n + 1, 0)
        return hit, mcount, pcount, (round5(hit / mcount) if mcount else 0.0)
    if kind == "S" or kind == "SU":
        key = (kind, rt.skip)
        hc = cache.get(key)
        if hc is None:
            if kind == "S":
                hc = cache[key] = (skip_bigram_counts(hyp_flat, rt.skip), Counter())
            else:
                hc = cache[key] = rouge155_su_counts(hyp_flat, rt.skip)
        if kind == "S":
            rc = (skip_bigram_counts(ref_flat, rt.skip), Counter())
        else:
            rc = rouge155_su_counts(ref_flat, rt.skip)
        hit = clipped_overlap(hc[0], rc[0]) + clipped_overlap(hc[1], rc[1])
        mcount = sum(rc[0].values()) + sum(rc[1].values())
        pcount = sum(hc[0].values()) + sum(hc[1].values())
        return hit, mcount, pcount, (round5(hit / mcount) if mcount else 0.0)
    if kind == "L" or kind == "Lsum":
        if kind == "L":
            hit = lcs_length(ref_flat, hyp_flat)
        else:
            hit = summary_level_lcs_hits(ref_sents, hyp_sents)
        base = len(ref_flat)
        return hit, base, len(hyp_flat), (hit / base if base else 0.0)
    if kind == "W":
        hit, base = rouge155_wlcs_hit([ref_flat], [hyp_flat], weight)
        score = (hit / base) ** (1.0 / weight) if base else 0.0
        # computeWLCSScore: $totalLCSCount += wlcsWeight($lcsBase); $totalLCSCountP += wlcsWeight(|peer|)
        return hit, wlcs_f(base, weight), wlcs_f(len(hyp_flat), weight), score
    raise ValueError(f"ROUGE type {rt.name!r} is not defined for preset 'rouge155'")


def _r155_final(hit, mcount, pcount, alpha: float, inv_w: Optional[float]) -> Score:
    if mcount != 0:
        r = hit / mcount
        r = round5(r**inv_w if inv_w is not None else r)
    else:
        r = 0.0
    if pcount != 0:
        p = hit / pcount
        p = round5(p**inv_w if inv_w is not None else p)
    else:
        p = 0.0
    d = (1 - alpha) * p + alpha * r
    f = round5((p * r) / d) if d > 0 else 0.0
    return Score(p, r, f)


def make_rouge155_item_scorer(
    rouge_types: Sequence[str] = ROUGE155_TYPES,
    multi_ref: str = "pool",
    beta: float = 1.0,
    rouge_w_weight: float = 1.2,
) -> Callable[[Sequence[Sequence[Token]], Sequence[Sequence[Sequence[Token]]]], Dict[str, Score]]:
    """Return ``scorer(hyp_sentences, refs_sentences) -> {type: Score}`` with ROUGE-1.5.5's numbers.

    Args:
        rouge_types: any of ``rougeN``, ``rougeL``, ``rougeLsum``, ``rougeW``, ``rougeS<d>``/``rougeSU<d>``,
            ``rougeS*``/``rougeSU*``.
        multi_ref: ``"pool"`` (``-f A``, default), ``"best_recall"`` (``-f B``), or ``"max"``/``"mean"`` (each
            reference scored as a one-model ROUGE-1.5.5 run, then the best F -- first wins ties -- or the mean).
        beta: converted to ROUGE-1.5.5's alpha (``alpha_from_beta``).
        rouge_w_weight: ``-w``.
    Returns:
        The scorer; Score values are ROUGE-1.5.5's 5-decimal numbers, in [0, 1].
    Raises:
        ValueError: unknown type or multi_ref, bad beta/weight.
    """
    types, weight = check_scorer_options(rouge_types, multi_ref, beta, rouge_w_weight)
    alpha = alpha_from_beta(beta)
    inv_w = 1.0 / weight

    def scorer(hyp_sentences, refs_sentences) -> Dict[str, Score]:
        if len(refs_sentences) == 0:
            raise ValueError("score_item needs at least one reference")
        hyp_flat = [t for s in hyp_sentences for t in s]
        refs = [([t for s in r for t in s], r) for r in refs_sentences]
        cache: dict = {}
        out: Dict[str, Score] = {}
        for rt in types:
            iw = inv_w if rt.kind == "W" else None
            per = [_r155_model_stats(rt, hyp_flat, hyp_sentences, rf, rs, cache, weight) for rf, rs in refs]
            # -f A sums in reference order (Perl's +=); -f B compares each model's own (rounded) score
            out[rt.name] = combine_references(per, multi_ref, score=partial(_r155_final, alpha=alpha, inv_w=iw),
                                              recall=itemgetter(3), pool=sum)
        return out

    return scorer


def rouge155_score_item(
    hyp_sentences: Sequence[Sequence[Token]],
    refs_sentences: Sequence[Sequence[Sequence[Token]]],
    rouge_types: Sequence[str] = ROUGE155_TYPES,
    multi_ref: str = "pool",
    beta: float = 1.0,
    rouge_w_weight: float = 1.2,
) -> Dict[str, Score]:
    """ROUGE-1.5.5's per-evaluation R/P/F for one prediction (``hyp_sentences``) and its references.

    Same input shapes as `zheval.definitions.rouge.score_item`; see `make_rouge155_item_scorer` for the options and
    the module docstring for every reproduced quirk.
    """
    return make_rouge155_item_scorer(rouge_types, multi_ref, beta, rouge_w_weight)(hyp_sentences, refs_sentences)




# ----------------------------------------------------------------------------------------------------------------
# The preset object (zheval.presets.base)


@dataclass(frozen=True, eq=False)
class _Rouge155(RougePreset):
    def item_scorer(self, types, multi_ref, beta, rouge_w_weight):
        return make_rouge155_item_scorer(types, multi_ref, beta, rouge_w_weight)

    def explain_wlcs_hit(self, ref_tokens, hyp_tokens, weight):
        return rouge155_wlcs_hit([ref_tokens], [hyp_tokens], weight)

    def explain_su_counts(self, tokens, skip):
        return rouge155_su_counts(tokens, skip)

    def tool_numbers(self, fmeasure, extra) -> Dict[str, float]:
        """``rouge155_<type>``: the script's printed ``Average_F`` (its 1000-resample bootstrap average, srand 0..999,
        `rouge155_average`), ``rouge155_<type>_ci_low``/``_ci_high``: its ``95%-conf.int.``; items in order = ``-z``
        file list lines."""
        out: Dict[str, float] = {}
        for t, (avg, low, high) in rouge155_averages(dict(fmeasure)).items():
            out[f"rouge155_{t}"], out[f"rouge155_{t}_ci_low"], out[f"rouge155_{t}_ci_high"] = avg, low, high
        return out


#: The registered preset (ROUGE only): ``-a -n 4 -w 1.2 -2 4 -U -f A -p 0.5`` on zheval's tokens and sentences.
PRESET = Preset(
    name="rouge155",
    rouge=_Rouge155(
        name="rouge155",
        defaults={"rouge_types": list(ROUGE155_TYPES), "multi_ref": "pool", "beta": 1.0, "rouge_w_weight": 1.2},
        crosscheck_refusal="crosscheck is not available for preset 'rouge155' (ROUGE-1.5.5 is a Perl script)",
        doors=frozenset({"text", "space"}),
        number_scale=1.0,  # rouge155_<type>: the script's bootstrap Average_F, 0-1, 5 decimals
        # ROUGE-1.5.5's own options: -n / -2 (any type it scores), -f A / -f B, -p alpha (beta), -w; a max or mean
        # over references is zheval's rule, not the script's
        tool_options={"rouge_types": None, "multi_ref": ("pool", "best_recall"), "beta": None, "rouge_w_weight": None},
        summary="ROUGE-1.5.5 -a -n 4 -w 1.2 -2 4 -U -f A -p 0.5 per item, averaged exactly (adds rouge155_<type>: "
                "the script's own bootstrap Average_F, -r 1000, srand 0..999, and its 95% interval)",
        numbers_note=("rouge155_<type> is ROUGE-1.5.5.pl's printed Average_F: its own 1000-resample bootstrap mean "
                      "of the per-item F (Perl's drand48, srand(i) for resample i, items sorted by id as strings, as the script sorts them), 0-1, 5 "
                      "decimals; _ci_low/_ci_high its 95% interval. --bootstrap, --seed and --confidence do not "
                      "change them (they are the script's); the table's scores and intervals are zheval's exact "
                      "mean and bootstrap"),
    ),
    report_refusal=(
        "--preset rouge155 is a ROUGE preset (ROUGE-1.5.5's numbers, per-item rounding and pooled "
        "multi-reference counts) that the 小黄鸭 report does not implement: use the text-file command (zheval rouge "
        "REF.txt -i HYP.txt --preset rouge155), compute_rouge(..., "
        "preset='rouge155') or the chinese_rouge module; --multi-ref pool gives its multi-reference rule here"),
)
