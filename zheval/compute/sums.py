"""The result of [`zheval.score`][zheval.compute.joint.score] from partial sums: what a stream of batches or an engine's aggregation keeps.

`batch_sums` turns one batch's per-item statistics ([`ScoreItems`][zheval.compute.joint.ScoreItems]) into
`PartialSums` -- per group when groups are given -- and `sums_result` turns
the merged sums of the whole into the result dict of [`zheval.compute.joint.score_result`][], ``==`` to it:

* ROUGE: the exact sums of P, R and F per type (their means are ``math.fsum / n`` of the whole, as
  `zheval.results.reducers.mean`);
* BLEU and chrF (corpus level): the integer sums of their statistic vectors (exact already);
* the signature: the distinct reference counts (``nrefs``);
* intervals: only the Poisson bootstrap (`zheval.results.poisson`: weighted sums per resample, keyed by each
  item's content).

What needs every item is not a sum (`needs_every_item` names it): per-item lists (``use_aggregator=False``,
``level="sentence"``'s ``scores``), the multinomial bootstrap (it draws item indices from the whole list), the
presets' own numbers (a preset whose ``number_scale`` is set: LLaMA-Factory's and GLM-4's ``np.mean``, OpenCompass's
and LongBench's left-to-right sums -- the tools' own float summation order; ROUGE-1.5.5's bootstrap average, which
draws from every item in order; a preset of defaults only, such as ``sacrebleu-zh``, reduces like no preset) and
the cross-check.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, Hashable, Optional, Sequence

import numpy as np

from ..results.partial_sums import PartialSums
from ..results.poisson import RESAMPLE_BLOCK, poisson_weights
from ..results.reducers import MIN_INTERVAL_ITEMS, group_indices, no_interval_reason
from .bleu import bleu_resampling
from .guards import warn_resampling
from .bleu import result_from_stats as bleu_result_from_stats
from .chrf import chrf_resampling
from .chrf import result_from_stats as chrf_result_from_stats
from .joint import BOOTSTRAP_METHODS, ScoreConfig, ScoreItems
from .rouge import rouge_poisson_bounds

__all__ = ["BOOTSTRAP_METHODS", "needs_every_item", "batch_sums", "sums_result"]


def needs_every_item(config: ScoreConfig) -> Optional[str]:
    """Why ``config``'s result cannot be reduced from sums (a sentence naming the option and the alternative), or
    ``None`` when it can (the bootstrap, if any, is ``config``'s ``bootstrap_method="poisson"`` with one
    ``bootstrap`` and ``seed`` for every metric: the sums share one set of weights)."""
    rouge, bleu, chrf = config.rouge, config.bleu, config.chrf
    if config.crosscheck:
        return "crosscheck=True compares one process's tokens with the reference tool; run it on a sample"
    if rouge is not None and not rouge.use_aggregator:
        return ("use_aggregator=False returns a list per item; write the per-item scores to a file or the engine's "
                "dataset (per_item) instead")
    for cfg in (rouge, bleu):
        if cfg is not None and cfg.preset is not None and cfg.preset.number_scale is not None:
            return (f"preset={cfg.preset.name!r} adds the tool's own numbers, which follow the tool's float summation "
                    "over every item in order; score without the preset, or in one call on the whole list "
                    "(zheval.score)")
    for name, cfg in (("bleu", bleu), ("chrf", chrf)):
        if cfg is not None and cfg.level == "sentence":
            return (f"level='sentence' ({name}) returns a list of per-item scores; use level='corpus', and write "
                    "the per-item sentence scores to a file or the engine's dataset (per_item)")
    asked = [c for c in (rouge, bleu, chrf) if c is not None and c.bootstrap]
    if any(c.bootstrap_method != "poisson" for c in asked):
        return ("the multinomial bootstrap draws item indices from the whole list; pass bootstrap_method='poisson' "
                "(Poisson(1) weights per item: sums, identical whatever the batches)")
    configs = [c for c in (rouge, bleu, chrf) if c is not None]
    if asked and len({(int(c.bootstrap), int(c.seed)) for c in configs}) > 1:
        return ("the metrics ask for different bootstrap or seed values; the streamed sums share one set of Poisson "
                "weights: give every metric the same bootstrap and seed, or score them in separate calls")
    return None


def _interval_config(config: ScoreConfig):
    first = config.first
    return int(first.bootstrap), int(first.seed)


def _one_group(items: ScoreItems, config: ScoreConfig, weights: Optional[np.ndarray]) -> PartialSums:
    sums = PartialSums()
    sums.add_items(len(items), weights)
    if config.rouge is not None:
        r = items.rouge
        for t in r.types:
            sums.add_floats(f"rouge:{t}:f", r.fmeasure[t], weights)
            sums.add_floats(f"rouge:{t}:p", r.precision[t])
            sums.add_floats(f"rouge:{t}:r", r.recall[t])
        sums.add_reference_counts(r.reference_counts)
    if config.bleu is not None:
        sums.add_ints("bleu", items.bleu.stats, weights)
        sums.add_reference_counts(items.bleu.reference_counts)
    if config.chrf is not None:
        sums.add_ints("chrf", items.chrf.stats, weights)
        sums.add_reference_counts(items.chrf.reference_counts)
    return sums


def batch_sums(items: ScoreItems, config: ScoreConfig, *, keys: Optional[np.ndarray] = None,
               groups: Optional[Sequence[Hashable]] = None) -> Dict[Hashable, PartialSums]:
    """The partial sums of one batch, ``{group: PartialSums}`` (one group ``None`` without ``groups``).

    Args:
        items: the batch's [`ScoreItems`][zheval.compute.joint.ScoreItems]. config: its `ScoreConfig` (reducible:
            `needs_every_item` is ``None`` for the Poisson method).
        keys: ``(n,)`` uint64 item keys (`zheval.results.poisson.item_keys`); required when the config asks
            for a bootstrap (then read as the Poisson method).
        groups: optional group value per item.

    Raises:
        ValueError: a bootstrap without keys, keys or groups of another length than the items.
    """
    n = len(items)
    boot, seed = _interval_config(config)
    if boot and (keys is None or len(keys) != n):
        raise ValueError("batch_sums: the Poisson bootstrap needs one key per item")
    if groups is not None and len(groups) != n:
        raise ValueError(f"batch_sums: {len(groups)} group values for {n} items")
    by_group = {None: list(range(n))} if groups is None else group_indices(groups)
    out: Dict[Hashable, PartialSums] = {}
    for g, idx in by_group.items():
        part = items if groups is None else items.select(idx)
        sums = None
        for start in range(0, max(len(idx), 1), RESAMPLE_BLOCK):  # (B, block) weights at a time
            block = part if not boot else part.select(np.arange(start, min(start + RESAMPLE_BLOCK, len(idx))))
            w = poisson_weights(np.asarray(keys)[np.asarray(idx[start:start + RESAMPLE_BLOCK], dtype=np.intp)],
                                seed, boot) if boot else None
            one = _one_group(block, config, w)
            sums = one if sums is None else sums.merge(one)
            if not boot:
                break
        out[g] = sums
    return out


def _rouge(sums: PartialSums, config) -> Dict[str, Any]:
    out: Dict[str, Any] = {t: sums.mean(f"rouge:{t}:f") for t in config.types}
    if config.return_precision_recall:
        for t in config.types:
            out[f"{t}_precision"] = sums.mean(f"rouge:{t}:p")
            out[f"{t}_recall"] = sums.mean(f"rouge:{t}:r")
    if _interval_asked(out, sums, config):
        out.update(rouge_poisson_bounds(sums, config))
    return _signed(out, sums, config)


def _interval_asked(out: Dict[str, Any], sums: PartialSums, config) -> bool:
    """Whether to add the interval: a bootstrap asked for over at least `MIN_INTERVAL_ITEMS` items (fewer: ``out``
    says why there is none, in ``no_interval``)."""
    if config.bootstrap and sums.n < MIN_INTERVAL_ITEMS:
        out["no_interval"] = no_interval_reason(sums.n)
    return bool(config.bootstrap) and sums.n >= MIN_INTERVAL_ITEMS


def _signed(out: Dict[str, Any], sums: PartialSums, config) -> Dict[str, Any]:
    out["signature"] = config.signature(sorted(sums.reference_counts))  # bsmethod:poisson with a bootstrap
    return out


def _from_stats(sums: PartialSums, config, key: str, width: int, result_from_stats, resampling) -> Dict[str, Any]:
    """BLEU's or chrF's result from its summed statistics (``sums.ints[key]``, ``width`` columns), with its Poisson
    interval when one is asked."""
    total = sums.ints.get(key, np.zeros(width, dtype=np.int64))
    out = result_from_stats(total.reshape(1, -1) if sums.n else np.zeros((0, width), dtype=np.int64),
                            dataclasses.replace(config, bootstrap=0))
    if _interval_asked(out, sums, config):
        out.update(resampling(config).bounds(sums))
    return _signed(out, sums, config)


def _bleu(sums: PartialSums, config) -> Dict[str, Any]:
    return _from_stats(sums, config, "bleu", 3 + 2 * config.max_order, bleu_result_from_stats, bleu_resampling)


def _chrf(sums: PartialSums, config) -> Dict[str, Any]:
    return _from_stats(sums, config, "chrf", 3 * (config.char_order + config.word_order), chrf_result_from_stats,
                       chrf_resampling)


def sums_result(sums: PartialSums, config: ScoreConfig) -> Dict[str, dict]:
    """The result of [`zheval.compute.joint.score_result`][] from the merged sums of every item:
    ``{metric: result}`` in ``config.metrics`` order, scores on 0-1; with a bootstrap, the Poisson intervals.

    Raises:
        ValueError: ``config`` needs every item (`needs_every_item` names the option).
    """
    why = needs_every_item(config)
    if why is not None:
        raise ValueError(f"this result cannot be reduced from sums: {why}")
    out: Dict[str, dict] = {}
    if config.rouge is not None:
        out["rouge"] = _rouge(sums, config.rouge)
        warn_resampling(out["rouge"], list(config.rouge.types), config.rouge.bootstrap)  # as rouge_result
    if config.bleu is not None:
        out["bleu"] = _bleu(sums, config.bleu)
        warn_resampling(out["bleu"], ["bleu"], config.bleu.bootstrap)
    if config.chrf is not None:
        out["chrf"] = _chrf(sums, config.chrf)
        warn_resampling(out["chrf"], ["chrf"], config.chrf.bootstrap)
    return {m: out[m] for m in config.metrics}
