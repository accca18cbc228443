"""``zheval score -p RECORDS --max-refs K`` (issue 35 P2): the records door takes --max-refs as the 小黄鸭 door and the
library do; the numbers equal the library on each row's first K references, the signature says maxrefs:K and the
report counts the references left out."""

from __future__ import annotations

import json

import zheval
from helpers.cli import ROWS, PREDS, run_cli as run, write_jsonl


def test_max_refs_on_a_records_file(tmp_path):
    rows = [{"id": r["id"], "prediction": p["prediction"], "references": r["responses"]} for r, p in zip(ROWS, PREDS)]
    assert any(len(r["references"]) > 1 for r in rows)
    records = write_jsonl(tmp_path / "records.jsonl", rows)
    res = run("score", "-p", records, "--id-field", "id", "--max-refs", 1, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    overall = report["groups"][0]["scores"]
    preds, first = [r["prediction"] for r in rows], [r["references"][:1] for r in rows]
    assert overall["bleu"]["value"] == zheval.compute_bleu(preds, first)["bleu"]
    assert overall["rougeL"]["value"] == zheval.compute_rouge(preds, first)["rougeL"]
    assert "maxrefs:1" in json.dumps(report["signatures"])
    dropped = sum(len(r["references"]) - 1 for r in rows)
    assert str(dropped) in json.dumps(report)


def test_max_refs_that_cuts_nothing_is_said(tmp_path):
    """Break-it (words13 F9): ``--max-refs 5`` on data whose items have at most 4 references changed no score but
    the signature read maxrefs:5 without a word: the report's notes say it cut nothing (JSON and table); a limit that
    cuts gets no such note."""
    rows = [{"id": r["id"], "prediction": p["prediction"], "references": r["responses"]} for r, p in zip(ROWS, PREDS)]
    most = max(len(r["references"]) for r in rows)
    assert most > 1
    records = write_jsonl(tmp_path / "records.jsonl", rows)
    res = run("score", "-p", records, "--id-field", "id", "--max-refs", most + 3, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    notes = json.loads(res.stdout)["notes"]
    said = [n for n in notes if "cut nothing" in n]
    assert said == [f"the reference limit of {most + 3} (max_refs, --max-refs) cut nothing: no item has more than "
                    f"{most + 3} references, so every item is scored with all of its references, as without the "
                    f"limit (the signature still reads maxrefs:{most + 3})"], notes
    res = run("score", "-p", records, "--id-field", "id", "--max-refs", most, "--bootstrap", 0, "-q")
    assert res.exit_code == 0 and f"the reference limit of {most} (max_refs, --max-refs) cut nothing" in res.stdout, \
        res.output
    for cut in (1, most - 1):  # a limit that cuts some item gets no such note
        res = run("score", "-p", records, "--id-field", "id", "--max-refs", cut, "--bootstrap", 0, "-q", "-f", "json")
        assert not [n for n in json.loads(res.stdout)["notes"] if "cut nothing" in n]
