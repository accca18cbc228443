"""The one definition of every metric option: [`RougeOptions`][zheval.compute.options.RougeOptions], [`BleuOptions`][zheval.compute.options.BleuOptions], [`ChrfOptions`][zheval.compute.options.ChrfOptions].

Each option is a field of a frozen dataclass: its type, its default, its documentation (``metadata["doc"]``,
shown by ``help()`` and on the API page through `zheval.compute.option_docs`) and its check (``metadata["check"]``,
run when the object is built, so ``RougeOptions(multi_ref="best")`` fails at once, naming the option and the valid
values) are written once, here. The three classes share two parts:
[`TokenizerOptions`][zheval.compute.options.TokenizerOptions] (which tokenizer, and its options) and
[`IntervalOptions`][zheval.compute.options.IntervalOptions] (the bootstrap interval and ``max_refs``).

A field a preset may set defaults to ``None``: "the preset's value, else the metric's default" (the defaults are in
`ROUGE_DEFAULTS` / `BLEU_DEFAULTS`); an explicit value always wins over a preset. Checks that read two
options at once or a preset (``bootstrap`` without the aggregator, ``crosscheck`` with a preset, ``weights`` against
``max_order`` ...) are made by the metric's config builder ([`zheval.compute.rouge.rouge_config`][],
[`zheval.compute.bleu.bleu_config`][], [`zheval.compute.chrf.chrf_config`][]), the tokenizer options by
[`zheval.tokenizers.get_tokenizer`][] when the config builds the tokenizer.

**Doors that feed several metrics** ([`zheval.score`][zheval.compute.joint.score], the engine, Trainer, harness, records and 小黄鸭 doors) take
the options by name -- each goes to every requested metric that has it -- and also as typed objects
(``rouge=RougeOptions(...)``, ``bleu=BleuOptions(...)``, ``chrf=ChrfOptions(...)``); [`options_for_metrics`][zheval.compute.options.options_for_metrics]
splits and checks them: an unknown option is a ``TypeError`` listing the valid ones (with the reason for an option
of the Hub modules zheval refuses, `HUB_OPTIONS_REFUSED`), and so is an option that no requested metric uses.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple, Type, Union

import numpy as np

from ..definitions.bleu import check_max_order
from ..definitions.bleu_score import BP_REF_LENGTHS, SMOOTH_METHODS
from ..definitions.chrf_score import check_chrf_options
from ..definitions.orders import check_beta
from ..definitions.rouge import MULTI_REF_MODES, check_rouge_w_weight_value
from ..definitions.rouge_types import parse_rouge_type
from ..io.lists import split_entries
from .option_docs import documented, option_field, with_option_texts
from .option_rules import (CHRF_WORD_ONLY, check_chrf_word_names, check_chrf_word_options, check_normalize_flags,
                           chrf_word_only_given)
from ..results.breakdowns import check_max_refs
from ..results.reducers import check_bootstrap, check_confidence, check_seed
from ..text.sentences import SENTENCE_SPLITS

__all__ = ["TokenizerOptions", "IntervalOptions", "RougeOptions", "BleuOptions", "ChrfOptions", "MetricOptions",
           "OPTIONS_CLASSES", "ROUGE_DEFAULTS", "BLEU_DEFAULTS", "METRIC_DEFAULTS", "LEVELS", "DEFAULT_ROUGE_TYPES",
           "BOOTSTRAP_METHODS", "HUB_OPTIONS_REFUSED", "refused_hub_options", "TOKENIZER_OPTIONS", "INTERVAL_OPTIONS",
           "check_flags", "CHRF_WORD_ONLY", "chrf_word_only_given", "check_chrf_word_options", "check_rouge_types", "check_rouge_w_weight", "check_crosscheck_method", "refuse_unknown", "refuses_unknown_options", "check_metrics", "options_for_metrics", "tokenizer_from_options"]


#: Options of the Hugging Face Hub's ``rouge`` and ``bleu`` modules that zheval refuses (a TypeError, never silently
#: ignored), with the reason given in the error.
HUB_OPTIONS_REFUSED = {
    "use_stemmer": (
        "use_stemmer (the Hub rouge module's Porter stemmer) is refused: it stems English words only -- nothing in "
        "Chinese text -- and zheval does not implement it, so accepting it would promise a normalisation that never "
        "happens; for English words in the texts, pass a tokenizer callable that stems"
    ),
    "smooth": (
        "smooth (the Hub bleu module's smoothing: +1 to the matches and totals of every order, unigrams included) is "
        "refused: it is none of sacrebleu's methods; choose smooth_method (\"exp\", the default, \"add-k\": +k for "
        "orders >= 2 as sacrebleu, \"floor\", \"none\" = the Hub module's default, or \"nltk3\")"
    ),
}


def refused_hub_options(names) -> str:
    """The reasons of `HUB_OPTIONS_REFUSED` for those of ``names`` that are in it, as sentences to append to
    an unknown-option error (``""`` when none is)."""
    return "".join(f". {HUB_OPTIONS_REFUSED[n]}" for n in names if n in HUB_OPTIONS_REFUSED)


#: Valid ``level`` values of BLEU and chrF.
LEVELS = ("corpus", "sentence")

#: Values of ``bootstrap_method``: ``"multinomial"`` (the default: resamples of item indices, needs every item)
#: and ``"poisson"`` (Poisson(1) weights keyed by each item's content: sums, any batching or partitioning).
BOOTSTRAP_METHODS = ("multinomial", "poisson")

#: ROUGE's default types.
DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


# ---------------------------------------------------------------------------------------------------------------
# checks of single options (each named by the field that carries it)


def check_flags(**flags) -> None:
    """Refuse an on/off option that is not ``True``/``False`` (a numpy bool counts): a string such as ``"False"``
    (from a config file or a command line) is truthy and would silently mean *on*.

    Raises:
        TypeError: naming the option and the value given.
    """
    for name, value in flags.items():
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")


def check_rouge_types(rt) -> list:
    """``rouge_types`` (a list of str, or one str: a comma list, ``"rouge1,rougeL"``, read by
    `zheval.io.lists.split_entries`; each type parsed by `zheval.definitions.rouge_types.parse_rouge_type`) as a list.

    Raises:
        TypeError: not a str or a list/tuple of str. ValueError: empty, an empty entry of a comma list
            (``"rouge1,,rougeL"``), an unknown type, or duplicates.
    """
    if isinstance(rt, str):
        rt = split_entries(rt, "rouge_types")
    if not isinstance(rt, (list, tuple)) or not all(isinstance(t, str) for t in rt):
        raise TypeError(f"rouge_types must be a list of str, got {rt!r}")
    if not rt:
        raise ValueError("rouge_types must name at least one ROUGE type")
    for t in rt:
        parse_rouge_type(t)
    if len(set(rt)) != len(rt):
        raise ValueError(f"rouge_types has duplicates: {rt}")
    return list(rt)


def check_rouge_w_weight(weight, types) -> None:
    """Refuse a ``rouge_w_weight`` given (not ``None``) while ``types`` (the ROUGE types computed: the caller's, a
    preset's or the default ones) has no ``rougeW``: the weight would be ignored (break-it F11; as ``smooth_value``
    with ``smooth_method="exp"`` is refused).

    Raises:
        ValueError: naming ``rouge_w_weight`` and the types.
    """
    if weight is not None and "rougeW" not in types:
        raise ValueError(f"rouge_w_weight is the weight of rougeW, which rouge_types does not name (rouge_types: "
                         f"{list(types)}); add rougeW or leave rouge_w_weight out")


def check_crosscheck_method(options) -> None:
    """Refuse the Poisson bootstrap beside ``crosscheck`` (ROUGE's and BLEU's options): the cross-check reruns the
    reference tool, whose resampling is multinomial.

    Raises:
        ValueError: naming both options and the alternatives.
    """
    if options.crosscheck and options.bootstrap and options.bootstrap_method == "poisson":
        raise ValueError("bootstrap_method='poisson' resamples by weights; crosscheck=True compares the reference "
                         "tool's multinomial run: use bootstrap_method='multinomial' with crosscheck, or the Poisson "
                         "bootstrap without it")


def _flag(name: str, value) -> None:
    check_flags(**{name: value})


def _choice(valid: Sequence[str]) -> Callable[[str, Any], None]:
    def check(name: str, value) -> None:
        if value not in valid:
            raise ValueError(f"unknown {name} {value!r}; valid values: {', '.join(valid)}")
    return check


def _max_order(name: str, value) -> None:
    check_max_order(value)


def _effective_order(name: str, value) -> None:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True, False or None, got {value!r}")


def _chrf_order(name: str, value) -> None:
    check_chrf_options(**{"char_order": 1, "word_order": 1, "beta": 2, "eps_smoothing": False, name: value})


def _chrf_beta(name: str, value) -> None:
    check_chrf_options(1, 0, value, False)


#: A field with its default, its check and its documentation (`zheval.compute.option_docs.option_field`).
_option = option_field


# ---------------------------------------------------------------------------------------------------------------
# the parts and the three metrics


@dataclass(frozen=True)
class _Options:
    """What every options class does: check each field when built; the field names; the options set."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            check = f.metadata.get("check")
            value = getattr(self, f.name)
            if check is not None and not (value is None and f.default is None):
                check(f.name, value)

    @classmethod
    def names(cls) -> Tuple[str, ...]:
        """Every option name, in field order."""
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def from_names(cls, function: str, given: Mapping[str, Any]):
        """The options object of options given by name (``**options`` of ``function``).

        Raises:
            TypeError: an unknown option (listing the valid ones; with the reason for a refused Hub option), and
                the fields' own checks; ValueError: `check_given`'s rules, naming ``function``.
        """
        refuse_unknown(function, given, cls.names())
        cls.check_given(function, given)
        return cls(**given)

    @classmethod
    def check_given(cls, function: str, given: Mapping[str, Any]) -> None:
        """The rules between options given by name to the door ``function`` that ``__post_init__`` also applies,
        run first so that the error names the door (chrF's: `zheval.compute.option_rules.check_chrf_word_names`)."""

    def given(self) -> Dict[str, Any]:
        """The options as keyword arguments, without the fields left at ``None`` where ``None`` is the default
        (not set: the preset's or the metric's default applies)."""
        out = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if not (value is None and f.default is None):
                out[f.name] = value
        return out

    def changed(self) -> Tuple[str, ...]:
        """The names of the fields whose value differs from their default."""
        return tuple(f.name for f in dataclasses.fields(self) if not _same(getattr(self, f.name), f.default))


