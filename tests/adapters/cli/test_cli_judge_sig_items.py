"""``zheval judge`` / ``agree --judge-ratings``: nothing reinterpreted silently (break-it pass 11). The judge's
signature names what its messages hold beside the texts (``--source-field``: ``src``); a ratings file records the
digests of each item's references and source text, and ``agree`` refuses ratings made on other references or
another source (``file:line``); ``--versus`` refuses items of another ``domain``; agree's wording and JSON params.
Through the real ``openai`` client against the scripted server on 127.0.0.1 (``tests/helpers/chat_server.py``);
digests checked against ``hashlib`` directly."""

from __future__ import annotations

import hashlib
import json

import pytest

pytest.importorskip("openai")

import zheval.cli.judge  # noqa: F401, E402  (registers the command)
from helpers.chat_server import ChatServer  # noqa: E402
from helpers.cli import run_cli, write_jsonl  # noqa: E402

PREDS = ["今天天气很好", "明天有雨", "我们去公园", "你好"]
REFS = ["今天天气不错", "明天下雨", "我们去公园散步", "你好啊"]


def _rows(ids=True, refs=REFS, preds=PREDS, **extra):
    return [{**({"id": f"i{k}"} if ids else {}), "prediction": p, "reference": r,
             **{f: v[k] for f, v in extra.items()}} for k, (p, r) in enumerate(zip(preds, refs))]


def _judge(server, path, *extra):
    return run_cli("judge", path, "--base-url", server.base_url, "--model", "m", "--api-key", "k", "--no-cache",
                   "-f", "json", *extra)


def _signature(res):
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)["signature"]


def test_the_signature_names_the_source(tmp_path):
    path = write_jsonl(tmp_path / "p.jsonl", _rows(query=["天气？", "雨？", "公园？", "问候"],
                                                   topic=["天", "雨", "园", "好"]))
    with ChatServer() as server:
        plain = _signature(_judge(server, path))
        query = _signature(_judge(server, path, "--source-field", "query"))
        topic = _signature(_judge(server, path, "--source-field", "topic"))
        again = _signature(_judge(server, path, "--source-field", "query"))
    assert len({plain, query, topic}) == 3 and query == again
    assert "|src:none|" in plain
    digest = hashlib.sha256(json.dumps(["天气？", "雨？", "公园？", "问候"], ensure_ascii=False).encode()).hexdigest()
    assert f"|src:sha.{digest[:12]}|" in query


