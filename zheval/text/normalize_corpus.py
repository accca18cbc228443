"""Normalise many texts at once on code point arrays: the corpus-at-once twin of
`zheval.text.normalize.Normalizer.__call__` (reference: ``[normalizer(t) for t in texts]``).

Why it exists
    On text that never repeats, normalisation is paid once per text, and the per-text steps cost one Python call
    and one C pass each -- ``unicodedata.normalize`` and ``str.translate`` on Chinese text run at 100-200 ns per
    character because nearly every text holds a full-width mark. Here all texts are one ``uint32`` array of code
    points; every *distinct* character of the call is looked at once (with the very functions the steps use), and
    each step is a table lookup or a few vectorised comparisons over the whole array.

The steps, exactly as `zheval.text.normalize` (each text is processed on its own: no step looks across a text
boundary)
    * ``nfkc``: a character is *simple* when every character of its NFKD decomposition is a starter (canonical
      combining class 0) that is not a mark (general category M) and not a Hangul jamo. A text made only of simple
      characters cannot compose or reorder anything, so its NFKC is the concatenation of its characters' NFKD
      (every second element of a canonical composition is a mark or a Hangul vowel/trailing jamo; checked over all
      of Unicode by the tests), with the ellipses of `zheval.text.normalize.ELLIPSES` kept as the step keeps
      them. A text holding any other character (a combining mark, Hangul, ...) is normalised by the reference
      `Normalizer` itself.
    * ``zw``: characters of `INVISIBLE_RANGES` are dropped.
    * ``punct``: `PUNCT_TABLE` as a lookup table.
    * ``nopunct``: per maximal run of punctuation (category P) within a text: a single ``.`` with an ASCII digit
      after it and a word character as the last character before it that is not an attached mark (within the
      text) is kept; any other run is removed, and becomes one space when the character before it is
      a word character or an attached mark (`NOPUNCT_WORD`, `NOPUNCT_MARK`) and the first character after it that
      is not an attached mark is a word character, both within the text (the step's ``_punct_run``, run by run).
    * ``space``: ``\\r\\n`` and ``\\r`` become ``\\n``; every maximal whitespace run (``str.isspace``, as the step's
      ``\\s``) at the start or end of a text is dropped, an inner run becomes ``\\n`` if it holds a line break and a
      space otherwise; a space with a CJK-side character (`CJK_SIDE_CLASS_BODY`) on either
      side is dropped, unless the last character before it that is not an attached mark is a word character and
      the first character after it that is not an attached mark is a word character (`NOPUNCT_WORD`), within the
      text.
    * ``lower``: each character of the step's Latin upper-case class becomes its ``str.lower()``.
    * ``t2s`` (OpenCC, phrase-based): not vectorised; a normaliser with it normalises text by text.

    The steps that map each character on its own (``nfkc`` on texts of simple characters, ``zw``, ``punct``,
    ``lower``) are composed when consecutive: each distinct character's image through all of them (the reference
    step functions on that one character), applied with one table. ``lower`` joins them across ``space`` when it
    commutes with it on the characters present (no Latin capital or its lower case is whitespace or CJK-side, none
    lower-cases to nothing, each lower-cases to a word character followed by word characters or attached marks:
    true of Unicode today, checked per call). ``space`` works on the whitespace positions
    only.

Tested equal to the reference on every code point, on random strings over the tricky classes (hypothesis) and on
the shared real data (``tests/test_fast_twins.py``).
"""

from __future__ import annotations

import re
import unicodedata
from typing import List, NamedTuple, Sequence

import numpy as np

from .chars import CJK_SIDE_CLASS_BODY
from .normalize import (ELLIPSES, LATIN_UPPER_CLASS_BODY, NOPUNCT_MARK, NOPUNCT_WORD, Normalizer, lower_latin,
                        remove_invisible, unify_punctuation)

__all__ = ["NormalizedTexts", "normalize_corpus", "codepoints_of", "is_simple_for_nfkc", "whitespace_mask"]


class NormalizedTexts(NamedTuple):
    """Normalised texts as one code point array.

    Attributes:
        codepoints: ``(N,)`` uint32, the normalised texts concatenated (nothing between them).
        offsets: ``(n_texts + 1,)`` int64; text i is ``codepoints[offsets[i]:offsets[i + 1]]``.
    """

    codepoints: np.ndarray
    offsets: np.ndarray

    def texts(self) -> List[str]:
        """The normalised texts as ``str`` (one decode of the whole array, then slices)."""
        big = self.codepoints.astype(np.uint32, copy=False).tobytes().decode("utf-32-le", "surrogatepass")
        off = self.offsets.tolist()
        return [big[a:b] for a, b in zip(off[:-1], off[1:])]