def _same(a, b) -> bool:
    try:
        return bool(a is b or a == b)
    except Exception:  # an array-valued comparison, say
        return False


@dataclass(frozen=True)
class TokenizerOptions(_Options):
    """The tokenizer part, shared by the three metrics (same names, same meaning); checked by
    [`zheval.tokenizers.get_tokenizer`][] when the config builds the tokenizer."""

    tokenizer: Any = _option(None, doc="""
        ``"char"``, ``"jieba"``, ``"none"`` (pre-tokenised, whitespace-split text), a preset's tool tokenizer
        (``"sacrebleu-zh"``, ``"llamafactory-char"``, ``"llamafactory-jieba"``, ``"opencompass-jieba"``,
        ``"glm4-jieba"``), a zheval tokenizer or a callable ``str -> list[str]``
        ([`zheval.tokenizers.get_tokenizer`][], the one registry).""")
    terms: Optional[Sequence[str]] = _option(None, doc="""
        Protected terms kept as one token (``char`` and ``jieba``).""")
    punct: str = _option("keep", doc="""
        ``"keep"`` or ``"drop"`` punctuation/symbol tokens.""")
    jieba_hmm: Optional[bool] = _option(None, doc="""
        jieba's HMM new-word discovery (``None``: the tokenizer's own setting -- off for ``jieba``).""")
    jieba_dict: Optional[str] = _option(None, doc="""
        A jieba dictionary file that **replaces** jieba's main dictionary (as ``jieba.set_dictionary``; not a
        ``jieba.load_userdict`` user dictionary, which adds words): one ``word frequency [tag]`` entry per line, UTF-8
        (a BOM removed, gzip undone; another encoding or an empty file is an error naming it). To add protected
        words to jieba's own dictionary, give ``terms`` (each kept whole). Its content is hashed into the
        tokenizer's identity.""")
    normalize: Any = _option(None, doc="""
        ``None``: the preset's, else the tokenizer's default normalisation; ``True``/``False`` or step names
        (`zheval.text.normalize.get_normalizer`).""")
    t2s: bool = _option(False, doc="""
        Add Traditional -> Simplified conversion (a script mismatch is warned about, never fixed silently).""")


