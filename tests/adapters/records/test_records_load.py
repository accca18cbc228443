"""zheval.adapters.records: predictions files that carry their references (JSONL, CSV, TSV, Parquet), read with
the fields named or LLaMA-Factory's defaults, every bad row named file:line, nothing dropped."""

from __future__ import annotations

import json

import pytest

from zheval.adapters.duck.load import EmptyDataError
from zheval.adapters.records import Records, RecordsFormatError, read_records, records_format


def write_jsonl(path, rows):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n" for r in rows),
                    encoding="utf-8")
    return path


def problems_of(exc) -> list[str]:
    return [str(p) for p in exc.value.problems]


def test_llamafactory_defaults_predict_and_label(tmp_path):
    f = write_jsonl(tmp_path / "generated_predictions.jsonl", [
        {"prompt": "问1", "predict": "好的", "label": "好的，谢谢"},
        {"prompt": "问2", "predict": "", "label": "不客气"},  # an empty prediction is a prediction
    ])
    r = read_records(f)
    assert r.predictions == ["好的", ""] and r.references == [["好的，谢谢"], ["不客气"]]
    assert r.ids == ["line 1", "line 2"] and r.lines == [1, 2] and r.fields["pred"] == "predict"
    assert r.fields["ref"] == ["label"] and r.kind == "jsonl"


def test_named_fields_list_references_ids_and_groups(tmp_path):
    f = write_jsonl(tmp_path / "dump.jsonl", [
        {"qid": 7, "output": "甲", "answers": ["甲乙", "甲丙"], "category": "售后"},
        "",
        {"qid": "x8", "output": "乙", "answers": "乙丁", "category": None},
    ])
    r = read_records(f, pred_field="output", ref_field="answers", id_field="qid", group_fields=["category"])
    assert r.ids == ["7", "x8"]  # an integer id is its decimal string
    assert r.references == [["甲乙", "甲丙"], ["乙丁"]]
    assert r.groups == {"category": ["售后", None]} and r.lines == [1, 3]
    ds = r.dataset()
    assert ds.column_names == ["id", "responses", "category"] and ds["responses"] == r.references
    assert r.locations() == {"7": (str(f), 1, ["answers[0]", "answers[1]"]), "x8": (str(f), 3, ["'answers'"])}


def test_several_reference_fields_are_concatenated_in_order(tmp_path):
    f = write_jsonl(tmp_path / "d.jsonl", [{"p": "a", "r2": "second", "r1": ["first", "also first"]}])
    r = read_records(f, pred_field="p", ref_field=["r1", "r2"])
    assert r.references == [["first", "also first", "second"]]



def test_a_null_one_of_several_references_is_no_reference_there_as_an_empty_csv_cell(tmp_path):
    # break-it: an empty CSV cell of gold2 was no reference (noted), a JSON/Parquet null of it an error ("got null")
    import pyarrow as pa
    import pyarrow.parquet as pq

    from zheval import compute_rouge
    from zheval.adapters.records import score_records

    rows = [{"p": "今天天气很好", "gold1": "今天天气不错", "gold2": "天气很好"},
            {"p": "我喜欢猫", "gold1": "我爱猫", "gold2": None}]
    kw = dict(pred_field="p", ref_field=["gold1", "gold2"])
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "d.parquet")
    for f in (write_jsonl(tmp_path / "d.jsonl", rows), tmp_path / "d.parquet"):
        r = read_records(f, **kw)
        assert r.references == [["今天天气不错", "天气很好"], ["我爱猫"]] and r.empty_reference_cells == {"gold2": 1}
        assert r.reference_names == [["'gold1'", "'gold2'"], ["'gold1'"]]
        rep = score_records(f, metrics=["rouge"], rouge_types=["rouge1"], bootstrap=0, **kw)
        want = compute_rouge(["今天天气很好", "我喜欢猫"], [["今天天气不错", "天气很好"], ["我爱猫"]],
                             rouge_types=["rouge1"])["rouge1"]
        assert rep.to_dict()["groups"][0]["scores"]["rouge1"]["value"] == pytest.approx(want, abs=1e-12)
        assert "1 row(s) have an empty 'gold2' cell: no reference there (those rows are scored with the references " \
               "they have)" in rep.notes
    # what stays an error: every reference null; the only reference field null; a row without the field (a missing
    # field is not a null: every row is read with the same fields); an explicit "" (JSONL/Parquet say "none" with
    # null, so "" is an empty reference, as a lone " " cell is in a CSV); a null inside a list
    bad = write_jsonl(tmp_path / "bad.jsonl", [
        {"p": "a", "gold1": None, "gold2": None}, {"p": "b", "gold1": "乙"}, {"p": "c", "gold1": "丙", "gold2": ""},
        {"p": "d", "gold1": "丁", "gold2": ["丁", None]}])
    with pytest.raises(RecordsFormatError) as e:
        read_records(bad, **kw)
    assert problems_of(e) == [
        f"{bad}:1: every reference field ['gold1', 'gold2'] is null; at least one reference is needed",
        f"{bad}:2: missing field(s) ['gold2'] (this row has ['gold1', 'p']); every row is read with the same fields, "
        "here 'p' and 'gold1' and 'gold2' (the first row's, or those named): write every row with them, or name the "
        'fields the rows use with pred_field="NAME", ref_field="NAME" (a row without one of several references '
        "writes it null)",
        f"{bad}:3: 'gold2' is empty or whitespace only",
        f"{bad}:4: gold2[1] must be a string, got null"]
    pq.write_table(pa.Table.from_pylist([{"p": "a", "gold1": None}, {"p": "b", "gold1": ""}]), tmp_path / "one.parquet")
    with pytest.raises(RecordsFormatError) as e:
        read_records(tmp_path / "one.parquet", pred_field="p", ref_field="gold1")
    assert problems_of(e) == [
        f"{tmp_path / 'one.parquet'}:1: 'gold1' must be a string or a list of strings (the reference(s)), got null",
        f"{tmp_path / 'one.parquet'}:2: 'gold1' is empty or whitespace only"]

