"""``human_ceiling(max_refs=K)`` cuts and counts as ``evaluate_predictions(max_refs=K)`` does, and its signatures carry
``maxrefs:K`` as score's do. ``zheval ceiling --max-refs K`` cut the dataset itself, so the ceiling's signature had no
``maxrefs:K`` while ``zheval score --max-refs K`` wrote it; it now passes ``max_refs`` to the library. The ceiling's
refusal of data without 2 references speaks the command's words at ``zheval ceiling``."""

from __future__ import annotations

import json
import re

import pytest

from helpers.cli import run_cli, write_jsonl
from zheval.adapters.duck import evaluate_predictions, human_ceiling, load_duck

# CJK only, no punctuation: zheval's char tokens are sacrebleu's "zh" tokens here (an independent BLEU)
ROWS = [{"id": f"d{i}", "domain": "情感陪伴", "difficulty": "难", "query": f"问题{i}",
         "responses": [f"今天天气很好{i}", f"今天天气不错{i}", f"明天会下雨吗{i}", f"天气很好呀{i}"][:k]}
        for i, k in enumerate((3, 4, 2, 3))]
PREDS = [{"id": r["id"], "prediction": r["responses"][0][:4]} for r in ROWS]


def _maxrefs(signature: str) -> str:
    return re.search(r"\|maxrefs:(\d+)\|", signature).group(1)


@pytest.fixture
def data(tmp_path):
    return write_jsonl(tmp_path / "d.jsonl", ROWS)


def test_human_ceiling_scores_the_first_k_references_as_sacrebleu_does(data):
    import sacrebleu

    rep = human_ceiling(load_duck(data), metrics=["bleu"], max_refs=2, bootstrap=0, by=())
    # by hand: the first 2 references of every item, each held out against the other one
    hyps = [refs[j] for r in ROWS for refs in [r["responses"][:2]] for j in range(2)]
    others = [refs[1 - j] for r in ROWS for refs in [r["responses"][:2]] for j in range(2)]
    expected = sacrebleu.corpus_bleu(hyps, [others], tokenize="zh").score / 100
    assert rep.score("bleu").value == pytest.approx(expected, abs=1e-12)
    assert rep.breakdowns["reference_limit"] == {"max_refs": 2, "items": 4, "fewer": 0, "truncated": 3,
                                                 "dropped_references": 4}
    assert "8 leave-one-out rows from 4 items" in rep.notes[0]


def test_ceiling_and_score_signatures_agree_on_maxrefs(data):
    ds = load_duck(data)
    ceiling = human_ceiling(ds, max_refs=3, bootstrap=0)
    score = evaluate_predictions(ds, {p["id"]: p["prediction"] for p in PREDS}, max_refs=3, bootstrap=0)
    for metric in ("bleu", "rouge"):
        assert _maxrefs(ceiling.signatures[metric]) == _maxrefs(score.signatures[metric]) == "3"
    # counted as evaluate_predictions counts it: before the cut, over every item
    assert ceiling.breakdowns["reference_limit"] == score.breakdowns["reference_limit"]
    assert "maxrefs" not in human_ceiling(ds, bootstrap=0).signatures["bleu"]
    with pytest.raises(ValueError, match="max_refs"):
        human_ceiling(ds, max_refs=0, bootstrap=0)


def test_max_refs_one_leaves_no_item_for_the_ceiling(data):
    with pytest.raises(ValueError, match=r"^human_ceiling needs items with at least 2 references; there are none; "
                                         r"max_refs 1 keeps one reference of every item"):
        human_ceiling(load_duck(data), max_refs=1, bootstrap=0)


def test_cli_ceiling_signature_carries_maxrefs_as_score_does(data, tmp_path):
    preds = write_jsonl(tmp_path / "p.jsonl", PREDS)
    ceiling = run_cli("ceiling", "--data", data, "--max-refs", "2", "--bootstrap", "0", "-q", "-f", "json")
    score = run_cli("score", "--data", data, "-p", preds, "--max-refs", "2", "--bootstrap", "0", "-q", "-f", "json")
    assert ceiling.exit_code == 0 and score.exit_code == 0, (ceiling.output, score.output)
    c, s = json.loads(ceiling.stdout), json.loads(score.stdout)
    for metric in ("bleu", "rouge"):
        assert _maxrefs(c["signatures"][metric]) == _maxrefs(s["signatures"][metric]) == "2", c["signatures"]
    assert c["breakdowns"]["reference_limit"] == s["breakdowns"]["reference_limit"]
    table = run_cli("ceiling", "--data", data, "--max-refs", "2", "--bootstrap", "0", "-q")
    assert "references: scored with the first 2 of every item" in table.stdout, table.output


def test_cli_ceiling_without_two_references_speaks_cli_terms(data, tmp_path):
    res = run_cli("ceiling", "--data", data, "--max-refs", "1", "--bootstrap", "0", "-q")
    assert res.exit_code == 2, res.output
    assert ("zheval: error: zheval ceiling needs items with at least 2 references; there are none; --max-refs 1 keeps "
            "one reference of every item: give --max-refs 2 or more, or leave it out") in res.stderr, res.stderr
    assert "human_ceiling" not in res.stderr and "max_refs" not in res.stderr
    single = write_jsonl(tmp_path / "one.jsonl", [{**r, "responses": r["responses"][:1]} for r in ROWS])
    res = run_cli("ceiling", "--data", single, "--min-refs", "1", "--bootstrap", "0", "-q")
    assert res.exit_code == 2 and "zheval ceiling needs items with at least 2 references" in res.stderr, res.output
    assert "human_ceiling" not in res.stderr
