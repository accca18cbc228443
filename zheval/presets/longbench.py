"""The ``longbench`` preset: LongBench's Chinese ROUGE-L (``rouge_zh_score``, the metric of ``dureader`` and
``vcsum``), on the tokens of ``llamafactory-jieba`` (``jieba.cut(text)``: HMM on, whitespace tokens kept, no strip).

Nothing here imports LongBench or pltrdy's ``rouge``; the behaviour is re-implemented and the tests compare it with
LongBench's ``metrics.py`` / ``eval.py`` functions (THUDM/LongBench, ``LongBench/metrics.py``, copied verbatim into
``tests/presets/longbench_reference.py``) running pltrdy ``rouge`` 1.0.1 on the shared data.

What LongBench computes
-----------------------
``rouge_zh_score(prediction, ground_truth)``: ``" ".join(jieba.cut(s, cut_all=False))`` on both sides (the
prediction is **not** stripped), then ``rouge_score``: ``Rouge().get_scores([pred], [gt], avg=True)["rouge-l"]["f"]``
with pltrdy ``rouge`` 1.0.1, and **any exception gives 0.0** (a bare ``except:``). ``eval.py`` ``scorer``: per item
``score = max(0., score over each answer)``; the dataset number is ``round(100 * total / len(predictions), 2)`` with
``total`` summed left to right.

pltrdy ``rouge`` 1.0.1 ROUGE-L (``rouge/rouge_score.py`` ``rouge_l_summary_level``), re-implemented here
(`pltrdy_rouge_l`):

* sentences: ``text.split(".")`` -- the ASCII full stop only (``。`` never splits; ``3.5`` does) --, pieces of
  length > 0 kept and re-joined with ``" ".join(piece.split())``; words are ``sentence.split(" ")`` (a
  whitespace-only piece gives the word ``""``). No sentence at all (an empty prediction, ``"..."``) raises
  ``ValueError`` -> 0.
* for every reference sentence and every prediction sentence, **one** LCS is rebuilt by pltrdy's backtrack
  (``_recon``: diagonal on a match, else up when ``table[i-1, j] > table[i, j-1]``, else left) and its **distinct
  words** are added to one set, the *summary-level union*; ``LCS = |set|``. Not a count of aligned positions: a
  word matched twice counts once, and which words enter depends on the backtrack's tie-breaking.
* ``R = LCS / m`` and ``P = LCS / n`` with ``m``, ``n`` the numbers of **distinct** words of the reference and the
  prediction; ``F = 2 * (P * R / (P + R + 1e-8))``.

The recursion cutoff (environment-dependent)
--------------------------------------------
``_recon`` is recursive: one Python frame per backtrack step, ``steps + 1`` frames for a sentence pair. When the
frames on the stack exceed ``sys.getrecursionlimit()``, ``RecursionError`` is raised, caught by LongBench's bare
``except`` and **the answer silently scores 0** -- for long pairs (roughly 500+ words on each side of one
``.``-sentence, common in dureader and vcsum). Upstream fixed the recursion after 1.0.1 but never released it.
Where the cutoff falls depends on the environment: the recursion limit (1000 by default) minus the frames below the
first ``_recon`` call. Under ``python eval.py`` these are 10 (``<module>``, ``scorer``, ``rouge_zh_score``,
``rouge_score``, ``get_scores``, ``_get_avg_scores``, the metric lambda, ``rouge_l_summary_level``, ``_union_lcs``,
``_recon_lcs``), so at most `LONGBENCH_RECURSION_BUDGET` = 990 nested ``_recon`` frames succeed (measured
with CPython 3.11; the tests check the boundary 990/991 against the real code). ``python -m``, a notebook, a
harness wrapping ``scorer``, another Python version or a changed recursion limit move the boundary; pass
``recursion_budget`` to `make_longbench_item_scorer` for those.

zheval reports both: ``longbench_rouge_l`` (the published number, cutoff emulated) and ``longbench_rouge_l_uncut``
(the same formula with every pair scored, i.e. without the artefact), and counts ``longbench_cutoff_references``
(answers zeroed by the cutoff) and ``longbench_failed_references`` (answers zeroed because a side has no sentence).

Known distortions
-----------------
* **Set-based LCS** (distinct LCS words over distinct-word counts), not ROUGE-L's LCS of positions.
* **Silent zeros**: the recursion cutoff on long pairs; any other exception (no sentence on a side). A reference
  that is blank as given is zheval's ``EmptyReferenceError`` (LongBench would score it), like every preset.
* ``+1e-8`` in F; ``round(..., 2)`` on the dataset number.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable, List, NamedTuple, Optional, Sequence, Set, Tuple

import numpy as np

from ..definitions.rouge import Score, combine_references, parse_rouge_type
from ..io.lists import split_entries
from .base import RougePreset, summed_counts
from .opencompass import leaderboard_preset

__all__ = ["LONGBENCH_TYPES", "LONGBENCH_CALL_DEPTH", "LONGBENCH_RECURSION_LIMIT", "LONGBENCH_RECURSION_BUDGET",
           "pltrdy_sentences", "pltrdy_lcs_words", "PltrdyRougeL", "pltrdy_rouge_l", "LongBenchItem",
           "make_longbench_item_scorer", "longbench_score", "PRESET"]

#: LongBench's Chinese summarisation metric is ROUGE-L only.
LONGBENCH_TYPES: Tuple[str, ...] = ("rougeL",)
#: Python frames on the stack below the first ``_recon`` call when ``python eval.py`` runs (see module docstring).
LONGBENCH_CALL_DEPTH = 10
#: CPython's default ``sys.getrecursionlimit()``.
LONGBENCH_RECURSION_LIMIT = 1000
#: Nested ``_recon`` frames that succeed under ``python eval.py`` (limit minus call depth): 990.
LONGBENCH_RECURSION_BUDGET = LONGBENCH_RECURSION_LIMIT - LONGBENCH_CALL_DEPTH


def pltrdy_sentences(text: str) -> List[str]:
    """pltrdy ``Rouge._get_avg_scores``' sentence split: ``[" ".join(p.split()) for p in text.split(".") if
    len(p) > 0]`` (``text`` is the space-joined jieba tokens)."""
    return [" ".join(p.split()) for p in text.split(".") if len(p) > 0]


def pltrdy_lcs_words(x: Sequence[str], y: Sequence[str]) -> Tuple[List[str], int]:
    """The LCS pltrdy's ``_recon_lcs(x, y)`` rebuilds, and the number of nested ``_recon`` frames it takes.

    Args:
        x: the reference sentence's words; y: the prediction sentence's words.
    Returns:
        ``(words, frames)``: the LCS words in order (pltrdy keeps their set) and ``steps + 1``, the depth of
        ``_recon``'s recursion (``RecursionError`` when the frames below it plus this exceed the recursion limit).
    """
    n, m = len(x), len(y)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        xi = x[i - 1]
        row, prev = table[i], table[i - 1]
        for j in range(1, m + 1):
            if xi == y[j - 1]:
                row[j] = prev[j - 1] + 1
            else:
                a, b = prev[j], row[j - 1]
                row[j] = a if a > b else b
    words: List[str] = []
    i, j, steps = n, m, 0
    while i > 0 and j > 0:
        steps += 1
        if x[i - 1] == y[j - 1]:
            words.append(x[i - 1])
            i -= 1
            j -= 1
        elif table[i - 1][j] > table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    words.reverse()
    return words, steps + 1


class PltrdyRougeL(NamedTuple):
    """pltrdy ROUGE-L of one pair: ``lcs`` (size of the union set), ``ref_words`` (m, distinct), ``hyp_words``
    (n, distinct), ``frames`` (the deepest ``_recon`` recursion over all sentence pairs)."""

    lcs: int
    ref_words: int
    hyp_words: int
    frames: int


def _words(sentences: List[str]) -> List[str]:
    return list(itertools.chain(*[s.split(" ") for s in sentences]))


def pltrdy_rouge_l(hyp_sentences: List[str], ref_sentences: List[str]) -> Optional[PltrdyRougeL]:
    """pltrdy ``rouge_l_summary_level(hyp_sentences, ref_sentences)``'s statistics (`pltrdy_sentences` of each
    side), or ``None`` where pltrdy raises ``ValueError`` (a side without a sentence)."""
    if not hyp_sentences or not ref_sentences:
        return None
    m = len(set(_words(ref_sentences)))
    n = len(set(_words(hyp_sentences)))
    hyp_split = [s.split(" ") for s in hyp_sentences]
    union: Set[str] = set()
    frames = 0
    for ref_s in ref_sentences:
        ref_w = ref_s.split(" ")
        for hyp_w in hyp_split:
            words, f = pltrdy_lcs_words(ref_w, hyp_w)
            union.update(words)
            frames = max(frames, f)
    return PltrdyRougeL(len(union), m, n, frames)


def _pltrdy_score(lcs, ref_words, hyp_words) -> Score:
    """pltrdy's F: ``r = lcs / m``, ``p = lcs / n``, ``f = 2 * ((p * r) / (p + r + 1e-8))``; ``(0, 0, 0)`` (a
    failed or cut-off answer) scores 0."""
    if ref_words == 0 or hyp_words == 0:
        return Score(0.0, 0.0, 0.0)
    r = lcs / ref_words
    p = lcs / hyp_words
    return Score(p, r, 2.0 * ((p * r) / (p + r + 1e-8)))


class LongBenchItem(NamedTuple):
    """One item under the ``longbench`` preset: ``score`` with the recursion cutoff (LongBench's number),
    ``uncut`` without it, and the counts of answers zeroed by the cutoff and by a side without a sentence."""

    score: Score
    uncut: Score
    cutoff_references: int
    failed_references: int


def make_longbench_item_scorer(
    rouge_types: Sequence[str] = LONGBENCH_TYPES, multi_ref: str = "max",
    recursion_budget: int = LONGBENCH_RECURSION_BUDGET,
) -> Callable[[Sequence[str], Sequence[Sequence[str]]], LongBenchItem]:
    """Return ``scorer(hyp_tokens, refs_tokens) -> LongBenchItem`` (scores 0-1).

    Args:
        rouge_types: only ``["rougeL"]``. multi_ref: only ``"max"`` (LongBench's ``max`` over answers, through
            [`zheval.definitions.rouge.combine_references`][]).
        recursion_budget: the number of nested ``_recon`` frames that succeed in the environment being reproduced
            (default `LONGBENCH_RECURSION_BUDGET`, ``python eval.py``); an answer whose backtrack needs more
            scores 0 in ``score`` (not in ``uncut``). ``hyp_tokens``/``refs_tokens`` are ``llamafactory-jieba`` tokens.
    Raises:
        ValueError: another ROUGE type or multi-reference rule, a budget below 1.
    """
    if isinstance(rouge_types, str):  # a comma list, "rouge1,rougeL" (an empty entry refused)
        rouge_types = split_entries(rouge_types, "rouge_types")
    if [parse_rouge_type(t).name for t in rouge_types] != ["rougeL"]:
        raise ValueError(f"preset 'longbench' computes rougeL only (LongBench's rouge_zh_score), got {list(rouge_types)}")
    if multi_ref != "max":
        raise ValueError(f"preset 'longbench' takes the max over answers (eval.py scorer); multi_ref={multi_ref!r} "
                         "is not LongBench's rule")
    if isinstance(recursion_budget, bool) or not isinstance(recursion_budget, int) or recursion_budget < 1:
        raise ValueError(f"recursion_budget must be an int >= 1, got {recursion_budget!r}")

    def scorer(hyp_tokens, refs_tokens) -> LongBenchItem:
        if len(refs_tokens) == 0:
            raise ValueError("score_item needs at least one reference")
        hyp_sentences = pltrdy_sentences(" ".join(hyp_tokens))
        cut_stats, full_stats = [], []
        n_cut = n_failed = 0
        for ref in refs_tokens:
            st = pltrdy_rouge_l(hyp_sentences, pltrdy_sentences(" ".join(ref)))
            if st is None:
                n_failed += 1
                cut_stats.append((0, 0, 0))
                full_stats.append((0, 0, 0))
                continue
            full_stats.append(st[:3])
            if st.frames > recursion_budget:
                n_cut += 1
                cut_stats.append((0, 0, 0))
            else:
                cut_stats.append(st[:3])
        return LongBenchItem(combine_references(cut_stats, "max", score=_pltrdy_score),
                             combine_references(full_stats, "max", score=_pltrdy_score), n_cut, n_failed)

    return scorer


def longbench_score(values: Sequence[float]) -> float:
    """LongBench ``eval.py`` ``scorer``'s number from per-item scores (0-1): ``round(100 * total / N, 2)`` with
    ``total`` summed left to right from ``0.`` (0-100 scale, bit for bit). Returns 0.0 for no values (LongBench:
    ``ZeroDivisionError``)."""
    if len(values) == 0:
        return 0.0
    total = 0.
    for v in values:
        total += v
    return round(100 * total / len(values), 2)


# ----------------------------------------------------------------------------------------------------------------
# The preset object (zheval.presets.base)

#: The per-item counts the preset adds (``RougeItems.extra``), summed into result keys of the same name.
LONGBENCH_COUNTS = ("longbench_cutoff_references", "longbench_failed_references")


@dataclass(frozen=True, eq=False)
class _LongBenchRouge(RougePreset):
    def check(self, *, types, multi_ref, beta, crosscheck) -> None:
        super().check(types=types, multi_ref=multi_ref, beta=beta, crosscheck=crosscheck)
        make_longbench_item_scorer(types, multi_ref)  # raises for another type or multi-reference rule

    def score_items(self, hyp_units, refs_units, types, multi_ref, beta, rouge_w_weight):
        scorer = make_longbench_item_scorer(types, multi_ref)
        per_item = [scorer(h, r) for h, r in zip(hyp_units, refs_units)]
        return [{"rougeL": it.score} for it in per_item], {
            "longbench_rougeL_uncut": np.array([it.uncut.fmeasure for it in per_item], dtype=np.float64),
            "longbench_cutoff_references": np.array([it.cutoff_references for it in per_item], dtype=np.int64),
            "longbench_failed_references": np.array([it.failed_references for it in per_item], dtype=np.int64),
        }

    def tool_numbers(self, fmeasure, extra):
        out = {"longbench_rouge_l": longbench_score(list(fmeasure["rougeL"]))}
        uncut = extra.get("longbench_rougeL_uncut", np.zeros(0))
        out["longbench_rouge_l_uncut"] = longbench_score(uncut.tolist())
        return {**out, **summed_counts(extra, LONGBENCH_COUNTS)}


#: The registered preset (ROUGE only; rougeL, the max over answers).
PRESET = leaderboard_preset(
    name="longbench", rouge_class=_LongBenchRouge, tokenizer="llamafactory-jieba", rouge_types=LONGBENCH_TYPES,
    rouge_fields={"units": "tokens", "fixed_beta": True,
                  "tokens_of": "LongBench's jieba.cut in rouge_zh_score",
                  "signature_fields": (("recursion", LONGBENCH_RECURSION_BUDGET),)},  # the emulated cutoff
    summary="LongBench's rouge_zh_score (dureader, vcsum): rougeL (adds longbench_rouge_l and _uncut, 0-100, and "
            "counts)",
)
