"""OpenCompass glue: zheval's Chinese ROUGE, BLEU and chrF as OpenCompass evaluators ([`ZhevalRougeEvaluator`][zheval.adapters.harness_opencompass.ZhevalRougeEvaluator],
[`ZhevalBleuEvaluator`][zheval.adapters.harness_opencompass.ZhevalBleuEvaluator], [`ZhevalChrfEvaluator`][zheval.adapters.harness_opencompass.ZhevalChrfEvaluator]), for a dataset config's ``eval_cfg=dict(evaluator=dict(type=ZhevalRougeEvaluator,
...))``.

The interface followed is OpenCompass 0.5.x's ``BaseEvaluator`` (``opencompass/openicl/icl_evaluator/
icl_base_evaluator.py``; ``docs/harnesses.md`` and ECOSYSTEM §7.2): the evaluation task builds the evaluator from
the config dict (``type`` plus keyword arguments), calls ``evaluator.evaluate(k, n, test_set, **kwargs)`` with only
the keyword arguments that ``score``'s signature names (here ``predictions`` and ``references``: the test set's
``output_column``: one str per item, or a list of str per item -- all rows of one kind, since OpenCompass's
``JsonlDataset`` refuses a column that mixes both), and ``evaluate`` (the base class's) checks the lengths, applies
the evaluator's ``pred_postprocessor``, calls ``score(predictions, references)`` and takes ``details`` (a list of
per-item dicts) out of its result. Scores are on OpenCompass's 0-100 scale: zheval's 0-1 numbers times 100, nothing
else changed; a preset's own numbers are put on 0-100 by the scale the preset reports them on
(the preset's ``number_scale``, [`zheval.presets.RougePreset`][]), so the ones already on 0-100 are the tool's numbers bit for bit.

Input slips (Traditional predictions against Simplified references, ``tokenizer="none"`` on unsegmented text:
[`zheval.compute.guards`][]) reach the OpenCompass user three ways: a Python warning, a WARNING on OpenCompass's
logger (in the evaluation task's log), and the result's ``warnings`` list, which OpenCompass keeps in the result file
and in the summary file's raw section.

When OpenCompass is importable the evaluators subclass its ``BaseEvaluator`` (so ``evaluate``, replicas and
``pred_postprocessor`` are OpenCompass's own); without it they are plain classes with the same constructor and
``score`` (OpenCompass is never installed by zheval: ~6.6 GB with torch and CUDA). The module is named
``harness_opencompass`` so that it never shadows the ``opencompass`` package.

Bad input raises (OpenCompass then reports the evaluation task as failed, with the message, and writes no result):
predictions and references of different lengths, ``references`` missing (``None``: the reader config has no
``output_column``), a non-string prediction or reference, an empty reference list (each naming ``predictions[i]`` /
``references[i][j]``), empty references ([`zheval.EmptyReferenceError`][zheval.compute.inputs.EmptyReferenceError]), and unknown options (at construction,
before any inference result is read).
"""

from __future__ import annotations

import inspect
import math
import logging
import warnings
from decimal import Decimal
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from ..compute.bleu import bleu_door_config, bleu_items, bleu_result
from ..compute.chrf import ChrfOptions, chrf_door_config, chrf_items, chrf_result
from ..compute.guards import input_slips
from ..compute.inputs import validate_inputs
from ..compute.options import (OPTIONS_CLASSES, BleuOptions, RougeOptions, check_flags, options_for_metrics,
                               refused_hub_options)
from ..compute.rouge import rouge_door_config, rouge_items, rouge_result
from ..results.poisson import poisson_keys

__all__ = ["ZhevalRougeEvaluator", "ZhevalBleuEvaluator", "ZhevalChrfEvaluator", "OPENCOMPASS_BASE"]


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


