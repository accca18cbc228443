"""The metrics as one table, for the adapters that serve any of them (the evaluate mixin, the Trainer hook): each
metric's option names, and its config / items / result functions ([`zheval.compute.rouge`][],
[`zheval.compute.bleu`][], [`zheval.compute.chrf`][], [`zheval.compute.bertscore`][]). The Trainer hook serves the
three n-gram metrics only (``LIBRARY_METRICS``); ``chinese_bertscore`` is the evaluate module's."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, NamedTuple, Tuple

from . import bertscore, bleu, chrf, rouge
from .options import BleuOptions, ChrfOptions, RougeOptions

__all__ = ["MetricAPI", "METRICS", "BERTSCORE_OPTIONS", "metric_api"]


class MetricAPI(NamedTuple):
    """One metric's items/result API.

    Attributes:
        name: ``"chinese_rouge"``, ``"chinese_bleu"``, ``"chinese_chrf"`` or ``"chinese_bertscore"`` (the evaluate
            module's name); short: ``"rouge"``/``"bleu"``/``"chrf"``/``"bertscore"``.
        options: every option name its config takes; other_options: the other n-gram metrics' options it does not
            take (accepted and ignored by the evaluate modules, for ``evaluate.combine``; none for BERTScore, whose
            module refuses them).
        config, items, result: the config from options by name (checked against the metric's options class of
            `zheval.compute.options`, or [`BertScoreOptions`][zheval.compute.bertscore.BertScoreOptions]: the
            encoder is loaded), ``items(predictions, references, config)`` (for BERTScore with the idf weights of
            those references, as `compute_bertscore`), ``result(items, config)``; concat: the items class's
            ``concat``; empty: ``empty(config)`` -> items of no item.
        check: the options checked by name without loading anything (what the evaluate modules run before they
            store an item; for the n-gram metrics the door's config, ``door(name, options)``).
        door: ``door(function, options by name)`` -> the config of options a caller gave a door directly, with the
            rules that refuse an option that would change nothing, named after ``function``
            (`zheval.compute.rouge.rouge_door_config` ...; BERTScore's options, which have no such rule, checked).
        input_guards: whether a computation issues the input guards' warnings (`zheval.compute.guards`), as the
            library call does (the n-gram metrics; BERTScore has no tokenizer to check the texts against).
    """

    name: str
    short: str
    options: Tuple[str, ...]
    other_options: Tuple[str, ...]
    config: Callable[..., Any]
    items: Callable[..., Any]
    result: Callable[..., Any]
    concat: Callable[..., Any]
    empty: Callable[[Any], Any]
    check: Callable[..., Any]
    door: Callable[..., Any]
    input_guards: bool = True


_OPTIONS = {"rouge": rouge.ROUGE_OPTIONS, "bleu": bleu.BLEU_OPTIONS, "chrf": chrf.CHRF_OPTIONS}


def _rouge_config(**options) -> rouge.RougeConfig:
    return rouge.rouge_config(RougeOptions.from_names("compute_rouge", options))


def _rouge_door(function: str, options) -> rouge.RougeConfig:
    return rouge.rouge_door_config(function, RougeOptions.from_names(function, options))


def _bleu_config(**options) -> bleu.BleuConfig:
    return bleu.bleu_config(BleuOptions.from_names("compute_bleu", options))


def _bleu_door(function: str, options) -> bleu.BleuConfig:
    return bleu.bleu_door_config(function, BleuOptions.from_names(function, options))


def _chrf_config(**options) -> chrf.ChrfConfig:
    return chrf.chrf_config(ChrfOptions.from_names("compute_chrf", options))


def _chrf_door(function: str, options) -> chrf.ChrfConfig:
    return chrf.chrf_door_config(function, ChrfOptions.from_names(function, options))


def _checked_by(door: Callable[..., Any], name: str) -> Callable[..., Any]:
    """The ``check`` of an n-gram metric: its ``door`` named after the evaluate module ``name``."""
    return lambda **options: door(name, options)


#: The options of `zheval.compute.bertscore.compute_bertscore` (the fields of ``BertScoreOptions``).
BERTSCORE_OPTIONS = tuple(f.name for f in dataclasses.fields(bertscore.BertScoreOptions))


def _bertscore_options(**options) -> bertscore.BertScoreOptions:
    if "model" not in options:
        raise TypeError("chinese_bertscore needs model= (a local directory with the model and its tokenizer)")
    return bertscore.BertScoreOptions(**options)


def _bertscore_config(**options) -> bertscore.BertScoreConfig:
    return bertscore.bertscore_config(_bertscore_options(**options))


def _bertscore_items(predictions, references, config: bertscore.BertScoreConfig) -> bertscore.BertScoreItems:
    return bertscore.bertscore_items(predictions, references, config, bertscore.bertscore_idf(references, config))


def _others(short: str) -> Tuple[str, ...]:
    own = _OPTIONS[short]
    out: list = []
    for name, opts in _OPTIONS.items():
        out += [k for k in opts if name != short and k not in own and k not in out]
    return tuple(out)


METRICS = {
    "chinese_rouge": MetricAPI("chinese_rouge", "rouge", rouge.ROUGE_OPTIONS, _others("rouge"),
                               _rouge_config, rouge.rouge_items, rouge.rouge_result, rouge.RougeItems.concat,
                               rouge.RougeItems.empty, _checked_by(_rouge_door, "chinese_rouge"), _rouge_door),
    "chinese_bleu": MetricAPI("chinese_bleu", "bleu", bleu.BLEU_OPTIONS, _others("bleu"),
                              _bleu_config, bleu.bleu_items, bleu.bleu_result, bleu.BleuItems.concat,
                              bleu.BleuItems.empty, _checked_by(_bleu_door, "chinese_bleu"), _bleu_door),
    "chinese_chrf": MetricAPI("chinese_chrf", "chrf", chrf.CHRF_OPTIONS, _others("chrf"),
                              _chrf_config, chrf.chrf_items, chrf.chrf_result, chrf.ChrfItems.concat,
                              chrf.ChrfItems.empty, _checked_by(_chrf_door, "chinese_chrf"), _chrf_door),
    "chinese_bertscore": MetricAPI("chinese_bertscore", "bertscore", BERTSCORE_OPTIONS, (), _bertscore_config,
                                   _bertscore_items, bertscore.bertscore_result, bertscore.BertScoreItems.concat,
                                   bertscore.BertScoreItems.empty, _bertscore_options,
                                   lambda function, options: _bertscore_options(**options), input_guards=False),
}
"""The metrics by evaluate module name."""


def metric_api(name: str) -> MetricAPI:
    """The `MetricAPI` of ``"chinese_rouge"``/``"rouge"``, ``"chinese_bleu"``/``"bleu"``, ``"chinese_chrf"``/``"chrf"``
    or ``"chinese_bertscore"``/``"bertscore"``.

    Raises:
        ValueError: another name (listing the valid ones)."""
    for api in METRICS.values():
        if name in (api.name, api.short):
            return api
    raise ValueError(f"not a zheval metric: {name!r}; valid: {', '.join(METRICS)}")
