"""Texts written as JSON string literals (`zheval.io.json_strings` has the rule), said once per file read: the lines
of a plain text file (``"\\u4eca..."``, or ``"今天..."`` when half of them are so) and a string of a row (JSON Lines,
CSV, TSV, Parquet) that is itself JSON-encoded (``json.dumps`` twice: ``"label": "\\"\\\\u4eca...\\""``, or with
``ensure_ascii=False`` ``"label": "\\"今天...\\""``, no escape: counted when at least half of the field's texts are
so, `JsonFields`). Each is scored as written; one `JsonStringWarning` per file names the count and the first
``FILE:line`` (and the field, or the line).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from typing import Optional

from ..compute.guards import ZhevalWarning
from ..io import json_escaped, json_string, quoted_counted

__all__ = ["JsonStringWarning", "warn_json_lines", "JsonFields", "PREDICTIONS_INSTEAD"]

PREDICTIONS_INSTEAD = ("or a JSONL file with a prediction field ({\"id\": ..., \"prediction\": ...}; "
                       "--predictions-format jsonl); if the lines really are texts in quotes, pass "
                       "--predictions-format text (format='text')")
"""What a 小黄鸭 predictions file whose lines are all JSON strings may be instead (`zheval.io.json_strings`)."""


class JsonStringWarning(ZhevalWarning):
    """Texts of a file that are JSON string literals (``"\\u4eca\\u5929"``; ``"今天"`` when at least half of the
    file's texts, or of the field's, are literals: `zheval.io.json_strings`): each is scored as written, quotes and
    escapes included; one warning per file read."""

    #: Its message may quote the file's field names: only its field arguments are written as options.
    field_words = True


def warn_json_lines(text: Optional[str], stacklevel: int = 3) -> None:
    """One `JsonStringWarning` of a text file with ``text`` (`zheval.io.json_strings.json_string_check`'s warning);
    nothing when it is ``None``. ``stacklevel``: as `warnings.warn`'s, counted from the caller."""
    if text is not None:
        warnings.warn(text, JsonStringWarning, stacklevel=stacklevel)


def _field_key(name: str) -> str:
    """The field of a value's name as `JsonFields.add` is given it: ``'label'`` → ``label``; an entry of a list
    keeps its position, ``responses[2]`` (each position is a field of its own: a pipeline that encoded the first
    reference of every item twice is counted though the other positions are not)."""
    return name[1:-1] if len(name) >= 2 and name[0] == name[-1] == "'" else name


@dataclass
class JsonFields:
    """String values of a file's rows (JSON Lines, CSV, TSV, Parquet) that are themselves JSON string literals
    (written with ``json.dumps`` twice), counted per field by the rule of `zheval.io.json_strings`: those with an
    escape always, those without one (``"\\"今天\\""`` from ``ensure_ascii=False``) when the field's JSON string
    literals are at least two and at least half of its non-blank values (`zheval.io.json_strings.quoted_counted`;
    a quoted answer among raw ones is not counted). Added row by row (`add`), merged chunk by chunk (`merge`), said
    once per file (`warn`); ``count``, ``rows`` and ``first`` (``(line, field)``, ``None``: none) are those counted.

    ``fields``: per field, ``[non-blank values, JSON string literals, with an escape, first literal, first escaped]``
    (each first ``(line, position in the row, name)``); ``escaped_rows``: the rows with an escaped literal;
    ``quoted_rows``: the other rows with literals, ``{frozenset of their fields: [rows, first]}``."""

    fields: dict = field(default_factory=dict)
    escaped_rows: int = 0
    quoted_rows: dict = field(default_factory=dict)
    _keys: dict = field(default_factory=dict, repr=False, compare=False)

    def add(self, line: int, values, names) -> None:
        """Count the values of the row at ``line`` (``names``: each one's field, ``'label'``, ``responses[1]``):
        every non-blank string, and those that are JSON string literals (`zheval.io.json_strings.json_string`)."""
        escaped, quoted, first = False, set(), None
        for pos, (v, n) in enumerate(zip(values, names)):
            if not isinstance(v, str) or not v or v.isspace():
                continue
            key = self._keys.get(n)
            if key is None:
                key = self._keys[n] = _field_key(n)
            c = self.fields.get(key)
            if c is None:
                c = self.fields[key] = [0, 0, 0, None, None]
            c[0] += 1
            if (v[0] != '"' and not v[0].isspace()) or json_string(v) is None:
                continue
            where = (line, pos, n)
            c[1] += 1
            c[3] = c[3] or where
            first = first or where
            quoted.add(key)
            if json_escaped(v):
                c[2] += 1
                c[4] = c[4] or where
                escaped = True
        if escaped:
            self.escaped_rows += 1
        elif quoted:
            r = self.quoted_rows.setdefault(frozenset(quoted), [0, None])
            r[0] += 1
            r[1] = r[1] or first

    def merge(self, other: "JsonFields") -> None:
        """Add the counts of a later part of the same file (a chunk of ``--stream``)."""
        for key, o in other.fields.items():
            c = self.fields.setdefault(key, [0, 0, 0, None, None])
            c[0], c[1], c[2] = c[0] + o[0], c[1] + o[1], c[2] + o[2]
            c[3], c[4] = c[3] or o[3], c[4] or o[4]
        self.escaped_rows += other.escaped_rows
        for keys, o in other.quoted_rows.items():
            r = self.quoted_rows.setdefault(keys, [0, None])
            r[0], r[1] = r[0] + o[0], r[1] or o[1]

    @property
    def quoted_fields(self) -> list:
        """The fields whose JSON string literals without an escape are counted too
        (`zheval.io.json_strings.quoted_counted`), in the order first seen."""
        return [k for k, c in self.fields.items() if quoted_counted(c[1], c[0])]

    @property
    def count(self) -> int:
        """The values counted: every one with an escape, and the others of `quoted_fields`."""
        quoted = set(self.quoted_fields)
        return sum(c[1] if k in quoted else c[2] for k, c in self.fields.items())

    @property
    def rows(self) -> int:
        """The rows with a value counted."""
        quoted = set(self.quoted_fields)
        return self.escaped_rows + sum(r[0] for keys, r in self.quoted_rows.items() if keys & quoted)

    @property
    def first(self) -> Optional[tuple]:
        """``(line, field name)`` of the first value counted, ``None`` when none is."""
        quoted = set(self.quoted_fields)
        found = [c[3] if k in quoted else c[4] for k, c in self.fields.items()]
        found = [w for w in found if w is not None]
        return min(found)[::2] if found else None

    def warn(self, source: str, stacklevel: int = 3) -> None:
        """One `JsonStringWarning` for the file ``source`` when any value is counted (the count, the rows, the first
        ``FILE:line`` and field; with `quoted_fields`, each one's share); nothing otherwise."""
        count = self.count
        if not count:
            return
        line, name = self.first
        quoted = self.quoted_fields
        escaped = sum(c[2] for c in self.fields.values())
        if count == escaped:  # every one counted has an escape: almost never a real text
            what, why, own = "with escapes", "", ""
        else:
            shares = ", ".join(f"{k!r} {self.fields[k][1]} of {self.fields[k][0]} texts" for k in quoted)
            what = f"(\"...\"), {escaped or 'none'} with escapes"
            why = f" literals: {shares}"
            own = "; if the quotes are the texts' own (answers in quotes), nothing is wrong"
        warnings.warn(f"{source}: {count} text(s) in {self.rows} row(s) are themselves JSON string literals {what} "
                      f"(first at {source}:{line}, {name}; json.dumps applied twice?{why}): each is scored as written, "
                      f"quotes and escapes included; write the text itself as the JSON string (json.dumps once){own}",
                      JsonStringWarning, stacklevel=stacklevel)
