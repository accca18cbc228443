"""Chinese BLEU on texts, and BLEU's items/result pair: per-item sufficient statistics from texts ([`bleu_items`][zheval.compute.bleu.bleu_items]) and a result from
statistics ([`bleu_result`][zheval.compute.bleu.bleu_result]), with the option set both take (`BleuConfig`, built and checked once by
[`bleu_config`][zheval.compute.bleu.bleu_config]).

Every BLEU entry point goes through this pair: [`zheval.compute_bleu`][zheval.compute.bleu.compute_bleu], [`zheval.score`][zheval.compute.joint.score], the evaluate
module ``chinese_bleu``, the Trainer hook (batches concatenate), the 小黄鸭 evaluation and the CLI. The statistics
of an item are one integer row ``[hyp_len, closest_ref_len, shortest_ref_len, matches_1..N, totals_1..N]``
(`zheval.definitions.bleu`), additive over items, so corpus BLEU, sentence BLEU, bootstrap intervals, groups
and shards all come from one ``(n_items, 3 + 2 * max_order)`` matrix.

Where each rule lives: clipping and the closest reference length in `zheval.definitions.bleu.item_stats`
(its corpus-at-once twin `zheval.fast.bleu.corpus_stats`), smoothing and the brevity penalty in
`zheval.definitions.bleu_score.score_stats`, the empty-reference rule in `zheval.compute.inputs.check_references`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional, Sequence

import numpy as np

from ..definitions.bleu import stats_max_order, sum_stats
from ..definitions.bleu_score import score_stats, validate_options
from ..fast import usable_for
from ..fast.bleu import corpus_stats
from ..presets import BleuPreset, apply_preset, bleu_preset
from ..results.partial_sums import PartialSums
from ..results.poisson import StatisticResampling, add_poisson_bounds, poisson_keys
from ..results.reducers import add_stats_interval, mean
from ..results.signature import build_signature, interval_fields, signature_number
from ..text.normalize_corpus import normalize_corpus
from ..tokenizers import BaseTokenizer
from ..tokenizers.jieba_rs import jieba_rs_segmenter
from ..tokenizers.corpus import tokenize_items
from .gcpause import without_cyclic_gc
from .guards import warn_input_slips, warn_preset_override, warn_resampling
from .option_rules import check_interval_used
from .inputs import check_references, prepare_items, scored_empty_references, validate_inputs
from .options import (BLEU_DEFAULTS, LEVELS, BleuOptions, check_crosscheck_method, refuses_unknown_options,
                      tokenizer_from_options)
from .shared_tokens import SharedTokens

__all__ = ["LEVELS", "DEFAULTS", "BLEU_OPTIONS", "BleuOptions", "BleuConfig", "BleuItems", "bleu_config", "bleu_door_config", "bleu_items",
           "bleu_reference_rule",
           "bleu_result", "bleu_resampling", "result_from_stats", "score_from_sums", "compute_bleu"]

logger = logging.getLogger("zheval.compute.bleu")

#: BLEU's values where neither the caller nor a preset sets an option (`zheval.compute.options.BLEU_DEFAULTS`;
#: ``effective_order=None`` means "yes at sentence level, no at corpus level", sacrebleu's defaults).
DEFAULTS = BLEU_DEFAULTS
#: Every option `zheval.compute_bleu` understands: the fields of `BleuOptions`.
BLEU_OPTIONS = BleuOptions.names()

#: The keyword options of `zheval.definitions.bleu_score.score_stats` a config fixes.
SCORE_OPTIONS = ("smooth_method", "smooth_value", "bp_ref_length", "effective_order", "weights")


@dataclass(frozen=True)
class BleuConfig:
    """Every option of a BLEU computation, resolved (preset defaults, then explicit arguments) and checked once,
    with the tokenizer built from them. Built by [`bleu_config`][zheval.compute.bleu.bleu_config]; read by [`bleu_items`][zheval.compute.bleu.bleu_items] and
    [`bleu_result`][zheval.compute.bleu.bleu_result].

    Attributes:
        max_order, smooth_method, smooth_value, bp_ref_length, level, effective_order (bool), weights (tuple or
        None): as [`zheval.compute_bleu`][zheval.compute.bleu.compute_bleu]; preset: the [`BleuPreset`][zheval.presets.BleuPreset] (its name in
        the signature) or None;
        tokenizer: the zheval tokenizer; bootstrap, bootstrap_method, seed, confidence, crosscheck: result options; max_refs: score
        with the first ``max_refs`` references of every item (``None``: all;
        `zheval.compute.inputs.prepare_items`); level_by_caller: the level is the calling function's own (explain
        scores sentence BLEU), not the user's, so it is no override of the preset's level (`bleu_config`).
    """

    max_order: int
    smooth_method: str
    smooth_value: Optional[float]
    bp_ref_length: str
    level: str
    effective_order: bool
    weights: Optional[tuple]
    preset: Optional[BleuPreset]
    tokenizer: BaseTokenizer
    bootstrap: int = 0
    seed: int = 12345
    confidence: float = 0.95
    crosscheck: bool = False
    max_refs: Optional[int] = None
    bootstrap_method: str = "multinomial"
    level_by_caller: bool = False

    @property
    def score_options(self) -> Dict[str, Any]:
        """Keyword options of `zheval.definitions.bleu_score.score_stats`."""
        return {k: getattr(self, k) for k in SCORE_OPTIONS}

    @property
    def t2s_applies(self) -> bool:
        """Whether the ``t2s`` option can change this tokenizer (not for a tool tokenizer of a preset)."""
        return not self.tokenizer.is_tool

    def signature(self, reference_counts: Sequence[int]) -> str:
        """The result's reproducibility signature for items with these reference counts."""
        smooth = self.smooth_method if self.smooth_value is None else \
            f"{self.smooth_method}[{signature_number(self.smooth_value)}]"
        fields = [("level", self.level), ("order", self.max_order), ("smooth", smooth), ("bp", self.bp_ref_length),
                  ("eff", self.effective_order)]
        if self.weights is not None:
            fields.append(("weights", "/".join(map(signature_number, self.weights))))
        fields += interval_fields(self.bootstrap, self.seed, self.confidence, self.bootstrap_method)
        return build_signature(self.tokenizer, reference_counts, "bleu", fields,
                               preset=self.preset.signature_name(self) if self.preset is not None else None,
                               max_refs=self.max_refs)


