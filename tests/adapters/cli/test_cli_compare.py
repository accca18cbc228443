"""zheval compare on identical and on different systems: identical outputs give delta 0 on every metric, flagged as
"no difference" (sacrebleu's p-value (0 + 1) / (R + 1) kept, with a note saying why), in JSON and in the table;
different systems carry no such flag or note. Small data files are written here; expected values are worked out in
comments."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from zheval.cli import app

runner = CliRunner()

ROWS = [
    {"id": "q1", "query": "怎么退货？", "responses": ["您好，请在订单页申请退货。", "可以在订单页面申请退货。"],
     "domain": "售后支持", "difficulty": "易"},
    {"id": "q2", "query": "心情不好", "responses": ["我在这里陪着你，想聊聊吗？", "听起来你很难受，愿意说说吗？"],
     "domain": "情感陪伴", "difficulty": "中"},
    {"id": "q3", "query": "明天穿什么", "responses": ["明天降温，记得穿外套。", "天气转凉，建议加一件外套。"],
     "domain": "生活咨询", "difficulty": None},
]
PREDS = [{"id": "q1", "prediction": "请在订单页申请退货。"}, {"id": "q2", "prediction": "我陪着你，想聊聊吗？"},
         {"id": "q3", "prediction": "明天记得穿外套。"}]


def run(*args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def _jsonl(path, rows, ensure_ascii=False):
    path.write_text("".join(json.dumps(r, ensure_ascii=ensure_ascii) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture()
def files(tmp_path):
    data = _jsonl(tmp_path / "data.jsonl", ROWS)
    preds = _jsonl(tmp_path / "preds.jsonl", PREDS)
    txt = tmp_path / "preds.txt"
    txt.write_text("".join(p["prediction"] + "\n" for p in PREDS), encoding="utf-8")
    terms = tmp_path / "terms.txt"
    terms.write_text("订单页\n", encoding="utf-8")
    return data, preds, txt, terms


def test_compare_identical_systems_says_no_difference(files, tmp_path):
    data, preds, txt, _ = files
    out = tmp_path / "cmp.json"
    res = run("compare", "-d", data, "-p", preds, txt, "--bootstrap", 199, "-q", "-f", "json", "-o", out)
    assert res.exit_code == 0, res.output
    rep = json.loads(out.read_text(encoding="utf-8"))
    # the same texts (by id and in order): every resample ties too, so no |B - A| exceeds 0 strictly and
    # sacrebleu's p = (0 + 1) / (199 + 1) = 0.005 -- kept as sacrebleu's number, but flagged
    for row in rep["comparison"]:
        assert row["delta"] == 0.0 and row["no_difference"] is True
        assert row["p_value"] == 1 / 200
    assert any(n.startswith("no difference: the systems' outputs score identically") for n in rep["notes"])
    assert any("strictly" in n and "+ 1" in n for n in rep["notes"])
    table = run("compare", "-d", data, "-p", preds, txt, "--bootstrap", 199, "-q").output
    assert "0.0050 (no difference)" in table and "no difference: the systems' outputs score identically" in table


def test_compare_different_systems_has_no_no_difference_note(files, tmp_path):
    data, preds, _, _ = files
    other = _jsonl(tmp_path / "other.jsonl", [{**p, "prediction": p["prediction"][:3]} for p in PREDS])
    out = tmp_path / "cmp.json"
    res = run("compare", "-d", data, "-p", preds, other, "--bootstrap", 50, "-q", "-f", "json", "-o", out)
    assert res.exit_code == 0, res.output
    rep = json.loads(out.read_text(encoding="utf-8"))
    assert all(r["delta"] < 0 and r["no_difference"] is False for r in rep["comparison"])
    assert not any(n.startswith("no difference") for n in rep["notes"])
