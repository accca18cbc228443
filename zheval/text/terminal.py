"""Text from data made safe for a terminal or a log: THE escaping function every printing place calls.

Model output, references, queries, ids and group values are data. Printed raw, a prediction holding
``ESC ] 0 ; … BEL`` sets the window title, ``ESC [ 2 J`` clears the screen, ``\\x9b`` (the 8-bit CSI) starts a
control sequence on terminals that honour C1 controls, ``\\r`` overwrites the line, and the Unicode bidi controls
reorder what is displayed (Trojan Source, CVE-2021-42574). Neither click (it strips 7-bit CSI only, and only when
not writing to a TTY) nor rich (it strips BEL BS VT FF CR only) neutralises them.

Rule (`terminal_text`): `zheval.text.controls.visible_controls` — the rule the HTML report applies
too (C0/C1 controls but ``\\n``/``\\t``, the bidi controls, the line separators and the invisible format
characters such as U+200B and U+FEFF, shown as ``\\x1b``, ``\\u202e``, ``\\u200b``; with
``one_line=True`` also ``\\n`` and ``\\t``; everything else kept; idempotent).

JSON keeps the text exact (`terminal_json`): the same characters become JSON ``\\uXXXX`` escapes, which a
JSON parser turns back into the very same string. Files other than the human-readable table and Markdown reports
(JSON, the review key) hold the text exactly; the HTML report shows it by `visible_controls`, as here, and the review
sheet by `zheval.text.controls.escaped_text` (the same escapes, and every backslash doubled: one-to-one).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .controls import (BIDI_CONTROLS, CONTROL_PATTERN, INVISIBLE_FORMAT, LINE_SEPARATORS, TAG_CHARACTERS, escaped_text, sheet_plain, sheet_text,
                       text_digest, texts_digest, unescaped_text, visible_controls)

__all__ = ["BIDI_CONTROLS", "CONTROL_PATTERN", "escaped_text", "markdown_text", "terminal_text", "terminal_json",
           "without_invisible",
           "visible_controls", "unescaped_text", "sheet_text", "sheet_plain",
           "text_digest", "texts_digest"]  # the rule, for the HTML page too; the sheet's inverse; the spreadsheet cells' guard

_JSON_UNSAFE = re.compile("[\x7f-\x9f" + BIDI_CONTROLS + LINE_SEPARATORS + INVISIBLE_FORMAT + TAG_CHARACTERS
                          + "]")  # json.dumps escapes C0 itself


def terminal_text(text: Any, *, one_line: bool = False) -> str:
    """``text`` with every control character shown as a visible escape (module docstring), for a terminal or log.

    The rule is `zheval.text.controls.visible_controls`, the one the HTML report applies too.

    Args:
        text: a ``str`` (anything else is converted with ``str()`` first).
        one_line: also escape ``\\n`` and ``\\t`` (for a table cell, a title, a single-line message).

    Returns:
        A ``str`` with no C0/C1 control character other than ``\\n``/``\\t`` (none at all with ``one_line``) and no
        bidi control; idempotent. Raises nothing.

    Follows the "safe rendering" of git's ``core.quotePath`` and rustc's bidi lint (``../shared/ECOSYSTEM.md`` 12).
    """
    return visible_controls(text, one_line=one_line)


def without_invisible(text: str) -> str:
    """``text`` without its invisible characters (`zheval.text.normalize.remove_invisible`: every default-ignorable
    code point -- those `terminal_text` shows as escapes and those it keeps, ZWJ, ZWNJ, variation selectors --,
    U+2800, U+FFF9-U+FFFB): what two ids that print alike but for such characters share (the id hints of
    `zheval.adapters.duck.mismatch`). Raises nothing for a ``str``."""
    from .normalize import remove_invisible

    return remove_invisible(text)


#: The ASCII punctuation that starts or ends inline Markdown (CommonMark 0.31 §2.4: each is backslash-escapable):
#: the backslash itself, code spans, emphasis, links/images, GFM strikethrough; ``|`` ends a GFM table cell.
_MD_INLINE = re.compile(r"([\\`*_\[~|])")
#: What makes one line of a list item a block of its own (CommonMark §4.2 ATX headings, §5.2 list items): a leading
#: run of ``#``, a ``-`` or ``+``, or digits and ``.`` or ``)``, followed by a space or the end.
_MD_BLOCK_START = re.compile(r"^(#{1,6}|[-+]|\d{1,9}(?=[.)]))(?=[.)]?( |$))")


def markdown_text(text: Any) -> str:
    """``text`` made safe for one line or table cell of a Markdown report: THE Markdown escaping of every command
    (``score``, ``compare``, ``explain`` … ``--format markdown`` and ``agree``'s three-layer Markdown).

    `terminal_text` with ``one_line=True``, then ``&``, ``<``, ``>`` as the HTML entities ``&amp;``, ``&lt;``,
    ``&gt;`` (a Markdown renderer passes raw HTML through: an id ``<script>…`` or a group value
    ``<img onerror=…>`` would run in the rendered page), a backslash before each of ``\\ ` * _ [ ~ |``
    (CommonMark's backslash escapes: a group value ``*x*`` rendered in italics, ``a_b_`` or ``[x](y)`` as a link;
    ``|`` would end the table cell), a backslash before a leading ``#`` run, ``-``, ``+`` or the ``.``/``)``
    after leading digits when a space follows (the start of a heading or a list inside a list item), and leading
    or trailing spaces as ``&#32;`` (a table cell is stripped of them). The escapes `terminal_text` shows
    (``\\x1b``) therefore read ``\\\\x1b`` in the Markdown source and ``\\x1b`` rendered.

    Args:
        text: a ``str`` (anything else is converted with ``str()`` first).

    Returns:
        A ``str`` with no control character, no raw ``<``, ``>``, unescaped ``&`` or inline Markdown punctuation;
        rendered by a CommonMark/GFM renderer, as a table cell or a list item's text, it shows exactly
        `terminal_text` ``(text, one_line=True)``. Not idempotent (``&amp;`` becomes ``&amp;amp;``). Raises nothing.
    """
    s = terminal_text(text, one_line=True)
    s = _MD_INLINE.sub(r"\\\1", s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
    m = _MD_BLOCK_START.match(s)
    if m:
        s = (s[:m.end()] + "\\" + s[m.end():]) if m.group(1)[0].isdigit() else "\\" + s
    core = s.strip(" ")
    if not core:
        return "&#32;" * len(s)
    lead = len(s) - len(s.lstrip(" "))
    trail = len(s) - len(s.rstrip(" "))
    return "&#32;" * lead + core + "&#32;" * trail


def terminal_json(obj: Any, *, indent: int | None = None) -> str:
    """``json.dumps(obj, ensure_ascii=False, indent=indent)`` with DEL, the C1 controls, the bidi controls, the line
    separators and the invisible format and tag characters (`zheval.text.controls.INVISIBLE_FORMAT`, U+200B,
    U+FEFF …) also written as ``\\uXXXX`` escapes (json.dumps escapes C0 itself): nothing in it can drive a terminal, and
    ``json.loads`` of it gives back exactly ``obj``'s strings.

    Args:
        obj: anything `json.dumps` accepts; indent: as `json.dumps`.

    Raises:
        TypeError, ValueError: as `json.dumps`.
    """
    s = json.dumps(obj, ensure_ascii=False, indent=indent)
    if _JSON_UNSAFE.search(s) is None:
        return s
    return _JSON_UNSAFE.sub(_json_escape, s)


def _json_escape(m: re.Match) -> str:
    """One character as JSON writes it escaped: ``\\uXXXX``, a surrogate pair beyond the BMP (a tag character)."""
    o = ord(m.group(0))
    if o < 0x10000:
        return f"\\u{o:04x}"
    o -= 0x10000
    return f"\\u{0xd800 + (o >> 10):04x}\\u{0xdc00 + (o & 0x3ff):04x}"
