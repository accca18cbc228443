"""Predictions without ids paired with a 小黄鸭 file by line order (issue 35, break-it round): a stored query that
disagrees with its item's query on fewer lines than the error threshold is counted and warned about (the count and
the first ``file:line``, text and JSON), in the file's own field name (``query`` or ``prompt``); and ``compare``,
``explain`` and ``sample`` say "paired by line order" as ``score`` does. The counts are known by construction (the
lines the test changed), not read from our output."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.cli import run_cli as run, write_jsonl

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "zheval" / "data" / "duck_sample.jsonl"


def _rows(field="query"):
    """One id-less prediction line per item of the packaged sample, in its order, storing the item's query."""
    items = [json.loads(x) for x in DATA.read_text("utf-8").splitlines() if x.strip()]
    return [{field: it["query"], "prediction": it["responses"][0]} for it in items]


def _rotated(rows, n):
    """The first ``n`` lines rotated by one: exactly ``n`` stored queries are not their item's (all queries are
    distinct)."""
    return rows[1:n] + rows[:1] + rows[n:]


def test_one_wrong_line_of_66_is_warned_with_its_line(tmp_path):
    rows = _rows()
    rows[4] = {**rows[4], "query": "这不是这一项的问题"}
    p = write_jsonl(tmp_path / "p.jsonl", rows)
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    warnings = [w for w in json.loads(res.stdout)["warnings"] if "'query'" in w]
    assert len(warnings) == 1 and "1 of 66" in warnings[0] and f"{p}:5 " in warnings[0], warnings
    text = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q")
    assert "1 of 66 prediction line(s) store a 'query'" in text.output and f"{p}:5 " in text.output


def test_thirteen_rotated_lines_are_warned_and_named(tmp_path):
    p = write_jsonl(tmp_path / "p.jsonl", _rotated(_rows(), 13))
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    (w,) = [w for w in json.loads(res.stdout)["warnings"] if "'query'" in w]
    assert "13 of 66" in w and f"{p}:1 " in w and f"{p}:5 " in w, w


def test_the_prompt_field_is_named_prompt(tmp_path):
    warn = write_jsonl(tmp_path / "warn.jsonl", _rotated(_rows("prompt"), 2))
    res = run("score", "-d", DATA, "-p", warn, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    (w,) = [w for w in json.loads(res.stdout)["warnings"] if "2 of 66" in w]
    assert "'prompt'" in w and "'query' that" not in w, w
    bad = write_jsonl(tmp_path / "bad.jsonl", _rotated(_rows("prompt"), 30))
    res = run("score", "-d", DATA, "-p", bad, "--bootstrap", 0, "-q")
    assert res.exit_code == 2, res.output
    assert "30 of 66 lines the stored 'prompt'" in res.output and "stored query" not in res.output
    assert f"{bad}:1: 'prompt'" in res.output


def test_compare_explain_and_sample_say_paired_by_line_order(tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", _rotated(_rows(), 3))
    b = write_jsonl(tmp_path / "b.jsonl", _rows())
    res = run("compare", "-d", DATA, "-p", a, b, "--bootstrap", 10, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    assert [n[:3] for n in rep["notes"] if "line order" in n] == ["A: ", "B: "], rep["notes"]
    assert [w[:10] for w in rep["warnings"] if "'query'" in w] == ["A: 3 of 66"], rep["warnings"]
    res = run("explain", "-d", DATA, "-p", a, "--id", "duck-test-0010")
    assert res.exit_code == 0, res.output
    assert "line order" in res.stderr and "3 of 66" in res.stderr
    sheet = tmp_path / "sheet.csv"
    res = run("sample", "-d", DATA, "-p", a, "-k", 5, "-o", sheet)
    assert res.exit_code == 0, res.output
    assert "line order" in res.stderr and "3 of 66" in res.stderr
    key = json.loads(sheet.with_suffix(".key.json").read_text("utf-8"))
    assert any("line order" in n for n in key["notes"]) and any("3 of 66" in w for w in key["warnings"])


def test_compare_groups_by_default_as_score_does(tmp_path):
    # compare's --by defaulted to none: a records file with --group-field showed the overall row only, while score
    # reports every group field (and with --data domain,difficulty)
    items = [json.loads(x) for x in DATA.read_text("utf-8").splitlines() if x.strip()][:12]
    rows = [{"id": it["id"], "prediction": it["responses"][0][:6], "references": it["responses"],
             "cat": "ab"[k % 2]} for k, it in enumerate(items)]
    a = write_jsonl(tmp_path / "a.jsonl", rows)
    b = write_jsonl(tmp_path / "b.jsonl", [{**r, "prediction": r["references"][0]} for r in rows])
    res = run("compare", "-p", a, b, "--group-field", "cat", "--bootstrap", 10, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    groups = {r["group"] for r in json.loads(res.stdout)["comparison"]}
    assert groups == {"overall", "cat=a", "cat=b"}, groups
    res = run("compare", "-p", a, b, "--group-field", "cat", "--by", "none", "--bootstrap", 10, "-q", "-f", "json")
    assert {r["group"] for r in json.loads(res.stdout)["comparison"]} == {"overall"}
    a = write_jsonl(tmp_path / "da.jsonl", _rows())
    b = write_jsonl(tmp_path / "db.jsonl", [{**r, "prediction": r["prediction"][:5]} for r in _rows()])
    res = run("compare", "-d", DATA, "-p", a, b, "--bootstrap", 10, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    groups = {r["group"].split("=")[0] for r in json.loads(res.stdout)["comparison"]}
    assert groups == {"overall", "domain", "difficulty"}, groups
