"""``zheval score --data`` with predictions that carry no ids (issue 35 S4): they are paired with the items by line
order, and the report says so (its notes, in the JSON too); a stored query/prompt field that disagrees with the
item's query on most lines is refused, naming the lines (a shuffled file scored BLEU 0.020 instead of 0.354 without
a word)."""

from __future__ import annotations

import json

from helpers.cli import PREDS, ROWS, run_cli as run, write_jsonl


def _data(tmp_path):
    return write_jsonl(tmp_path / "test.jsonl", ROWS)


def test_predictions_without_ids_are_said_to_be_paired_by_line_order(tmp_path):
    data = _data(tmp_path)
    preds = write_jsonl(tmp_path / "p.jsonl", [{"prediction": p["prediction"]} for p in PREDS])
    res = run("score", "-d", data, "-p", preds, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    notes = json.loads(res.stdout)["notes"]
    assert any("no ids" in n and "line order" in n for n in notes), notes
    text = run("score", "-d", data, "-p", preds, "--bootstrap", 0, "-q")
    assert "line order" in text.output


def test_predictions_with_ids_have_no_such_note(tmp_path):
    data = _data(tmp_path)
    preds = write_jsonl(tmp_path / "p.jsonl", PREDS)
    res = run("score", "-d", data, "-p", preds, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    assert not any("line order" in n for n in json.loads(res.stdout)["notes"])


def test_a_stored_query_that_disagrees_is_refused(tmp_path):
    data = _data(tmp_path)
    rows = [{"query": r["query"], "prediction": p["prediction"]} for r, p in zip(ROWS, PREDS)]
    ok = write_jsonl(tmp_path / "ok.jsonl", rows)
    assert run("score", "-d", data, "-p", ok, "--bootstrap", 0, "-q").exit_code == 0
    shuffled = write_jsonl(tmp_path / "shuffled.jsonl", rows[1:] + rows[:1])
    res = run("score", "-d", data, "-p", shuffled, "--bootstrap", 0, "-q")
    assert res.exit_code == 2, res.output
    assert f"{shuffled}:1" in res.output and "query" in res.output and "line order" in res.output


def test_a_stored_query_in_other_width_punctuation_is_the_same_query(tmp_path):
    # break-it F11: "怎么退货?" (ASCII ?) is the item's "怎么退货？" once normalised as for scoring (NFKC); it used to
    # be counted as a mismatch (and refused). A stored query that is another one is still refused.
    data = _data(tmp_path)
    rows = [{"query": r["query"], "prediction": p["prediction"]} for r, p in zip(ROWS, PREDS)]
    rows[0]["query"] = "怎么退货?"
    rows[2]["query"] = "用户：明天穿什么　"  # an ideographic space
    ascii_q = write_jsonl(tmp_path / "ascii.jsonl", rows)
    res = run("score", "-d", data, "-p", ascii_q, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert not any("query" in w for w in out["warnings"]), out["warnings"]
    rows[0]["query"], rows[1]["query"] = "怎么换货?", "心情很好"
    other = write_jsonl(tmp_path / "other.jsonl", rows)
    res = run("score", "-d", data, "-p", other, "--bootstrap", 0, "-q")
    assert res.exit_code == 2, res.output
    assert f"{other}:1" in res.output and f"{other}:2" in res.output and "query" in res.output