@dataclass(frozen=True)
class IntervalOptions(_Options):
    """The interval part, shared by the three metrics: a percentile bootstrap interval over items, and how many
    references of each item are scored."""

    bootstrap: int = _option(0, lambda n, v: check_bootstrap(v), doc="""
        Bootstrap resamples of items (0 = no interval, else 2 to
        `MAX_BOOTSTRAP_RESAMPLES`; one resample has no spread) for a percentile ``confidence`` interval
        (``<score>_ci_low``/``<score>_ci_high``). Fewer than 1000 (`zheval.results.reducers.SOUND_RESAMPLES`) are
        computed with a ``ResamplingWarning``, as is an interval that does not contain its score.""")
    bootstrap_method: str = _option("multinomial", _choice(BOOTSTRAP_METHODS), doc="""
        How ``bootstrap`` resamples: ``"multinomial"`` (item indices drawn with replacement, as sacrebleu's
        ``--confidence``) or ``"poisson"`` (a Poisson(1) weight per item and resample keyed by ``(seed, the item's
        content, resample)``, `zheval.results.poisson`: the intervals of [`zheval.score`][zheval.compute.joint.score],
        [`zheval.score_batches`][zheval.compute.batches.score_batches] and the Ray and Spark doors on the same items,
        whatever the batches or partitions; ``bsmethod:poisson`` in the signature). With ``bootstrap``, refused
        beside ``crosscheck`` (`check_crosscheck_method`). Without ``bootstrap`` it would change nothing:
        refused then, as ``seed`` and ``confidence`` are (`zheval.compute.option_rules.check_interval_used`).""")
    seed: int = _option(12345, lambda n, v: check_seed(v), doc="""
        Seed of the bootstrap, an int in [0, 2**32 - 1].""")
    confidence: float = _option(0.95, lambda n, v: check_confidence(v), doc="""
        Level of the interval, in (0, 1).""")
    max_refs: Optional[int] = _option(None, lambda n, v: check_max_refs(v), doc="""
        Score with the first ``max_refs`` references of every item (items with fewer keep theirs; the signature
        records ``maxrefs:K``). ``None``: every reference.""")


