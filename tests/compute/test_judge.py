"""The LLM judge through the real ``openai`` client against a scripted OpenAI-compatible server on 127.0.0.1
(``tests/helpers/chat_server.py``): good JSON, bad JSON, out-of-range scores, 429, 500, a slow answer (timeout), a
dropped connection; failures counted and listed by item, never dropped or guessed; the content-keyed cache (a
rerun sends nothing, an interrupted run resumes); temperature 0, a seed, JSON mode; usage; pairwise in both orders;
model text escaped on the terminal."""

from __future__ import annotations

import json

import pytest


from helpers.chat_server import ChatServer  # noqa: E402

from zheval.compute import judge as judge_module  # noqa: E402
from zheval.compute.judge import compute_judge, judge_pairwise  # noqa: E402
from zheval.compute.judge_rubric import BadAnswer, default_rubric, parse_rating, read_rubric  # noqa: E402
from zheval.text.terminal import terminal_text  # noqa: E402

CRITERIA = ["overall", "faithful", "informative", "fluent"]


@pytest.fixture
def server():
    with ChatServer() as s:
        yield s


def run(server, preds, refs, tmp_path, **kw):
    kw.setdefault("backoff", 0.0)
    kw.setdefault("cache_dir", str(tmp_path / "cache"))
    return compute_judge(preds, refs, base_url=server.base_url, model="qwen2.5:7b", api_key="test-key", **kw)


def expected_value(server, prediction):
    """The server's scripted score for the request whose user message holds ``prediction``."""
    users = [b["messages"][-1]["content"] for b in server.requests]
    user = next(u for u in users if prediction in u)
    return 1 + len(user) % 5


def test_good_answers_and_the_request_sent(server, tmp_path):
    preds, refs = ["今天天气很好", "我们去公园散步"], [["今天天气不错"], ["我们去公园", "公园散步"]]
    out = run(server, preds, refs, tmp_path, sources=["天气怎么样？", None])
    assert out["failed"] == 0 and out["judged"] == 2 and out["failures"] == []
    for i, p in enumerate(preds):
        v = expected_value(server, p)
        assert [out["item_scores"][c][i] for c in CRITERIA] == [v] * 4
    assert out["overall"] == sum(expected_value(server, p) for p in preds) / 2
    body = server.requests[0]
    assert body["temperature"] == 0 and body["seed"] == 12345 and body["model"] == "qwen2.5:7b"
    assert body["response_format"] == {"type": "json_object"}
    assert body["messages"][0]["role"] == "system" and "faithful" in body["messages"][0]["content"]
    users = [b["messages"][-1]["content"] for b in server.requests]
    assert any("天气怎么样？" in u and "今天天气不错" in u for u in users)
    assert any("1. 我们去公园\n2. 公园散步" in u for u in users)
    assert out["usage"]["requests"] == 2 and out["usage"]["prompt_tokens"] == sum(len(u) for u in users)
    assert "metric:judge|model:qwen2.5%3A7b|rubric:default-zh." in out["signature"]


def test_bad_and_out_of_range_answers_are_retried_then_listed(server, tmp_path):
    preds = ["好 BADJSON-ONCE", "好 BADJSON-ALWAYS", "好 RANGE-ONCE", "好 RANGE-ALWAYS", "好"]
    out = run(server, preds, ["好"] * 5, tmp_path, answer_retries=2)
    assert out["judged"] == 3 and out["failed"] == 2
    by_item = {f["item"]: f for f in out["failures"]}
    assert sorted(by_item) == [1, 3]
    assert by_item[1]["kind"] == "unparsable" and by_item[1]["answer"].startswith("好的") and by_item[1]["attempts"] == 3
    assert by_item[3]["kind"] == "out_of_range" and "'overall' is 0, outside 1-5" in by_item[3]["detail"]
    assert out["item_scores"]["overall"][1] is None and out["item_scores"]["overall"][3] is None  # never guessed
    assert out["reasons"][1] is None
    assert out["item_scores"]["overall"][0] == expected_value(server, preds[0])
    judged = [out["item_scores"]["overall"][i] for i in (0, 2, 4)]
    assert out["overall"] == sum(judged) / 3  # the mean is over the judged items only
    # requests: 1 + 2 retried-once items x 2 + 2 always-bad items x 3 attempts
    assert out["usage"]["requests"] == 1 + 2 * 2 + 2 * 3 and out["usage"]["answer_retries"] == 2 + 2 * 2


@pytest.mark.parametrize("marker", ["RATE429", "ERR500", "DROP"])
def test_429_500_and_dropped_connections_are_retried_with_backoff(server, tmp_path, marker, monkeypatch):
    waits = []
    monkeypatch.setattr(judge_module.JudgeConfig, "sleep", staticmethod(waits.append))
    out = run(server, [f"好 {marker}", "好"], ["好", "好"], tmp_path, backoff=0.25)
    assert out["failed"] == 0 and out["judged"] == 2
    assert out["usage"]["retries"] == 1 and out["usage"]["requests"] == 3
    assert waits == ([0.0] if marker == "RATE429" else [0.25])  # Retry-After: 0 honoured, else the backoff


