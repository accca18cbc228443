"""Chinese ROUGE on texts, and ROUGE's items/result pair: per-item statistics from texts ([`rouge_items`][zheval.compute.rouge.rouge_items]) and a result from statistics
([`rouge_result`][zheval.compute.rouge.rouge_result]), with the option set both take (`RougeConfig`, built and checked once by
[`rouge_config`][zheval.compute.rouge.rouge_config]).

Every ROUGE entry point goes through this pair: [`zheval.compute_rouge`][zheval.compute.rouge.compute_rouge], [`zheval.score`][zheval.compute.joint.score], the evaluate
module ``chinese_rouge``, the Trainer hook (also with ``batch_eval_metrics``: the items of the batches concatenate),
the 小黄鸭 evaluation and the CLI. The per-item statistics are P, R and F of every ROUGE type (0-1) and the item's
reference count; the corpus value of a type is the **exact mean** of its per-item F (not rouge-score's bootstrap
"mid"), and an optional percentile bootstrap interval is reported beside it.

Where each rule lives: the multi-reference rule is [`zheval.definitions.rouge.combine_references`][] (presets plug
in their per-reference formula); the empty-reference rule is `zheval.compute.inputs.check_references`; which
fast twin serves a type is `zheval.fast.usable_for`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ..definitions.rouge import Score, make_item_scorer
from ..definitions.rouge_types import parse_rouge_type
from ..fast import usable_for
from ..fast.index import CorpusLayout
from ..fast.rouge import corpus_rouge_scores
from ..presets import RougePreset, apply_preset, rouge_preset
from ..results.poisson import poisson_keys, poisson_sums_of, resampled_mean_interval
from ..results.partial_sums import PartialSums
from ..results.reducers import MIN_INTERVAL_ITEMS, bootstrap_interval, mean, no_interval_reason
from ..results.signature import build_signature, interval_fields
from ..tokenizers import BaseTokenizer
from ..tokenizers.jieba_rs import jieba_rs_segmenter
from ..tokenizers.corpus import tokenize_corpus, tokenize_items
from .gcpause import without_cyclic_gc
from .guards import warn_input_slips, warn_preset_override, warn_resampling
from .option_rules import check_interval_used, check_sentence_split_used
from .inputs import check_references, prepare_items, validate_inputs
from .options import (DEFAULT_ROUGE_TYPES, ROUGE_DEFAULTS, RougeOptions, check_crosscheck_method, check_rouge_types,
                      check_rouge_w_weight,
                      refuses_unknown_options, tokenizer_from_options)
from .shared_tokens import SharedTokens

__all__ = [
    "DEFAULT_ROUGE_TYPES",
    "DEFAULTS",
    "ROUGE_OPTIONS",
    "RougeOptions",
    "RougeConfig",
    "RougeItems",
    "rouge_config",
    "rouge_door_config",
    "rouge_items",
    "rouge_resampled",
    "rouge_poisson_bounds",
    "rouge_result",
    "compute_rouge",
]

logger = logging.getLogger("zheval.compute.rouge")

#: ROUGE's values where neither the caller nor a preset sets an option (`zheval.compute.options.ROUGE_DEFAULTS`).
DEFAULTS = ROUGE_DEFAULTS
#: Every option `zheval.compute_rouge` understands: the fields of `RougeOptions`.
ROUGE_OPTIONS = RougeOptions.names()


@dataclass(frozen=True)
class RougeConfig:
    """Every option of a ROUGE computation, resolved (preset defaults, then explicit arguments) and checked once,
    with the tokenizer built from them. Built by [`rouge_config`][zheval.compute.rouge.rouge_config]; read by [`rouge_items`][zheval.compute.rouge.rouge_items] and
    [`rouge_result`][zheval.compute.rouge.rouge_result].

    Attributes:
        types: ROUGE type names; multi_ref: ``max``/``mean``/``pool``/``best_recall``; beta: F beta (>= 0);
            rouge_w_weight: w of rougeW (>= 1); sentence_split: ``punct``/``newline`` (rougeLsum); preset: the
            [`RougePreset`][zheval.presets.RougePreset] (its name in the signature) or None; tokenizer: the zheval
            tokenizer.
        use_aggregator, return_precision_recall, bootstrap, seed, confidence, crosscheck, bootstrap_method: result
            options, as
            [`zheval.compute_rouge`][zheval.compute.rouge.compute_rouge]; max_refs: score with the first ``max_refs`` references of every item
            (``None``: all; `zheval.compute.inputs.prepare_items`).
    """

    types: tuple
    multi_ref: str
    beta: float
    rouge_w_weight: float
    sentence_split: str
    preset: Optional[RougePreset]
    tokenizer: BaseTokenizer
    use_aggregator: bool = True
    return_precision_recall: bool = False
    bootstrap: int = 0
    seed: int = 12345
    confidence: float = 0.95
    crosscheck: bool = False
    max_refs: Optional[int] = None
    bootstrap_method: str = "multinomial"

    @property
    def needs_sentences(self) -> bool:
        """Whether a type reads sentences (rougeLsum); otherwise the corpus is tokenised without a sentence split."""
        return any(parse_rouge_type(t).kind == "Lsum" for t in self.types)

    @property
    def t2s_applies(self) -> bool:
        """Whether the ``t2s`` option can change this tokenizer (not for a tool tokenizer of a preset)."""
        return not self.tokenizer.is_tool

    def signature(self, reference_counts: Sequence[int]) -> str:
        """The result's reproducibility signature (`zheval.results.signature`) for items with these
        reference counts."""
        preset = self.preset
        fields = [("types", "+".join(self.types)), ("multi", self.multi_ref)]
        own_formula = preset is not None and preset.fixed_beta  # the tool's F1 reads neither beta nor the split
        if not own_formula:
            fields.append(("beta", self.beta))
        if "rougeLsum" in self.types and not own_formula:
            fields.append(("split", self.sentence_split))
        if preset is not None:
            fields += list(preset.signature_fields)
        if any(parse_rouge_type(t).kind == "W" for t in self.types):
            fields.append(("w", self.rouge_w_weight))
        fields += interval_fields(self.bootstrap, self.seed, self.confidence, self.bootstrap_method)
        return build_signature(self.tokenizer, reference_counts, "rouge", fields,
                               preset=preset.signature_name(self) if preset is not None else None,
                               max_refs=self.max_refs)


def rouge_config(options: RougeOptions = RougeOptions()) -> RougeConfig:
    """The config of [`zheval.compute_rouge`][zheval.compute.rouge.compute_rouge] from its options ([`RougeOptions`][zheval.compute.options.RougeOptions],
    whose fields checked each value when it was built): the preset's defaults resolved (an explicit value wins),
    the checks that read several options or the preset, and the tokenizer built. No text is touched.

    Raises:
        TypeError: not a [`RougeOptions`][zheval.compute.options.RougeOptions]; tokenizer option types.
        ValueError: an unknown preset (listing the valid ones; a preset of the other metric is named as such,
            [`zheval.presets.rouge_preset`][]), bootstrap with ``use_aggregator=False``, crosscheck with
            ``beta != 1``, the preset's own refusals ([`zheval.presets.RougePreset.check_types`][zheval.presets.base.RougePreset.check_types] and
            [`check`][zheval.presets.base.RougePreset.check]: rouge-chinese presets compute rougeN / rougeL only, a tool's F1
            keeps ``beta=1``, a crosscheck the preset has no tool for, LongBench's rougeL and max), and the
            tokenizer's own option errors ([`zheval.tokenizers.get_tokenizer`][]).
    """
    if not isinstance(options, RougeOptions):
        raise TypeError(f"rouge_config takes a RougeOptions, got {type(options).__name__}; build one with "
                        "RougeOptions(...) or RougeOptions.from_names(function, options)")
    o = options
    part = rouge_preset(o.preset)
    opts = apply_preset(DEFAULTS, part, {k: getattr(o, k) for k in DEFAULTS}, None)
    types = check_rouge_types(opts["rouge_types"])
    check_rouge_w_weight(o.rouge_w_weight, types)
    if part is not None:
        part.check_types(types)
    beta = opts["beta"]
    if o.bootstrap and not o.use_aggregator:
        raise ValueError("bootstrap intervals are computed for the aggregated score; use use_aggregator=True")
    if part is not None:
        part.check(types=types, multi_ref=opts["multi_ref"], beta=beta, crosscheck=o.crosscheck)
    check_crosscheck_method(o)
    if o.crosscheck and float(beta) != 1.0:
        raise ValueError("crosscheck compares F1 with rouge-score/rouge-chinese; it needs beta=1")
    tok = tokenizer_from_options(opts["tokenizer"], o, opts["normalize"], part)
    config = RougeConfig(types=tuple(types), multi_ref=opts["multi_ref"], beta=float(beta),
                         rouge_w_weight=float(opts["rouge_w_weight"]), sentence_split=opts["sentence_split"],
                         preset=part, tokenizer=tok, use_aggregator=bool(o.use_aggregator),
                         return_precision_recall=bool(o.return_precision_recall), bootstrap=int(o.bootstrap),
                         seed=o.seed, confidence=o.confidence, crosscheck=bool(o.crosscheck),
                         max_refs=None if o.max_refs is None else int(o.max_refs),
                         bootstrap_method=o.bootstrap_method)
    warn_preset_override(config)
    return config


@dataclass
class RougeItems:
    """Per-item ROUGE statistics of a corpus: P, R and F of every type, and each item's reference count.

    Attributes:
        types: the ROUGE type names, in the order asked for.
        precision, recall, fmeasure: ``{type: (n_items,) float64 array}``, values in [0, 1].
        reference_counts: ``(n_items,)`` int64, the number of references of each item.
        crosscheck: the cross-check of these items against the reference tool (only with ``crosscheck=True``;
            such items cannot be concatenated).
        extra: a preset's own per-item columns, ``{name: (n_items,) array}`` (``longbench``: the uncut score and
            the zeroed-answer counts; ``opencompass-jieba-rouge``: the placeholder counts); empty otherwise.

    Items of several batches, shards or processes concatenate (`concat`) to the items of the whole, and every
    reduction (mean, bootstrap) of the whole equals that of the concatenation.
    """

    types: tuple
    precision: Dict[str, np.ndarray]
    recall: Dict[str, np.ndarray]
    fmeasure: Dict[str, np.ndarray]
    reference_counts: np.ndarray
    crosscheck: Optional[dict] = field(default=None, compare=False)
    extra: Dict[str, np.ndarray] = field(default_factory=dict, compare=False)

    def __len__(self) -> int:
        return len(self.reference_counts)

    @classmethod
    def from_scores(cls, types: Sequence[str], scores: Sequence[Dict[str, Score]],
                    reference_counts: Sequence[int]) -> "RougeItems":
        """Items from per-item ``{type: Score}`` dicts (the reference scorers' output)."""
        cols = {k: {t: np.array([getattr(s[t], k) for s in scores], dtype=np.float64) for t in types}
                for k in ("precision", "recall", "fmeasure")}
        return cls(tuple(types), cols["precision"], cols["recall"], cols["fmeasure"],
                   np.asarray(reference_counts, dtype=np.int64))

    @classmethod
    def empty(cls, config: "RougeConfig") -> "RougeItems":
        """Items of no item, with ``config``'s types."""
        z = {t: np.zeros(0, dtype=np.float64) for t in config.types}
        return cls(tuple(config.types), dict(z), dict(z), dict(z), np.zeros(0, dtype=np.int64))

    @classmethod
    def concat(cls, parts: Sequence["RougeItems"]) -> "RougeItems":
        """The items of several batches, in order (at least one part; all with the same types; no crosscheck).

        Raises:
            ValueError: no part, parts with different types, or a part carrying a cross-check.
        """
        if not parts:
            raise ValueError("RougeItems.concat needs at least one part")
        types = parts[0].types
        if any(p.types != types for p in parts) or any(p.crosscheck is not None for p in parts):
            raise ValueError("RougeItems.concat needs parts with the same types and no cross-check")
        keys = list(dict.fromkeys(k for p in parts for k in p.extra))
        if any(len(p) and set(p.extra) != set(keys) for p in parts):
            raise ValueError("RougeItems.concat needs parts with the same preset columns (extra)")
        extra = {k: np.concatenate([p.extra[k] for p in parts if k in p.extra]) for k in keys}
        return cls(types, *({t: np.concatenate([getattr(p, k)[t] for p in parts]) for t in types}
                            for k in ("precision", "recall", "fmeasure")),
                   np.concatenate([p.reference_counts for p in parts]), extra=extra)

    def select(self, indices) -> "RougeItems":
        """The items at ``indices`` (an int array or list), in that order (a group, a bootstrap resample)."""
        idx = np.asarray(indices, dtype=np.intp)
        return RougeItems(self.types, *({t: getattr(self, k)[t][idx] for t in self.types}
                                        for k in ("precision", "recall", "fmeasure")),
                          self.reference_counts[idx], extra={k: v[idx] for k, v in self.extra.items()})

    def scores(self) -> List[Dict[str, Score]]:
        """``[{type: Score}]`` per item (Python floats)."""
        cols = {t: (self.precision[t].tolist(), self.recall[t].tolist(), self.fmeasure[t].tolist())
                for t in self.types}
        return [{t: Score(cols[t][0][i], cols[t][1][i], cols[t][2][i]) for t in self.types} for i in range(len(self))]


def rouge_items(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]],
    config: RougeConfig,
    shared: Optional[SharedTokens] = None,
    allow_empty_references: bool = False,
) -> RougeItems:
    """Per-item ROUGE statistics of validated texts.

    Args:
        predictions: ``list[str]``, the output of `zheval.compute.inputs.validate_inputs`.
        references: ``list[list[str]]``, the output of `zheval.compute.inputs.validate_inputs`.
        config: from [`rouge_config`][zheval.compute.rouge.rouge_config].
        shared: the tokenised corpus shared with BLEU ([`zheval.score`][zheval.compute.joint.score]), built for this config's tokenizer and
            sentence split; None tokenises here.
        allow_empty_references: the explicit opt-out of the empty-reference rule (human ceiling, data cleaning).

    Returns:
        `RougeItems`; rougeN/L/Lsum from the fast twin `zheval.fast.rouge.corpus_rouge_scores` when
        `zheval.fast.usable_for` says so, every other type (and every preset) from the reference scorers
        item by item -- the same numbers bit for bit.

    Raises:
        EmptyReferenceError (a ValueError): a reference without a token (`zheval.compute.inputs.check_references`).
    """
    tok, types = config.tokenizer, list(config.types)
    references, counts = prepare_items(references, config.max_refs)
    preset = config.preset
    if preset is not None and preset.units == "tokens":
        return _token_preset_items(predictions, references, config, counts, allow_empty_references)
    if shared is not None:
        corpus = shared.corpus
    else:
        corpus = tokenize_corpus(predictions, references, tok, config.sentence_split,
                                 char_ids=usable_for("char_ids", tokenizer=tok),
                                 compiled_tokens=usable_for("compiled_tokens", predictions=predictions,
                                                            references=references),
                                 normalize_all=usable_for("normalize_corpus", tokenizer=tok),
                                 segmenter=jieba_rs_segmenter(tok) if usable_for("jieba_rs", tokenizer=tok) else None,
                                 sentences=config.needs_sentences)
    check_references(references, tok, corpus.reference_lengths(), allow_empty_references)
    scores = None
    if preset is not None:
        scores, extra = preset.score_items([p.sentences for p in corpus.predictions],
                                           [[r.sentences for r in rs] for rs in corpus.references], types,
                                           config.multi_ref, config.beta, config.rouge_w_weight)
        items = RougeItems.from_scores(types, scores, counts)
        items.extra = dict(extra)
    else:
        items = _default_items(corpus, types, config, counts, shared)
    if config.crosscheck:
        from ..results.crosscheck_rouge import crosscheck_rouge_score

        items.crosscheck = crosscheck_rouge_score(
            [p.sentences for p in corpus.predictions], [[r.sentences for r in rs] for rs in corpus.references],
            scores if scores is not None else items.scores(), types, config.multi_ref)
    return items


