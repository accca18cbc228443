"""The tokenised corpus that BLEU and ROUGE share in one call ([`zheval.score`][zheval.compute.joint.score]): an explicit object passed
down to [`zheval.compute.rouge.rouge_items`][] and [`zheval.compute.bleu.bleu_items`][], never a
callback. Built only where `zheval.fast.usable_for` (``"shared_tokens"``) says BLEU may count on ROUGE's tokens;
it lives for one call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Sequence

import numpy as np

from ..fast import usable_for
from ..fast.bleu import layout_stats
from ..fast.index import CorpusLayout
from ..tokenizers import BaseTokenizer
from ..tokenizers.jieba_rs import jieba_rs_segmenter
from ..tokenizers.corpus import TokenizedCorpus, tokenize_corpus

__all__ = ["SharedTokens"]


@dataclass(eq=False)
class SharedTokens:
    """One call's tokenised corpus (`TokenizedCorpus`), its index arrays
    (`CorpusLayout`) and, when BLEU is computed on it too, BLEU's per-item statistics --
    whose pass also yields every (prediction, reference) pair's ROUGE-N hits for n <= ``bleu_max_order``, so ROUGE
    does not count those orders again.

    Args:
        predictions, references: validated texts (``list[str]``, ``list[list[str]]``).
        tokenizer: the tokenizer of both metrics; sentence_split: ROUGE's sentence split.
        bleu_max_order: BLEU's ``max_order`` when BLEU is counted on these tokens, else None.
        sentences: whether ROUGE reads sentences (rougeLsum); without, the corpus is not sentence-split where the
            tokens do not depend on it (`zheval.tokenizers.corpus.tokenize_corpus` ``sentences``).
    """

    predictions: Sequence[str]
    references: Sequence[Sequence[str]]
    tokenizer: BaseTokenizer
    sentence_split: str
    bleu_max_order: Optional[int] = None
    sentences: bool = True

    def __post_init__(self) -> None:
        self._corpus: Optional[TokenizedCorpus] = None
        self._layout: Optional[CorpusLayout] = None
        self._bleu: Optional[tuple] = None

    @property
    def corpus(self) -> TokenizedCorpus:
        """The tokenised corpus (tokenised on first use)."""
        if self._corpus is None:
            tok = self.tokenizer
            self._corpus = tokenize_corpus(self.predictions, self.references, tok, self.sentence_split,
                                           char_ids=usable_for("char_ids", tokenizer=tok),
                                           compiled_tokens=usable_for("compiled_tokens", predictions=self.predictions,
                                                                     references=self.references),
                                           normalize_all=usable_for("normalize_corpus", tokenizer=tok),
                                           segmenter=(jieba_rs_segmenter(tok) if usable_for("jieba_rs", tokenizer=tok)
                                                      else None),
                                           sentences=self.sentences)
        return self._corpus

    @property
    def layout(self) -> CorpusLayout:
        """The corpus's index arrays over its distinct texts (built on first use)."""
        if self._layout is None:
            self._layout = CorpusLayout.from_corpus(self.corpus)
        return self._layout

    def _bleu_pass(self) -> tuple:
        if self._bleu is None:
            n = self.bleu_max_order
            # the ROUGE-N hits of the pairs come from BLEU's pass only where BLEU's one-sort-per-order twin cannot
            # key this corpus (then BLEU counts per text and reads the pairs' hits off the same pass); otherwise
            # ROUGE's own pass (zheval.fast.slots) counts them
            lay = self.layout
            if usable_for("slot_bleu", corpus_layout=lay):
                self._bleu = (layout_stats(lay, n), None)
            else:
                self._bleu = layout_stats(lay, n, pair_orders=n)
        return self._bleu

    def bleu_stats(self) -> np.ndarray:
        """BLEU's ``(n_items, 3 + 2 * bleu_max_order)`` statistics on these tokens (ValueError without an order)."""
        if self.bleu_max_order is None:
            raise ValueError("SharedTokens.bleu_stats: these tokens are not shared with BLEU (no bleu_max_order)")
        return self._bleu_pass()[0]

    def pair_ngram_hits(self) -> Optional[Dict[int, np.ndarray]]:
        """``{n: (n_pairs,) int64}`` ROUGE-N hits of every pair for n <= ``bleu_max_order`` from BLEU's pass, or
        None when BLEU is not counted on these tokens or its pass does not give them (its one-sort twin ran)."""
        if self.bleu_max_order is None:
            return None
        pair = self._bleu_pass()[1]
        if pair is None:
            return None
        return {k + 1: pair[:, k] for k in range(pair.shape[1])}
