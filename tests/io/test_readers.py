"""zheval.io, the one reader of every door, on its own: TSV without quoting, CSV without a cell-size limit, gzip of
every format, the line rule (LF, CRLF; CR-only refused), the encoding rule, the field-family and id rules. Every
expected value is written out by hand here (break-it-3 items 1, 2, 3, 17, 19 and the CR-only papercut)."""

from __future__ import annotations

import csv
import gzip

import json

import pytest

from zheval.io import (EmptyFileError, FileFormatError, UniqueIds, id_field_of, id_value, pair_fields,
                       prediction_field, read_lines, read_rows)


def _problems(exc) -> list:
    return [str(p) for p in exc.value.problems]


def test_tsv_has_no_quoting_four_rows_stay_four_and_quotes_are_text(tmp_path):
    # break-it 2: one unbalanced '"' swallowed rows 2-3 under CSV quoting
    f = tmp_path / "q2.tsv"
    f.write_text('id\tpredict\tlabel\n1\t"他说好的\t好的，我马上处理\n2\t今天天气很好\t今天天气不错\n'
                 '3\t不客气"\t不客气\n4\t再见\t再见\n', encoding="utf-8")
    rf = read_rows(f)
    assert rf.kind == "tsv" and [ln for ln, _ in rf.rows] == [2, 3, 4, 5]
    assert [r["predict"] for _, r in rf.rows] == ['"他说好的', "今天天气很好", '不客气"', "再见"]
    f.write_text('predict\tlabel\n"好的"，我马上处理\t好的，我马上处理\r\n', encoding="utf-8")
    assert read_rows(f).rows == [(2, {"predict": '"好的"，我马上处理', "label": "好的，我马上处理"})]


def test_tsv_cell_counts_are_checked_per_line(tmp_path):
    f = tmp_path / "t.tsv"
    f.write_text("predict\tlabel\na\tb\tc\nd\te\n", encoding="utf-8")
    with pytest.raises(FileFormatError) as e:
        read_rows(f)
    assert _problems(e) == [f"{f}:2: 3 cell(s), but the header has 2 columns"]


def test_a_csv_cell_longer_than_the_csv_modules_default_limit_is_read(tmp_path):
    # break-it 17: csv refuses cells over 131,072 characters by default ("field larger than field limit")
    big = "好" * 150_000
    f = tmp_path / "huge.csv"
    with f.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([["predict", "label"], [big, "好的"]])
    before = csv.field_size_limit()
    rf = read_rows(f)
    assert rf.rows == [(2, {"predict": big, "label": "好的"})]
    assert csv.field_size_limit() == before  # the process-wide limit is restored


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".tsv", ".parquet"])
def test_gzip_of_every_format_reads_as_the_plain_file(tmp_path, suffix):
    rows = [{"id": "a", "predict": "今天天气很好", "label": "今天天气不错"}, {"id": "b", "predict": "好", "label": "好的"}]
    plain = tmp_path / f"r{suffix}"
    if suffix == ".jsonl":
        plain.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    elif suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(rows), plain)
    else:
        sep = "," if suffix == ".csv" else "\t"
        plain.write_text("id{0}predict{0}label\n".format(sep) + "".join(sep.join(r.values()) + "\n" for r in rows),
                         encoding="utf-8")
    gz = tmp_path / f"r{suffix}.gz"
    gz.write_bytes(gzip.compress(plain.read_bytes()))
    got = read_rows(gz)
    assert got.kind == suffix[1:] and [r for _, r in got.rows] == rows == [r for _, r in read_rows(plain).rows]


def test_gzip_problems_are_named(tmp_path):
    fake = tmp_path / "h.txt.gz"
    fake.write_text("今天\n", encoding="utf-8")
    problems: list = []
    assert read_lines(fake, "hypothesis", problems) is None
    assert [str(p) for p in problems] == [f"{fake}: is named .gz but is not gzip-compressed (it does not start with "
                                          "the gzip bytes 1F 8B): rename it without .gz, or compress it"]
    cut = tmp_path / "cut.txt.gz"
    cut.write_bytes(gzip.compress("今天天气很好\n".encode() * 100)[:30])
    problems = []
    assert read_lines(cut, "hypothesis", problems) is None
    assert "is gzip-compressed but cannot be decompressed" in str(problems[0]) and problems[0].line == 0