def test_every_bad_row_is_named_with_its_line(tmp_path):
    f = write_jsonl(tmp_path / "bad.jsonl", [
        {"predict": "ok", "label": "ok"},
        {"predict": ["a list"], "label": "x"},           # 2: a list where a string is expected
        {"label": "y"},                                    # 3: missing prediction
        {"predict": "z", "label": []},                     # 4: empty reference list
        {"predict": "z", "label": ["fine", 3]},            # 5: a number in the list
        {"predict": "z", "label": "   "},                  # 6: whitespace-only reference
        {"predict": None, "label": "q"},                   # 7: null prediction
        '{"predict": "z", "label": "a", "label": "b"}',    # 8: a key given twice
        "{not json",                                       # 9
        "[1, 2]",                                          # 10: not an object
    ])
    with pytest.raises(RecordsFormatError) as e:
        read_records(f)
    got = problems_of(e)
    name = str(f)
    assert got[0] == f"{name}:2: the prediction 'predict' must be a string, got array (a list is accepted for a " \
                     "reference field only)"
    assert got[1].startswith(f"{name}:3: missing field(s) ['predict']")
    lines = [g.split(":")[1] for g in got]
    assert lines == ["2", "3", "4", "5", "6", "7", "8", "9", "10"]  # every bad line, none dropped, in order
    assert "label[1] must be a string, got integer" in got[3]
    assert "empty or whitespace only" in got[4]
    assert "use \"\" for an empty prediction" in got[5]
    assert "more than once" in got[6]
    assert "malformed JSON" in got[7] and "expected a JSON object, got array" in got[8]


def test_ids_duplicate_across_int_and_string_and_bad_id_types(tmp_path):
    f = write_jsonl(tmp_path / "ids.jsonl", [
        {"id": 7, "predict": "a", "label": "a"},
        {"id": "7", "predict": "b", "label": "b"},
        {"id": ["x"], "predict": "c", "label": "c"},
        {"id": True, "predict": "d", "label": "d"},
        {"id": "", "predict": "e", "label": "e"},
    ])
    with pytest.raises(RecordsFormatError) as e:
        read_records(f, id_field="id")
    got = problems_of(e)
    assert got[0] == f"{f}:2: id '7': duplicate id (first seen at {f}:1)"
    assert "must be a non-empty string or an integer, got array" in got[1]
    assert "got boolean True" in got[2] and "got string ''" in got[3]


