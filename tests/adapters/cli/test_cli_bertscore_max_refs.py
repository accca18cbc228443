"""``--max-refs K`` with ``--bertscore-model``: the cut changes BERTScore's number, so its signature carries
``maxrefs:K`` after ``nrefs`` as the n-gram signatures do (``zheval score`` and ``zheval compare``); without the
cut, no ``maxrefs``. The numbers are checked against ``bert_score.score`` (bert-score 0.3.13) on the first reference
of each item, on a tiny BERT built in the test (no Hub)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import torch
import bert_score

from helpers.cli import PREDS, ROWS, run_cli, write_jsonl
from helpers.tiny_bert import make_tiny_bert

TOL = 1e-6


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    torch.set_num_threads(1)
    return make_tiny_bert(tmp_path_factory.mktemp("model") / "tiny", layers=2, seed=2)


def _records(tmp_path, name="rec.jsonl", preds=None):
    preds = preds or [p["prediction"] for p in PREDS]
    return write_jsonl(tmp_path / name, [{"id": r["id"], "prediction": p, "references": r["responses"]}
                                         for r, p in zip(ROWS, preds)])


def _f(tiny, preds, refs):
    return bert_score.score(preds, refs, model_type=tiny, num_layers=2)[2].numpy().astype(np.float64)


def test_score_bertscore_signature_carries_maxrefs(tiny, tmp_path):
    path = _records(tmp_path)
    preds = [p["prediction"] for p in PREDS]
    res = run_cli("score", "-p", path, "--max-refs", "1", "--bertscore-model", tiny, "--bertscore-layer", "2",
                  "-f", "json", "--bootstrap", "0", "--quiet")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    value = doc["groups"][0]["scores"]["bertscore_f1"]["value"]
    first = _f(tiny, preds, [r["responses"][:1] for r in ROWS]).mean()
    every = _f(tiny, preds, [r["responses"] for r in ROWS]).mean()
    assert abs(value - first) < TOL and abs(first - every) > 1e-4  # the cut changed the number
    sig = doc["signatures"]
    assert sig["bertscore"].startswith("nrefs:1|maxrefs:1|metric:bertscore|"), sig["bertscore"]
    assert sig["bleu"].startswith("nrefs:1|maxrefs:1|")  # the same field the n-gram signatures carry
    res = run_cli("score", "-p", path, "--bertscore-model", tiny, "--bertscore-layer", "2", "-f", "json",
                  "--bootstrap", "0", "--quiet")
    assert res.exit_code == 0, res.output
    assert "maxrefs" not in json.loads(res.stdout)["signatures"]["bertscore"]  # no cut, no field


def test_compare_bertscore_signature_carries_maxrefs(tiny, tmp_path):
    a = _records(tmp_path)
    b = _records(tmp_path, "b.jsonl", [p["prediction"][:4] for p in PREDS])
    res = run_cli("compare", "-p", a, b, "--max-refs", "1", "--metrics", "bleu", "--bertscore-model", tiny,
                  "--bertscore-layer", "2", "-f", "json", "--bootstrap", "50", "--quiet")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["signatures"]["bertscore"].startswith("nrefs:1|maxrefs:1|metric:bertscore|"), doc["signatures"]
    assert doc["signatures"]["bleu"].startswith("nrefs:1|maxrefs:1|")
    row = next(r for r in doc["comparison"] if r["metric"] == "bertscore_f1")
    refs = [r["responses"][:1] for r in ROWS]
    fa, fb = _f(tiny, [p["prediction"] for p in PREDS], refs), _f(tiny, [p["prediction"][:4] for p in PREDS], refs)
    assert abs(row["delta"] - (fb.mean() - fa.mean())) < TOL