@dataclass(frozen=True)
class RougeOptions(IntervalOptions, TokenizerOptions):
    """Every option of [`zheval.compute_rouge`][zheval.compute.rouge.compute_rouge] (the fields of [`TokenizerOptions`][zheval.compute.options.TokenizerOptions] and
    [`IntervalOptions`][zheval.compute.options.IntervalOptions], then ROUGE's own). ``None`` where a preset may set the value."""

    rouge_types: Optional[Sequence[str]] = _option(None, lambda n, v: check_rouge_types(v), doc="""
        ROUGE types: ``rouge1`` ... ``rouge9`` (any N), ``rougeL``, ``rougeLsum``, ``rougeW``,
        ``rougeS<d>``/``rougeSU<d>``, ``rougeS*``/``rougeSU*``.""")
    use_aggregator: bool = _option(True, _flag, doc="""
        True: ``{type: mean F}`` floats (the exact mean of the per-item F); False: ``{type: [F per item]}``
        (no bootstrap then).""")
    multi_ref: Optional[str] = _option(None, _choice(MULTI_REF_MODES), doc="""
        The multi-reference rule: ``"max"``, ``"mean"``, ``"pool"``, ``"best_recall"``
        (`zheval.definitions.rouge`).""")
    beta: Optional[float] = _option(None, lambda name, value: check_beta(value, name, not_a_number=ValueError), doc="""
        F-measure beta, a number in [0, 1e100] (1: F1, as rouge-score; 1e100, `zheval.definitions.orders.MAX_BETA`: the recall).""")
    return_precision_recall: bool = _option(False, _flag, doc="""
        Also ``<type>_precision`` and ``<type>_recall`` (means, or per-item lists).""")
    preset: Optional[str] = _option(None, doc="""
        A ROUGE preset (a name of [`zheval.presets.preset_names`][] with ``metric="rouge"``, or a registered
        preset object) reproducing a tool's numbers: ``"rouge155"`` (ROUGE-1.5.5 ``-a -n 4 -w 1.2 -2 4 -U -f A -p 0.5``
        per item, averaged exactly; adds ``rouge155_<type>`` and ``_ci_low``/``_ci_high``, the script's own printed
        ``Average_F``: its seeded 1000-resample bootstrap average, and its 95% interval), ``"llamafactory"`` (LLaMA-Factory / ChatGLM: jieba words, rouge-chinese; adds
        ``llamafactory_rouge_1`` ..., its 0-100 numbers), the leaderboard presets ``"opencompass-jieba-rouge"``,
        ``"longbench"`` and ``"glm4"`` (each adds the tool's published numbers bit for bit). A preset sets defaults;
        options given explicitly override them: every option the preset fixes that is changed warns
        (``PresetOverrideWarning``) and marks the signature ``preset:name(overridden:...)``, and one the tool
        itself does not offer (another tokenizer, say) leaves the tool's own numbers out (``docs/presets.md``,
        "Overriding a preset's option").""")
    crosscheck: bool = _option(False, _flag, doc="""
        Recompute with rouge-score 0.1.2 fed our exact tokens (rouge1-9, rougeL, rougeLsum; beta 1) -- or with
        rouge-chinese under the rouge-chinese presets -- and add ``crosscheck`` = ``{"tool", "types", "items",
        "pairs", "max_abs_diff", "scores", ...}``; refused where the preset has no tool to compare with.""")
    rouge_w_weight: Optional[float] = _option(None, lambda n, v: check_rouge_w_weight_value(v), doc="""
        w of ``rougeW``'s f(k) = k**w, a finite number >= 1 (ROUGE-1.5.5's ``-w 1.2``; Lin 2004, 3.3 and
        ROUGE-1.5.5 take w > 1 so that consecutive matches weigh more; w = 1 is accepted and gives ROUGE-L; below
        1 precision and recall would exceed 1; `zheval.definitions.rouge.check_rouge_w_weight_value`). A
        weight so large that f(a text's length) overflows a float is refused when the texts are scored. Refused
        when the ROUGE types computed have no ``rougeW`` (`check_rouge_w_weight`).""")
    sentence_split: Optional[str] = _option(None, _choice(SENTENCE_SPLITS), doc="""
        Sentences of ``rougeLsum``: ``"punct"`` (newlines and sentence-final punctuation) or
        ``"newline"`` (rouge-score's rule; `zheval.text.sentences`).""")


