"""The ``opencompass-jieba-rouge`` preset: OpenCompass ``JiebaRougeEvaluator``'s ROUGE-1/2/L numbers, on the tokens
of `zheval.tokenizers.harness_jieba.OpenCompassJiebaTokenizer` (``opencompass-jieba``).

Nothing here imports OpenCompass or rouge-chinese; the behaviour is re-implemented and the tests compare it with the
real evaluator's code (OpenCompass 0.5.x, ``opencompass/openicl/icl_evaluator/icl_jieba_rouge_evaluator.py``,
copied verbatim into ``tests/presets/test_leaderboard_presets.py``) running rouge-chinese 1.0.3 on the shared data.

What ``JiebaRougeEvaluator.score(predictions, references)`` does
----------------------------------------------------------------
1. ``general_postprocess`` on **both** sides (`zheval.tokenizers.harness_jieba.opencompass_general_postprocess`:
   cut at the first ASCII ``\\n . ,``, delete ``[^\\w\\s]``, delete a/an/the, collapse whitespace).
2. ``' '.join(jieba.cut(x))``: global jieba, default dictionary, HMM on, whitespace tokens kept.
3. An empty string becomes ``'__PREDPLACEHOLDER__'`` (prediction) or ``'__REFRPLACEHOLDER__'`` (reference), one
   word that matches nothing (a text that spells it is cut by jieba into ``__``, ``REFRPLACEHOLDER``, ``__``), so
   such an item scores 0 on every type.
4. ``rouge_chinese.Rouge().get_scores(preds, refs, avg=True)``: per item rouge-chinese's ROUGE-1/2 on **sets** of
   distinct n-grams and ROUGE-L as the plain LCS of the whole word lists, ``F = 2PR / (P + R + 1e-8)``
   (`zheval.presets.llamafactory` has every rule); the average is a left-to-right Python sum divided by the
   item count.
5. The reported ``rouge1``/``rouge2``/``rougeL`` are that mean F ``* 100``, unrounded (0-100 scale).

Known distortions (what these numbers are not)
----------------------------------------------
* **Set-based n-grams**: a repeated word counts once on both sides (``好好好好`` vs ``好`` is a perfect ROUGE-1).
* **Truncation at the first ASCII ``.``, ``,`` or newline** -- of the prediction *and* the reference: ``3.5%``
  keeps ``3``; an English-style comma cuts a Chinese reference short; a multi-line answer is scored on its first
  line only.
* **Punctuation is deleted**, so ROUGE-L never aligns on it (usually wanted) and ``.`` never splits sentences.
* **Silent zeros**: a text that post-processes to ``""`` (``"。"``, ``",好的"``, a prediction that starts with a
  newline) scores 0 through the placeholders, with no warning. zheval counts them:
  ``opencompass_placeholder_predictions`` and ``opencompass_placeholder_references`` in the result. (A reference
  that is blank *before* post-processing is still zheval's ``EmptyReferenceError``.)
* ``+1e-8`` in F: identical texts give 99.9999995, not 100.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..definitions.rouge import Score, parse_rouge_type
from .base import BleuPreset, Preset, RougePreset, summed_counts, tool_rouge_defaults
from .llamafactory import RougeChinesePreset, make_llamafactory_item_scorer

__all__ = ["OPENCOMPASS_TYPES", "OPENCOMPASS_PLACEHOLDERS", "make_opencompass_item_scorer", "opencompass_average",
           "opencompass_numbers", "leaderboard_report_refusal", "leaderboard_fields", "leaderboard_preset", "PRESET"]

#: What ``JiebaRougeEvaluator`` reports (its keys are ``rouge1``, ``rouge2``, ``rougeL`` too).
OPENCOMPASS_TYPES: Tuple[str, ...] = ("rouge1", "rouge2", "rougeL")

#: The words an empty prediction / reference becomes (``JiebaRougeEvaluator.score``).
OPENCOMPASS_PLACEHOLDERS: Tuple[str, str] = ("__PREDPLACEHOLDER__", "__REFRPLACEHOLDER__")


def make_opencompass_item_scorer(
    rouge_types: Sequence[str] = OPENCOMPASS_TYPES, multi_ref: str = "max"
) -> Callable[[Sequence[str], Sequence[Sequence[str]]], Dict[str, Score]]:
    """Return ``scorer(hyp_tokens, refs_tokens) -> {type: Score}``: rouge-chinese's per-item P, R, F (0-1,
    unrounded) on ``opencompass-jieba`` tokens, a side without a token scored as its placeholder word
    (`OPENCOMPASS_PLACEHOLDERS`). OpenCompass has one reference per item; several are combined with
    ``multi_ref`` ([`zheval.definitions.rouge.combine_references`][]).

    Raises:
        ValueError: a type other than rougeN / rougeL, an unknown ``multi_ref``.
    """
    return make_llamafactory_item_scorer(rouge_types, multi_ref, placeholders=OPENCOMPASS_PLACEHOLDERS)


def opencompass_average(values: Sequence[float]) -> float:
    """``JiebaRougeEvaluator``'s number from per-item F values (0-1): rouge-chinese's ``avg=True`` mean -- a
    left-to-right Python sum from ``0`` divided by the item count -- times 100 (0-100 scale, unrounded, bit for bit).

    Returns 0.0 for no values (OpenCompass would raise ``ZeroDivisionError``).
    """
    if len(values) == 0:
        return 0.0
    total = 0
    for v in values:
        total = total + v
    return total / len(values) * 100


def opencompass_numbers(fmeasure: Mapping[str, Sequence[float]]) -> Dict[str, float]:
    """``{"opencompass_<type>": opencompass_average(F values)}`` for every ROUGE type of ``fmeasure``
    (``opencompass_rouge1``, ``opencompass_rouge2``, ``opencompass_rougeL``: OpenCompass's own keys, prefixed)."""
    out = {}
    for t, values in fmeasure.items():
        parse_rouge_type(t)
        out[f"opencompass_{t}"] = opencompass_average(list(values))
    return out


# ----------------------------------------------------------------------------------------------------------------
# The preset object (zheval.presets.base)

#: The per-item columns the preset adds (``RougeItems.extra``), summed into counts of the same name.
PLACEHOLDER_COUNTS = ("opencompass_placeholder_predictions", "opencompass_placeholder_references")


def leaderboard_report_refusal(name: str, has_bleu: bool = False) -> str:
    """Why the report of ``zheval score --preset`` does not take a leaderboard preset, and where it is."""
    return (f"--preset {name} reproduces a leaderboard's published number (its own tokens, per-item formula and "
            "averaging; README 'Leaderboard presets'), which this report (groups, intervals) does not compute: use "
            f"the text-file commands (zheval rouge REF.txt -i HYP.txt --preset {name}"
            + (f"; zheval bleu ... --preset {name}" if has_bleu else "")
            + (f"), compute_rouge/compute_bleu(..., preset={name!r}) or the chinese_rouge / chinese_bleu modules"
               if has_bleu else f"), compute_rouge(..., preset={name!r}) or the chinese_rouge module"))


def leaderboard_fields(name: str) -> dict:
    """The [`RougePreset`][zheval.presets.base.RougePreset] fields every leaderboard preset shares: no cross-check (its
    tests run the harness's own code), no explanation (the harness's post-processing is not zheval's breakdown),
    numbers on the harness's 0-100."""
    return {"crosscheck_tool": None, "explainable": False, "number_scale": 100.0,
            "crosscheck_refusal": f"crosscheck is not available for preset {name!r}; its tests compare it with the "
                                  "real tool's code on real data (tests/presets/test_leaderboard_presets.py)"}


def leaderboard_preset(*, name: str, rouge_class: type = RougeChinesePreset, tokenizer: str,
                       rouge_types: Sequence[str], summary: str, rouge_fields: Optional[Mapping[str, Any]] = None,
                       bleu: Optional[BleuPreset] = None) -> Preset:
    """A leaderboard's registered [`Preset`][zheval.presets.base.Preset]: its ROUGE part (``rouge_class``, a
    [`RougePreset`][zheval.presets.base.RougePreset]) on the tool's own ``tokenizer`` and ``rouge_types``
    (`tool_rouge_defaults`) with the fields every leaderboard shares (`leaderboard_fields`) and the preset's own
    ``rouge_fields``; its BLEU part if any; the 小黄鸭 report's refusal (`leaderboard_report_refusal`)."""
    rouge: RougePreset = rouge_class(name=name, defaults=tool_rouge_defaults(tokenizer, rouge_types),
                                     **leaderboard_fields(name), summary=summary, **(rouge_fields or {}))
    return Preset(name=name, rouge=rouge, bleu=bleu,
                  report_refusal=leaderboard_report_refusal(name, has_bleu=bleu is not None))


@dataclass(frozen=True, eq=False)
class _OpenCompassRouge(RougeChinesePreset):
    def item_scorer(self, types, multi_ref, beta, rouge_w_weight):
        return make_opencompass_item_scorer(types, multi_ref)

    def score_items(self, hyp_units, refs_units, types, multi_ref, beta, rouge_w_weight):
        scores, _ = super().score_items(hyp_units, refs_units, types, multi_ref, beta, rouge_w_weight)
        return scores, {
            "opencompass_placeholder_predictions": np.array([not h for h in hyp_units], dtype=np.int64),
            "opencompass_placeholder_references": np.array([sum(not t for t in row) for row in refs_units],
                                                           dtype=np.int64),
        }

    def tool_numbers(self, fmeasure, extra):
        return {**opencompass_numbers(fmeasure), **summed_counts(extra, PLACEHOLDER_COUNTS)}


#: The registered preset (ROUGE only). A reference blank as given is zheval's error; one that OpenCompass's
#: post-processing empties is scored against its placeholder, as OpenCompass does, and counted.
PRESET = leaderboard_preset(
    name="opencompass-jieba-rouge", rouge_class=_OpenCompassRouge, tokenizer="opencompass-jieba",
    rouge_types=OPENCOMPASS_TYPES, rouge_fields={"reference_check": "text"},
    summary="OpenCompass JiebaRougeEvaluator's rouge1/2/L (adds opencompass_rouge*, 0-100, and placeholder counts)",
)