def _token_preset_items(predictions, references, config: RougeConfig, counts, allow_empty_references) -> RougeItems:
    """Items of a preset scored on each text's flat tokens (``RougePreset.units == "tokens"``: rouge-chinese's
    presets, LongBench), item by item with the preset's own scorer ([`zheval.presets.RougePreset.score_items`][zheval.presets.base.RougePreset.score_items]).
    The empty-reference rule follows the preset's ``reference_check``; its cross-check is rouge-chinese's."""
    tok, types, preset = config.tokenizer, list(config.types), config.preset
    hyp_tokens, ref_tokens = tokenize_items(predictions, references, tok)
    if preset.reference_check == "text":
        # only a reference blank as given is zheval's error; the tool scores the ones its processing empties
        check_references(references, None, None, allow_empty_references)
    else:
        check_references(references, tok, [len(t) for row in ref_tokens for t in row], allow_empty_references)
    preset.check_predictions([len(h) for h in hyp_tokens])
    scores, extra = preset.score_items(hyp_tokens, ref_tokens, types, config.multi_ref, config.beta,
                                       config.rouge_w_weight)
    items = RougeItems.from_scores(types, scores, counts)
    items.extra = dict(extra)
    if config.crosscheck:
        from ..results.crosscheck_rouge import crosscheck_rouge_chinese

        items.crosscheck = crosscheck_rouge_chinese(hyp_tokens, ref_tokens, scores, types)
    return items