@dataclass(frozen=True)
class BleuOptions(IntervalOptions, TokenizerOptions):
    """Every option of [`zheval.compute_bleu`][zheval.compute.bleu.compute_bleu] (the fields of [`TokenizerOptions`][zheval.compute.options.TokenizerOptions] and
    [`IntervalOptions`][zheval.compute.options.IntervalOptions], then BLEU's own). ``None`` where a preset may set the value."""

    max_order: Optional[int] = _option(None, _max_order, doc="""
        Highest n-gram order, an int in [1, `zheval.definitions.orders.MAX_ORDER`] (1000: the statistics hold two
        columns per order; an order above every text's token count only adds zero counts).""")
    smooth_method: Optional[str] = _option(None, _choice(SMOOTH_METHODS), doc="""
        ``"exp"`` (sacrebleu's default), ``"none"``, ``"floor"``, ``"add-k"``, ``"nltk3"``.""")
    smooth_value: Optional[float] = _option(None, doc="""
        For ``floor`` (default 0.1) and ``add-k`` (default 1); ``None``: the method's default.""")
    bp_ref_length: Optional[str] = _option(None, _choice(BP_REF_LENGTHS), doc="""
        Reference length of the brevity penalty: ``"closest"``, ``"shortest"``, ``"none"`` (no
        brevity penalty).""")
    level: Optional[str] = _option(None, _choice(LEVELS), doc="""
        ``"corpus"`` (Papineni's micro-average of summed statistics) or ``"sentence"`` (each item alone;
        ``bleu`` is their mean, ``scores`` the list).""")
    effective_order: Optional[bool] = _option(None, _effective_order, doc="""
        ``None``: the preset's, else on at sentence level and off at corpus level (sacrebleu's defaults).""")
    weights: Optional[Sequence[float]] = _option(None, doc="""
        ``max_order`` per-order weights (``None``: uniform).""")
    preset: Optional[str] = _option(None, doc="""
        A BLEU preset (a name of [`zheval.presets.preset_names`][] with ``metric="bleu"``, or a registered preset
        object) reproducing a tool's numbers: ``"sacrebleu-zh"`` (exactly ``sacrebleu.corpus_bleu(...,
        tokenize="zh")`` on raw text), ``"llamafactory"`` (LLaMA-Factory's BLEU-4: per-item nltk method-3 BLEU on
        ``list(text)``, averaged; adds ``llamafactory_bleu_4``, its 0-100 number) or ``"glm4"`` (the GLM-4 demo's
        BLEU-4 on its jieba words; adds ``glm4_bleu_4``, 0-1). A preset sets defaults; options given explicitly
        override them: every option the preset fixes that is changed warns (``PresetOverrideWarning``) and marks
        the signature, and one the tool does not offer leaves its number out, as for ROUGE (``docs/presets.md``).""")
    crosscheck: bool = _option(False, _flag, doc="""
        Recompute with sacrebleu ``tokenize="none"`` on our exact tokens (nltk for ``nltk3`` at sentence level;
        plus sacrebleu ``tokenize="zh"`` on raw text with the sacrebleu-zh tokenizer) and add ``crosscheck`` =
        ``{"tool", "bleu", "max_abs_diff", "items", ...}``.""")


