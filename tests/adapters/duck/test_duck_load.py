"""小黄鸭 loader: strict line-by-line validation (file:line, id, all problems together), explicit Features, splits."""

from __future__ import annotations

import json
import re

import pytest
from datasets import Dataset, DatasetDict, Value

from helpers import shared_path
from zheval.adapters.duck import DuckFormatError, load_duck, read_duck_rows, sample_files, write_duck
from zheval.adapters.duck.load import list_feature

GOOD = {"id": "a1", "query": "取件码在哪看？", "responses": ["在APP里看。", "短信里有。"], "domain": "售后支持", "difficulty": "易"}


def _line(**kw) -> str:
    row = dict(GOOD)
    row.update(kw)
    return json.dumps(row, ensure_ascii=False)


def _write(tmp_path, name, lines, raw: bytes | None = None):
    p = tmp_path / name
    if raw is not None:
        p.write_bytes(raw)
    else:
        p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def test_features_are_explicit_and_rows_kept_in_order(tmp_path):
    p = _write(tmp_path, "t.jsonl", [_line(id="x1"), _line(id="x2", domain=None, difficulty=None)])
    ds = load_duck(p)
    assert isinstance(ds, Dataset)
    assert ds.features["responses"] == list_feature(Value("string"))
    assert ds.features["domain"] == Value("string")
    assert ds["id"] == ["x1", "x2"]
    assert ds[1]["domain"] is None and ds[1]["difficulty"] is None
    assert ds[0]["responses"] == ["在APP里看。", "短信里有。"]


def test_bom_crlf_and_blank_lines_are_accepted(tmp_path):
    body = ("\ufeff" + _line(id="b1") + "\r\n\r\n   \r\n" + _line(id="b2") + "\r\n").encode("utf-8")
    ds = load_duck(_write(tmp_path, "bom.jsonl", None, raw=body))
    assert ds["id"] == ["b1", "b2"]
    assert ds[0]["query"] == "取件码在哪看？"


def test_directory_and_mapping_give_dataset_dict(tmp_path):
    d = tmp_path / "duck"
    d.mkdir()
    _write(d, "train.jsonl", [_line(id="t1"), _line(id="t2")])
    _write(d, "test.jsonl", [_line(id="s1")])
    dd = load_duck(d)
    assert isinstance(dd, DatasetDict) and set(dd) == {"train", "test"}
    assert dd["train"]["id"] == ["t1", "t2"]
    dd2 = load_duck({"dev": d / "test.jsonl"})
    assert list(dd2) == ["dev"] and dd2["dev"]["id"] == ["s1"]


def test_id_repeated_across_splits_is_an_error(tmp_path):
    a = _write(tmp_path, "train.jsonl", [_line(id="same")])
    b = _write(tmp_path, "test.jsonl", [_line(id="other"), _line(id="same")])
    with pytest.raises(DuckFormatError) as ei:
        load_duck({"train": a, "test": b})
    msg = str(ei.value)
    assert f"{b}:2: id 'same': duplicate id (first seen at {a}:1)" in msg


@pytest.mark.parametrize(
    "line, expected",
    [
        ("{not json", "malformed JSON"),
        ("[1, 2]", "expected a JSON object, got array"),
        (_line(id=7.0), "the id field 'id' must be a non-empty string or an integer, got number 7.0"),
            (_line(id=True), "the id field 'id' must be a non-empty string or an integer, got boolean True"),
        (_line(responses="不客气"), "'responses' must be a non-empty list of strings, got string"),
        (_line(responses=[]), "'responses' is an empty list"),
        (_line(responses=["好的。", ""]), "responses[1] is empty or whitespace only"),
        (_line(responses=["好的。", 3]), "responses[1] must be a string, got integer"),
        (_line(query=None), "'query' must be a string, got null"),
        (_line(domain="闲聊"), "'domain' '闲聊' is not one of ['生活咨询', '售后支持', '情感陪伴'] or null"),
        (_line(difficulty=2), "'difficulty' must be a string or null, got integer"),
        (json.dumps({k: v for k, v in GOOD.items() if k != "difficulty"}, ensure_ascii=False), "missing key(s) ['difficulty']"),
        (_line(extra=1), "unexpected key(s) ['extra']"),
    ],
)
def test_each_malformed_line_is_named_by_file_line(tmp_path, line, expected):
    p = _write(tmp_path, "bad.jsonl", [_line(id="ok1"), line])
    with pytest.raises(DuckFormatError) as ei:
        load_duck(p)
    assert isinstance(ei.value, ValueError)
    assert f"{p}:2: " in str(ei.value)
    assert expected in str(ei.value)