#: ``(metric, option)``: options of a metric's options class that its evaluator refuses
#: (`ZhevalRougeEvaluator` reports corpus means: ``use_aggregator`` cannot be set), so they are not listed as valid.
_REFUSED = (("rouge", "use_aggregator"),)


def _options(evaluator: str, metric: str, typed: Any, given: Dict[str, Any]):
    """The evaluator's options object: ``typed`` (its ``rouge=``/``bleu=``/``chrf=`` object, or None) with the options
    given by name set on it ([`options_for_metrics`][zheval.compute.options.options_for_metrics]: an unknown option, one of another
    metric, or one given both ways is a TypeError naming ``evaluator``). A named argument left at ``None`` is not
    set (the preset's value or zheval's default applies). The options listed as valid are those the evaluator
    accepts (not `_REFUSED`)."""
    given = {k: v for k, v in given.items() if v is not None or k not in ("tokenizer", "rouge_types")}
    own = set(OPTIONS_CLASSES[metric].names()) - {name for m, name in _REFUSED if m == metric}
    unknown = sorted(k for k in given if not any(k in cls.names() for cls in OPTIONS_CLASSES.values()))
    if unknown:  # the evaluator scores one metric: its options only, not every metric's (issue 35)
        extra = ", details" if metric == "rouge" else ""
        raise TypeError(f"{evaluator} got unknown option(s) {unknown}; valid options: pred_postprocessor{extra}, "
                        f"{metric}={OPTIONS_CLASSES[metric].__name__}(...), {', '.join(sorted(own))}"
                        f"{refused_hub_options(unknown)}")
    return options_for_metrics(evaluator, [metric], given, {metric: typed})[metric]


def _configure(evaluator: Any, pred_postprocessor: Optional[dict], metric: str, typed: Any,
               given: Dict[str, Any]) -> None:
    """An evaluator's construction: OpenCompass's base (`_init_base`), then ``evaluator.config``: its options
    (`_options`) checked by the metric's door config, as ``compute_<metric>`` checks them
    (`zheval.compute.rouge.rouge_door_config` ...: an option that would change nothing -- ``seed`` without
    ``bootstrap``, ``sentence_split`` without rougeLsum -- is refused, naming the evaluator)."""
    _init_base(evaluator, pred_postprocessor)
    door = {"rouge": rouge_door_config, "bleu": bleu_door_config, "chrf": chrf_door_config}[metric]
    name = type(evaluator).__name__
    evaluator.config = door(name, _options(name, metric, typed, given))


def _opencompass_scale(metric: str, preset: Any, value: float) -> float:
    """A preset's own number (``opencompass_rouge1``, ``glm4_bleu_4`` ...) on OpenCompass's 0-100 scale: the preset
    says which scale its numbers are on (its ``number_scale``, [`zheval.presets.RougePreset`][] /
    [`BleuPreset`][zheval.presets.BleuPreset]); 0-100 ones are kept as they are (bit for bit the tool's number), 0-1 ones
    have their decimal point moved two places (the float nearest to 100 times the number's shortest decimal form:
    ROUGE-1.5.5's printed ``0.30769`` is ``30.769``, where a float product gives ``30.769000000000002``).

    Raises:
        ValueError: no preset, or one that adds no number of its own."""
    scale = preset.number_scale if preset is not None else None
    if scale is None:
        name = preset.name if preset is not None else None
        raise ValueError(f"the {metric} preset {name!r} adds no number of its own")
    if scale == 1.0 and isinstance(value, float) and math.isfinite(value):
        return float(Decimal(repr(value)).scaleb(2))
    return value * (100.0 / scale)


def _opencompass_logger() -> Optional[logging.Logger]:
    if OPENCOMPASS_BASE is object:
        return None
    try:
        from opencompass.utils import get_logger
    except ImportError:
        return None
    return get_logger()


