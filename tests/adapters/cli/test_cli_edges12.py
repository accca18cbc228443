"""Break-it findings (edges12): ``clean`` drops empty references as ``empty`` instead of refusing the file; an empty
group value is refused like a spaced one in every format; a blank last line of a text predictions file scored as an
empty prediction is said in the notes; a Parquet file with a column name twice and ``--data`` given Parquet/CSV each
get one plain message."""

from __future__ import annotations

import json

from helpers.cli import run_cli, write_jsonl


def _duck_row(rid, responses, **kw):
    return {"id": rid, "query": "今天天气怎么样", "responses": responses, "domain": "生活咨询", "difficulty": "易", **kw}


def test_clean_drops_empty_and_whitespace_references_as_empty(tmp_path):
    src = write_jsonl(tmp_path / "c.jsonl", [
        _duck_row("a", ["今天是晴天哦", "天气晴朗无云", "今天阳光很好"]),
        _duck_row("d", ["晴天很好呀呀", "……", "   ", ""]),
        _duck_row("z", ["晴天很好呀呀", "明天会下雨吗", "\u200b"], query="明天天气"),
    ])
    out, rep = tmp_path / "out.jsonl", tmp_path / "rep.json"
    r = run_cli("clean", src, "-o", out, "--report-json", rep, "-q")
    assert r.exit_code == 0, r.output
    report = json.loads(rep.read_text(encoding="utf-8"))
    # "   " and "" on line 2, "\u200b" on line 3: three empty references ("……" is two characters: too short)
    assert report["dropped_refs"]["empty"] == {"生活咨询": 3}
    assert report["dropped_refs"]["too_short"] == {"生活咨询": 1}
    kept = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert all(s.strip() for k in kept for s in k["responses"])


def test_score_still_refuses_a_whitespace_only_reference(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [_duck_row("d", ["晴天很好", "   "])])
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": "d", "prediction": "晴天"}])
    r = run_cli("score", "--data", data, "--predictions", preds, "-q")
    assert r.exit_code != 0
    assert f"{data}:1: id 'd': responses[1] is empty or whitespace only" in r.output
