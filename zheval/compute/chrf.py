"""Chinese chrF / chrF++ on texts, and chrF's items/result pair: per-item sufficient statistics from texts
([`chrf_items`][zheval.compute.chrf.chrf_items]) and a result from statistics ([`chrf_result`][zheval.compute.chrf.chrf_result]), with the option set both take
(`ChrfConfig`, built and checked once by [`chrf_config`][zheval.compute.chrf.chrf_config]).

Every chrF entry point goes through this pair: [`zheval.compute_chrf`][zheval.compute.chrf.compute_chrf], [`zheval.score`][zheval.compute.joint.score], the evaluate module
``chinese_chrf`` and the CLI. What is counted (`zheval.definitions.chrf`): the character n-grams (orders
1..``char_order``) of each text **normalised by the tokenizer's normaliser** with its whitespace removed, and for
chrF++ (``word_order`` > 0) the word n-grams of **the tokenizer's tokens** (with ``tokenizer="jieba"``: jieba's
words; with ``"char"``: Han characters and Latin/digit runs; with ``"none"``: the whitespace-separated words),
each token losing one ASCII punctuation character at its end or start as sacrebleu's chrF++ does. The score from
summed statistics is `zheval.definitions.chrf_score.score_stats`; the empty-reference rule is
`zheval.compute.inputs.check_references` on the number of non-whitespace characters after normalisation.

With the same normalised texts (and, for chrF++, the tokens joined by spaces) the numbers equal sacrebleu 2.6.0's
``CHRF(char_order, word_order, beta, eps_smoothing=...)`` divided by 100 (``tests/compute/test_chrf_sacrebleu.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Sequence, Union

import numpy as np

from ..definitions.chrf import best_reference_stats, item_ngrams, strip_whitespace
from ..definitions.chrf_score import check_chrf_options, metric_name, score_stats, stats_orders
from ..results.partial_sums import PartialSums
from ..results.poisson import StatisticResampling, add_poisson_bounds, poisson_keys
from ..results.reducers import add_stats_interval, mean
from ..results.signature import build_signature, interval_fields
from ..tokenizers import BaseTokenizer
from ..tokenizers.corpus import tokenize_items
from .gcpause import without_cyclic_gc
from .guards import warn_input_slips, warn_resampling
from .option_rules import check_interval_used
from .inputs import check_references, prepare_items, validate_inputs
from .options import LEVELS, ChrfOptions, refuses_unknown_options, tokenizer_from_options

__all__ = ["LEVELS", "CHRF_OPTIONS", "ChrfOptions", "ChrfConfig", "ChrfItems", "chrf_config", "chrf_door_config", "chrf_items",
           "chrf_result", "chrf_resampling", "result_from_stats", "score_from_sums", "compute_chrf"]

#: Every option `zheval.compute_chrf` understands (the fields of `ChrfOptions`).
CHRF_OPTIONS = ChrfOptions.names()


@dataclass(frozen=True)
class ChrfConfig:
    """Every option of a chrF computation, checked once, with the tokenizer built from them. Built by
    [`chrf_config`][zheval.compute.chrf.chrf_config]; read by [`chrf_items`][zheval.compute.chrf.chrf_items] and [`chrf_result`][zheval.compute.chrf.chrf_result].

    Attributes:
        char_order, word_order, beta, eps_smoothing, level: as [`compute_chrf`][zheval.compute.chrf.compute_chrf]; tokenizer: the zheval tokenizer
        (its normaliser gives the characters, its tokens the words); bootstrap, bootstrap_method, seed, confidence: the
        interval;
        max_refs: score with the first ``max_refs`` references of every item (``None``: all).
    """

    char_order: int
    word_order: int
    beta: Union[int, float]
    eps_smoothing: bool
    level: str
    tokenizer: BaseTokenizer
    bootstrap: int = 0
    seed: int = 12345
    confidence: float = 0.95
    max_refs: Optional[int] = None
    bootstrap_method: str = "multinomial"

    @property
    def name(self) -> str:
        """sacrebleu's name of the score: ``chrF2`` (chrF), ``chrF2++`` (``word_order=2``)."""
        return metric_name(self.beta, self.word_order)

    @property
    def score_options(self) -> Dict[str, Any]:
        """Keyword options of `zheval.definitions.chrf_score.score_stats`."""
        return {"char_order": self.char_order, "word_order": self.word_order, "beta": self.beta,
                "eps_smoothing": self.eps_smoothing}

    @property
    def uses_tokens(self) -> bool:
        """Whether the tokenizer's tokens are scored (chrF++'s words); chrF counts the normalised characters only."""
        return self.word_order > 0

    @property
    def t2s_applies(self) -> bool:
        """Whether the ``t2s`` option can change this tokenizer (not for a tool tokenizer of a preset)."""
        return not self.tokenizer.is_tool

    def signature(self, reference_counts: Sequence[int]) -> str:
        """The result's reproducibility signature: zheval's ``nrefs``/``tok``/``norm``/``case`` fields, then
        ``metric:chrf`` and sacrebleu's chrF fields (``name``, ``nc``, ``nw``, ``beta``, ``eff``, ``space``) and the
        level, e.g. ``...|metric:chrf|name:chrF2++|level:corpus|nc:6|nw:2|beta:2|eff:yes|space:no|zheval:...``.
        ``eff:yes`` is sacrebleu's default (effective order), ``eff:no`` is ``eps_smoothing=True``; ``space:no``:
        whitespace is never a character n-gram."""
        fields = [("name", self.name), ("level", self.level), ("nc", self.char_order), ("nw", self.word_order),
                  ("beta", self.beta), ("eff", not self.eps_smoothing), ("space", False)]
        fields += interval_fields(self.bootstrap, self.seed, self.confidence, self.bootstrap_method)
        return build_signature(self.tokenizer, reference_counts, "chrf", fields, max_refs=self.max_refs)