def test_group_values_strings_integers_or_null_only(tmp_path):
    f = write_jsonl(tmp_path / "g.jsonl", [
        {"predict": "a", "label": "a", "g": 3},
        {"predict": "a", "label": "a", "g": ["x"]},
        {"predict": "a", "label": "a", "g": 1.5},
        {"predict": "a", "label": "a"},
    ])
    with pytest.raises(RecordsFormatError) as e:
        read_records(f, group_fields=["g"])
    got = problems_of(e)
    assert [g.split(":")[1] for g in got] == ["2", "3", "4"]
    assert "the group field 'g' must be a string, an integer or null, got array" in got[0]
    assert "got number" in got[1] and "missing field(s) ['g']" in got[2]


def test_no_default_field_names_the_option(tmp_path):
    f = write_jsonl(tmp_path / "o.jsonl", [{"output": "a", "answers": ["a"]}])
    with pytest.raises(RecordsFormatError, match=r"o.jsonl:1: no prediction field named: the first row has none of "
                                                 r"\['predict', 'prediction'\].*name it with pred_field=\"NAME\"$"):
        read_records(f)
    with pytest.raises(RecordsFormatError, match=r"no reference field named.*name it with ref_field=\"NAME\"$"):
        read_records(f, pred_field="output")


@pytest.mark.parametrize("kwargs, message", [
    (dict(ref_field=["label", "label"]), "ref_field names ['label'] more than once"),
    (dict(group_fields=["g", "g"]), "group_fields names ['g'] more than once"),
    (dict(group_fields=["label"]), "field 'label' is named as both ref_field and group_fields"),
    (dict(id_field="predict"), "field 'predict' is named as both pred_field and id_field"),
    (dict(group_fields=["responses"]), "cannot be used"),
])
def test_field_names_in_two_roles_or_twice_are_refused(tmp_path, kwargs, message):
    f = write_jsonl(tmp_path / "f.jsonl", [{"predict": "a", "label": "a", "g": "x", "responses": "r"}])
    with pytest.raises(ValueError) as e:
        read_records(f, **kwargs)
    assert message in str(e.value)


def test_json_array_document_is_one_problem(tmp_path):
    f = tmp_path / "rows.json"
    f.write_text(json.dumps([{"predict": "a", "label": "a"}, {"predict": "b", "label": "b"}], indent=2), encoding="utf-8")
    with pytest.raises(RecordsFormatError) as e:
        read_records(f)
    got = problems_of(e)
    assert len(got) == 1 and "is one JSON array of 2 item(s), not JSON Lines" in got[0]


def test_encodings_and_empty_files(tmp_path):
    f = tmp_path / "u16.jsonl"
    f.write_bytes(json.dumps({"predict": "好", "label": "好"}, ensure_ascii=False).encode("utf-16"))
    with pytest.raises(RecordsFormatError, match="UTF-16"):
        read_records(f)
    g = tmp_path / "gbk.jsonl"
    g.write_bytes(("\n".join(json.dumps({"predict": "你好世界", "label": "你好"}, ensure_ascii=False)
                             for _ in range(3)) + "\n").encode("gb18030"))
    with pytest.raises(RecordsFormatError, match="GB18030"):
        read_records(g)
    e = tmp_path / "empty.jsonl"
    e.write_text("\n  \n", encoding="utf-8")
    with pytest.raises(EmptyDataError, match="no items"):
        read_records(e)
    bom = tmp_path / "bom.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + json.dumps({"predict": "a", "label": "b"}).encode() + b"\r\n")
    assert read_records(bom).references == [["b"]]


def test_csv_and_tsv_rows_lines_and_problems(tmp_path):
    f = tmp_path / "t.csv"
    # line 3 holds a quoted cell with a line break, so the row after it starts on line 5
    f.write_text('id,output,ref1,ref2,domain\n'
                 'a,甲,甲乙,甲丙,售后\n'
                 'b,"乙\n乙",乙丁,乙戊,\n'
                 'c,丙,丙丁\n'
                 'd,丁,,丁戊,情感\n'
                 'e,戊,,,情感\n', encoding="utf-8")
    with pytest.raises(RecordsFormatError) as e:
        read_records(f, pred_field="output", ref_field=["ref1", "ref2"], id_field="id", group_fields=["domain"])
    got = problems_of(e)
    # row d has one reference (an empty cell of several reference columns is no reference: break-it 29); row e none
    assert got == [f"{f}:5: 3 cell(s), but the header has 5 columns",
                   f"{f}:7: id 'e': every reference cell ['ref1', 'ref2'] is empty; at least one reference is needed"]
    f.write_text('id,output,ref1,ref2,domain\na,甲,甲乙,甲丙,售后\nb,"乙\n乙",乙丁,乙戊,\n', encoding="utf-8")
    r = read_records(f, pred_field="output", ref_field=["ref1", "ref2"], id_field="id", group_fields=["domain"])
    assert r.predictions == ["甲", "乙\n乙"] and r.references == [["甲乙", "甲丙"], ["乙丁", "乙戊"]]
    assert r.groups == {"domain": ["售后", None]} and r.lines == [2, 3]  # an empty CSV cell is null
    t = tmp_path / "t.tsv"
    t.write_text("predict\tlabel\n好\t好的\n", encoding="utf-8")
    assert read_records(t).references == [["好的"]] and records_format(t) == "tsv"
    d = tmp_path / "dup.csv"
    d.write_text("predict,label,label\na,b,c\n", encoding="utf-8")
    with pytest.raises(RecordsFormatError, match=r"dup.csv:1: the header names column\(s\) \['label'\] more than once"):
        read_records(d)


