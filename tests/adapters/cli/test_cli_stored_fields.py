"""Predictions joined to a 小黄鸭 file BY ID that store a query or references (issue 35, third break-it pass): a
stored ``query``/``prompt`` that is not the item's query, or stored ``references``/``reference`` that are none of
the item's references, were ignored without a word (the checks ran for ids-less files, and only ``label`` was
compared by id). Now they are checked as ``label`` is, by id or by order: below 20% a warning with the count and the
first ``file:line`` in the file's own field name, above it a refusal. The counts are known by construction (the
lines the test gave another item's field), never read from our output."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from helpers.cli import run_cli as run, write_jsonl

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "zheval" / "data" / "duck_sample.jsonl"
ITEMS = [json.loads(x) for x in DATA.read_text("utf-8").splitlines() if x.strip()]


def _rows(field: str, swapped: int) -> list:
    """One prediction per item, with its id, in reverse order (so line order cannot pair them), storing ``field``
    of its own item except for the first ``swapped`` items, which store the next item's."""
    rows = []
    for k, it in enumerate(ITEMS):
        src = ITEMS[(k + 1) % len(ITEMS)] if k < swapped else it
        value = src["query"] if field in ("query", "prompt", "instruction") else src["responses"]
        rows.append({"id": it["id"], "prediction": it["responses"][0], field: value})
    return rows[::-1]


def _line_of(rows: list, item_id: str) -> int:
    return next(n for n, r in enumerate(rows, 1) if r["id"] == item_id)


def test_the_packaged_items_differ_in_query_and_references():
    # what the counts below rely on: no item's query or reference is another item's
    assert len({it["query"] for it in ITEMS}) == len(ITEMS) == 66
    for a, b in zip(ITEMS, ITEMS[1:] + ITEMS[:1]):
        assert not set(b["responses"]) & set(a["responses"])


@pytest.mark.parametrize("field, what", [("query", "item's query"), ("prompt", "item's query"),
                                         ("instruction", "item's query"),
                                         ("references", "none of their item's references")])
def test_a_few_disagreeing_fields_are_warned_by_id(tmp_path, field, what):
    good = write_jsonl(tmp_path / "good.jsonl", _rows(field, 0))
    res = run("score", "-d", DATA, "-p", good, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    assert not [w for w in json.loads(res.stdout)["warnings"] if repr(field) in w]
    rows = _rows(field, 3)
    p = write_jsonl(tmp_path / "p.jsonl", rows)
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    (w,) = [w for w in json.loads(res.stdout)["warnings"] if repr(field) in w]
    assert f"3 of 66 prediction line(s) store a {field!r} that" in w and what in w and "joined by id" in w, w
    assert f"{p}:{_line_of(rows, ITEMS[0]['id'])} (item {ITEMS[0]['id']!r})" in w, w


@pytest.mark.parametrize("field, needle", [("query", "on 30 of 66 lines the stored 'query' is not the item's query"),
                                           ("references", "30 of 66 items store a 'references' that is not among")])
def test_many_disagreeing_fields_are_refused_by_id(tmp_path, field, needle):
    rows = _rows(field, 30)
    p = write_jsonl(tmp_path / "p.jsonl", rows)
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q")
    assert res.exit_code == 2, res.output
    assert needle in res.output and "are joined to the items by id" in res.output, res.output
    assert f"{p}:{_line_of(rows, ITEMS[0]['id'])}: " in res.output
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q", "--label-check", "warn")
    assert res.exit_code == 0, res.output


def _csv(path: Path, rows: list, field: str) -> Path:
    """``rows`` as a CSV of ``id``, ``prediction`` and ``field`` (its first text when it is a list)."""
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "prediction", field])
        w.writerows([r["id"], r["prediction"], r[field] if isinstance(r[field], str) else r[field][0]] for r in rows)
    return path


def test_a_reference_column_of_a_csv_is_checked_too(tmp_path):
    rows = _rows("reference", 2)
    p = _csv(tmp_path / "p.csv", rows, "reference")
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    (w,) = [w for w in json.loads(res.stdout)["warnings"] if "'reference'" in w]
    assert "2 of 66 prediction line(s) store a 'reference'" in w
    assert f"{p}:{_line_of(rows, ITEMS[0]['id']) + 1} (item {ITEMS[0]['id']!r})" in w  # + 1: the header line


def test_a_stored_reference_that_is_not_text_is_refused(tmp_path):
    rows = _rows("references", 0)
    rows[4]["references"] = ["好的", 2]
    p = write_jsonl(tmp_path / "p.jsonl", rows)
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q")
    assert res.exit_code == 2
    assert f"{p}:5: id {rows[4]['id']!r}: references[1] must be a string, got integer" in res.output


