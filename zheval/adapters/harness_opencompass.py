"""OpenCompass glue: zheval's Chinese ROUGE and BLEU as OpenCompass evaluators (:class:`ZhevalRougeEvaluator`,
:class:`ZhevalBleuEvaluator`), for a dataset config's ``eval_cfg=dict(evaluator=dict(type=ZhevalRougeEvaluator,
...))``.

The interface followed is OpenCompass 0.5.x's ``BaseEvaluator`` (``opencompass/openicl/icl_evaluator/
icl_base_evaluator.py``; ``docs/harnesses.md`` and ECOSYSTEM §7.2): the evaluation task builds the evaluator from
the config dict (``type`` plus keyword arguments), calls ``evaluator.evaluate(k, n, test_set, **kwargs)`` with only
the keyword arguments that ``score``'s signature names (here ``predictions`` and ``references``: the test set's
``output_column``, one str or a list of str per item), and ``evaluate`` (the base class's) checks the lengths, applies
the evaluator's ``pred_postprocessor``, calls ``score(predictions, references)`` and takes ``details`` (a list of
per-item dicts) out of its result. Scores are on OpenCompass's 0-100 scale: zheval's 0-1 numbers times 100, nothing
else changed.

When OpenCompass is importable the evaluators subclass its ``BaseEvaluator`` (so ``evaluate``, replicas and
``pred_postprocessor`` are OpenCompass's own); without it they are plain classes with the same constructor and
``score`` (OpenCompass is never installed by zheval: ~6.6 GB with torch and CUDA). The module is named
``harness_opencompass`` so that it never shadows the ``opencompass`` package.

Bad input raises (OpenCompass then reports the evaluation task as failed, with the message, and writes no result):
predictions and references of different lengths, ``references`` missing (``None``: the reader config has no
``output_column``), a non-string prediction or reference, an empty reference list (each naming ``predictions[i]`` /
``references[i][j]``), empty references (:class:`zheval.EmptyReferenceError`), and unknown options (at construction,
before any inference result is read).
"""

from __future__ import annotations

import inspect
from typing import Any, Dict, List, Optional, Sequence

from ..compute.bleu import bleu_config, bleu_items, bleu_result
from ..compute.guards import warn_input_slips
from ..compute.inputs import validate_inputs
from ..compute.rouge import DEFAULT_ROUGE_TYPES, rouge_config, rouge_items, rouge_result

__all__ = ["ZhevalRougeEvaluator", "ZhevalBleuEvaluator", "OPENCOMPASS_BASE"]


def _opencompass_base() -> type:
    try:
        from opencompass.openicl.icl_evaluator import BaseEvaluator
    except ImportError:
        return object
    return BaseEvaluator


#: The base class of the evaluators: OpenCompass's ``BaseEvaluator`` when ``opencompass`` is importable, else ``object``.
OPENCOMPASS_BASE = _opencompass_base()


def _init_base(evaluator: Any, pred_postprocessor: Optional[dict]) -> None:
    if OPENCOMPASS_BASE is object:
        evaluator.pred_postprocessor = pred_postprocessor
        return
    if "pred_postprocessor" in inspect.signature(OPENCOMPASS_BASE.__init__).parameters:
        OPENCOMPASS_BASE.__init__(evaluator, pred_postprocessor=pred_postprocessor)
    elif pred_postprocessor is not None:
        raise TypeError("this OpenCompass's BaseEvaluator takes no pred_postprocessor; set it in the dataset's "
                        "eval_cfg instead")
    else:
        OPENCOMPASS_BASE.__init__(evaluator)


def _checked(predictions: Any, references: Any):
    if references is None:
        raise ValueError("references is None: the dataset's reader_cfg names no output_column, so OpenCompass passes "
                         "no references; set output_column to the field holding the reference(s)")
    return validate_inputs(predictions, references)


def _answer(refs: List[str]) -> Any:
    return refs[0] if len(refs) == 1 else list(refs)


