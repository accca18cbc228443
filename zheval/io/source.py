"""Opening an input file: the path checked (`existing_file`), its bytes read, and gzip undone
(`read_bytes`), the way sacrebleu opens ``.gz`` files; the format a file is read as follows its name with
``.gz`` removed (`format_suffix`).
"""

from __future__ import annotations

import gzip
import os
import zlib
from pathlib import Path
from typing import Union

from .problems import Problem

__all__ = ["GZIP_MAGIC", "GivenPath", "given_path", "existing_file", "read_bytes", "format_suffix"]

GZIP_MAGIC = b"\x1f\x8b"
"""The first two bytes of a gzip stream (RFC 1952). No UTF-8 text starts with them (``0x8b`` is a continuation
byte), so a file starting with them is decompressed whatever its name."""


class GivenPath(type(Path())):
    """A path that prints as it was given (``./p.jsonl`` is said ``./p.jsonl``, not ``p.jsonl``: pathlib drops the
    ``./`` and doubled slashes); the file it names, its comparisons and every path derived from it are pathlib's own
    (a derived path prints as pathlib's). The command line's path options are of it
    (`zheval.cli.params.typed_path`)."""

    def __str__(self) -> str:
        given = getattr(self, "_given", None)  # (set by given_path only)
        return given if given is not None else super().__str__()


def given_path(value: Union[str, os.PathLike]) -> Path:
    """``value`` as a `Path` that prints as it was given: a `Path` as it is (a `GivenPath` keeps its text, so
    ``Path(path)`` is never taken of one: it would print as pathlib's), any other path a `GivenPath` of its text."""
    if isinstance(value, Path):
        return value
    text = os.fspath(value)
    path = GivenPath(text)
    path._given = text
    return path


def existing_file(path: Union[str, os.PathLike], what: str) -> Path:
    """``path`` as a `Path` (`given_path`: it prints as given) when it names an existing file; ``what`` names it in
    the messages (``"predictions"``, ``"--terms"``, ``"小黄鸭 data"``), which say the path as given.

    Raises:
        IsADirectoryError: ``path`` is a directory (``{what} path P is a directory, not a file``).
        FileNotFoundError: there is no such file (``{what} file not found: P``); ``-`` (standard input, which this
            door does not read) or a path that is no regular file (a pipe or a device, as ``/dev/stdin`` is), each
            said so (it was "not found").
    """
    path = given_path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{what} path {path} is a directory, not a file")
    if not path.is_file():
        if str(path) == "-":
            raise FileNotFoundError(f"{what}: '-' (standard input) is not read here; give the path of a file")
        if path.exists():
            raise FileNotFoundError(f"{what} path {path} is not a regular file (a pipe, a terminal or a device, as "
                                    "/dev/stdin is): this input is read from a file; save it to one first")
        raise FileNotFoundError(f"{what} file not found: {path}")
    return path


def format_suffix(path: Union[str, os.PathLike]) -> str:
    """The lower-case extension that names a file's format, ``.gz`` removed: ``a.jsonl.gz`` → ``.jsonl``,
    ``b.TSV`` → ``.tsv``, ``c`` → ``""``."""
    p = Path(path)
    if p.suffix.lower() == ".gz":
        p = p.with_suffix("")
    return p.suffix.lower()


def read_bytes(path: Union[str, os.PathLike], what: str, problems: list, data: bytes | None = None) -> bytes | None:
    """The bytes of an input file, decompressed when they are gzip (by their first bytes, or by a ``.gz`` name).

    Args:
        path: the file (checked with `existing_file` unless ``data`` is given). what: its role in messages.
        problems: a list a [`Problem`][zheval.io.problems.Problem] is appended to when a ``.gz`` file is not gzip or is
            truncated or corrupt.
        data: the bytes already read (standard input); ``path`` is then only the name.

    Returns:
        The (decompressed) bytes, or ``None`` after a problem.

    Raises:
        FileNotFoundError: no such file (`existing_file`). IsADirectoryError: a directory. PermissionError: an
            unreadable file.
    """
    name = str(path)
    if data is None:
        data = existing_file(path, what).read_bytes()
    gz_name = name.lower().endswith(".gz")
    if data.startswith(GZIP_MAGIC):
        try:
            return gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:  # gzip.BadGzipFile is an OSError
            problems.append(gzip_problem(name, exc))
            return None
    if gz_name and data:
        problems.append(Problem(name, 0, None, "is named .gz but is not gzip-compressed (it does not start with the "
                                               "gzip bytes 1F 8B): rename it without .gz, or compress it"))
        return None
    return data


def gzip_problem(name: str, exc: BaseException, line: int = 0) -> Problem:
    """The problem of a gzip file that cannot be decompressed (``exc``: what gzip or zlib raised), at ``line`` when
    a stream read the lines before it (0: the whole file)."""
    why = str(exc) or "the stream ends early"
    where = f" after line {line - 1}" if line > 1 else ""
    return Problem(name, line, None, f"is gzip-compressed but cannot be decompressed{where} ({why}): the file is "
                                     "truncated or corrupt")