def _scored(config: Any, predictions: Sequence[str], references: Sequence[Any], items: Any, result: Any):
    """``(predictions, references, input slips, zheval's result)`` of an evaluator's ``score``: the inputs checked
    (`_checked`), their slips reported (`_report_slips`), the result of ``result(items(...), config)``."""
    preds, refs = _checked(predictions, references)
    slips = _report_slips(preds, refs, config)
    return preds, refs, slips, result(items(preds, refs, config), config, keys=poisson_keys(preds, refs, config))


def _item_details(preds: List[str], refs: List[List[str]], metric: str, scores: Sequence[float]) -> List[dict]:
    """OpenCompass's ``details``: per item the prediction, the answer (`_answer`) and ``metric``'s score x 100."""
    return [{"pred": p, "answer": _answer(r), metric: 100 * s} for p, r, s in zip(preds, refs, scores)]


#: BLEU's statistics that an evaluator's result nests under ``statistics`` as they are (ratios and lengths).
_BLEU_STATISTICS = ("brevity_penalty", "length_ratio", "translation_length", "reference_length")


def _corpus_score(config: Any, predictions: Sequence[str], references: Sequence[Any], metric: str,
                  scoring: Tuple[Any, Any], statistics: Callable[[dict], dict],
                  forwarded: Callable[[str], bool]) -> Dict[str, Any]:
    """A corpus metric's OpenCompass result: ``{metric: 100 * score, "statistics": statistics(result)}`` -- nested,
    because OpenCompass's summary table lists every top-level number as a metric -- then the keys of zheval's
    result for which ``forwarded(key)`` holds, through `_forward` (the ``<metric>_ci_low``/``_ci_high`` interval x
    100), and with per-item scores (``level="sentence"``) the ``details``. ``scoring`` is ``(items, result)``."""
    preds, refs, slips, result = _scored(config, predictions, references, *scoring)
    out: Dict[str, Any] = {metric: 100 * result[metric], "statistics": statistics(result)}
    _forward(out, {k: v for k, v in result.items() if forwarded(k)}, (f"{metric}_ci_low", f"{metric}_ci_high"),
             metric, getattr(config, "preset", None), slips)
    if "scores" in result:
        out["details"] = _item_details(preds, refs, metric, result["scores"])
    return out


def _report_slips(predictions: List[str], references: List[List[str]], config: Any) -> List[str]:
    """The input slips of the corpus (`zheval.compute.guards.input_slips`: Traditional against Simplified,
    ``tokenizer="none"`` on unsegmented text): each a Python warning, and a WARNING on OpenCompass's logger (the
    evaluation task's log); returned for the result's ``warnings``, which OpenCompass keeps in the result file and
    the summary's raw section."""
    slips = input_slips(predictions, references, config.tokenizer, t2s_option=config.t2s_applies,
                        words=getattr(config, "uses_tokens", True))
    log = _opencompass_logger() if slips else None
    for category, message in slips:
        warnings.warn(message, category, stacklevel=3)
        if log is not None:
            log.warning("zheval: %s", message)
    return [message for _, message in slips]


def _forward(out: Dict[str, Any], result: Dict[str, Any], own: Sequence[str], metric: str,
             preset: Any, slips: List[str]) -> None:
    """Put the rest of a zheval result into ``out``: zheval's own 0-1 numbers (``own``) x 100, a preset's own numbers
    on 0-100 (`_opencompass_scale`), its counts (ints) under ``counts`` and the cross-check under
    ``crosscheck`` (not top-level numbers: OpenCompass's summary lists every top-level number as a metric), the
    signature, and the input slips under ``warnings`` when there are any."""
    counts = {}
    for key, value in result.items():
        if key in out or key in ("signature", "scores", "crosscheck"):
            continue
        if key in own:
            out[key] = 100 * value
        elif isinstance(value, bool) or isinstance(value, int):
            counts[key] = value
        elif isinstance(value, float):
            out[key] = _opencompass_scale(metric, preset, value)
        elif key == "no_interval":  # why a bootstrap asked for gave no interval (fewer than 2 items)
            out[key] = value
    if counts:
        out["counts"] = counts
    if "crosscheck" in result:
        out["crosscheck"] = result["crosscheck"]
    out["signature"] = result["signature"]
    if slips:
        out["warnings"] = slips


