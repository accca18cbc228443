"""A stored query compared with nothing (issue 35: nothing dropped silently). When a predictions file stores a
``query``/``prompt``/``instruction`` but the data has no query for the items (no ``query`` column in a library
Dataset; an empty or blank ``query`` in a 小黄鸭 file), nothing was compared and no note said so (a blank query was
even counted as compared: it is in every text). Now those lines are not compared and the report's notes say how
many and where, in text and JSON output alike, as for stored fields on some lines only
(`zheval.adapters.duck.inputs.stored_field_notes`). The counts are the items the test empties."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.cli import run_cli as run, twin, write_jsonl

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "zheval" / "data" / "duck_sample.jsonl"
ITEMS = [json.loads(x) for x in DATA.read_text("utf-8").splitlines() if x.strip()]
BLANK = {2: "", 5: " \u3000", 30: ""}  # item index -> its query in the test's data (empty, blank, empty)


def _files(tmp_path: Path, fields: tuple) -> tuple:
    data = write_jsonl(tmp_path / "data.jsonl", [{**it, "query": BLANK.get(k, it["query"])}
                                                 for k, it in enumerate(ITEMS)])
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": it["id"], "prediction": it["responses"][-1],
                                                **{f: it["query"] for f in fields}} for it in ITEMS])
    return data, preds


def _note(fields: str, n: int, first: str) -> str:
    return (f"{n} of 66 prediction line(s) store a {fields} that was not compared with anything: their item has no "
            f"query in the data (no 'query', or an empty one; first: {first})")


@pytest.mark.parametrize("fields, named", [(("query",), "'query'"), (("prompt",), "'prompt'"),
                                           (("query", "instruction"), "'query' / 'instruction'")])
def test_a_stored_query_whose_item_has_none_is_noted_in_json_and_text(tmp_path, fields, named):
    data, preds = _files(tmp_path, fields)
    res = run("score", "-d", data, "-p", preds, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    notes = json.loads(res.stdout)["notes"]
    assert _note(named, len(BLANK), f"{preds}:3") in notes, notes  # item 2 is on line 3
    res = run("score", "-d", data, "-p", preds, "--bootstrap", 0, "-q")
    assert res.exit_code == 0 and _note(named, len(BLANK), f"{preds}:3") in res.stdout, res.output


def test_a_blank_query_is_not_counted_as_compared(tmp_path):
    """The lines whose item has a blank query are not compared: a wrong stored query beside a blank item query is
    not a mismatch, and the other 63 lines are still compared (one wrong stored query there is warned about)."""
    from zheval.adapters.duck import join_predictions, load_duck, read_predictions

    data, preds = _files(tmp_path, ("query",))
    p = read_predictions(preds)
    p.queries[2] = p.queries[40] = "另一个问题"  # item 2's query is blank; item 40's is not
    join_predictions(load_duck(data), p)
    assert p.queries_checked == 66 - len(BLANK)
    assert p.queries_uncompared == sorted(BLANK)
    assert [(line, rid) for line, rid, _ in p.query_mismatches] == [(41, ITEMS[40]["id"])]


def test_a_dataset_without_a_query_column_gets_the_note(tmp_path):
    from datasets import Dataset

    from zheval.adapters.duck import evaluate_predictions

    _, preds = _files(tmp_path, ("query",))
    ds = Dataset.from_list([{"id": it["id"], "responses": it["responses"]} for it in ITEMS])
    rep = evaluate_predictions(ds, str(preds), by=(), bootstrap=0)
    assert _note("'query'", 66, f"{preds}:1") in rep.notes, rep.notes


def test_compare_prefixes_the_note_and_no_note_when_every_item_has_a_query(tmp_path):
    data, preds = _files(tmp_path, ("query",))
    copy = twin(preds)
    res = run("compare", "-d", data, "-p", preds, copy, "--bootstrap", 20, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    notes = json.loads(res.stdout)["notes"]
    for which, path in (("A", preds), ("B", copy)):
        assert f"{which}: " + _note("'query'", len(BLANK), f"{path}:3") in notes, notes
    res = run("score", "-d", DATA, "-p", preds, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0 and not [n for n in json.loads(res.stdout)["notes"] if "not compared" in n], res.output
