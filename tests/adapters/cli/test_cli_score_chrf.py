"""chrF in ``zheval score`` and ``zheval compare`` (--metrics chrf, --chrf-word-order): the overall and per-group
numbers are compute_chrf's on the same items (the 小黄鸭 sample shipped with the package), the intervals bracket
them, the signature names chrF, and compare's chrF rows are the two systems' compute_chrf scores."""

from __future__ import annotations

import json

import pytest

import zheval
from zheval.adapters.duck import load_duck
from zheval.adapters.duck.predictions import join_predictions, read_predictions
from helpers import REPO
from helpers.cli import run_cli

DATA = REPO / "zheval" / "data" / "duck_sample.jsonl"
PREDS = REPO / "zheval" / "data" / "duck_sample_predictions.jsonl"
SHORT = REPO / "zheval" / "data" / "duck_sample_predictions_short.jsonl"


def _items(path):
    ds = load_duck(str(DATA))
    preds = join_predictions(ds, read_predictions(str(path)))
    return ds, list(preds), [list(r) for r in ds["responses"]]


@pytest.mark.parametrize("word_order", [0, 2])
def test_score_reports_compute_chrf(word_order):
    res = run_cli("score", "--data", DATA, "--predictions", PREDS, "--metrics", "bleu,chrf", "--chrf-word-order",
                  word_order, "--bootstrap", 100, "--format", "json", "-q")
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    ds, preds, refs = _items(PREDS)
    overall = report["groups"][0]["scores"]["chrf"]
    expected = zheval.compute_chrf(preds, refs, word_order=word_order)
    assert overall["value"] == expected["chrf"] and overall["precisions"] == expected["precisions"]
    assert overall["low"] < overall["value"] < overall["high"]
    sig = report["signatures"]["chrf"]
    assert f"|nw:{word_order}|" in sig and "|bs:100|seed:12345|" in sig
    assert {"name": "chrf", "label": "chrF2" + "+" * word_order} in report["metrics"]
    # a group: the same function on its items
    g = next(g for g in report["groups"] if g["dimension"] == "domain" and g["value"] == "售后支持")
    idx = [i for i, d in enumerate(ds["domain"]) if d == "售后支持"]
    assert g["scores"]["chrf"]["value"] == zheval.compute_chrf([preds[i] for i in idx], [refs[i] for i in idx],
                                                               word_order=word_order)["chrf"]


def test_compare_has_chrf_rows():
    res = run_cli("compare", "--data", DATA, "--predictions", PREDS, SHORT, "--metrics", "chrf", "--bootstrap", 200,
                  "--format", "json", "-q")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    text = json.dumps(doc, ensure_ascii=False)
    _, a, refs = _items(PREDS)
    _, b, _ = _items(SHORT)
    ca, cb = zheval.compute_chrf(a, refs)["chrf"], zheval.compute_chrf(b, refs)["chrf"]
    assert "chrF2" in text
    row = next(r for r in doc["comparison"] if r["metric"] == "chrf" and r["group"] == "overall")
    assert (row["score_a"], row["score_b"], row["label"]) == (ca, cb, "chrF2")
    assert row["delta"] == cb - ca and row["delta_low"] <= row["delta"] <= row["delta_high"]


def test_word_order_without_chrf_is_refused():
    res = run_cli("score", "--data", DATA, "--predictions", PREDS, "--chrf-word-order", 2, "-q")
    assert res.exit_code == 2 and "add chrf to --metrics" in res.output


def test_html_report_with_chrf_samples_by_chrf(tmp_path):
    page = tmp_path / "report.html"
    res = run_cli("score", "--data", DATA, "--predictions", PREDS, "--metrics", "bleu,chrf", "--chrf-word-order", 2,
                  "--html", page, "--html-metric", "chrf", "--bootstrap", 50, "-q")
    assert res.exit_code == 0, res.output
    html = page.read_text(encoding="utf-8")
    # every sample's explanation was checked against the report's per-item chrF (a mismatch would be listed)
    assert "chrF2++" in html and "does not describe the reported number" not in html
    res = run_cli("score", "--data", DATA, "--predictions", PREDS, "--metrics", "bleu", "--html", page,
                  "--html-metric", "chrf", "-q")
    assert res.exit_code == 2 and "not reported by this run" in res.output