def _default_items(corpus, types, config: RougeConfig, counts, shared: Optional[SharedTokens]) -> RougeItems:
    """Items under no preset: each type from the fast twin when `usable_for` allows, else item by item."""
    lengths = np.diff(corpus.text_offsets)
    longest = int(lengths.max()) if len(lengths) else 0

    def twin_serves(t: str) -> bool:
        rt = parse_rouge_type(t)
        if not usable_for("rouge_type", kind=rt.kind, preset=config.preset):
            return False
        return rt.kind not in ("S", "SU") or usable_for("skip_bigrams", longest=longest, skip=rt.skip,
                                                           vocab_size=len(corpus.vocab), n_texts=len(lengths))

    fast = [t for t in types if twin_serves(t)]
    rest = [t for t in types if t not in fast]
    cols: Dict[str, tuple] = {}
    if fast:
        layout = shared.layout if shared is not None else CorpusLayout.from_corpus(corpus)
        pair_hits = shared.pair_ngram_hits() if shared is not None else None
        cols.update(corpus_rouge_scores(corpus, fast, config.multi_ref, config.beta, layout=layout,
                                        pair_ngram_hits=pair_hits, rouge_w_weight=config.rouge_w_weight))
    if rest:
        scorer = make_item_scorer(rest, config.multi_ref, config.beta, config.rouge_w_weight)
        per_item = [scorer(p.sentences, [r.sentences for r in rs])
                    for p, rs in zip(corpus.predictions, corpus.references)]
        part = RougeItems.from_scores(rest, per_item, counts)
        cols.update({t: (part.precision[t], part.recall[t], part.fmeasure[t]) for t in rest})
    return RougeItems(tuple(types), *({t: np.asarray(cols[t][k], dtype=np.float64) for t in types}
                                      for k in range(3)),
                      np.asarray(counts, dtype=np.int64))