def test_parquet_with_list_references_equals_the_jsonl(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [{"id": "q1", "output": "我爱北京", "answers": ["我爱北京天安门", "北京"], "cat": "a"},
            {"id": "q2", "output": "今天天气", "answers": ["今天天气很好"], "cat": None}]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "d.parquet")
    j = write_jsonl(tmp_path / "d.jsonl", rows)
    kw = dict(pred_field="output", ref_field="answers", id_field="id", group_fields=["cat"])
    a, b = read_records(tmp_path / "d.parquet", **kw), read_records(j, **kw)
    assert (a.ids, a.predictions, a.references, a.groups) == (b.ids, b.predictions, b.references, b.groups)
    assert a.kind == "parquet" and a.lines == [1, 2]  # Parquet: the 1-based row number
    pq.write_table(pa.Table.from_pylist([{"output": 3, "answers": ["x"]}]), tmp_path / "bad.parquet")
    with pytest.raises(RecordsFormatError, match=r"bad.parquet:1: the prediction 'output' must be a string, got integer"):
        read_records(tmp_path / "bad.parquet", pred_field="output", ref_field="answers")
    (tmp_path / "junk.parquet").write_text("not parquet", encoding="utf-8")
    with pytest.raises(RecordsFormatError, match="cannot be read as Parquet"):
        read_records(tmp_path / "junk.parquet")


def test_paths_and_formats(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_records(tmp_path / "missing.jsonl")
    with pytest.raises(IsADirectoryError):
        read_records(tmp_path)
    with pytest.raises(ValueError, match="unknown records format 'xml'"):
        read_records(tmp_path / "x.xml", format="xml")
    assert [records_format(p) for p in ("a.jsonl", "a.json", "a.CSV", "a.pq", "a.out")] == \
        ["jsonl", "jsonl", "csv", "parquet", "jsonl"]
    assert isinstance(Records(ids=[], predictions=[], references=[]), Records)


@pytest.mark.parametrize("suffix, text, line", [
    (".jsonl", '{"prediction": "猫坐", "reference": "猫趴"}\n{"prediction": "狗", "reference": "狗跑", "ID": "c"}\n', 2),
    (".jsonl", '{"prediction": "猫坐", "reference": "猫趴", "id ": "b"}\n', 1),
    (".csv", "ID,prediction,reference\na,猫坐,猫趴\n", 1),
    (".tsv", "Id\tprediction\treference\na\t猫坐\t猫趴\n", 1),
])
def test_an_id_field_under_another_spelling_is_refused_not_ignored(tmp_path, suffix, text, line):
    """Second break-it pass: 'ID' / 'id ' / 'Id' without an 'id' field was ignored (rows named 'line N', exit 0);
    whole file and --stream refuse it at its line, naming id_field= (the argument); named with it, it is the id."""
    from zheval.adapters.records import read_records
    from zheval.adapters.records_stream import stream_records

    path = tmp_path / f"rows{suffix}"
    path.write_text(text, encoding="utf-8")
    for read in (lambda: read_records(path), lambda: list(stream_records(path))):
        with pytest.raises(RecordsFormatError,
                           match=rf"rows{suffix}:{line}: the field '.+' is not 'id' .*name it with id_field='.+'$"):
            read()
    if suffix == ".csv":
        assert read_records(path, id_field="ID").ids == ["a"]
