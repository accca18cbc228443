"""Tokenise a corpus once and map tokens to integer ids, shared by ROUGE and BLEU.

Data flow (``docs/DESIGN.md``, "Data flow")::

    text ──normalise──▶ str ──split sentences──▶ [str] ──tokenise──▶ [[token]] ──ids──▶ TokenizedText

Each distinct text is tokenised once; tokens are then mapped to small integer ids (`TokenizedCorpus.vocab`
maps them back) and kept as flat arrays, so the scoring cores count n-grams and build LCS bit masks on ints. Ids are
local to one corpus: never compare ids of two corpora. Three ways, chosen by the caller through
`zheval.fast.usable_for`: the ``char`` tokenizer without terms goes through the corpus-at-once twins
(normalisation, sentence pieces and tokens on one code point array, no ``str`` per token); a built-in tokenizer may
normalise all texts at once and tokenise each normalised text (optionally with a proven faster segmenter); anything
else tokenises text by text through the tokenizer itself (its token cache when it is content-keyed).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..text.normalize_corpus import normalize_corpus
from ..text.sentences import SENTENCE_SPLITS
from ..text.split_corpus import split_corpus
from .base import BaseTokenizer
from .char_ids import char_token_spans, compact_dtype
from .term_ids import term_token_spans

__all__ = ["TokenizedText", "TokenizedCorpus", "tokenize_corpus", "tokenize_items", "name_failing_text", "TokenIds"]


def name_failing_text(exc: BaseException, where: str, tokenizer: BaseTokenizer) -> BaseException:
    """Name the text a tokenizer failed on (``predictions[3]``, ``references[3][1]``): the tokenizer's own
    ``TypeError`` (a user callable that returned something other than a list of ``str``) becomes a ``TypeError``
    starting with ``where``; any other exception (raised inside a user callable) gets a note naming ``where``
    (Python 3.11+ ``add_note``) and is returned as is, so its type stays what the user's code raised."""
    msg = f"{where}: the {tokenizer.signature()} tokenizer failed on this text"
    if isinstance(exc, TypeError) and str(exc).startswith("custom tokenizer "):
        return TypeError(f"{where}: {exc}")
    if hasattr(exc, "add_note"):
        exc.add_note(msg)
    return exc


def tokenize_items(
    predictions: Sequence[str], references: Sequence[Sequence[str]], tokenizer: BaseTokenizer
) -> tuple[list, list]:
    """Tokens of every prediction and reference (``tokenizer.tokenize_cached``): ``(hyp_tokens, ref_tokens)``, a
    tuple of ``str`` per text, references ragged as given.

    Raises:
        whatever the tokenizer raises, naming the text (`name_failing_text`): ``predictions[i]`` or
        ``references[i][j]``.
    """
    tokens = tokenizer.tokenize_cached
    where = ""
    try:
        hyp = []
        for i, p in enumerate(predictions):
            where = f"predictions[{i}]"
            hyp.append(tokens(p))
        refs = []
        for i, rs in enumerate(references):
            row = []
            for j, r in enumerate(rs):
                where = f"references[{i}][{j}]"
                row.append(tokens(r))
            refs.append(row)
    except Exception as exc:
        named = name_failing_text(exc, where, tokenizer)
        if named is exc:
            raise
        raise named from exc
    return hyp, refs


class TokenIds(dict):
    """Token -> id map that assigns the next id (0, 1, 2, ...) to a token on first lookup.

    ``list(ids)`` is the vocabulary in id order. ``tuple(map(ids.__getitem__, tokens))`` maps a whole token sequence
    in one C-level pass; only tokens not seen before call back into Python.
    """

    __slots__ = ()

    def __missing__(self, token):
        i = self[token] = len(self)
        return i


@dataclass(frozen=True)
class TokenizedText:
    """One tokenised text.

    Attributes:
        tokens: the whole text's token ids (tuple of ``int``), the concatenation of ``sentences``.
        sentences: token ids per sentence (tuple of tuples), for ROUGE-Lsum.
    """

    tokens: tuple[int, ...]
    sentences: tuple[tuple[int, ...], ...]