def codepoints_of(texts: Sequence[str]) -> NormalizedTexts:
    """The texts as they are, as one code point array with offsets (no normalisation)."""
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    big = "".join(texts)
    cp = np.frombuffer(big.encode("utf-32-le", "surrogatepass"), dtype=np.uint32) if big else np.zeros(0, np.uint32)
    return NormalizedTexts(cp, offsets)


_HANGUL_JAMO = ((0x1100, 0x11FF), (0xA960, 0xA97F), (0xD7B0, 0xD7FF))


def is_simple_for_nfkc(ch: str) -> bool:
    """Whether every character of ``NFKD(ch)`` is a starter that no canonical composition can take as its second
    element (combining class 0, not a mark, not a Hangul jamo): then NFKC of a text of such characters is the
    concatenation of their NFKD (see the module docstring)."""
    for x in unicodedata.normalize("NFKD", ch):
        cp = ord(x)
        if unicodedata.combining(x) or unicodedata.category(x)[0] == "M":
            return False
        if any(a <= cp <= b for a, b in _HANGUL_JAMO):
            return False
    return True


def _distinct(cp: np.ndarray) -> np.ndarray:
    """The distinct code points of ``cp``, increasing."""
    present = np.zeros(int(cp.max()) + 1, dtype=bool)
    present[cp] = True
    return np.flatnonzero(present)


def whitespace_mask(cp: np.ndarray) -> np.ndarray:
    """``str.isspace()`` of every code point of ``cp`` (each distinct character asked once)."""
    if not len(cp):
        return np.zeros(0, dtype=bool)
    u = _distinct(cp)
    lut = np.zeros(int(u[-1]) + 1, dtype=bool)
    lut[u[np.fromiter((chr(c).isspace() for c in u.tolist()), dtype=bool, count=len(u))]] = True
    return lut[cp]


def _keep(cp: np.ndarray, offsets: np.ndarray, keep: np.ndarray):
    """``cp[keep]`` and the offsets of the texts after dropping the other positions."""
    dropped = np.flatnonzero(~keep)
    if not len(dropped):
        return cp, offsets
    return cp[keep], offsets - np.searchsorted(dropped, offsets)


def _map(cp: np.ndarray, offsets: np.ndarray, chars: np.ndarray, images: List[str]):
    """Replace each character ``chars[k]`` (increasing) by the string ``images[k]`` (other characters unchanged):
    one gather of every image's first character, then the dropped characters deleted and the longer images' other
    characters inserted, each in one pass."""
    if not len(chars):
        return cp, offsets
    lens = np.fromiter(map(len, images), dtype=np.int64, count=len(images))
    top = int(max(int(cp.max()), int(chars.max()))) + 1
    lut = np.arange(top, dtype=np.uint32)
    lut[chars] = np.fromiter((ord(m[0]) if m else 0 for m in images), dtype=np.uint32, count=len(images))
    out = lut[cp]
    if (lens == 1).all():
        return out, offsets
    odd = np.zeros(top, dtype=bool)
    odd[chars[lens != 1]] = True
    at = np.flatnonzero(odd[cp])  # positions of dropped characters and of longer images (rare: ℃ -> °c)
    k = np.searchsorted(chars, cp[at])
    grow = lens[k] - 1
    gone = at[grow < 0]
    longer = grow > 0
    more = grow[longer]
    where = np.repeat(at[longer] + 1, more)  # the other characters go right after the first one
    tails = "".join(img[1:] for img in images)
    tail_cp = np.frombuffer(tails.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    tail_start = np.cumsum(np.maximum(lens - 1, 0)) - np.maximum(lens - 1, 0)
    first = np.repeat(tail_start[k[longer]] - (np.cumsum(more) - more), more) + np.arange(int(more.sum()))
    if len(gone):
        out = np.delete(out, gone)
        where = where - np.searchsorted(gone, where)
    if len(where):
        out = np.insert(out, where, tail_cp[first])
    shift = np.zeros(len(at) + 1, dtype=np.int64)
    np.cumsum(grow, out=shift[1:])
    return out, offsets + shift[np.searchsorted(at, offsets)]


def _member(u: np.ndarray, body: str) -> np.ndarray:
    """Which of the distinct code points ``u`` match the character class ``[body]``."""
    return _matching(u, f"[{body}]")


def _matching(u: np.ndarray, char_class: str) -> np.ndarray:
    """Which of the distinct code points ``u`` match the one-character expression ``char_class``."""
    chars = "".join(map(chr, u.tolist()))
    mask = np.zeros(len(u), dtype=bool)
    mask[[m.start() for m in re.finditer(char_class, chars, flags=re.DOTALL)]] = True
    return mask




def _after(u: np.ndarray, chars, images) -> np.ndarray:
    """The characters that can be present after replacing ``chars`` by ``images`` (a sorted superset)."""
    new = np.frombuffer("".join(images).encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.int64)
    return np.union1d(np.setdiff1d(u, np.asarray(chars, dtype=np.int64)), new)


#: Code point ranges NFKC leaves alone and never composes with (CJK Unified Ideographs and Extension A: no
#: decomposition, combining class 0, not marks, not jamo), which no other per-character step changes either (not
#: invisible, not in `PUNCT_TABLE`, not Latin): skipped without asking ``unicodedata`` per character.
_IDEOGRAPHS = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF))
#: The steps that map each character on its own (``nfkc`` only for texts of simple characters): consecutive ones
#: are composed into one table over the distinct characters (`_step_chars`).
_PER_CHAR = ("nfkc", "zw", "punct", "lower")
_ONE_CHAR = {"zw": remove_invisible, "punct": unify_punctuation, "lower": lower_latin}