@dataclass(frozen=True)
class ChrfOptions(IntervalOptions, TokenizerOptions):
    """Every option of [`zheval.compute_chrf`][zheval.compute.chrf.compute_chrf] (the fields of [`TokenizerOptions`][zheval.compute.options.TokenizerOptions] and
    [`IntervalOptions`][zheval.compute.options.IntervalOptions], then chrF's own). chrF has no preset: every default is a value."""

    tokenizer: Any = _option("char", doc="""
        Its normaliser gives the characters (``"char"``: NFKC, zero-width removal, punctuation variants
        unified, spaces next to CJK dropped, Latin lower-cased); its tokens are chrF++'s words: ``"char"`` (Han
        characters, Latin/digit runs, punctuation marks), ``"jieba"``, ``"none"`` (whitespace-separated, no
        normalisation), or a callable ``str -> list[str]`` ([`zheval.tokenizers.get_tokenizer`][]). A value, not
        ``None`` as for ROUGE and BLEU: chrF has no preset, and it counts character n-grams by definition (sacrebleu's
        ``CHRF``), so the tokenizer only normalises and gives chrF++'s words.""")
    char_order: int = _option(6, _chrf_order, doc="""
        Character n-gram orders 1..``char_order`` (an int in [0, `zheval.definitions.orders.MAX_ORDER`]: 1000,
        as an order above every text's length adds nothing).""")
    word_order: int = _option(0, _chrf_order, doc="""
        Word n-gram orders 1..``word_order`` (0 = chrF; 2 = chrF++; at most
        `zheval.definitions.orders.MAX_ORDER`, 1000).""")
    beta: Union[int, float] = _option(2, _chrf_beta, doc="""
        Recall weight of the F-score (a number in [0, 1e100]; 1e100, `zheval.definitions.orders.MAX_BETA`: the recall).""")
    eps_smoothing: bool = _option(False, _flag, doc="""
        sacrebleu's option: False averages precision and recall over the orders that have n-grams on both sides
        (``eff:yes``); True averages per-order F-scores over all orders, an order without n-grams counting 1e-16
        (chrF++.py, Moses, NLTK; ``eff:no``).""")
    level: str = _option("corpus", _choice(LEVELS), doc="""
        ``"corpus"`` (one F-score of the summed statistics, as sacrebleu's ``corpus_score``) or ``"sentence"`` (each
        item alone; ``chrf`` is their mean, ``scores`` the list).""")

    def __post_init__(self) -> None:
        super().__post_init__()
        check_chrf_options(self.char_order, self.word_order, self.beta, self.eps_smoothing)
        check_chrf_word_options(self)

    @classmethod
    def check_given(cls, function: str, given: Mapping[str, Any]) -> None:
        check_chrf_word_names(function, given)


#: A metric's options object.
MetricOptions = Union[RougeOptions, BleuOptions, ChrfOptions]

#: The options class of each metric.
OPTIONS_CLASSES: Dict[str, Type[_Options]] = {"rouge": RougeOptions, "bleu": BleuOptions, "chrf": ChrfOptions}

#: ROUGE's values where neither the caller nor a preset sets an option (the fields that default to ``None``).
ROUGE_DEFAULTS = {"tokenizer": "char", "rouge_types": list(DEFAULT_ROUGE_TYPES), "multi_ref": "max", "beta": 1.0,
                  "rouge_w_weight": 1.2, "sentence_split": "punct", "normalize": None}
#: BLEU's values where neither the caller nor a preset sets an option. ``effective_order=None`` means "yes at
#: sentence level, no at corpus level" (sacrebleu's ``sentence_bleu`` / ``corpus_bleu`` defaults).
BLEU_DEFAULTS = {"tokenizer": "char", "max_order": 4, "smooth_method": "exp", "smooth_value": None,
                 "bp_ref_length": "closest", "level": "corpus", "effective_order": None, "weights": None,
                 "normalize": None}

#: What ``None`` stands for in each metric's options class (read by the docs: `zheval.compute.option_docs`).
METRIC_DEFAULTS = ((RougeOptions, ROUGE_DEFAULTS), (BleuOptions, BLEU_DEFAULTS))

# help() shows every option: each class's docstring gets the Attributes section of its fields' texts and defaults
for _cls in (TokenizerOptions, IntervalOptions, RougeOptions, BleuOptions, ChrfOptions):
    documented(_cls, METRIC_DEFAULTS)