def test_the_pairwise_signature_names_the_source(tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", _rows(query=["天气？", "雨？", "公园？", "问候"]))
    b = write_jsonl(tmp_path / "b.jsonl", _rows(query=["天气？", "雨？", "公园？", "问候"]))
    with ChatServer() as server:
        plain = _signature(_judge(server, a, "--versus", b))
        query = _signature(_judge(server, a, "--versus", b, "--source-field", "query"))
    assert plain != query and "|src:none|" in plain and "|src:sha." in query


def _rated(tmp_path, rows, *extra):
    """``judge --output`` of ``rows``: the records file and the ratings file."""
    path = write_jsonl(tmp_path / "p.jsonl", rows)
    with ChatServer() as server:
        res = _judge(server, path, "--output", tmp_path / "r.jsonl", *extra)
    assert res.exit_code == 0, res.output
    return path, tmp_path / "r.jsonl"


def _agree(path, ratings, *extra):
    return run_cli("agree", "-p", path, "--judge-ratings", ratings, "--bootstrap", "0", "-f", "json", *extra)


def test_ratings_rows_carry_the_digests_of_references_and_source(tmp_path):
    path, ratings = _rated(tmp_path, _rows(query=["天气？", "雨？", "公园？", "问候"]), "--source-field", "query")
    got = [json.loads(x) for x in ratings.read_text(encoding="utf-8").splitlines()]
    for row, r, q in zip(got, REFS, ["天气？", "雨？", "公园？", "问候"]):
        assert row["references_sha256"] == hashlib.sha256(json.dumps([r], ensure_ascii=False).encode()).hexdigest()
        assert row["source_sha256"] == hashlib.sha256(q.encode()).hexdigest()
    res = _agree(path, ratings, "--source-field", "query")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["params"]["judge_ratings"] == str(ratings)


def test_ratings_of_edited_references_are_refused_by_line(tmp_path):
    path, ratings = _rated(tmp_path, _rows())
    edited = write_jsonl(tmp_path / "p.jsonl", _rows(refs=["今天天气不错", "后天下雪", "我们去公园散步", "你好啊"]))
    res = _agree(edited, ratings)
    assert res.exit_code == 2, res.output
    assert (f"{ratings}:2: id 'i1' was rated on other references than its references in {edited} "
            "(references_sha256 differs") in res.stderr
    assert f"{ratings}:1:" not in res.stderr


def test_rows_without_ids_reordered_with_equal_predictions_are_refused(tmp_path):
    preds = ["好的", "好的", "我们去公园", "你好"]
    path, ratings = _rated(tmp_path, _rows(ids=False, preds=preds))
    rows = _rows(ids=False, preds=preds)
    rows[0], rows[1] = rows[1], rows[0]  # the same predictions line by line, the references swapped
    write_jsonl(path, rows)
    res = _agree(path, ratings)
    assert res.exit_code == 2, res.output
    assert f"{ratings}:1: id " in res.stderr and f"{ratings}:2: id " in res.stderr
    assert "was rated on other references" in res.stderr


def test_ratings_with_another_or_no_source_are_refused(tmp_path):
    path, ratings = _rated(tmp_path, _rows(query=["天气？", "雨？", "公园？", "问候"],
                                           topic=["天气？", "雪？", "公园？", "问候"]), "--source-field", "query")
    res = _agree(path, ratings, "--source-field", "topic")
    assert res.exit_code == 2, res.output
    assert f"{ratings}:2: id 'i1' was rated with another source text than --source-field gives" in res.stderr
    assert f"{ratings}:1:" not in res.stderr
    res = _agree(path, ratings)
    assert res.exit_code == 2, res.output
    assert (f"{ratings}:1: id 'i0' was rated with a source text (source_sha256): give --source-field with the field "
            "zheval judge read") in res.stderr
    (tmp_path / "x").mkdir()
    path, plain = _rated(tmp_path / "x", _rows(query=["天气？", "雨？", "公园？", "问候"]))
    res = _agree(path, plain, "--source-field", "query")
    assert res.exit_code == 2, res.output
    assert f"{plain}:1: id 'i0' was rated without a source text (source_sha256 is null)" in res.stderr


def test_an_older_ratings_file_is_scored_with_a_note(tmp_path):
    path = write_jsonl(tmp_path / "p.jsonl", _rows())
    ratings = write_jsonl(tmp_path / "r.jsonl", [
        {"id": f"i{k}", "prediction_sha256": hashlib.sha256(p.encode()).hexdigest(), "overall": 1 + k,
         "reason": "r", "failure": None} for k, p in enumerate(PREDS)])
    res = _agree(path, ratings)
    assert res.exit_code == 0, res.output
    assert (f"4 of 4 row(s) of the judge ratings file {ratings} have no references_sha256 (written by hand or before "
            f"zheval judge recorded it): those ratings could not be checked to be of the references in {path}") \
        in json.loads(res.stdout)["rating_notes"]


def test_versus_refuses_another_domain(tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", _rows(domain=["天气", "天气", "生活", "问候"]))
    b = write_jsonl(tmp_path / "b.jsonl", _rows(domain=["天气", "售后", "生活", "问候"])[::-1])
    res = run_cli("judge", a, "--versus", b, "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--api-key", "k",
                  "--max-retries", "0", "--no-cache")
    assert res.exit_code == 2, res.output
    assert f"{b}:3: domain is '售后' but {a}:2 has '天气' (1 item(s) differ)" in res.stderr


def test_agree_markdown_is_said_to_be_of_the_three_layer_mode(tmp_path):
    res = run_cli("agree", "--ratings", tmp_path / "s.csv", "--key", tmp_path / "k.json", "-f", "markdown")
    assert res.exit_code == 2, res.output
    assert ("--format markdown is available only in the three-layer mode of agree (--predictions FILE); the review "
            "sheet mode (--ratings/--key) writes table or json") in res.stderr