@dataclass(eq=False)
class TokenizedCorpus:
    """A tokenised corpus: one prediction and one or more references per item, stored once per distinct text as
    flat arrays (the scoring cores read the arrays; per-text tuples are built only when something asks for them).

    Attributes:
        ids: ``(n_tokens,)`` token ids of the distinct texts, concatenated in text order: int32
            (`zheval.tokenizers.char_ids.compact_dtype` of the vocabulary size; int64 beyond it).
        sent_offsets: ``(n_sentences + 1,)`` int64; sentence k is ``ids[sent_offsets[k]:sent_offsets[k + 1]]``.
        text_sents: ``(n_texts + 1,)`` int64; distinct text t owns sentences ``text_sents[t]:text_sents[t + 1]``.
        pred_text: ``(n_items,)`` int64 distinct text of each prediction; ref_text: ``(n_references,)`` int64
            distinct text of every reference, items in order; ref_counts: ``(n_items,)`` int64 (each >= 1).
        vocab: ``list[str]``; ``vocab[id]`` is the token string.
        tokenizer: the tokenizer used; ``sentence_split``: ``"punct"`` or ``"newline"``.
        predictions, references: the same as `TokenizedText` objects (one shared object per distinct text;
            built on first access).
    """

    ids: np.ndarray
    sent_offsets: np.ndarray
    text_sents: np.ndarray
    pred_text: np.ndarray
    ref_text: np.ndarray
    ref_counts: np.ndarray
    vocab: list
    tokenizer: BaseTokenizer
    sentence_split: str
    _texts: "list | None" = field(init=False, repr=False)  # the TokenizedText objects, built on first use

    def __post_init__(self):
        self._texts = None  # per object (a class-level default would be shared state)

    def __len__(self) -> int:
        return len(self.pred_text)

    @property
    def n_texts(self) -> int:
        """Number of distinct texts."""
        return len(self.text_sents) - 1

    @property
    def text_offsets(self) -> np.ndarray:
        """``(n_texts + 1,)`` int64 token offsets of the distinct texts in `ids`."""
        return self.sent_offsets[self.text_sents]

    @property
    def texts(self) -> list:
        """The distinct texts as `TokenizedText` (built once, on first access)."""
        if self._texts is None:
            flat = self.ids.tolist()
            so = self.sent_offsets.tolist()
            ts = self.text_sents.tolist()
            out = []
            for t in range(len(ts) - 1):
                a, b = ts[t], ts[t + 1]
                sents = tuple([tuple(flat[so[k]:so[k + 1]]) for k in range(a, b)])
                out.append(TokenizedText(sents[0] if b - a == 1 else tuple(flat[so[a]:so[b]]), sents))
            self._texts = out
        return self._texts

    @property
    def predictions(self) -> list:
        """``list[TokenizedText]``, one per item."""
        texts = self.texts
        return [texts[i] for i in self.pred_text.tolist()]

    @property
    def references(self) -> list:
        """``list[list[TokenizedText]]``, ragged (each item has >= 1 reference)."""
        texts = self.texts
        flat = [texts[i] for i in self.ref_text.tolist()]
        out, k = [], 0
        for c in self.ref_counts.tolist():
            out.append(flat[k:k + c])
            k += c
        return out

    @property
    def reference_counts(self) -> list[int]:
        """Number of references of each item."""
        return self.ref_counts.tolist()

    def reference_lengths(self) -> np.ndarray:
        """Token count of every reference, flattened in item order (the input of
        `zheval.compute.inputs.check_references`)."""
        return np.diff(self.text_offsets)[self.ref_text]

    def decode(self, ids: Sequence[int]) -> list[str]:
        """Map token ids back to token strings."""
        vocab = self.vocab
        return [vocab[i] for i in ids]


