"""``zheval agree --judge-ratings``: each rating checked as the judge checks an answer -- an integer on the rubric's
scale, the literal an integer (break-it F4: 6, 4.5, 0, -1 entered the correlations while ``zheval judge`` refuses
them from the model); a row recording a failure and ratings too is an error; the failures a file records are listed
by id and kind (``read_judge_ratings(...).failures``), not only counted. Expected texts are written by hand."""

from __future__ import annotations

import json

import zheval.cli.judge  # noqa: F401  (registers the command)
from helpers.chat_server import ChatServer
from helpers.cli import run_cli, write_jsonl

from zheval.cli.layers import read_judge_ratings

IDS = ["i0", "i1", "i2", "i3"]
TAIL = "a rating is an integer from 1 to 5, written without a fraction or an exponent)"


def _records(tmp_path):
    rows = [{"id": i, "prediction": p, "reference": r} for i, p, r in
            zip(IDS, ["今天天气很好", "明天有雨", "我们去公园", "你好"], ["今天天气不错", "明天下雨", "我们去公园散步", "你好啊"])]
    return write_jsonl(tmp_path / "preds.jsonl", rows)


def _agree(tmp_path, lines, *extra, name="ratings.jsonl"):
    path = _records(tmp_path)
    ratings = tmp_path / name
    ratings.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    res = run_cli("agree", "--predictions", path, "--judge-ratings", ratings, "--format", "json", "--bootstrap", "0",
                  *extra)
    return res, ratings


def _refused_four(res, ratings) -> None:
    """The run exited 2 with the heading of four off-scale ratings in ``ratings``."""
    assert res.exit_code == 2, res.stdout
    assert f"the judge ratings file {ratings} has 4 rating(s) that are not integers on the scale 1-5: 4 problem(s)" \
        in res.stderr


def test_ratings_off_the_scale_are_errors_naming_line_id_criterion_value_and_scale(tmp_path):
    res, r = _agree(tmp_path, ['{"id": "i0", "overall": 6}', '{"id": "i1", "overall": 4.5}',
                               '{"id": "i2", "overall": 0}', '{"id": "i3", "overall": -1}'])
    _refused_four(res, r)
    assert (f"{r}:1: overall of id 'i0' is 6, not a rating on the scale 1-5 of the default rubric (outside 1-5; "
            + TAIL) in res.stderr
    assert (f"{r}:2: overall of id 'i1' is 4.5, not a rating on the scale 1-5 of the default rubric (not an integer; "
            + TAIL) in res.stderr
    assert f"{r}:3: overall of id 'i2' is 0, not a rating on the scale 1-5 of the default rubric (outside 1-5; " \
        in res.stderr
    assert f"{r}:4: overall of id 'i3' is -1, not a rating on the scale 1-5 of the default rubric (outside 1-5; " \
        in res.stderr


def test_whole_floats_are_not_integer_literals(tmp_path):
    # 4.0, 4e0 and 4.9999999999999999 (a float reads it as 5.0) are not "an integer on the scale" as the judge reads
    # its answers; neither is a CSV cell 4.0
    res, r = _agree(tmp_path, ['{"id": "i0", "overall": 4.0}', '{"id": "i1", "overall": 4e0}',
                               '{"id": "i2", "overall": 4.9999999999999999}', '{"id": "i3", "overall": 3}'])
    assert res.exit_code == 2
    for line, rid, value in [(1, "i0", "4.0"), (2, "i1", "4e0"), (3, "i2", "4.9999999999999999")]:
        assert (f"{r}:{line}: overall of id '{rid}' is {value}, not a rating on the scale 1-5 of the default rubric "
                f"(not an integer; " + TAIL) in res.stderr
    assert "i3" not in res.stderr
    res, r = _agree(tmp_path, ["id,overall", "i0,4.0", "i1, 6 ", "i2,3", "i3,+2"], name="ratings.csv")
    assert res.exit_code == 2
    assert f"{r}:2: overall of id 'i0' is '4.0', not a rating on the scale 1-5 of the default rubric (not an integer;" \
        in res.stderr
    assert f"{r}:3: overall of id 'i1' is '6', not a rating on the scale 1-5 of the default rubric (outside 1-5;" \
        in res.stderr
    assert "i2" not in res.stderr and "i3" not in res.stderr


