"""The scoring options of a 小黄鸭 evaluation: :func:`make_config` validates them once and resolves them into a
:class:`ScoreConfig` (the tokenizer, the metrics, ROUGE types and multi-reference rule, resolved BLEU options), which
is pickled into every ``map`` worker and whose :meth:`ScoreConfig.fingerprint` keys the map's cache.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Sequence

from ...definitions.rouge import parse_rouge_type
from ...tokenizers import BaseTokenizer

__all__ = ["METRICS", "DEFAULT_ROUGE_TYPES", "ScoreConfig", "make_config"]

METRICS = ("bleu", "rouge")
"""Metric families :func:`~zheval.adapters.duck.evaluate.evaluate_predictions` computes."""

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")
"""ROUGE types reported by default (F-measure)."""


@dataclass(frozen=True)
class ScoreConfig:
    """Resolved scoring options shared by every item (pickled into ``map`` workers).

    Attributes:
        tokenizer: the zheval tokenizer; metrics: subset of :data:`METRICS`; rouge_types; multi_ref (ROUGE
            multi-reference rule); sentence_split (ROUGE-Lsum); bleu: resolved BLEU options
            (:func:`zheval.compute.bleu.resolve_options`); preset: BLEU preset name or ``None``.
    """

    tokenizer: BaseTokenizer
    metrics: tuple
    rouge_types: tuple
    multi_ref: str
    sentence_split: str
    bleu: dict = field(default_factory=dict)

    def fingerprint(self) -> str:
        """sha256 (16 hex) of the tokenizer fingerprint and every scoring option."""
        cfg = {
            "tok": self.tokenizer.fingerprint,
            "metrics": list(self.metrics),
            "rouge": [list(self.rouge_types), self.multi_ref, self.sentence_split],
            "bleu": {k: (list(v) if isinstance(v, tuple) else v) for k, v in sorted(self.bleu.items())},
        }
        return hashlib.sha256(json.dumps(cfg, sort_keys=True, default=str).encode()).hexdigest()[:16]

    @property
    def score_options(self) -> dict:
        """Keyword options of :func:`zheval.definitions.bleu.score_stats`."""
        return {k: self.bleu[k] for k in ("smooth_method", "smooth_value", "bp_ref_length", "effective_order", "weights")}


def make_config(
    tokenizer="char",
    metrics: Sequence[str] = METRICS,
    rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES,
    multi_ref: str = "max",
    sentence_split: str = "punct",
    bleu_options: dict | None = None,
    **tokenizer_options,
) -> ScoreConfig:
    """Validate options and build a :class:`ScoreConfig`.

    Args:
        tokenizer: a tokenizer name (``char``, ``jieba``, ``none``, or a BLEU preset tokenizer), a zheval tokenizer
            or a callable, as :func:`zheval.compute.bleu.build_bleu_tokenizer`.
        metrics: any of ``"bleu"``, ``"rouge"``.
        rouge_types: ROUGE types (:func:`zheval.definitions.rouge.parse_rouge_type`); multi_ref: ``max``/``mean``/``pool``/
            ``best_recall``; sentence_split: ``punct``/``newline`` (ROUGE-Lsum).
        bleu_options: BLEU options of :func:`zheval.compute.bleu.compute_bleu` (``max_order``, ``smooth_method``,
            ``smooth_value``, ``bp_ref_length``, ``effective_order``, ``weights``); corpus level only.
        tokenizer_options: ``terms``, ``punct``, ``jieba_hmm``, ``jieba_dict``, ``normalize``, ``t2s``.

    Raises:
        ValueError: unknown metric, ROUGE type, multi_ref, sentence split, BLEU option value, ``level`` other than
            corpus; TypeError: unknown option names.
    """
    from ...compute.bleu import build_bleu_tokenizer, resolve_options
    from ...definitions.rouge import MULTI_REF_MODES
    from ...compute.rouge import ROUGE_TOKENIZERS, build_rouge_tokenizer
    from ...text.sentences import SENTENCE_SPLITS

    if isinstance(metrics, str):
        metrics = [m.strip() for m in metrics.split(",") if m.strip()]
    bad = [m for m in metrics if m not in METRICS]
    if bad or not metrics:
        raise ValueError(f"unknown metric(s) {bad or metrics}; valid: {', '.join(METRICS)}")
    if isinstance(rouge_types, str):
        rouge_types = [t.strip() for t in rouge_types.split(",") if t.strip()]
    if "rouge" in metrics and not rouge_types:
        raise ValueError("rouge_types must name at least one ROUGE type")
    for rt in rouge_types:
        parse_rouge_type(rt)
    if len(set(rouge_types)) != len(rouge_types):
        raise ValueError(f"rouge_types has duplicates: {list(rouge_types)}")
    if multi_ref not in MULTI_REF_MODES:
        raise ValueError(f"unknown multi_ref {multi_ref!r}; valid: {', '.join(MULTI_REF_MODES)}")
    if sentence_split not in SENTENCE_SPLITS:
        raise ValueError(f"unknown sentence_split {sentence_split!r}; valid: {', '.join(SENTENCE_SPLITS)}")
    bopts = dict(bleu_options or {})
    preset = bopts.pop("preset", None)
    bleu = resolve_options(preset, **bopts)
    if bleu["level"] != "corpus":
        raise ValueError("the 小黄鸭 report uses corpus BLEU (level='corpus'); sentence-level BLEU is not supported here")
    if isinstance(tokenizer, str) and tokenizer in ROUGE_TOKENIZERS:
        tok = build_rouge_tokenizer(tokenizer, **tokenizer_options)
    else:
        tok = build_bleu_tokenizer(tokenizer if tokenizer is not None else bleu["tokenizer"], **tokenizer_options)
    return ScoreConfig(tok, tuple(m for m in METRICS if m in metrics), tuple(rouge_types), multi_ref, sentence_split, bleu)