def _char_image(ch: str, steps) -> "str | None":
    """What the per-character ``steps`` (in order) make of the one character ``ch`` -- the reference step functions
    on it; None when ``nfkc`` is among them and ``ch`` is not simple (`is_simple_for_nfkc`: its text needs the
    reference normaliser)."""
    img = ch
    for step in steps:
        if step != "nfkc":
            img = _ONE_CHAR[step](img)
        elif ch in ELLIPSES:
            img = ELLIPSES[ch]
        elif is_simple_for_nfkc(ch):
            img = unicodedata.normalize("NFKD", ch)
        else:
            return None
    return img


def _lower_commutes_with_space(chars: str) -> bool:
    """Whether ``lower`` may run before ``space`` on texts made of ``chars``: every Latin capital among them
    lower-cases to a non-empty string, neither it nor its lower case holds whitespace or a CJK-side character, and
    both are a word character followed by word characters or attached marks, so the ``space`` step sees the same
    runs, text ends, CJK-side neighbours and word runs either way."""
    for ch in set(re.findall(f"[{LATIN_UPPER_CLASS_BODY}]", chars)):
        both = ch + ch.lower()
        if len(both) < 2 or any(x.isspace() for x in both) or re.search(f"[{CJK_SIDE_CLASS_BODY}]", both):
            return False
        if not all(re.fullmatch(f"{NOPUNCT_WORD}(?:{NOPUNCT_WORD}|{NOPUNCT_MARK})*", x) for x in (ch, ch.lower())):
            return False
    return True


def _step_chars(cp, offsets, fallback, u, steps, lower_after_space: bool):
    """The per-character ``steps`` composed: every distinct character's image through all of them
    (`_char_image`), applied with one table (`_map`); texts holding a character that is not simple for ``nfkc``
    are marked in ``fallback``. ``lower_after_space``: ``lower`` follows with only ``space`` between -- it is
    composed in too when it commutes with ``space`` on these characters (`_lower_commutes_with_space`).
    Returns ``(cp, offsets, u, lower done)``."""
    ask = np.ones(len(u), dtype=bool)
    for lo, hi in _IDEOGRAPHS:
        ask &= (u < lo) | (u > hi)
    pairs, unsafe = [], []
    for c in u[ask].tolist():
        img = _char_image(chr(c), steps)
        if img is None:
            unsafe.append(c)
        else:
            pairs.append((c, img))
    lowered = lower_after_space and _lower_commutes_with_space("".join(img for _, img in pairs))
    if lowered:
        pairs = [(c, lower_latin(img)) for c, img in pairs]
    pairs = [(c, img) for c, img in pairs if img != chr(c)]
    if unsafe:
        bad = np.zeros(len(u) and int(u[-1]) + 1, dtype=bool)
        bad[unsafe] = True
        cnt = np.zeros(len(cp) + 1, dtype=np.int64)
        np.cumsum(bad[cp], out=cnt[1:])
        fallback |= (cnt[offsets[1:]] - cnt[offsets[:-1]]) > 0
    chars = np.array([c for c, _ in pairs], dtype=np.int64)
    images = [img for _, img in pairs]
    return _map(cp, offsets, chars, images) + (_after(u, chars, images), lowered)


