"""Score ROUGE and BLEU in one call, tokenising each distinct text once.

:func:`score` runs :func:`zheval.compute.rouge.compute_rouge` and :func:`zheval.compute.bleu.compute_bleu` with one
set of options and returns both results, exactly as the two calls would return them. With
``sentence_split="newline"`` and the ``char`` or ``none`` tokenizer (where the line tokens concatenate to the
whole-text tokens), and with ``"punct"`` and the plain ``char`` tokenizer (whose text rule always cuts between
tokens), BLEU is counted on ROUGE's tokenised corpus itself -- the same distinct texts, token ids and n-gram tables
(:class:`zheval.fast.index.CorpusLayout`, :func:`zheval.compute.bleu.compute_bleu_from_layout`). Otherwise (other
tokenizers with ``"punct"``; a BLEU preset or crosscheck) BLEU's whole-text tokens are computed once per distinct
text on their own through the tokenizer's cache. Nothing is cached across calls beyond that token cache; scores never are.
"""

from __future__ import annotations

from typing import Any, Dict, Sequence

from ..fast.bleu import layout_stats
from .bleu import BLEU_OPTIONS, _prepare, compute_bleu, compute_bleu_from_layout
from .gcpause import without_cyclic_gc
from .inputs import validate_inputs
from .options import refused_hub_options
from .rouge import ROUGE_OPTIONS, compute_rouge

__all__ = ["METRICS", "score"]

#: Metric names :func:`score` computes.
METRICS = ("bleu", "rouge")

_SHARED = ("tokenizer", "terms", "punct", "jieba_hmm", "jieba_dict", "normalize", "t2s", "preset", "crosscheck",
           "bootstrap", "seed", "confidence")


@without_cyclic_gc
def score(
    predictions: Sequence[str],
    references: Sequence[Any],
    metrics: Sequence[str] = ("bleu", "rouge"),
    **options,
) -> Dict[str, dict]:
    """Chinese BLEU and/or ROUGE of the same predictions and references, sharing one tokenisation.

    Args:
        predictions: ``list[str]``, one per item.
        references: per item a ``str`` or a non-empty ``list[str]`` (ragged).
        metrics: any of ``"bleu"``, ``"rouge"`` (default both), computed ROUGE first.
        options: options of :func:`~zheval.compute.rouge.compute_rouge` and :func:`~zheval.compute.bleu.compute_bleu`.
            Tokenizer options, ``tokenizer``, ``preset``, ``crosscheck``, ``bootstrap``, ``seed`` and
            ``confidence`` go to both; the others to the metric that has them (e.g. ``rouge_types`` and
            ``sentence_split`` to ROUGE, ``max_order`` and ``smooth_method`` to BLEU).

    Returns:
        ``{"bleu": compute_bleu(...) result, "rouge": compute_rouge(...) result}`` (only the requested keys); every
        value equals what the separate call returns.

    Raises:
        ValueError: an unknown metric name (listing the valid ones), or any error of the two calls (an empty
            reference: :class:`~zheval.compute.inputs.EmptyReferenceError`, naming every ``references[i][j]``).
        TypeError: an option neither metric knows, or any error of the two calls.

    Warns:
        the input guards of :mod:`zheval.compute.guards` (:class:`zheval.ZhevalWarning`), once for both metrics.
    """
    if isinstance(metrics, str):
        metrics = [metrics]
    metrics = list(metrics)
    bad = [m for m in metrics if m not in METRICS]
    if bad or not metrics:
        raise ValueError(f"unknown metric(s) {bad or metrics}; valid: {', '.join(METRICS)}")
    unknown = sorted(k for k in options if k not in ROUGE_OPTIONS and k not in BLEU_OPTIONS)
    if unknown:
        raise TypeError(f"score got unknown option(s) {unknown}; valid options: "
                        f"{', '.join(sorted(set(ROUGE_OPTIONS) | set(BLEU_OPTIONS)))}{refused_hub_options(unknown)}")
    preds, refs = validate_inputs(predictions, references)
    out: Dict[str, dict] = {}
    share: dict = {}
    bleu_options = {k: v for k, v in options.items() if k in BLEU_OPTIONS}
    if "bleu" in metrics and "rouge" in metrics:
        # Once ROUGE has tokenised the corpus, BLEU's statistics are computed on its layout (when it can share it),
        # and that pass also yields the pairs' ROUGE-N hits for n <= max_order, which ROUGE then does not recount.
        share["pair_ngram_hits"] = lambda sh: _bleu_first(sh, bleu_options)
    if "rouge" in metrics:
        out["rouge"] = compute_rouge(preds, refs, _share=share, _validated=True,
                                     **{k: v for k, v in options.items() if k in ROUGE_OPTIONS})
    if "bleu" in metrics:
        if "bleu_stats" in share:
            out["bleu"] = compute_bleu_from_layout(share["layout"], share["tokenizer"], preds, refs,
                                                   _stats=share["bleu_stats"], **bleu_options)
        elif _can_share(share, bleu_options):
            out["bleu"] = compute_bleu_from_layout(share["layout"], share["tokenizer"], preds, refs, **bleu_options)
        else:
            # the input guards ran once, in compute_rouge, when ROUGE was computed
            out["bleu"] = compute_bleu(preds, refs, _validated=True, _warn_slips="rouge" not in out, **bleu_options)
    return {m: out[m] for m in metrics}


def _bleu_first(share: dict, bleu_options: dict):
    """The ``pair_ngram_hits`` hook of :func:`zheval.compute.rouge.compute_rouge`: BLEU's per-item statistics on
    ROUGE's layout (kept in ``share["bleu_stats"]``) and, from the same pass, ``{n: (P,) int64}`` ROUGE-N hits of
    the pairs for n <= max_order; None when BLEU cannot use ROUGE's tokens."""
    if not _can_share(share, bleu_options):
        return None
    opts, _ = _prepare(**{k: v for k, v in bleu_options.items() if k not in ("bootstrap", "seed", "confidence")})
    n = opts["max_order"]
    stats, pair = layout_stats(share["layout"], n, pair_orders=n)
    share["bleu_stats"] = stats
    return {k + 1: pair[:, k] for k in range(pair.shape[1])}


def _can_share(share: dict, bleu_options: dict) -> bool:
    """Whether BLEU can count on ROUGE's tokenised corpus: the same tokenizer (fingerprint), line-split sentences
    whose concatenation is the whole-text tokenisation, no crosscheck (it needs token strings) and no BLEU preset."""
    if "layout" not in share or bleu_options.get("crosscheck") or bleu_options.get("preset") is not None:
        return False
    tok = share["tokenizer"]
    if not tok.lines_concatenate():
        return False
    if share["sentence_split"] != "newline" and not tok.punct_cuts_between_tokens():
        return False  # "punct" sentences concatenate to the text's tokens only when the text rule cuts between tokens
    try:
        opts = dict(bleu_options)
        for k in ("bootstrap", "seed", "confidence"):
            opts.pop(k, None)
        _, bleu_tok = _prepare(**opts)
    except (TypeError, ValueError):
        return False  # compute_bleu will raise the error itself
    return bleu_tok.fingerprint == tok.fingerprint
