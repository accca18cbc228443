"""Chinese chrF / chrF++ on texts, and chrF's items/result pair: per-item sufficient statistics from texts
(:func:`chrf_items`) and a result from statistics (:func:`chrf_result`), with the option set both take
(:class:`ChrfConfig`, built and checked once by :func:`chrf_config`).

Every chrF entry point goes through this pair: :func:`zheval.compute_chrf`, :func:`zheval.score`, the evaluate module
``chinese_chrf`` and the CLI. What is counted (:mod:`zheval.definitions.chrf`): the character n-grams (orders
1..``char_order``) of each text **normalised by the tokenizer's normaliser** with its whitespace removed, and for
chrF++ (``word_order`` > 0) the word n-grams of **the tokenizer's tokens** (with ``tokenizer="jieba"``: jieba's
words; with ``"char"``: Han characters and Latin/digit runs; with ``"none"``: the whitespace-separated words),
each token losing one ASCII punctuation character at its end or start as sacrebleu's chrF++ does. The score from
summed statistics is :func:`zheval.definitions.chrf_score.score_stats`; the empty-reference rule is
:func:`zheval.compute.inputs.check_references` on the number of non-whitespace characters after normalisation.

With the same normalised texts (and, for chrF++, the tokens joined by spaces) the numbers equal sacrebleu 2.6.0's
``CHRF(char_order, word_order, beta, eps_smoothing=...)`` divided by 100 (``tests/compute/test_chrf_sacrebleu.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Sequence, Union

import numpy as np

from ..definitions.chrf import best_reference_stats, item_ngrams, strip_whitespace
from ..definitions.chrf_score import check_chrf_options, metric_name, score_stats, stats_orders
from ..results.breakdowns import check_max_refs, first_references
from ..results.reducers import bootstrap_interval, check_interval_options, mean
from ..results.signature import build_signature, interval_fields
from ..tokenizers import BaseTokenizer
from ..tokenizers.corpus import tokenize_items
from .gcpause import without_cyclic_gc
from .guards import warn_input_slips
from .inputs import check_references, validate_inputs
from .options import TOKENIZER_OPTIONS, tokenizer_from_options

__all__ = ["LEVELS", "CHRF_OPTIONS", "ChrfConfig", "ChrfItems", "chrf_config", "chrf_items", "chrf_result",
           "result_from_stats", "score_from_sums", "compute_chrf"]

#: Valid ``level`` values.
LEVELS = ("corpus", "sentence")

#: Every option :func:`zheval.compute_chrf` understands.
CHRF_OPTIONS = ("tokenizer", "char_order", "word_order", "beta", "eps_smoothing", "level") + TOKENIZER_OPTIONS + (
    "bootstrap", "seed", "confidence", "max_refs")


@dataclass(frozen=True)
class ChrfConfig:
    """Every option of a chrF computation, checked once, with the tokenizer built from them. Built by
    :func:`chrf_config`; read by :func:`chrf_items` and :func:`chrf_result`.

    Attributes:
        char_order, word_order, beta, eps_smoothing, level: as :func:`compute_chrf`; tokenizer: the zheval tokenizer
        (its normaliser gives the characters, its tokens the words); bootstrap, seed, confidence: the interval;
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

    @property
    def name(self) -> str:
        """sacrebleu's name of the score: ``chrF2`` (chrF), ``chrF2++`` (``word_order=2``)."""
        return metric_name(self.beta, self.word_order)

    @property
    def score_options(self) -> Dict[str, Any]:
        """Keyword options of :func:`zheval.definitions.chrf_score.score_stats`."""
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
        fields += interval_fields(self.bootstrap, self.seed, self.confidence)
        return build_signature(self.tokenizer, reference_counts, "chrf", fields, max_refs=self.max_refs)