def test_the_rubric_names_the_scale(tmp_path):
    rubric = tmp_path / "rub.json"
    rubric.write_text(json.dumps({"system": "s", "criteria": ["overall"], "scale": [0, 10]}), encoding="utf-8")
    res, r = _agree(tmp_path, ['{"id": "i0", "overall": 10}', '{"id": "i1", "overall": 0}',
                               '{"id": "i2", "overall": 11}', '{"id": "i3", "overall": 6}'], "--rubric", rubric)
    assert res.exit_code == 2
    assert (f"{r}:3: overall of id 'i2' is 11, not a rating on the scale 0-10 of --rubric {rubric} (outside 0-10; "
            "a rating is an integer from 0 to 10, written without a fraction or an exponent)") in res.stderr
    assert "i0" not in res.stderr and "i1" not in res.stderr and "i3" not in res.stderr
    res, r = _agree(tmp_path, ['{"id": "i0", "overall": 10}', '{"id": "i1", "overall": 0}',
                               '{"id": "i2", "overall": 7}', '{"id": "i3", "overall": 6}'], "--rubric", rubric)
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["ratings"]["rating:overall"] == [10.0, 0.0, 7.0, 6.0]


def test_a_failure_beside_ratings_is_a_contradiction(tmp_path):
    failure = '{"kind": "out_of_range", "detail": "d", "answer": "a", "attempts": 3}'
    res, r = _agree(tmp_path, ['{"id": "i0", "overall": 5, "failure": null}',
                               '{"id": "i1", "overall": 2, "failure": ' + failure + '}',
                               '{"id": "i2", "overall": 4, "failure": "timeout"}',
                               '{"id": "i3", "overall": null, "failure": 7}'])
    assert res.exit_code == 2
    assert (f"{r}:2: id 'i1' records a failure (out_of_range) and ratings too (overall): a failed item has no "
            "rating (null), a rated one no failure (null)") in res.stderr
    assert f"{r}:3: id 'i2' records a failure (timeout) and ratings too (overall)" in res.stderr
    assert (f"{r}:4: id 'i3': 'failure' must be null or an object with a 'kind' string (as zheval judge --output "
            "writes it), got 7") in res.stderr


def test_failures_written_by_zheval_judge_are_listed_by_id_and_kind(tmp_path):
    rows = [{"id": "a", "prediction": "今天天气很好", "reference": "今天天气不错"},
            {"id": "b", "prediction": "好 RANGE-ALWAYS", "reference": "好"},
            {"id": "c", "prediction": "你好", "reference": "你好啊"},
            {"id": "d", "prediction": "坏 BADJSON-ALWAYS", "reference": "坏"}]
    path = write_jsonl(tmp_path / "preds.jsonl", rows)
    with ChatServer() as server:
        res = run_cli("judge", path, "--base-url", server.base_url, "--model", "m", "--api-key", "k",
                      "--answer-retries", "1", "--cache-dir", tmp_path / "cache", "--output", tmp_path / "jout.jsonl")
    assert res.exit_code == 0, res.output
    got = read_judge_ratings(tmp_path / "jout.jsonl", ["a", "b", "c", "d"], records=str(path))
    assert [(f["item"], f["id"], f["kind"], f["attempts"]) for f in got.failures] == \
        [(1, "b", "out_of_range", 2), (3, "d", "unparsable", 2)]
    assert got.failures[0]["detail"] == "'overall' is 0, outside 1-5"
    assert got["rating:overall"][1] is None and got["rating:overall"][3] is None
    assert got["rating:overall"][0] is not None and got["rating:overall"][2] is not None


def test_negative_zero_is_shown_as_written(tmp_path):
    # JSON reads -0 as the int 0: the message showed "is 0"; values are shown as written (as the judge's answers are)
    res, r = _agree(tmp_path, ['{"id": "i0", "overall": -0, "fluent": 4}', '{"id": "i1", "overall": 0, "fluent": 4}',
                               '{"id": "i2", "overall":  -0 , "fluent": -0}', '{"id": "i3", "overall": 3, "fluent": 4}'])
    _refused_four(res, r)
    for line, rid, crit, value in [(1, "i0", "overall", "-0"), (2, "i1", "overall", "0"), (3, "i2", "overall", "-0"),
                                   (3, "i2", "fluent", "-0")]:
        assert (f"{r}:{line}: {crit} of id '{rid}' is {value}, not a rating on the scale 1-5 of the default rubric "
                f"(outside 1-5; " + TAIL) in res.stderr