def test_a_slow_answer_times_out_and_is_retried(server, tmp_path):
    server.slow_seconds = 3.0
    out = run(server, ["好 SLOW"], ["好"], tmp_path, timeout=0.5)
    assert out["failed"] == 0 and out["usage"]["retries"] == 1


def test_a_request_that_keeps_failing_is_listed(server, tmp_path, monkeypatch):
    waits = []
    monkeypatch.setattr(judge_module.JudgeConfig, "sleep", staticmethod(waits.append))
    out = run(server, ["好", "好 DOWN429"], ["好", "好"], tmp_path, max_retries=3, backoff=0.5)
    assert out["judged"] == 1 and out["failed"] == 1
    assert out["failures"][0]["item"] == 1 and out["failures"][0]["kind"] == "rate_limited"
    assert out["failures"][0]["answer"] is None
    assert out["usage"]["retries"] == 3 and out["usage"]["requests"] == 1 + 4


def test_exponential_backoff_without_retry_after(server, tmp_path, monkeypatch):
    waits = []
    monkeypatch.setattr(judge_module.JudgeConfig, "sleep", staticmethod(waits.append))

    def always_500(handler, body):
        ChatServer._send(handler, 503, {"error": {"message": "busy"}})

    server.handle = always_500
    out = run(server, ["好"], ["好"], tmp_path, max_retries=4, backoff=1.0)
    assert out["failures"][0]["kind"] == "server_error" and waits == [1.0, 2.0, 4.0, 8.0]


def test_the_cache_makes_a_rerun_free_and_resumes(server, tmp_path):
    preds, refs = ["今天天气很好", "明天下雨", "好 BADJSON-ALWAYS"], ["今天天气不错", "明天有雨", "好"]
    first = run(server, preds[:2], refs[:2], tmp_path)  # "interrupted" after two items
    sent = len(server.requests)
    assert first["usage"]["cached"] == 0 and sent == 2
    second = run(server, preds, refs, tmp_path, answer_retries=0)
    assert second["usage"]["cached"] == 2 and len(server.requests) == sent + 1  # only the new item is asked
    assert second["item_scores"]["overall"][:2] == first["item_scores"]["overall"]
    third = run(server, preds, refs, tmp_path, answer_retries=0)
    assert third["usage"]["cached"] == 2 and len(server.requests) == sent + 2  # a refused answer is never cached
    other_rubric = tmp_path / "rubric.json"
    other_rubric.write_text(json.dumps({"system": "只输出 JSON: {\"overall\": 1-5, \"reason\": \"...\"}",
                                        "criteria": ["overall"]}), encoding="utf-8")
    fourth = run(server, preds[:1], refs[:1], tmp_path, rubric=str(other_rubric))
    assert fourth["usage"]["cached"] == 0  # the rubric is in the key
    fifth = run(server, preds[:1], refs[:1], tmp_path, seed=7)
    assert fifth["usage"]["cached"] == 0  # so is the seed
    off = run(server, preds[:1], refs[:1], tmp_path, use_cache=False)
    assert off["usage"]["cached"] == 0 and off["usage"]["requests"] == 1


def test_concurrency_keeps_item_order(server, tmp_path):
    preds = [f"第{i}个回答" + "好" * i for i in range(12)]
    out = run(server, preds, ["参考"] * 12, tmp_path, concurrency=4)
    assert [out["item_scores"]["overall"][i] for i in range(12)] == [expected_value(server, p) for p in preds]


def test_a_user_rubric_file(server, tmp_path):
    path = tmp_path / "my_rubric.json"
    system = '请给 relevance 打分（1-10），只输出 JSON：{"overall": 整数, "fluent": 整数, "reason": "理由"}'
    path.write_text(json.dumps({"system": system, "criteria": ["overall", "fluent"],
                                "scale": [1, 10], "template": "问题：{source}\n参考：{references}\n回答：{prediction}"},
                               ensure_ascii=False), encoding="utf-8")
    out = run(server, ["好"], ["很好"], tmp_path, rubric=str(path), sources=["怎么样"])
    assert out["criteria"] == ["overall", "fluent"] and out["scale"] == [1, 10] and out["failed"] == 0
    assert server.requests[0]["messages"][-1]["content"].startswith("问题：【原文或问题】\n怎么样")
    assert "rubric:my_rubric.json." in out["signature"]
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="my_rubric.json:1: the rubric file is not JSON"):
        read_rubric(str(path))


def test_parse_rating_is_strict():
    rubric = default_rubric()
    good = {"overall": 4, "faithful": 5, "informative": 3, "fluent": 4, "reason": "好"}
    assert parse_rating(json.dumps(good), rubric) == good
    assert parse_rating("```json\n" + json.dumps(good) + "\n```", rubric) == good
    for text, kind in [("4分", "unparsable"), ("[4]", "unparsable"), (json.dumps({**good, "fluent": "4"}), "not_integer"),
                       (json.dumps({**good, "fluent": True}), "not_integer"), (json.dumps({**good, "fluent": 4.5}),
                                                                               "not_integer"),
                       (json.dumps({**good, "overall": 6}), "out_of_range"),
                       (json.dumps({k: v for k, v in good.items() if k != "faithful"}), "missing"),
                       (json.dumps({k: v for k, v in good.items() if k != "reason"}), "missing"),
                       ("好的 " + json.dumps(good), "unparsable")]:
        with pytest.raises(BadAnswer) as info:
            parse_rating(text, rubric)
        assert info.value.kind == kind, text