def tokenize_corpus(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]],
    tokenizer: BaseTokenizer,
    sentence_split: str = "punct",
    char_ids: bool = False,
    normalize_all: bool = False,
    segmenter=None,
    sentences: bool = True,
    compiled_tokens: bool = False,
) -> TokenizedCorpus:
    """Normalise, sentence-split and tokenise predictions and references (each distinct text once); map tokens to
    ids.

    Args:
        predictions: ``list[str]``, one per item; references: ``list[list[str]]`` (ragged, each non-empty) -- the
            canonical form `zheval.compute.inputs.validate_inputs` returns (not checked again here).
        tokenizer: a `BaseTokenizer` (see [`get_tokenizer`][zheval.tokenizers.get_tokenizer]).
        sentence_split: ``"punct"`` (default) or ``"newline"`` (see `zheval.text.sentences`).
        char_ids: tokenise the distinct texts all at once with the vectorised twins (normalisation
            `zheval.text.normalize_corpus.normalize_corpus`, sentence pieces
            `zheval.text.split_corpus.split_corpus`, tokens `zheval.tokenizers.char_ids.char_token_spans`; with
            terms `zheval.tokenizers.term_ids.term_token_spans` when ``sentences`` is False, else as
            ``normalize_all``);
            only valid when ``zheval.fast.usable_for("char_ids", tokenizer=tokenizer)``, which the caller decides.
        normalize_all: normalise the distinct texts all at once (`normalize_corpus`)
            and tokenise each normalised text (`sentences_of_normalized`,
            no token cache); only when ``usable_for("normalize_corpus", tokenizer=tokenizer)``.
        segmenter: with ``normalize_all``, the function that tokenises a normalised piece in place of the
            tokenizer's own (a twin proven to give the same tokens; decided by the caller through ``usable_for``).
        Otherwise each distinct text is tokenised by the tokenizer itself (its token cache when content-keyed).
        sentences: with ``char_ids``, False keeps every text as one sentence (no sentence split: the tokens are
            the same, only ROUGE-Lsum reads the sentences); ignored otherwise.
        compiled_tokens: with ``char_ids``, the tokens and their ids from the compiled passes
            (`zheval.tokenizers.char_ids.char_token_spans` ``compiled=True``: numba, the same tokens, ids by code
            point rank); the caller decides it with ``zheval.fast.usable_for("compiled_tokens", ...)``.

    Returns:
        A `TokenizedCorpus` (an empty reference stays an empty text: the empty-reference rule belongs to the
        caller, `zheval.compute.inputs.check_references`).

    Raises:
        ValueError: an unknown ``sentence_split``; TypeError: a text that is not a ``str`` (from the tokenizer).
        Whatever a user tokenizer raises names the text (``predictions[i]`` / ``references[i][j]``,
        `name_failing_text`).
    """
    if sentence_split not in SENTENCE_SPLITS:
        raise ValueError(f"unknown sentence_split {sentence_split!r}; valid: {list(SENTENCE_SPLITS)}")
    flat_refs = [r for rs in references for r in rs]
    index: dict = dict.fromkeys(predictions)
    index.update(dict.fromkeys(flat_refs))
    distinct = list(index)
    for i, t in enumerate(distinct):
        index[t] = i
    pred_text = np.fromiter(map(index.__getitem__, predictions), dtype=np.int64, count=len(predictions))
    ref_text = np.fromiter(map(index.__getitem__, flat_refs), dtype=np.int64, count=len(flat_refs))
    ref_counts = np.fromiter(map(len, references), dtype=np.int64, count=len(references))
    vocab = TokenIds()
    terms = char_ids and not tokenizer.char_ids_twin()  # the char tokenizer with terms (term_ids_twin)
    if terms and sentences and not tokenizer.punct_cuts_between_tokens():
        # a term the text rule can cut: each text normalised at once, its sentences tokenised one by one
        terms, char_ids, normalize_all, segmenter = False, False, True, None
    if terms:
        ids, sent_offsets, text_sents = _term_corpus(distinct, tokenizer, vocab, compiled_tokens,
                                                     sentence_split if sentences else None)
    elif char_ids:
        ids, sent_offsets, text_sents = _char_corpus(distinct, tokenizer, sentence_split if sentences else None,
                                                     vocab, compiled_tokens)
    else:
        ids, sent_offsets, text_sents = _text_by_text(distinct, tokenizer, sentence_split, vocab, normalize_all,
                                                      segmenter, lambda k: _first_place(distinct[k], predictions,
                                                                                        references))
    ids = ids.astype(compact_dtype(len(vocab)), copy=False)
    return TokenizedCorpus(ids, sent_offsets, text_sents, pred_text, ref_text, ref_counts, list(vocab), tokenizer,
                           sentence_split)


def _text_by_text(texts: list, tokenizer: BaseTokenizer, sentence_split: str, vocab: TokenIds, normalize_all: bool,
                  segmenter, where_of):
    """``(ids, sent_offsets, text_sents)`` with each distinct text tokenised by the tokenizer (or ``segmenter``);
    a failure names the text (``where_of(k)``: ``predictions[i]`` / ``references[i][j]`` of distinct text ``k``)."""
    getid = vocab.__getitem__
    flat = array("q")  # the ids as they come (8 bytes each, no object): each text's token strings are dropped
    sent_len = array("q")  # once mapped, so the strings of the whole corpus never exist at once
    n_sents = array("q")
    k = 0
    try:
        if normalize_all:
            split, segment = tokenizer.sentences_of_normalized, (sentence_split, segmenter)
            texts = normalize_corpus(texts, tokenizer.normalizer).texts()
        else:
            split, segment = tokenizer.tokenize_sentences, (sentence_split,)
        for k, t in enumerate(texts):
            sents = split(t, *segment)
            n_sents.append(len(sents))
            for s in sents:
                sent_len.append(len(s))
                flat.extend(map(getid, s))
    except Exception as exc:
        named = name_failing_text(exc, where_of(k), tokenizer)
        if named is exc:
            raise
        raise named from exc
    return _arrays(flat, sent_len, n_sents, compact_dtype(len(vocab)))