def bleu_config(options: BleuOptions = BleuOptions(), *, caller_level: Optional[str] = None) -> BleuConfig:
    """The config of [`zheval.compute_bleu`][zheval.compute.bleu.compute_bleu] from its options ([`BleuOptions`][zheval.compute.options.BleuOptions],
    whose fields checked each value when it was built): the preset's defaults resolved (an explicit value wins),
    the checks that read several options, and the tokenizer built. No text is touched. ``caller_level``: the
    level a function scores at by design (explain: ``"sentence"``), used when ``options.level`` is None; it is
    not the user's choice, so it neither warns nor marks the signature as an override of the preset's level.

    Raises:
        TypeError: not a [`BleuOptions`][zheval.compute.options.BleuOptions]; tokenizer option types.
        ValueError: an unknown preset (a preset of the other metric is named as such), ``smooth_value`` or
            ``weights`` that do not fit the method or ``max_order``
            (`zheval.definitions.bleu_score.validate_options`), a crosscheck the tools cannot express, and the
            tokenizer's own option errors.
    """
    if not isinstance(options, BleuOptions):
        raise TypeError(f"bleu_config takes a BleuOptions, got {type(options).__name__}; build one with "
                        "BleuOptions(...) or BleuOptions.from_names(function, options)")
    o = options
    part = bleu_preset(o.preset)
    by_caller = caller_level is not None and o.level is None
    opts = apply_preset(DEFAULTS, part, {k: getattr(o, k) for k in DEFAULTS}, None)
    if by_caller:
        opts["level"] = caller_level
    # a preset's smooth_value belongs to the preset's smoothing method: when the caller changes the method,
    # the value falls back to the new method's default unless given explicitly
    if o.smooth_value is None and o.smooth_method is not None:
        opts["smooth_value"] = None
    order = int(opts["max_order"])
    sv, ws = validate_options(opts["smooth_method"], opts["smooth_value"], opts["bp_ref_length"], opts["weights"],
                              order)
    eff = opts["effective_order"]
    if eff is None:
        eff = opts["level"] == "sentence"
    tok = tokenizer_from_options(opts["tokenizer"], o, opts["normalize"], part)
    check_crosscheck_method(o)
    if o.crosscheck:
        from ..results.crosscheck_bleu import unsupported_reason

        reason = unsupported_reason(smooth_method=opts["smooth_method"], bp_ref_length=opts["bp_ref_length"],
                                    effective_order=bool(eff), weights=ws, level=opts["level"])
        if reason:
            raise ValueError(f"crosscheck=True: {reason}")
    config = BleuConfig(max_order=order, smooth_method=opts["smooth_method"], smooth_value=sv,
                        bp_ref_length=opts["bp_ref_length"], level=opts["level"], effective_order=bool(eff),
                        weights=ws, preset=part, tokenizer=tok, bootstrap=int(o.bootstrap), seed=o.seed,
                        confidence=o.confidence, crosscheck=bool(o.crosscheck),
                        max_refs=None if o.max_refs is None else int(o.max_refs), bootstrap_method=o.bootstrap_method,
                        level_by_caller=by_caller)
    warn_preset_override(config)
    return config