class ZhevalRougeEvaluator(OPENCOMPASS_BASE):
    """OpenCompass evaluator: zheval's Chinese ROUGE ([`zheval.compute_rouge`][zheval.compute.rouge.compute_rouge]), 0-100.

    Args:
        tokenizer: the scoring tokenizer, as [`RougeOptions.tokenizer`][zheval.compute.options.RougeOptions.tokenizer]
            (``None``: the preset's, else ``"char"``).
        rouge_types: as [`RougeOptions.rouge_types`][zheval.compute.options.RougeOptions.rouge_types] (``None``: the
            preset's, else zheval's default).
        details: add ``details``, one dict per item: ``pred``, ``answer`` (the reference, or the list of them) and each
            type's F (0-100). Default True; ``True`` or ``False`` only (a string such as ``"False"`` is a TypeError:
            ``bool("False")`` is True).
        pred_postprocessor: OpenCompass's ``pred_postprocessor`` config (applied by its ``evaluate``): a dict whose
            ``type`` names a registered post-processor (``dict(type="general")``); OpenCompass's ``BaseEvaluator``
            refuses a callable ``type``.
        rouge: the options as one [`RougeOptions`][zheval.compute.options.RougeOptions] (an option given both ways is
            a TypeError).
        options: the other options of [`zheval.compute_rouge`][zheval.compute.rouge.compute_rouge] by name (an
            OpenCompass config is a dict), each defined once in [`RougeOptions`][zheval.compute.options.RougeOptions],
            except ``use_aggregator``; ``None``: the preset's value, else zheval's default.

    ``score(predictions, references)``: ``predictions`` a list of str; ``references`` one str or a non-empty list of
    str per item (ragged). Returns, every number on OpenCompass's 0-100 scale: ``{type: 100 * mean F}``, zheval's
    other 0-1 numbers x 100 (``<type>_precision`` ..., ``<type>_ci_low`` ...), a preset's own numbers
    (``opencompass_rouge1``, ``longbench_rouge_l``, ``glm4_rouge_1``, ``llamafactory_rouge_1`` ...: already 0-100, so
    unchanged -- the tool's number bit for bit), a preset's counts under ``counts``, ``"signature"``, ``"warnings"``
    (the input slips, when any) and ``"details"``.

    Raises:
        (TypeError, ValueError): at construction, an unknown or bad option
            ([`zheval.compute.rouge.rouge_config`][]), and one that would change nothing (``seed``,
            ``confidence`` or ``bootstrap_method`` without ``bootstrap``; ``sentence_split`` without rougeLsum in the
            types: `zheval.compute.option_rules`, as ``compute_rouge``); at ``score``, as the module docstring (lengths, missing
            references, types, empty references), naming the item.
    """

    def __init__(self, tokenizer: Any = None, rouge_types: Optional[Sequence[str]] = None,
                 details: bool = True, pred_postprocessor: Optional[dict] = None, *,
                 rouge: Optional[RougeOptions] = None, **options: Any) -> None:
        if (any(m == "rouge" and name in options for m, name in _REFUSED)
                or (rouge is not None and not rouge.use_aggregator)):
            raise TypeError("ZhevalRougeEvaluator reports corpus means (and per-item F in details); "
                            "use_aggregator cannot be set")
        if rouge_types is not None and not isinstance(rouge_types, str):
            rouge_types = list(rouge_types)
        _configure(self, pred_postprocessor, "rouge", rouge, dict(tokenizer=tokenizer, rouge_types=rouge_types,
                                                                  **options))
        check_flags(details=details)  # bool("False") is True: a string would turn details on
        self.details = bool(details)

    def score(self, predictions: Sequence[str], references: Sequence[Any]) -> Dict[str, Any]:
        """Corpus ROUGE of ``predictions`` against ``references`` on the 0-100 scale (see the class docstring)."""
        preds, refs = _checked(predictions, references)
        config = self.config
        slips = _report_slips(preds, refs, config)
        items = rouge_items(preds, refs, config)
        result = rouge_result(items, config, keys=poisson_keys(preds, refs, config))
        out: Dict[str, Any] = {t: 100 * result[t] for t in config.types}
        own = [f"{t}_{part}" for t in config.types for part in ("precision", "recall", "ci_low", "ci_high")]
        _forward(out, result, own, "rouge", config.preset, slips)
        if self.details:
            f = {t: items.fmeasure[t].tolist() for t in config.types}
            out["details"] = [dict({"pred": p, "answer": _answer(r)}, **{t: 100 * f[t][i] for t in config.types})
                              for i, (p, r) in enumerate(zip(preds, refs))]
        return out


