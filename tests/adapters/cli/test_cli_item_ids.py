"""An integer id is written as its text form by every per-item output (break-it-6 item 3): ``zheval score --items``
(JSON), ``score --stream --items-out`` and ``score_batches(items_path=)`` (JSONL and Parquet) all write the JSONL id
``1`` as ``"1"`` (the CLI reads ids as text; ``1`` and ``"1"`` are one id), so the files join on ``id``. Before,
score_batches wrote ``1`` beside the CLI's ``"1"``."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_cli, write_jsonl
from zheval.compute.batches import score_batches

PREDS, REFS = ["今天天气不错", "我要去北京"], [["今天天气很好"], ["我想去北京"]]


def _jsonl_ids(path) -> list:
    return [json.loads(line)["id"] for line in path.read_text(encoding="utf-8").splitlines()]


def test_every_per_item_output_writes_integer_ids_as_text(tmp_path):
    data = write_jsonl(tmp_path / "ints.jsonl", [{"id": i + 1, "prediction": p, "reference": r[0]}
                                                 for i, (p, r) in enumerate(zip(PREDS, REFS))])
    res = run_cli("score", "-p", data, "--bootstrap", "0", "--items", "-f", "json", "-q", "--metrics", "bleu")
    assert res.exit_code == 0, res.stderr
    assert [it["id"] for it in json.loads(res.stdout)["items"]] == ["1", "2"]
    out = tmp_path / "stream.jsonl"
    res = run_cli("score", "-p", data, "--bootstrap", "0", "--stream", "--items-out", out, "-q", "--metrics", "bleu")
    assert res.exit_code == 0, res.stderr
    assert _jsonl_ids(out) == ["1", "2"]
    lib = tmp_path / "lib.jsonl"
    score_batches([(PREDS, REFS, None, [1, 2])], ["bleu"], items_path=lib, progress=False)
    assert _jsonl_ids(lib) == ["1", "2"]


def test_score_batches_parquet_ids_are_text_too(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    import numpy as np

    path = tmp_path / "lib.parquet"
    score_batches([(PREDS, REFS, None, np.array([1, 2]))], ["bleu"], items_path=path, progress=False)
    assert pq.read_table(path).column("id").to_pylist() == ["1", "2"]