def rouge_resampled(items: RougeItems, config: RougeConfig) -> Dict[str, dict]:
    """The columns the Poisson bootstrap resamples (`zheval.results.poisson.resampled_sums`): each type's per-item F."""
    return {"floats": {f"rouge:{t}:f": items.fmeasure[t] for t in config.types}}


def rouge_poisson_bounds(sums: PartialSums, config: RougeConfig) -> Dict[str, float]:
    """``<type>_ci_low``/``_ci_high`` of the Poisson bootstrap from resampled sums of `rouge_resampled`'s columns
    (one process, a stream or an engine's reduction: the same sums, the same bounds)."""
    out: Dict[str, float] = {}
    for t in config.types:
        out[f"{t}_ci_low"], out[f"{t}_ci_high"] = resampled_mean_interval(sums, f"rouge:{t}:f", config.confidence)
    return out


def rouge_result(items: RougeItems, config: RougeConfig, *, keys: Optional[np.ndarray] = None,
                 resampled: Optional[PartialSums] = None) -> Dict[str, Any]:
    """The result of [`zheval.compute_rouge`][zheval.compute.rouge.compute_rouge] from per-item statistics; with
    ``bootstrap_method="poisson"`` the interval comes from ``resampled`` (the sums of `rouge_resampled`'s columns)
    or from the items' ``keys`` (`zheval.results.poisson.item_keys`), one of which is then required.

    Returns:
        ``{type: mean F}`` (or the per-item lists without the aggregator), ``<type>_precision``/``_recall`` with
        ``return_precision_recall``, ``<type>_ci_low``/``_ci_high`` with ``bootstrap`` (percentile interval of the
        mean F, seeded), ``signature``, the preset's own numbers and the ``crosscheck`` when asked. Scores on
        the 0-1 scale; the presets' own numbers on their tools' scales: ``llamafactory_rouge_1`` ... and
        ``glm4_rouge_1`` ... (0-100, rounded per item), ``opencompass_rouge1`` ... (0-100) with
        ``opencompass_placeholder_predictions``/``_references`` (int counts), ``longbench_rouge_l`` and
        ``longbench_rouge_l_uncut`` (0-100, 2 decimals) with ``longbench_cutoff_references`` /
        ``longbench_failed_references`` (int counts), ``rouge155_<type>`` with ``_ci_low``/``_ci_high`` (0-1, 5
        decimals: ROUGE-1.5.5's printed Average_F, a seeded bootstrap average, and its 95% interval).
    """
    types = list(items.types)
    out: Dict[str, Any] = {}
    for t in types:
        f = items.fmeasure[t].tolist()
        out[t] = mean(f) if config.use_aggregator else f
    if config.return_precision_recall:
        for t in types:
            p, r = items.precision[t].tolist(), items.recall[t].tolist()
            out[f"{t}_precision"] = mean(p) if config.use_aggregator else p
            out[f"{t}_recall"] = mean(r) if config.use_aggregator else r
    if config.bootstrap and len(items) < MIN_INTERVAL_ITEMS:
        out["no_interval"] = no_interval_reason(len(items))
    elif config.bootstrap and config.bootstrap_method == "poisson":
        out.update(rouge_poisson_bounds(poisson_sums_of(config.bootstrap, config.seed, keys, resampled,
                                                        lambda: rouge_resampled(items, config)), config))
    elif config.bootstrap:
        for t in types:
            out[f"{t}_ci_low"], out[f"{t}_ci_high"] = bootstrap_interval(
                np.asarray(items.fmeasure[t], dtype=np.float64), lambda a: a.mean(axis=-1), int(config.bootstrap),
                config.confidence, config.seed)
    warn_resampling(out, types, config.bootstrap)  # few resamples, an interval without its score: a caution
    out["signature"] = config.signature(items.reference_counts.tolist())
    if config.preset is not None and config.preset.follows_recipe(config):  # else not the tool's numbers
        out.update(config.preset.tool_numbers({t: items.fmeasure[t].tolist() for t in types}, items.extra))
    if items.crosscheck is not None:
        out["crosscheck"] = items.crosscheck
        if items.crosscheck["max_abs_diff"] > 1e-12:
            logger.warning("chinese_rouge crosscheck: |zheval - %s| = %g > 1e-12", items.crosscheck["tool"],
                           items.crosscheck["max_abs_diff"])
    return out


