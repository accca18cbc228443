"""Character classes shared by every layer: Han characters, kana, attached marks, invisible characters.

Each class is given once, as inclusive code point ranges and as the body of a regular-expression character class
(without brackets), and is used by the normalisation steps (`zheval.text.normalize`), the sentence split
(`zheval.text.sentences`) and the tokenizers (`zheval.tokenizers.char` builds its own token classes from
these). Han ranges and combining marks are computed from the running Python's ``unicodedata``, so a newer Python
knows newer extensions.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from typing import Iterable

from .invisible import DEFAULT_IGNORABLE_RANGES, INVISIBLE_RANGES

__all__ = [
    "HAN_RANGES",
    "HAN_CLASS_BODY",
    "KANA_CLASS_BODY",
    "CJK_LETTER_CLASS_BODY",
    "CJK_SIDE_CLASS_BODY",
    "DEFAULT_IGNORABLE_RANGES",
    "INVISIBLE_RANGES",
    "INVISIBLE_CLASS_BODY",
    "ATTACHED_MARK_RANGES",
    "ATTACHED_MARKS",
    "class_body",
    "is_han",
]

# ---------------------------------------------------------------------------------------------------------------
# Han character ranges, computed from the running Python's unicodedata (so a newer Python knows newer extensions).


def _compute_han_ranges() -> tuple[tuple[int, int], ...]:
    """Code point ranges of CJK Unified Ideographs (all extensions), Compatibility Ideographs, and 〇 (U+3007)."""
    candidates = [
        (0x3400, 0x4DBF),  # Extension A
        (0x4E00, 0x9FFF),  # URO
        (0xF900, 0xFAFF),  # Compatibility Ideographs
        (0x20000, 0x323AF),  # Extensions B..H and Compatibility Ideographs Supplement
        (0x323B0, 0x3FFFD),  # room for later extensions (only assigned code points are kept)
    ]
    ranges: list[list[int]] = [[0x3007, 0x3007]]
    for lo, hi in candidates:
        for cp in range(lo, hi + 1):
            name = unicodedata.name(chr(cp), "")
            if name.startswith("CJK UNIFIED IDEOGRAPH") or name.startswith("CJK COMPATIBILITY IDEOGRAPH"):
                if ranges[-1][1] == cp - 1:
                    ranges[-1][1] = cp
                else:
                    ranges.append([cp, cp])
    return tuple((a, b) for a, b in ranges)


HAN_RANGES: tuple[tuple[int, int], ...] = _compute_han_ranges()
"""Inclusive code point ranges treated as Han characters by every zheval tokenizer."""


def class_body(ranges: Iterable[tuple[int, int]]) -> str:
    """The body of a regex character class (without brackets) matching the code points of ``ranges`` (inclusive
    ``(low, high)`` pairs)."""
    parts = []
    for a, b in ranges:
        parts.append(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}")
    return "".join(parts)


HAN_CLASS_BODY = class_body(HAN_RANGES)
"""The body of a regex character class (without brackets) that matches one Han character."""

_HAN_CHAR_RE = re.compile(f"[{HAN_CLASS_BODY}]")


def is_han(char: str) -> bool:
    """Return True if ``char`` (one code point) is a Han character as defined by `HAN_RANGES`.

    Raises:
        TypeError: if ``char`` is not a ``str``.
    """
    if not isinstance(char, str):
        raise TypeError(f"is_han expects a str, got {type(char).__name__}")
    return bool(_HAN_CHAR_RE.fullmatch(char))


#: "CJK side" of a space (the ``space`` normalisation step): Han, kana, CJK punctuation and symbols, the half-width
#: CJK punctuation and katakana U+FF61-U+FF9F. Not Hangul: Korean separates words with spaces, so those spaces carry
#: meaning. Not the rest of the half-/full-width block U+FF00-U+FFEF: each of its forms counts as what NFKC makes of
#: it -- the full-width ASCII forms U+FF01-U+FF5E (``３``, ``Ａ``, ``．``, ``：``, ``，``) as ASCII, ``｟｠`` as
#: ``⦅⦆``, the half-width Hangul U+FFA0-U+FFDC as Hangul, the signs and symbols U+FFE0-U+FFEE (``￥``, ``￡``,
#: ``￩``) as their ordinary forms --, so ``３ ５`` keeps its space as ``3 5`` does (break-it: ``iPhone １５`` became
#: ``iPhone１５``, one token, while ``iPhone 15`` is two).
CJK_SIDE_CLASS_BODY = HAN_CLASS_BODY + (
    "\u2e80-\u2fdf"  # radicals, Kangxi
    "\u3000-\u303f"  # CJK symbols and punctuation
    "\u3040-\u30ff"  # kana
    "\u3100-\u312f\u3190-\u31ff"  # bopomofo, kanbun, strokes, katakana ext
    "\u3200-\u33ff"  # enclosed CJK, compatibility
    "\ufe30-\ufe4f"  # CJK compatibility forms
    "\uff61-\uff9f"  # half-width CJK punctuation (｡｢｣､･) and katakana
)


#: The letters and numbers of the CJK Symbols and Punctuation block (U+3000-U+303F) that are not Han (〇 U+3007 is in
#: `HAN_RANGES`): the iteration marks 々 U+3005 and 〻 U+303B, the closing mark 〆 U+3006, the Hangzhou numerals
#: 〡-〩 U+3021-U+3029 and 〸-〺 U+3038-U+303A, the vertical kana repeat marks 〱-〵 U+3031-U+3035 and the masu mark
#: 〼 U+303C -- every character of the block that Python's ``\w`` matches. One token per character, like Han and kana
#: (``人々abc`` -> ``人``, ``々``, ``abc``), never part of a Latin word run: sacrebleu's ``zh`` tokenizer splits every
#: character of U+3000-U+303F off as Chinese.
CJK_LETTER_CLASS_BODY = "\u3005\u3006\u3021-\u3029\u3031-\u3035\u3038-\u303c"

#: The letters that are one token each besides Han: kana (hiragana, katakana and their extensions, half-width
#: katakana; the voicing marks U+3099/U+309A are attached marks, not kana) and `CJK_LETTER_CLASS_BODY`. Every
#: consumer of "Han or kana" (the ``char`` tokenizer's Han class, ``nopunct``'s word class) reads this one body.
KANA_CLASS_BODY = "\u3040-\u3098\u309b-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9d" + CJK_LETTER_CLASS_BODY

# DEFAULT_IGNORABLE_RANGES and INVISIBLE_RANGES live in zheval.text.invisible (no computed table there, so that
# zheval.text.controls reads them cheaply) and are re-exported here with the other classes.

INVISIBLE_CLASS_BODY = class_body(INVISIBLE_RANGES)
"""Regex class body (without brackets) of `INVISIBLE_RANGES`, the characters `zheval.text.normalize.remove_invisible` removes."""


def _mark_ranges() -> tuple:
    """Code point ranges of every combining mark (general category Mn, Mc, Me) this Python's ``unicodedata`` knows,
    in planes 0, 1 and 14 (planes 2-13 hold no marks), plus the emoji skin-tone modifiers U+1F3FB-U+1F3FF."""
    ranges: list = []
    for cp in itertools.chain(range(0x20000), range(0xE0000, 0xE1000)):
        if unicodedata.category(chr(cp))[0] == "M" or 0x1F3FB <= cp <= 0x1F3FF:
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1][1] = cp
            else:
                ranges.append([cp, cp])
    return tuple((a, b) for a, b in ranges)


#: Inclusive code point ranges of `ATTACHED_MARKS`.
ATTACHED_MARK_RANGES = _mark_ranges()

#: Regex class body of the characters that attach to the character before them, whatever that character is:
#: every combining mark (Unicode general category M: accents such as U+0301, enclosing marks such as U+20DD and
#: U+20E3, Indic and Thai vowel signs, the kana voicing marks U+3099/U+309A) -- which includes the variation selectors
#: U+FE00-U+FE0F and U+E0100-U+E01EF and the Mongolian free variation selectors -- and the emoji skin-tone modifiers
#: U+1F3FB-U+1F3FF. The ``char`` tokenizer keeps them in the token of the character before them (``葛\U000e0100`` is
#: one token when normalisation is off; the default ``zw`` step removes variation selectors), and a sentence cut
#: never separates them from it.
ATTACHED_MARKS = "".join(
    re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ATTACHED_MARK_RANGES
)