class _CorpusMetric(NamedTuple):
    """What a corpus-metric evaluator (BLEU, chrF) scores with: the metric's name, its ``items`` and ``result``
    steps, ``statistics`` (what goes under ``"statistics"``) and ``forwarded`` (which other keys of zheval's
    result are passed on): `_corpus_score`'s arguments."""

    metric: str
    items: Callable
    result: Callable
    statistics: Callable[[dict], dict]
    forwarded: Callable[[str], bool]


class _CorpusScore:
    """The ``score`` of the corpus-metric evaluators: `_corpus_score` of the class's `_CorpusMetric` ``_SCORED``."""

    _SCORED: _CorpusMetric

    def score(self, predictions: Sequence[str], references: Sequence[Any]) -> Dict[str, Any]:
        """The corpus score of ``predictions`` against ``references`` on the 0-100 scale (see the class docstring)."""
        m = self._SCORED
        return _corpus_score(self.config, predictions, references, m.metric, (m.items, m.result), m.statistics,
                             m.forwarded)


class ZhevalBleuEvaluator(_CorpusScore, OPENCOMPASS_BASE):
    """OpenCompass evaluator: zheval's Chinese corpus BLEU ([`zheval.compute_bleu`][zheval.compute.bleu.compute_bleu]), 0-100.

    Args:
        tokenizer: the scoring tokenizer, as [`BleuOptions.tokenizer`][zheval.compute.options.BleuOptions.tokenizer]
            (``None``: the preset's, else ``"char"``).
        pred_postprocessor: OpenCompass's ``pred_postprocessor`` config (applied by its ``evaluate``).
        bleu: the options as one [`BleuOptions`][zheval.compute.options.BleuOptions].
        options: the other options of [`zheval.compute_bleu`][zheval.compute.bleu.compute_bleu] by name, each defined
            once in [`BleuOptions`][zheval.compute.options.BleuOptions] (``None``: the preset's value, else zheval's
            default).

    ``score(predictions, references)``: as [`ZhevalRougeEvaluator`][zheval.adapters.harness_opencompass.ZhevalRougeEvaluator]. Returns, on the 0-100 scale,
    ``{"bleu": 100 * BLEU, "signature", "statistics": {"precisions": [100 * p_n], "brevity_penalty", "length_ratio"
    (ratios, 0-1 and more; with ``level="sentence"`` ``brevity_penalty`` is the mean over items, ``length_ratio``
    and the lengths the corpus's, as `compute_bleu`), "translation_length", "reference_length"}}``, ``bleu_ci_low``/``bleu_ci_high`` x 100 with
    ``bootstrap``, a preset's own number on 0-100 (``llamafactory_bleu_4`` unchanged; ``glm4_bleu_4``, which the
    GLM-4 demo reports on 0-1, x 100) and ``"warnings"`` (the input slips, when any). The statistics are nested
    because OpenCompass's summary lists every top-level number as a metric. No ``details``: a corpus BLEU has no
    per-item share (with ``level="sentence"`` -- the llamafactory and glm4 presets -- the per-item scores x 100 are
    the details).

    Raises:
        TypeError, ValueError: as [`ZhevalRougeEvaluator`][zheval.adapters.harness_opencompass.ZhevalRougeEvaluator]
            (the option errors of [`zheval.compute.bleu.bleu_config`][]; ``seed``, ``confidence`` or
            ``bootstrap_method`` without ``bootstrap`` would change nothing and are refused, as ``compute_bleu``).
    """

    def __init__(self, tokenizer: Any = None, pred_postprocessor: Optional[dict] = None, *,
                 bleu: Optional[BleuOptions] = None, **options: Any) -> None:
        _configure(self, pred_postprocessor, "bleu", bleu, dict(tokenizer=tokenizer, **options))

    _SCORED = _CorpusMetric("bleu", bleu_items, bleu_result,
                            lambda result: {"precisions": [100 * p for p in result["precisions"]],
                                            **{k: result[k] for k in _BLEU_STATISTICS}},
                            lambda key: key not in _BLEU_STATISTICS and key != "precisions")