@dataclass
class BleuItems:
    """Per-item BLEU statistics of a corpus.

    Attributes:
        stats: ``(n_items, 3 + 2 * max_order)`` int64, one row per item (layout of `zheval.definitions.bleu`).
        reference_counts: ``(n_items,)`` int64, the number of references of each item.
        tokens: with ``crosscheck=True`` only: ``(hypothesis tokens, reference tokens, raw predictions, raw
            references)`` for the cross-check (such items cannot be concatenated).

    Items of several batches concatenate (`concat`) to the items of the whole; the statistics are additive.
    """

    stats: np.ndarray
    reference_counts: np.ndarray
    tokens: Optional[tuple] = field(default=None, compare=False)

    def __len__(self) -> int:
        return len(self.reference_counts)

    @classmethod
    def empty(cls, config: "BleuConfig") -> "BleuItems":
        """Items of no item, of ``config``'s width."""
        return cls(np.zeros((0, 3 + 2 * config.max_order), dtype=np.int64), np.zeros(0, dtype=np.int64))

    @classmethod
    def concat(cls, parts: Sequence["BleuItems"]) -> "BleuItems":
        """The items of several batches, in order (at least one part, all of one width, none with tokens).

        Raises:
            ValueError: no part, different widths, or a part carrying cross-check tokens.
        """
        if not parts:
            raise ValueError("BleuItems.concat needs at least one part")
        if len({p.stats.shape[1] for p in parts}) != 1 or any(p.tokens is not None for p in parts):
            raise ValueError("BleuItems.concat needs parts of one max_order and no cross-check")
        return cls(np.concatenate([p.stats for p in parts], axis=0),
                   np.concatenate([p.reference_counts for p in parts]))

    def select(self, indices) -> "BleuItems":
        """The items at ``indices`` (an int array or list), in that order."""
        idx = np.asarray(indices, dtype=np.intp)
        return BleuItems(self.stats[idx], self.reference_counts[idx])


