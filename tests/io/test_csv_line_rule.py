"""CSV under the one line rule (issue 35, third break-it pass): rows end at LF or CRLF only, a lone CR is text in
every reader (whole file and chunks, CSV, TSV and JSONL alike), a CR-only CSV is refused as every line-based file
is, and a stray ``"`` that opens a quoted cell over lines that are rows is refused naming the line of the quote
instead of merging the rows silently. A quoted cell the file never closes is reported at the line where it opens
(not at the end of the file), and a ``"`` inside an unquoted cell (``ab"c``, which Python's ``csv`` keeps as text)
is refused at its line with how to quote it (break-it F6/F7). Every expected row is written out by hand."""

from __future__ import annotations

import pytest

from zheval.io import FileFormatError, read_rows
from zheval.io.chunks import iter_row_chunks


def _whole(path):
    return read_rows(path).rows


def _stream(path):
    return [r for chunk in iter_row_chunks(path, chunk_rows=1) for r in chunk]


READERS = {"whole": _whole, "stream": _stream}


def _problems(read, path) -> list:
    with pytest.raises(FileFormatError) as e:
        read(path)
    return [str(p) for p in e.value.problems]


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_stray_quote_that_would_merge_rows_is_refused_at_the_quote(tmp_path, reader):
    # four data lines, four rows: the '"' before 好的 is a typo, not the start of a cell spanning rows 2-4
    f = tmp_path / "stray.csv"
    f.write_bytes('id,prediction,reference\n1,"好的 谢谢,参考一\n2,不客气,参考二\n3,再见",参考三\n4,你好,参考四\n'
                  .encode())
    assert _problems(READERS[reader], f) == [
        f"{f}:2: the quoted cell of column 'prediction' opens here and runs to line 4, and line 3 inside it reads as "
        "a row of 3 cells: a stray \" at the start of the cell would merge those rows into it; if the \" is text, "
        "quote the cell and double the \" (\"\"\"…\"), or write the file as TSV or JSONL"]
    f.write_bytes('id,prediction,reference\n1,你好,参考零\n2,"好的\n3,不客气,参考\n4,再见,参考\n5,b",c\n'.encode())
    (p,) = _problems(READERS[reader], f)
    assert p.startswith(f"{f}:3: the quoted cell of column 'prediction' opens here and runs to line 6, and lines 4-5 "
                        "inside it read as rows of 3 cells")


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_quoted_cell_over_lines_that_are_text_is_kept(tmp_path, reader):
    f = tmp_path / "multi.csv"
    f.write_bytes('prediction,reference,id\n"第一行\n第二行，还有\n第三行",参考,7\n"甲\r\n乙",参考,8\r\n'.encode())
    assert READERS[reader](f) == [(2, {"prediction": "第一行\n第二行，还有\n第三行", "reference": "参考", "id": "7"}),
                                  (5, {"prediction": "甲\r\n乙", "reference": "参考", "id": "8"})]


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_lone_cr_is_text_in_a_csv_cell(tmp_path, reader):
    f = tmp_path / "cr.csv"
    # a lone CR in an unquoted cell, in the last cell, in a quoted cell; U+FDD0 (and U+FDD0 + "r") kept as they are
    f.write_bytes('id,prediction,reference\n1,好的\r谢谢,参考一\n2,不客气,参考\r二\r\n3,"再\r见",\ufdd0r\ufdd0\n'
                  '4,你好,参考四'.encode())
    assert READERS[reader](f) == [(2, {"id": "1", "prediction": "好的\r谢谢", "reference": "参考一"}),
                                  (3, {"id": "2", "prediction": "不客气", "reference": "参考\r二"}),
                                  (4, {"id": "3", "prediction": "再\r见", "reference": "\ufdd0r\ufdd0"}),
                                  (5, {"id": "4", "prediction": "你好", "reference": "参考四"})]


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_lone_cr_is_text_in_tsv_and_jsonl_too(tmp_path, reader):
    t = tmp_path / "cr.tsv"
    t.write_bytes("id\tprediction\n1\t好的\r谢谢\n2\t再见\r\n".encode())
    assert READERS[reader](t) == [(2, {"id": "1", "prediction": "好的\r谢谢"}), (3, {"id": "2", "prediction": "再见"})]
    j = tmp_path / "cr.jsonl"
    j.write_bytes(b'{"id": "1"}\r{"id": "2"}\n{"id": "3"}\n')  # one line with two objects: not two rows
    assert _problems(READERS[reader], j) == [f"{j}:1: malformed JSON object: Extra data at column 13"]


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_cr_only_csv_is_refused_as_every_line_based_file(tmp_path, reader):
    f = tmp_path / "mac.csv"
    f.write_bytes("id,prediction\r1,好的\r2,再见\r".encode())
    assert _problems(READERS[reader], f) == [
        f"{f}: its lines end in CR (\\r) only (classic Mac OS line ends): it would be read as one line instead of 3; "
        f"re-save it with LF or CRLF line ends (e.g. tr '\\r' '\\n' < {f} > {f}.lf)"]


