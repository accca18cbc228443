"""README "Human review" and "Comparing systems" stay true: the human-review commands run as written (in a scratch
folder holding the embedded sample under the same relative paths), with the sheet filled in between as a rater would,
and the agreement report they write has the sampled items; the compare example's options exist."""

from __future__ import annotations

import csv
import io
import json
import shutil


from helpers import REPO
from helpers.cli import run_cli
from helpers.docs import doc_section as section, zheval_commands

README = (REPO / "README.md").read_text(encoding="utf-8")




def commands(heading: str) -> list[list[str]]:
    return zheval_commands(section(heading))


def test_human_review_example_runs(tmp_path, monkeypatch):
    data = tmp_path / "zheval" / "data"
    data.mkdir(parents=True)
    for name in ("duck_sample.jsonl", "duck_sample_predictions.jsonl"):
        shutil.copy(REPO / "zheval" / "data" / name, data / name)
    monkeypatch.chdir(tmp_path)
    sample, agree = commands("## Human review")
    assert sample[0] == "sample" and agree[0] == "agree"
    res = run_cli(*sample, "-q")
    assert res.exit_code == 0, res.output
    sheet = tmp_path / "review_sheet.csv"
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8-sig"), newline="")))
    assert len(rows) == 31
    # a rater: a score for every cell (1-5), the item number decides
    head = rows[0]
    for r in rows[1:]:
        n = int(r[0].rsplit("-", 1)[-1])
        for j, c in enumerate(("relevance", "informativeness", "naturalness")):
            r[head.index(c)] = str(1 + (n + j * 2) % 5)
    buf = io.StringIO()
    csv.writer(buf).writerows(rows)
    sheet.write_text(buf.getvalue(), encoding="utf-8")
    res = run_cli(*agree)
    assert res.exit_code == 0, res.output
    rep = json.loads((tmp_path / "agreement.json").read_text(encoding="utf-8"))
    overall = [r for r in rep["rows"] if r["group"] == "overall"]
    assert len(overall) == 4 * 3 and all(r["n"] == 30 for r in overall)
    assert rep["params"]["sample"] == {"by_metric": "rougeL", "k": 30, "seed": 7, "n_items": 66}


def test_compare_example_options_exist():
    (args,) = commands("## Comparing systems")
    assert args[0] == "compare"
    res = run_cli("compare", "--help")
    for flag in (a for a in args if a.startswith("--")):
        assert flag in res.output, flag