def bleu_items(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]],
    config: BleuConfig,
    shared: Optional[SharedTokens] = None,
    allow_empty_references: bool = False,
) -> BleuItems:
    """Per-item BLEU statistics of validated texts.

    Args:
        predictions: ``list[str]``, the output of `zheval.compute.inputs.validate_inputs`.
        references: ``list[list[str]]``, the output of `zheval.compute.inputs.validate_inputs`.
        config: from [`bleu_config`][zheval.compute.bleu.bleu_config].
        shared: ROUGE's tokenised corpus when BLEU counts on it ([`zheval.score`][zheval.compute.joint.score], decided by
            `zheval.fast.usable_for`); its statistics are then the ones of that pass. Without it, BLEU builds
            its own where ``usable_for("shared_tokens")`` allows (its tokenizer's line tokens concatenate, no
            crosscheck, no preset): the corpus-at-once tokens (`zheval.tokenizers.corpus.tokenize_corpus`),
            else the tokenizer text by text.
        allow_empty_references: the explicit opt-out of the empty-reference rule.

    Raises:
        EmptyReferenceError (a ValueError): a reference without a token (`zheval.compute.inputs.check_references`).
    """
    tok = config.tokenizer
    references, counts = prepare_items(references, config.max_refs)
    if shared is None and usable_for("shared_tokens", rouge_tokenizer=tok, bleu_tokenizer=tok, sentence_split="newline",
                                     bleu_crosscheck=config.crosscheck, bleu_preset=config.preset):
        # the tokenised corpus of the vectorised twins (each distinct text once), as zheval.score counts BLEU on it
        shared = SharedTokens(predictions, references, tok, "newline", bleu_max_order=config.max_order,
                              sentences=False)
    if shared is not None:
        layout = shared.layout
        bleu_reference_rule(references, tok, layout.lengths[layout.ref], config, allow_empty_references)
        return BleuItems(shared.bleu_stats(), counts)
    if usable_for("jieba_rs", tokenizer=tok) and usable_for("normalize_corpus", tokenizer=tok):
        # the jieba tokenizer's words from its jieba-rs twin, all texts normalised at once (no token cache)
        seg = jieba_rs_segmenter(tok)
        flat = list(predictions) + [r for rs in references for r in rs]
        words = [tuple(seg(t)) for t in normalize_corpus(flat, tok.normalizer).texts()]
        hyp_tokens = words[:len(predictions)]
        it = iter(words[len(predictions):])
        ref_tokens = [[next(it) for _ in rs] for rs in references]
    else:
        hyp_tokens, ref_tokens = tokenize_items(predictions, references, tok)
    bleu_reference_rule(references, tok, [len(t) for row in ref_tokens for t in row], config, allow_empty_references)
    if config.preset is not None:
        config.preset.check_predictions([len(h) for h in hyp_tokens])
    items = BleuItems(corpus_stats(hyp_tokens, ref_tokens, config.max_order), counts)
    if config.crosscheck:
        raw = tok.sacrebleu_tokenize is not None  # sacrebleu's own tokenizer on the raw text is checked too
        items.tokens = (hyp_tokens, ref_tokens, predictions if raw else None, references if raw else None)
    return items


def bleu_reference_rule(references, tok, lengths, config: BleuConfig, allow_empty: bool) -> None:
    """The empty-reference rule of BLEU's items: `zheval.compute.inputs.check_references`, or, under a preset whose
    tool scores empty references (``scores_empty_references``: sacrebleu), `scored_empty_references` (counted and
    warned, scored as the tool scores them). Every BLEU door's (items, explain)."""
    part = config.preset
    if allow_empty or part is None or not part.scores_empty_references:
        check_references(references, tok, lengths, allow_empty)
        return
    from ..presets import tokens_tool

    scored_empty_references(references, tok, lengths, part.name, tokens_tool(part) or part.name)


def score_from_sums(config: BleuConfig) -> Callable[[np.ndarray], np.ndarray]:
    """Vectorised corpus BLEU (0-1) from column sums ``(m, width) -> (m,)`` under ``config``
    (`zheval.definitions.bleu_score.score_stats` of each row): the statistic of the bootstrap intervals, the
    paired tests and every door that scores summed statistics (chrF's twin: [`zheval.compute.chrf.score_from_sums`][])."""
    opts = config.score_options

    def from_sums(sums: np.ndarray) -> np.ndarray:
        rows = np.asarray(sums).reshape(-1, np.shape(sums)[-1]).tolist()
        return np.array([score_stats(row, **opts).score for row in rows])

    return from_sums


def result_from_stats(stats, config: BleuConfig) -> Dict[str, Any]:
    """The scores of a statistics matrix under ``config`` (0-1 scale): ``bleu``, ``precisions``,
    ``brevity_penalty``, ``length_ratio``, ``translation_length``, ``reference_length``, ``counts``, ``totals``,
    ``level``; at sentence level also ``scores`` (per item, and ``bleu``/``precisions``/``brevity_penalty`` are
    their means; ``length_ratio`` and the lengths stay the corpus's); with ``bootstrap`` also ``bleu_ci_low``/``bleu_ci_high`` (percentile interval over items).

    Raises:
        ValueError: a matrix that is not items x (3 + 2 N).
    """
    arr = np.asarray(stats)
    if arr.ndim != 2:
        raise ValueError(f"statistics must be an items x columns matrix, got shape {arr.shape}")
    order = stats_max_order(arr)
    opts = config.score_options
    total = score_stats(sum_stats(arr), **opts)
    out = {
        "bleu": total.score,
        "precisions": list(total.precisions),
        "brevity_penalty": total.brevity_penalty,
        "length_ratio": total.length_ratio,
        "translation_length": total.hyp_len,
        "reference_length": total.ref_len,
        "counts": list(total.counts),
        "totals": list(total.totals),
        "level": config.level,
    }
    item_scores = None
    if config.level == "sentence":
        items = [score_stats(row, **opts) for row in arr.tolist()]
        item_scores = [s.score for s in items]
        out["bleu"] = mean(item_scores)
        out["precisions"] = [mean(ps) for ps in zip(*[s.precisions for s in items])] if items else [0.0] * order
        out["brevity_penalty"] = mean([s.brevity_penalty for s in items]) if items else 1.0
        out["scores"] = item_scores
    add_stats_interval(out, "bleu", arr, item_scores, score_from_sums(config), config)  # Poisson: bleu_result
    return out