def chrf_config(options: ChrfOptions = ChrfOptions()) -> ChrfConfig:
    """The config of [`compute_chrf`][zheval.compute.chrf.compute_chrf] from its options ([`ChrfOptions`][zheval.compute.options.ChrfOptions], whose
    fields checked each option when it was built): the orders and beta together, and the tokenizer built. No text
    is touched: every option error is raised here or by the options object.

    Raises:
        TypeError: not a [`ChrfOptions`][zheval.compute.options.ChrfOptions]; tokenizer option types.
        ValueError: the tokenizer's own option errors ([`zheval.tokenizers.get_tokenizer`][]).
    """
    if not isinstance(options, ChrfOptions):
        raise TypeError(f"chrf_config takes a ChrfOptions, got {type(options).__name__}; build one with "
                        "ChrfOptions(...) or ChrfOptions.from_names(function, options)")
    o = options
    char_order, word_order, beta, eps_smoothing = check_chrf_options(o.char_order, o.word_order, o.beta,
                                                                     o.eps_smoothing)
    tok = tokenizer_from_options(o.tokenizer, o, o.normalize)
    return ChrfConfig(char_order=char_order, word_order=word_order, beta=beta, eps_smoothing=eps_smoothing,
                      level=o.level, tokenizer=tok, bootstrap=int(o.bootstrap), seed=o.seed,
                      confidence=o.confidence, max_refs=None if o.max_refs is None else int(o.max_refs),
                      bootstrap_method=o.bootstrap_method)


@dataclass
class ChrfItems:
    """Per-item chrF statistics of a corpus.

    Attributes:
        stats: ``(n_items, 3 * (char_order + word_order))`` int64, one row per item (layout of
            `zheval.definitions.chrf`: for each reference the one with the best chrF).
        reference_counts: ``(n_items,)`` int64, the number of references of each item.

    Items of several batches concatenate (`concat`); the statistics are additive.
    """

    stats: np.ndarray
    reference_counts: np.ndarray

    def __len__(self) -> int:
        return len(self.reference_counts)

    @classmethod
    def concat(cls, parts: Sequence["ChrfItems"]) -> "ChrfItems":
        """The items of several batches, in order (at least one part, all of one width).

        Raises:
            ValueError: no part, or parts of different widths."""
        if not parts:
            raise ValueError("ChrfItems.concat needs at least one part")
        if len({p.stats.shape[1] for p in parts}) != 1:
            raise ValueError("ChrfItems.concat needs parts of one char_order + word_order")
        return cls(np.concatenate([p.stats for p in parts], axis=0),
                   np.concatenate([p.reference_counts for p in parts]))

    @classmethod
    def empty(cls, config: "ChrfConfig") -> "ChrfItems":
        """Items of no item, of ``config``'s width."""
        return cls(np.zeros((0, 3 * (config.char_order + config.word_order)), dtype=np.int64),
                   np.zeros(0, dtype=np.int64))

    def select(self, indices) -> "ChrfItems":
        """The items at ``indices`` (an int array or list), in that order."""
        idx = np.asarray(indices, dtype=np.intp)
        return ChrfItems(self.stats[idx], self.reference_counts[idx])