def test_the_line_rule(tmp_path):
    f = tmp_path / "t.txt"
    f.write_bytes("\ufeff一\r\n二\u2028半\n\n三".encode())  # BOM, CRLF, U+2028 inside a line, an empty line, no final LF
    assert read_lines(f, "reference", []) == [(1, "一"), (2, "二\u2028半"), (3, ""), (4, "三")]
    f.write_bytes("一\r二\r三\r".encode())  # classic Mac OS: one line for sacrebleu; refused here
    problems: list = []
    assert read_lines(f, "reference", problems) is None
    assert str(problems[0]).startswith(f"{f}: its lines end in CR (\\r) only (classic Mac OS line ends): it would be "
                                       "read as one line instead of 3")
    j = tmp_path / "r.jsonl"
    j.write_bytes(b'{"predict": "a", "label": "b"}\r{"predict": "c", "label": "d"}\r')
    with pytest.raises(FileFormatError, match="its lines end in CR"):
        read_rows(j)


@pytest.mark.parametrize("codec, needle", [("utf-16", "looks like UTF-16 LE (byte-order mark FF FE)"),
                                           ("utf-16-be", "looks like UTF-16 BE without a byte-order mark"),
                                           ("utf-32", "looks like UTF-32 LE (byte-order mark FF FE 00 00)"),
                                           ("gb18030", "looks like GB18030/GBK")])
def test_one_message_names_another_encoding(tmp_path, codec, needle):
    f = tmp_path / "r.csv"
    f.write_bytes("predict,label\n今天天气很好,今天天气不错\n我很开心,我很高兴\n".encode(codec))
    with pytest.raises(FileFormatError) as e:
        read_rows(f)
    (p,) = e.value.problems
    assert p.line == 0 and needle in p.message and "re-save it as UTF-8" in p.message


def test_empty_files(tmp_path):
    for name, text in (("e.jsonl", "\n  \n"), ("e.csv", "predict,label\n"), ("e.tsv", "predict\tlabel\n")):
        f = tmp_path / name
        f.write_text(text, encoding="utf-8")
        with pytest.raises(EmptyFileError, match=f"no items in {f}"):
            read_rows(f)


@pytest.mark.parametrize("fields, expected", [
    (["prompt", "predict", "label"], ("predict", "label")),  # LLaMA-Factory
    (["prediction", "references"], ("prediction", "references")),
    (["prediction", "reference"], ("prediction", "reference")),
    (["prediction", "label"], ("prediction", "label")),  # one candidate each
])
def test_fields_pair_by_family(fields, expected):
    assert pair_fields(fields) == expected


@pytest.mark.parametrize("fields, given, needle", [
    (["prediction", "references", "reference"], {}, "the fields pair up in more than one way ('prediction' with "
                                                    "'references', 'prediction' with 'reference')"),
    (["predict", "prediction", "references", "label"], {}, "the fields pair up in more than one way"),
    # break-it F2 (issue 35): each of these picked one pairing silently ('predict', 'reference', 'references')
    (["predict", "prediction", "label"], {}, "the fields pair up in more than one way ('predict' with 'label', "
                                             "'prediction' with 'label'): nothing is picked for you; name them with "
                                             'pred_field="NAME", ref_field="NAME"'),  # the library's words
    (["prediction", "label", "reference"], {}, "('prediction' with 'label', 'prediction' with 'reference')"),
    (["prediction", "references", "label"], {}, "('prediction' with 'label', 'prediction' with 'references')"),
    (["predict", "label", "reference"], {"pred": "predict"}, "('predict' with 'label', 'predict' with 'reference')"
                                                             ": nothing is picked for you; name them with "
                                                             'ref_field="NAME"'),
    (["prediction", "label", "reference", "x"], {"pred": "x"}, "('x' with 'label', 'x' with 'reference')"),
    (["output", "answers"], {}, "no prediction field named: the first row has none of ['predict', 'prediction']"),
])
def test_an_ambiguous_or_unknown_pairing_is_refused_naming_the_fields(fields, given, needle):
    with pytest.raises(FileFormatError) as e:
        pair_fields(fields, name="f.jsonl", line=1, **given)
    assert str(e.value.problems[0]).startswith("f.jsonl:1: ") and needle in str(e.value)


