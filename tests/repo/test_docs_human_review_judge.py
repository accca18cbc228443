"""docs/human_review.md "Any judge": the commands run as written (in a scratch folder holding the embedded 小黄鸭
sample as test.jsonl / preds.jsonl), with the sheet filled in between as an LLM judge would (its own columns
overall and faithful) and an external score file (id,bertscore_f1) written as a tool would; the agreement table
then shows the external column and the judge's columns beside sentence BLEU, sentence chrF and every ROUGE type, and
the correlations are SciPy's on the joined values. The bad-input rules of the section are checked too."""

from __future__ import annotations

import csv
import io
import json
import shutil

from scipy.stats import spearmanr

from helpers import REPO
from helpers.cli import run_cli
from helpers.docs import zheval_commands

DOC = (REPO / "docs" / "human_review.md").read_text(encoding="utf-8")


def _commands():
    return zheval_commands(DOC[DOC.index("## Any judge"):])


def _fill(tmp_path):
    """The judge's sheet and the external scores; returns ``{id: (overall, faithful, bertscore)}``."""
    sheet = tmp_path / "judge_sheet.csv"
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8-sig"), newline="")))
    head = rows[0] + ["overall", "faithful"]
    values = {}
    for r in rows[1:]:
        n = int(r[0].rsplit("-", 1)[-1])
        overall, faithful = 1 + n % 5, 1 + (n * 3) % 4
        r += [str(overall), str(faithful)]
        values[r[0]] = (overall, faithful, round(0.5 + 0.08 * overall + 0.01 * (n % 3), 4))
    buf = io.StringIO()
    csv.writer(buf).writerows([head] + rows[1:])
    sheet.write_text(buf.getvalue(), encoding="utf-8")
    (tmp_path / "bertscore.csv").write_text(
        "id,bertscore_f1\n" + "".join(f"{k},{v[2]}\n" for k, v in values.items()), encoding="utf-8")
    return values


def test_any_judge_example_runs(tmp_path, monkeypatch):
    shutil.copy(REPO / "zheval" / "data" / "duck_sample.jsonl", tmp_path / "test.jsonl")
    shutil.copy(REPO / "zheval" / "data" / "duck_sample_predictions.jsonl", tmp_path / "preds.jsonl")
    monkeypatch.chdir(tmp_path)
    sample, agree = _commands()
    assert sample[0] == "sample" and agree[0] == "agree"
    res = run_cli(*sample, "-q")
    assert res.exit_code == 0, res.output
    values = _fill(tmp_path)
    res = run_cli(*agree)
    assert res.exit_code == 0, res.output
    table = res.stdout
    for label in ("bertscore_f1", "overall", "faithful", "sentence BLEU", "sentence chrF", "ROUGE-1", "ROUGE-2",
                  "ROUGE-L", "ROUGE-Lsum", "which metric agrees best"):
        assert label in table, label
    assert "relevance" in table  # named in the note on columns not used
    doc = json.loads(run_cli(*agree, "--format", "json").stdout)
    assert doc["ranking"]["overall"][0] == "bertscore_f1"  # built to follow the overall rating
    row = next(r for r in doc["rows"] if r["group"] == "overall" and r["metric"] == "bertscore_f1"
               and r["rating"] == "faithful")
    ids = list(values)
    expected = spearmanr([values[i][2] for i in ids], [values[i][1] for i in ids]).statistic
    assert abs(row["spearman"] - expected) < 1e-12 and row["spearman_low"] <= row["spearman"] <= row["spearman_high"]
    key = json.loads((tmp_path / "judge_key.json").read_text(encoding="utf-8"))
    chrf = next(r for r in doc["rows"] if r["group"] == "overall" and r["metric"] == "chrf"
                and r["rating"] == "overall")
    by_id = {it["id"]: it["scores"]["chrf"] for it in key["items"]}
    assert abs(chrf["spearman"] - spearmanr([by_id[i] for i in ids], [values[i][0] for i in ids]).statistic) < 1e-12


def test_bad_scores_and_columns_are_named(tmp_path, monkeypatch):
    shutil.copy(REPO / "zheval" / "data" / "duck_sample.jsonl", tmp_path / "test.jsonl")
    shutil.copy(REPO / "zheval" / "data" / "duck_sample_predictions.jsonl", tmp_path / "preds.jsonl")
    monkeypatch.chdir(tmp_path)
    sample, agree = _commands()
    assert run_cli(*sample, "-q").exit_code == 0
    values = _fill(tmp_path)
    ids = list(values)
    bad = tmp_path / "bertscore.csv"
    bad.write_text("id,bertscore_f1\n" + f"{ids[0]},0.9\n{ids[0]},0.8\nnot-an-item,0.5\n{ids[1]},high\n{ids[2]},\n",
                   encoding="utf-8")
    res = run_cli(*agree)
    assert res.exit_code == 2
    out = res.output
    assert f"bertscore.csv:3: id {ids[0]!r}: duplicate id (first seen at " in out and "bertscore.csv:2)" in out
    assert "bertscore.csv:4: id 'not-an-item' is not an item of the key" in out
    assert f"bertscore.csv:5: bertscore_f1 of id {ids[1]!r} is 'high', not a finite number" in out
    assert f"bertscore.csv:6: bertscore_f1 of id {ids[2]!r} is '', not a finite number" in out
    assert "item(s) of the key have no score here" in out
    bad.write_text("item,bertscore_f1\nx,0.5\n", encoding="utf-8")
    res = run_cli(*agree)
    assert res.exit_code == 2 and "bertscore.csv:1: the header has no id column" in res.output
    bad.write_text("id,chrf\n" + "".join(f"{i},0.5\n" for i in ids), encoding="utf-8")
    res = run_cli(*agree)
    assert res.exit_code == 2 and "bertscore.csv:1: column 'chrf' is also the key's metric 'chrf'" in res.output
    res = run_cli(*[a if a != "overall,faithful" else "overall,fluent" for a in agree][:-2])
    assert res.exit_code == 2 and "judge_sheet.csv:1: the header lacks column(s) fluent" in res.output
