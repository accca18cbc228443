"""Files of rows read in chunks (`iter_row_chunks`): JSONL, CSV, TSV and Parquet, each also gzip-compressed,
with the rules of [`zheval.io.rows.read_rows`][] -- the encoding rule, the line rule, ``file:line`` problems, the
header and cell-count checks -- but never the whole file in memory: lines are decoded and parsed as they are read
(a gzip file is decompressed as it streams), a Parquet file is read one record batch at a time (pyarrow's
``ParquetFile.iter_batches``).

The one difference from [`read_rows`][zheval.io.rows.read_rows], which reports every problem of a file at once: a stream
raises [`FileFormatError`][zheval.io.problems.FileFormatError] with the problems of the first chunk that has any (every
problem of that chunk, each ``file:line``), after the chunks before it were yielded.
"""

from __future__ import annotations

import gzip
import io
import os
import zlib
from typing import Iterator, List, Optional, Tuple, Union

from .encoding import UTF8_BOM, encoding_problem
from .jsonl import json_document_problem, jsonl_row
from .lines import line_end_problem
from .problems import EMPTY_FILE, HEADER_ONLY, EmptyFileError, FileFormatError, Problem
from .rows import row_format
from .source import GZIP_MAGIC, existing_file, gzip_problem
from .table import csv_cells, lifted_field_limit, parquet_columns_problem, table_rows_stream, tsv_quoting_checked

__all__ = ["DEFAULT_CHUNK_ROWS", "iter_row_chunks"]

DEFAULT_CHUNK_ROWS = 10_000
"""Rows per chunk of `iter_row_chunks` by default."""

_SAMPLE = 1 << 16  # bytes read first to recognise another encoding (BOM, NUL pattern, GB18030)


def _open(path, what: str):
    path = existing_file(path, what)
    raw = open(path, "rb", buffering=_SAMPLE)  # a buffer of _SAMPLE bytes: `_decoded_lines` peeks that much
    head = raw.peek(2)[:2] if hasattr(raw, "peek") else b""
    if head == GZIP_MAGIC:
        return io.BufferedReader(gzip.GzipFile(fileobj=raw, mode="rb"), buffer_size=_SAMPLE)
    if str(path).lower().endswith(".gz") and head:
        raw.close()
        raise FileFormatError([Problem(str(path), 0, None, "is named .gz but is not gzip-compressed (it does not "
                                                           "start with the gzip bytes 1F 8B): rename it without .gz, "
                                                           "or compress it")], "invalid " + what + " file")
    return raw


def _whole_utf8_characters(sample: bytes) -> bytes:
    """``sample`` without a UTF-8 multi-byte sequence that its end cuts (at most 3 bytes dropped); other bytes as
    they are (a sample that is not UTF-8 stays so)."""
    for k in range(1, min(4, len(sample)) + 1):
        byte = sample[-k]
        if byte & 0xC0 == 0x80:  # a continuation byte: look further back for its lead byte
            continue
        need = 2 if 0xC0 <= byte < 0xE0 else 3 if 0xE0 <= byte < 0xF0 else 4 if 0xF0 <= byte < 0xF8 else 1
        return sample[:-k] if need > k else sample
    return sample


def _decoded_lines(stream, name: str, problems: list) -> Iterator[Tuple[int, str]]:
    """``(1-based line, text with its line end)`` of a binary stream under the encoding rule: another encoding
    (recognised on the first 64 KiB) is one problem; a line that is not UTF-8 is a problem ``file:line``; a UTF-8 BOM
    is removed; a file of CR-only line ends (a final LF or not) is one problem."""
    try:
        sample = stream.peek(_SAMPLE)[:_SAMPLE] if hasattr(stream, "peek") else b""
    except (OSError, EOFError, zlib.error) as exc:  # gzip: a corrupt or cut header
        problems.append(gzip_problem(name, exc))
        return
    if sample.startswith(UTF8_BOM):
        sample = sample[len(UTF8_BOM):]
    if b"\n" in sample:
        sample = sample[:sample.rfind(b"\n") + 1]  # whole lines: no character cut at the end
    else:  # one long first line (a stream's peek may give only its buffer, 4-8 KiB): no UTF-8 character cut
        sample = _whole_utf8_characters(sample)
    enc = encoding_problem(sample, name)
    if enc is not None:
        problems.append(Problem(name, 0, None, enc))
        return
    lineno = 0
    lines = iter(stream)
    held = None  # line 1 when it holds a CR: refused if it is the only line (`line_end_problem`), else yielded
    while True:
        try:
            raw = next(lines)
        except StopIteration:
            bad = line_end_problem(held, name) if held is not None else None
            if bad is not None:
                problems.append(bad)
            elif held is not None:
                yield 1, held
            return
        except (OSError, EOFError, zlib.error) as exc:  # a gzip stream that ends early or is corrupt
            if held is not None:
                yield 1, held
            problems.append(gzip_problem(name, exc, lineno + 1))
            return
        if held is not None:
            yield 1, held
            held = None
        lineno += 1
        if lineno == 1 and raw.startswith(UTF8_BOM):
            raw = raw[len(UTF8_BOM):]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            body = raw[:-1] if raw.endswith(b"\n") else raw
            problems.append(Problem(name, lineno, None, f"not valid UTF-8 (byte {exc.start + 1} of the line: "
                                                         f"{body[exc.start:exc.start + 4]!r})"))
            continue
        if lineno == 1 and "\r" in text:
            held = text
            continue
        yield lineno, text


