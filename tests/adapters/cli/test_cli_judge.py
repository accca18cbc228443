"""``zheval judge`` and ``zheval agree --judge-ratings`` on the command line, through the real ``openai`` client
against the scripted OpenAI-compatible server on 127.0.0.1 (``tests/helpers/chat_server.py``): failures listed by id,
model text escaped on the terminal and exact in the ratings file, both orders asked in pairwise mode, errors as one
line. Needs the judge extra only (no torch: ``.ci/extras-floor`` runs this file at openai's floor); the three-layer
table with a BERTScore column is in ``test_cli_layers.py``."""

from __future__ import annotations

import json

import zheval.cli.judge  # noqa: F401  (registers the command)
from helpers.chat_server import ChatServer
from helpers.cli import run_cli, write_jsonl


def test_judge_on_a_records_file(tmp_path):
    rows = [{"id": "a", "prediction": "今天天气很好", "reference": "今天天气不错", "query": "天气？"},
            {"id": "b\x1b[2J", "prediction": "好 BADJSON-ALWAYS", "reference": "好", "query": None},
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
