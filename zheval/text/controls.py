"""Control characters of data made visible: THE rule of both boundaries where model text meets a person, the
terminal (`zheval.text.terminal.terminal_text`) and the HTML report (its ``visible`` filter).

Model output, references, ids and group values are data. Raw, ``ESC [ 2 J`` clears a terminal, ``\\x9b`` starts an
8-bit control sequence, ``\\r`` overwrites a line, NUL and ESC show as nothing or a box in a browser, and the
Unicode bidi controls reorder what is displayed in both (Trojan Source, CVE-2021-42574): a prediction can look like
another one. HTML escaping (``<`` ``>`` ``&``) does not touch any of them.

Rule (`visible_controls`): every character of Unicode category ``Cc`` — C0 U+0000–U+001F, DEL U+007F and C1
U+0080–U+009F — except ``\\n`` and ``\\t``; the twelve characters of Unicode's ``Bidi_Control`` property (PropList.txt:
the embedding / override / isolate controls U+202A–U+202E and U+2066–U+2069, rustc's ``TEXT_FLOW_CONTROL_CHARS``, and
the invisible direction marks U+200E LRM, U+200F RLM, U+061C ALM); the line and paragraph separators U+2028 and
U+2029 (categories ``Zl``/``Zp``: a line break some renderers draw and others do not); and the invisible format
characters (`INVISIBLE_FORMAT`): the characters of Unicode's ``Default_Ignorable_Code_Point`` (DerivedCoreProperties.txt)
that render as nothing and join no sequence — U+200B ZERO WIDTH SPACE, U+2060 WORD JOINER and the invisible operators
U+2061–U+2064, U+FEFF (BOM, ZERO WIDTH NO-BREAK SPACE), U+00AD SOFT HYPHEN (drawn only where a line breaks), U+180E
MONGOLIAN VOWEL SEPARATOR, the Hangul fillers U+3164 and U+FFA0, the Khmer inherent vowels U+17B4/U+17B5, the
deprecated format characters U+206A–U+206F, the unassigned default-ignorables (U+2065, U+FFF0–U+FFF8, U+E0000–U+E0FFF
but the variation selectors) and the tag characters U+E0001, U+E0020–U+E007F (ASCII written invisibly) outside an emoji
tag sequence (``🏴`` U+1F3F4, tags, U+E007F CANCEL TAG: a subdivision flag, kept), and the two more the ``zw``
normalisation step removes as invisible, U+2800 BRAILLE PATTERN BLANK and the interlinear annotation characters
U+FFF9–U+FFFB (one set: every character of `zheval.text.invisible.INVISIBLE_RANGES` is escaped but those text needs
inside a sequence, `SEQUENCE_INVISIBLE_RANGES`) — so ``x\\u200by`` and ``xy``, two
ids or group values or predictions, no longer print alike. They are shown as visible escapes: ``\\x1b``, ``\\x00``,
``\\x9b``, ``\\r``, ``\\u202e``, ``\\u200f``, ``\\u2028``, ``\\u200b``, ``\\ufeff``, ``\\U000e0041``. With ``one_line=True`` (a
table cell) ``\\n`` and ``\\t`` are escaped too. Everything else is kept: Han characters, full-width punctuation, U+3000,
emoji, right-to-left letters (a page isolates them with ``<bdi>`` so they cannot reorder the text around them), and
the default-ignorables that text needs inside a sequence — U+200D ZWJ (emoji sequences ``👨\\u200d👩``, Indic conjuncts),
U+200C ZWNJ (Persian, Indic), U+034F COMBINING GRAPHEME JOINER, the variation selectors (U+FE00–U+FE0F: ``❤\\ufe0f``;
U+E0100–U+E01EF: a CJK ideographic variation sequence; the Mongolian U+180B–U+180D, U+180F), the Hangul choseong and
jungseong fillers U+115F/U+1160 (old Hangul jamo sequences), the shorthand and musical format controls
(U+1BCA0–U+1BCA3, U+1D173–U+1D17A) — in ids and group labels too (one rule for every text; a page applies it to
every value): two ids that differ only by one of these still print alike, and the id hints say so
(`zheval.adapters.duck.mismatch.id_hints`, ``zheval explain --id``: equal once invisible characters are removed).
Backslashes are kept, so a literal ``\\x1b`` (four characters) and an escaped ESC look alike: the output is for
reading, never for parsing. Escaping twice changes nothing.

A file that is read back (the review sheet: its ids are matched against the key) needs escaping that keeps distinct
texts distinct: `escaped_text` also writes every backslash as ``\\\\``, so each backslash of its output starts an
escape and ``k<ESC>`` (``k\\x1b``) and the literal four characters ``k\\x1b`` (``k\\\\x1b``) differ.

A sheet a spreadsheet program opens (the review sheet's CSV and TSV) must not hold a formula: a cell starting with
``=``, ``+``, ``-`` or ``@`` (and tab or CR) is evaluated by Excel and LibreOffice (OWASP, "CSV Injection"), so a
model's ``=1+1`` shows as ``2`` and a re-saved id ``=cmd`` no longer matches its key. `sheet_text` writes such a cell
with OWASP's ``'`` in front. A spreadsheet may keep that ``'`` or drop it (it is also the spreadsheet's own "this is
text" prefix), so a cell ``'=x`` must be the guarded ``=x`` whatever happens to it: a text that starts with ``'``
itself is written with that ``'`` escaped as ``\\x27`` (``'=x`` is written ``\\x27=x``, never ``''=x``, which a
spreadsheet dropping one ``'`` would turn into the guarded cell of ``=x``). Then only a guard starts a cell with
``'``, and `sheet_plain` reads every cell back to its text one-to-one, the guard kept or dropped: ``'=x`` and
``=x`` are both ``=x``, ``\\x27=x`` is ``'=x``. (``\\x27`` is an escape `unescaped_text` reads; `escaped_text` writes
every backslash ``\\\\``, so no other text gives it.) Likewise a text a TSV reader would refuse as a CSV-quoted cell
(wrapped in ``"`` with ``""`` inside, `zheval.io.table.tsv_quoting_checked`) has its first ``"`` written ``\\x22``.
"""

