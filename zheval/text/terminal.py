"""Text from data made safe for a terminal or a log: THE escaping function every printing place calls.

Model output, references, queries, ids and group values are data. Printed raw, a prediction holding
``ESC ] 0 ; … BEL`` sets the window title, ``ESC [ 2 J`` clears the screen, ``\\x9b`` (the 8-bit CSI) starts a
control sequence on terminals that honour C1 controls, ``\\r`` overwrites the line, and the Unicode bidi controls
reorder what is displayed (Trojan Source, CVE-2021-42574). Neither click (it strips 7-bit CSI only, and only when
not writing to a TTY) nor rich (it strips BEL BS VT FF CR only) neutralises them.

Rule (`terminal_text`): every character of Unicode category ``Cc`` — C0 U+0000–U+001F, DEL U+007F and C1
U+0080–U+009F — except ``\\n`` and ``\\t``, and the nine bidi embedding / override / isolate controls U+202A–U+202E
and U+2066–U+2069 (rustc's ``TEXT_FLOW_CONTROL_CHARS``), are shown as visible escapes: ``\\x1b``, ``\\x07``,
``\\x9b``, ``\\r``, ``\\u202e``. With ``one_line=True`` (a table cell) ``\\n`` and ``\\t`` are escaped too. Everything
else is kept as it is: Han characters, full-width punctuation, U+3000, emoji, ZWJ. Backslashes are kept, so a
literal ``\\x1b`` (four characters) and an escaped ESC look alike: the output is for reading, never for parsing.
Once escaped, a text has no control character left, so escaping twice changes nothing.

JSON keeps the text exact (`terminal_json`): the same characters become JSON ``\\uXXXX`` escapes, which a
JSON parser turns back into the very same string. Files other than the human-readable table and Markdown reports
(JSON, the review sheet and key, HTML escaped by jinja2) hold the text exactly.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["BIDI_CONTROLS", "terminal_text", "terminal_json"]

BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""The nine bidi embedding, override and isolate controls (LRE RLE PDF LRO RLO, LRI RLI FSI PDI)."""

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f" + BIDI_CONTROLS + "]")
_UNSAFE_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f" + BIDI_CONTROLS + "]")
_JSON_UNSAFE = re.compile("[\x7f-\x9f" + BIDI_CONTROLS + "]")  # json.dumps escapes C0 itself
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(m: re.Match) -> str:
    c = m.group(0)
    named = _NAMED.get(c)
    if named is not None:
        return named
    o = ord(c)
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}"


def terminal_text(text: Any, *, one_line: bool = False) -> str:
    """``text`` with every control character shown as a visible escape (module docstring), for a terminal or log.

    Args:
        text: a ``str`` (anything else is converted with ``str()`` first).
        one_line: also escape ``\\n`` and ``\\t`` (for a table cell, a title, a single-line message).

    Returns:
        A ``str`` with no C0/C1 control character other than ``\\n``/``\\t`` (none at all with ``one_line``) and no
        bidi control; idempotent. Raises nothing.

    Follows the "safe rendering" of git's ``core.quotePath`` and rustc's bidi lint (``../shared/ECOSYSTEM.md`` 12).
    """
    s = text if isinstance(text, str) else str(text)
    pattern = _UNSAFE_ONE_LINE if one_line else _UNSAFE
    if pattern.search(s) is None:
        return s
    return pattern.sub(_escape, s)


def terminal_json(obj: Any, *, indent: int | None = None) -> str:
    """``json.dumps(obj, ensure_ascii=False, indent=indent)`` with DEL, the C1 controls and the bidi controls also
    written as ``\\uXXXX`` escapes (json.dumps escapes C0 itself): nothing in it can drive a terminal, and
    ``json.loads`` of it gives back exactly ``obj``'s strings.

    Args:
        obj: anything `json.dumps` accepts; indent: as `json.dumps`.

    Raises:
        TypeError, ValueError: as `json.dumps`.
    """
    s = json.dumps(obj, ensure_ascii=False, indent=indent)
    if _JSON_UNSAFE.search(s) is None:
        return s
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", s)
