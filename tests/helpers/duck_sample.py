"""The embedded 小黄鸭 sample (zheval/data) as the row-index tests read it: its items and predictions, sacrebleu's
BLEU of predictions against its first items, and the library calls those tests make."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .cli import write_jsonl

__all__ = ["ITEMS", "PREDS", "sample_bleu", "sample_data", "refused", "report", "in_line_order"]

_SAMPLE = Path(__file__).resolve().parents[2] / "zheval" / "data"
ITEMS = [json.loads(ln) for ln in (_SAMPLE / "duck_sample.jsonl").read_text(encoding="utf-8").splitlines()]
PREDS = [json.loads(ln)["prediction"]
         for ln in (_SAMPLE / "duck_sample_predictions.jsonl").read_text(encoding="utf-8").splitlines()]


def sample_bleu(preds: list, n: int) -> float:
    """sacrebleu's corpus BLEU (``zh``) of ``preds`` against items 0..n-1's references, as a fraction."""
    import sacrebleu

    refs = [ITEMS[k]["responses"] for k in range(n)]
    streams = [[r[j] if j < len(r) else None for r in refs] for j in range(max(map(len, refs)))]
    return sacrebleu.corpus_bleu(preds, streams, tokenize="zh").score / 100


def sample_data(tmp_path, n: int = 8):
    """The first ``n`` items written as a 小黄鸭 JSONL file in ``tmp_path``."""
    return write_jsonl(tmp_path / f"data{n}.jsonl", ITEMS[:n])


def refused(data, path) -> str:
    """The message of the `PredictionMismatchError` `evaluate_predictions` raises on ``data`` and ``path``."""
    from zheval.adapters.duck import PredictionMismatchError, evaluate_predictions, load_duck

    with pytest.raises(PredictionMismatchError) as err:
        evaluate_predictions(load_duck(data), str(path), bootstrap=0)
    return str(err.value)


def report(data, path):
    """`evaluate_predictions`' report of ``path`` on ``data`` (no intervals, no groups)."""
    from zheval.adapters.duck import evaluate_predictions, load_duck

    return evaluate_predictions(load_duck(data), str(path), bootstrap=0, by=())


def in_line_order(tmp_path, field: str, values: list) -> tuple:
    """``(report, path)`` of the first ``len(values)`` predictions in line order, each with ``field`` = its value,
    scored on the first items: the BLEU checked against sacrebleu's (the pairing by line order is right)."""
    n = len(values)
    data = sample_data(tmp_path, n)
    path = write_jsonl(tmp_path / "p.jsonl", [{"prediction": PREDS[k], field: v} for k, v in enumerate(values)])
    rep = report(data, path)
    assert rep.score("bleu").value == pytest.approx(sample_bleu(PREDS[:n], n), abs=1e-12)
    return rep, path

