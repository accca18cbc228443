"""The decoder's spaces: a space-joining decoder (WordPiece, a character vocabulary without a decoder) writes
``今 天 天 气``; `remove_decoder_spaces` removes every space the token ids cannot show and flags the texts in
which a removed space could have been a real one (``K F C``), with the warning text the hook logs for them.
"""

from __future__ import annotations

import logging
import re
from typing import Sequence

from ...tokenizers import HAN_CLASS_BODY, KANA_CLASS_BODY
from .processing import accepts_keyword, batch_decode, vocabulary_size

__all__ = [
    "decoder_joins_with_spaces",
    "remove_decoder_spaces",
    "DecoderSpaces",
    "ambiguous_example",
    "ambiguous_message",
]

# the package's logger (records are named ``zheval.adapters.trainer``, whichever file of the package logs)
logger = logging.getLogger(__package__)


def ambiguous_example(preds, refs, amb_p, amb_r, indices=None) -> str | None:
    """``"item 3, prediction: '...'"`` for the first ambiguous item among ``indices`` (default: all), or None."""
    for i in range(len(preds)) if indices is None else indices:
        if amb_p[i] or amb_r[i]:
            which, text = ("prediction", preds[i]) if amb_p[i] else ("reference", refs[i])
            return f"item {i}, {which}: {text if len(text) <= 60 else text[:57] + '...'!r}"
    return None


def ambiguous_message(n_items: int, n_total: int, example: str | None, space_sensitive: bool = False) -> str:
    """The warning logged when ``n_items`` of ``n_total`` items lost a decoder space that could have been real;
    ``example`` from `ambiguous_example`; ``space_sensitive``: the wording for a scoring tokenizer that splits
    on spaces (every removed space counts)."""
    where = (
        "between two tokens, which a scoring tokenizer that splits on spaces ('none' or a callable) would read as a "
        "token boundary (the tokenizer encodes e.g. '今天 天气' and '今天天气' alike)"
        if space_sensitive
        else "between two letters/digits (the tokenizer encodes e.g. 'K F C' and 'KFC' alike)"
    )
    return (
        f"zheval compute_metrics: in {n_items} of {n_total} items the token ids cannot show whether there was a "
        f"space {where}; the decoder's spaces there were removed ({example}), so a text written 'hello world' is "
        "scored as 'helloworld'. Scores of these items may differ from scores of the original texts (reported as "
        "'ambiguous_spaces'); for exact numbers use a tokenizer that encodes spaces (WordPiece, byte-level BPE, "
        "SentencePiece) or score saved generations with zheval offline."
    )


# ---------------------------------------------------------------------------------------------------------------
# Spaces put in by the decoder

#: A letter or digit of a script that separates words with spaces (not Han, not kana). A removed space between two
#: such characters could have been a word boundary (``hello world``) as well as a decoder artefact (``K F C``).
_SPACED_WORD_CHAR_RE = re.compile(f"[^\\W_{HAN_CLASS_BODY}{KANA_CLASS_BODY}]")
_PROBE_TOKENS = 32  # vocabulary tokens looked at by decoder_joins_with_spaces
_PROBE_IDS = 8192  # at most this many ids are decoded to find them


def decoder_joins_with_spaces(tokenizer) -> bool:
    """Whether the tokenizer's decoder puts a space between every two tokens (WordPiece / BERT, a ``tokenizers``
    model without a decoder such as a character ``WordLevel`` vocabulary), rather than decoding the tokens' own text
    (byte-level BPE, SentencePiece/Metaspace, ``BPEDecoder``, which need no repair).

    Probe: the first `_PROBE_TOKENS` ordinary vocabulary tokens (not special) that decode on their own to
    letters/digits only (``今``, ``4``, ``hello``; not ``##ing``, not ``Ġthe``); the decoder joins with spaces when
    every consecutive pair of them decodes to ``decode([a]) + " " + decode([b])`` (a SentencePiece vocabulary has
    tokens without ``▁``, which join without a space). Fewer than two such tokens → False (texts are left alone).
    Runs in a few milliseconds; nothing is remembered (the tokenizer may change between calls).
    """
    special = set(getattr(tokenizer, "all_special_ids", None) or ())
    n_vocab = vocabulary_size(tokenizer) or 0
    found: list[tuple[int, str]] = []
    for start in range(0, min(n_vocab, _PROBE_IDS), 1024):
        ids = [i for i in range(start, min(n_vocab, start + 1024)) if i not in special]
        if not ids:
            continue
        singles = batch_decode(tokenizer, [[i] for i in ids], skip_special_tokens=True,
                               clean_up_tokenization_spaces=False)
        found += [(i, t) for i, t in zip(ids, singles) if t.isalnum()]
        if len(found) >= _PROBE_TOKENS:
            break
    found = found[:_PROBE_TOKENS]
    if len(found) < 2:
        return False
    pairs = list(zip(found, found[1:]))
    joint = batch_decode(tokenizer, [[a, b] for (a, _), (b, _) in pairs], skip_special_tokens=True,
                         clean_up_tokenization_spaces=False)
    return all(j == f"{sa} {sb}" for j, ((_, sa), (_, sb)) in zip(joint, pairs))