def test_a_stored_empty_reference_list_is_refused_not_taken_as_matching(tmp_path):
    # second break-it pass: "references": [] compared nothing and passed as "all among the item's references"
    rows = _rows("references", 0)
    rows[2]["references"] = []
    p = write_jsonl(tmp_path / "p.jsonl", rows)
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q")
    assert res.exit_code == 2
    assert f"{p}:3: id {rows[2]['id']!r}: 'references' is an empty list" in res.output


def test_alpaca_records_compare_instruction_and_input(tmp_path):
    # Alpaca's instruction/input/output: the query may be the instruction, or the input after a fixed instruction
    rows = [{"id": it["id"], "instruction": "请回复用户：", "input": it["query"], "output": it["responses"][0],
             "predict": it["responses"][0]} for it in ITEMS]
    p = write_jsonl(tmp_path / "alpaca.jsonl", rows)
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    assert not [w for w in json.loads(res.stdout)["warnings"] if "'instruction'" in w]
    rows[7]["input"] = ITEMS[8]["query"]
    p = write_jsonl(tmp_path / "alpaca1.jsonl", rows)
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q", "-f", "json")
    (w,) = [w for w in json.loads(res.stdout)["warnings"] if "'instruction'" in w]
    assert f"1 of 66 prediction line(s) store a 'instruction'" in w and f"{p}:8 (item {ITEMS[7]['id']!r})" in w, w


@pytest.mark.parametrize("field, value, kind", [("instruction", ["请回复"], "array"), ("instruction", 3, "integer"),
                                               ("query", {"text": "你好"}, "object"), ("input", ["x"], "array")])
def test_a_stored_query_that_is_not_text_is_refused(tmp_path, field, value, kind):
    rows = _rows("instruction", 0)
    rows[2][field] = value
    p = write_jsonl(tmp_path / "p.jsonl", rows)
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q")
    assert res.exit_code == 2, res.output
    name = "'input' (with 'instruction')" if field == "input" else repr(field)
    assert f"{p}:3: id {rows[2]['id']!r}: {name} must be a string, got {kind}" in res.output, res.output


def test_a_query_column_of_a_csv_is_compared_by_id(tmp_path):
    p = _csv(tmp_path / "p.csv", _rows("query", 4), "query")
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    (w,) = [w for w in json.loads(res.stdout)["warnings"] if "'query'" in w]
    assert "4 of 66 prediction line(s) store a 'query'" in w and "joined by id" in w, w


def _query_and_instruction(swapped: int) -> list:
    """Rows storing a generic ``query`` (no item's) and Alpaca's ``instruction`` with the item's query, except the
    first ``swapped`` items, whose ``instruction`` is the next item's query; ids in reverse order."""
    rows = _rows("instruction", swapped)
    for r in rows:
        r["query"] = "请回答下面的问题"
    assert not any("请回答下面的问题" in it["query"] for it in ITEMS)
    return rows


def test_an_instruction_beside_a_query_is_compared_too(tmp_path):
    # break-it of issue 35: only the first present of query/prompt/instruction was read, so this file (the item's
    # query in 'instruction' only) was refused as 66 of 66 mismatching 'query's, and an 'instruction' beside a
    # right 'query' was never looked at; now every present field counts, their texts joined
    p = write_jsonl(tmp_path / "good.jsonl", _query_and_instruction(0))
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    assert not [w for w in json.loads(res.stdout)["warnings"] if "'query'" in w or "'instruction'" in w]
    rows = _query_and_instruction(3)
    p = write_jsonl(tmp_path / "p.jsonl", rows)
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    (w,) = [w for w in json.loads(res.stdout)["warnings"] if "'instruction'" in w]
    assert "3 of 66 prediction line(s) store a 'query' / 'instruction' that is not their item's query" in w, w
    assert f"{p}:{_line_of(rows, ITEMS[0]['id'])} (item {ITEMS[0]['id']!r})" in w, w


def test_many_disagreeing_query_and_instruction_are_refused_naming_both(tmp_path):
    p = write_jsonl(tmp_path / "p.jsonl", _query_and_instruction(30))
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q")
    assert res.exit_code == 2, res.output
    assert "on 30 of 66 lines the stored 'query' / 'instruction' is not the item's query" in res.output, res.output


def test_an_instruction_that_is_not_text_beside_a_query_is_refused(tmp_path):
    rows = _rows("query", 0)
    rows[5]["instruction"] = ["请回复"]
    p = write_jsonl(tmp_path / "p.jsonl", rows)
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q")
    assert res.exit_code == 2, res.output
    assert f"{p}:6: id {rows[5]['id']!r}: 'instruction' must be a string, got array" in res.output, res.output
