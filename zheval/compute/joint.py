"""Score ROUGE, BLEU and chrF in one call, tokenising each distinct text once.

:func:`score` runs the items/result pairs of both metrics (:mod:`zheval.compute.rouge`, :mod:`zheval.compute.bleu`)
with one set of options and returns both results, exactly as :func:`zheval.compute_rouge` and
:func:`zheval.compute_bleu` would return them. Where :func:`zheval.fast.usable_for` (``"shared_tokens"``) allows it
-- ``sentence_split="newline"`` with the ``char`` or ``none`` tokenizer (whose line tokens concatenate to the
whole-text tokens), ``"punct"`` with the plain ``char`` tokenizer (whose text rule always cuts between tokens), no
BLEU preset or crosscheck -- BLEU is counted on ROUGE's tokenised corpus itself: one
:class:`zheval.compute.shared.SharedTokens` object passed to both, whose BLEU pass also gives ROUGE its ROUGE-N
hits. Otherwise BLEU tokenises on its own (through the tokenizer's content-keyed cache). chrF runs its own
items/result pair (:mod:`zheval.compute.chrf`; chrF++'s words come through the same cache). Nothing is kept across
calls beyond that cache; scores never are.
"""

from __future__ import annotations

from typing import Any, Dict, Sequence

from .bleu import BLEU_OPTIONS, bleu_config, bleu_items, bleu_result
from .chrf import CHRF_OPTIONS, chrf_config, chrf_items, chrf_result
from .gcpause import without_cyclic_gc
from .guards import warn_input_slips
from .inputs import validate_inputs
from .options import refused_hub_options
from .rouge import ROUGE_OPTIONS, rouge_config, rouge_items, rouge_result
from .shared import SharedTokens
from ..fast import usable_for
from ..results.breakdowns import first_references

__all__ = ["METRICS", "score", "check_metrics_and_options"]

#: Metric names :func:`score` computes.
METRICS = ("bleu", "rouge", "chrf")


def check_metrics_and_options(function: str, metrics, valid: Sequence[str], options: Dict[str, Any]) -> list:
    """The metric names and options of a call that serves both metrics (:func:`score`,
    :func:`zheval.compute.explain.explain`), checked: returns ``metrics`` as a list.

    Raises:
        ValueError: an empty list or a name not in ``valid`` (the message lists the valid ones).
        TypeError: an option none of ``compute_rouge``, ``compute_bleu``, ``compute_chrf`` knows (the message lists
            the valid ones and, for an option of the Hub modules that zheval refuses, why).
    """
    if isinstance(metrics, str):
        metrics = [metrics]
    metrics = list(metrics)
    bad = [m for m in metrics if m not in valid]
    if bad or not metrics:
        raise ValueError(f"unknown metric(s) {bad or metrics}; valid: {', '.join(valid)}")
    known = set(ROUGE_OPTIONS) | set(BLEU_OPTIONS) | set(CHRF_OPTIONS)
    unknown = sorted(k for k in options if k not in known)
    if unknown:
        raise TypeError(f"{function} got unknown option(s) {unknown}; valid options: "
                        f"{', '.join(sorted(known))}{refused_hub_options(unknown)}")
    return metrics