def _first_place(text: str, predictions, references) -> str:
    """Where ``text`` first stands in the inputs: ``predictions[i]`` or ``references[i][j]``."""
    for i, p in enumerate(predictions):
        if p == text:
            return f"predictions[{i}]"
    for i, rs in enumerate(references):
        for j, r in enumerate(rs):
            if r == text:
                return f"references[{i}][{j}]"
    return "a text"


def _arrays(flat, sent_len, n_sents, dtype=np.int64):
    ids = np.frombuffer(flat, dtype=np.int64).astype(dtype) if len(flat) else np.zeros(0, dtype=dtype)
    sent_offsets = np.zeros(len(sent_len) + 1, dtype=np.int64)
    np.cumsum(np.frombuffer(sent_len, dtype=np.int64) if len(sent_len) else np.zeros(0, np.int64), out=sent_offsets[1:])
    text_sents = np.zeros(len(n_sents) + 1, dtype=np.int64)
    np.cumsum(np.frombuffer(n_sents, dtype=np.int64) if len(n_sents) else np.zeros(0, np.int64), out=text_sents[1:])
    return ids, sent_offsets, text_sents


def _term_corpus(texts: list, tokenizer: BaseTokenizer, vocab: TokenIds, compiled: bool, sentence_split=None):
    """``(ids, sent_offsets, text_sents)`` of distinct texts under the char tokenizer with terms, all at once
    (`zheval.tokenizers.term_ids.term_token_spans`); ``sentence_split`` None: one sentence per text, else the
    pieces of `zheval.text.split_corpus.split_corpus` -- only for terms the text rule never cuts
    (``punct_cuts_between_tokens``), so that every token lies in one piece."""
    norm = normalize_corpus(texts, tokenizer.normalizer)
    ids, text_tokens, starts = term_token_spans(norm.codepoints, norm.offsets, tokenizer, vocab, compiled,
                                                with_starts=True)
    if sentence_split is None:
        return ids, text_tokens, np.arange(len(texts) + 1, dtype=np.int64)
    return (ids, *_piece_offsets(norm, starts, len(ids), sentence_split))


def _char_corpus(texts: list, tokenizer: BaseTokenizer, sentence_split: str, vocab: TokenIds, compiled: bool = False):
    """``(ids, sent_offsets, text_sents)`` of distinct texts under the char tokenizer, all at once: the same
    normalisation and sentences as `tokenize_sentences` (``"newline"``:
    every line; ``"punct"``: the text rule on every line, which for this tokenizer always cuts between tokens),
    tokens from `zheval.tokenizers.char_ids.char_token_spans`; ``sentence_split`` None: one sentence per text."""
    norm = normalize_corpus(texts, tokenizer.normalizer)
    ids, starts, _, text_tokens = char_token_spans(norm.codepoints, norm.offsets, vocab, tokenizer.punct == "drop",
                                                   compiled)
    if sentence_split is None:  # one sentence per text
        return ids, np.asarray(text_tokens, dtype=np.int64), np.arange(len(texts) + 1, dtype=np.int64)
    return (ids, *_piece_offsets(norm, starts, len(ids), sentence_split))


def _piece_offsets(norm, starts: np.ndarray, n_tokens: int, sentence_split: str):
    """``(sent_offsets, text_sents)`` of the sentence pieces (`zheval.text.split_corpus.split_corpus`) of the
    normalised texts ``norm``, for tokens starting at ``starts`` (sorted), each lying in one piece (the pieces
    cover each text but its line breaks and whitespace-only pieces)."""
    pieces = split_corpus(norm.codepoints, norm.offsets, sentence_split)
    sent_offsets = np.append(np.searchsorted(starts, pieces.starts, side="left"), n_tokens).astype(np.int64)
    if len(pieces.starts):
        sent_offsets[-1] = np.searchsorted(starts, pieces.ends[-1], side="left")
    return sent_offsets, pieces.text_pieces