class ZhevalRougeEvaluator(OPENCOMPASS_BASE):
    """OpenCompass evaluator: zheval's Chinese ROUGE (:func:`zheval.compute_rouge`), 0-100.

    Args:
        tokenizer: ``"char"`` (default) or ``"jieba"`` or any zheval tokenizer name; rouge_types: default
            ``["rouge1", "rouge2", "rougeL", "rougeLsum"]``; every other keyword option of
            :func:`zheval.compute_rouge` (``multi_ref``, ``beta``, ``sentence_split``, ``t2s``, ``preset``, ...) except
            ``use_aggregator``.
        details: add ``details``, one dict per item: ``pred``, ``answer`` (the reference, or the list of them) and each
            type's F (0-100). Default True.
        pred_postprocessor: OpenCompass's ``pred_postprocessor`` config (applied by its ``evaluate``).

    ``score(predictions, references)``: ``predictions`` a list of str; ``references`` one str or a non-empty list of
    str per item (ragged). Returns ``{type: 100 * mean F, "signature": zheval's signature, "details": [...]}``.

    Raises:
        TypeError / ValueError at construction: an unknown or bad option (:func:`zheval.compute.rouge.rouge_config`).
        At ``score``: as the module docstring (lengths, missing references, types, empty references), naming the item.
    """

    def __init__(self, tokenizer: Any = "char", rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES,
                 details: bool = True, pred_postprocessor: Optional[dict] = None, **options: Any) -> None:
        _init_base(self, pred_postprocessor)
        if "use_aggregator" in options:
            raise TypeError("ZhevalRougeEvaluator reports corpus means (and per-item F in details); "
                            "use_aggregator cannot be set")
        self.config = rouge_config(tokenizer=tokenizer, rouge_types=list(rouge_types), **options)
        self.details = bool(details)

    def score(self, predictions: Sequence[str], references: Sequence[Any]) -> Dict[str, Any]:
        """Corpus ROUGE of ``predictions`` against ``references`` on the 0-100 scale (see the class docstring)."""
        preds, refs = _checked(predictions, references)
        config = self.config
        warn_input_slips(preds, refs, config.tokenizer, t2s_option=config.t2s_applies)
        items = rouge_items(preds, refs, config)
        result = rouge_result(items, config)
        out: Dict[str, Any] = {t: 100 * result[t] for t in config.types}
        for key, value in result.items():
            if key != "signature" and key not in config.types and isinstance(value, float):
                out[key] = 100 * value if not key.startswith("llamafactory_") else value  # theirs is 0-100 already
        out["signature"] = result["signature"]
        if self.details:
            f = {t: items.fmeasure[t].tolist() for t in config.types}
            out["details"] = [dict({"pred": p, "answer": _answer(r)}, **{t: 100 * f[t][i] for t in config.types})
                              for i, (p, r) in enumerate(zip(preds, refs))]
        return out


class ZhevalBleuEvaluator(OPENCOMPASS_BASE):
    """OpenCompass evaluator: zheval's Chinese corpus BLEU (:func:`zheval.compute_bleu`), 0-100.

    Args:
        tokenizer: ``"char"`` (default), ``"jieba"`` or any zheval tokenizer name; every other keyword option of
            :func:`zheval.compute_bleu` (``max_order``, ``smooth_method``, ``level``, ``preset``, ``bootstrap`` ...).
        pred_postprocessor: OpenCompass's ``pred_postprocessor`` config (applied by its ``evaluate``).

    ``score(predictions, references)``: as :class:`ZhevalRougeEvaluator`. Returns ``{"bleu": 100 * BLEU,
    "signature", "statistics": {"precisions": [100 * p_n], "brevity_penalty", "length_ratio" (ratios, 0-1 and
    more), "translation_length", "reference_length"}}`` (``bleu_ci_low``/``bleu_ci_high`` x 100 with ``bootstrap``;
    the statistics are nested because OpenCompass's summary lists every top-level number as a metric). No
    ``details``: a corpus BLEU has no per-item share (with ``level="sentence"`` the per-item scores x 100 are the
    details).

    Raises:
        as :class:`ZhevalRougeEvaluator`, with :func:`zheval.compute.bleu.bleu_config`'s option errors.
    """

    def __init__(self, tokenizer: Any = "char", pred_postprocessor: Optional[dict] = None, **options: Any) -> None:
        _init_base(self, pred_postprocessor)
        self.config = bleu_config(tokenizer=tokenizer, **options)

    def score(self, predictions: Sequence[str], references: Sequence[Any]) -> Dict[str, Any]:
        """Corpus BLEU of ``predictions`` against ``references`` on the 0-100 scale (see the class docstring)."""
        preds, refs = _checked(predictions, references)
        config = self.config
        warn_input_slips(preds, refs, config.tokenizer, t2s_option=config.t2s_applies)
        result = bleu_result(bleu_items(preds, refs, config), config)
        out: Dict[str, Any] = {"bleu": 100 * result["bleu"]}
        for key in ("bleu_ci_low", "bleu_ci_high"):
            if key in result:
                out[key] = 100 * result[key]
        if "llamafactory_bleu_4" in result:
            out["llamafactory_bleu_4"] = result["llamafactory_bleu_4"]  # LLaMA-Factory's own number, 0-100 already
        out["signature"] = result["signature"]
        # not numbers at the top level: OpenCompass's summary table lists every top-level number as a metric
        out["statistics"] = {"precisions": [100 * p for p in result["precisions"]],
                             "brevity_penalty": result["brevity_penalty"], "length_ratio": result["length_ratio"],
                             "translation_length": result["translation_length"],
                             "reference_length": result["reference_length"]}
        if "scores" in result:
            out["details"] = [{"pred": p, "answer": _answer(r), "bleu": 100 * s}
                              for p, r, s in zip(preds, refs, result["scores"])]
        return out
