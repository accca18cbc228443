"""``zheval judge`` and ``zheval agree --judge-ratings`` on the command line, through the real ``openai`` client
against the scripted OpenAI-compatible server on 127.0.0.1 (``tests/helpers/chat_server.py``): failures listed by id,
model text escaped on the terminal and exact in the ratings file, both orders asked in pairwise mode, errors as one
line. Needs the judge extra only (no torch: ``.ci/extras-floor`` runs this file at openai's floor); the three-layer
table with a BERTScore column is in ``test_cli_layers.py``."""

from __future__ import annotations

import hashlib
import json

import pytest

import zheval.cli.judge  # noqa: F401  (registers the command)
from helpers.chat_server import ChatServer
from helpers.cli import run_cli, write_jsonl


def test_judge_on_a_records_file(tmp_path):
    rows = [{"id": "a", "prediction": "今天天气很好", "reference": "今天天气不错", "query": "天气？"},
            {"id": "b\x1b[2J", "prediction": "好 BADJSON-ALWAYS", "reference": "好", "query": "好？"},
            {"id": "c", "prediction": "ECHO 你好\x1b]0;pwned\x07", "reference": "你好", "query": "问候"}]
    path = write_jsonl(tmp_path / "preds.jsonl", rows)
    with ChatServer() as server:
        res = run_cli("judge", path, "--base-url", server.base_url, "--model", "qwen2.5:7b", "--api-key", "k",
                      "--source-field", "query", "--answer-retries", "1", "--cache-dir", tmp_path / "cache",
                      "--output", tmp_path / "ratings.jsonl")
        assert any("【原文或问题】\n天气？" in b["messages"][-1]["content"] for b in server.requests)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "2 of 3 items rated" in out and "no valid rating for 1 item(s)" in out
    assert "b\\x1b[2J: unparsable" in out  # the id, escaped, with the kind of failure
    assert "\x1b" not in out and "\x07" not in out
    ratings = [json.loads(x) for x in (tmp_path / "ratings.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in ratings] == ["a", "b\x1b[2J", "c"]
    assert ratings[1]["overall"] is None and ratings[1]["failure"]["kind"] == "unparsable"
    assert ratings[2]["reason"] == "ECHO 你好\x1b]0;pwned\x07"  # exact in the file
    assert isinstance(ratings[0]["overall"], int)


def test_judge_errors_are_one_line(tmp_path):
    path = write_jsonl(tmp_path / "p.jsonl", [{"prediction": "好", "reference": "好"}])
    res = run_cli("judge", path, "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--source-field", "query")
    assert res.exit_code == 2 and "--source-field 'query': no such field" in res.stderr


def test_agree_with_ratings_made_earlier(tmp_path):
    rows = [{"id": f"i{k}", "prediction": p, "reference": r} for k, (p, r) in
            enumerate(zip(["今天天气很好", "明天有雨", "我们去公园", "你好"], ["今天天气不错", "明天下雨", "我们去公园散步", "你好啊"]))]
    path = write_jsonl(tmp_path / "preds.jsonl", rows)
    write_jsonl(tmp_path / "ratings.jsonl", [{"id": f"i{k}", "overall": v, "reason": "r", "failure": None}
                                             for k, v in enumerate([5, 2, 4, None])])
    res = run_cli("agree", "--predictions", path, "--judge-ratings", tmp_path / "ratings.jsonl", "--format",
                  "markdown", "--bootstrap", "0")
    assert res.exit_code == 0, res.output
    assert "| overall | BLEU | rating:overall | 3 (-1) |" in res.stdout
    bad = run_cli("agree", "--predictions", path)
    assert bad.exit_code == 2 and "--judge-url and --judge-model, or --judge-ratings" in bad.stderr


def _agree_ratings(tmp_path, lines, *extra):
    """``zheval agree --judge-ratings`` on four items i0..i3 with a ratings file of these raw JSON ``lines``: the
    result and the two paths (records, ratings)."""
    rows = [{"id": f"i{k}", "prediction": p, "reference": r} for k, (p, r) in
            enumerate(zip(["今天天气很好", "明天有雨", "我们去公园", "你好"], ["今天天气不错", "明天下雨", "我们去公园散步", "你好啊"]))]
    path = write_jsonl(tmp_path / "preds.jsonl", rows)
    ratings = tmp_path / "ratings.jsonl"
    ratings.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    res = run_cli("agree", "--predictions", path, "--judge-ratings", ratings, "--format", "json", "--bootstrap", "0",
                  *extra)
    return res, path, ratings


def test_judge_ratings_duplicate_id_names_both_lines(tmp_path):
    # break-it issue 35: the second i0 replaced the first silently
    res, _, r = _agree_ratings(tmp_path, ['{"id": "i0", "overall": 5}', '{"id": "i1", "overall": 2}',
                                          '{"id": "i2", "overall": 4}', '{"id": "i0", "overall": 1}',
                                          '{"id": "i3", "overall": 3}'])
    assert res.exit_code == 2
    assert f"{r}:4: id 'i0': duplicate id (first seen at {r}:1)" in res.stderr


def test_judge_ratings_refuse_nonfinite_numbers(tmp_path):
    # break-it issue 35: NaN, Infinity and 1e400 (a float's infinity) were ratings, and -f json wrote bare Infinity;
    # the messages show the user's own text (1e400 was shown as 'inf')
    res, _, r = _agree_ratings(tmp_path, ['{"id": "i0", "overall": NaN}', '{"id": "i1", "overall": Infinity}',
                                          '{"id": "i2", "overall": 1e400}', '{"id": "i3", "overall": 3}'])
    assert res.exit_code == 2 and "Infinity" not in res.stdout
    assert f"{r}:1: overall of id 'i0' is NaN, not a number (nan and infinity are not accepted here)" in res.stderr
    assert (f"{r}:2: overall of id 'i1' is Infinity, not a number (nan and infinity are not accepted here)"
            in res.stderr)
    assert (f"{r}:3: overall of id 'i2' is 1e400, not a number (too large for a number (overflows to infinity))"
            in res.stderr)


def test_judge_ratings_refuse_underflow_as_every_door(tmp_path):
    # break-it issue 35 F1: 1e-400, -1e-400 and 1e-330 were read as the rating 0.0 without a word (json.loads rounds
    # them to 0.0), while the same cell of a CSV judge ratings file, a --ratings sheet or a --scores file is refused
    res, _, r = _agree_ratings(tmp_path, ['{"id": "i0", "overall": 1e-400}', '{"id": "i1", "overall": -1e-400}',
                                          '{"id": "i2", "overall": 1e-330}', '{"id": "i3", "overall": 3}'])
    assert res.exit_code == 2
    why = "not a number (too small for a number (a non-zero value that underflows to 0.0))"
    assert f"{r}:1: overall of id 'i0' is 1e-400, {why}" in res.stderr
    assert f"{r}:2: overall of id 'i1' is -1e-400, {why}" in res.stderr
    assert f"{r}:3: overall of id 'i2' is 1e-330, {why}" in res.stderr
    assert "i3" not in res.stderr
    # the CSV judge ratings file with the same cells says the same (its cells are text, so quoted)
    csv = tmp_path / "ratings.csv"
    csv.write_text("id,overall\ni0,1e-400\ni1,-1e-400\ni2,1e-330\ni3,3\n", encoding="utf-8")
    res = run_cli("agree", "--predictions", tmp_path / "preds.jsonl", "--judge-ratings", csv, "--bootstrap", "0")
    assert res.exit_code == 2 and f"{csv}:2: overall of id 'i0' is '1e-400', {why}" in res.stderr
    # a real zero (0e-400, 0.0) and a subnormal (5e-324: a non-zero float) are numbers (no "not a number"), but no
    # rating on the 1-5 scale: not integers (break-it F4)
    res, _, r = _agree_ratings(tmp_path, ['{"id": "i0", "overall": 0e-400}', '{"id": "i1", "overall": 5e-324}',
                                          '{"id": "i2", "overall": 0.0}', '{"id": "i3", "overall": 4.50}'])
    assert res.exit_code == 2 and "not a number" not in res.stderr
    for line, rid, value in [(1, "i0", "0e-400"), (2, "i1", "5e-324"), (3, "i2", "0.0"), (4, "i3", "4.50")]:
        assert (f"{r}:{line}: overall of id '{rid}' is {value}, not a rating on the scale 1-5 of the default rubric "
                "(not an integer; a rating is an integer from 1 to 5, written without a fraction or an exponent)"
                in res.stderr)


def test_judge_ratings_csv_row_of_empty_cells_is_an_error(tmp_path):
    # break-it issue 35: a CSV row ',' was skipped without a word (a --scores file refuses it, a sheet counts it)
    _agree_ratings(tmp_path, ['{"id": "i0", "overall": 1}'])  # writes preds.jsonl
    csv = tmp_path / "ratings.csv"
    csv.write_text("id,overall\ni0,1\ni1,2\n,\ni2,3\ni3,4\n", encoding="utf-8")
    res = run_cli("agree", "--predictions", tmp_path / "preds.jsonl", "--judge-ratings", csv, "--bootstrap", "0")
    assert res.exit_code == 2 and f"{csv}:4: the row is empty (no id, no rating)" in res.stderr, res.stderr


def test_judge_ratings_parquet_string_column_advice_fits_parquet(tmp_path):
    # break-it issue 35 F7: a Parquet string column was told to "write a rating as a JSON number, without quotes"
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    _, p, _ = _agree_ratings(tmp_path, ['{"id": "i0", "overall": 5}'])
    path = tmp_path / "ratings.parquet"
    pq.write_table(pa.table({"id": ["i0", "i1", "i2", "i3"], "overall": ["1", "2", "3", "4"]}), path)
    res = run_cli("agree", "--predictions", p, "--judge-ratings", path, "--bootstrap", "0")
    assert res.exit_code == 2
    assert (f"{path}:1: overall of id 'i0' is '1', not a number (a string in a Parquet column: store the ratings in "
            "a numeric column (int or float), not a string one)") in res.stderr
    assert "JSON" not in res.stderr


def test_judge_ratings_unknown_key_names_the_accepted_keys(tmp_path):
    # break-it issue 35: 'overal' (a typo) left i1 unrated without a word
    res, _, r = _agree_ratings(tmp_path, ['{"id": "i0", "overall": 5}', '{"id": "i1", "overal": 2}',
                                          '{"id": "i2", "overall": 4}', '{"id": "i3", "overall": 3}'])
    assert res.exit_code == 2
    assert (f"{r}:2: unknown key 'overal'; a rating row has 'id', 'prediction_sha256', 'references_sha256', "
            "'source_sha256', 'reason', 'failure' and the rubric's criteria "
            "'overall', 'faithful', 'informative', 'fluent' (the default rubric; --rubric FILE for another)"
            in res.stderr)
    assert f"{r}:2: no 'overall' (the other rows have it; null is no rating)" in res.stderr
    # --rubric names the criteria (it was ignored beside --judge-ratings): 'overall' is then unknown
    (tmp_path / "rubric.json").write_text(json.dumps({"system": "s", "criteria": ["accuracy"]}), encoding="utf-8")
    res, _, r = _agree_ratings(tmp_path, ['{"id": "i0", "accuracy": 5}', '{"id": "i1", "overall": 2}',
                                          '{"id": "i2", "accuracy": 4}', '{"id": "i3", "accuracy": 3}'],
                               "--rubric", tmp_path / "rubric.json")
    assert (f"{r}:2: unknown key 'overall'; a rating row has 'id', 'prediction_sha256', 'references_sha256', "
            "'source_sha256', 'reason', 'failure' and the rubric's criteria "
            f"'accuracy' (--rubric {tmp_path / 'rubric.json'})") in res.stderr


def test_judge_ratings_unknown_and_spaced_ids_are_errors(tmp_path):
    # break-it issue 35: 'zz' (no such item) was dropped silently, and '  i1' was not read as i1 only by accident
    res, p, r = _agree_ratings(tmp_path, ['{"id": "i0", "overall": 5}', '{"id": "  i1", "overall": 2}',
                                          '{"id": "i2", "overall": 4}', '{"id": "i3", "overall": 3}',
                                          '{"id": "zz", "overall": 1}'])
    assert res.exit_code == 2
    assert (f"{r}:2: id '  i1' has spaces around it: ids are matched exactly, so it is not the id 'i1' (the id "
            "field 'id')") in res.stderr
    assert f"{r}:5: id 'zz' is not an item of {p}" in res.stderr
    assert f"{r}: 1 item(s) of {p} have no rating row here: 'i1'" in res.stderr


def test_judge_ratings_bool_and_string_name_line_and_id(tmp_path):
    res, _, r = _agree_ratings(tmp_path, ['{"id": "i0", "overall": 5}', '{"id": "i1", "overall": true}',
                                          '{"id": "i2", "overall": "4"}', '{"id": "i3", "overall": 3}'])
    assert res.exit_code == 2
    # shown as written (docs/cli.md: `true`), not Python's True
    assert f"{r}:2: overall of id 'i1' is true, not a number (a boolean is not a number)" in res.stderr
    assert (f"{r}:3: overall of id 'i2' is '4', not a number (a JSON string: write a rating as a JSON number, "
            "without quotes)") in res.stderr


def test_judge_versus_asks_both_orders(tmp_path):
    # three distinct questions: the content-keyed cache never answers one item's question from another's, so the
    # server sees exactly 2 orders x 3 items, however the concurrent requests interleave
    refs = ["正确答案", "另一个答案", "正确答案"]
    a = write_jsonl(tmp_path / "a.jsonl", [{"id": f"i{k}", "prediction": p, "reference": r}
                                           for k, (p, r) in enumerate(zip(["正确答案", "错的", "POSBIAS 一"], refs))])
    b = write_jsonl(tmp_path / "b.jsonl", [{"id": f"i{k}", "prediction": p, "reference": r}
                                           for k, (p, r) in enumerate(zip(["错的", "另一个答案", "POSBIAS 二"], refs))])
    with ChatServer() as server:
        res = run_cli("judge", a, "--versus", b, "--base-url", server.base_url, "--model", "m", "--api-key", "k",
                      "--cache-dir", tmp_path / "c")
        assert len(server.requests) == 6
    assert res.exit_code == 0, res.output
    assert "wins 1" in res.stdout and "ties 1 (of which 1 items where the two orders disagree" in res.stdout
    assert "win rate of " in res.stdout and "0.500" in res.stdout


def test_judge_ratings_file_failures_are_listed_as_a_live_judges(tmp_path):
    # break-it issue 35 F4: the failures a ratings file records were only counted ("3 (-1)"); a live judge lists them
    fail = {"kind": "unparsable", "detail": "no JSON object", "answer": "好的\x1b[2J", "attempts": 2}
    lines = ['{"id": "i0", "overall": 5}', '{"id": "i1", "overall": 2}', '{"id": "i2", "overall": 4}',
             json.dumps({"id": "i3", "overall": None, "reason": None, "failure": fail}, ensure_ascii=False)]
    res, path, r = _agree_ratings(tmp_path, lines)
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["rating_failures"] == [{"item": 3, "id": "i3", **fail}]
    table = run_cli("agree", "--predictions", path, "--judge-ratings", r, "--bootstrap", "0")
    assert table.exit_code == 0, table.stderr
    assert "judge failures (1)" in table.stdout
    assert "i3: unparsable (no JSON object, 2 attempt(s)); answer: 好的\\x1b[2J" in table.stdout
    assert "\x1b" not in table.stdout


def test_judge_ratings_of_other_predictions_are_refused(tmp_path):
    # issue 35 F3: ratings zheval judge made of one predictions file were joined by id to another's without a word
    refs = ["今天天气不错", "明天下雨", "我们去公园散步", "你好啊"]
    a = write_jsonl(tmp_path / "a.jsonl", [{"id": f"i{k}", "prediction": p, "reference": r} for k, (p, r) in
                                           enumerate(zip(["今天天气很好", "明天有雨", "我们去公园", "你好"], refs))])
    b = write_jsonl(tmp_path / "b.jsonl", [{"id": f"i{k}", "prediction": p, "reference": r} for k, (p, r) in
                                           enumerate(zip(["今天天气很好", "后天晴", "我们去公园", "再见"], refs))])
    with ChatServer() as server:
        res = run_cli("judge", a, "--base-url", server.base_url, "--model", "m", "--no-cache",
                      "--output", tmp_path / "r.jsonl")
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text(encoding="utf-8").splitlines()]
    assert rows[1]["prediction_sha256"] == hashlib.sha256("明天有雨".encode("utf-8")).hexdigest()
    ok = run_cli("agree", "-p", a, "--judge-ratings", tmp_path / "r.jsonl", "--bootstrap", "0")
    assert ok.exit_code == 0, ok.output
    assert "prediction_sha256" not in ok.stdout  # checked: no note
    bad = run_cli("agree", "-p", b, "--judge-ratings", tmp_path / "r.jsonl", "--bootstrap", "0")
    assert bad.exit_code == 2, bad.output
    assert (f"{tmp_path / 'r.jsonl'}: the prediction_sha256 of 2 of 4 item(s) is not that of the prediction in {b}: "
            "'i1' (line 2), 'i3' (line 4); these ratings are of other texts") in bad.stderr


@pytest.mark.parametrize("url, why", [("ftp://x", "it does not start with http:// or https:// (the scheme is 'ftp')"),
                                      ("127.0.0.1:18765/v1", "it does not start with http:// or https://"),
                                      ("http:///v1", "it names no host")])
def test_a_base_url_that_is_not_http_is_refused_up_front(tmp_path, url, why):
    # issue 35 F14: exit 0 with "0 of 6 items rated", every item "connection failed"
    path = write_jsonl(tmp_path / "p.jsonl", [{"id": "a", "prediction": "好", "reference": "好"}])
    res = run_cli("judge", path, "--base-url", url, "--model", "m", "--no-cache", "--output", tmp_path / "r.jsonl")
    assert res.exit_code == 2
    assert f"zheval: error: --base-url {url!r} is not an http:// or https:// URL with a host: {why}; e.g." in res.stderr
    assert not (tmp_path / "r.jsonl").exists()
    res = run_cli("agree", "-p", path, "--judge-url", url, "--judge-model", "m")
    assert res.exit_code == 2 and f"--judge-url {url!r} is not an http:// or https:// URL with a host" in res.stderr
    with pytest.raises(ValueError, match="base_url must be an http:// or https:// URL with a host"):
        from zheval.compute.judge import JudgeOptions

        JudgeOptions(base_url=url, model="m")


def test_a_run_that_rates_no_item_exits_1_after_listing_the_failures(tmp_path):
    path = write_jsonl(tmp_path / "p.jsonl", [{"id": "a", "prediction": "好 BADJSON-ALWAYS", "reference": "好"},
                                              {"id": "b", "prediction": "坏 BADJSON-ALWAYS", "reference": "好"}])
    with ChatServer() as server:
        res = run_cli("judge", path, "--base-url", server.base_url, "--model", "m", "--no-cache", "--answer-retries",
                      "0", "--output", tmp_path / "r.jsonl")
    assert res.exit_code == 1, res.output
    assert "0 of 2 items rated" in res.stdout and "a: unparsable" in res.stdout
    assert ("zheval: error: no item was rated: 2 of 2 item(s) without a valid answer (failures: unparsable 2; listed "
            "above)") in res.stderr
    rows = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["failure"]["kind"] for r in rows] == ["unparsable", "unparsable"]  # the file listing them is written


def test_versus_the_same_file_and_a_negative_seed_are_refused(tmp_path):
    # issue 35 F19: judge A --versus A compared A with itself; --seed -1 was sent while every other --seed is 0..2**32-1
    path = write_jsonl(tmp_path / "p.jsonl", [{"id": "a", "prediction": "好", "reference": "好"}])
    res = run_cli("judge", path, "--versus", tmp_path / "." / "p.jsonl", "--base-url", "http://127.0.0.1:9/v1",
                  "--model", "m")
    assert res.exit_code == 2
    assert (f"--versus {tmp_path / '.' / 'p.jsonl'} is FILE {path}: the same file given more than once; give each "
            "system once") in res.stderr
    for seed in ("-1", "4294967296"):
        res = run_cli("judge", path, "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--seed", seed)
        assert res.exit_code == 2 and f"{seed} is not a valid seed; seeds are integers from 0 to 4294967295" in res.output


def test_an_answer_with_extra_keys_is_a_failure_listed_by_id(tmp_path):
    # issue 35: {"overall": 4, ..., "Overall": 1, "extra": 9} was rated overall=4, exit 0, no note; the output kept
    # only the known keys. Now a key that is a criterion apart from case is ambiguous, any other key unknown.
    rows = [{"id": "a", "prediction": "今天天气很好", "reference": "今天天气不错"},
            {"id": "b", "prediction": "好 CASEKEY-ALWAYS", "reference": "好"},
            {"id": "c", "prediction": "你好 EXTRAKEY-ALWAYS", "reference": "你好"}]
    path = write_jsonl(tmp_path / "preds.jsonl", rows)
    with ChatServer() as server:
        res = run_cli("judge", path, "--base-url", server.base_url, "--model", "m", "--api-key", "k",
                      "--answer-retries", "0", "--cache-dir", tmp_path / "cache", "--output", tmp_path / "r.jsonl")
    assert res.exit_code == 0, res.output
    assert "1 of 3 items rated" in res.stdout and "no valid rating for 2 item(s)" in res.stdout
    assert "b: ambiguous_key" in res.stdout and "c: unknown_key" in res.stdout
    ratings = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["id"], r["overall"] is None, (r["failure"] or {}).get("kind")) for r in ratings] == \
        [("a", False, None), ("b", True, "ambiguous_key"), ("c", True, "unknown_key")]
    assert '"Overall": 1, "extra": 9' in ratings[1]["failure"]["answer"]