def _jsonl(lines, name: str, problems: list):
    for lineno, text in lines:
        obj = jsonl_row(text[:-1] if text.endswith("\n") else text, name, lineno, problems)
        if obj is not None:
            yield lineno, obj


def _tsv(lines, name: str, problems: list):
    def cells():
        for lineno, text in lines:
            ln = text[:-1] if text.endswith("\n") else text
            ln = ln[:-1] if ln.endswith("\r") else ln
            yield lineno, (ln.split("\t") if ln else [])
    return table_rows_stream(tsv_quoting_checked(cells(), name, problems), name, problems)


def _csv(lines, name: str, problems: list):
    return table_rows_stream(csv_cells((t for _, t in lines), name, problems), name, problems)


def _parquet(path, name: str, what: str, chunk_rows: int, problems: list):
    import pyarrow as pa
    import pyarrow.parquet as pq

    stream = _open(path, what)
    try:
        source = pa.BufferReader(stream.read()) if isinstance(stream, gzip.GzipFile) else stream
        pf = pq.ParquetFile(source)
    except Exception as exc:  # pyarrow raises ArrowInvalid / OSError subclasses for a file that is not Parquet
        stream.close()
        problems.append(Problem(name, 0, None, f"cannot be read as Parquet ({type(exc).__name__}: {exc})"))
        return
    twice = parquet_columns_problem(pf.schema_arrow.names, name)
    if twice is not None:
        stream.close()
        problems.append(twice)
        return
    row = 0
    with stream:
        for batch in pf.iter_batches(batch_size=chunk_rows):
            for values in batch.to_pylist():
                row += 1
                yield row, values


def iter_row_chunks(path: Union[str, os.PathLike], *, format: str = "auto", what: str = "predictions",
                    chunk_rows: int = DEFAULT_CHUNK_ROWS,
                    problems: Optional[list] = None) -> Iterator[List[tuple]]:
    """The rows of a file, ``chunk_rows`` at a time: lists of ``(line, {field: value})`` in file order (line: the
    physical line where the row starts; Parquet: the 1-based row number), as [`zheval.io.rows.read_rows`][] gives
    them.

    Args:
        path: the file (JSONL, CSV, TSV or Parquet, each optionally gzip-compressed). format: one of
            `zheval.io.rows.ROW_FORMATS`. what: the file's role in messages. chunk_rows: rows per chunk (>= 1).
        problems: a list the problems of each chunk are appended to instead of being raised (as
            [`read_rows`][zheval.io.rows.read_rows]' ``problems``): the caller checks the chunk's rows too, raises
            everything together and clears the list before the next chunk; a chunk with problems and no row is
            yielded empty.

    Raises:
        FileFormatError (a ValueError): the problems of the first chunk that has any (encoding, gzip, CR-only lines,
            malformed JSON or CSV, a key given twice, a non-object JSON line, header problems, cell counts), each
            ``file:line``. EmptyFileError: no row at all. ValueError: an unknown ``format``, ``chunk_rows`` < 1.
        FileNotFoundError, IsADirectoryError, PermissionError: as `zheval.io.source.existing_file`.
    """
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, int) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be an int >= 1, got {chunk_rows!r}")
    kind = row_format(path, format)
    name = str(path)
    collect = problems is not None
    problems = [] if problems is None else problems
    if kind == "parquet":
        rows = _parquet(path, name, what, chunk_rows, problems)
        stream = None
    else:
        stream = _open(path, what)
        lines = _decoded_lines(stream, name, problems)
        rows = {"jsonl": _jsonl, "csv": _csv, "tsv": _tsv}[kind](lines, name, problems)
    seen, chunk = 0, []
    try:
        while True:
            if kind == "csv":
                with lifted_field_limit():  # held only while a row is parsed, never across a yield
                    row = next(rows, None)
            else:
                row = next(rows, None)
            if row is None:
                break
            chunk.append(row)
            if len(chunk) >= chunk_rows:
                if not collect:
                    _raise_problems(problems, what, kind, name, whole_file=False)
                seen += len(chunk)
                yield chunk
                chunk = []
        if collect:
            _one_document(problems, kind, name, whole_file=seen == 0 and not chunk)
        else:
            _raise_problems(problems, what, kind, name, whole_file=seen == 0)
        if chunk or problems:
            seen += len(chunk)
            yield chunk
    finally:
        if stream is not None:
            stream.close()
    if not seen and not problems:  # a table without a header row has a problem (zheval.io.table)
        raise EmptyFileError(name, HEADER_ONLY if kind != "jsonl" else EMPTY_FILE)


def _one_document(problems: list, kind: str, name: str, whole_file: bool) -> None:
    """A JSONL file without a single row that is one JSON document: its problems become one problem saying so."""
    if problems and kind == "jsonl" and whole_file:
        try:
            doc = json_document_problem(_read_text(name), name)
        except (OSError, UnicodeDecodeError, EOFError):
            doc = None
        if doc is not None:
            problems[:] = [Problem(name, 0, None, doc)]


def _raise_problems(problems: list, what: str, kind: str, name: str, whole_file: bool) -> None:
    if not problems:
        return
    _one_document(problems, kind, name, whole_file)
    raise FileFormatError(list(problems), f"invalid {what} file")


def _read_text(name: str) -> str:
    with open(name, "rb") as f:
        data = f.read()
    if data.startswith(GZIP_MAGIC):
        data = gzip.decompress(data)
    return data.decode("utf-8-sig")
