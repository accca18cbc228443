"""References per item: the 小黄鸭 loader enforces 2–5 (file:line for each item outside), load_duck(min_refs=,
max_refs=) and --min-refs relax it, --max-refs K scores with the first K references (items with more are accepted,
cut and counted: tests/adapters/cli/test_cli_diagnostics.py); real single-reference data (CrossWOZ single turns) scores with
--min-refs 1 and gives the library's numbers; clean accepts raw data with any count."""

from __future__ import annotations

import json

import pytest

from helpers import read_jsonl
from helpers.cli import run_cli as run, write_jsonl
from zheval.adapters.duck.load import MAX_REFS, MIN_REFS, DuckFormatError, load_duck
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge


def _row(i, k):
    return {"id": f"q{i}", "query": "取件码在哪看？", "responses": [f"第{i}条的第{j}个参考回复。" for j in range(k)],
            "domain": None, "difficulty": None}


def test_the_bounds_are_2_to_5():
    assert (MIN_REFS, MAX_REFS) == (2, 5)


@pytest.mark.parametrize("counts, bad_lines", [
    ([2, 3, 5], []),
    ([1, 2, 3], [1]),
    ([2, 6, 1, 7], [2, 3, 4]),
])
def test_loader_enforces_2_to_5_with_file_line(tmp_path, counts, bad_lines):
    p = write_jsonl(tmp_path / "d.jsonl", [_row(i, k) for i, k in enumerate(counts)])
    if not bad_lines:
        assert [len(r) for r in load_duck(p)["responses"]] == counts
        return
    with pytest.raises(DuckFormatError) as ei:
        load_duck(p)
    msg = str(ei.value)
    assert f"{len(bad_lines)} problem(s)" in msg
    for line in bad_lines:
        k = counts[line - 1]
        assert f"{p}:{line}: id 'q{line - 1}': 'responses' has {k} reference(s); expected 2–5 per item" in msg
        assert (f"--min-refs {k}" if k < 2 else f"--max-refs {k}") in msg
    relaxed = load_duck(p, min_refs=1, max_refs=None)
    assert [len(r) for r in relaxed["responses"]] == counts


def test_bound_arguments_are_checked(tmp_path):
    p = write_jsonl(tmp_path / "d.jsonl", [_row(0, 2)])
    for kw in ({"min_refs": 0}, {"max_refs": 0}, {"min_refs": 3, "max_refs": 2}, {"min_refs": True}):
        with pytest.raises(ValueError):
            load_duck(p, **kw)
    # --max-refs K means "score with the first K references" (not an upper bound of the file), so --min-refs 4
    # with --max-refs 3 is no contradiction: the lower bound is still checked (the item has 2 references)
    res = run("score", "-d", p, "-p", p, "--min-refs", 4, "--max-refs", 3, "-q")
    assert res.exit_code == 2 and "'responses' has 2 reference(s); expected at least 4" in res.stderr


def test_single_reference_crosswoz_needs_min_refs_1_and_matches_the_library(tmp_path):
    """The shared single-turn file has one reply per row (its README says it does not meet the 小黄鸭 rule)."""
    rows = read_jsonl("crosswoz_single_turn.jsonl")[:200]
    assert {len(r["responses"]) for r in rows} == {1}
    data = write_jsonl(tmp_path / "single.jsonl", rows)
    # a system that answers every turn with the previous row's reply (a real, imperfect prediction)
    preds = [rows[i - 1]["responses"][0] for i in range(len(rows))]
    pred = write_jsonl(tmp_path / "pred.jsonl", [{"id": r["id"], "prediction": p} for r, p in zip(rows, preds)])
    res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0)
    assert res.exit_code == 2 and f"{data}:1: id '{rows[0]['id']}': 'responses' has 1 reference(s)" in res.stderr
    assert "200 problem(s), first 20 shown" in res.stderr
    res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--min-refs", 1, "-f", "json", "--by", "none")
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)["groups"][0]["scores"]
    refs = [r["responses"] for r in rows]
    assert got["bleu"]["value"] == compute_bleu(preds, refs)["bleu"]
    assert got["rougeL"]["value"] == compute_rouge(preds, refs, rouge_types=["rougeL"])["rougeL"]
    res = run("ceiling", "-d", data, "-q", "--bootstrap", 0, "--min-refs", 1)
    assert res.exit_code == 2 and "at least 2 references" in res.stderr  # nothing to compare a single reply with


def test_max_refs_relaxes_the_upper_bound(tmp_path):
    rows = [_row(0, 7), _row(1, 2)]
    data = write_jsonl(tmp_path / "seven.jsonl", rows)
    preds = [rows[0]["responses"][3], "完全无关的回答"]
    pred = write_jsonl(tmp_path / "p.jsonl", [{"id": r["id"], "prediction": p} for r, p in zip(rows, preds)])
    assert run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0).exit_code == 2
    res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--max-refs", 7, "-f", "json", "--by", "none")
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)["groups"][0]["scores"]["bleu"]["value"]
    assert got == compute_bleu(preds, [r["responses"] for r in rows])["bleu"]


def test_clean_takes_raw_data_with_any_count_and_warns_about_too_many(tmp_path):
    rows = [_row(0, 1), _row(1, 7), _row(2, 3)]
    data = write_jsonl(tmp_path / "raw.jsonl", rows)
    out = tmp_path / "clean.jsonl"
    res = run("clean", data, "-o", out, "-q", "--no-dedup", "--min-chars", 1)
    assert res.exit_code == 0, res.output
    kept = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [len(r["responses"]) for r in kept] == [7, 3]  # the 1-reference query dropped (--min-refs 2 of clean)
    assert "1 query has more than 5 references" in res.stderr and "--max-refs" in res.stderr
