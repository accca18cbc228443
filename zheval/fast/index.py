"""Index arrays of a corpus over its distinct texts: the shared input of the corpus-at-once scorers.

A corpus is I items, each with one prediction and k_i >= 1 references (P = sum k_i pairs). Its texts repeat (the
same reference for many items, the same prediction for several references), so every per-text structure is built
once per distinct text: token ids, lengths, n-gram counts (`zheval.fast.ngrams`). ROUGE (`zheval.fast.rouge`)
and BLEU (`zheval.definitions.bleu.corpus_stats`, [`zheval.compute.joint`][]) read the same layout, so scoring both metrics
tokenises and counts each text once. Nothing is kept across calls.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..tokenizers.corpus import TokenIds
from .ngrams import flatten_texts, ngram_counts_by_text

__all__ = ["CorpusLayout"]


class CorpusLayout:
    """Index arrays of a tokenised corpus over its distinct texts (built once, shared by ROUGE and BLEU).

    Attributes:
        texts: the distinct texts in order of first appearance (`TokenizedText` objects or
            id tuples, depending on the constructor); ``token_ids``: their token id tuples (both built on first
            access for a tokenised corpus, whose flat arrays the layout reads directly).
        sentence_counts: ``(n_texts,)`` sentences per text for a tokenised corpus, else None.
        hyp: ``(I,)`` int64, text index of each item's prediction.
        ref: ``(P,)`` int64, text index of every reference, items in order (P = total references).
        pair_item: ``(P,)`` int64, the item of each reference (non-decreasing).
        ref_starts: ``(I,)`` int64, index of each item's first reference in ``ref``; ``ref_counts``: ``(I,)``.
        lengths: ``(n_texts,)`` int64 token counts; ``vocab_size``: number of distinct token ids.
    """

    def __init__(self, texts: list, token_ids: list, hyp: np.ndarray, ref: np.ndarray, ref_counts: Sequence[int],
                 vocab_size: int, lengths: "np.ndarray | None" = None):
        self._texts = texts
        self._token_ids = token_ids
        self._corpus = None
        self.sentence_counts = None
        self.hyp = hyp
        self.ref = ref
        self.ref_counts = np.asarray(ref_counts, dtype=np.int64)
        n = len(self.ref_counts)
        self.pair_item = np.repeat(np.arange(n, dtype=np.int64), self.ref_counts)
        self.ref_starts = np.zeros(n, dtype=np.int64)
        if n > 1:
            np.cumsum(self.ref_counts[:-1], out=self.ref_starts[1:])
        if lengths is None:
            lengths = np.fromiter((len(t) for t in token_ids), dtype=np.int64, count=len(token_ids))
        self.lengths = lengths
        self.vocab_size = vocab_size
        self._flat = None
        self._ngrams: list = []

    @classmethod
    def from_corpus(cls, corpus) -> "CorpusLayout":
        """Layout of a `TokenizedCorpus` (its texts are already distinct: the
        layout reads its arrays; ``texts`` are its `TokenizedText` objects, built
        only when asked for)."""
        lay = cls(None, None, corpus.pred_text, corpus.ref_text, corpus.ref_counts, len(corpus.vocab),
                  lengths=np.diff(corpus.text_offsets))
        lay._corpus = corpus
        lay._flat = (corpus.ids, corpus.text_offsets)
        lay.sentence_counts = np.diff(corpus.text_sents)
        return lay

    @classmethod
    def from_token_sequences(cls, hypotheses: Sequence[Sequence], references: Sequence[Sequence[Sequence]]) -> "CorpusLayout":
        """Layout of token sequences of any hashable tokens (``references``: a non-empty list per item). Tokens are
        mapped to ids in order of first appearance; equal sequences share one text. ``texts`` = ``token_ids``."""
        vocab = TokenIds()
        ids = vocab.__getitem__
        memo: dict = {}
        by_object: dict = {}  # id(seq) -> text index; the sequences stay alive in the arguments during the call
        texts: list = []

        def idx(seq) -> int:
            i = by_object.get(id(seq))
            if i is not None:
                return i
            key = seq if type(seq) is tuple else tuple(seq)
            i = memo.get(key)
            if i is None:
                i = memo[key] = len(texts)
                texts.append(tuple(map(ids, key)))
            by_object[id(seq)] = i
            return i

        hyp = np.fromiter((idx(h) for h in hypotheses), dtype=np.int64, count=len(hypotheses))
        counts = [len(rs) for rs in references]
        ref = np.fromiter((idx(r) for rs in references for r in rs), dtype=np.int64, count=sum(counts))
        return cls(texts, texts, hyp, ref, counts, len(vocab))

    @property
    def texts(self) -> list:
        """The distinct texts (`TokenizedText` objects, or id tuples)."""
        if self._texts is None:
            self._texts = self._corpus.texts
        return self._texts

    @property
    def token_ids(self) -> list:
        """The token id tuples of the distinct texts."""
        if self._token_ids is None:
            self._token_ids = [t.tokens for t in self.texts]
        return self._token_ids

    @property
    def corpus(self):
        """The `TokenizedCorpus` behind this layout (None for token sequences)."""
        return self._corpus

    def flat(self):
        """``(tokens, offsets)`` of the distinct texts (`zheval.fast.ngrams.flatten_texts`), built once."""
        if self._flat is None:
            self._flat = flatten_texts(self.token_ids)
        return self._flat

    def ngram_counts(self, order: int):
        """`zheval.fast.ngrams.NgramCounts` of ``order`` for the distinct texts (computed once per layout)."""
        if len(self._ngrams) < order:
            self._ngrams = ngram_counts_by_text(*self.flat(), self.vocab_size, order, extend=self._ngrams or None)
        return self._ngrams[order - 1]