def test_pairwise_asks_both_orders(server, tmp_path):
    # three distinct questions: the content-keyed cache never answers one item from another's, so the count of
    # requests does not depend on how the concurrent ones interleave
    refs = ["正确答案", "另一个答案", "正确答案"]
    a = ["正确答案", "错的", "POSBIAS 一"]
    b = ["错的", "另一个答案", "POSBIAS 二"]
    out = judge_pairwise(a, b, refs, base_url=server.base_url, model="m", api_key="k", backoff=0.0,
                         cache_dir=str(tmp_path / "c"))
    assert len(server.requests) == 6
    users = [r["messages"][-1]["content"] for r in server.requests]
    assert any("【回答 A】\n正确答案\n\n【回答 B】\n错的" in u for u in users)
    assert any("【回答 A】\n错的\n\n【回答 B】\n正确答案" in u for u in users)
    assert [it["winner"] for it in out["items"]] == ["a", "b", "tie"]
    assert out["items"][2]["orders"] == ["a", "b"] and out["inconsistent"] == 1  # position bias caught
    assert out["wins_a"] == 1 and out["wins_b"] == 1 and out["ties"] == 1 and out["win_rate_a"] == 0.5
    assert out["signature"].startswith("metric:judge-pairwise|model:m|rubric:pairwise-zh.") and "scale" not in out["signature"]


def test_model_text_is_data(server, tmp_path):
    """A prediction with terminal escapes comes back in the reason exactly (JSON, files), and is escaped by
    terminal_text for the terminal."""
    evil = "ECHO 好\x1b[2J\x1b]0;pwned\x07\u202e"
    out = run(server, [evil], ["好"], tmp_path)
    assert out["reasons"][0] == evil
    shown = terminal_text(out["reasons"][0])
    assert "\x1b" not in shown and "\u202e" not in shown and "\\x1b[2J" in shown


def test_option_errors(tmp_path):
    with pytest.raises(ValueError, match="concurrency must be an int >= 1"):
        compute_judge(["a"], ["a"], base_url="http://127.0.0.1:9/v1", model="m", concurrency=0)
    with pytest.raises(ValueError, match="model must be a non-empty string"):
        compute_judge(["a"], ["a"], base_url="http://127.0.0.1:9/v1", model="")
    with pytest.raises(ValueError, match="sources has 2 entries for 1 predictions"):
        compute_judge(["a"], ["a"], base_url="http://127.0.0.1:9/v1", model="m", sources=["x", "y"],
                      cache_dir=str(tmp_path))
    with pytest.raises(TypeError, match=r"predictions\[0\]"):
        compute_judge([None], ["a"], base_url="http://127.0.0.1:9/v1", model="m")


def test_a_refused_connection_is_listed_not_raised(tmp_path):
    """Nothing listens on the port: every item is a ``connection`` failure after the retries."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = compute_judge(["a", "b"], ["a", "b"], base_url=f"http://127.0.0.1:{port}/v1", model="m", api_key="k",
                        max_retries=1, backoff=0.0, cache_dir=str(tmp_path))
    assert out["failed"] == 2 and {f["kind"] for f in out["failures"]} == {"connection"}
    assert out["overall"] is None


def test_a_missing_extra_is_one_line():
    from helpers import missing_module_message

    call = "zheval.compute_judge(['a'], ['a'], base_url='http://127.0.0.1:9/v1', model='m', use_cache=False)"
    assert missing_module_message("openai", call) == \
        'the LLM judge needs openai (the \'judge\' extra): pip install "zheval[judge]"'


def test_the_parameters_are_the_options():
    """compute_judge's keyword-only parameters are JudgeOptions' fields (plus the per-item ``sources``), with the same
    defaults; judge_pairwise's the same without the rubric."""
    import dataclasses
    import inspect

    from zheval.compute.judge import JudgeOptions

    fields = {f.name: f.default for f in dataclasses.fields(JudgeOptions)}
    for function, drop in ((compute_judge, ()), (judge_pairwise, ("rubric",))):
        params = {p.name: p.default for p in inspect.signature(function).parameters.values()
                  if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name != "sources"}
        expected = {k: (inspect.Parameter.empty if v is dataclasses.MISSING else v) for k, v in fields.items()
                    if k not in drop}
        assert params == expected, function.__name__


def test_options_are_checked_when_built():
    from zheval.compute.judge import JudgeOptions

    with pytest.raises(ValueError, match="concurrency must be an int >= 1"):
        JudgeOptions(base_url="http://127.0.0.1:9/v1", model="m", concurrency=0)
