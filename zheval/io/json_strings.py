"""The one rule for the lines of a plain text file (one text per line) written as JSON string literals, as
``print(json.dumps(text))`` writes them: ``"\\u4eca\\u5929..."`` (``ensure_ascii=True``) or ``"今天..."``. Read as text,
the quotes and escapes would be scored as part of each text (BLEU near 0 for ``\\uXXXX`` escapes, and an empty text
becomes ``""``, which is no longer empty).

A line is a JSON string literal (`json_string`) when, spaces around it aside, it starts and ends with an ASCII ``"``
and ``json.loads`` reads it as a string. `JsonStringLines` counts them in a file's ``(line, text)`` pairs:

* when **every** non-blank line is one, with at least two such lines or a JSON escape in one (`refused`), the file
  is refused at its first line (`json_strings_message`), with what to write instead; a one-line file ``"好的"`` is
  quoted speech as likely as JSON, and is read as text;
* otherwise the lines that are JSON string literals **with an escape** (``\\uXXXX``, ``\\n``, ``\\t``, ``\\r``,
  ``\\"``, ``\\\\``: `json_escaped`), almost never real text, are counted and said once for the file
  (`json_escapes_message`, a warning of the reading door; `json_string_check` gives both). A line ``"好的"`` without an escape is quoted speech,
  text like any other.

Used by the plain-text doors: the 小黄鸭 predictions read as text (`zheval.adapters.duck.predictions`) and the
text files of ``zheval bleu``/``rouge``/``chrf``/``bertscore`` (`zheval.cli.textfiles`). A string field of a JSON
Lines row that is itself a JSON string literal with an escape (written with ``json.dumps`` twice) is said by the same
rule (`json_escaped`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Optional

__all__ = ["json_string", "json_escaped", "JsonStringLines", "json_strings_message", "json_escapes_message",
           "json_string_check"]

_ESCAPE = re.compile(r'\\(?:u[0-9a-fA-F]{4}|[ntr"\\])')


def json_string(text) -> Optional[str]:
    """The text ``text`` holds when it is a JSON string literal (module docstring), else ``None``.

    Example: ``json_string('"\\\\u4eca"')`` → ``'今'``; ``json_string('好的')`` → ``None``."""
    if not isinstance(text, str):
        return None
    s = text.strip()
    if len(s) < 2 or s[0] != '"' or s[-1] != '"':
        return None
    try:
        value = json.loads(s)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, str) else None


def json_escaped(text) -> bool:
    """Whether ``text`` is a JSON string literal holding a JSON escape (``\\uXXXX``, ``\\n``, ``\\"`` …): almost never
    a real text."""
    return json_string(text) is not None and _ESCAPE.search(text) is not None


@dataclass
class JsonStringLines:
    """The lines of one text file that are JSON string literals: ``nonblank`` lines, ``strings`` of them JSON string
    literals (the first at line ``first``), ``escaped`` of those with an escape (the first at ``first_escaped``)."""

    nonblank: int = 0
    strings: int = 0
    first: Optional[int] = None
    escaped: int = 0
    first_escaped: Optional[int] = None

    @classmethod
    def count(cls, lines) -> "JsonStringLines":
        """The counts of ``(1-based line, text)`` pairs (blank lines are not counted)."""
        out = cls()
        for lineno, text in lines:
            if not text.strip():
                continue
            out.nonblank += 1
            if json_string(text) is None:
                continue
            out.strings += 1
            out.first = out.first or lineno
            if _ESCAPE.search(text):
                out.escaped += 1
                out.first_escaped = out.first_escaped or lineno
        return out

    @property
    def refused(self) -> bool:
        """Every non-blank line is a JSON string literal, two lines or more, or one with an escape."""
        return bool(self.nonblank) and self.strings == self.nonblank and (self.strings > 1 or self.escaped > 0)

    @property
    def warned(self) -> bool:
        """Some lines are JSON string literals with an escape, and the file is not `refused`."""
        return self.escaped > 0 and not self.refused


def json_strings_message(found: JsonStringLines, instead: str) -> str:
    """The problem of a file whose lines are all JSON string literals (`JsonStringLines.refused`), said at its first
    line; ``instead``: what the door also accepts (a JSONL file with a field, an option)."""
    return (f"every non-blank line ({found.nonblank}) is a JSON string literal (\"...\" as print(json.dumps(text)) "
            f"writes it): read as text, its quotes and escapes would be scored as part of each text (and an empty "
            f"text would be \"\", not empty); write the texts themselves, one per line (print(text), or json.loads of "
            f"each line), {instead}")


def json_escapes_message(found: JsonStringLines, name: str) -> str:
    """The warning of a file read as text with lines that are JSON string literals: all of them (a file `refused`
    but read as text on request), or some with an escape (`JsonStringLines.warned`); the count and the first
    ``FILE:line``."""
    if found.refused:
        return (f"{name}: every non-blank line ({found.nonblank}) is a JSON string literal (first at "
                f"{name}:{found.first}): read as text as asked, each is scored as written, quotes and escapes "
                f"included; write the texts themselves (json.loads of each line) to score the texts")
    return (f"{name}: {found.escaped} of {found.nonblank} non-blank line(s) are JSON string literals with escapes "
            f"(first at {name}:{found.first_escaped}, e.g. \"\\u4eca\"): each is scored as written, quotes and "
            f"escapes included; if they are JSON-encoded texts, write the texts themselves (json.loads of each line)")


def json_string_check(name: str, lines, instead: str, refuse: bool = True) -> tuple:
    """``(problem, warning)`` of a text file's ``(1-based line, text)`` pairs by the rule of the module docstring:
    a `zheval.io.problems.Problem` at the first line when every non-blank line is a JSON string literal and
    ``refuse`` (``instead``: `json_strings_message`'s), else ``None``; the text of the file's one warning
    (`json_escapes_message`: some lines with an escape, or all of them when not ``refuse``), else ``None``."""
    from .problems import Problem

    found = JsonStringLines.count(lines)
    if found.refused and refuse:
        return Problem(name, found.first, None, json_strings_message(found, instead)), None
    return None, (json_escapes_message(found, name) if found.refused or found.escaped else None)