del _cls

#: Tokenizer options shared by the metrics (same names, same meaning), forwarded to
#: `zheval.tokenizers.get_tokenizer`.
TOKENIZER_OPTIONS = tuple(n for n in TokenizerOptions.names() if n != "tokenizer")

#: Options of the bootstrap interval, shared by the metrics.
INTERVAL_OPTIONS = ("bootstrap", "bootstrap_method", "seed", "confidence")


def refuse_unknown(function: str, given, known) -> None:
    """TypeError naming the options of ``given`` that are not in ``known`` (with the reason for a refused Hub
    option), listing the valid ones; nothing when all are known."""
    bad = sorted(k for k in given if k not in known)
    if bad:
        raise TypeError(f"{function} got unknown option(s) {bad}; valid options: {', '.join(known)}"
                        f"{refused_hub_options(bad)}")


def refuses_unknown_options(function: Callable) -> Callable:
    """Decorate a function whose keyword-only parameters are options: a keyword it does not take raises
    `refuse_unknown`'s TypeError (naming it, listing the valid options, with the reason for a refused Hub
    option) instead of Python's bare "unexpected keyword argument". The signature is the function's own
    (``functools.wraps``); when its keyword-only parameters are the fields of an options class, each ``Args:``
    entry that only points at the field (``name: [`name`][...].``) shows the field's text and default in
    ``help()`` (`zheval.compute.option_docs.with_option_texts`)."""
    params = inspect.signature(function).parameters
    names = tuple(n for n, p in params.items() if p.kind is p.KEYWORD_ONLY)
    accepted = set(params)
    options_class = next((c for c in OPTIONS_CLASSES.values() if set(c.names()) == set(names)), None)

    @functools.wraps(function)
    def checked(*args, **kwargs):
        if not accepted.issuperset(kwargs):
            refuse_unknown(function.__name__, {k: v for k, v in kwargs.items() if k not in accepted}, names)
        check_normalize_flags(kwargs)  # the options given explicitly: a default is never the caller's word
        return function(*args, **kwargs)

    if options_class is not None:
        checked.__doc__ = with_option_texts(function.__doc__, options_class, METRIC_DEFAULTS)
    return checked


def check_metrics(metrics, valid: Sequence[str]) -> list:
    """The metric names of a door that feeds several metrics (a str is a comma list, ``"bleu,rouge"``, read by
    `zheval.io.lists.split_entries`; one name is a list of one), checked: a list.

    Raises:
        ValueError: an empty list, an empty entry of a comma list (``"bleu,,rouge"``), a name not in ``valid`` (the
            message lists the valid ones), or a name given twice (as a ROUGE type twice, `check_rouge_types`).
    """
    if isinstance(metrics, str):
        metrics = split_entries(metrics, "metrics")
    metrics = list(metrics)
    if not metrics:  # "unknown metric(s) []" named no unknown metric
        raise ValueError(f"name at least one metric (the known ones: {', '.join(valid)})")
    bad = [m for m in metrics if m not in valid]
    if bad:
        raise ValueError(f"unknown metric(s) {bad}; valid: {', '.join(valid)}")
    if len(set(metrics)) != len(metrics):  # the rule of rouge_types (check_rouge_types): no silent deduplication
        raise ValueError(f"metrics has duplicates: {metrics}; name each metric once")
    return metrics


