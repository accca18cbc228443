"""The invisible characters, as code point ranges: one set for the normaliser and the screen.

`INVISIBLE_RANGES` is what the ``zw`` normalisation step removes (`zheval.text.normalize.remove_invisible`) and
what the ``char`` tokenizer never makes a token of (`zheval.text.chars` re-exports both names); the escaping of
data for the terminal and the HTML page (`zheval.text.controls.visible_controls`) shows every one of them as an
escape but the few that text needs inside a sequence (`zheval.text.controls.SEQUENCE_INVISIBLE_RANGES`). A module
of its own, with no computed table, so that `zheval.text.controls` (imported by every command) reads it without
building the Han and mark tables of `zheval.text.chars`.
"""

from __future__ import annotations

__all__ = ["DEFAULT_IGNORABLE_RANGES", "INVISIBLE_RANGES"]

#: Unicode ``Default_Ignorable_Code_Point`` (DerivedCoreProperties.txt) as inclusive ranges: the same list in
#: Unicode 14.0 (Python 3.11's ``unicodedata``) and in the Unicode data of the ``regex`` module 2026.11.
DEFAULT_IGNORABLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul choseong / jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors and vowel separator
    (0x200B, 0x200F),  # zero width space, non-joiner, joiner; LRM, RLM
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidi isolates, deprecated format characters
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors 1-16
    (0xFEFF, 0xFEFF),  # BOM / zero width no-break space
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),  # reserved
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical symbol format controls
    (0xE0000, 0xE0FFF),  # tags, variation selectors 17-256, reserved
)

#: What the ``zw`` step removes and the ``char`` tokenizer never makes a token of: every default-ignorable code
#: point, U+2800 BRAILLE PATTERN BLANK (looks like a space, is not whitespace) and the interlinear annotation
#: characters U+FFF9-U+FFFB.
INVISIBLE_RANGES: tuple[tuple[int, int], ...] = tuple(sorted(DEFAULT_IGNORABLE_RANGES + ((0x2800, 0x2800), (0xFFF9, 0xFFFB))))
