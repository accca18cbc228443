"""The one line rule of every line-based input (plain text, JSONL, TSV, CSV): lines end at ``\\n`` (LF); a ``\\r``
before it (CRLF) is part of the line end; a final line end does not start another line; nothing else is a line end
(U+0085, U+2028, a lone ``\\r`` inside a line are text, as in sacrebleu, which opens files with ``newline="\\n"``;
CSV rows end at these line ends too, `zheval.io.table.csv_cells`).
A file whose lines end in ``\\r`` only (classic Mac OS) would be one line: it is refused
(`line_end_problem`), with or without a final ``\\n`` after the last of them.
"""

from __future__ import annotations

from .problems import Problem

__all__ = ["split_lines", "line_end_problem"]


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` without their line ends (``"a\\r\\nb\\n"`` → ``["a", "b"]``; ``""`` → ``[]``;
    ``"a\\n\\n"`` → ``["a", ""]``)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # a final line end
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def line_end_problem(text: str, name: str) -> Problem | None:
    """A problem for the whole file when its lines end in a lone ``\\r`` (no ``\\n`` but a final one, a ``\\r``
    before the last character of the line: ``"a\\rb\\r"`` and ``"a\\rb\\n"`` alike), else ``None``: read by the
    line rule it would be one line holding every row."""
    body = text[:-1] if text.endswith("\n") else text
    if "\n" in body or "\r" not in body.rstrip("\r"):
        return None
    n = body.rstrip("\r").count("\r") + 1
    return Problem(name, 0, None, f"its lines end in CR (\\r) only (classic Mac OS line ends): it would be read as "
                                  f"one line instead of {n}; re-save it with LF or CRLF line ends (e.g. "
                                  f"tr '\\r' '\\n' < {name} > {name}.lf)")
