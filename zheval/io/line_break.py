"""The one rule for a reference cell that holds a line break in a file: scored as written, never silently.

A reference read from a file as one string — a CSV/TSV cell, a JSONL or Parquet string of a reference field, not an
entry of a list of references — that holds a line break (`line_break`: ``\\n``, ``\\r`` (so ``\\r\\n``), NEL
U+0085, LINE SEPARATOR U+2028, PARAGRAPH SEPARATOR U+2029: Unicode's newline functions, UAX #13) is scored as
written: ONE reference, its lines and all (a reference answer may well run over several lines). But a cell with
several references one per line (a spreadsheet's habit, the references cell of ``zheval sample``'s review sheet)
is then scored as one long reference, and corpus BLEU drops to near zero. So the reader counts them and says so once
per file (`line_break_message`, a warning of the reading door), with the remedy when each line is meant as a
reference of its own (`LINE_BREAK_REMEDY`). Nothing is split: the numbers are those of the text as written.

A prediction is never checked: a model's answer over several lines is one answer. Each entry of a list of
references (a JSONL/Parquet array) is one reference by the file's own structure, whatever lines it has; so are texts
passed from Python (``compute_bleu``, ``compute_rouge``).
"""

from __future__ import annotations

__all__ = ["LINE_BREAKS", "LINE_BREAK_REMEDY", "line_break", "line_break_message"]

LINE_BREAKS = "\n\r\x85\u2028\u2029"
"""What counts as a line break in a reference cell: LF, CR (a CRLF holds both), NEL, LINE SEPARATOR, PARAGRAPH
SEPARATOR."""

LINE_BREAK_REMEDY = ("write each row's references as a list (a JSONL or Parquet array: [\"ref1\", \"ref2\"]), or one "
                     "column per reference (ref_field=[\"ref1\", \"ref2\"])")
"""What the warning tells the user to write when each line of a reference cell is meant as a reference of its own
(the command line writes ``ref_field=[...]`` as ``--ref-field ref1 --ref-field ref2``)."""


def line_break(text) -> bool:
    """Whether ``text`` is a string holding a line break (`LINE_BREAKS`). ``line_break("a\\nb")`` → ``True``."""
    return isinstance(text, str) and any(c in text for c in LINE_BREAKS)


def line_break_message(count: int, rows: int, source: str, line: int, field: str,
                       remedy: str = LINE_BREAK_REMEDY) -> str:
    """The one warning of a file with ``count`` reference cells in ``rows`` rows that hold a line break, the first
    at ``source:line`` in ``field`` (``'references'``, ``'label'``): each is scored as ONE reference, and
    ``remedy`` says what to write when each line is meant as a reference of its own."""
    return (f"{source}: {count} reference cell(s) in {rows} row(s) hold a line break (first at {source}:{line}, "
            f"{field}): each cell is scored as ONE reference, its lines included; if each line is meant as a "
            f"reference of its own, {remedy}")