def chrf_config(
    *,
    tokenizer: Any = "char",
    char_order: int = 6,
    word_order: int = 0,
    beta: Union[int, float] = 2,
    eps_smoothing: bool = False,
    level: str = "corpus",
    terms: Optional[Sequence[str]] = None,
    punct: str = "keep",
    jieba_hmm: Optional[bool] = None,
    jieba_dict: Optional[str] = None,
    normalize: Any = None,
    t2s: bool = False,
    bootstrap: int = 0,
    seed: int = 12345,
    confidence: float = 0.95,
    max_refs: Optional[int] = None,
) -> ChrfConfig:
    """Check every option of :func:`compute_chrf` (arguments as there) and build the tokenizer. No text is touched:
    every option error is raised here.

    Raises:
        ValueError: a bad order / beta (:func:`zheval.definitions.chrf_score.check_chrf_options`), an unknown
            level (listing the valid ones), bootstrap/seed/confidence out of range, ``max_refs`` not an int >= 1,
            and the tokenizer's own option errors.
        TypeError: ``eps_smoothing`` not a bool, ``beta`` not a number, tokenizer option types.
    """
    char_order, word_order, beta, eps_smoothing = check_chrf_options(char_order, word_order, beta, eps_smoothing)
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; valid values: {', '.join(LEVELS)}")
    check_interval_options(bootstrap, seed, confidence)
    max_refs = check_max_refs(max_refs)
    tok_opts = dict(terms=terms, punct=punct, jieba_hmm=jieba_hmm, jieba_dict=jieba_dict, t2s=t2s)
    tok_opts = {k: v for k, v in tok_opts.items() if v is not None and not (k in ("punct",) and v == "keep")
                and not (k == "t2s" and v is False)}
    tok = tokenizer_from_options(tokenizer, tok_opts, normalize)
    return ChrfConfig(char_order=char_order, word_order=word_order, beta=beta, eps_smoothing=eps_smoothing,
                      level=level, tokenizer=tok, bootstrap=int(bootstrap), seed=seed, confidence=confidence,
                      max_refs=max_refs)


