"""``zheval agree`` says what it cannot do instead of reporting it as a result (issue 35): a review sheet with no
ratings (or with fewer rated items than a correlation needs) is written out and then exits 1 ("nothing to
correlate", as ``zheval judge`` exits 1 when nothing is rated), and so is the three-layer mode whose judge ratings
rate nothing; a records sample (no domain) has no ``domain=null`` group repeating the overall rows, and items without
a domain beside items with one are said; a sheet where no row has the rating columns is one problem naming the
columns expected and those present (not one "the other rows have it" per row); one --scores file given twice, or
written over by --output, is named once. The live judge that rates nothing: ``test_cli_judge_endpoint.py``."""

from __future__ import annotations

import csv
import io
import json

from helpers.cli import records_sheet, run_cli, write_jsonl

PAIRS = [("今天天气很好", "今天天气不错"), ("明天有雨", "明天下雨"), ("我们去公园", "我们去公园散步"), ("你好", "你好啊"),
         ("再见", "再见了"), ("谢谢你", "多谢")]
COLUMNS = ("relevance", "informativeness", "naturalness")


def _records_sample(tmp_path):
    """``zheval sample`` of a records file (predictions with their references, no domain): (sheet, key)."""
    return records_sheet(tmp_path, PAIRS)[:2]


def _fill(sheet, out, rate):
    """The sheet with rating cell j of the k-th row set to ``rate(k, j)`` (text; ``""``: left empty), written to
    ``out``."""
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8-sig"), newline="")))
    cols = [rows[0].index(c) for c in COLUMNS]
    for k, row in enumerate(rows[1:]):
        for j, c in enumerate(cols):
            row[c] = rate(k, j)
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    out.write_text(buf.getvalue(), encoding="utf-8")
    return out


def test_a_sheet_without_enough_ratings_exits_1_after_the_report(tmp_path):
    sheet, key = _records_sample(tmp_path)
    res = run_cli("agree", "--ratings", sheet, "--key", key, "--bootstrap", "0", "-f", "json")
    assert res.exit_code == 1, res.output  # was 0, with n=0 in every row
    assert json.loads(res.stdout)["empty"]["relevance"]  # the report (listing the empty cells) is written first
    assert ("zheval: error: nothing to correlate: a correlation needs at least 3 rated items, and no rating column "
            "has them (relevance: 0 of 6 item(s) rated, informativeness: 0 of 6 item(s) rated, naturalness: 0 of 6 "
            f"item(s) rated); fill in the rating columns of {sheet} (empty cells are listed in the report's notes)"
            ) in res.stderr
    two = _fill(sheet, tmp_path / "two.csv", lambda k, j: str(1 + k) if k < 2 else "")
    res = run_cli("agree", "--ratings", two, "--key", key, "--bootstrap", "0")
    assert res.exit_code == 1 and "(relevance: 2 of 6 item(s) rated, informativeness: 2 of 6" in res.stderr
    three = _fill(sheet, tmp_path / "three.csv", lambda k, j: str(1 + k) if k < 3 else "")
    res = run_cli("agree", "--ratings", three, "--key", key, "--bootstrap", "0")
    assert res.exit_code == 0 and "nothing to correlate" not in res.output


def test_a_records_sample_has_no_domain_group(tmp_path):
    sheet, key = _records_sample(tmp_path)
    filled = _fill(sheet, tmp_path / "f.csv", lambda k, j: str(1 + (k * (j + 2)) % 5))
    res = run_cli("agree", "--ratings", filled, "--key", key, "--bootstrap", "0", "-f", "json")
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    assert {r["group"] for r in rep["rows"]} == {"overall"}  # was also domain=null, the same rows again
    assert len(rep["rows"]) == 4 * 3  # sentence BLEU, ROUGE-1/2/L x the three rating columns
    table = run_cli("agree", "--ratings", filled, "--key", key, "--bootstrap", "0")
    assert table.exit_code == 0 and "domain=" not in table.stdout


