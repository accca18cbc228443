"""Sentence pieces of many normalised texts at once, on their code point array: the corpus-at-once twin of
`zheval.text.sentences.split_sentences` (reference: for every text, ``split_sentences(text, "newline")``, or
``[piece for line in text.split("\\n") for piece in split_sentences(line, "punct")]`` -- the pieces the tokenizers
cut a text into, `zheval.tokenizers.BaseTokenizer.tokenize_sentences`).

The ``"punct"`` rule (the expression of `zheval.text.sentences`) read position by position. Within a line, a
*unit* is a character with the attached marks that follow it; a unit is a terminator (``。！？；!?;…‥``, or ``.``
when the next character of the line is not an ASCII letter or digit), a closer (``"'”’」』）)]】》〉``) or other. A
closer *follows a terminator* when the units before it, back to the first one that is not a closer, end with a
terminator. A line is cut after a terminator that is not followed by a terminator or a closer, and after a closer
that follows a terminator and is not followed by a closer: exactly where the expression's lazy prefix, greedy
terminator run and greedy closer run end a match. Pieces with no character but whitespace are dropped, as
``split_sentences`` drops them. ``"newline"``: every line is a piece, empty ones included (``text.split("\\n")``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .chars import ATTACHED_MARK_RANGES
from .sentences import CLOSER_CHARS, SENTENCE_SPLITS, TERMINATOR_CHARS

__all__ = ["SentencePieces", "split_corpus"]


class SentencePieces(NamedTuple):
    """Sentence pieces of texts laid out in one code point array.

    Attributes:
        starts, ends: ``(n_pieces,)`` int64 positions in the array (piece k is ``[starts[k], ends[k])``).
        text_pieces: ``(n_texts + 1,)`` int64; text i owns pieces ``text_pieces[i]:text_pieces[i + 1]``.
    """

    starts: np.ndarray
    ends: np.ndarray
    text_pieces: np.ndarray


def _lut(chars: str, top: int) -> np.ndarray:
    lut = np.zeros(top, dtype=bool)
    cps = [ord(c) for c in chars if ord(c) < top]
    lut[cps] = True
    return lut


def _mark_lut(top: int) -> np.ndarray:
    lut = np.zeros(top, dtype=bool)
    for a, b in ATTACHED_MARK_RANGES:
        if a >= top:
            break
        lut[a:min(b, top - 1) + 1] = True
    return lut


def split_corpus(codepoints: np.ndarray, offsets: np.ndarray, mode: str = "punct") -> SentencePieces:
    """The sentence pieces of every text (see the module docstring).

    Args:
        codepoints: ``(N,)`` normalised texts concatenated (`zheval.text.normalize_corpus.NormalizedTexts`).
        offsets: ``(n_texts + 1,)`` text offsets into ``codepoints``.
        mode: ``"punct"`` or ``"newline"``.
    Returns:
        `SentencePieces`, pieces in text order and, within a text, in order.
    Raises:
        ValueError: an unknown ``mode``.
    """
    if mode not in SENTENCE_SPLITS:
        raise ValueError(f"unknown sentence split {mode!r}; valid: {list(SENTENCE_SPLITS)}")
    cp = np.asarray(codepoints)
    offsets = np.asarray(offsets, dtype=np.int64)
    n_texts = len(offsets) - 1
    n = len(cp)
    nl = np.flatnonzero(cp == 10)
    # line boundaries: every text start and end, and every line break (a break ends one line, starts the next)
    text_of_nl = np.searchsorted(offsets, nl, side="right") - 1
    line_starts = np.concatenate([offsets[:-1], nl + 1])
    line_text = np.concatenate([np.arange(n_texts, dtype=np.int64), text_of_nl])
    # order lines by start (a text's first line, then its other lines in order; empty texts have one empty line)
    order = np.argsort(line_starts * (n_texts + 1) + line_text, kind="stable")
    line_starts, line_text = line_starts[order], line_text[order]
    line_ends = _line_ends(line_starts, line_text, offsets, nl)
    if mode == "newline":
        return SentencePieces(line_starts, line_ends, _text_pointers(line_text, n_texts))
    empty = np.zeros(0, np.int64)
    if n == 0:
        return SentencePieces(empty, empty, np.zeros(n_texts + 1, np.int64))
    top = int(cp.max()) + 1
    # only terminators and closers matter; everything else is "other"
    t_lut = _lut(TERMINATOR_CHARS + ".", top)
    c_lut = _lut(CLOSER_CHARS, top)
    q = np.flatnonzero(t_lut[cp] | c_lut[cp])
    text_end = offsets[1:][np.searchsorted(offsets, q, side="right") - 1] if len(q) else empty
    is_t = t_lut[cp[q]]
    nxt = np.minimum(q + 1, n - 1)
    at_end = (q + 1 >= text_end) | (cp[nxt] == 10)
    # "." is a terminator unless the next character of the line is an ASCII letter or digit
    c1 = cp[nxt].astype(np.int64)
    alnum = ((c1 >= 48) & (c1 <= 57)) | ((c1 >= 65) & (c1 <= 90)) | ((c1 >= 97) & (c1 <= 122))
    dot = cp[q] == 46
    is_t = np.where(dot, at_end | ~alnum, is_t)
    kind = np.where(is_t, 1, np.where(c_lut[cp[q]] & ~dot, 2, 0))
    # each unit ends at the next character that is not an attached mark (or at the line end)
    mark = _mark_lut(top)
    if mark[cp].any():
        solid_pos = np.flatnonzero(~mark[cp] | (cp == 10))
        k = np.searchsorted(solid_pos, q, side="right")
        unit_end = np.where(k < len(solid_pos), solid_pos[np.minimum(k, len(solid_pos) - 1)], n)
        unit_end = np.minimum(unit_end, text_end)
    else:
        unit_end = q + 1
    # the unit that follows: a terminator or closer candidate starting exactly at unit_end (same line)?
    j = np.searchsorted(q, unit_end, side="left")
    jj = np.minimum(j, max(len(q) - 1, 0))
    follows = (j < len(q)) & (q[jj] == unit_end) & (unit_end < text_end) & (cp[np.minimum(unit_end, n - 1)] != 10)
    next_kind = np.where(follows, kind[jj], 0)
    # a closer follows a terminator: back over adjacent closers, the first unit that is not one is a terminator
    adjacent_prev = np.zeros(len(q), dtype=bool)  # unit i - 1 ends where unit i starts (same line)
    if len(q) > 1:
        adjacent_prev[1:] = follows[:-1] & (j[:-1] == np.arange(1, len(q)))
    idx = np.arange(len(q), dtype=np.int64)
    chain_start = np.maximum.accumulate(np.where(~adjacent_prev, idx, 0))
    last_non_c = np.maximum.accumulate(np.where(kind != 2, idx, -1))
    prev_nc = np.empty(len(q), dtype=np.int64)
    if len(q):
        prev_nc[0] = -1
        prev_nc[1:] = last_non_c[:-1]
    attached = (kind == 2) & (prev_nc >= chain_start) & adjacent_prev & (kind[np.maximum(prev_nc, 0)] == 1)
    cut = ((kind == 1) & (next_kind != 1) & (next_kind != 2)) | (attached & (next_kind != 2))
    cut_pos = unit_end[cut]
    # pieces: line starts and cuts open a piece; the next opening of the same line, or the line end, closes it
    n_lines = len(line_starts)
    cut_line = _line_of(line_starts, line_ends, line_text, cut_pos, q[cut], offsets)
    key = np.concatenate([np.arange(n_lines, dtype=np.int64) * (n + 2),
                          cut_line * (n + 2) + (cut_pos - line_starts[cut_line]) + 1])
    o = np.argsort(key, kind="stable")
    pline = np.concatenate([np.arange(n_lines, dtype=np.int64), cut_line])[o]
    ps = np.concatenate([line_starts, cut_pos])[o]
    pe = np.empty(len(ps), dtype=np.int64)
    pe[:-1] = ps[1:]
    last_of_line = np.ones(len(ps), dtype=bool)
    last_of_line[:-1] = pline[1:] != pline[:-1]
    pe[last_of_line] = line_ends[pline[last_of_line]]
    # drop empty pieces and pieces of whitespace only
    from .normalize_corpus import whitespace_mask

    cum = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(~whitespace_mask(cp), out=cum[1:])
    keep = (cum[pe] - cum[ps]) > 0
    ps, pe, pline = ps[keep], pe[keep], pline[keep]
    return SentencePieces(ps, pe, _text_pointers(line_text[pline], n_texts))


def _text_pointers(piece_text: np.ndarray, n_texts: int) -> np.ndarray:
    """``(n_texts + 1,)`` offsets of each text's pieces, from the text of every piece (in text order)."""
    tp = np.zeros(n_texts + 1, dtype=np.int64)
    np.cumsum(np.bincount(piece_text, minlength=n_texts), out=tp[1:])
    return tp


def _line_of(line_starts, line_ends, line_text, cut_pos, unit_pos, offsets):
    """The line holding each unit (by the unit's first position: a cut may fall on its line's end)."""
    return np.searchsorted(line_starts, unit_pos, side="right") - 1


def _line_ends(line_starts, line_text, offsets, nl):
    """End of each line (lines sorted by text, then start): the next line break of its text, else the text end."""
    k = np.searchsorted(nl, line_starts, side="left")
    end = nl[np.minimum(k, len(nl) - 1)] if len(nl) else np.zeros(len(k), dtype=np.int64)
    text_end = offsets[1:][line_text]
    return np.where((k < len(nl)) & (end < text_end), end, text_end)
