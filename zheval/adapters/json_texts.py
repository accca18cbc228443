"""Texts written as JSON string literals (`zheval.io.json_strings` has the rule), said once per file read: the lines
of a plain text file (some of them ``"\\u4eca..."``) and a string field of a JSON Lines row that is itself JSON-encoded
(``json.dumps`` twice: ``"label": "\\"\\\\u4eca...\\""``). Each is scored as written; one `JsonStringWarning` per
file names the count and the first ``FILE:line`` (and the field).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Optional

from ..compute.guards import ZhevalWarning
from ..io import json_escaped

__all__ = ["JsonStringWarning", "warn_json_lines", "JsonFields", "PREDICTIONS_INSTEAD"]

PREDICTIONS_INSTEAD = ("or a JSONL file with a prediction field ({\"id\": ..., \"prediction\": ...}; "
                       "--predictions-format jsonl); if the lines really are texts in quotes, pass "
                       "--predictions-format text (format='text')")
"""What a 小黄鸭 predictions file whose lines are all JSON strings may be instead (`zheval.io.json_strings`)."""


class JsonStringWarning(ZhevalWarning):
    """Texts of a file that are JSON string literals with escapes (``"\\u4eca\\u5929"``): each is scored as written,
    quotes and escapes included; one warning per file read."""

    #: Its message may quote the file's field names: only its field arguments are written as options.
    field_words = True


def warn_json_lines(text: Optional[str], stacklevel: int = 3) -> None:
    """One `JsonStringWarning` of a text file with ``text`` (`zheval.io.json_strings.json_string_check`'s warning);
    nothing when it is ``None``. ``stacklevel``: as `warnings.warn`'s, counted from the caller."""
    if text is not None:
        warnings.warn(text, JsonStringWarning, stacklevel=stacklevel)


@dataclass
class JsonFields:
    """String fields of a JSON Lines file's rows that are themselves JSON string literals with an escape (written
    with ``json.dumps`` twice): ``count`` of them in ``rows`` rows, the first at line ``first[0]`` in the field
    ``first[1]`` (``None``: none yet)."""

    count: int = 0
    rows: int = 0
    first: Optional[tuple] = None

    def add(self, line: int, values, names) -> None:
        """Count the values of the row at ``line`` (``names``: each one's field) that are JSON-encoded texts."""
        found = [n for v, n in zip(values, names) if isinstance(v, str) and v[:1] == '"' and json_escaped(v)]
        if found:
            self.count += len(found)
            self.rows += 1
            self.first = self.first or (line, found[0])

    def merge(self, other: "JsonFields") -> None:
        """Add the counts of a later part of the same file (a chunk of ``--stream``)."""
        self.count += other.count
        self.rows += other.rows
        self.first = self.first or other.first

    def warn(self, source: str, stacklevel: int = 3) -> None:
        """One `JsonStringWarning` for the file ``source`` when any value was counted; nothing otherwise."""
        if self.count:
            line, field = self.first
            warnings.warn(f"{source}: {self.count} text(s) in {self.rows} row(s) are themselves JSON string literals "
                          f"with escapes (first at {source}:{line}, {field}; json.dumps applied twice?): each is "
                          f"scored as written, quotes and escapes included; write the text itself as the JSON string "
                          f"(json.dumps once)", JsonStringWarning, stacklevel=stacklevel)
