"""A JSON file of one object that wraps the rows (``{"data": [{...}, ...]}``, under any key): every door says the
rows seem to sit under that key and how to write them as JSON Lines, not only the object's fields."""

from __future__ import annotations

import json

import pytest

from zheval.io.jsonl import wrapped_rows_hint

from helpers.cli import PREDS, ROWS, run_cli as run
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


def test_the_data_door_names_the_file_and_an_indented_wrapper_gets_the_rows_filter(tmp_path):
    """The --data door printed the placeholder ``jq -c '.data[]' FILE > FILE.jsonl``; an indented wrapper was told
    ``jq -c . FILE``, which writes the wrapper again on one line."""
    preds = write_jsonl(tmp_path / "preds.jsonl", [{"id": r["id"], "prediction": "你好"} for r in ROWS])
    wrapped = tmp_path / "wrapped.jsonl"
    wrapped.write_text(json.dumps({"data": ROWS}, ensure_ascii=False) + "\n", "utf-8")
    res = run("score", "-d", wrapped, "-p", preds, "-q", "--bootstrap", 0)
    assert res.exit_code == 2 and f"jq -c '.data[]' {wrapped} > {tmp_path / 'wrapped.rows.jsonl'}" in res.stderr, res.output
    assert " FILE" not in res.stderr
    indented = tmp_path / "wrap_i.json"
    indented.write_text(json.dumps({"data": ROWS}, ensure_ascii=False, indent=2) + "\n", "utf-8")
    res = run("score", "-d", indented, "-p", preds, "-q", "--bootstrap", 0)
    assert res.exit_code == 2 and "the rows seem to sit under 'data' (a list of 3 object(s))" in res.stderr
    assert f"jq -c '.data[]' {indented} > {tmp_path / 'wrap_i'}.jsonl" in res.stderr and "jq -c . " not in res.stderr


def test_the_judge_ratings_and_scores_doors(tmp_path):
    """``agree --judge-ratings`` said ``unknown key 'data'`` and ``--scores`` ``the header has no id column (it has
    data)``: both now give the wrapped-rows hint."""
    from zheval.adapters.review.external_scores import read_scores
    from zheval.adapters.review.review_files import ReviewFileError

    records = write_jsonl(tmp_path / "r.jsonl", [{"id": "q1", "prediction": "你好", "references": ["你好呀"]},
                                                  {"id": "q2", "prediction": "再见", "references": ["再见了"]}])
    ratings = tmp_path / "jr.jsonl"
    ratings.write_text(json.dumps({"data": [{"id": "q1", "overall": 4}, {"id": "q2", "overall": 3}]}) + "\n", "utf-8")
    res = run("agree", "-p", records, "--judge-ratings", ratings)
    assert res.exit_code == 2, res.output
    assert f"{ratings}:1: one JSON object, not rows: the rows seem to sit under 'data'" in res.stderr
    assert "unknown key 'data'" not in res.stderr
    scores = tmp_path / "s.jsonl"
    scores.write_text(json.dumps({"data": [{"id": "q1", "x": 0.5}]}) + "\n", "utf-8")
    with pytest.raises(ReviewFileError, match=r"one JSON object, not rows: the rows seem to sit under 'data'") as e:
        read_scores(scores, {"items": []})
    assert "no id column" not in str(e.value)


def _sample(tmp_path) -> tuple:
    """``zheval sample`` of the three-item sample: (key path, the sheet's rows filled with ratings)."""
    import csv

    data, preds = write_jsonl(tmp_path / "data.jsonl", ROWS), write_jsonl(tmp_path / "preds.jsonl", PREDS)
    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.json"
    res = run("sample", "-d", data, "-p", preds, "--k", 3, "--seed", 1, "-o", sheet, "--key", key, "-q")
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(sheet.open(encoding="utf-8-sig", newline="")))
    return key, [{**r, "relevance": 4, "informativeness": 3, "naturalness": 5} for r in rows]