from __future__ import annotations

import re
from typing import Any

from .invisible import INVISIBLE_RANGES

__all__ = ["BIDI_CONTROLS", "LINE_SEPARATORS", "INVISIBLE_FORMAT", "SEQUENCE_INVISIBLE_RANGES", "TAG_CHARACTERS",
           "CONTROL_PATTERN", "visible_controls", "escaped_text", "unescaped_text",
           "FORMULA_STARTS", "sheet_text", "sheet_plain", "text_digest",
           "texts_digest"]

BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""Unicode's ``Bidi_Control`` characters: ALM, LRM, RLM and the embedding, override and isolate controls (LRE RLE
PDF LRO RLO, LRI RLI FSI PDI)."""

LINE_SEPARATORS = "\u2028\u2029"
"""LINE SEPARATOR and PARAGRAPH SEPARATOR (the only characters of categories ``Zl`` and ``Zp``)."""

SEQUENCE_INVISIBLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong / jungseong fillers (old Hangul jamo sequences)
    (0x180B, 0x180D),  # Mongolian free variation selectors 1-3
    (0x180F, 0x180F),  # Mongolian free variation selector 4
    (0x200C, 0x200D),  # ZWNJ, ZWJ (Persian, Indic; emoji sequences)
    (0xFE00, 0xFE0F),  # variation selectors 1-16
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical symbol format controls
    (0xE0020, 0xE007F),  # tag characters: kept in an emoji tag sequence only (`TAG_CHARACTERS`)
    (0xE0100, 0xE01EF),  # variation selectors 17-256 (ideographic variation sequences)
)
"""The invisible characters (`zheval.text.invisible.INVISIBLE_RANGES`) that text needs inside a sequence, which
`visible_controls` keeps (module docstring); the tag characters among them are kept only in an emoji tag sequence."""


def _invisible_format() -> str:
    """`INVISIBLE_FORMAT`: every code point of `INVISIBLE_RANGES` (what the ``zw`` normalisation step removes) but
    the bidi controls (`BIDI_CONTROLS`, escaped too) and `SEQUENCE_INVISIBLE_RANGES`, as a regex class body."""
    skip = {ord(c) for c in BIDI_CONTROLS}
    for a, b in SEQUENCE_INVISIBLE_RANGES:
        skip.update(range(a, b + 1))
    ranges: list = []
    for a, b in INVISIBLE_RANGES:
        for cp in range(a, b + 1):
            if cp in skip:
                continue
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1][1] = cp
            else:
                ranges.append([cp, cp])
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)


INVISIBLE_FORMAT = _invisible_format()
"""Regex class body of the invisible format characters `visible_controls` escapes (module docstring): every
character the ``zw`` normalisation step removes (`zheval.text.invisible.INVISIBLE_RANGES`: the
``Default_Ignorable_Code_Point`` characters, U+2800 BRAILLE PATTERN BLANK, the interlinear annotation characters
U+FFF9–U+FFFB) but the bidi controls (`BIDI_CONTROLS`, escaped as well) and the ones text needs inside a sequence
(`SEQUENCE_INVISIBLE_RANGES`; the tag characters U+E0020–U+E007F are escaped outside an emoji tag sequence:
`TAG_CHARACTERS`). One set: whatever the normaliser removes as invisible is shown as an escape."""

TAG_CHARACTERS = "\U000e0020-\U000e007f"
"""Regex class body of Unicode's tag characters: ASCII written invisibly, kept only inside an emoji tag sequence."""

