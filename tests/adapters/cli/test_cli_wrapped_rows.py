"""A JSON file of one object that wraps the rows (``{"data": [{...}, ...]}``, under any key): every door says the
rows seem to sit under that key and how to write them as JSON Lines, not only the object's fields."""

from __future__ import annotations

import json

import pytest

from zheval.io.jsonl import wrapped_rows_hint

from helpers.cli import ROWS, run_cli as run
from helpers.cli import write_jsonl

_ROWS = [{"predict": "今天天气好", "label": "今天天气很好"}, {"predict": "我们去公园", "label": "我们去公园玩"}]


@pytest.mark.parametrize("key", ["data", "rows", "结果", "my-rows"])
@pytest.mark.parametrize("stream", [False, True])
def test_records_door(tmp_path, key, stream):
    f = tmp_path / "obj.json"
    f.write_text(json.dumps({"version": 2, key: _ROWS}, ensure_ascii=False) + "\n", encoding="utf-8")
    res = run("score", "-p", f, "-q", "--bootstrap", 0, *(["--stream"] if stream else []))
    assert res.exit_code == 2, res.output
    assert f"{f}:1: one JSON object, not rows: the rows seem to sit under {key!r} (a list of 2 object(s)): write " \
           "them as JSON Lines, one object per line" in res.stderr
    jq = f".{key}[]" if key in ("data", "rows") else f".[{json.dumps(key, ensure_ascii=False)}][]"
    assert f"jq -c '{jq}' {f} > {tmp_path / 'obj'}.jsonl" in res.stderr


def test_predictions_and_data_doors(tmp_path):
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    preds = tmp_path / "preds.jsonl"
    preds.write_text(json.dumps({"data": [{"id": r["id"], "prediction": "你好"} for r in ROWS]}) + "\n", "utf-8")
    res = run("score", "-d", data, "-p", preds, "-q", "--bootstrap", 0)
    assert res.exit_code == 2 and f"{preds}:1: no prediction field" in res.stderr, res.output
    assert "the rows seem to sit under 'data' (a list of 3 object(s))" in res.stderr
    wrapped = tmp_path / "wrapped.jsonl"
    wrapped.write_text(json.dumps({"items": ROWS}, ensure_ascii=False) + "\n", "utf-8")
    res = run("score", "-d", wrapped, "-p", preds, "-q", "--bootstrap", 0)
    assert res.exit_code == 2 and f"{wrapped}:1: missing key(s)" in res.stderr, res.output
    assert "the rows seem to sit under 'items' (a list of 3 object(s))" in res.stderr


def test_the_hint_needs_one_list_of_objects():
    assert wrapped_rows_hint({"data": [{"a": 1}]}) is not None
    assert wrapped_rows_hint({"data": [{"a": 1}], "more": [{"b": 2}]}) is None  # two lists: which one?
    assert wrapped_rows_hint({"data": [{"a": 1}, "x"]}) is None
    assert wrapped_rows_hint({"data": []}) is None and wrapped_rows_hint({"data": ["a"]}) is None
    assert wrapped_rows_hint([{"a": 1}]) is None


def test_a_real_row_with_a_list_of_objects_is_scored(tmp_path):
    f = write_jsonl(tmp_path / "p.jsonl", [{"predict": "你好", "label": "你好", "messages": [{"role": "user"}]}])
    res = run("score", "-p", f, "-q", "--bootstrap", 0)
    assert res.exit_code == 0, res.output
