"""Tokenise a corpus once and map tokens to integer ids, shared by ROUGE and BLEU.

Data flow (``docs/DESIGN.md``, "Data flow")::

    text ──normalise──▶ str ──split sentences──▶ [str] ──tokenise──▶ [[token]] ──ids──▶ TokenizedText

Each distinct text is tokenised once (the tokenizer's cache, keyed by its fingerprint); tokens are then mapped to
small integer ids (:attr:`TokenizedCorpus.vocab` maps them back), so the scoring cores count n-grams and build LCS
bit masks on ints. Ids are local to one corpus: never compare ids of two corpora. For the plain ``char`` tokenizer
(no terms, ``punct="keep"``; the default) the distinct texts are normalised as usual and then tokenised straight to
ids all at once (:func:`zheval.tokenizers.char_ids.char_token_ids`, the same tokens as the tokenizer's regular expression),
without the token cache.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from typing import Sequence

from .char_ids import char_token_ids
from ..text.sentences import SENTENCE_SPLITS, split_sentences
from .base import BaseTokenizer

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
        whatever the tokenizer raises, naming the text (:func:`name_failing_text`): ``predictions[i]`` or
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


@dataclass
class TokenizedCorpus:
    """A tokenised corpus: one prediction and one or more references per item.

    Attributes:
        predictions: ``list[TokenizedText]``, one per item.
        references: ``list[list[TokenizedText]]``, ragged (each item has ≥ 1 reference).
        vocab: ``list[str]``; ``vocab[id]`` is the token string.
        tokenizer: the tokenizer used; ``sentence_split``: ``"punct"`` or ``"newline"``.
    """

    predictions: list[TokenizedText]
    references: list[list[TokenizedText]]
    vocab: list[str]
    tokenizer: BaseTokenizer
    sentence_split: str
    _index: dict = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.predictions)

    @property
    def reference_counts(self) -> list[int]:
        """Number of references of each item."""
        return [len(r) for r in self.references]

    def reference_lengths(self) -> list[int]:
        """Token count of every reference, flattened in item order (the input of
        :func:`zheval.compute.inputs.check_references`)."""
        return [len(tt.tokens) for row in self.references for tt in row]

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
) -> TokenizedCorpus:
    """Normalise, sentence-split and tokenise predictions and references; map tokens to ids.

    Args:
        predictions: ``list[str]``, one per item; references: ``list[list[str]]`` (ragged, each non-empty) -- the
            canonical form :func:`zheval.compute.inputs.validate_inputs` returns (not checked again here).
        tokenizer: a :class:`~zheval.tokenizers.BaseTokenizer` (see :func:`~zheval.tokenizers.get_tokenizer`).
        sentence_split: ``"punct"`` (default) or ``"newline"`` (see :mod:`zheval.text.sentences`).
        char_ids: tokenise the distinct texts all at once with the vectorised twin
            :func:`zheval.tokenizers.char_ids.char_token_ids` (only valid when ``zheval.fast.usable_for("char_ids",
            tokenizer=tokenizer)``, which the caller decides); otherwise text by text with the tokenizer itself.

    Returns:
        A :class:`TokenizedCorpus` (an empty reference stays an empty text: the empty-reference rule belongs to the
        caller, :func:`zheval.compute.inputs.check_references`).

    Raises:
        ValueError: an unknown ``sentence_split``; TypeError: a text that is not a ``str`` (from the tokenizer).
        Whatever a user tokenizer raises names the text (``predictions[i]`` / ``references[i][j]``,
        :func:`name_failing_text`).
    """
    if sentence_split not in SENTENCE_SPLITS:
        raise ValueError(f"unknown sentence_split {sentence_split!r}; valid: {list(SENTENCE_SPLITS)}")
    preds, refs = predictions, references
    vocab = TokenIds()
    ids = vocab.__getitem__
    memo: dict[str, TokenizedText] = {}
    split = tokenizer.tokenize_sentences
    if char_ids:
        distinct = dict.fromkeys(preds)
        for rs in refs:
            distinct.update(dict.fromkeys(rs))
        memo = _char_batch_texts(list(distinct), tokenizer, sentence_split, vocab)

    def encode(text: str) -> TokenizedText:
        hit = memo.get(text)
        if hit is not None:
            return hit
        sents = split(text, sentence_split)
        id_sents = tuple([tuple(map(ids, s)) for s in sents])
        if len(id_sents) == 1:
            flat = id_sents[0]
        else:
            flat = tuple(chain.from_iterable(id_sents))
        tt = TokenizedText(flat, id_sents)
        memo[text] = tt
        return tt

    where = ""
    try:
        tok_preds = []
        for i, p in enumerate(preds):
            where = f"predictions[{i}]"
            tok_preds.append(encode(p))
        tok_refs = []
        for i, rs in enumerate(refs):
            row = []
            for j, r in enumerate(rs):
                where = f"references[{i}][{j}]"
                row.append(encode(r))
            tok_refs.append(row)
    except Exception as exc:
        named = name_failing_text(exc, where, tokenizer)
        if named is exc:
            raise
        raise named from exc
    return TokenizedCorpus(tok_preds, tok_refs, list(vocab), tokenizer, sentence_split)


def _char_batch_texts(texts: list, tokenizer: BaseTokenizer, sentence_split: str, vocab: TokenIds) -> dict:
    """``{text: TokenizedText}`` of distinct texts under the plain char tokenizer, tokenised all at once: the same
    normalisation and sentences as :meth:`~zheval.tokenizers.BaseTokenizer.tokenize_sentences` (``"newline"``: every
    line; ``"punct"``: the text rule on every line, which for this tokenizer always cuts between tokens), tokens
    from :func:`zheval.tokenizers.char_ids.char_token_ids`."""
    pieces: list[str] = []
    counts: list[int] = []
    norm = tokenizer.normalize
    for t in texts:
        lines = norm(t).split("\n")
        if sentence_split == "newline":
            ps = lines
        else:
            ps = [p for line in lines for p in split_sentences(line, "punct")]
        pieces.extend(ps)
        counts.append(len(ps))
    flat_ids, offsets = char_token_ids(pieces, vocab)
    off = offsets.tolist()
    out: dict = {}
    k = 0
    for t, c in zip(texts, counts):
        sents = tuple([tuple(flat_ids[off[i]:off[i + 1]]) for i in range(k, k + c)])
        out[t] = TokenizedText(sents[0] if c == 1 else tuple(flat_ids[off[k]:off[k + c]]), sents)
        k += c
    return out