def test_problem_names_the_id_when_known(tmp_path):
    p = _write(tmp_path, "bad.jsonl", [_line(id="q-9", responses="不客气")])
    with pytest.raises(DuckFormatError, match=r"bad.jsonl:1: id 'q-9': 'responses' must be"):
        load_duck(p)


def test_duplicate_ids_in_one_file(tmp_path):
    p = _write(tmp_path, "dup.jsonl", [_line(id="d"), _line(id="e"), _line(id="d")])
    with pytest.raises(DuckFormatError, match=r"dup.jsonl:3: id 'd': duplicate id \(first seen at .*dup.jsonl:1\)"):
        load_duck(p)


def test_undecodable_utf8_is_reported_with_its_line(tmp_path):
    raw = (_line(id="u1") + "\n").encode() + b'{"id": "u2", "query": "\xff\xfe"}\n'
    p = _write(tmp_path, "enc.jsonl", None, raw=raw)
    # the byte counted from 1 as the line is (words13 F13: it was 0-based): '{"id": "u2", "query": "' is 23 bytes
    assert b'{"id": "u2", "query": "\xff'.index(b"\xff") == 23
    with pytest.raises(DuckFormatError, match=r"enc.jsonl:2: not valid UTF-8 \(byte 24 of the line: b'\\xff\\xfe\"}'\)"):
        load_duck(p)


def test_several_problems_are_listed_together_first_20(tmp_path):
    lines = [_line(id=f"i{k}", responses="x") for k in range(25)] + ["{oops"]
    p = _write(tmp_path, "many.jsonl", lines)
    with pytest.raises(DuckFormatError) as ei:
        load_duck(p)
    err = ei.value
    assert len(err.problems) == 26
    msg = str(err)
    assert "26 problem(s), first 20 shown" in msg
    assert f"{p}:1: id 'i0'" in msg and f"{p}:20: id 'i19'" in msg
    assert f"{p}:21:" not in msg
    assert "… and 6 more" in msg


def test_missing_file_and_empty_directory(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_duck(tmp_path / "nope.jsonl")
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="no \\*.jsonl"):
        load_duck(tmp_path / "empty")
    with pytest.raises(TypeError):
        load_duck(42)


def test_domains_can_be_relaxed(tmp_path):
    p = _write(tmp_path, "open.jsonl", [_line(domain="闲聊")])
    assert read_duck_rows(p, domains=None)[0]["domain"] == "闲聊"


def test_real_crosswoz_groups_load_with_null_labels():
    ds = load_duck(shared_path("crosswoz_same_query_groups.jsonl"))
    assert len(ds) == 85
    assert set(ds["domain"]) == {None} and set(ds["difficulty"]) == {None}
    assert all(3 <= len(r) <= 5 for r in ds["responses"])


def test_embedded_sample_is_valid_and_covers_domains_and_difficulties():
    with sample_files() as files:
        ds = load_duck(files["data"])
        preds = [json.loads(x) for x in files["predictions"].read_text(encoding="utf-8").splitlines()]
    assert len(ds) >= 60
    for dom in ("生活咨询", "售后支持", "情感陪伴"):
        for diff in ("易", "中", "难"):
            assert sum(1 for a, b in zip(ds["domain"], ds["difficulty"]) if a == dom and b == diff) >= 3
    assert all(3 <= len(r) <= 6 for r in ds["responses"])
    assert [p["id"] for p in preds] == ds["id"]


def test_write_duck_roundtrip_is_atomic(tmp_path):
    src = _write(tmp_path, "in.jsonl", [_line(id="w1"), _line(id="w2", domain=None)])
    ds = load_duck(src)
    out = tmp_path / "out.jsonl"
    assert write_duck(ds, out) == 2
    assert load_duck(out)["id"] == ["w1", "w2"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_load_duck_empty_file_and_empty_split(tmp_path):
    from zheval.adapters.duck import DuckFormatError, load_duck
    from zheval.adapters.duck.load import EmptyDataError

    data = _write(tmp_path, "data.jsonl", [_line(id="q1"), _line(id="q2"), _line(id="q3")])
    empty = tmp_path / "dev.jsonl"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(EmptyDataError, match=f"no items in {re.escape(str(empty))}"):
        load_duck(empty)
    with pytest.raises(DuckFormatError, match=f"no items in {re.escape(str(empty))}"):
        load_duck({"test": data, "dev": empty})
    with pytest.raises(IsADirectoryError, match="is a directory"):
        from zheval.adapters.duck import read_predictions

        read_predictions(tmp_path)