def remove_decoder_spaces(texts: Sequence[str], tokenizer, *, space_sensitive: bool = False):
    """Remove the spaces a space-joining decoder put between tokens where the token ids cannot show a space.

    The rule (for a tokenizer whose decoder joins tokens with spaces, `decoder_joins_with_spaces`; any other
    tokenizer's texts are returned unchanged): in a decoded text ``w1 w2 … wn`` (``wi`` the runs between spaces), the
    space between ``wi`` and ``wi+1`` is removed when the tokenizer encodes ``wi + wi+1`` to the same ids as
    ``wi + " " + wi+1`` — the space then carries no information, since the ids are the same whether the text had it
    or not. A space that changes the encoding is kept: it is a real word boundary the ids show (``hello world`` in
    a WordPiece vocabulary, where ``helloworld`` would encode as ``hello ##world``). So ``今 天`` → ``今天``,
    ``4. 5`` → ``4.5`` (BERT splits punctuation off either way), ``3 . 5 G B`` → ``3.5GB`` (a character vocabulary).
    Every rebuilt text encodes to the same ids as the decoded one: all spaces are tried at once first (one encoding
    per text), then, for a text where that changes the ids, pair by pair (each distinct pair encoded once within
    the call), then space by space where the pairs' decisions do not hold in context.

    Where a removed space sits between two letters/digits of a script that separates words with spaces (Latin,
    digits, Cyrillic, Hangul, …), the original could have had a space there (``hello world`` and ``helloworld``
    encode alike in a character vocabulary): such a text is *ambiguous* — its space was removed and it is reported.
    With ``space_sensitive=True`` (a scoring tokenizer that splits on spaces) every removed space makes it ambiguous.

    Args:
        texts: decoded texts (``batch_decode(..., skip_special_tokens=True)``).
        tokenizer: the transformers tokenizer that decoded them (``batch_decode`` and ``__call__``).
        space_sensitive: count every removed space as ambiguous.

    Returns:
        ``(texts, ambiguous)``: the texts with the decoder's silent spaces removed (a new list) and the sorted
        indices of the ambiguous texts.
    """
    out, flags = DecoderSpaces(tokenizer, space_sensitive=space_sensitive).apply(list(texts))
    return out, [i for i, f in enumerate(flags) if f]