def chrf_items(predictions: Sequence[str], references: Sequence[Sequence[str]], config: ChrfConfig,
               allow_empty_references: bool = False) -> ChrfItems:
    """Per-item chrF statistics of validated texts.

    Args:
        predictions: ``list[str]``, the output of `zheval.compute.inputs.validate_inputs`.
        references: ``list[list[str]]``, the output of `zheval.compute.inputs.validate_inputs`.
        config: from [`chrf_config`][zheval.compute.chrf.chrf_config].
        allow_empty_references: the explicit opt-out of the empty-reference rule.

    Raises:
        EmptyReferenceError (a ValueError): a reference with no character left after normalisation (whitespace
            is no character for chrF), every one named as ``references[i][j]``.
    """
    tok = config.tokenizer
    references, counts = prepare_items(references, config.max_refs)
    norm = tok.normalize
    hyp_texts = [norm(p) for p in predictions]
    ref_texts = [[norm(r) for r in rs] for rs in references]
    check_references(references, tok, [len(strip_whitespace(t)) for rs in ref_texts for t in rs],
                     allow_empty_references)
    nc, nw = config.char_order, config.word_order
    if nw > 0:
        hyp_tokens, ref_tokens = tokenize_items(predictions, references, tok)
    else:
        hyp_tokens = [()] * len(hyp_texts)
        ref_tokens = [[()] * len(rs) for rs in ref_texts]
    rows = []
    for h, ht, rs, rts in zip(hyp_texts, hyp_tokens, ref_texts, ref_tokens):
        hyp = item_ngrams(h, ht, nc, nw)
        refs = [item_ngrams(r, rt, nc, nw) for r, rt in zip(rs, rts)]
        rows.append(best_reference_stats(hyp, refs, config.beta, config.eps_smoothing))
    stats = np.array(rows, dtype=np.int64).reshape(len(rows), 3 * (nc + nw))
    return ChrfItems(stats, counts)


def score_from_sums(config: ChrfConfig) -> Callable[[np.ndarray], np.ndarray]:
    """Vectorised corpus chrF (0-1) from column sums ``(m, width) -> (m,)`` under ``config``: the statistic of the
    bootstrap intervals and of the paired tests (`zheval.results.reducers.paired_bootstrap`,
    `zheval.results.significance.paired_approximate_randomization`)."""
    opts = config.score_options

    def from_sums(sums: np.ndarray) -> np.ndarray:
        return np.array([score_stats(row, **opts).score for row in np.asarray(sums).reshape(-1, np.shape(sums)[-1])])

    return from_sums


def result_from_stats(stats, config: ChrfConfig) -> Dict[str, Any]:
    """The scores of a statistics matrix under ``config`` (0-1): ``chrf``, ``name``, ``precisions``,
    ``recalls``, ``hyp_counts``, ``ref_counts``, ``matches`` (per order, of the summed statistics), ``char_order``,
    ``word_order``, ``beta``, ``level``; at sentence level ``scores`` (per item; ``chrf`` is their mean); with
    ``bootstrap`` also ``chrf_ci_low``/``chrf_ci_high`` (percentile interval over items).

    Raises:
        ValueError: a matrix that is not items x 3 (char_order + word_order).
    """
    arr = np.asarray(stats)
    if arr.ndim != 2 or stats_orders(arr) != config.char_order + config.word_order:
        raise ValueError(f"chrF statistics must be an items x {3 * (config.char_order + config.word_order)} matrix, "
                         f"got shape {arr.shape}")
    opts = config.score_options
    total = score_stats(arr.sum(axis=0, dtype=np.int64), **opts)
    out: Dict[str, Any] = {
        "chrf": total.score,
        "name": config.name,
        "precisions": list(total.precisions),
        "recalls": list(total.recalls),
        "hyp_counts": list(total.hyp_counts),
        "ref_counts": list(total.ref_counts),
        "matches": list(total.matches),
        "char_order": config.char_order,
        "word_order": config.word_order,
        "beta": config.beta,
        "level": config.level,
    }
    item_scores = None
    if config.level == "sentence":
        item_scores = [score_stats(row, **opts).score for row in arr.tolist()]
        out["chrf"] = mean(item_scores)
        out["scores"] = item_scores
    add_stats_interval(out, "chrf", arr, item_scores, score_from_sums(config), config)  # Poisson: chrf_result
    return out


def chrf_resampling(config: ChrfConfig) -> StatisticResampling:
    """How the Poisson bootstrap resamples chrF (`zheval.results.poisson.StatisticResampling`)."""
    return StatisticResampling("chrf", config.level == "sentence", score_from_sums(config), config.confidence)


def chrf_result(items: ChrfItems, config: ChrfConfig, *, keys: Optional[np.ndarray] = None,
                resampled: Optional[PartialSums] = None) -> Dict[str, Any]:
    """The result of [`compute_chrf`][zheval.compute.chrf.compute_chrf] from per-item statistics: `result_from_stats` plus ``signature``;
    with ``bootstrap_method="poisson"`` the interval comes from ``resampled`` (the sums of `chrf_resampling`'s
    columns) or from the items' ``keys`` (`zheval.results.poisson.item_keys`), one of which is then required."""
    out = result_from_stats(items.stats, config)
    add_poisson_bounds(out, config, chrf_resampling(config), items.stats, keys, resampled)
    warn_resampling(out, ["chrf"], config.bootstrap)  # few resamples, an interval without its score: a caution
    out["signature"] = config.signature(items.reference_counts.tolist())
    return out