def _neighbours(cp: np.ndarray, offsets: np.ndarray, flag: np.ndarray):
    """``flag`` of the previous and of the next position within the same text (False at a text's ends)."""
    n = len(cp)
    prev = np.zeros(n, dtype=bool)
    nxt = np.zeros(n, dtype=bool)
    prev[1:] = flag[:-1]
    nxt[:-1] = flag[1:]
    starts = offsets[:-1][np.diff(offsets) > 0]
    ends = offsets[1:][np.diff(offsets) > 0] - 1
    prev[starts] = False
    nxt[ends] = False
    return prev, nxt


def _last_unmarked(marks: np.ndarray) -> np.ndarray:
    """For each position, the last position at or before it whose character is not an attached mark (-1: none)."""
    return np.maximum.accumulate(np.where(marks, -1, np.arange(len(marks))))


def _first_unmarked(marks: np.ndarray) -> np.ndarray:
    """For each position, the first position at or after it whose character is not an attached mark (``len``:
    none)."""
    return np.minimum.accumulate(np.where(marks, len(marks), np.arange(len(marks)))[::-1])[::-1]


def _step_nopunct(cp, offsets, fallback, u):
    """The ``nopunct`` step on the runs of punctuation only (module docstring): each kept, dropped, or dropped but
    its first position, which becomes a space."""
    top = int(u[-1]) + 1
    is_p, word, mark = (np.zeros(top, dtype=bool) for _ in range(3))
    is_p[u[np.fromiter((unicodedata.category(chr(c)).startswith("P") for c in u.tolist()), dtype=bool,
                       count=len(u))]] = True
    word[u[_matching(u, NOPUNCT_WORD)]] = True
    mark[u[_matching(u, NOPUNCT_MARK)]] = True
    p = is_p[cp]
    if not p.any():
        return cp, offsets, u
    prev_p, next_p = _neighbours(cp, offsets, p)
    starts, ends = np.flatnonzero(p & ~prev_p), np.flatnonzero(p & ~next_p)  # of each run, in order
    text = np.searchsorted(offsets, starts, side="right") - 1
    t_end = offsets[text + 1]
    inner = (starts > offsets[text]) & (ends + 1 < t_end)
    left = cp[np.maximum(starts - 1, 0)]
    after = np.minimum(ends + 1, len(cp) - 1)
    right = cp[after]
    kept = inner & (starts == ends) & (cp[starts] == 46) & (right >= 48) & (right <= 57)
    marks = mark[cp]
    if kept.any():  # a '.' before a digit is kept where a word run ends before it (its last non-mark: a word char)
        base = _last_unmarked(marks)[np.maximum(starts - 1, 0)] if marks.any() else starts - 1
        kept &= (base >= offsets[text]) & word[cp[np.maximum(base, 0)]]
    if marks.any():  # the first position at or after each run's end + 1 that is not an attached mark
        after = _first_unmarked(marks)[after]
    spaced = inner & ~kept & (word[left] | mark[left]) & (after < t_end) & word[cp[np.minimum(after, len(cp) - 1)]]
    stay = ~p
    stay[starts[kept]] = True
    if spaced.any():
        cp = cp.copy()
        cp[starts[spaced]] = 32
        stay[starts[spaced]] = True
        u = np.union1d(u, [32])
    return _keep(cp, offsets, stay) + (u,)


