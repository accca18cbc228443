"""zheval.io.chunks.iter_row_chunks: the rows of read_rows, chunk by chunk, for every format (gzip too), and the
same file:line problems (the whole file in one chunk; a later chunk's problems after the earlier chunks)."""

from __future__ import annotations

import csv
import gzip
import json

import pytest

from zheval.io import EmptyFileError, FileFormatError, read_rows
from zheval.io.chunks import iter_row_chunks

ROWS = [{"id": f"r{i}", "prediction": f"今天天气{i}很好\t" if i % 7 == 0 else f"预测,{i}\"引号\"",
         "references": f"参考{i}"} for i in range(53)]


def _write(tmp_path, kind: str, gz: bool = False, rows=ROWS):
    path = tmp_path / f"rows.{kind}{'.gz' if gz else ''}"
    if kind == "jsonl":
        data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()
    elif kind == "csv":
        import io

        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
        data = buf.getvalue().encode()
    elif kind == "tsv":
        rows = [{k: v.replace("\t", " ") for k, v in r.items()} for r in rows]
        data = ("\t".join(rows[0]) + "\n" + "".join("\t".join(r.values()) + "\r\n" for r in rows)).encode()
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(rows), str(path.with_suffix("")) if gz else str(path), row_group_size=10)
        if not gz:
            return path
        data = path.with_suffix("").read_bytes()
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


@pytest.mark.parametrize("gz", [False, True])
@pytest.mark.parametrize("kind", ["jsonl", "csv", "tsv", "parquet"])
@pytest.mark.parametrize("chunk_rows", [1, 7, 53, 1000])
def test_chunks_are_the_rows_of_read_rows(tmp_path, kind, gz, chunk_rows):
    path = _write(tmp_path, kind, gz)
    want = read_rows(path).rows
    chunks = list(iter_row_chunks(path, chunk_rows=chunk_rows))
    assert [r for c in chunks for r in c] == want
    assert all(len(c) == chunk_rows for c in chunks[:-1]) and 1 <= len(chunks[-1]) <= chunk_rows
    assert len(want) == 53