def chrf_door_config(function: str, options: ChrfOptions) -> ChrfConfig:
    """`chrf_config` of options a caller gave a door directly (``compute_chrf``, the ``chinese_chrf`` module, the
    OpenCompass evaluator, the Trainer hook), with the rules between options that refuse one that would change
    nothing (`zheval.compute.option_rules.check_interval_used`: ``seed``/``confidence``/``bootstrap_method``
    without ``bootstrap``): one rule, one place, for every door. Internal passes call `chrf_config` itself.

    Raises:
        ValueError: as `chrf_config`, and the rule's error naming ``function`` and the option.
    """
    check_interval_used(function, options)
    return chrf_config(options)


@refuses_unknown_options
@without_cyclic_gc
def compute_chrf(
    predictions: Sequence[str],
    references: Sequence[Any],
    *,
    tokenizer: Any = "char",
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
    char_order: int = 6,
    word_order: int = 0,
    beta: Union[int, float] = 2,
    eps_smoothing: bool = False,
    level: str = "corpus",
) -> Dict[str, Any]:
    """Chinese chrF (``word_order=0``) or chrF++ (``word_order=2``) of predictions against (ragged) references, on
    the 0-1 scale (sacrebleu's score / 100), with a reproducibility signature.

    Args:
        predictions: ``list[str]``, one per item (an empty string is allowed and scores 0).
        references: per item a ``str`` or a non-empty ``list[str]`` (ragged). Not sacrebleu's transposed streams.
        tokenizer: [`tokenizer`][zheval.compute.options.ChrfOptions.tokenizer].
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
        char_order: [`char_order`][zheval.compute.options.ChrfOptions.char_order].
        word_order: [`word_order`][zheval.compute.options.ChrfOptions.word_order].
        beta: [`beta`][zheval.compute.options.ChrfOptions.beta].
        eps_smoothing: [`eps_smoothing`][zheval.compute.options.ChrfOptions.eps_smoothing].
        level: [`level`][zheval.compute.options.ChrfOptions.level].

    Each option is defined, documented and checked once, as a field of [`ChrfOptions`][zheval.compute.options.ChrfOptions]
    (``punct="drop"`` drops punctuation tokens from chrF++'s *words* only; to remove punctuation from the characters
    too, add the ``nopunct`` normalisation step). With ``word_order=0`` the options that act on the words only
    (``tokenizer="jieba"`` or a user tokenizer, ``punct="drop"``, ``terms``, ``jieba_hmm``, ``jieba_dict``) are
    refused, and so are
    ``seed``, ``confidence`` and ``bootstrap_method`` without ``bootstrap``: they would change nothing
    (`zheval.compute.option_rules`).

    Multi-reference rule (sacrebleu's): per item, the statistics of the reference with the best chrF (the first on a
    tie) enter the sums.

    Returns:
        ``{"chrf", "name" ("chrF2", "chrF2++"), "precisions", "recalls", "hyp_counts", "ref_counts", "matches"
        (per order, character orders first), "char_order", "word_order", "beta", "level", "signature"}``; ``scores``
        at sentence level; ``chrf_ci_low``/``chrf_ci_high`` with bootstrap (one item: ``no_interval``, why there is
        none, instead).

    Raises:
        ValueError: length mismatch (with a hint for sacrebleu's transposed layout), an empty reference list (naming
            the item), bad option values (listing the valid ones), bootstrap/seed/confidence out of range.
        EmptyReferenceError (a ValueError): a reference with no character after normalisation (blank, only
            invisible characters, only punctuation under ``nopunct``), every one named as ``references[i][j]``.
        TypeError: a non-``str`` prediction or reference (naming its index), option types.

    Warns:
        ScriptMismatchWarning: Traditional vs Simplified texts with ``t2s`` off (they share no character; a
            [`zheval.ZhevalWarning`][zheval.compute.guards.ZhevalWarning], once per call; [`zheval.compute.guards`][]).
        UnsegmentedTextWarning: ``tokenizer="none"`` on unsegmented Chinese, only with word n-grams (chrF++).
    """
    given = locals()
    options = ChrfOptions.from_names("compute_chrf", {name: given[name] for name in CHRF_OPTIONS})
    config = chrf_door_config("compute_chrf", options)
    preds, refs = validate_inputs(predictions, references)
    warn_input_slips(preds, refs, config.tokenizer, t2s_option=config.t2s_applies, words=config.uses_tokens)
    keys = poisson_keys(preds, refs, config)
    return chrf_result(chrf_items(preds, refs, config), config, keys=keys)
