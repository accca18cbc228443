"""JSON nested more deeply than Python's reader goes (break-it: ``[`` * 2000): ``json.loads`` raises
``RecursionError``, which stopped every JSON door with a traceback (``zheval score -p``, ``score --data``,
``agree --judge-ratings``, ``--terms``, a rubric file, a review key). Each door now gives its malformed-JSON error
naming ``file:line`` and the column of the deepest bracket, exit 2 (`zheval.io.jsonl.JsonTooDeep`, raised by
``parse_json_line``). And a JSON ``true``/``false`` rating is shown as written, not as Python's ``True``.
Columns and depths below are counted by hand from the text written."""

from __future__ import annotations

import json

import pytest

from helpers.cli import PREDS, ROWS, run_cli, write_jsonl

from zheval.io.jsonl import parse_json_line

N = 2000
HEAD = '{"id": "q1", "prediction": "a", "references": '  # 46 characters
DEEP = HEAD + "[" * N + "]" * N + "}"
#: the deepest bracket: the object's brace, then N arrays, the last opening at column len(HEAD) + N
TOO_DEEP = (f"malformed JSON (nested too deeply at column {len(HEAD) + N}: {N + 1} arrays or objects inside one another, "
            "more than Python's JSON reader takes)")


def test_parse_json_line_raises_a_json_error_for_it():
    from zheval.io.jsonl import JsonTooDeep

    assert len(HEAD) == 46
    with pytest.raises(json.JSONDecodeError) as info:  # was RecursionError
        parse_json_line(DEEP)
    assert isinstance(info.value, JsonTooDeep)
    assert (info.value.depth, info.value.lineno, info.value.colno) == (N + 1, 1, 46 + N)
    with pytest.raises(JsonTooDeep) as info:  # brackets inside a string are text, not nesting
        parse_json_line('["]]]", ' + "[" * N + "]" * N + "]", numbers=True)
    assert (info.value.depth, info.value.colno) == (N + 1, 8 + N)


def _records(tmp_path):
    return write_jsonl(tmp_path / "ok.jsonl", [{"id": "q1", "prediction": "a", "references": ["a"]}])


def test_records_and_predictions_doors(tmp_path):
    deep = tmp_path / "deep.jsonl"
    deep.write_text(DEEP + "\n", encoding="utf-8")
    res = run_cli("score", "-p", deep)
    assert res.exit_code == 2, res.output
    assert res.stderr == f"zheval: error: invalid predictions file: 1 problem(s)\n  {deep}:1: {TOO_DEEP}\n"
    bare = tmp_path / "deep"  # no extension: sniffed as JSON Lines by its first line, not taken for text
    bare.write_text(DEEP + "\n", encoding="utf-8")
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    res = run_cli("score", "--data", data, "-p", bare)
    assert res.exit_code == 2, res.output
    assert f"{bare}:1: {TOO_DEEP}" in res.stderr


def test_the_data_door(tmp_path):
    head = '{"id": "q9", "query": "x", "responses": '
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS)
                    + head + "[" * N + "]" * N + "}\n", encoding="utf-8")
    res = run_cli("score", "--data", data, "-p", write_jsonl(tmp_path / "p.jsonl", PREDS))
    assert res.exit_code == 2, res.output
    assert (f"{data}:4: malformed JSON (nested too deeply at column {len(head) + N}: {N + 1} arrays or objects "
            "inside one another, more than Python's JSON reader takes)") in res.stderr
    assert "Traceback" not in res.output


def test_the_judge_ratings_and_rubric_doors(tmp_path):
    ratings = tmp_path / "ratings.jsonl"
    head = '{"id": "q1", "overall": '
    ratings.write_text(head + "[" * N + "]" * N + "}\n", encoding="utf-8")
    res = run_cli("agree", "-p", _records(tmp_path), "--judge-ratings", ratings, "--bootstrap", "0")
    assert res.exit_code == 2, res.output
    assert res.stderr == (f"zheval: error: invalid judge ratings file: 1 problem(s)\n  {ratings}:1: malformed JSON "
                          f"(nested too deeply at column {len(head) + N}: {N + 1} arrays or objects inside one "
                          "another, more than Python's JSON reader takes)\n")
    from zheval.compute.judge_rubric import read_rubric

    rubric = tmp_path / "rubric.json"
    rubric.write_text('{\n  "system": ' + "[" * N + "]" * N + "\n}\n", encoding="utf-8")
    with pytest.raises(ValueError) as info:  # was RecursionError
        read_rubric(str(rubric))
    assert str(info.value) == (f"{rubric}:2: the rubric file is not JSON (nested too deeply: {N + 1} arrays or "
                               "objects inside one another, more than Python's JSON reader takes)")


def test_the_terms_door(tmp_path):
    terms = tmp_path / "terms.txt"
    terms.write_text("订单页\n" + "[" * N + "]" * N + "\n", encoding="utf-8")
    ref, hyp = tmp_path / "r.txt", tmp_path / "h.txt"
    ref.write_text("订单页面\n", encoding="utf-8")
    hyp.write_text("订单页\n", encoding="utf-8")
    res = run_cli("bleu", ref, "-i", hyp, "--terms", terms)
    assert res.exit_code == 2, res.output
    assert res.stderr == (f"zheval: error: invalid --terms file: 1 problem(s)\n  {terms}:2: malformed JSON (nested "
                          f"too deeply at column {N}: {N} arrays or objects inside one another, more than Python's "
                          "JSON reader takes): a --terms file is plain text, one term per line (e.g. 快递柜, not "
                          '{"term": "快递柜"} or ["快递柜"])\n')


def test_the_review_key_door(tmp_path):
    from zheval.adapters.review.human_review import ReviewFileError, read_key

    key = tmp_path / "key.json"
    key.write_text('{"kind": ' + "[" * N + "]" * N + "}", encoding="utf-8")
    with pytest.raises(ReviewFileError) as info:  # was RecursionError
        read_key(key)
    assert info.value.problems == [f"{key}:1: not JSON (nested too deeply: {N + 1} arrays or objects inside one "
                                   "another, more than Python's JSON reader takes)"]


def test_a_json_boolean_rating_is_shown_as_written(tmp_path):
    # docs/cli.md: "a rating that is not a finite number, with its id and the value as written: `true`"; was True
    ratings = tmp_path / "ratings.jsonl"
    ratings.write_text('{"id": "q1", "overall": true, "faithful": false}\n', encoding="utf-8")
    res = run_cli("agree", "-p", _records(tmp_path), "--judge-ratings", ratings, "--bootstrap", "0")
    assert res.exit_code == 2, res.output
    assert f"{ratings}:1: overall of id 'q1' is true, not a number (a boolean is not a number)" in res.stderr
    assert f"{ratings}:1: faithful of id 'q1' is false, not a number (a boolean is not a number)" in res.stderr
    assert "True" not in res.stderr and "False" not in res.stderr
