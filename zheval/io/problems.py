"""Problems found in an input file, and the one error that lists them ([`FileFormatError`][zheval.io.problems.FileFormatError]).

Every reader of `zheval.io` and every door built on it reports bad input the same way: a
[`Problem`][zheval.io.problems.Problem] per thing that is wrong, printed ``file:line: id 'x': what is wrong`` (``file: …`` for a problem
of the whole file), all problems of a file collected before anything is raised, the first `MAX_REPORTED`
listed with the total count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

__all__ = ["MAX_REPORTED", "Problem", "FileFormatError", "EmptyFileError", "EMPTY_FILE", "HEADER_ONLY", "type_name"]

MAX_REPORTED = 20
"""How many problems one [`FileFormatError`][zheval.io.problems.FileFormatError] lists (the total count is always given)."""

EMPTY_FILE = "the file is empty or has only blank lines"
#: Why a CSV or TSV file has no item when it has its header row (a Parquet file: its columns) and no row.
HEADER_ONLY = "a header and no row"
"""Why a file without a single row has no items (part of the `EmptyFileError` message)."""


@dataclass(frozen=True)
class Problem:
    """One problem found in an input file.

    Attributes:
        path: file path as given; line: 1-based line number (Parquet: 1-based row number; 0 for a whole-file
            problem); id: the row's id when it could be read (else ``None``); message: what is wrong.
    """

    path: str
    line: int
    id: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: " + (f"id {self.id!r}: " if self.id is not None else "") + self.message


class FileFormatError(ValueError):
    """Invalid input file(s). ``problems`` holds every [`Problem`][zheval.io.problems.Problem] found; the message lists the first
    `MAX_REPORTED` (each as ``file:line: id '…': what is wrong``) and the total count.

    Args:
        problems: the problems, in file order.
        what: the first words of the message (e.g. ``"invalid 小黄鸭 data"``, ``"invalid text files"``).
    """

    def __init__(self, problems: Sequence[Problem], what: str = "invalid input file"):
        self.problems = list(problems)
        shown = self.problems[:MAX_REPORTED]
        more = len(self.problems) > MAX_REPORTED
        lines = [f"{what}: {len(self.problems)} problem(s)" + (f", first {MAX_REPORTED} shown" if more else "")]
        lines += [f"  {p}" for p in shown]
        if more:
            lines.append(f"  … and {len(self.problems) - MAX_REPORTED} more")
        super().__init__("\n".join(lines))


class EmptyFileError(FileFormatError):
    """A file without a single item: ``no items in FILE (the file is empty or has only blank lines)``; ``why``
    says otherwise when it is known (`HEADER_ONLY`: a table with a header and no row)."""

    def __init__(self, path: str, why: str = EMPTY_FILE):
        self.problems = [Problem(path, 0, None, f"no items in {path} ({why})")]
        ValueError.__init__(self, f"no items in {path} ({why})")


def type_name(x) -> str:
    """The JSON name of a value's type, for messages: ``null``, ``string``, ``integer``, ``number``, ``boolean``,
    ``array``, ``object`` (else the Python type's name)."""
    if x is None:
        return "null"
    return {str: "string", int: "integer", float: "number", bool: "boolean", list: "array", dict: "object",
            tuple: "array"}.get(type(x), type(x).__name__)