def _step_space(cp, offsets, fallback, u):
    """The ``space`` step on the whitespace positions only (a few per cent of the characters): their runs within a
    text, each dropped, kept as one space or one line break (module docstring), then one deletion."""
    if not len(cp):
        return cp, offsets, u
    if (u == 13).any():  # \r\n -> \n, then \r -> \n (within a text)
        _, next_nl = _neighbours(cp, offsets, cp == 10)
        cp, offsets = _keep(cp, offsets, ~((cp == 13) & next_nl))
        cp = np.where(cp == 13, np.uint32(10), cp)
    u = np.union1d(np.setdiff1d(u, [13]), [10, 32])
    space_lut = np.zeros(int(u[-1]) + 1, dtype=bool)
    space_lut[u[np.fromiter((chr(c).isspace() for c in u.tolist()), dtype=bool, count=len(u))]] = True
    pos = np.flatnonzero(space_lut[cp])
    if not len(pos):
        return cp, offsets, u
    text = np.searchsorted(offsets, pos, side="right") - 1  # the text of each whitespace position
    first = np.flatnonzero(np.concatenate(([True], (np.diff(pos) != 1) | (np.diff(text) != 0))))  # of each run
    rs = pos[first]
    re_ = pos[np.append(first[1:] - 1, len(pos) - 1)]  # the run's last position
    rt = text[first]
    inner = (rs > offsets[rt]) & (re_ < offsets[rt + 1] - 1)  # neither at its text's start nor at its end
    has_nl = np.logical_or.reduceat(cp[pos] == 10, first)
    # a space run with a CJK-side character on either side is dropped (its neighbours are not whitespace)
    single = inner & ~has_nl
    if single.any():
        cjk, word, mark = (np.zeros(int(u[-1]) + 1, dtype=bool) for _ in range(3))
        cjk[u[_member(u, CJK_SIDE_CLASS_BODY)]] = True
        word[u[_matching(u, NOPUNCT_WORD)]] = True
        mark[u[_matching(u, NOPUNCT_MARK)]] = True
        left, right = np.maximum(rs - 1, 0), np.minimum(re_ + 1, len(cp) - 1)
        drop = single & (cjk[cp[left]] | cjk[cp[right]])
        if drop.any():  # kept between two word runs: a word char (after marks) on the right, a word run's end left
            marks = mark[cp]
            if marks.any():
                left, right = _last_unmarked(marks)[left], _first_unmarked(marks)[right]
            t_start, t_end = offsets[rt], offsets[rt + 1]
            runs = ((left >= t_start) & word[cp[np.maximum(left, 0)]] & (right < t_end)
                    & word[cp[np.minimum(right, len(cp) - 1)]])
            drop &= ~runs
        inner &= ~drop
    dropped = np.ones(len(pos), dtype=bool)
    dropped[first[inner]] = False
    gone = pos[dropped]
    out = np.delete(cp, gone)
    stay = rs[inner]
    out[stay - np.searchsorted(gone, stay)] = np.where(has_nl[inner], np.uint32(10), np.uint32(32))
    return out, offsets - np.searchsorted(gone, offsets), u


_STEPS = {"nopunct": _step_nopunct, "space": _step_space}


def normalize_corpus(texts: Sequence[str], normalizer: Normalizer) -> NormalizedTexts:
    """``normalizer(t)`` for every text, all at once, as one code point array (see the module docstring).

    Args:
        texts: ``str`` texts (not checked here: the caller validated them).
        normalizer: a `Normalizer`.
    Returns:
        `NormalizedTexts`: text i's normalised form is ``codepoints[offsets[i]:offsets[i + 1]]``, equal to
        ``normalizer(texts[i])``.
    """
    if "t2s" in normalizer.steps:
        return codepoints_of([normalizer(t) for t in texts])
    raw = codepoints_of(texts)
    cp, offsets = raw
    if not len(cp) or not normalizer.steps:
        return raw
    fallback = np.zeros(len(texts), dtype=bool)
    u = _distinct(cp).astype(np.int64)
    steps = list(normalizer.steps)
    while steps and len(cp):
        run = []
        while steps and steps[0] in _PER_CHAR:
            run.append(steps.pop(0))
        if run:
            cp, offsets, u, lowered = _step_chars(cp, offsets, fallback, u, run, steps == ["space", "lower"])
            if lowered:
                steps.pop()
        else:
            cp, offsets, u = _STEPS[steps.pop(0)](cp, offsets, fallback, u)
    if not fallback.any():
        return NormalizedTexts(cp, offsets)
    # texts with a character that NFKC can compose or reorder: the reference normaliser, spliced in
    parts, lens = [], np.diff(offsets)
    out_lens = lens.copy()
    bad = np.flatnonzero(fallback).tolist()
    prev = 0
    for i in bad:
        if offsets[i] > offsets[prev]:
            parts.append(cp[offsets[prev]:offsets[i]])
        s = normalizer(texts[i])
        parts.append(np.frombuffer(s.encode("utf-32-le", "surrogatepass"), dtype=np.uint32))
        out_lens[i] = len(s)
        prev = i + 1
    parts.append(cp[offsets[prev]:])
    new_offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum(out_lens, out=new_offsets[1:])
    return NormalizedTexts(np.concatenate(parts) if parts else np.zeros(0, np.uint32), new_offsets)