def bleu_resampling(config: BleuConfig) -> StatisticResampling:
    """How the Poisson bootstrap resamples BLEU (`zheval.results.poisson.StatisticResampling`)."""
    return StatisticResampling("bleu", config.level == "sentence", score_from_sums(config), config.confidence)


def bleu_result(items: BleuItems, config: BleuConfig, *, keys: Optional[np.ndarray] = None,
                resampled: Optional[PartialSums] = None) -> Dict[str, Any]:
    """The result of [`zheval.compute_bleu`][zheval.compute.bleu.compute_bleu] from per-item statistics: `result_from_stats` plus
    ``signature``, the preset's own number where the per-item scores are its tool's
    ([`zheval.presets.BleuPreset.tool_numbers`][zheval.presets.base.BleuPreset.tool_numbers]: ``llamafactory_bleu_4`` 0-100, ``glm4_bleu_4`` 0-1), and the
    ``crosscheck`` when asked. With ``bootstrap_method="poisson"`` the interval comes from ``resampled`` (the sums of
    `bleu_resampling`'s columns) or from the items' ``keys`` (`zheval.results.poisson.item_keys`), one of which is
    then required."""
    out = result_from_stats(items.stats, config)
    add_poisson_bounds(out, config, bleu_resampling(config), items.stats, keys, resampled)
    warn_resampling(out, ["bleu"], config.bootstrap)  # few resamples, an interval without its score: a caution
    out["signature"] = config.signature(items.reference_counts.tolist())
    if config.preset is not None and config.preset.follows_recipe(config):  # else not the tool's number
        out.update(config.preset.tool_numbers(config, out.get("scores")))
    if config.crosscheck and items.tokens is not None:
        from ..results.crosscheck_bleu import crosscheck_bleu

        hyp_tokens, ref_tokens, raw_preds, raw_refs = items.tokens
        out["crosscheck"] = crosscheck_bleu(hyp_tokens, ref_tokens, ours=out["bleu"], ours_per_item=out.get("scores"),
                                            max_order=config.max_order, level=config.level,
                                            raw_predictions=raw_preds, raw_references=raw_refs,
                                            **config.score_options)
        if out["crosscheck"]["max_abs_diff"] > 1e-12:
            logger.warning("chinese_bleu crosscheck: |zheval - %s| = %g > 1e-12", out["crosscheck"]["tool"],
                           out["crosscheck"]["max_abs_diff"])
    return out


def bleu_door_config(function: str, options: BleuOptions) -> BleuConfig:
    """`bleu_config` of options a caller gave a door directly (``compute_bleu``, the ``chinese_bleu`` module, the
    OpenCompass evaluator, the Trainer hook), with the rules between options that refuse one that would change
    nothing (`zheval.compute.option_rules.check_interval_used`: ``seed``/``confidence``/``bootstrap_method``
    without ``bootstrap``): one rule, one place, for every door. Internal passes call `bleu_config` itself.

    Raises:
        ValueError: as `bleu_config`, and the rule's error naming ``function`` and the option.
    """
    check_interval_used(function, options)
    return bleu_config(options)


