"""The two metrics as one table, for the adapters that serve either (the evaluate mixin, the Trainer hook): each
metric's option names, and its config / items / result functions (:mod:`zheval.compute.rouge`,
:mod:`zheval.compute.bleu`)."""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Tuple

from . import bleu, rouge

__all__ = ["MetricAPI", "METRICS", "metric_api"]


class MetricAPI(NamedTuple):
    """One metric's items/result API.

    Attributes:
        name: ``"chinese_rouge"`` or ``"chinese_bleu"`` (the evaluate module's name); short: ``"rouge"``/``"bleu"``.
        options: every option name its config takes; other_options: the other metric's options it does not take
            (accepted and ignored by the evaluate modules, for ``evaluate.combine``).
        config, items, result: :func:`~zheval.compute.rouge.rouge_config` / ``rouge_items`` / ``rouge_result`` (or
            the BLEU ones); concat: the items class's ``concat``; empty: ``empty(config)`` -> items of no item.
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


METRICS = {
    "chinese_rouge": MetricAPI("chinese_rouge", "rouge", rouge.ROUGE_OPTIONS,
                               tuple(k for k in bleu.BLEU_OPTIONS if k not in rouge.ROUGE_OPTIONS),
                               rouge.rouge_config, rouge.rouge_items, rouge.rouge_result, rouge.RougeItems.concat,
                               rouge.RougeItems.empty),
    "chinese_bleu": MetricAPI("chinese_bleu", "bleu", bleu.BLEU_OPTIONS,
                              tuple(k for k in rouge.ROUGE_OPTIONS if k not in bleu.BLEU_OPTIONS),
                              bleu.bleu_config, bleu.bleu_items, bleu.bleu_result, bleu.BleuItems.concat,
                              bleu.BleuItems.empty),
}
"""The metrics by evaluate module name."""


def metric_api(name: str) -> MetricAPI:
    """The :class:`MetricAPI` of ``"chinese_rouge"``/``"rouge"`` or ``"chinese_bleu"``/``"bleu"``.

    Raises:
        ValueError: another name (listing the valid ones)."""
    for api in METRICS.values():
        if name in (api.name, api.short):
            return api
    raise ValueError(f"not a zheval metric: {name!r}; valid: {', '.join(METRICS)}")