class DecoderSpaces:
    """`remove_decoder_spaces` for one call: the probe and the pair decisions live as long as the instance
    (one ``compute_metrics`` call), keyed by the texts themselves."""

    def __init__(self, tokenizer, *, space_sensitive: bool = False):
        self.tokenizer = tokenizer
        self.space_sensitive = space_sensitive
        self.joins = decoder_joins_with_spaces(tokenizer)
        # a vocabulary that encodes a space as a token *and* a decoder that joins tokens with spaces: every decoder
        # space would re-encode as a space token, so no space looks silent and none can be told from a real one
        self.spaces_are_tokens = self.joins and bool(self._encode([" "])[0])
        self._silent: dict[tuple[str, str], bool] = {}

    def _encode(self, texts: list[str]) -> list[list[int]]:
        if not texts:
            return []
        options = {"add_special_tokens": False, "verbose": False, "return_attention_mask": False,
                   "return_token_type_ids": False}
        return self.tokenizer(texts, **{k: v for k, v in options.items() if accepts_keyword(self.tokenizer, k)})[
            "input_ids"]

    def _decide_pairs(self, pairs: set) -> None:
        new = [p for p in pairs if p not in self._silent]
        if not new:
            return
        glued = self._encode([a + b for a, b in new])
        spaced = self._encode([f"{a} {b}" for a, b in new])
        for pair, g, sp in zip(new, glued, spaced):
            self._silent[pair] = list(g) == list(sp)

    def _ambiguous(self, left: str, right: str) -> bool:
        return self.space_sensitive or bool(
            _SPACED_WORD_CHAR_RE.match(left[-1]) and _SPACED_WORD_CHAR_RE.match(right[0])
        )

    def apply(self, texts: list[str]) -> tuple[list[str], list[bool]]:
        """``(texts, ambiguous flags)`` for a list of decoded texts.

        Every decision is checked on the whole text: a rebuilt text must encode to the ids of the decoded one.
        First every space at once (one encoding per text: a character vocabulary, or Chinese text in BERT, where no
        space is encoded); for a text where that changes the ids, pair by pair (a space stays where its pair
        encodes differently without it), and where the pairs' decisions do not hold in context, space by space.
        """
        flags = [False] * len(texts)
        out = list(texts)
        if not self.joins:
            return out, flags
        if self.spaces_are_tokens:
            if any(" " in t for t in texts):
                logger.warning(
                    "zheval compute_metrics: %s encodes a space as a token and its decoder also puts a space between "
                    "every two tokens, so the decoded texts hold spaces that were never in the text and the hook "
                    "cannot tell them from real ones; the texts are scored as decoded ('今 天 K F C'). Give the "
                    "tokenizer a decoder that concatenates tokens (tokenizers.decoders.Fuse()) for correct scores.",
                    type(self.tokenizer).__name__,
                )
            return out, flags
        todo = [(k, t.split(" ")) for k, t in enumerate(texts) if " " in t]
        if not todo:
            return out, flags
        all_gaps = [[bool(a and b) for a, b in zip(pieces, pieces[1:])] for _, pieces in todo]
        targets = self._encode([texts[k] for k, _ in todo])
        glued = self._encode([_join(pieces, drop) for (_, pieces), drop in zip(todo, all_gaps)])
        pairwise = []
        for (k, pieces), drop, target, g in zip(todo, all_gaps, targets, glued):
            if list(g) == list(target):
                self._set(out, flags, k, pieces, drop)
            else:
                pairwise.append((k, pieces, list(target)))
        if not pairwise:
            return out, flags
        self._decide_pairs({(a, b) for _, pieces, _ in pairwise for a, b in zip(pieces, pieces[1:]) if a and b})
        drops = [[bool(a and b and self._silent[(a, b)]) for a, b in zip(pieces, pieces[1:])]
                 for _, pieces, _ in pairwise]
        rebuilt = self._encode([_join(pieces, drop) for (_, pieces, _), drop in zip(pairwise, drops)])
        for (k, pieces, target), drop, r in zip(pairwise, drops, rebuilt):
            if list(r) != target:
                drop = self._decide_in_context(pieces, drop, target)
            self._set(out, flags, k, pieces, drop)
        return out, flags

    def _set(self, out: list[str], flags: list[bool], k: int, pieces: list[str], drop: list[bool]) -> None:
        out[k] = _join(pieces, drop)
        flags[k] = any(d and self._ambiguous(a, b) for d, a, b in zip(drop, pieces, pieces[1:]))

    def _decide_in_context(self, pieces: list[str], drop: list[bool], target: list[int]) -> list[bool]:
        """Space by space, left to right: remove a candidate space only if the whole text still encodes to
        ``target`` (rare: a pair that glues differently next to its neighbours)."""
        decided = [False] * len(drop)
        for g, candidate in enumerate(drop):
            if not candidate:
                continue
            trial = decided.copy()
            trial[g] = True
            if list(self._encode([_join(pieces, trial)])[0]) == target:
                decided = trial
        return decided


def _join(pieces: list[str], drop: list[bool]) -> str:
    parts = [pieces[0]]
    for piece, d in zip(pieces[1:], drop):
        parts.append(piece if d else " " + piece)
    return "".join(parts)
