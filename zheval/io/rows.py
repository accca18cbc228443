"""Files of rows — JSONL, CSV, TSV, Parquet, each also gzip-compressed — read into ``(line, {field: value})``
rows by one function ([`read_rows`][zheval.io.rows.read_rows]), and plain text files into ``(line, text)`` pairs ([`read_lines`][zheval.io.rows.read_lines]),
with the one encoding rule (`zheval.io.encoding`), line rule (`zheval.io.lines`) and ``file:line``
problems ([`zheval.io.problems`][]).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional, Union

from .encoding import decode
from .jsonl import jsonl_rows
from .lines import line_end_problem, split_lines
from .problems import EMPTY_FILE, HEADER_ONLY, EmptyFileError, FileFormatError
from .source import format_suffix, read_bytes
from .table import csv_rows, parquet_rows, tsv_rows

__all__ = ["ROW_FORMATS", "row_format", "RowFile", "read_rows", "read_text", "read_lines"]

ROW_FORMATS = ("auto", "jsonl", "csv", "tsv", "parquet")
"""Values of ``format``: ``auto`` picks by the extension, ``.gz`` removed (``.csv``, ``.tsv``, ``.parquet``/``.pq``;
anything else, ``.jsonl``/``.json``/``.ndjson`` included, is JSONL)."""

_BY_SUFFIX = {".csv": "csv", ".tsv": "tsv", ".parquet": "parquet", ".pq": "parquet"}


def row_format(path: Union[str, os.PathLike], format: str = "auto") -> str:
    """The format a file of rows is read as: ``format`` itself, or for ``auto`` by the extension (see
    `ROW_FORMATS`).

    Raises:
        ValueError: an unknown ``format`` (the message lists `ROW_FORMATS`).
    """
    if format not in ROW_FORMATS:
        raise ValueError(f"unknown records format {format!r}; valid: {', '.join(ROW_FORMATS)}")
    if format != "auto":
        return format
    return _BY_SUFFIX.get(format_suffix(path), "jsonl")


@dataclass
class RowFile:
    """The rows of one file.

    Attributes:
        name: the path as given. kind: ``jsonl``, ``csv``, ``tsv`` or ``parquet``.
        rows: ``(line, {field: value})`` per row, in file order (line: the physical line where the row starts;
            Parquet: the 1-based row number). CSV/TSV values are strings; JSONL and Parquet values keep their types.
        fields: the field names of the file: the header (CSV/TSV), the schema (Parquet), the first row's keys
            (JSONL).
        header_line: the line of the header (CSV/TSV: the first line that is not empty); 0 for JSONL and Parquet,
            which have none.
    """

    name: str
    kind: str
    rows: list
    fields: list = field(default_factory=list)
    header_line: int = 0

    @property
    def where(self) -> str:
        """``"row"`` for Parquet (numbers count rows), else ``"line"``."""
        return "row" if self.kind == "parquet" else "line"


def read_text(path, what: str, problems: list, data: Optional[bytes] = None, lines: bool = True) -> Optional[str]:
    """The text of an input file (gzip undone, the encoding rule applied, and with ``lines`` the line rule's
    CR-only check), or ``None`` with the problems appended. Raises what `read_bytes`
    raises."""
    name = str(path)
    raw = read_bytes(path, what, problems, data=data)
    if raw is None:
        return None
    text = decode(raw, name, problems)
    if text is None:
        return None
    if lines:
        bad = line_end_problem(text, name)
        if bad is not None:
            problems.append(bad)
            return None
    return text


def read_lines(path, what: str, problems: list, data: Optional[bytes] = None) -> Optional[list]:
    """A plain text file as ``(1-based line, text)`` pairs (line ends removed, a final line end starts no line),
    or ``None`` with the problems appended (encoding, gzip, CR-only line ends).

    Args:
        path: the file (or its name when ``data`` is given).
        what: its role in messages (``"reference"``, ``"--terms"``).
        problems: the list problems are appended to.
        data: bytes already read (standard input).

    Raises:
        FileNotFoundError: no such file (the message names ``what``). IsADirectoryError: a directory.
        PermissionError: an unreadable file.
    """
    text = read_text(path, what, problems, data=data)
    if text is None:
        return None
    return list(enumerate(split_lines(text), start=1))


def read_rows(path, *, format: str = "auto", what: str = "predictions", data: Optional[bytes] = None,
              problems: Optional[list] = None, numbers: bool = False) -> RowFile:
    """Read a file of rows (JSONL, CSV, TSV or Parquet, each optionally gzip-compressed).

    Args:
        path: the file.
        format: one of `ROW_FORMATS`.
        what: the file's role in messages (``"predictions"``).
        data: the bytes already read; ``path`` is then only the name (and the extension picks the format).
        problems: a list to append the file's problems to instead of raising them (the caller adds its own row
            checks and raises everything together); the rows that could be read are returned.
        numbers: JSON Lines only: read each JSON number with a fraction or an exponent as a
            ``zheval.io.numbers.JsonNumber``, a ``float`` that keeps its literal, for a door that reads numbers by the
            one number rule (`zheval.io.numbers`); the doors that read no number leave it ``False``.

    Returns:
        [`RowFile`][zheval.io.rows.RowFile].

    Raises:
        FileFormatError (a ValueError): every problem of the file (encoding, gzip, CR-only lines, malformed JSON or
            CSV, a key given twice, a non-object JSON line, header problems, cell counts), each ``file:line``.
        EmptyFileError (a FileFormatError): no row at all. ValueError: an unknown ``format``.
        FileNotFoundError: no such file (the message names ``what``). IsADirectoryError: a directory.
        PermissionError: an unreadable file.
    """
    kind = row_format(path, format)
    name = str(path)
    own = problems is None
    problems = [] if own else problems
    first = len(problems)
    fields: list = []
    header_line = 0
    if kind == "parquet":
        raw = read_bytes(path, what, problems, data=data)
        rows = [] if raw is None else parquet_rows(raw, name, problems)
        if rows:
            fields = list(rows[0][1])
    else:
        text = read_text(path, what, problems, data=data)
        rows = []
        if text is not None:
            if kind == "jsonl":
                rows = jsonl_rows(text, name, problems, numbers=numbers)
                fields = list(rows[0][1]) if rows else []
            else:
                rows = (csv_rows if kind == "csv" else tsv_rows)(text, name, problems)
                fields = list(rows[0][1]) if rows else []
                header_line = text[:len(text) - len(text.lstrip("\r\n"))].count("\n") + 1  # after empty lines
    if own and problems:
        raise FileFormatError(problems, f"invalid {what} file")
    if not rows and len(problems) == first:  # a table without a header row has a problem (zheval.io.table)
        raise EmptyFileError(name, HEADER_ONLY if kind != "jsonl" else EMPTY_FILE)
    return RowFile(name=name, kind=kind, rows=rows, fields=fields, header_line=header_line)
