"""The metrics as one table, for the adapters that serve any of them (the evaluate mixin, the Trainer hook): each
metric's option names, and its config / items / result functions ([`zheval.compute.rouge`][],
[`zheval.compute.bleu`][], [`zheval.compute.chrf`][])."""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Tuple

from . import bleu, chrf, rouge
from .options import BleuOptions, ChrfOptions, RougeOptions

__all__ = ["MetricAPI", "METRICS", "metric_api"]


class MetricAPI(NamedTuple):
    """One metric's items/result API.

    Attributes:
        name: ``"chinese_rouge"``, ``"chinese_bleu"`` or ``"chinese_chrf"`` (the evaluate module's name); short:
            ``"rouge"``/``"bleu"``/``"chrf"``.
        options: every option name its config takes; other_options: the other metrics' options it does not take
            (accepted and ignored by the evaluate modules, for ``evaluate.combine``).
        config, items, result: the config from options by name (checked against the metric's options class of
            `zheval.compute.options`), [`rouge_items`][zheval.compute.rouge.rouge_items] / ``rouge_result`` (or the BLEU
            or chrF ones); concat: the items class's ``concat``; empty: ``empty(config)`` -> items of no item.
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


_OPTIONS = {"rouge": rouge.ROUGE_OPTIONS, "bleu": bleu.BLEU_OPTIONS, "chrf": chrf.CHRF_OPTIONS}


def _rouge_config(**options) -> rouge.RougeConfig:
    return rouge.rouge_config(RougeOptions.from_names("compute_rouge", options))


def _bleu_config(**options) -> bleu.BleuConfig:
    return bleu.bleu_config(BleuOptions.from_names("compute_bleu", options))


def _chrf_config(**options) -> chrf.ChrfConfig:
    return chrf.chrf_config(ChrfOptions.from_names("compute_chrf", options))


def _others(short: str) -> Tuple[str, ...]:
    own = _OPTIONS[short]
    out: list = []
    for name, opts in _OPTIONS.items():
        out += [k for k in opts if name != short and k not in own and k not in out]
    return tuple(out)


METRICS = {
    "chinese_rouge": MetricAPI("chinese_rouge", "rouge", rouge.ROUGE_OPTIONS, _others("rouge"),
                               _rouge_config, rouge.rouge_items, rouge.rouge_result, rouge.RougeItems.concat,
                               rouge.RougeItems.empty),
    "chinese_bleu": MetricAPI("chinese_bleu", "bleu", bleu.BLEU_OPTIONS, _others("bleu"),
                              _bleu_config, bleu.bleu_items, bleu.bleu_result, bleu.BleuItems.concat,
                              bleu.BleuItems.empty),
    "chinese_chrf": MetricAPI("chinese_chrf", "chrf", chrf.CHRF_OPTIONS, _others("chrf"),
                              _chrf_config, chrf.chrf_items, chrf.chrf_result, chrf.ChrfItems.concat,
                              chrf.ChrfItems.empty),
}
"""The metrics by evaluate module name."""


def metric_api(name: str) -> MetricAPI:
    """The `MetricAPI` of ``"chinese_rouge"``/``"rouge"``, ``"chinese_bleu"``/``"bleu"`` or
    ``"chinese_chrf"``/``"chrf"``.

    Raises:
        ValueError: another name (listing the valid ones)."""
    for api in METRICS.values():
        if name in (api.name, api.short):
            return api
    raise ValueError(f"not a zheval metric: {name!r}; valid: {', '.join(METRICS)}")
