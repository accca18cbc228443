"""A judge ratings file (``zheval agree --predictions FILE --judge-ratings R``) is checked against the predictions
being scored (issue 35 F3): each row's ``prediction_sha256`` (what ``zheval judge --output`` writes) must be the
SHA-256 of that item's prediction, else the ratings are of other texts and the file is refused, naming the count
and the ids; a value that is no digest is refused; rows without one are scored with a note saying they could not be
checked. The files here are written by hand (no judge, no ``openai``), digests computed with ``hashlib``."""

from __future__ import annotations

import hashlib
import json

from helpers.cli import run_cli, write_jsonl

PREDS = ["今天天气很好", "明天有雨", "我们去公园", "你好\x1b[2J"]
REFS = ["今天天气不错", "明天下雨", "我们去公园散步", "你好啊"]


def _sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _agree(tmp_path, rows, name="r.jsonl"):
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": f"i{k}", "prediction": p, "reference": r}
                                              for k, (p, r) in enumerate(zip(PREDS, REFS))])
    ratings = tmp_path / name
    if name.endswith(".csv"):
        ratings.write_text("".join(",".join(map(str, r)) + "\n" for r in rows), encoding="utf-8")
    else:
        write_jsonl(ratings, rows)
    res = run_cli("agree", "-p", preds, "--judge-ratings", ratings, "--bootstrap", "0", "--format", "json")
    return res, preds, ratings


def test_digests_of_these_predictions_are_accepted_without_a_note(tmp_path):
    res, _, _ = _agree(tmp_path, [{"id": f"i{k}", "prediction_sha256": _sha(p), "overall": 1 + k}
                                  for k, p in enumerate(PREDS)])
    assert res.exit_code == 0, res.output
    assert "prediction_sha256" not in res.stdout


def test_digests_of_other_predictions_are_refused_naming_count_and_ids(tmp_path):
    other = ["今天天气很好", "明天晴", "我们去公园", "你好"]
    res, preds, ratings = _agree(tmp_path, [{"id": f"i{k}", "prediction_sha256": _sha(p), "overall": 1 + k}
                                            for k, p in enumerate(other)])
    assert res.exit_code == 2, res.output
    assert (f"{ratings}: the prediction_sha256 of 2 of 4 item(s) is not that of the prediction in {preds}: 'i1' "
            "(line 2), 'i3' (line 4); these ratings are of other texts") in res.stderr


def test_a_value_that_is_no_digest_is_refused(tmp_path):
    rows = [{"id": f"i{k}", "prediction_sha256": _sha(p), "overall": 1 + k} for k, p in enumerate(PREDS)]
    rows[2]["prediction_sha256"] = _sha(PREDS[2]).upper()
    res, _, ratings = _agree(tmp_path, rows)
    assert res.exit_code == 2, res.output
    assert f"{ratings}:3: prediction_sha256 of id 'i2' is '{_sha(PREDS[2]).upper()}', not a SHA-256 hex digest" \
        in res.stderr


def test_rows_without_a_digest_are_scored_with_a_note(tmp_path):
    rows = [{"id": f"i{k}", "prediction_sha256": _sha(p), "overall": 1 + k} for k, p in enumerate(PREDS)]
    del rows[0]["prediction_sha256"], rows[3]["prediction_sha256"]
    res, preds, ratings = _agree(tmp_path, rows)
    assert res.exit_code == 0, res.output
    notes = json.loads(res.stdout)["rating_notes"]
    assert (f"2 of 4 row(s) of the judge ratings file {ratings} have no prediction_sha256 (written by hand or before "
            f"zheval judge recorded it): those ratings could not be checked to be of the predictions in {preds}") \
        in notes


def test_a_csv_ratings_file_is_checked_too(tmp_path):
    rows = [("id", "prediction_sha256", "overall")] + [(f"i{k}", _sha(p), 1 + k) for k, p in enumerate(PREDS)]
    rows[4] = ("i3", _sha("你好"), 4)
    res, preds, ratings = _agree(tmp_path, rows, name="r.csv")
    assert res.exit_code == 2, res.output
    assert "the prediction_sha256 of 1 of 4 item(s) is not that of the prediction in" in res.stderr
    assert "'i3' (line 5)" in res.stderr
