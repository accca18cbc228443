"""``zheval score`` / ``zheval compare`` with ``--bertscore-model DIR``: the BERTScore-F1 column end to end (JSON),
equal to ``bert_score.score`` (bert-score 0.3.13) on a tiny BERT built in the test; a model that is not a local
directory is one line and exit code 2; without the flag nothing imports torch."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import torch
import bert_score

from helpers import REPO  # noqa: E402
from helpers.cli import PREDS, ROWS, run_cli, twin, write_jsonl, write_sample_files  # noqa: E402
from helpers.tiny_bert import make_tiny_bert  # noqa: E402

TOL = 1e-6
REFS = [r["responses"] for r in ROWS]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    torch.set_num_threads(1)
    return make_tiny_bert(tmp_path_factory.mktemp("model") / "tiny", layers=2, seed=2)


def _f(tiny, preds, idf=False):
    return bert_score.score(preds, REFS, model_type=tiny, num_layers=2, idf=idf)[2].numpy().astype(np.float64)


def test_score_has_the_bertscore_column(tiny, tmp_path):
    data, preds, _, _ = write_sample_files(tmp_path)
    res = run_cli("score", "--data", data, "--predictions", preds, "--bertscore-model", tiny, "--bertscore-layer",
                  "2", "--bertscore-idf", "--bertscore-batch-size", "2", "--bertscore-device", "cpu", "--by",
                  "domain", "-f", "json", "--bootstrap", "50", "--quiet")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    f = _f(tiny, [p["prediction"] for p in PREDS], idf=True)
    groups = {(g["dimension"], g["value"]): g["scores"]["bertscore_f1"] for g in doc["groups"]}
    assert abs(groups["overall", "all"]["value"] - f.mean()) < TOL and groups["overall", "all"]["low"] is not None
    for i, row in enumerate(ROWS):  # one item per domain: the group's value is the item's F
        assert abs(groups["domain", row["domain"]]["value"] - f[i]) < TOL
    assert {"name": "bertscore_f1", "label": "BERTScore-F1"} in doc["metrics"]
    assert "|layer:2|idf:yes|" in doc["signatures"]["bertscore"] and doc["params"]["bertscore"]["device"] == "cpu"


def test_score_without_data_has_the_column(tiny, tmp_path):
    rows = [{"id": r["id"], "prediction": p["prediction"], "references": r["responses"]} for r, p in zip(ROWS, PREDS)]
    path = write_jsonl(tmp_path / "records.jsonl", rows)
    res = run_cli("score", "--predictions", path, "--bertscore-model", tiny, "--bertscore-layer", "2", "-f", "json",
                  "--bootstrap", "0", "--quiet")
    assert res.exit_code == 0, res.output
    overall = json.loads(res.stdout)["groups"][0]["scores"]["bertscore_f1"]
    assert abs(overall["value"] - _f(tiny, [p["prediction"] for p in PREDS]).mean()) < TOL


def test_compare_has_the_paired_difference(tiny, tmp_path):
    data, preds_a, _, _ = write_sample_files(tmp_path)
    b = [p["prediction"][:4] for p in PREDS]
    preds_b = write_jsonl(tmp_path / "b.jsonl", [{"id": r["id"], "prediction": t} for r, t in zip(ROWS, b)])
    res = run_cli("compare", "--data", data, "--predictions", preds_a, preds_b, "--metrics", "bleu",
                  "--bertscore-model", tiny, "--bertscore-layer", "2", "-f", "json", "--bootstrap", "50", "--quiet")
    assert res.exit_code == 0, res.output
    row = next(r for r in json.loads(res.stdout)["comparison"] if r["metric"] == "bertscore_f1")
    fa, fb = _f(tiny, [p["prediction"] for p in PREDS]), _f(tiny, b)
    assert abs(row["delta"] - (fb.mean() - fa.mean())) < TOL and row["p_value"] is not None


def test_a_model_that_is_not_a_local_directory_is_one_line(tmp_path):
    data, preds, _, _ = write_sample_files(tmp_path)
    for command in (("score", "--data", data, "--predictions", preds),
                    ("compare", "--data", data, "--predictions", preds, twin(preds))):
        res = run_cli(*command, "--bertscore-model", "bert-base-chinese", "--quiet")
        assert res.exit_code == 2, res.output
        assert res.stderr.startswith("zheval: error: model 'bert-base-chinese' is not a local directory. zheval never "
                                     "downloads") and res.stderr.count("\n") == 1 and "Traceback" not in res.output
    res = run_cli("score", "--predictions", preds, "--stream", "--bertscore-model", tmp_path, "--quiet")
    assert res.exit_code == 2 and "--bertscore-model cannot be used with it" in res.stderr


def test_without_the_flag_nothing_imports_torch(tmp_path):
    data, preds, _, _ = write_sample_files(tmp_path)
    code = ("import sys, zheval\n"
            "from typer.testing import CliRunner\n"
            "from zheval.cli import app\n"
            f"r = CliRunner().invoke(app, ['score', '--data', {str(data)!r}, '--predictions', {str(preds)!r}, "
            "'--bootstrap', '10', '--quiet'])\n"
            "assert r.exit_code == 0, r.output\n"
            "print(sorted(m for m in ('torch', 'transformers', 'bert_score') if m in sys.modules))\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_a_reference_without_a_word_piece_is_named_by_its_line(tiny, tmp_path):
    # '\u0301' (a combining accent) is a character to zheval's tokenizers but no word piece to an uncased BERT (its
    # accents are stripped); before, every door said "references[2][0] is empty" (0-based, the library's index)
    import zheval.cli.bertscore  # noqa: F401  (registers the command)

    accent = "\u0301"
    rows = [{"id": r["id"], "model_output": p["prediction"], "label": r["responses"][0]} for r, p in zip(ROWS, PREDS)]
    rows[2]["label"] = accent
    path = write_jsonl(tmp_path / "file.jsonl", rows)
    bert = ("--bertscore-model", tiny, "--bertscore-layer", "2", "--bootstrap", "10", "--quiet")
    duck = [dict(r) for r in ROWS]
    duck[2]["responses"] = [duck[2]["responses"][0], accent]
    data = write_jsonl(tmp_path / "data.jsonl", duck)
    preds = write_jsonl(tmp_path / "preds.jsonl", PREDS)
    for command, where, field in (
            (("score", "-p", path, "--pred-field", "model_output"), path, "'label'"),
            (("compare", "-p", path, twin(path), "--pred-field", "model_output"), path, "'label'"),
            (("score", "--data", data, "-p", preds), data, "responses[1]"),
            (("compare", "--data", data, "-p", preds, twin(preds)), data, "responses[1]")):
        res = run_cli(*command, *bert)
        assert res.exit_code == 2, res.output
        assert f"{where}:3: id 'q3': {field} is empty: " in res.stderr, res.stderr
        assert "references[" not in res.stderr
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text(f"你好\n我们\n{accent}\n", encoding="utf-8")
    hyp.write_text("你好\n我们\n看\n", encoding="utf-8")
    res = run_cli("bertscore", ref, "-i", hyp, "--model", tiny, "--layer", "2")
    assert res.exit_code == 2 and f"{ref}:3: empty: " in res.stderr and "references[" not in res.stderr, res.output
