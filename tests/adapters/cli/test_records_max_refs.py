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
