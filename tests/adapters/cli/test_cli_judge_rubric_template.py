"""``zheval judge --rubric`` reads the template's placeholders as ``str.format`` does (issue 35): ``{{prediction}}``
(literal text: the judge would never see the answer) and ``{{source}}`` with ``--source-field`` are refused before
any request; ``{source:}`` (the same as ``{source}``) sends the source. Expected texts are written by hand."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("openai")  # zheval judge needs the judge extra (.ci/extras-floor runs these at openai's floor)

import zheval.cli.judge  # noqa: F401  (registers the command)
from helpers.chat_server import ChatServer
from helpers.cli import run_cli, write_jsonl


def _files(tmp_path, template):
    records = write_jsonl(tmp_path / "p.jsonl", [{"prediction": "好", "reference": "很好", "query": "怎么样"}])
    rubric = tmp_path / "r.json"
    rubric.write_text(json.dumps({"system": 's {"overall": 1, "reason": ""}', "criteria": ["overall"],
                                  "template": template}), encoding="utf-8")
    return records, rubric


@pytest.mark.parametrize("template, words", [
    ("回答：{{prediction}}", "'template' must contain the placeholder {prediction}"),
    ("{{source}} {prediction}", "has no {source}: the source texts would change nothing"),
    ("{prediction}{references.x}", "the template's placeholder {references.x} has a conversion")])
def test_bad_templates_are_refused_before_any_request(tmp_path, template, words):
    records, rubric = _files(tmp_path, template)
    with ChatServer() as server:
        res = run_cli("judge", records, "--base-url", server.base_url, "--model", "m", "--api-key", "k",
                      "--source-field", "query", "--rubric", rubric, "--no-cache")
        assert server.requests == []
    assert res.exit_code == 2, res.output
    assert words in res.stderr and "Traceback" not in res.stderr


def test_an_empty_format_spec_on_source_sends_the_source(tmp_path):
    pytest.importorskip("openai")
    records, rubric = _files(tmp_path, "问题：{source:}\n回答：{prediction}")
    with ChatServer() as server:
        res = run_cli("judge", records, "--base-url", server.base_url, "--model", "m", "--api-key", "k",
                      "--source-field", "query", "--rubric", rubric, "--no-cache")
        assert server.requests and "怎么样" in server.requests[0]["messages"][-1]["content"]
    assert res.exit_code in (0, 1), res.output