def test_items_without_a_domain_beside_items_with_one_are_said():
    from zheval.adapters.review.human_review import review_agreement

    key = {"metrics": [{"name": "bleu", "label": "sentence BLEU"}], "rating_columns": ["overall"],
           "items": [{"id": f"i{k}", "domain": "甲" if k < 3 else None, "scores": {"bleu": k / 10}}
                     for k in range(6)]}
    ratings = {f"i{k}": {"overall": float(1 + k % 4)} for k in range(6)}
    rep = review_agreement(ratings, key, bootstrap=0)
    assert [r["group"] for r in rep.rows] == ["overall", "domain=甲", "domain=null"]
    assert "3 of 6 item(s) have no domain in the key: their rows are domain=null" in rep.notes


def test_no_row_with_the_rating_columns_is_one_problem_naming_expected_and_present(tmp_path):
    sheet, key = _records_sample(tmp_path)
    ids = [json.loads(key.read_text(encoding="utf-8"))["items"][k]["id"] for k in range(len(PAIRS))]
    jl = write_jsonl(tmp_path / "judge.jsonl", [{"id": i, "overall": 3} for i in ids])
    res = run_cli("agree", "--ratings", jl, "--key", key)
    assert res.exit_code == 2
    assert f"cannot read the ratings sheet {jl}: 1 problem(s)" in res.stderr  # was 19: one per row and column
    assert (f"{jl}: no row has column(s) relevance, informativeness, naturalness: expected id and the rating columns "
            "relevance, informativeness, naturalness (the key's; --ratings-columns chooses others); the rows have id, "
            "overall") in res.stderr
    assert "the other rows have it" not in res.stderr
    res = run_cli("agree", "--ratings", jl, "--key", key, "--ratings-columns", "overall,faithful")
    assert res.exit_code == 2 and (f"{jl}: no row has column(s) faithful: expected id and the rating columns overall, "
                                   "faithful (--ratings-columns); the rows have id, overall") in res.stderr


def test_one_scores_file_is_named_once(tmp_path):
    sheet, key = _records_sample(tmp_path)
    ids = [it["id"] for it in json.loads(key.read_text(encoding="utf-8"))["items"]]
    scores = tmp_path / "bert.csv"
    scores.write_text("id,bert\n" + "".join(f"{i},0.{k}\n" for k, i in enumerate(ids)), encoding="utf-8")
    for second in (scores, tmp_path / "." / "bert.csv"):
        res = run_cli("agree", "--ratings", sheet, "--key", key, "--scores", scores, "--scores", second)
        assert res.exit_code == 2  # was "column 'bert' is also a column of --scores bert.csv"
        assert (f"zheval: error: --scores {second}: the same file given more than once; give each file once"
                in res.stderr)
    res = run_cli("agree", "--ratings", sheet, "--key", key, "--scores", scores, "-o", scores)
    assert res.exit_code == 2  # was "(--output X is --scores X X)"
    assert f"--output must differ from the input file (--output {scores} is --scores {scores})\n" in res.stderr


def test_judge_ratings_that_rate_nothing_exit_1(tmp_path):
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": f"i{k}", "prediction": p, "reference": r}
                                               for k, (p, r) in enumerate(PAIRS)])
    ratings = write_jsonl(tmp_path / "r.jsonl", [{"id": f"i{k}", "overall": None} for k in range(len(PAIRS))])
    res = run_cli("agree", "-p", preds, "--judge-ratings", ratings, "--bootstrap", "0", "-f", "json")
    assert res.exit_code == 1, res.output
    assert json.loads(res.stdout)["n"] == 6
    assert ("nothing to correlate: a correlation needs at least 3 rated items, and no rating column has them "
            f"(rating:overall: 0 of 6 item(s) rated); --judge-ratings {ratings} has too few ratings") in res.stderr
