"""What the judge makes of odd answers (break-it): a model's answer nested deeper than Python's JSON reader goes is
that item's ``unparsable`` failure, and the run goes on (it ended the whole ``zheval judge`` run with a
RecursionError); an endpoint's 200 that is no chat completion (no ``choices``, an HTML page, a JSON array), has no
message text (``content: null``, a reasoning model out of tokens) or is no JSON Python reads (an HTML page sent as
JSON, nesting too deep: a traceback) is the endpoint's failure, kind ``bad_response``, named so and not retried (as
a 4xx), never the model's ``unparsable`` answer with an empty answer; a boolean value is shown as the model wrote it
(``true``, not Python's ``True``). Through the real ``openai`` client against the scripted server on 127.0.0.1
(``tests/helpers/chat_server.py``). Expected texts are written by hand."""

from __future__ import annotations

import pytest

pytest.importorskip("openai")

import zheval.cli.judge  # noqa: F401, E402  (registers the command)
from helpers.chat_server import ChatServer
from helpers.cli import run_cli, write_jsonl

from zheval.compute.judge import compute_judge
from zheval.compute.judge_rubric import BadAnswer, default_rubric, parse_preference, parse_rating

DEEP = "[" * 3000 + "]" * 3000
#: after '{"overall": ' (12 characters) the 3000th '[' opens the 3001st level, at character 12 + 2999
TOO_DEEP = ("not one JSON object (nested too deeply: 3001 arrays or objects inside one another, more than Python's "
            "JSON reader takes at character 3011)")


def _judge(server, preds, tmp_path, **kw):
    return compute_judge(preds, ["参考"] * len(preds), base_url=server.base_url, model="m", api_key="k",
                         backoff=0.0, cache_dir=str(tmp_path / "cache"), **kw)


def test_a_deeply_nested_answer_is_unparsable():
    answer = '{"overall": ' + DEEP + ', "reason": "x"}'
    with pytest.raises(BadAnswer) as info:  # was RecursionError
        parse_rating(answer, default_rubric())
    assert (info.value.kind, info.value.detail, info.value.answer) == ("unparsable", TOO_DEEP, answer)
    answer = '{"winner": ' + DEEP + ', "reason": "x"}'
    with pytest.raises(BadAnswer) as info:
        parse_preference(answer)
    assert (info.value.kind, info.value.detail) == ("unparsable", TOO_DEEP.replace("3011", "3010"))  # '{"winner": ': 11


def test_a_deeply_nested_answer_fails_its_item_and_the_run_goes_on(tmp_path):
    with ChatServer() as server:
        out = _judge(server, ["甲 DEEP-ALWAYS", "乙"], tmp_path, answer_retries=1)
    assert out["judged"] == 1 and out["failed"] == 1
    fail = out["failures"][0]
    assert (fail["item"], fail["kind"], fail["attempts"]) == (0, "unparsable", 2)
    assert fail["detail"].startswith("not one JSON object (nested too deeply: 3001 arrays or objects inside one ")
    assert DEEP in fail["answer"]
    rows = [{"id": "i0", "prediction": "甲 DEEP-ALWAYS", "reference": "参考"},
            {"id": "i1", "prediction": "乙", "reference": "参考"}]
    path = write_jsonl(tmp_path / "p.jsonl", rows)
    with ChatServer() as server:
        res = run_cli("judge", path, "--base-url", server.base_url, "--model", "m", "--api-key", "k", "--no-cache",
                      "--answer-retries", "0")
    assert res.exit_code == 0, res.output  # was a RecursionError traceback, no report
    assert "zheval judge: 1 of 2 items rated (1-5)" in res.stdout
    assert "  i0: unparsable (not one JSON object (nested too deeply: 3001 arrays or objects" in res.stdout


@pytest.mark.parametrize("marker, detail", [
    ("NOCHOICES", "not a chat completion: no 'choices' in the response"),
    ("NULLCHOICES", "not a chat completion: 'choices' is null"),  # was "no 'choices' in the response"
    ("NULLCONTENT", "the endpoint returned no message content (finish_reason 'length')"),
    ("HTMLBODY", "not a chat completion: the body is text ('<html><body><form>Proxy login</form></body></html>'), "
                 "not JSON"),
    ("ARRAYBODY", "not a chat completion: the body is a JSON array, not an object with 'choices'"),
    ("HTMLASJSON", "not a chat completion: the body is not JSON (Expecting value: line 1 column 1 (char 0))"),
    ("DEEPBODY", "not a chat completion: the body is JSON nested more deeply than Python's JSON reader takes"),
])
def test_an_endpoint_answer_that_is_no_completion_is_the_endpoints_failure(tmp_path, marker, detail):
    with ChatServer() as server:
        out = _judge(server, [f"甲 {marker}", "乙"], tmp_path)
    assert out["judged"] == 1 and out["failed"] == 1
    # was ("unparsable", "not one JSON object (Expecting value at character 0)", "", 3): the model blamed, asked again
    assert out["failures"] == [{"item": 0, "kind": "bad_response", "detail": detail, "answer": None, "attempts": 1}]
    assert out["usage"]["requests"] == 2 and out["usage"]["answer_retries"] == 0  # not retried, as a 4xx is not


def test_the_cli_names_the_endpoints_failure_and_exits_1_when_nothing_is_rated(tmp_path):
    rows = [{"id": f"i{k}", "prediction": f"回答{k} {m}", "reference": "参考"}
            for k, m in enumerate(["NULLCONTENT", "HTMLBODY", "NOCHOICES"])]
    path = write_jsonl(tmp_path / "p.jsonl", rows)
    with ChatServer() as server:
        res = run_cli("judge", path, "--base-url", server.base_url, "--model", "m", "--api-key", "k", "--no-cache")
    assert res.exit_code == 1, res.output
    assert "  i0: bad_response (the endpoint returned no message content (finish_reason 'length'))\n" in res.stdout
    assert "  i2: bad_response (not a chat completion: no 'choices' in the response)\n" in res.stdout
    assert "unparsable" not in res.output and "answer:" not in res.stdout
    assert "(failures: bad_response 3; listed above)" in res.stderr


def test_a_boolean_is_shown_as_written(tmp_path):
    rest = ', "faithful": 4, "informative": 3, "fluent": 4, "reason": "好"}'
    for written in ("true", "false", "null", '"4"'):
        with pytest.raises(BadAnswer) as info:
            parse_rating('{"overall": ' + written + rest, default_rubric())
        assert (info.value.kind, info.value.detail) == ("not_integer", f"'overall' is {written}, not an integer")
    with pytest.raises(BadAnswer) as info:  # a long value is cut
        parse_rating('{"overall": [' + ", ".join(["12345"] * 20) + "]" + rest, default_rubric())
    # 60 characters shown: "[", 8 times "12345, " (56), "12", "…"
    assert info.value.detail == "'overall' is [" + "12345, " * 8 + "12…, not an integer"
    with pytest.raises(BadAnswer) as info:
        parse_preference('{"winner": true, "reason": "x"}')
    assert info.value.detail == "winner is true, not 'A', 'B' or 'tie'"
    with ChatServer() as server:
        out = _judge(server, ["甲 TRUE-ALWAYS"], tmp_path, answer_retries=0)
    assert (out["failures"][0]["kind"], out["failures"][0]["detail"]) == ("not_integer",
                                                                          "'overall' is true, not an integer")