BAD_FILES = {
    "bad.jsonl": b'{"a": 1}\n{"a": 2,\n[1, 2]\n{"a": 1, "a": 2}\n\n{"a": 3}\n',
    "latin.jsonl": '{"a": "caf\u00e9"}\n{"a": "ok"}\n'.encode("latin-1"),
    "utf16.jsonl": '{"a": "好"}\n'.encode("utf-16"),
    "gbk.jsonl": '{"a": "今天天气很好"}\n{"a": "北京"}\n'.encode("gb18030"),
    "cr.jsonl": b'{"a": 1}\r{"a": 2}\r',
    "doc.jsonl": b'[\n  {"a": 1},\n  {"a": 2}\n]\n',
    "cells.csv": b'a,b\n1,2\n3\n"4,5\n',
    "header.tsv": b"a\ta\n1\t2\n",
    "blank.tsv": b"a\n1\n\n2\n",
    "notgz.jsonl.gz": b'{"a": 1}\n',
    "junk.parquet": b"not parquet at all",
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_problems_are_those_of_read_rows(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(BAD_FILES[name])
    with pytest.raises(FileFormatError) as want:
        read_rows(path)
    with pytest.raises(FileFormatError) as got:
        for _ in iter_row_chunks(path, chunk_rows=1000):
            pass
    # (pyarrow names an in-memory source "<Buffer>"; the stream opens the file itself)
    unbuffered = [str(p).replace("Could not open Parquet input source '<Buffer>': ", "") for p in want.value.problems]
    assert [str(p) for p in got.value.problems] == unbuffered


@pytest.mark.parametrize("gz", [False, True])
@pytest.mark.parametrize("chars", [1400, 5000, 30_000])  # first lines of 4 KiB, 15 KiB (past a read buffer), 90 KiB
def test_a_long_first_line_of_utf8_is_utf8(tmp_path, gz, chars):
    """A UTF-8 file whose first line is longer than the encoding sample (or a stream's read buffer) is read as the
    whole-file reader reads it: the sample ends on a whole character, so it is not taken for GB18030 (it was, from
    a first line of about 4 KiB of Chinese); a GB18030 file with a long first line is still named."""
    rows = [{"id": "a", "prediction": "好" * chars, "reference": "好好"}, {"id": "b", "prediction": "x"}]
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    path = tmp_path / ("long.jsonl.gz" if gz else "long.jsonl")
    path.write_bytes(gzip.compress(data.encode("utf-8")) if gz else data.encode("utf-8"))
    assert [r for c in iter_row_chunks(path, chunk_rows=1) for r in c] == read_rows(path).rows
    path.write_bytes(gzip.compress(data.encode("gb18030")) if gz else data.encode("gb18030"))
    with pytest.raises(FileFormatError, match="GB18030"):
        for _ in iter_row_chunks(path, chunk_rows=1):
            pass


def test_whole_utf8_characters_drops_only_a_cut_sequence():
    from zheval.io.chunks import _whole_utf8_characters

    text = "a好😀é".encode("utf-8")  # 1 + 3 + 4 + 2 bytes
    for cut in range(len(text) + 1):
        got = _whole_utf8_characters(text[:cut])
        assert got.decode("utf-8") == text[:cut].decode("utf-8", "ignore")  # whole characters only, all of them
    assert _whole_utf8_characters(b"\xff\xfe") == b"\xff\xfe"  # not UTF-8: left as it is


def test_a_later_chunk_problem_comes_after_the_earlier_chunks(tmp_path):
    path = tmp_path / "late.jsonl"
    path.write_text("".join(json.dumps({"a": i}) + "\n" for i in range(25)) + "{oops\n", encoding="utf-8")
    seen = []
    with pytest.raises(FileFormatError, match=r"late.jsonl:26"):
        for chunk in iter_row_chunks(path, chunk_rows=10):
            seen.append(len(chunk))
    assert seen == [10, 10]


def test_empty_files_and_bad_arguments(tmp_path):
    for name, data in (("e.jsonl", b"\n\n"), ("e.parquet", None)):
        path = tmp_path / name
        if data is None:
            import pyarrow as pa
            import pyarrow.parquet as pq

            pq.write_table(pa.table({"a": pa.array([], type=pa.string())}), str(path))
        else:
            path.write_bytes(data)
        with pytest.raises(EmptyFileError):
            list(iter_row_chunks(path))
    with pytest.raises(ValueError, match="chunk_rows must be an int >= 1"):
        list(iter_row_chunks(tmp_path / "e.jsonl", chunk_rows=0))
    with pytest.raises(FileNotFoundError, match="predictions file not found"):
        list(iter_row_chunks(tmp_path / "missing.jsonl"))


@pytest.mark.parametrize("sep, suffix", [(",", "csv"), ("\t", "tsv")])
def test_a_bom_inside_a_table_is_refused(tmp_path, sep, suffix):
    """Two files joined with cat: the second one's BOM and header would be read as a row (issue 35 break-it): a cell
    starting with U+FEFF after the header is a problem naming its line, whole or in chunks."""
    from zheval.io.problems import FileFormatError
    from zheval.io.rows import read_rows

    one = f"id{sep}prediction\n1{sep}好的\n"
    path = tmp_path / f"joined.{suffix}"
    path.write_bytes(("\ufeff" + one).encode("utf-8") + ("\ufeff" + one).encode("utf-8"))
    with pytest.raises(FileFormatError, match=rf"joined\.{suffix}:3: a cell starts with a byte-order mark"):
        read_rows(path)
    with pytest.raises(FileFormatError, match=rf"joined\.{suffix}:3: a cell starts with a byte-order mark"):
        list(iter_row_chunks(path, chunk_rows=1))