@dataclass
class ChrfItems:
    """Per-item chrF statistics of a corpus.

    Attributes:
        stats: ``(n_items, 3 * (char_order + word_order))`` int64, one row per item (layout of
            :mod:`zheval.definitions.chrf`: for each reference the one with the best chrF).
        reference_counts: ``(n_items,)`` int64, the number of references of each item.

    Items of several batches concatenate (:meth:`concat`); the statistics are additive.
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
        predictions: ``list[str]``; references: ``list[list[str]]`` (the output of
            :func:`zheval.compute.inputs.validate_inputs`). config: from :func:`chrf_config`.
        allow_empty_references: the explicit opt-out of the empty-reference rule.

    Raises:
        EmptyReferenceError (a ValueError): a reference with no character left after normalisation (whitespace
            is no character for chrF), every one named as ``references[i][j]``.
    """
    tok = config.tokenizer
    if config.max_refs is not None:
        references = first_references(references, config.max_refs)
    counts = np.asarray([len(r) for r in references], dtype=np.int64)
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
    bootstrap intervals and of the paired tests (:func:`zheval.results.reducers.paired_bootstrap`,
    :func:`zheval.results.significance.paired_approximate_randomization`)."""
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
    if config.bootstrap:
        if arr.shape[0] == 0:
            low = high = 0.0
        elif config.level == "sentence":
            low, high = bootstrap_interval(np.asarray(item_scores), lambda r: r.mean(axis=-1), config.bootstrap,
                                           config.confidence, config.seed)
        else:
            from_sums = score_from_sums(config)
            width = arr.shape[1]

            def corpus_statistic(r: np.ndarray) -> np.ndarray:
                return from_sums(r.sum(axis=-2).reshape(-1, width)).reshape(r.shape[:-2])

            low, high = bootstrap_interval(arr, corpus_statistic, config.bootstrap, config.confidence, config.seed,
                                           sums_statistic=from_sums)
        out["chrf_ci_low"], out["chrf_ci_high"] = low, high
    return out


def chrf_result(items: ChrfItems, config: ChrfConfig) -> Dict[str, Any]:
    """The result of :func:`compute_chrf` from per-item statistics: :func:`result_from_stats` plus ``signature``."""
    out = result_from_stats(items.stats, config)
    out["signature"] = config.signature(items.reference_counts.tolist())
    return out


@without_cyclic_gc
def compute_chrf(
    predictions: Sequence[str],
    references: Sequence[Any],
    *,
    tokenizer: Any = "char",
    char_order: int = 6,
    word_order: int = 0,
    beta: Union[int, float] = 2,
    eps_smoothing: bool = False,
    level: str = "corpus",
    terms: Optional[Sequence[str]] = None,
    punct: str = "keep",
    jieba_hmm: Optional[bool] = None,
    jieba_dict: Optional[str] = None,
    normalize: Any = None,
    t2s: bool = False,
    bootstrap: int = 0,
    seed: int = 12345,
    confidence: float = 0.95,
    max_refs: Optional[int] = None,
) -> Dict[str, Any]:
    """Chinese chrF (``word_order=0``) or chrF++ (``word_order=2``) of predictions against (ragged) references, on
    the 0-1 scale (sacrebleu's score / 100), with a reproducibility signature.

    Args:
        predictions: ``list[str]``, one per item (an empty string is allowed and scores 0).
        references: per item a ``str`` or a non-empty ``list[str]`` (ragged). Not sacrebleu's transposed streams.
        tokenizer: its normaliser gives the characters (default ``"char"``: NFKC, zero-width removal, punctuation
            variants unified, spaces next to CJK dropped, Latin lower-cased); its tokens are chrF++'s words:
            ``"char"`` (Han characters, Latin/digit runs, punctuation marks), ``"jieba"`` (jieba's words), ``"none"``
            (whitespace-separated, pre-segmented text; no normalisation), or a callable ``str -> list[str]``
            (:func:`zheval.tokenizers.get_tokenizer`).
        char_order: character n-gram orders 1..``char_order`` (default 6, an int >= 0).
        word_order: word n-gram orders 1..``word_order`` (default 0 = chrF; 2 = chrF++).
        beta: recall weight of the F-score (default 2, a number >= 0).
        eps_smoothing: sacrebleu's option: ``False`` (default) averages precision and recall over the orders that
            have n-grams on both sides ("effective order", ``eff:yes``); ``True`` averages per-order F-scores over all
            orders, an order without n-grams counting 1e-16 (chrF++.py, Moses, NLTK; ``eff:no``).
        level: ``"corpus"`` (default; one F-score of the statistics summed over items, as sacrebleu's
            ``corpus_score``) or ``"sentence"`` (each item alone, as ``sentence_score``; ``chrf`` is their mean and
            ``scores`` the per-item list).
        terms, punct, jieba_hmm, jieba_dict, normalize, t2s: tokenizer options, as :func:`zheval.compute_bleu`
            (``punct="drop"`` drops punctuation tokens from the *words* only; to remove punctuation from the
            characters too, add the ``nopunct`` normalisation step).
        bootstrap: number of bootstrap resamples of items (0 = none) for a percentile ``confidence`` interval
            (``chrf_ci_low``, ``chrf_ci_high``), seeded with ``seed``.
        max_refs: score with the first ``max_refs`` references of every item (``None``: all; signature
            ``maxrefs:K``).

    Multi-reference rule (sacrebleu's): per item, the statistics of the reference with the best chrF (the first on a
    tie) enter the sums.

    Returns:
        ``{"chrf", "name" ("chrF2", "chrF2++"), "precisions", "recalls", "hyp_counts", "ref_counts", "matches"
        (per order, character orders first), "char_order", "word_order", "beta", "level", "signature"}``; ``scores``
        at sentence level; ``chrf_ci_low``/``chrf_ci_high`` with bootstrap.

    Raises:
        ValueError: length mismatch (with a hint for sacrebleu's transposed layout), an empty reference list (naming
            the item), bad option values (listing the valid ones), bootstrap/seed/confidence out of range.
        EmptyReferenceError (a ValueError): a reference with no character after normalisation (blank, only
            invisible characters, only punctuation under ``nopunct``), every one named as ``references[i][j]``.
        TypeError: a non-``str`` prediction or reference (naming its index), option types.

    Warns:
        ScriptMismatchWarning: Traditional vs Simplified texts with ``t2s`` off (they share no character; a
            :class:`zheval.ZhevalWarning`, once per call; :mod:`zheval.compute.guards`).
        UnsegmentedTextWarning: ``tokenizer="none"`` on unsegmented Chinese, only with word n-grams (chrF++).
    """
    config = chrf_config(tokenizer=tokenizer, char_order=char_order, word_order=word_order, beta=beta,
                         eps_smoothing=eps_smoothing, level=level, terms=terms, punct=punct, jieba_hmm=jieba_hmm,
                         jieba_dict=jieba_dict, normalize=normalize, t2s=t2s, bootstrap=bootstrap, seed=seed,
                         confidence=confidence, max_refs=max_refs)
    preds, refs = validate_inputs(predictions, references)
    warn_input_slips(preds, refs, config.tokenizer, t2s_option=config.t2s_applies, words=config.uses_tokens)
    return chrf_result(chrf_items(preds, refs, config), config)
