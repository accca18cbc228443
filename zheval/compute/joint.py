"""Score ROUGE, BLEU and chrF in one call, tokenising each distinct text once.

[`score`][zheval.compute.joint.score] runs the items/result pairs of the metrics asked for ([`zheval.compute.rouge`][],
[`zheval.compute.bleu`][], [`zheval.compute.chrf`][]) and returns their results, exactly as
[`zheval.compute_rouge`][zheval.compute.rouge.compute_rouge], [`zheval.compute_bleu`][zheval.compute.bleu.compute_bleu] and [`zheval.compute_chrf`][zheval.compute.chrf.compute_chrf] would return them. Options
come by name or as typed objects ([`RougeOptions`][zheval.compute.options.RougeOptions] ...), split among the metrics by
[`zheval.compute.options.options_for_metrics`][]. It is itself a pair: [`score_config`][zheval.compute.joint.score_config] (every option checked
once), [`score_items`][zheval.compute.joint.score_items] (per-item statistics of every metric, [`ScoreItems`][zheval.compute.joint.ScoreItems], which concatenate exactly
across batches, partitions and machines) and [`score_result`][zheval.compute.joint.score_result] (the result dict from items);
``score(p, r, m, **o) == score_result(score_items(p, r, score_config(m, **o)), score_config(m, **o))``. The engine
adapters ([`zheval.adapters.ray`][], [`zheval.adapters.spark`][]) compute [`score_items`][zheval.compute.joint.score_items] where the data is and
call [`score_result`][zheval.compute.joint.score_result] on the driver; [`item_scores`][zheval.compute.joint.item_scores] gives the per-item columns. Where `zheval.fast.usable_for` (``"shared_tokens"``) allows it
-- ``sentence_split="newline"`` with the ``char`` or ``none`` tokenizer (whose line tokens concatenate to the
whole-text tokens), ``"punct"`` with the ``char`` tokenizer whose terms hold no sentence-final mark, ``.``, closer or attached mark
(its text rule then always cuts between tokens), no
BLEU preset or crosscheck -- BLEU is counted on ROUGE's tokenised corpus itself: one
`zheval.compute.shared_tokens.SharedTokens` object passed to both, whose BLEU pass also gives ROUGE its ROUGE-N
hits. Otherwise BLEU tokenises on its own (through the tokenizer's content-keyed cache). Nothing is kept across
calls beyond that cache; scores never are. chrF runs its own items/result pair ([`zheval.compute.chrf`][];
chrF++'s words come through the same cache).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Dict, Optional, Sequence

import numpy as np

from .bleu import (BleuConfig, BleuItems, bleu_config, bleu_door_config, bleu_items, bleu_resampling, bleu_result,
                   result_from_stats)
from .chrf import ChrfConfig, ChrfItems, chrf_config, chrf_door_config, chrf_items, chrf_resampling, chrf_result
from .chrf import result_from_stats as chrf_result_from_stats
from .gcpause import without_cyclic_gc
from .guards import one_drop_warning, warn_input_slips
from .option_rules import check_shared_beta
from .inputs import validate_inputs
from .options import (BOOTSTRAP_METHODS, BleuOptions, ChrfOptions, MetricOptions, RougeOptions, check_metrics,
                      options_for_metrics)
from .rouge import RougeConfig, RougeItems, rouge_config, rouge_door_config, rouge_items, rouge_resampled, rouge_result
from .shared_tokens import SharedTokens
from ..fast import usable_for
from ..results.breakdowns import first_references
from ..results.partial_sums import PartialSums
from ..results.poisson import item_keys, resampled_sums
from ..results.reducers import MIN_INTERVAL_ITEMS

__all__ = ["METRICS", "BOOTSTRAP_METHODS", "ScoreConfig", "ScoreItems", "score", "score_config", "score_door_config",
           "score_config_of", "score_items", "score_result", "item_scores"]

#: Metric names `score` computes.
METRICS = ("bleu", "rouge", "chrf")


@dataclass(frozen=True)
class ScoreConfig:
    """The options of a [`score`][zheval.compute.joint.score] call, resolved and checked once ([`score_config`][zheval.compute.joint.score_config]).

    Attributes:
        metrics: the metric names asked for, in the caller's order (a tuple of ``"bleu"``/``"rouge"``/``"chrf"``).
        rouge: the `RougeConfig` (``None`` without ROUGE).
        bleu: the `BleuConfig` (``None`` without BLEU).
        bleu_options: the [`BleuOptions`][zheval.compute.options.BleuOptions] ([`item_scores`][zheval.compute.joint.item_scores] resolves them again at
            sentence level; ``None`` without BLEU).
        chrf: the `ChrfConfig` (``None`` without chrF).
        chrf_options: the [`ChrfOptions`][zheval.compute.options.ChrfOptions] (``None`` without chrF).

    It pickles (a jieba tokenizer without its jieba instance, rebuilt where it is used), so engines send it to
    their workers; a user callable tokenizer pickles only if the callable does.
    """

    metrics: tuple
    rouge: Optional[RougeConfig]
    bleu: Optional[BleuConfig]
    bleu_options: Optional[BleuOptions] = dataclasses.field(default=None, compare=False)
    chrf: Optional[ChrfConfig] = None
    chrf_options: Optional[ChrfOptions] = dataclasses.field(default=None, compare=False)

    @property
    def first(self):
        """The config whose tokenizer the input guards and the shared options use (ROUGE's when asked)."""
        return next(c for c in (self.rouge, self.bleu, self.chrf) if c is not None)

    @property
    def poisson(self) -> bool:
        """Whether a metric asks for the Poisson bootstrap (``bootstrap`` > 0, ``bootstrap_method="poisson"``): its
        result then needs each item's key (`zheval.results.poisson.item_keys`)."""
        return any(c is not None and c.bootstrap and c.bootstrap_method == "poisson"
                   for c in (self.rouge, self.bleu, self.chrf))

    @property
    def crosscheck(self) -> bool:
        """Whether a cross-check was asked (its items cannot be concatenated)."""
        return any(c is not None and c.crosscheck for c in (self.rouge, self.bleu))


@dataclass
class ScoreItems:
    """Per-item statistics of both metrics ([`score_items`][zheval.compute.joint.score_items]): ``rouge`` (`RougeItems`)
    ``bleu`` (`BleuItems`) and ``chrf`` (`ChrfItems`), each
    ``None`` when its metric was not asked for.

    Items of several batches concatenate ([`concat`][zheval.compute.joint.ScoreItems.concat]) to the items of the whole, exactly.
    """

    rouge: Optional[RougeItems]
    bleu: Optional[BleuItems]
    chrf: Optional[ChrfItems] = None

    def __len__(self) -> int:
        return len(next(x for x in (self.rouge, self.bleu, self.chrf) if x is not None))

    @classmethod
    def concat(cls, parts: Sequence["ScoreItems"]) -> "ScoreItems":
        """The items of several batches, in order (`RougeItems.concat`, `BleuItems.concat`).

        Raises:
            ValueError: no part, parts of different metrics, or the concatenation errors of the two item types
                (different ROUGE types or BLEU orders, a cross-check).
        """
        if not parts:
            raise ValueError("ScoreItems.concat needs at least one part")
        if len({(p.rouge is None, p.bleu is None, p.chrf is None) for p in parts}) != 1:
            raise ValueError("ScoreItems.concat needs parts of the same metrics")
        first = parts[0]
        return cls(RougeItems.concat([p.rouge for p in parts]) if first.rouge is not None else None,
                   BleuItems.concat([p.bleu for p in parts]) if first.bleu is not None else None,
                   ChrfItems.concat([p.chrf for p in parts]) if first.chrf is not None else None)

    def select(self, indices) -> "ScoreItems":
        """The items at ``indices`` (an int array or list), in that order (a group)."""
        return ScoreItems(self.rouge.select(indices) if self.rouge is not None else None,
                          self.bleu.select(indices) if self.bleu is not None else None,
                          self.chrf.select(indices) if self.chrf is not None else None)


def score_config(
    metrics: Sequence[str] = ("bleu", "rouge"),
    *,
    rouge: Optional[RougeOptions] = None,
    bleu: Optional[BleuOptions] = None,
    chrf: Optional[ChrfOptions] = None,
    **options: Any,
) -> ScoreConfig:
    """Check the metric names and options of [`score`][zheval.compute.joint.score] (arguments as there) and build every metric's config.

    No text is touched: every option error is raised here.

    Raises:
        ValueError, TypeError: as `score_door_config`.
    """
    return score_door_config("score", metrics, {"rouge": rouge, "bleu": bleu, "chrf": chrf}, options)


def score_door_config(function: str, metrics: Sequence[str], typed: Dict[str, Optional[MetricOptions]],
                      options: Dict[str, Any]) -> ScoreConfig:
    """The `ScoreConfig` of options a caller gave the door ``function`` directly ([`score`][zheval.compute.joint.score],
    [`score_batches`][zheval.compute.batches.score_batches], the Ray and Spark doors): the metric names checked, the
    options split ([`options_for_metrics`][zheval.compute.options.options_for_metrics]) and every metric's config
    built by its door config (`score_config_of` with ``door=True``), so an option that would change nothing is
    refused as ``compute_rouge``/``compute_bleu``/``compute_chrf`` refuse it, the error naming ``function``.

    Args:
        function: the door's name; metrics: its ``metrics``; typed: ``{"rouge": RougeOptions or None, ...}``;
            options: its options by name.

    Raises:
        ValueError, TypeError: an unknown metric (listing the valid ones); ``beta`` by name with both ROUGE and
            chrF (`zheval.compute.option_rules.check_shared_beta`); as [`options_for_metrics`][zheval.compute.options.options_for_metrics] and
            `score_config_of`.
    """
    metrics = check_metrics(metrics, METRICS)
    check_shared_beta(function, metrics, options)
    objs = options_for_metrics(function, metrics, options, typed)
    return score_config_of(objs, function=function, by_name=options, door=True)


def score_config_of(options: Dict[str, MetricOptions], *, function: str = "score",
                    by_name: Optional[Dict[str, Any]] = None, door: bool = False) -> ScoreConfig:
    """The `ScoreConfig` of every metric's options object (the output of
    [`options_for_metrics`][zheval.compute.options.options_for_metrics]; its key order is the metrics' order) -- what every door
    that feeds several metrics builds (through `score_door_config`; the streamed report, on its resolved options).

    Args:
        options: ``{"rouge": RougeOptions, "bleu": BleuOptions, "chrf": ChrfOptions}``, any non-empty subset.
        function: the door's name, for the errors; by_name: the options the door got by name (a ``preset`` or
            ``crosscheck`` given by name is refused beside chrF, which has neither).
        door: build with the door configs ([`rouge_door_config`][zheval.compute.rouge.rouge_door_config],
            [`bleu_door_config`][zheval.compute.bleu.bleu_door_config],
            [`chrf_door_config`][zheval.compute.chrf.chrf_door_config]: ``seed``/``confidence``/``bootstrap_method``
            without ``bootstrap``, ``sentence_split`` without rougeLsum refused, naming ``function``) -- options a
            caller gave; False: the plain config builders, for options a door resolved itself.

    Raises:
        TypeError: ``preset`` or ``crosscheck`` by name with chrF; the config builders' errors
            ([`rouge_config`][zheval.compute.rouge.rouge_config], [`bleu_config`][zheval.compute.bleu.bleu_config],
            [`chrf_config`][zheval.compute.chrf.chrf_config]; ValueError too) and, with ``door``, the door configs'.
    """
    metrics = tuple(options)
    if "chrf" in metrics:
        refused = sorted(k for k in ("preset", "crosscheck") if k in (by_name or {}))
        if refused:
            raise TypeError(f"{function}(metrics=[..., 'chrf']): chrF has no {' or '.join(refused)}; score chrF "
                            "in a separate call")

    def build(metric: str, plain, checked):
        if metric not in options:
            return None
        return checked(function, options[metric]) if door else plain(options[metric])

    rouge_cfg = build("rouge", rouge_config, rouge_door_config)
    bleu_cfg = build("bleu", bleu_config, bleu_door_config)
    chrf_cfg = build("chrf", chrf_config, chrf_door_config)
    one_drop_warning(*(c.tokenizer for c in (rouge_cfg, bleu_cfg, chrf_cfg) if c is not None))
    return ScoreConfig(metrics, rouge_cfg, bleu_cfg, options.get("bleu"), chrf_cfg, options.get("chrf"))


def score_items(predictions: Sequence[str], references: Sequence[Any], config: ScoreConfig, *,
                warn: bool = True) -> ScoreItems:
    """Per-item statistics of both metrics of [`score`][zheval.compute.joint.score], from texts.

    Args:
        predictions: ``list[str]`` (checked by `validate_inputs`).
        references: per item a ``str`` or a non-empty ``list[str]`` (checked and canonicalised by `validate_inputs`).
        config: from [`score_config`][zheval.compute.joint.score_config].
        warn: issue the input guards' warnings (`warn_input_slips`); an engine's
            workers pass False and report `input_slips` instead.

    Raises:
        TypeError, ValueError: the input errors of `validate_inputs` (naming ``predictions[i]`` or
            ``references[i][j]``), and [`EmptyReferenceError`][zheval.compute.inputs.EmptyReferenceError].
    """
    rouge_cfg, bleu_cfg, chrf_cfg = config.rouge, config.bleu, config.chrf
    preds, refs = validate_inputs(predictions, references)
    first = config.first
    if warn:
        warn_input_slips(preds, refs, first.tokenizer, t2s_option=first.t2s_applies,
                         words=rouge_cfg is not None or bleu_cfg is not None or chrf_cfg.uses_tokens)
    if first.max_refs is not None:  # the same first references for both metrics, before the shared tokenisation
        refs = first_references(refs, first.max_refs)
    shared = None
    if rouge_cfg is not None and rouge_cfg.preset is None:
        both = bleu_cfg is not None and usable_for(
            "shared_tokens", rouge_tokenizer=rouge_cfg.tokenizer, bleu_tokenizer=bleu_cfg.tokenizer,
            sentence_split=rouge_cfg.sentence_split, bleu_crosscheck=bleu_cfg.crosscheck, bleu_preset=bleu_cfg.preset)
        shared = SharedTokens(preds, refs, rouge_cfg.tokenizer, rouge_cfg.sentence_split,
                              bleu_max_order=bleu_cfg.max_order if both else None,
                              sentences=rouge_cfg.needs_sentences)
    rouge = rouge_items(preds, refs, rouge_cfg, shared=shared) if rouge_cfg is not None else None
    bleu = None
    if bleu_cfg is not None:
        on_shared = shared if shared is not None and shared.bleu_max_order is not None else None
        bleu = bleu_items(preds, refs, bleu_cfg, shared=on_shared)
    # (refs already cut to max_refs: chrF's own limit changes nothing more)
    chrf = chrf_items(preds, refs, chrf_cfg) if chrf_cfg is not None else None
    return ScoreItems(rouge, bleu, chrf)


def score_result(items: ScoreItems, config: ScoreConfig, *, keys: Optional[np.ndarray] = None) -> Dict[str, dict]:
    """The result of [`score`][zheval.compute.joint.score] from per-item statistics: ``{metric: result}`` in ``config.metrics`` order
    ([`rouge_result`][zheval.compute.rouge.rouge_result], [`bleu_result`][zheval.compute.bleu.bleu_result],
    [`chrf_result`][zheval.compute.chrf.chrf_result]; scores on 0-1). With ``bootstrap_method="poisson"``, ``keys``
    (``(n,)`` uint64, `zheval.results.poisson.item_keys`) is required: the metrics of one ``bootstrap`` and ``seed``
    share one set of weights, and the intervals equal those of
    [`zheval.score_batches`][zheval.compute.batches.score_batches] and of the engine doors on the same items."""
    shared = _resampled(items, config, keys) if keys is not None else {}
    out: Dict[str, dict] = {}
    for m, result in (("rouge", rouge_result), ("bleu", bleu_result), ("chrf", chrf_result)):
        if getattr(config, m) is not None:
            out[m] = result(getattr(items, m), getattr(config, m), keys=keys, resampled=shared.get(m))
    return {m: out[m] for m in config.metrics}


def _resampled(items: ScoreItems, config: ScoreConfig, keys: np.ndarray) -> Dict[str, PartialSums]:
    """The Poisson bootstrap's resampled sums of every metric that asks for it, one `resampled_sums` per distinct
    ``(bootstrap, seed)`` (the weights are drawn once for the metrics that share them)."""
    columns_of = {"rouge": rouge_resampled, "bleu": lambda it, c: bleu_resampling(c).columns(it.stats),
                  "chrf": lambda it, c: chrf_resampling(c).columns(it.stats)}
    by_draw: Dict[tuple, list] = {}
    for m in config.metrics:
        c = getattr(config, m)
        if c.bootstrap and c.bootstrap_method == "poisson" and len(items) >= MIN_INTERVAL_ITEMS:
            by_draw.setdefault((int(c.bootstrap), int(c.seed)), []).append(m)
    out: Dict[str, PartialSums] = {}
    for (boot, seed), names in by_draw.items():
        floats: Dict[str, np.ndarray] = {}
        ints: Dict[str, np.ndarray] = {}
        for m in names:
            columns = columns_of[m](getattr(items, m), getattr(config, m))
            floats.update(columns.get("floats", {}))
            ints.update(columns.get("ints", {}))
        sums = resampled_sums(keys, seed, boot, floats, ints)
        out.update(dict.fromkeys(names, sums))
    return out


def item_scores(items: ScoreItems, config: ScoreConfig) -> Dict[str, np.ndarray]:
    """Per-item scores of [`score_items`][zheval.compute.joint.score_items]' items, as columns of ``len(items)`` float64 values (0-1).

    Returns:
        Only the metrics asked for. ROUGE: ``<type>`` (F), ``<type>_precision``, ``<type>_recall`` for every type, as
        ``compute_rouge(use_aggregator=False, return_precision_recall=True)`` gives them; BLEU: ``sentence_bleu``, the
        item's sentence BLEU from its own statistics, as ``compute_bleu(level="sentence")`` with the call's other options
        gives it (``scores``; effective order on unless the call set it); chrF: ``chrf``, the item's sentence chrF,
        as ``compute_chrf(level="sentence")`` gives it.
    """
    out: Dict[str, np.ndarray] = {}
    if config.rouge is not None:
        for t in items.rouge.types:
            out[t] = np.asarray(items.rouge.fmeasure[t], dtype=np.float64)
            out[f"{t}_precision"] = np.asarray(items.rouge.precision[t], dtype=np.float64)
            out[f"{t}_recall"] = np.asarray(items.rouge.recall[t], dtype=np.float64)
    if config.bleu is not None:
        per_item = bleu_config(dataclasses.replace(config.bleu_options, level=None, bootstrap=0, crosscheck=False),
                               caller_level="sentence")  # the per-item column's own level: no preset override
        out["sentence_bleu"] = np.asarray(result_from_stats(items.bleu.stats, per_item)["scores"], dtype=np.float64)
    if config.chrf is not None:
        per_item = chrf_config(dataclasses.replace(config.chrf_options, level="sentence", bootstrap=0))
        out["chrf"] = np.asarray(chrf_result_from_stats(items.chrf.stats, per_item)["scores"], dtype=np.float64)
    return out


@without_cyclic_gc
def score(
    predictions: Sequence[str],
    references: Sequence[Any],
    metrics: Sequence[str] = ("bleu", "rouge"),
    *,
    rouge: Optional[RougeOptions] = None,
    bleu: Optional[BleuOptions] = None,
    chrf: Optional[ChrfOptions] = None,
    **options: Any,
) -> Dict[str, dict]:
    """Chinese BLEU, ROUGE and/or chrF of the same predictions and references, sharing one tokenisation.

    Args:
        predictions: ``list[str]``, one per item.
        references: per item a ``str`` or a non-empty ``list[str]`` (ragged).
        metrics: any of ``"bleu"``, ``"rouge"``, ``"chrf"`` (default BLEU and ROUGE), computed ROUGE first.
        rouge: ROUGE's options as one object ([`RougeOptions`][zheval.compute.options.RougeOptions]); only with
            ``"rouge"`` in ``metrics``.
        bleu: BLEU's options as one object ([`BleuOptions`][zheval.compute.options.BleuOptions]).
        chrf: chrF's options as one object ([`ChrfOptions`][zheval.compute.options.ChrfOptions]).
        options: the same options by name, each defined once as a field of those classes; each goes to every
            requested metric that has it ([`options_for_metrics`][zheval.compute.options.options_for_metrics]: e.g. ``tokenizer``
            to all, ``rouge_types`` to ROUGE, ``level`` to BLEU and chrF; the interval options ``bootstrap``,
            ``bootstrap_method`` -- ``"poisson"``: the intervals of
            [`zheval.score_batches`][zheval.compute.batches.score_batches] and of the Ray and Spark doors on the same
            items, and of each metric's own call -- ``seed`` and ``confidence`` to every metric). ``preset`` and
            ``crosscheck`` by name are refused beside chrF (TypeError).

    Returns:
        ``{"bleu": compute_bleu(...) result, "rouge": compute_rouge(...) result, "chrf": compute_chrf(...) result}``
        (only the requested keys); every value equals what the separate call with the same options returns (its
        intervals too, either ``bootstrap_method``). It is ``score_result(score_items(...))``.

    Raises:
        ValueError: an unknown metric name (listing the valid ones), or any error of the separate calls (an
            unknown ``bootstrap_method``, ``bootstrap_method="poisson"`` with ``crosscheck``, an empty
            reference: [`EmptyReferenceError`][zheval.compute.inputs.EmptyReferenceError], naming every ``references[i][j]``).
        TypeError: an option no metric knows, an option no requested metric uses (naming the metric that would),
            an option given both by name and in an options object, or any error of the separate calls.

    Warns:
        ZhevalWarning: the input guards of [`zheval.compute.guards`][] (each a
            [`zheval.ZhevalWarning`][zheval.compute.guards.ZhevalWarning]), once for every metric.
    """
    config = score_config(metrics, rouge=rouge, bleu=bleu, chrf=chrf, **options)
    items = score_items(predictions, references, config)
    keys = item_keys(*validate_inputs(predictions, references)) if config.poisson else None
    return score_result(items, config, keys=keys)