_EMOJI_TAG_SEQUENCE = "(\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f)"  # a subdivision flag (kept as it is)

CONTROL_PATTERN = re.compile(_EMOJI_TAG_SEQUENCE + "|[\x00-\x08\x0b-\x1f\x7f-\x9f" + BIDI_CONTROLS + LINE_SEPARATORS
                             + INVISIBLE_FORMAT + TAG_CHARACTERS + "]")
"""The characters `visible_controls` escapes (``\\n`` and ``\\t`` kept); its group 1 matches an emoji tag sequence,
which is kept."""

_CONTROL_ONE_LINE = re.compile(_EMOJI_TAG_SEQUENCE + "|[\x00-\x1f\x7f-\x9f" + BIDI_CONTROLS + LINE_SEPARATORS
                               + INVISIBLE_FORMAT + TAG_CHARACTERS + "]")
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(m: re.Match) -> str:
    if m.group(1) is not None:
        return m.group(1)
    c = m.group(0)
    named = _NAMED.get(c)
    if named is not None:
        return named
    o = ord(c)
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}"


def visible_controls(text: Any, *, one_line: bool = False) -> str:
    """``text`` with every control character shown as a visible escape (module docstring).

    Args:
        text: a ``str`` (anything else is converted with ``str()`` first).
        one_line: also escape ``\\n`` and ``\\t`` (a table cell, a title, a single-line message).

    Returns:
        A ``str`` with no C0/C1 control character other than ``\\n``/``\\t`` (none at all with ``one_line``) and no
        bidi control; idempotent. Raises nothing.
    """
    s = text if isinstance(text, str) else str(text)
    pattern = _CONTROL_ONE_LINE if one_line else CONTROL_PATTERN
    if pattern.search(s) is None:
        return s
    return pattern.sub(_escape, s)


def escaped_text(text: Any, *, one_line: bool = False) -> str:
    """``text`` with every backslash written ``\\\\`` and every control character as `visible_controls` writes it:
    an injective escaping (distinct texts give distinct results: every backslash of the result starts an escape
    ``\\\\``, ``\\xNN``, ``\\uNNNN``, ``\\UNNNNNNNN``, ``\\n``, ``\\t`` or ``\\r``), for a file that is read back (the review sheet).

    Args:
        text: a ``str`` (anything else is converted with ``str()`` first).
        one_line: also escape ``\\n`` and ``\\t`` (an id; one reference of a cell whose references are separated by
            line breaks).

    Returns:
        A ``str`` (not idempotent: escaping twice doubles the backslashes). Raises nothing.
    """
    s = text if isinstance(text, str) else str(text)
    return visible_controls(s.replace("\\", "\\\\"), one_line=one_line)


_ESCAPE = re.compile(r"\\(?:(\\)|x([0-9a-f]{2})|u([0-9a-f]{4})|U([0-9a-f]{8})|([ntr]))|(\\)")