@without_cyclic_gc
def score(
    predictions: Sequence[str],
    references: Sequence[Any],
    metrics: Sequence[str] = ("bleu", "rouge"),
    **options,
) -> Dict[str, dict]:
    """Chinese BLEU, ROUGE and/or chrF of the same predictions and references, sharing one tokenisation.

    Args:
        predictions: ``list[str]``, one per item.
        references: per item a ``str`` or a non-empty ``list[str]`` (ragged).
        metrics: any of ``"bleu"``, ``"rouge"``, ``"chrf"`` (default BLEU and ROUGE), computed ROUGE first.
        options: options of :func:`~zheval.compute.rouge.compute_rouge`, :func:`~zheval.compute.bleu.compute_bleu`
            and :func:`~zheval.compute.chrf.compute_chrf`. Tokenizer options, ``tokenizer``, ``bootstrap``, ``seed``,
            ``confidence`` and ``max_refs`` go to every metric; the others to the metrics that have them (e.g.
            ``rouge_types`` to ROUGE, ``max_order`` to BLEU, ``word_order`` to chrF; ``level`` to BLEU and chrF,
            ``beta`` -- the recall weight -- to ROUGE and chrF). ``preset`` and ``crosscheck`` are BLEU's and
            ROUGE's; chrF refuses them (TypeError).

    Returns:
        ``{"bleu": compute_bleu(...) result, "rouge": compute_rouge(...) result, "chrf": compute_chrf(...) result}``
        (only the requested keys); every value equals what the separate call returns.

    Raises:
        ValueError: an unknown metric name (listing the valid ones), or any error of the two calls (an empty
            reference: :class:`~zheval.compute.inputs.EmptyReferenceError`, naming every ``references[i][j]``).
        TypeError: an option neither metric knows, or any error of the two calls.

    Warns:
        the input guards of :mod:`zheval.compute.guards` (:class:`zheval.ZhevalWarning`), once for both metrics.
    """
    metrics = check_metrics_and_options("score", metrics, METRICS, options)
    rouge_cfg = rouge_config(**{k: v for k, v in options.items() if k in ROUGE_OPTIONS}) if "rouge" in metrics else None
    bleu_cfg = bleu_config(**{k: v for k, v in options.items() if k in BLEU_OPTIONS}) if "bleu" in metrics else None
    chrf_cfg = None
    if "chrf" in metrics:
        refused = sorted(k for k in ("preset", "crosscheck") if k in options)
        if refused:
            raise TypeError(f"score(metrics=[..., 'chrf']): chrF has no {' or '.join(refused)}; score chrF in a "
                            "separate call")
        chrf_cfg = chrf_config(**{k: v for k, v in options.items() if k in CHRF_OPTIONS})
    preds, refs = validate_inputs(predictions, references)
    first = rouge_cfg or bleu_cfg or chrf_cfg
    warn_input_slips(preds, refs, first.tokenizer, t2s_option=first.t2s_applies,
                     words=rouge_cfg is not None or bleu_cfg is not None or chrf_cfg.uses_tokens)
    limit = first.max_refs
    if limit is not None:  # the same first references for both metrics, before the shared tokenisation
        refs = first_references(refs, limit)
    shared = None
    if rouge_cfg is not None and rouge_cfg.preset is None:
        both = bleu_cfg is not None and usable_for(
            "shared_tokens", rouge_tokenizer=rouge_cfg.tokenizer, bleu_tokenizer=bleu_cfg.tokenizer,
            sentence_split=rouge_cfg.sentence_split, bleu_crosscheck=bleu_cfg.crosscheck, bleu_preset=bleu_cfg.preset)
        shared = SharedTokens(preds, refs, rouge_cfg.tokenizer, rouge_cfg.sentence_split,
                              bleu_max_order=bleu_cfg.max_order if both else None,
                              sentences=rouge_cfg.needs_sentences)
    out: Dict[str, dict] = {}
    if rouge_cfg is not None:
        out["rouge"] = rouge_result(rouge_items(preds, refs, rouge_cfg, shared=shared), rouge_cfg)
    if bleu_cfg is not None:
        on_shared = shared if shared is not None and shared.bleu_max_order is not None else None
        out["bleu"] = bleu_result(bleu_items(preds, refs, bleu_cfg, shared=on_shared), bleu_cfg)
    if chrf_cfg is not None:  # (refs already cut to max_refs: the config's own limit changes nothing more)
        out["chrf"] = chrf_result(chrf_items(preds, refs, chrf_cfg), chrf_cfg)
    return {m: out[m] for m in metrics}