def rouge_door_config(function: str, options: RougeOptions) -> RougeConfig:
    """`rouge_config` of options a caller gave a door directly (``compute_rouge``, the ``chinese_rouge`` module, the
    OpenCompass evaluator, the Trainer hook), with the rules between options that refuse one that would change
    nothing (`zheval.compute.option_rules`: ``seed``/``confidence``/``bootstrap_method`` without ``bootstrap``,
    ``sentence_split`` without ``rougeLsum``): one rule, one place, for every door. Internal passes call
    `rouge_config` itself (they build interval-free configs from resolved options).

    Raises:
        ValueError: as `rouge_config`, and the rules' errors naming ``function`` and the option.
    """
    check_interval_used(function, options)
    config = rouge_config(options)
    check_sentence_split_used(function, options, config.types)
    return config


@refuses_unknown_options
@without_cyclic_gc
def compute_rouge(
    predictions: Sequence[str],
    references: Sequence[Any],
    *,
    tokenizer: Any = None,
    terms: Optional[Sequence[str]] = None,
    punct: str = "keep",
    jieba_hmm: Optional[bool] = None,
    jieba_dict: Optional[str] = None,
    normalize: Any = None,
    t2s: bool = False,
    bootstrap: int = 0,
    bootstrap_method: str = "multinomial",
    seed: int = 12345,
    confidence: float = 0.95,
    max_refs: Optional[int] = None,
    rouge_types: Optional[Sequence[str]] = None,
    use_aggregator: bool = True,
    multi_ref: Optional[str] = None,
    beta: Optional[float] = None,
    return_precision_recall: bool = False,
    preset: Optional[str] = None,
    crosscheck: bool = False,
    rouge_w_weight: Optional[float] = None,
    sentence_split: Optional[str] = None,
) -> Dict[str, Any]:
    """Chinese ROUGE of predictions against (ragged) references, on the 0-1 scale, with a reproducibility signature.

    Args:
        predictions: ``list[str]``, one per item (an empty string is allowed and scores 0).
        references: per item a ``str`` or a non-empty ``list[str]`` (ragged across items).
        tokenizer: [`tokenizer`][zheval.compute.options.RougeOptions.tokenizer].
        terms: [`terms`][zheval.compute.options.TokenizerOptions.terms].
        punct: [`punct`][zheval.compute.options.TokenizerOptions.punct].
        jieba_hmm: [`jieba_hmm`][zheval.compute.options.TokenizerOptions.jieba_hmm].
        jieba_dict: [`jieba_dict`][zheval.compute.options.TokenizerOptions.jieba_dict].
        normalize: [`normalize`][zheval.compute.options.TokenizerOptions.normalize].
        t2s: [`t2s`][zheval.compute.options.TokenizerOptions.t2s].
        bootstrap: [`bootstrap`][zheval.compute.options.IntervalOptions.bootstrap].
        bootstrap_method: [`bootstrap_method`][zheval.compute.options.IntervalOptions.bootstrap_method].
        seed: [`seed`][zheval.compute.options.IntervalOptions.seed].
        confidence: [`confidence`][zheval.compute.options.IntervalOptions.confidence].
        max_refs: [`max_refs`][zheval.compute.options.IntervalOptions.max_refs].
        rouge_types: [`rouge_types`][zheval.compute.options.RougeOptions.rouge_types].
        use_aggregator: [`use_aggregator`][zheval.compute.options.RougeOptions.use_aggregator].
        multi_ref: [`multi_ref`][zheval.compute.options.RougeOptions.multi_ref].
        beta: [`beta`][zheval.compute.options.RougeOptions.beta].
        return_precision_recall: [`return_precision_recall`][zheval.compute.options.RougeOptions.return_precision_recall].
        preset: [`preset`][zheval.compute.options.RougeOptions.preset].
        crosscheck: [`crosscheck`][zheval.compute.options.RougeOptions.crosscheck].
        rouge_w_weight: [`rouge_w_weight`][zheval.compute.options.RougeOptions.rouge_w_weight].
        sentence_split: [`sentence_split`][zheval.compute.options.RougeOptions.sentence_split].

    Each option is defined, documented and checked once, as a field of [`RougeOptions`][zheval.compute.options.RougeOptions]
    (``None``: the preset's value, else ROUGE's default); a preset sets defaults, an option given explicitly
    overrides them ([`zheval.presets`][]).

    Returns:
        ``{type: float}`` (or lists), optional ``<type>_precision``/``_recall``/``_ci_low``/``_ci_high`` (with
        ``bootstrap`` over one item: ``no_interval``, why there is none, instead), ``signature`` (str), optional ``crosscheck`` and the presets' own numbers (``llamafactory_*``,
        ``opencompass_*``, ``longbench_*``, ``glm4_*``; see [`rouge_result`][zheval.compute.rouge.rouge_result]).

    Raises:
        ValueError: length mismatch, empty reference list, unknown rouge type / multi_ref / preset / sentence_split
            (listing valid values), bootstrap with ``use_aggregator=False``, crosscheck with ``beta != 1`` or preset
            rouge155; ``bootstrap`` not 0 or an int in [2, `MAX_BOOTSTRAP_RESAMPLES`], ``seed``
            outside [0, 2**32 - 1], ``confidence`` outside (0, 1) (`zheval.results.reducers.check_interval_options`).
        EmptyReferenceError (a ValueError): references that are blank or have no token after normalisation and
            tokenisation with this tokenizer, every one named as ``references[i][j]``
            (`zheval.compute.inputs.check_references`; every preset too).
        TypeError: non-``str`` prediction or reference (naming its index), unknown keyword option (with the reason
            for the Hub rouge module's ``use_stemmer``), a non-int ``seed``.

    Warns:
        UnsegmentedTextWarning: ``tokenizer="none"`` on unsegmented Chinese (a [`zheval.ZhevalWarning`][zheval.compute.guards.ZhevalWarning], once
            per call; [`zheval.compute.guards`][]).
        ScriptMismatchWarning: Traditional vs Simplified texts with ``t2s`` off (once per call).
        PresetOverrideWarning: an option given explicitly changes one the preset fixes (the signature reads
            ``preset:name(overridden:...)``; its own numbers are left out unless the tool itself offers the option;
            ``docs/presets.md``).
    """
    given = locals()
    config = rouge_door_config("compute_rouge", RougeOptions(**{name: given[name] for name in ROUGE_OPTIONS}))
    preds, refs = validate_inputs(predictions, references)
    warn_input_slips(preds, refs, config.tokenizer, t2s_option=config.t2s_applies)
    keys = poisson_keys(preds, refs, config)
    return rouge_result(rouge_items(preds, refs, config), config, keys=keys)