def options_for_metrics(
    function: str,
    metrics: Sequence[str],
    given: Mapping[str, Any],
    typed: Optional[Mapping[str, Optional[MetricOptions]]] = None,
) -> Dict[str, MetricOptions]:
    """The options object of each requested metric, from options given by name and typed objects -- the one rule of
    every door that feeds several metrics.

    Args:
        function: the door's name, for the errors.
        metrics: the requested metrics, short names (``"rouge"``, ``"bleu"``, ``"chrf"``).
        given: options by name; each goes to every requested metric that has it (``tokenizer``, the tokenizer
            options, ``bootstrap``, ``seed``, ``confidence``, ``max_refs`` to all; ``rouge_types`` to ROUGE;
            ``level`` to BLEU and chrF; ``beta`` -- the recall weight -- to ROUGE and chrF ...).
        typed: ``{"rouge": RougeOptions(...) or None, ...}``: a metric's options as an object; the options given by
            name are set on it.

    Returns:
        ``{metric: options object}`` for every requested metric, in the order of ``metrics``.

    Raises:
        TypeError: an option no metric has (listing the valid ones, with the reason for a refused Hub option); an
            option that no requested metric uses (naming the metrics that would use it); a typed object of the
            wrong class or for a metric not requested; an option given by name that the typed object also sets;
            and the fields' own checks (ValueError too).
    """
    known = list(dict.fromkeys(n for cls in OPTIONS_CLASSES.values() for n in cls.names()))
    check_normalize_flags(given)
    unknown = sorted(k for k in given if k not in known)
    if unknown:
        raise TypeError(f"{function} got unknown option(s) {unknown}; valid options: "
                        f"{', '.join(sorted(known))}{refused_hub_options(unknown)}")
    unused = {k: [m for m, cls in OPTIONS_CLASSES.items() if k in cls.names()] for k in given
              if not any(k in OPTIONS_CLASSES[m].names() for m in metrics)}
    if unused:
        said = "; ".join(f"{k} is an option of {' and '.join(ms)}" for k, ms in unused.items())
        raise TypeError(f"{function}: no requested metric ({', '.join(metrics)}) uses option(s) "
                        f"{sorted(unused)} ({said}); ask for that metric or leave the option out")
    typed = {m: o for m, o in (typed or {}).items() if o is not None}
    for m, obj in typed.items():
        cls = OPTIONS_CLASSES[m]
        if not isinstance(obj, cls):
            raise TypeError(f"{function}: {m}= takes a {cls.__name__}, got {type(obj).__name__} {obj!r}")
        if m not in metrics:
            raise TypeError(f"{function}: {m}={cls.__name__}(...) was given but {m!r} is not among the requested "
                            f"metrics ({', '.join(metrics)})")
    out: Dict[str, MetricOptions] = {}
    for m in metrics:
        cls = OPTIONS_CLASSES[m]
        mine = {k: v for k, v in given.items() if k in cls.names()}
        if m == "chrf" and len(metrics) > 1:  # shared word options act on the other metrics, not on chrF's characters
            order = mine.get("word_order", typed["chrf"].word_order if "chrf" in typed else 0)
            if order == 0:
                mine = {k: v for k, v in mine.items() if k not in chrf_word_only_given(mine)}
        twice = sorted(k for k in mine if m in typed and k in typed[m].changed())
        if twice:
            raise TypeError(f"{function}: option(s) {twice} given both by name and in {m}={cls.__name__}(...); "
                            "give each once")
        cls.check_given(function, {**({k: getattr(typed[m], k) for k in cls.names()} if m in typed else {}), **mine})
        if m in typed:
            out[m] = dataclasses.replace(typed[m], **mine) if mine else typed[m]
        else:
            out[m] = cls(**mine)
    return out


def tokenizer_from_options(tokenizer, options: TokenizerOptions, normalize=None, part=None):
    """The tokenizer of a metric: [`zheval.tokenizers.get_tokenizer`][] of ``tokenizer`` (resolved: a preset may
    set it) with the tokenizer options of ``options`` and ``normalize`` (resolved; ``None``: the tokenizer's
    default; a preset's value, with ``options.normalize`` None, is not applied to an already-built tokenizer
    instance, which carries its own). ``part``: the preset part in use (or None); when its tool tokenizer refuses an option, the error names
    the preset and whose tokens it reproduces (`zheval.presets.base.tokens_tool`: LongBench's jieba for
    ``longbench``, not the tokenizer's own "LLaMA-Factory").

    Raises:
        TypeError/ValueError/FileNotFoundError: as [`get_tokenizer`][zheval.tokenizers.get_tokenizer].
    """
    from ..tokenizers import TOOL_TOKENIZERS, get_tokenizer

    from ..tokenizers import BaseTokenizer

    opts = {k: getattr(options, k) for k in TOKENIZER_OPTIONS if k != "normalize"}
    if normalize is not None and not (isinstance(tokenizer, BaseTokenizer) and options.normalize is None):
        opts["normalize"] = normalize  # a preset's normalisation is not the caller's: a built tokenizer keeps its own
    try:
        return get_tokenizer(tokenizer, **opts)
    except ValueError as exc:
        own = f"tokenizer {tokenizer!r} reproduces {getattr(TOOL_TOKENIZERS.get(tokenizer), 'TOOL', '')} exactly"
        if part is None or options.tokenizer is not None or not str(exc).startswith(own):
            raise
        from ..presets.base import tokens_tool

        said = (f"tokenizer {tokenizer!r} (the tokenizer of preset {part.name!r}) reproduces "
                f"{tokens_tool(part)} exactly")
        raise ValueError(said + str(exc)[len(own):]) from None
