"""The scoring options of a 小黄鸭 evaluation: :func:`make_config` validates them once and resolves them into a
:class:`ScoreConfig` (the tokenizer, the metrics, ROUGE types and multi-reference rule, resolved BLEU options), which
is pickled into every ``map`` worker and whose :meth:`ScoreConfig.fingerprint` keys the map's cache.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Sequence

from typing import Optional

from ...compute.bleu import BleuConfig
from ...compute.chrf import ChrfConfig
from ...compute.rouge import RougeConfig
from ...tokenizers import BaseTokenizer

__all__ = ["METRICS", "DEFAULT_METRICS", "DEFAULT_ROUGE_TYPES", "ScoreConfig", "make_config"]

METRICS = ("bleu", "rouge", "chrf")
"""Metric families :func:`~zheval.adapters.duck.evaluate.evaluate_predictions` computes."""

DEFAULT_METRICS = ("bleu", "rouge")
"""The metrics reported when none are named (chrF on request: ``metrics=[..., "chrf"]``, ``--metrics ...,chrf``)."""

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")
"""ROUGE types reported by default (F-measure)."""


@dataclass(frozen=True)
class ScoreConfig:
    """Resolved scoring options shared by every item (pickled into ``map`` workers): the library's own configs
    (:func:`zheval.compute.rouge.rouge_config`, :func:`zheval.compute.bleu.bleu_config`), which share one tokenizer.

    Attributes:
        metrics: subset of :data:`METRICS`; rouge_config: the ROUGE config (its types, multi-reference rule,
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
        """Keyword options of :func:`zheval.definitions.bleu_score.score_stats`."""
        return self.bleu_config.score_options


def make_config(
    tokenizer="char",
    metrics: Sequence[str] = DEFAULT_METRICS,
    rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES,
    multi_ref: str = "max",
    sentence_split: str = "punct",
    bleu_options: dict | None = None,
    max_refs: int | None = None,
    chrf_options: dict | None = None,
    **tokenizer_options,
) -> ScoreConfig:
    """Validate options and build a :class:`ScoreConfig` with the library's config functions (every option check
    and the tokenizer construction are the library's own).

    Args:
        tokenizer: a tokenizer name of :func:`zheval.tokenizers.get_tokenizer` (``char``, ``jieba``, ``none``, a
            preset's tool tokenizer), a zheval tokenizer or a callable; ``None``: the BLEU preset's.
        metrics: any of ``"bleu"``, ``"rouge"``, ``"chrf"`` (default :data:`DEFAULT_METRICS`).
        rouge_types: ROUGE types (:func:`zheval.definitions.rouge.parse_rouge_type`); multi_ref: ``max``/``mean``/
            ``pool``/``best_recall``; sentence_split: ``punct``/``newline`` (ROUGE-Lsum).
        bleu_options: BLEU options of :func:`zheval.compute_bleu` (``preset``, ``max_order``, ``smooth_method``,
            ``smooth_value``, ``bp_ref_length``, ``effective_order``, ``weights``); corpus level only.
        max_refs: score with the first ``max_refs`` references of every item (``None``: all); every config gets
            it, so the signatures record it (``maxrefs:K``).
        chrf_options: chrF options of :func:`zheval.compute_chrf` (``char_order``, ``word_order``, ``beta``,
            ``eps_smoothing``); corpus level; the tokenizer is BLEU's (used by ``word_order`` > 0 only).
        tokenizer_options: ``terms``, ``punct``, ``jieba_hmm``, ``jieba_dict``, ``normalize``, ``t2s``.

    Raises:
        ValueError: unknown metric, ROUGE type, multi_ref, sentence split, BLEU option value, ``level`` other than
            corpus; TypeError: unknown option names.
    """
    from ...compute.bleu import bleu_config
    from ...compute.options import UNSET
    from ...compute.rouge import rouge_config

    if isinstance(metrics, str):
        metrics = [m.strip() for m in metrics.split(",") if m.strip()]
    bad = [m for m in metrics if m not in METRICS]
    if bad or not metrics:
        raise ValueError(f"unknown metric(s) {bad or metrics}; valid: {', '.join(METRICS)}")
    if isinstance(rouge_types, str):
        rouge_types = [t.strip() for t in rouge_types.split(",") if t.strip()]
    if "rouge" in metrics and not rouge_types:
        raise ValueError("rouge_types must name at least one ROUGE type")
    bleu = bleu_config(tokenizer=UNSET if tokenizer is None else tokenizer, **dict(bleu_options or {}),
                       max_refs=max_refs, **tokenizer_options)
    if bleu.level != "corpus":
        raise ValueError("the 小黄鸭 report uses corpus BLEU (level='corpus'); sentence-level BLEU is not supported here")
    rouge = rouge_config(tokenizer=bleu.tokenizer, rouge_types=list(rouge_types) or ["rouge1"], multi_ref=multi_ref,
                         sentence_split=sentence_split, max_refs=max_refs)
    chrf = None
    if "chrf" in metrics:
        from ...compute.chrf import chrf_config

        opts = dict(chrf_options or {})
        if opts.get("level", "corpus") != "corpus":
            raise ValueError("the 小黄鸭 report uses corpus chrF (level='corpus')")
        chrf = chrf_config(tokenizer=bleu.tokenizer, max_refs=max_refs, **opts)
    return ScoreConfig(tuple(m for m in METRICS if m in metrics), rouge, bleu, chrf)
