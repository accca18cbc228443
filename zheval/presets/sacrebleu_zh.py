"""The ``sacrebleu-zh`` preset: ``sacrebleu.corpus_bleu(..., tokenize="zh")`` on raw text, exactly.

It needs only defaults: the tokenizer `zheval.tokenizers.sacrebleu_zh.SacrebleuZhTokenizer` (sacrebleu 2.6.0's
``zh`` tokens, no normalisation) and sacrebleu's ``BLEU`` defaults (exponential smoothing, closest reference length,
corpus level; at sentence level sacrebleu's ``sentence_bleu`` effective order). It is the one preset the 小黄鸭
report takes (``zheval score --preset sacrebleu-zh --metrics bleu``).
"""

from __future__ import annotations

from .base import BleuPreset, Preset

__all__ = ["PRESET"]

#: The registered preset (BLEU only).
PRESET = Preset(
    name="sacrebleu-zh",
    bleu=BleuPreset(
        name="sacrebleu-zh",
        defaults={
            "tokenizer": "sacrebleu-zh",
            "normalize": False,  # the raw text: kept when the tokenizer is overridden (docs/presets.md)
            "max_order": 4,
            "smooth_method": "exp",
            "smooth_value": None,
            "bp_ref_length": "closest",
            "level": "corpus",
            "effective_order": None,  # as sacrebleu: no for corpus_bleu, yes for sentence_bleu (level="sentence")
            "weights": None,
        },
        doors=frozenset({"text", "report", "space", "card"}),
        # sacrebleu's own BLEU options (BLEU(max_ngram_order=, smooth_method=, effective_order=), corpus_bleu /
        # sentence_bleu): still sacrebleu's score; the tokenizer, the closest reference length and uniform weights
        # are the recipe
        tool_options={"max_order": None, "smooth_method": ("exp", "floor", "add-k", "none"), "level": None,
                      "effective_order": None},
        summary="sacrebleu's corpus_bleu(..., tokenize='zh') on the raw text",
        # sacrebleu scores an empty reference (length 0, no n-gram): so does the preset, counted and warned
        scores_empty_references=True,
    ),
    # the report takes it for BLEU; --metrics with another metric is refused naming that metric
    # (zheval.cli.options.preset_options)
)
