"""Sentence pieces of many normalised texts at once, on their code point array: the corpus-at-once twin of
:func:`zheval.text.sentences.split_sentences` (reference: for every text, ``split_sentences(text, "newline")``, or
``[piece for line in text.split("\\n") for piece in split_sentences(line, "punct")]`` -- the pieces the tokenizers
cut a text into, :meth:`zheval.tokenizers.BaseTokenizer.tokenize_sentences`).

The ``"punct"`` rule (the expression of :mod:`zheval.text.sentences`) read position by position. Within a line, a
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
        codepoints: ``(N,)`` normalised texts concatenated (:class:`zheval.text.normalize_corpus.NormalizedTexts`).
        offsets: ``(n_texts + 1,)`` text offsets into ``codepoints``.
        mode: ``"punct"`` or ``"newline"``.
    Returns:
        :class:`SentencePieces`, pieces in text order and, within a text, in order.
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
    order = np.lexsort((line_starts, line_text))
    line_starts, line_text = line_starts[order], line_text[order]
    line_ends = _line_ends(line_starts, line_text, offsets, nl)
    if mode == "newline":
        counts = np.bincount(line_text, minlength=n_texts)
        tp = np.zeros(n_texts + 1, dtype=np.int64)
        np.cumsum(counts, out=tp[1:])
        return SentencePieces(line_starts, line_ends, tp)
    if n == 0:
        return SentencePieces(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(n_texts + 1, np.int64))
    top = int(cp.max()) + 1
    is_mark = _mark_lut(top)[cp]
    is_t_char = _lut(TERMINATOR_CHARS, top)[cp]
    is_c_char = _lut(CLOSER_CHARS, top)[cp]
    ends_at = np.zeros(n + 1, dtype=bool)
    ends_at[line_ends] = True  # position == a line end: nothing of the line follows
    # "." is a terminator unless the next character of the line is an ASCII letter or digit
    nxt = np.empty(n, dtype=np.int64)
    nxt[:-1] = cp[1:]
    nxt[-1] = 0
    alnum_next = ((nxt >= 48) & (nxt <= 57)) | ((nxt >= 65) & (nxt <= 90)) | ((nxt >= 97) & (nxt <= 122))
    alnum_next &= ~ends_at[1:]
    is_t_char |= (cp == 46) & ~alnum_next
    # units: a character that is not an attached mark starts one (a mark at a line start starts one too)
    line_start_mask = np.zeros(n + 1, dtype=bool)
    line_start_mask[line_starts] = True
    starts_unit = (~is_mark | line_start_mask[:-1]) & (cp != 10)
    u = np.flatnonzero(starts_unit)
    if not len(u):
        pieces_s = pieces_e = np.zeros(0, np.int64)
        return SentencePieces(pieces_s, pieces_e, np.zeros(n_texts + 1, np.int64))
    # end of each unit: the next unit start, or the line end, whichever comes first
    line_of_u = np.searchsorted(line_starts, u, side="right") - 1
    u_end = np.minimum(np.append(u[1:], n), line_ends[line_of_u])
    kind = np.where(is_t_char[u], 1, np.where(is_c_char[u], 2, 0))  # 1 terminator, 2 closer, 0 other
    same_line_next = np.zeros(len(u), dtype=bool)
    same_line_next[:-1] = line_of_u[1:] == line_of_u[:-1]
    next_kind = np.zeros(len(u), dtype=np.int64)
    next_kind[:-1] = kind[1:]
    next_kind[~same_line_next] = 0
    # a closer follows a terminator: the last non-closer unit before it (same line) is a terminator
    idx = np.arange(len(u), dtype=np.int64)
    last_non_c = np.maximum.accumulate(np.where(kind != 2, idx, -1))
    prev_nc = np.empty(len(u), dtype=np.int64)
    prev_nc[0] = -1
    prev_nc[1:] = last_non_c[:-1]
    attached = (kind == 2) & (prev_nc >= 0) & (kind[np.maximum(prev_nc, 0)] == 1) & \
        (line_of_u[np.maximum(prev_nc, 0)] == line_of_u)
    cut = ((kind == 1) & (next_kind != 1) & (next_kind != 2)) | (attached & (next_kind != 2))
    cut_pos = u_end[cut]
    # pieces: line starts and cuts open a piece, cuts and line ends close one
    bounds_s = np.concatenate([line_starts, cut_pos])
    bounds_line = np.concatenate([np.arange(len(line_starts), dtype=np.int64), line_of_u[cut]])
    o = np.lexsort((bounds_s, bounds_line))
    ps, pline = bounds_s[o], bounds_line[o]
    pe = np.empty(len(ps), dtype=np.int64)
    pe[:-1] = ps[1:]
    pe[-1] = 0
    last_of_line = np.ones(len(ps), dtype=bool)
    last_of_line[:-1] = pline[1:] != pline[:-1]
    pe[last_of_line] = line_ends[pline[last_of_line]]
    # drop empty pieces and pieces of whitespace only
    from .normalize_corpus import whitespace_mask

    solid = ~whitespace_mask(cp)
    cum = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(solid, out=cum[1:])
    keep = (cum[pe] - cum[ps]) > 0
    ps, pe, pline = ps[keep], pe[keep], pline[keep]
    counts = np.bincount(line_text[pline], minlength=n_texts)
    tp = np.zeros(n_texts + 1, dtype=np.int64)
    np.cumsum(counts, out=tp[1:])
    return SentencePieces(ps, pe, tp)


def _line_ends(line_starts, line_text, offsets, nl):
    """End of each line (lines sorted by text, then start): the next line break of its text, else the text end."""
    k = np.searchsorted(nl, line_starts, side="left")
    end = nl[np.minimum(k, len(nl) - 1)] if len(nl) else np.zeros(len(k), dtype=np.int64)
    text_end = offsets[1:][line_text]
    return np.where((k < len(nl)) & (end < text_end), end, text_end)