class ZhevalChrfEvaluator(_CorpusScore, OPENCOMPASS_BASE):
    """OpenCompass evaluator: zheval's Chinese corpus chrF / chrF++ ([`zheval.compute_chrf`][zheval.compute.chrf.compute_chrf]), 0-100 -- sacrebleu's
    ``CHRF`` number on zheval's normalised text.

    Args:
        tokenizer: the scoring tokenizer, as [`ChrfOptions.tokenizer`][zheval.compute.options.ChrfOptions.tokenizer]
            (``None``: ``"char"``).
        pred_postprocessor: OpenCompass's ``pred_postprocessor`` config (applied by its ``evaluate``).
        chrf: the options as one [`ChrfOptions`][zheval.compute.options.ChrfOptions].
        options: the other options of [`zheval.compute_chrf`][zheval.compute.chrf.compute_chrf] by name
            (``word_order=2`` for chrF++), each defined once in [`ChrfOptions`][zheval.compute.options.ChrfOptions].

    ``score(predictions, references)``: as [`ZhevalRougeEvaluator`][zheval.adapters.harness_opencompass.ZhevalRougeEvaluator]. Returns, on the 0-100 scale, ``{"chrf": 100 *
    chrF, "signature", "statistics": {"name": "chrF2" | "chrF2++", "precisions": [...], "recalls": [...]} (x 100, per
    order, character orders first)}``, ``chrf_ci_low``/``chrf_ci_high`` x 100 with ``bootstrap``, ``"warnings"`` (the
    input slips, when any), and with ``level="sentence"`` ``"details"`` (per item ``pred``, ``answer``, ``chrf``). The
    statistics are nested because OpenCompass's summary lists every top-level number as a metric.

    Raises:
        TypeError, ValueError: the option errors of [`zheval.compute.chrf.chrf_config`][], on construction (``seed``,
            ``confidence`` or ``bootstrap_method`` without ``bootstrap`` refused, as ``compute_chrf``).
    """

    def __init__(self, tokenizer: Any = None, pred_postprocessor: Optional[dict] = None, *,
                 chrf: Optional[ChrfOptions] = None, **options: Any) -> None:
        _configure(self, pred_postprocessor, "chrf", chrf, dict(tokenizer=tokenizer, **options))

    _SCORED = _CorpusMetric("chrf", chrf_items, chrf_result,
                            lambda result: {"name": result["name"],
                                            "precisions": [100 * p for p in result["precisions"]],
                                            "recalls": [100 * r for r in result["recalls"]]},
                            lambda key: key in ("chrf_ci_low", "chrf_ci_high", "no_interval", "signature"))
