"""The judge's endpoint options are refused with one line naming the option, before any file is read or request
sent (issue 35): an empty key (``--api-key ''``, ``OPENAI_API_KEY=``) gave the ``openai`` client's own
"Missing credentials" traceback; spaces around ``--base-url``/``--model`` (``--judge-url``/``--judge-model``) were
sent as they are, as an id with spaces around it is refused. ``zheval agree`` with a live judge that rates nothing
exits 1 after its report, as ``zheval judge`` does. The endpoint is the scripted server on 127.0.0.1
(``tests/helpers/chat_server.py``); the key is never shown."""

from __future__ import annotations

import pytest

from helpers.chat_server import ChatServer
from helpers.cli import run_cli, write_jsonl

ROWS = [{"id": f"i{k}", "prediction": p, "reference": r} for k, (p, r) in
        enumerate([("今天天气很好", "今天天气不错"), ("明天有雨", "明天下雨"), ("我们去公园", "我们去公园散步"), ("你好", "你好啊")])]


def _judge(path, url, model, *extra):
    return run_cli("judge", path, "--base-url", url, "--model", model, "--no-cache", "--max-retries", "0", *extra)


def _agree(path, url, model, tmp_path, *extra):
    return run_cli("agree", "-p", path, "--judge-url", url, "--judge-model", model, "--judge-cache-dir",
                   tmp_path / "cache", "--bootstrap", "0", *extra)


@pytest.mark.parametrize("command", ["judge", "agree"])
def test_an_empty_or_spaced_api_key_is_one_line(tmp_path, monkeypatch, command):
    pytest.importorskip("openai")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    path = write_jsonl(tmp_path / "p.jsonl", ROWS)
    call = _judge if command == "judge" else (lambda p, u, m, *e: _agree(p, u, m, tmp_path, *e))
    with ChatServer() as server:
        res = call(path, server.base_url, "m", "--api-key", "")
        assert res.exit_code == 2, res.output  # was openai.OpenAIError: Missing credentials (a traceback)
        assert res.stderr == ("zheval: error: --api-key is empty: give the endpoint's key, or leave out --api-key "
                              "(then $OPENAI_API_KEY, else the key 'unused', which a local server accepts)\n")
        res = call(path, server.base_url, "m", "--api-key", " s3cret-key ")
        assert res.exit_code == 2 and "--api-key has spaces around it (a key is sent exactly)" in res.stderr
        assert "s3cret" not in res.output
        monkeypatch.setenv("OPENAI_API_KEY", "")
        res = call(path, server.base_url, "m")
        assert res.exit_code == 2, res.output
        assert ("zheval: error: $OPENAI_API_KEY is set but empty: set it to the endpoint's key or unset it (a local "
                "server takes any key), or give --api-key KEY") in res.stderr
        assert server.requests == []  # nothing sent


@pytest.mark.parametrize("command, option", [("judge", "--base-url"), ("judge", "--model"), ("agree", "--judge-url"),
                                             ("agree", "--judge-model")])
def test_spaces_around_the_url_or_the_model_are_refused(tmp_path, monkeypatch, command, option):
    pytest.importorskip("openai")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    path = write_jsonl(tmp_path / "p.jsonl", ROWS)
    with ChatServer() as server:
        url, model = server.base_url, "qwen2.5:7b"
        if option.endswith("url"):
            url = f" {url}"
            want = (f"{option} {url!r} has spaces around it: the URL is used exactly, so it is not {url.strip()!r}; "
                    "give it without them")
        else:
            model = f"{model} "
            want = (f"{option} 'qwen2.5:7b ' has spaces around it: the model name is sent exactly, so it is not the "
                    "model 'qwen2.5:7b'; give it without them")
        res = _judge(path, url, model) if command == "judge" else _agree(path, url, model, tmp_path)
        assert res.exit_code == 2, res.output  # was: rated as 'qwen2.5:7b ' (exit 0), or every request failed
        assert res.stderr == f"zheval: error: {want}\n"
        assert server.requests == []


def test_agree_with_a_live_judge_that_rates_nothing_exits_1(tmp_path, monkeypatch):
    pytest.importorskip("openai")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    path = write_jsonl(tmp_path / "p.jsonl", [dict(r, prediction=r["prediction"] + " BADJSON-ALWAYS") for r in ROWS])
    with ChatServer() as server:
        res = _agree(path, server.base_url, "m", tmp_path)
    assert res.exit_code == 1, res.output  # was 0, n=0 in every row
    assert "i0: unparsable" in res.stdout  # the report, listing the judge's failures, is written first
    assert ("zheval: error: nothing to correlate: a correlation needs at least 3 rated items, and no rating column "
            "has them (judge:overall: 0 of 4 item(s) rated, judge:faithful: 0 of 4 item(s) rated, judge:informative: "
            "0 of 4 item(s) rated, judge:fluent: 0 of 4 item(s) rated); the judge (--judge-url) rated 0 of 4 item(s); "
            "its failures are listed in the report") in res.stderr


def test_the_library_refuses_them_too(monkeypatch):
    from zheval.compute.judge import JudgeOptions

    for kw, says in [({"base_url": "http://127.0.0.1:9/v1 "}, "it has spaces around it (the URL is used exactly"),
                     ({"model": " m"}, "model ' m' has spaces around it: the name is sent exactly"),
                     ({"api_key": ""}, "api_key is empty"),
                     ({"api_key": "s3cret "}, "api_key has spaces around it (a key is sent exactly)")]:
        with pytest.raises(ValueError, match=r".*") as e:
            JudgeOptions(**{"base_url": "http://127.0.0.1:9/v1", "model": "m", **kw})
        assert says in str(e.value) and "s3cret" not in str(e.value)
    pytest.importorskip("openai")
    from zheval.compute.judge import judge_config

    monkeypatch.setenv("OPENAI_API_KEY", "")  # was taken for no key ("unused") by the library, a traceback by the CLI
    with pytest.raises(ValueError, match=r"\$OPENAI_API_KEY is set but empty"):
        judge_config(JudgeOptions(base_url="http://127.0.0.1:9/v1", model="m"))
