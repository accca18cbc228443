"""``zheval judge``: nothing reinterpreted silently (issue 35, break-it pass 9): ``--versus B`` holds the items of
``FILE`` (``zheval compare``'s check), a rubric's criteria never overwrite a ratings row's own fields, a rubric file's
unknown keys and near-duplicate criteria are refused. Through the real ``openai`` client against the scripted server
on 127.0.0.1 (``tests/helpers/chat_server.py``) where a request is sent."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("openai")

import zheval.cli.judge  # noqa: F401, E402  (registers the command)
from helpers.chat_server import ChatServer
from helpers.cli import run_cli, write_jsonl

URL = ("--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--api-key", "k", "--max-retries", "0")
PREDS = ["今天天气很好", "明天有雨", "我们去公园"]
REFS = ["今天天气不错", "明天下雨", "我们去公园散步"]


def _rows(ids=True, refs=REFS, **extra):
    return [{**({"id": f"i{k}"} if ids else {}), "prediction": p, "reference": r,
             **{f: v[k] for f, v in extra.items()}} for k, (p, r) in enumerate(zip(PREDS, refs))]


def test_versus_rows_without_ids_in_another_order_are_refused_by_line(tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", _rows(ids=False))
    b = write_jsonl(tmp_path / "b.jsonl", _rows(ids=False)[::-1])
    res = run_cli("judge", a, "--versus", b, *URL)
    assert res.exit_code == 2, res.output
    assert f"{b}:1: its references differ from those of {a}:1" in res.stderr


def test_versus_with_ids_refuses_other_references(tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", _rows())
    b = write_jsonl(tmp_path / "b.jsonl", _rows(refs=["今天天气不错", "后天下雪", "我们去公园散步"]))
    res = run_cli("judge", a, "--versus", b, *URL)
    assert res.exit_code == 2, res.output
    assert f"{b}:2: id 'i1'" in res.stderr and f"references differ from those of {a}:2" in res.stderr


def test_versus_id_field_in_one_file_only_is_named(tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", _rows())
    b = write_jsonl(tmp_path / "b.jsonl", _rows(ids=False))
    res = run_cli("judge", a, "--versus", b, *URL)
    assert res.exit_code == 2, res.output
    assert f"{b}: has no id field but {a} has one" in res.stderr


def test_versus_refuses_another_source(tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", _rows(query=["天气？", "雨？", "公园？"]))
    b = write_jsonl(tmp_path / "b.jsonl", _rows(query=["天气？", "雪？", "公园？"]))
    res = run_cli("judge", a, "--versus", b, *URL, "--source-field", "query")
    assert res.exit_code == 2, res.output
    assert f"{b}:2: --source-field 'query' is '雪？' but {a}:2 has '雨？'" in res.stderr


def test_versus_pairs_by_id_whatever_the_row_order(tmp_path):
    pytest.importorskip("openai")
    a = write_jsonl(tmp_path / "a.jsonl", _rows())
    b = write_jsonl(tmp_path / "b.jsonl", _rows()[::-1])
    with ChatServer() as server:
        res = run_cli("judge", a, "--versus", b, "--base-url", server.base_url, "--model", "m", "--api-key", "k",
                      "--no-cache")
        asked = [m["messages"][-1]["content"] for m in server.requests]
    assert res.exit_code == 0, res.output
    for p in PREDS:  # each item judged against the same item of B (identical texts here), never another one
        assert any(f"【回答 A】\n{p}\n\n【回答 B】\n{p}" in q for q in asked)


@pytest.mark.parametrize("name", ["id", "prediction_sha256", "references_sha256", "source_sha256", "failure",
                                  "reason", "Failure"])
def test_a_criterion_named_as_a_ratings_field_is_refused(tmp_path, name):
    rubric = tmp_path / "r.json"
    rubric.write_text(json.dumps({"system": "rate", "criteria": ["overall", name]}), encoding="utf-8")
    path = write_jsonl(tmp_path / "p.jsonl", _rows())
    res = run_cli("judge", path, *URL, "--rubric", rubric, "--no-cache")
    assert res.exit_code == 2, res.output
    assert f"criterion {name!r} is the ratings row's own field" in res.stderr
    assert "'id', 'prediction_sha256', 'references_sha256', 'source_sha256', 'reason', 'failure'" in res.stderr


def test_the_reserved_names_are_the_ratings_rows_fields():
    from zheval.cli.judge import ratings_lines
    from zheval.compute.judge_rubric import ROW_FIELDS

    result = {"failures": [], "criteria": ["overall"], "item_scores": {"overall": [3]}, "reasons": ["r"]}
    row = json.loads(ratings_lines(result, ["x"], ["p"], [["r"]], ["s"]))
    assert set(row) - {"overall"} == set(ROW_FIELDS) == {"id", "prediction_sha256", "references_sha256",
                                                          "source_sha256", "reason", "failure"}


@pytest.mark.parametrize("rubric, said", [
    ({"system": "rate", "criteria": ["overall"], "scales": [1, 10]},
     "unknown key 'scales' in the rubric file; its keys are 'system', 'criteria', 'scale', 'template'"),
    ({"system": "rate", "criteria": ["overall", "Overall"]},
     "criteria 'overall' and 'Overall' are the same name apart from case, spaces or width"),
    ({"system": "rate", "criteria": ["overall", "ｏｖｅｒａｌｌ"]}, "the same name apart from case, spaces or width"),
    ({"system": "rate", "criteria": ["overall", " fluent"]}, "criterion ' fluent' has spaces around it"),
])
def test_a_rubric_file_is_read_exactly(tmp_path, rubric, said):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rubric, ensure_ascii=False), encoding="utf-8")
    res = run_cli("judge", write_jsonl(tmp_path / "p.jsonl", _rows()), *URL, "--rubric", path, "--no-cache")
    assert res.exit_code == 2, res.output
    assert f"{path}: " in res.stderr and said in res.stderr


@pytest.mark.parametrize("query, said", [(None, "null"), ("", "'', empty"), ("  ", "'  ', empty"),
                                         (..., "no such field")])
@pytest.mark.parametrize("command", ["judge", "agree"])
def test_a_row_without_its_source_is_refused(tmp_path, query, said, command):
    rows = _rows(query=["天气？", query, "公园？"])
    if query is ...:
        del rows[1]["query"]
    path = write_jsonl(tmp_path / "p.jsonl", rows)
    args = (("judge", path, *URL) if command == "judge" else
            ("agree", "--predictions", path, "--judge-url", URL[1], "--judge-model", "m", "--api-key", "k"))
    res = run_cli(*args, "--source-field", "query")
    assert res.exit_code == 2, res.output
    assert f"{path}:2: --source-field 'query': {said} (1 of 3 row(s) without a source text)" in res.stderr


@pytest.mark.parametrize("template, source, said", [
    ("{source}\n{references}\n{prediction}", (), "asks for {source}: give --source-field"),
    ("{references}\n{prediction}", ("--source-field", "query"),
     "has no {source}: the source texts would change nothing: leave out --source-field 'query'"),
])
@pytest.mark.parametrize("command", ["judge", "agree"])
def test_a_template_and_the_source_field_must_agree(tmp_path, template, source, said, command):
    rubric = tmp_path / "r.json"
    rubric.write_text(json.dumps({"system": "rate", "criteria": ["overall"], "template": template}), encoding="utf-8")
    path = write_jsonl(tmp_path / "p.jsonl", _rows(query=["天气？", "雨？", "公园？"]))
    args = (("judge", path, *URL) if command == "judge" else
            ("agree", "--predictions", path, "--judge-url", URL[1], "--judge-model", "m", "--api-key", "k"))
    res = run_cli(*args, "--rubric", rubric, *source)
    assert res.exit_code == 2, res.output
    assert f"--rubric {rubric}: the rubric's template (r.json) {said}" in res.stderr


def test_the_library_refuses_a_template_that_does_not_fit_the_sources(tmp_path):
    from zheval.compute.judge_rubric import Rubric
    from zheval import compute_judge

    rubric = Rubric("mine", "rate", "{source}{references}{prediction}", ("overall",))
    with pytest.raises(ValueError, match=r"the rubric's template \(mine\) asks for \{source\}: give sources"):
        compute_judge(["好"], [["好"]], base_url="http://127.0.0.1:9/v1", model="m", rubric=rubric, use_cache=False)


def test_cache_dir_with_no_cache_is_refused(tmp_path):
    path = write_jsonl(tmp_path / "p.jsonl", _rows())
    res = run_cli("judge", path, *URL, "--cache-dir", tmp_path / "c", "--no-cache")
    assert res.exit_code == 2, res.output
    assert f"--cache-dir {tmp_path / 'c'} with --no-cache: the cache is neither read nor written" in res.stderr


@pytest.mark.parametrize("extra, flags", [(("--judge-cache-dir", "CACHE"), "--judge-cache-dir"),
                                          (("--api-key", "sk-x"), "--api-key")])  # --source-field: checks the
# ratings' source_sha256 (test_cli_judge_sig_items.py)
def test_live_judge_options_beside_ratings_made_earlier_are_refused(tmp_path, extra, flags):
    path = write_jsonl(tmp_path / "p.jsonl", _rows(query=["天气？", "雨？", "公园？"]))
    ratings = write_jsonl(tmp_path / "r.jsonl", [{"id": f"i{k}", "overall": v} for k, v in enumerate([5, 2, 4])])
    extra = tuple(str(tmp_path / "c") if x == "CACHE" else x for x in extra)
    res = run_cli("agree", "--predictions", path, "--judge-ratings", ratings, "--bootstrap", "0", *extra)
    assert res.exit_code == 2, res.output
    assert f"{flags} act(s) only on a live judge (--judge-url and --judge-model)" in res.stderr


def test_versus_json_items_carry_their_ids(tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", _rows())
    b = write_jsonl(tmp_path / "b.jsonl", _rows())
    with ChatServer() as server:
        res = run_cli("judge", a, "--versus", b, "--base-url", server.base_url, "--model", "m", "--api-key", "k",
                      "--no-cache", "-f", "json")
    assert res.exit_code == 0, res.output
    assert [item["id"] for item in json.loads(res.stdout)["items"]] == ["i0", "i1", "i2"]


def test_judge_pairwise_names_predictions_b_when_lengths_differ():
    from zheval import judge_pairwise

    with pytest.raises(ValueError) as err:
        judge_pairwise(["好", "坏"], ["好"], ["好", "坏"], base_url="http://127.0.0.1:9/v1", model="m",
                       use_cache=False)
    assert "got 1 predictions_b but 2 predictions_a and references" in str(err.value)
    assert "transposed" not in str(err.value)


def test_the_default_cache_is_documented_for_cache_dir_none():
    from zheval import compute_judge, judge_pairwise
    from zheval.compute.judge import JudgeOptions

    assert "``cache_dir=None`` is the default cache" in judge_pairwise.__doc__
    assert "``None`` is the default cache" in compute_judge.__doc__ and "``use_cache=False``: none" in compute_judge.__doc__
    from zheval.compute.judge_cache import default_cache_dir  # the behaviour the docs state
    assert JudgeOptions(base_url="http://127.0.0.1:9/v1", model="m").cache_dir is None
    assert str(default_cache_dir()).endswith("judge")


@pytest.mark.parametrize("extra, flag", [(("--bertscore-layer", "2"), "--bertscore-layer"),
                                         (("--bertscore-idf",), "--bertscore-idf"),
                                         (("--bertscore-device", "cpu"), "--bertscore-device"),
                                         (("--bertscore-batch-size", "3"), "--bertscore-batch-size")])
def test_bertscore_options_without_the_model_are_refused_at_agree(tmp_path, extra, flag):
    # without --bertscore-model there is no BERTScore column: the option would change nothing (break-it pass 10)
    path = write_jsonl(tmp_path / "p.jsonl", _rows())
    ratings = write_jsonl(tmp_path / "r.jsonl", [{"id": f"i{k}", "overall": v} for k, v in enumerate([5, 2, 4])])
    res = run_cli("agree", "--predictions", path, "--judge-ratings", ratings, "--bootstrap", "0", *extra)
    assert res.exit_code == 2, res.output
    assert f"{flag} applies to BERTScore: add --bertscore-model" in res.stderr, res.stderr