@pytest.mark.parametrize("name,indent", [("sheet.jsonl", None), ("sheet.json", None), ("sheet.json", 2)])
@pytest.mark.parametrize("key", ["data", "rows"])
def test_the_ratings_sheet_door(tmp_path, name, indent, key):
    """``agree --ratings`` of one object wrapping the sheet's rows said ``no row has column(s) id, relevance, ...;
    the rows have data`` (no line, no way out); now the hint of every other JSON door, at ``file:line``."""
    import zheval.cli.agree  # noqa: F401  (registers the command)

    key_file, rows = _sample(tmp_path)
    sheet = tmp_path / name
    sheet.write_text(json.dumps({key: rows}, ensure_ascii=False, indent=indent) + "\n", "utf-8")
    res = run("agree", "--ratings", sheet, "--key", key_file)
    assert res.exit_code == 2, res.output
    at = f"{sheet}:1: one JSON object, not rows: " if indent is None else f"{sheet}: is one JSON object spread over"
    assert at in res.stderr, res.stderr
    assert f"the rows seem to sit under {key!r} (a list of 3 object(s))" in res.stderr
    assert f"jq -c '.{key}[]' {sheet} > {tmp_path / 'sheet'}{'' if name.endswith('.json') else '.rows'}.jsonl" \
        in res.stderr
    assert "no row has column" not in res.stderr and "Traceback" not in res.output
    unwrapped = write_jsonl(tmp_path / "unwrapped.jsonl", rows)  # the same rows, one per line: read
    assert run("agree", "--ratings", unwrapped, "--key", key_file, "--bootstrap", 0).exit_code == 0


def test_a_one_row_sheet_with_a_list_of_objects_is_no_wrapper(tmp_path):
    """A sheet row that has an id is a row, whatever list it holds: the hint is for objects without the row's
    columns."""
    from zheval.adapters.review.review_files import read_review_file

    f = write_jsonl(tmp_path / "one.jsonl", [{"id": "q1", "relevance": 4, "notes": [{"by": "a"}]}])
    assert len(read_review_file(f, "ratings sheet", fields=["id", "relevance"]).rows) == 1


#: every door that reads rows -> the command with WRAPPED for the file under test (the rows: ROWS, PREDS or records)
_DOORS = {
    "--data": lambda w, g: ("score", "-d", w("data", ROWS), "-p", g["preds"], "-q", "--bootstrap", 0),
    "--predictions": lambda w, g: ("score", "-d", g["data"], "-p", w("preds", PREDS), "-q", "--bootstrap", 0),
    "records": lambda w, g: ("score", "-p", w("rec", g["records"]), "-q", "--bootstrap", 0),
    "records --stream": lambda w, g: ("score", "-p", w("rec", g["records"]), "-q", "--bootstrap", 0, "--stream"),
    "agree --ratings": lambda w, g: ("agree", "--ratings", w("sheet", g["sheet"]), "--key", g["key"]),
    "agree --scores": lambda w, g: ("agree", "--ratings", g["sheet_file"], "--key", g["key"], "--scores",
                                    w("scores", [{"id": r["id"], "x": 0.5} for r in g["sheet"]])),
    "agree --judge-ratings": lambda w, g: ("agree", "-p", g["records_file"], "--judge-ratings",
                                           w("jr", [{"id": r["id"], "overall": 4} for r in g["records"]])),
}


@pytest.mark.parametrize("door", list(_DOORS))
def test_every_row_door_gives_the_hint_at_file_line(tmp_path, door):
    """The kind: each door that reads rows from JSON Lines gives the wrapped-rows hint at ``file:1``."""
    import zheval.cli.agree  # noqa: F401

    key, sheet = _sample(tmp_path)
    records = [{"id": p["id"], "prediction": p["prediction"], "references": r["responses"]}
               for p, r in zip(PREDS, ROWS)]
    g = {"data": tmp_path / "data.jsonl", "preds": tmp_path / "preds.jsonl", "key": key, "sheet": sheet,
         "sheet_file": write_jsonl(tmp_path / "filled.jsonl", sheet), "records": records,
         "records_file": write_jsonl(tmp_path / "records.jsonl", records)}

    def wrapped(stem, rows):
        f = tmp_path / f"w_{stem}.jsonl"
        f.write_text(json.dumps({"data": rows}, ensure_ascii=False) + "\n", "utf-8")
        g["wrapped"] = f
        return f

    res = run(*_DOORS[door](wrapped, g))
    assert res.exit_code == 2, res.output
    f = g["wrapped"]
    assert f"{f}:1: " in res.stderr and "the rows seem to sit under 'data'" in res.stderr, res.stderr
    assert f"jq -c '.data[]' {f} > {str(f)[:-6]}.rows.jsonl" in res.stderr  # never > the file it reads
