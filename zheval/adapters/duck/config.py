"""The scoring options of a 小黄鸭 evaluation: `make_config` validates them once and resolves them into a
`ScoreConfig` (the tokenizer, the metrics, ROUGE types and multi-reference rule, resolved BLEU options), which
is pickled into every ``map`` worker and whose `ScoreConfig.fingerprint` keys the map's cache.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any, Dict, Mapping, Optional

from ...compute.bleu import BleuConfig
from ...compute.chrf import ChrfConfig
from ...compute.option_rules import check_interval_used, check_sentence_split_used
from ...compute.options import (BleuOptions, ChrfOptions, IntervalOptions, MetricOptions, RougeOptions,
                                TokenizerOptions, check_metrics, options_for_metrics)
from ...compute.rouge import RougeConfig
from ...io.lists import split_entries
from ...tokenizers import BaseTokenizer

__all__ = ["METRICS", "DEFAULT_METRICS", "DEFAULT_ROUGE_TYPES", "REPORT_FIELDS", "ScoreConfig", "report_options",
           "check_report_interval", "make_config"]

METRICS = ("bleu", "rouge", "chrf")
"""Metric families [`evaluate_predictions`][zheval.adapters.duck.evaluate.evaluate_predictions] computes."""

DEFAULT_METRICS = ("bleu", "rouge")
"""The metrics reported when none are named (chrF on request: ``metrics=[..., "chrf"]``, ``--metrics ...,chrf``)."""

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")
"""ROUGE types reported by default (F-measure)."""

TOKENIZER_FIELDS = TokenizerOptions.names()


@dataclass(frozen=True)
class ScoreConfig:
    """Resolved scoring options shared by every item (pickled into ``map`` workers): the library's own configs
    ([`zheval.compute.rouge.rouge_config`][], [`zheval.compute.bleu.bleu_config`][]), which share one tokenizer.

    Attributes:
        metrics: subset of `METRICS`; rouge_config: the ROUGE config (its types, multi-reference rule,
            sentence split); bleu_config: the BLEU config (corpus level); chrf_config: the chrF config (corpus
            level, the same tokenizer), ``None`` when chrF is not reported.
    """

    metrics: tuple
    rouge_config: RougeConfig
    bleu_config: BleuConfig
    chrf_config: Optional[ChrfConfig] = None

    @property
    def chrf(self) -> dict:
        """The chrF options as a dict (``char_order``, ``word_order``, ``beta``, ``eps_smoothing``; ``{}`` without
        chrF)."""
        return {} if self.chrf_config is None else dict(self.chrf_config.score_options)

    @property
    def tokenizer(self) -> BaseTokenizer:
        """The zheval tokenizer of both metrics."""
        return self.bleu_config.tokenizer

    @property
    def bleu(self) -> dict:
        """The resolved BLEU options as a dict (``max_order``, ``smooth_method``, ..., ``preset``)."""
        b = self.bleu_config
        return {"max_order": b.max_order, "smooth_method": b.smooth_method, "smooth_value": b.smooth_value,
                "bp_ref_length": b.bp_ref_length, "level": b.level, "effective_order": b.effective_order,
                "weights": b.weights, "preset": b.preset.name if b.preset is not None else None}

    def fingerprint(self) -> str:
        """sha256 (16 hex) of the tokenizer fingerprint and every scoring option."""
        cfg = {
            "tok": self.tokenizer.fingerprint,
            "metrics": list(self.metrics),
            "rouge": [list(self.rouge_config.types), self.rouge_config.multi_ref, self.rouge_config.sentence_split],
            "bleu": {k: (list(v) if isinstance(v, tuple) else v) for k, v in sorted(self.bleu.items())},
        }
        if self.chrf_config is not None:
            cfg["chrf"] = self.chrf
        if self.max_refs is not None:
            cfg["max_refs"] = self.max_refs
        return hashlib.sha256(json.dumps(cfg, sort_keys=True, default=str).encode()).hexdigest()[:16]

    @property
    def max_refs(self):
        """The ``max_refs`` limit (first K references of every item), or ``None``."""
        return self.bleu_config.max_refs

    @property
    def score_options(self) -> dict:
        """Keyword options of `zheval.definitions.bleu_score.score_stats`."""
        return self.bleu_config.score_options


#: The options of each metric the 小黄鸭 report takes (besides the tokenizer part, shared by every metric); the
#: interval (``bootstrap``, ``seed``, ``confidence``) and ``max_refs`` are the report's own arguments. Any other
#: option set is refused, naming it: the report would not honour it.
REPORT_FIELDS = {
    "rouge": ("rouge_types", "multi_ref", "sentence_split"),
    "bleu": ("preset", "max_order", "smooth_method", "smooth_value", "bp_ref_length", "effective_order", "weights",
             "level"),
    "chrf": ("char_order", "word_order", "beta", "eps_smoothing", "level"),
}


def report_options(function: str, metrics, tokenizer: Any, options: Mapping[str, Any],
                   typed: Mapping[str, Any], *, interval: Optional[Mapping[str, Any]] = None,
                   ) -> Dict[str, MetricOptions]:
    """The options objects of a 小黄鸭 report door ([`options_for_metrics`][zheval.compute.options.options_for_metrics] with the
    report's rules): ``metrics`` (a list, or one comma-separated str), the door's ``tokenizer`` (``"char"`` by
    default; ``None``: the BLEU preset's), options by name and ``{"rouge": RougeOptions, ...}`` objects; the door's
    own interval arguments ``interval`` (``bootstrap``, ``seed``, ``confidence``, ``folds``: `check_report_interval`).
    An option that would change nothing is refused, naming ``function``, as ``zheval.score`` refuses it
    (`zheval.compute.option_rules`): ``sentence_split`` without rougeLsum among the report's ROUGE types (the
    caller's, else `DEFAULT_ROUGE_TYPES`), ``seed``/``confidence`` without ``bootstrap``, chrF's word-only options
    with chrF alone and ``word_order=0``.

    Returns:
        ``{metric: options object}`` for the metrics asked for, in `METRICS` order.

    Raises:
        ValueError: an unknown metric (listing the valid ones); ``level`` other than corpus; an empty entry in a comma
            list (``metrics="bleu,,rouge"``, ``rouge_types="rouge1,"``: `zheval.io.lists.split_entries`); an option
            that would change nothing (above).
        TypeError: an unknown option, one no requested metric uses, one the report does not take (naming it and its
            metric), options objects whose tokenizer parts differ (the report scores every metric with one
            tokenizer); the fields' own checks.
    """
    if isinstance(metrics, str):
        metrics = split_entries(metrics, "metrics")
    metrics = check_metrics(metrics, METRICS)
    typed = {m: o for m, o in typed.items() if o is not None}
    given = dict(options)
    if isinstance(given.get("rouge_types"), str):  # "rouge1,rougeL", as the command line writes it
        given["rouge_types"] = split_entries(given["rouge_types"], "rouge_types")
    if tokenizer is not None and not (tokenizer == "char" and any("tokenizer" in o.changed() for o in typed.values()
                                                                    if isinstance(o, TokenizerOptions))):
        given["tokenizer"] = tokenizer
    out = options_for_metrics(function, [m for m in METRICS if m in metrics], given, typed)
    for m, o in out.items():
        bad = [k for k in o.changed() if k not in REPORT_FIELDS[m] and k not in TOKENIZER_FIELDS]
        if bad:
            raise TypeError(f"{function}: the 小黄鸭 report does not take {m}'s option(s) {bad} (it takes "
                            f"{', '.join(REPORT_FIELDS[m])} and the tokenizer options; bootstrap, seed, confidence "
                            "and max_refs are the report's own arguments)")
    differ = [k for k in TOKENIZER_FIELDS
              if len({repr(getattr(o, k)) for o in out.values() if k in o.changed()}) > 1]
    if differ:
        raise TypeError(f"{function}: the 小黄鸭 report scores every metric with one tokenizer; the options objects "
                        f"set different values of {differ} (set them by name, once)")
    if "rouge" in out:
        check_sentence_split_used(function, out["rouge"], out["rouge"].rouge_types or DEFAULT_ROUGE_TYPES)
    if interval is not None:
        check_report_interval(function, **interval)
    return out


def check_report_interval(function: str, bootstrap: Any, seed: Any = 12345, confidence: Any = 0.95,
                          folds: Any = None, max_refs: Any = None) -> None:
    """Check the report's own numeric arguments of a report door (``evaluate_predictions``, ``score_records``,
    ``score_records_stream``, ``human_ceiling``) with the checks of ``compute_*`` (the fields of `IntervalOptions`:
    `zheval.results.reducers.check_bootstrap`, ``check_seed``, ``check_confidence``,
    `zheval.results.breakdowns.check_max_refs`), so a bool or a non-integral float is refused naming the value as
    given (``bootstrap=10.7`` ran 10 resamples and wrote ``bs:10``; ``bootstrap=True`` failed naming 1), and refuse
    those that would change nothing: ``seed`` or ``confidence`` set to another value than its default while
    ``bootstrap`` is 0 (no interval) -- the rule of every door, `zheval.compute.option_rules.check_interval_used`;
    ``seed`` also draws the ``folds``, so beside them it acts.

    Raises:
        ValueError, TypeError: naming ``function`` and the argument (the arguments' own checks and messages).
    """
    try:
        IntervalOptions(bootstrap=bootstrap, seed=seed, confidence=confidence, max_refs=max_refs)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{function}: {exc}") from None
    if bootstrap != 0:
        return  # an interval runs
    given = {"confidence": confidence} if folds is not None else {"seed": seed, "confidence": confidence}
    check_interval_used(function, IntervalOptions(**given))


def _chrf_tokenizer(tokenizer, word_order: int) -> dict:
    """chrF's tokenizer options in a report whose metrics share ``tokenizer``: that tokenizer, except for chrF
    without word n-grams (``word_order=0``) beside a built-in ``char``/``jieba`` tokenizer, whose words, terms and
    ``punct`` act on the other metrics only: then ``"char"`` with the same normaliser, the characters chrF counts
    (the signature names what acted on chrF; `zheval.compute.option_rules.check_chrf_word_options`)."""
    from ...tokenizers import CharTokenizer, JiebaTokenizer

    if word_order == 0 and isinstance(tokenizer, (CharTokenizer, JiebaTokenizer)):
        return {"tokenizer": "char", "normalize": tokenizer.normalizer}
    return {"tokenizer": tokenizer}


def make_config(options: Mapping[str, MetricOptions], *, max_refs: int | None = None) -> ScoreConfig:
    """Build the `ScoreConfig` of a report with the library's config functions (every option check and the
    tokenizer construction are the library's own).

    Args:
        options: ``{metric: options object}`` from `report_options` ([`RougeOptions`][zheval.compute.options.RougeOptions]
            ..., each defined once in `zheval.compute.options`); the report's defaults where a metric sets
            nothing: ROUGE types `DEFAULT_ROUGE_TYPES`, the ``max`` rule, the ``punct`` sentence split; corpus
            BLEU and chrF. The tokenizer is BLEU's (a BLEU preset may set it), shared by every metric.
        max_refs: score with the first ``max_refs`` references of every item (``None``: all); every config gets
            it, so the signatures record it (``maxrefs:K``).

    Raises:
        ValueError: ``level`` other than corpus, and the option errors of
            [`bleu_config`][zheval.compute.bleu.bleu_config], [`rouge_config`][zheval.compute.rouge.rouge_config],
            [`chrf_config`][zheval.compute.chrf.chrf_config].
    """
    from ...compute.bleu import bleu_config
    from ...compute.chrf import chrf_config
    from ...compute.rouge import rouge_config

    first = next(iter(options.values()))
    tok_part = {k: getattr(first, k) for k in TOKENIZER_FIELDS}
    bleu_opts = options.get("bleu") or BleuOptions(**tok_part)
    bleu = bleu_config(replace(bleu_opts, max_refs=max_refs))
    if bleu.level != "corpus":
        raise ValueError("the 小黄鸭 report uses corpus BLEU (level='corpus'); sentence-level BLEU is not supported here")
    r = options.get("rouge") or RougeOptions()
    rouge = rouge_config(RougeOptions(tokenizer=bleu.tokenizer, rouge_types=list(r.rouge_types or DEFAULT_ROUGE_TYPES),
                                      multi_ref=r.multi_ref or "max", sentence_split=r.sentence_split or "punct",
                                      max_refs=max_refs))
    chrf = None
    if "chrf" in options:
        c = options["chrf"]
        if c.level != "corpus":
            raise ValueError("the 小黄鸭 report uses corpus chrF (level='corpus')")
        chrf = chrf_config(ChrfOptions(**_chrf_tokenizer(bleu.tokenizer, c.word_order), max_refs=max_refs,
                                       **{k: getattr(c, k) for k in REPORT_FIELDS["chrf"]}))
    return ScoreConfig(tuple(m for m in METRICS if m in options), rouge, bleu, chrf)