@refuses_unknown_options
@without_cyclic_gc
def compute_bleu(
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
    max_order: Optional[int] = None,
    smooth_method: Optional[str] = None,
    smooth_value: Optional[float] = None,
    bp_ref_length: Optional[str] = None,
    level: Optional[str] = None,
    effective_order: Optional[bool] = None,
    weights: Optional[Sequence[float]] = None,
    preset: Optional[str] = None,
    crosscheck: bool = False,
) -> Dict[str, Any]:
    """Chinese BLEU of predictions against (ragged) references, on the 0-1 scale, with a reproducibility signature.

    Args:
        predictions: ``list[str]``, one per item (an empty string is allowed and scores 0).
        references: per item a ``str`` or a non-empty ``list[str]`` (ragged). Not sacrebleu's transposed streams.
        tokenizer: [`tokenizer`][zheval.compute.options.BleuOptions.tokenizer].
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
        max_order: [`max_order`][zheval.compute.options.BleuOptions.max_order].
        smooth_method: [`smooth_method`][zheval.compute.options.BleuOptions.smooth_method].
        smooth_value: [`smooth_value`][zheval.compute.options.BleuOptions.smooth_value].
        bp_ref_length: [`bp_ref_length`][zheval.compute.options.BleuOptions.bp_ref_length].
        level: [`level`][zheval.compute.options.BleuOptions.level].
        effective_order: [`effective_order`][zheval.compute.options.BleuOptions.effective_order].
        weights: [`weights`][zheval.compute.options.BleuOptions.weights].
        preset: [`preset`][zheval.compute.options.BleuOptions.preset].
        crosscheck: [`crosscheck`][zheval.compute.options.BleuOptions.crosscheck].

    Each option is defined, documented and checked once, as a field of [`BleuOptions`][zheval.compute.options.BleuOptions]
    (``None``: the preset's value, else BLEU's default); a preset sets defaults, an option given explicitly
    overrides them ([`zheval.presets`][]).

    Returns:
        ``{"bleu", "precisions", "brevity_penalty", "length_ratio", "translation_length", "reference_length"}``
        (the Hugging Face ``bleu`` module's keys and scale) plus ``counts``, ``totals`` (per order, summed over
        items), ``level``, ``signature``; ``scores`` at sentence level (where ``precisions`` and
        ``brevity_penalty`` are per-item means, while ``length_ratio``, ``translation_length`` and
        ``reference_length`` stay the corpus's summed lengths and their ratio); ``bleu_ci_low``/``bleu_ci_high`` with bootstrap (one item: ``no_interval``, why there is none instead); ``crosscheck``;
        ``llamafactory_bleu_4`` with the llamafactory preset, ``glm4_bleu_4`` with the glm4 preset.

    Raises:
        ValueError: length mismatch (with a hint for sacrebleu's transposed layout), an empty reference list (naming
            the item), unknown option values (listing the valid ones), options that do not apply to the tokenizer,
            a crosscheck the tools cannot express; ``bootstrap`` not 0 or an int in
            [2, `MAX_BOOTSTRAP_RESAMPLES`], ``seed`` outside [0, 2**32 - 1], ``confidence``
            outside (0, 1) (`zheval.results.reducers.check_interval_options`).
        EmptyReferenceError (a ValueError): references that are blank or have no token after normalisation and
            tokenisation with this tokenizer (a reference length of 0 would cancel the brevity penalty), every one
            named as ``references[i][j]`` (`zheval.compute.inputs.check_references`; every preset too).
        TypeError: a non-``str`` prediction or reference (naming its index), an unknown keyword option (with the
            reason for the Hub bleu module's ``smooth``), a non-int ``seed``.

    Warns:
        UnsegmentedTextWarning: ``tokenizer="none"`` on unsegmented Chinese (a [`zheval.ZhevalWarning`][zheval.compute.guards.ZhevalWarning], once
            per call; [`zheval.compute.guards`][]).
        ScriptMismatchWarning: Traditional vs Simplified texts with ``t2s`` off (once per call).
        PresetOverrideWarning: an option given explicitly changes one the preset fixes (the signature reads
            ``preset:name(overridden:...)``; its own numbers are left out unless the tool itself offers the option;
            ``docs/presets.md``).
    """
    given = locals()
    config = bleu_door_config("compute_bleu", BleuOptions(**{name: given[name] for name in BLEU_OPTIONS}))
    preds, refs = validate_inputs(predictions, references)
    warn_input_slips(preds, refs, config.tokenizer, t2s_option=config.t2s_applies)
    keys = poisson_keys(preds, refs, config)
    return bleu_result(bleu_items(preds, refs, config), config, keys=keys)
