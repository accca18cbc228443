"""``--domains any|LIST`` in every command that reads a 小黄鸭 file (issue 35): ``clean`` takes it with ``score``'s
meaning (the same loader), as do ``explain`` and ``sample``; a domain outside the accepted values is refused naming
its ``file:line`` and saying to use ``--domains``, in ``clean`` as in ``score``."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_cli as run, write_jsonl

# line 1: a domain outside the format's three (生活咨询, 售后支持, 情感陪伴); line 2: one of them; line 3: null
ROWS = [
    {"id": "a", "query": "手机怎么截屏？", "responses": ["同时按电源键和音量减键。", "按住电源键和音量下键即可截屏。"],
     "domain": "数码", "difficulty": "易"},
    {"id": "b", "query": "心情不好", "responses": ["我在这里陪着你，想聊聊吗？", "听起来你很难受，愿意说说吗？"],
     "domain": "情感陪伴", "difficulty": "中"},
    {"id": "c", "query": "明天穿什么", "responses": ["明天降温，记得穿外套。", "天气转凉，建议加一件外套。"],
     "domain": None, "difficulty": None},
]


@pytest.fixture()
def duck(tmp_path):
    return write_jsonl(tmp_path / "raw.jsonl", ROWS)


def _refused_at_line_1(res, duck, accepted):
    assert res.exit_code == 2, res.output
    assert f"{duck}:1: id 'a': 'domain' '数码' is not one of {accepted} or null. For other domains: --domains any " \
           "(or a comma list of the values) on the command line" in res.stderr, res.stderr


def test_clean_refuses_an_unknown_domain_saying_to_use_domains(duck, tmp_path):
    out = tmp_path / "out.jsonl"
    _refused_at_line_1(run("clean", duck, "-o", out, "-q"), duck, ["生活咨询", "售后支持", "情感陪伴"])
    assert not out.exists()


@pytest.mark.parametrize("domains", ["any", "数码,情感陪伴", " ANY "])
def test_clean_with_domains_keeps_every_row_and_its_domain(duck, tmp_path, domains):
    out = tmp_path / "out.jsonl"
    res = run("clean", duck, "-o", out, "-q", "--domains", domains)
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    # nothing is dropped (every reference is 11-15 characters, within 5-150, and no two are near duplicates)
    assert [(r["id"], r["domain"]) for r in rows] == [("a", "数码"), ("b", "情感陪伴"), ("c", None)]
    assert "queries: 3 → 3 (dropped 0)" in res.stdout


def test_clean_with_a_domain_list_that_leaves_one_out_is_refused(duck, tmp_path):
    res = run("clean", duck, "-o", tmp_path / "out.jsonl", "-q", "--domains", "情感陪伴,生活咨询")
    _refused_at_line_1(res, duck, ["情感陪伴", "生活咨询"])


def test_clean_domains_names_no_domain_like_score(duck, tmp_path):
    res = run("clean", duck, "-o", tmp_path / "out.jsonl", "-q", "--domains", " , ")
    assert res.exit_code == 2 and "--domains ' , ' names no domain" in res.stderr, res.output


def test_score_says_to_use_domains_too(duck, tmp_path):
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": r["id"], "prediction": r["responses"][0]} for r in ROWS])
    _refused_at_line_1(run("score", "-d", duck, "-p", preds, "-q", "--bootstrap", 0), duck,
                       ["生活咨询", "售后支持", "情感陪伴"])
    res = run("score", "-d", duck, "-p", preds, "-q", "--bootstrap", 0, "--domains", "any")
    assert res.exit_code == 0, res.output


def test_explain_and_sample_take_domains(duck, tmp_path):
    # the refusal says --domains: each command that reads a 小黄鸭 file takes it
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": r["id"], "prediction": r["responses"][0]} for r in ROWS])
    _refused_at_line_1(run("explain", "-d", duck, "-p", preds, "--id", "a"), duck, ["生活咨询", "售后支持", "情感陪伴"])
    res = run("explain", "-d", duck, "-p", preds, "--id", "a", "--domains", "any", "--format", "json")
    assert res.exit_code == 0, res.output
    sheet = tmp_path / "sheet.csv"
    res = run("sample", "-d", duck, "-p", preds, "-k", 3, "-o", sheet, "-q", "--domains", "数码,情感陪伴")
    assert res.exit_code == 0, res.output
    assert sheet.exists()


@pytest.mark.parametrize("domains", ["any,生活咨询", "生活咨询,Any"])
def test_any_within_a_list_is_refused(duck, tmp_path, domains):
    """'any' inside a comma list was read as a domain named 'any' (issue 35, break-it 5 F19): it is given alone."""
    for args in (["clean", duck, "-o", tmp_path / "out.jsonl"], ["score", "-d", duck, "-p", tmp_path / "p.jsonl"]):
        res = run(*args, "-q", "--domains", domains)
        assert res.exit_code == 2, res.output
        assert f"--domains {domains!r}: 'any' accepts every domain and must be given alone (--domains any)" in res.output