@pytest.mark.parametrize("reader", sorted(READERS))
def test_an_unclosed_quote_is_reported_where_it_opens(tmp_path, reader):
    f = tmp_path / "open.csv"
    # the '"' of line 3 opens a cell that no later '"' closes; lines 4-6 hold one cell each, so the stray-quote rule
    # (lines inside that read as rows) cannot say it: the file ends inside the cell
    f.write_bytes('id,prediction\n1,好的\n2,"不客气\n3\n4\n5\n'.encode())
    (p,) = _problems(READERS[reader], f)
    assert p.startswith(f"{f}:3: malformed CSV: the quoted cell that opens on this line is never closed "
                        "(the file ends inside it)")
    # a quoted cell that closes on a later line, then one that opens on the line where the first closes
    f.write_bytes('id,prediction,reference\n1,"多\n行",好\n2,"a\nb","c\nd\n'.encode())
    (p,) = _problems(READERS[reader], f)
    assert p.startswith(f"{f}:5: malformed CSV: the quoted cell that opens on this line is never closed")
    # doubled quotes inside a quoted cell do not close it; the cell opened on line 2
    f.write_bytes('id,prediction\n1,"他说""好"" \n2,b\n'.encode())
    (p,) = _problems(READERS[reader], f)
    assert p.startswith(f"{f}:2: malformed CSV: the quoted cell that opens on this line is never closed")


def _bare_quote(f, line: int, cell: int, text: str, quoted: str) -> str:
    return (f"{f}:{line}: a \" inside the unquoted cell {cell} ({text!r}): CSV reads a \" as text only inside a quoted "
            f"cell; quote the cell and double the \" ({quoted}), or write the file as TSV or JSONL")


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_quote_inside_an_unquoted_cell_is_refused_at_its_line(tmp_path, reader):
    f = tmp_path / "bare.csv"
    f.write_bytes('id,prediction,reference\n1,好,参考\n2,ab"c,参考\n3,好,参"考\n'.encode())
    assert _problems(READERS[reader], f) == [_bare_quote(f, 3, 2, 'ab"c', '"ab""c"'),
                                             _bare_quote(f, 4, 3, '参"考', '"参""考"')]


@pytest.mark.parametrize("reader", sorted(READERS))
def test_quotes_written_by_the_rules_are_read(tmp_path, reader):
    f = tmp_path / "good.csv"
    f.write_bytes('id,prediction\n1,"ab""c"\n2,"多\n行 ""x"""\n3,""\n4,"a,""b"""\n'.encode())
    assert READERS[reader](f) == [(2, {"id": "1", "prediction": 'ab"c'}), (3, {"id": "2", "prediction": '多\n行 "x"'}),
                                  (5, {"id": "3", "prediction": ""}), (6, {"id": "4", "prediction": 'a,"b"'})]
