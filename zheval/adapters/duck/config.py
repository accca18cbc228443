"""The scoring options of a 小黄鸭 evaluation: :func:`make_config` validates them once and resolves them into a
:class:`ScoreConfig` (the tokenizer, the metrics, ROUGE types and multi-reference rule, resolved BLEU options), which
is pickled into every ``map`` worker and whose :meth:`ScoreConfig.fingerprint` keys the map's cache.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Sequence

from ...compute.bleu import BleuConfig
from ...compute.rouge import RougeConfig
from ...tokenizers import BaseTokenizer

__all__ = ["METRICS", "DEFAULT_ROUGE_TYPES", "ScoreConfig", "make_config"]

METRICS = ("bleu", "rouge")
"""Metric families :func:`~zheval.adapters.duck.evaluate.evaluate_predictions` computes."""

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")
"""ROUGE types reported by default (F-measure)."""


@dataclass(frozen=True)
class ScoreConfig:
    """Resolved scoring options shared by every item (pickled into ``map`` workers): the library's own configs
    (:func:`zheval.compute.rouge.rouge_config`, :func:`zheval.compute.bleu.bleu_config`), which share one tokenizer.

    Attributes:
        metrics: subset of :data:`METRICS`; rouge_config: the ROUGE config (its types, multi-reference rule,
            sentence split); bleu_config: the BLEU config (corpus level).
    """

    metrics: tuple
    rouge_config: RougeConfig
    bleu_config: BleuConfig

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
                "weights": b.weights, "preset": b.preset}

    def fingerprint(self) -> str:
        """sha256 (16 hex) of the tokenizer fingerprint and every scoring option."""
        cfg = {
            "tok": self.tokenizer.fingerprint,
            "metrics": list(self.metrics),
            "rouge": [list(self.rouge_config.types), self.rouge_config.multi_ref, self.rouge_config.sentence_split],
            "bleu": {k: (list(v) if isinstance(v, tuple) else v) for k, v in sorted(self.bleu.items())},
        }
        return hashlib.sha256(json.dumps(cfg, sort_keys=True, default=str).encode()).hexdigest()[:16]

    @property
    def score_options(self) -> dict:
        """Keyword options of :func:`zheval.definitions.bleu_score.score_stats`."""
        return self.bleu_config.score_options


def make_config(
    tokenizer="char",
    metrics: Sequence[str] = METRICS,
    rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES,
    multi_ref: str = "max",
    sentence_split: str = "punct",
    bleu_options: dict | None = None,
    **tokenizer_options,
) -> ScoreConfig:
    """Validate options and build a :class:`ScoreConfig` with the library's config functions (every option check
    and the tokenizer construction are the library's own).

    Args:
        tokenizer: a tokenizer name of :func:`zheval.tokenizers.get_tokenizer` (``char``, ``jieba``, ``none``, a
            preset's tool tokenizer), a zheval tokenizer or a callable; ``None``: the BLEU preset's.
        metrics: any of ``"bleu"``, ``"rouge"``.
        rouge_types: ROUGE types (:func:`zheval.definitions.rouge.parse_rouge_type`); multi_ref: ``max``/``mean``/
            ``pool``/``best_recall``; sentence_split: ``punct``/``newline`` (ROUGE-Lsum).
        bleu_options: BLEU options of :func:`zheval.compute_bleu` (``preset``, ``max_order``, ``smooth_method``,
            ``smooth_value``, ``bp_ref_length``, ``effective_order``, ``weights``); corpus level only.
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
                       **tokenizer_options)
    if bleu.level != "corpus":
        raise ValueError("the 小黄鸭 report uses corpus BLEU (level='corpus'); sentence-level BLEU is not supported here")
    rouge = rouge_config(tokenizer=bleu.tokenizer, rouge_types=list(rouge_types) or ["rouge1"], multi_ref=multi_ref,
                         sentence_split=sentence_split)
    return ScoreConfig(tuple(m for m in METRICS if m in metrics), rouge, bleu)