def test_the_id_rule():
    assert id_value(7) == ("7", None) and id_value("q1") == ("q1", None)
    for bad in (7.0, True, None, "", "  ", [1]):
        assert id_value(bad)[0] is None and "must be a non-empty string or an integer" in id_value(bad)[1]
    assert id_field_of(["id", "predict"]) == "id" and id_field_of(["predict"]) is None
    assert id_field_of(["id", "qid"], "qid") == "qid"
    seen = UniqueIds()
    assert seen.add("7", "f.csv", 2) is None and seen.add("7", "f.csv", 5) == "duplicate id (first seen at f.csv:2)"
    assert prediction_field(["id", "prediction"]) == ("prediction", None)
    assert prediction_field(["predict", "prediction"])[1].startswith("two prediction fields")


def test_keyed_rows_skip_blank_rows_and_name_missing_and_repeated_ids():
    from zheval.io.fields import keyed_rows

    rows = [(2, {"id": "a", "score": " 1 "}), (3, {"id": " ", "score": ""}), (4, {"id": "", "score": "2"}),
            (5, {"id": "b", "score": "3"}), (6, {"id": "a ", "score": "4"})]
    problems, seen = [], UniqueIds()
    got = [(line, rid, cell("score")) for line, rid, cell in keyed_rows(rows, "s.csv", problems, seen)]
    # line 3 is blank; 4 has no id; 6's id has a space after it: ids are matched exactly (never stripped, issue 35)
    assert got == [(2, "a", "1"), (5, "b", "3")]
    assert problems == ["s.csv:4: the row has no id",
                        "s.csv:6: id 'a ' has spaces around it: ids are matched exactly, so it is not the id 'a' "
                        "(the id field 'id')"]
    assert "b" in seen


def test_csv_quoting_is_rfc4180(tmp_path):
    f = tmp_path / "q.csv"
    f.write_text('predict,label\n"a, ""b""",c\n"多\n行",d\n', encoding="utf-8")
    assert read_rows(f).rows == [(2, {"predict": 'a, "b"', "label": "c"}), (3, {"predict": "多\n行", "label": "d"})]
    f.write_text('predict,label\n"a,b\n', encoding="utf-8")
    with pytest.raises(FileFormatError, match="malformed CSV"):
        read_rows(f)



def test_an_integer_longer_than_python_reads_is_a_problem_at_its_line(tmp_path):
    # a JSON integer of 5001 digits: json.loads raises a bare ValueError (Python reads at most 4300 digits), which no
    # reader caught: `zheval score -p` stopped with "Exceeds the limit (4300 digits)", naming no file or line
    from zheval.io.chunks import iter_row_chunks

    path = tmp_path / "p.jsonl"
    path.write_text('{"id": 1, "prediction": "a", "reference": "a"}\n'
                    '{"id": 1' + "0" * 5000 + ', "prediction": "b", "reference": "b"}\n', encoding="utf-8")
    want = [f"{path}:2: a JSON integer of 5001 digits at column 8: Python reads at most 4300 (write it as a string)"]
    with pytest.raises(FileFormatError) as info:
        read_rows(path)
    assert _problems(info) == want
    with pytest.raises(FileFormatError) as info:
        list(iter_row_chunks(path))
    assert _problems(info) == want


def test_a_bom_inside_a_jsonl_file_names_its_line_and_cause(tmp_path):
    """Two files joined, the second with its BOM (issue 35, break-it 5 F19): Python's 'Unexpected UTF-8 BOM (decode
    using utf-8-sig)' was shown; the line of the BOM is named with what it means. The file's own BOM is removed."""
    row = '{"id": "%s", "prediction": "x"}\n'
    f = tmp_path / "joined.jsonl"
    f.write_bytes(("\ufeff" + row % "a" + row % "b" + "\ufeff" + row % "c").encode("utf-8"))
    with pytest.raises(FileFormatError) as e:
        read_rows(f)
    assert [str(p) for p in e.value.problems] == [
        f"{f}:3: a byte-order mark (U+FEFF) starts this line, inside the file: files joined together (the second "
        "one's BOM is then in the middle)? remove it"]
    assert "utf-8-sig" not in str(e.value)