def unescaped_text(text: str):
    """The text `escaped_text` wrote as ``text`` (its inverse): ``\\\\`` is one backslash, ``\\xNN``,
    ``\\uNNNN``, ``\\UNNNNNNNN`` (lower-case hex, as written), ``\\n``, ``\\t``, ``\\r`` the characters; everything else is kept.

    Args:
        text: a ``str`` (a cell of a file `escaped_text` wrote, as read back).

    Returns:
        The ``str``, or ``None`` when ``text`` is no output of `escaped_text`: a backslash that starts none of these
        escapes (an edited cell). ``unescaped_text(escaped_text(s)) == s`` for every ``s``. Raises nothing.
    """
    bad = False

    def one(m: re.Match) -> str:
        nonlocal bad
        backslash, hex2, hex4, hex8, named, lone = m.groups()
        if lone is not None:
            bad = True
            return ""
        if backslash is not None:
            return "\\"
        if named is not None:
            return "\n" if named == "n" else "\t" if named == "t" else "\r"
        return chr(int(hex2 or hex4 or hex8, 16))

    out = _ESCAPE.sub(one, text)
    return None if bad else out


FORMULA_STARTS = "=+-@\t\r"
"""The first characters after which `sheet_text` puts a ``'``: a spreadsheet formula's (``=``, ``+``, ``-``, ``@``,
tab, CR: OWASP's CSV injection list)."""

_CSV_QUOTED = re.compile(r'"(?:[^"]|"")*""(?:[^"]|"")*"')  # the cell zheval.io.table.tsv_quoting_checked refuses


def sheet_text(text: Any, *, one_line: bool = False) -> str:
    """A text cell of a spreadsheet file that is read back (the review sheet's CSV and TSV): `escaped_text`, then
    a ``'`` in front when the escaped cell starts with one of `FORMULA_STARTS`; a leading ``'`` of the text itself
    written ``\\x27``, and the leading ``"`` of a cell that reads as CSV-quoted (``"a""b"``) ``\\x22`` (module
    docstring).

    Args:
        text: a ``str`` (anything else is converted with ``str()`` first).
        one_line: as `escaped_text` (an id, a TSV cell).

    Returns:
        A ``str`` no spreadsheet evaluates as a formula, starting with ``'`` only as the guard; injective (distinct
        texts give distinct cells, and distinct cells once a spreadsheet drops every guard), inverted by
        `sheet_plain`. Raises nothing.
    """
    s = escaped_text(text, one_line=one_line)
    if not s:
        return s
    if s[0] in FORMULA_STARTS:
        return "'" + s
    if s[0] == "'":
        return "\\x27" + s[1:]
    if s[0] == '"' and _CSV_QUOTED.fullmatch(s):
        return "\\x22" + s[1:]
    return s


def sheet_plain(cell: str):
    """The text `sheet_text` wrote as ``cell`` (its inverse), whether a spreadsheet kept the guard or dropped it: a
    leading ``'`` before one of `FORMULA_STARTS` is the guard and is dropped (``'=x`` is ``=x``; so is ``=x``, the
    guard dropped by a spreadsheet), then `unescaped_text` (``\\x27=x`` is ``'=x``). A cell starting with ``'``
    before any other character (``'abc``, ``''=x``: no `sheet_text` output, a sheet written before the guard) is
    read as it is, its ``'`` kept.

    Args:
        cell: a ``str`` (a cell of a CSV/TSV sheet, as read back).

    Returns:
        The ``str``, or ``None`` when ``cell`` is no output of `escaped_text` (`unescaped_text`).
        ``sheet_plain(sheet_text(s)) == s`` and ``sheet_plain(dropped(sheet_text(s))) == s`` for every ``s``, with
        ``dropped`` removing a leading ``'``. Raises nothing.
    """
    if len(cell) > 1 and cell[0] == "'" and cell[1] in FORMULA_STARTS:
        cell = cell[1:]
    return unescaped_text(cell)


def text_digest(text: str) -> str:
    """The SHA-256 of ``text``'s UTF-8 bytes (a lone surrogate as ``surrogatepass`` writes it), 64 lower-case hex
    digits: what a review key and a judge ratings file record of the prediction each item was scored or rated on,
    so that a sheet or ratings file of other predictions is refused. Raises nothing for a ``str``."""
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def texts_digest(texts) -> str:
    """`text_digest` of a list of texts written as one JSON array (``json.dumps(list(texts), ensure_ascii=False)``):
    what a judge ratings file records of an item's references, and the judge's signature of its source texts
    (their order and count included). Raises nothing for a sequence of ``str``."""
    import json

    return text_digest(json.dumps(list(texts), ensure_ascii=False))
