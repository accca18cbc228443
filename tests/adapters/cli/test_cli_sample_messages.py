"""The messages of ``zheval sample``, which writes a sheet and a key and shows no report."""

from __future__ import annotations

from helpers.cli import run_cli, write_jsonl


def test_sample_truncation_warning_does_not_point_at_a_report(tmp_path):
    """Break-it (words13 F5): ``zheval sample`` warned "...the report shows the scores without them next to the
    scores on all items", but sample shows no report: it points at ``zheval score`` instead."""
    refs = ["今天天气很好。", "我们去公园散步。", "明天记得穿外套。", "请在订单页申请退货。", "快递已经到驿站了。",
            "我在这里陪着你。", "周末一起去爬山吧。", "这本书很有意思。"]
    rows = [{"predict": r[:-2], "label": r} for r in refs]  # every prediction cut before its full stop
    preds = tmp_path / "p.jsonl"
    write_jsonl(preds, rows)
    res = run_cli("sample", "-p", preds, "-k", 6, "-o", tmp_path / "s.csv", "--key", tmp_path / "k.json")
    assert res.exit_code == 0, res.output
    assert "do not end a sentence" in res.stderr, res.stderr
    assert "the report shows the scores without them" not in res.stderr
    assert ("zheval score of these predictions (without --stream) shows the scores without them next to the scores "
            "on all items") in res.stderr
