"""The one rule for texts written as JSON string literals, as ``print(json.dumps(text))`` writes them:
``"\\u4eca\\u5929..."`` (``ensure_ascii=True``) or ``"今天..."`` (``ensure_ascii=False``: no escape at all for most
Chinese texts). Read as text, the quotes and escapes would be scored as part of each text (BLEU near 0 for ``\\uXXXX``
escapes, ROUGE-1 down by the two quote tokens of each text, and an empty text becomes ``""``, which is no longer
empty).

A text is a JSON string literal (`json_string`) when, spaces around it aside, it starts and ends with an ASCII ``"``
and ``json.loads`` reads it as a string. `JsonStringLines` counts them in a plain text file's ``(line, text)`` pairs:

* when **every** non-blank line is one, with at least two such lines or a JSON escape in one (`refused`), the file
  is refused at its first line (`json_strings_message`), with what to write instead; a one-line file ``"好的"`` is
  quoted speech as likely as JSON, and is read as text;
* otherwise the JSON string literals are counted and said in one warning for the file (`json_escapes_message`, a
  warning of the reading door naming the count, the first ``FILE:line`` and that line, cut and terminal-safe:
  `shown_text`; `json_string_check` gives both), each scored as written:

  * those **with an escape** (``\\uXXXX``, ``\\n``, ``\\t``, ``\\r``, ``\\"``, ``\\\\``: `json_escaped`), almost never
    real text, always;
  * those **without one** (``"今天天气很好"``) only when the file's JSON string literals are at least two and at
    least `QUOTED_SHARE` (half) of its non-blank texts (`quoted_counted`): texts JSON-encoded by a script are all of
    them or most. A ``"好的"`` among texts written raw is quoted speech (a model answering in quotes), text like any
    other, and is not counted; when half the texts or more are in quotes, the warning says they may be either.

The same rule is that of every door that reads texts from a file, one text file's lines or one field's values: the
plain-text doors here (the 小黄鸭 predictions read as text, `zheval.adapters.duck.predictions`; the text files of
``zheval bleu``/``rouge``/``chrf``/``bertscore``, `zheval.cli.textfiles`), and a string of a row (JSON Lines, CSV,
TSV, Parquet) that is itself a JSON string literal (``json.dumps`` applied twice), counted per field
(`zheval.adapters.json_texts.JsonFields`: the predictions and references of the records door, whole and
``--stream``; the predictions of ``--data`` in every format; the ``responses`` of 小黄鸭 data).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Optional

__all__ = ["json_string", "json_escaped", "JsonStringLines", "json_strings_message", "json_escapes_message",
           "json_string_check", "QUOTED_SHARE", "quoted_counted", "shown_text"]

_ESCAPE = re.compile(r'\\(?:u[0-9a-fA-F]{4}|[ntr"\\])')

QUOTED_SHARE = 0.5
"""The share of a file's non-blank texts (one text file's lines, one field's values) that must be JSON string
literals for those without an escape to be counted too (`quoted_counted`)."""

_SHOWN = 40  # characters of a text quoted in a warning (`shown_text`)


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


def quoted_counted(strings: int, total: int) -> bool:
    """Whether the JSON string literals *without* an escape of one text file (or of one field of a file's rows) are
    counted (module docstring): ``strings`` JSON string literals (with an escape or without) among ``total``
    non-blank texts, at least two and at least `QUOTED_SHARE` of ``total``. Raises nothing.

    Example: ``quoted_counted(85, 85)`` → ``True``; ``quoted_counted(1, 85)`` (one quoted answer) → ``False``."""
    return strings >= 2 and strings >= QUOTED_SHARE * total


def shown_text(text: str) -> str:
    """``text`` as a warning quotes it: its first 40 characters (then ``…`` when cut), every control character a
    visible escape (`zheval.text.controls.visible_controls`, one line: ``\\n`` too). Raises nothing."""
    from ..text.controls import visible_controls

    cut = text if len(text) <= _SHOWN else text[:_SHOWN] + "…"
    return visible_controls(cut, one_line=True)


@dataclass
class JsonStringLines:
    """The lines of one text file that are JSON string literals: ``nonblank`` lines, ``strings`` of them JSON string
    literals (the first at line ``first``, ``first_text``), ``escaped`` of those with an escape (the first at
    ``first_escaped``, ``first_escaped_text``)."""

    nonblank: int = 0
    strings: int = 0
    first: Optional[int] = None
    escaped: int = 0
    first_escaped: Optional[int] = None
    first_text: str = ""
    first_escaped_text: str = ""

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
            if out.first is None:
                out.first, out.first_text = lineno, text
            if _ESCAPE.search(text):
                out.escaped += 1
                if out.first_escaped is None:
                    out.first_escaped, out.first_escaped_text = lineno, text
        return out

    @property
    def refused(self) -> bool:
        """Every non-blank line is a JSON string literal, two lines or more, or one with an escape."""
        return bool(self.nonblank) and self.strings == self.nonblank and (self.strings > 1 or self.escaped > 0)

    @property
    def quoted(self) -> bool:
        """The JSON string literals without an escape are counted too (`quoted_counted`: the JSON string literals
        are at least two and at least half of the non-blank lines)."""
        return quoted_counted(self.strings, self.nonblank)

    @property
    def counted(self) -> int:
        """How many lines the rule counts (module docstring): every JSON string literal when `quoted`, else those
        with an escape."""
        return self.strings if self.quoted else self.escaped

    @property
    def warned(self) -> bool:
        """Some lines are counted (`counted`), and the file is not `refused`."""
        return self.counted > 0 and not self.refused


def json_strings_message(found: JsonStringLines, instead: str) -> str:
    """The problem of a file whose lines are all JSON string literals (`JsonStringLines.refused`), said at its first
    line; ``instead``: what the door also accepts (a JSONL file with a field, an option)."""
    return (f"every non-blank line ({found.nonblank}) is a JSON string literal (\"...\" as print(json.dumps(text)) "
            f"writes it): read as text, its quotes and escapes would be scored as part of each text (and an empty "
            f"text would be \"\", not empty); write the texts themselves, one per line (print(text), or json.loads of "
            f"each line), {instead}")


def json_escapes_message(found: JsonStringLines, name: str) -> str:
    """The warning of a file read as text with lines that are JSON string literals: all of them (a file `refused`
    but read as text on request), or those `JsonStringLines.counted` (`JsonStringLines.warned`); the count, the
    first ``FILE:line`` counted and that line (`shown_text`: cut, control characters escaped)."""
    if found.refused:
        return (f"{name}: every non-blank line ({found.nonblank}) is a JSON string literal (first at "
                f"{name}:{found.first}: {shown_text(found.first_text)}): read as text as asked, each is scored as "
                f"written, quotes and escapes included; write the texts themselves (json.loads of each line) to "
                f"score the texts")
    if found.counted == found.escaped:  # every one counted has an escape: almost never a real text
        return (f"{name}: {found.escaped} of {found.nonblank} non-blank line(s) are JSON string literals with "
                f"escapes (first at {name}:{found.first_escaped}: {shown_text(found.first_escaped_text)}): each is "
                f"scored as written, quotes and escapes included; if they are JSON-encoded texts, write the texts "
                f"themselves (json.loads of each line)")
    return (f"{name}: {found.strings} of {found.nonblank} non-blank line(s) are JSON string literals, "
            f"{found.escaped} with escapes (first at {name}:{found.first}: {shown_text(found.first_text)}): each is "
            f"scored as written, quotes and escapes included; if they are JSON-encoded texts "
            f"(json.dumps(text, ensure_ascii=False) writes most without an escape), write the texts themselves "
            f"(json.loads of each line); if the quotes are the texts' own (quoted speech), nothing is wrong")


def json_string_check(name: str, lines, instead: str, refuse: bool = True) -> tuple:
    """``(problem, warning)`` of a text file's ``(1-based line, text)`` pairs by the rule of the module docstring:
    a `zheval.io.problems.Problem` at the first line when every non-blank line is a JSON string literal and
    ``refuse`` (``instead``: `json_strings_message`'s), else ``None``; the text of the file's one warning
    (`json_escapes_message`: the lines `JsonStringLines.counted`, or all of them when not ``refuse``), else
    ``None``."""
    from .problems import Problem

    found = JsonStringLines.count(lines)
    if found.refused and refuse:
        return Problem(name, found.first, None, json_strings_message(found, instead)), None
    return None, (json_escapes_message(found, name) if found.refused or found.counted else None)
