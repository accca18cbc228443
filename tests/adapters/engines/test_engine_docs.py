"""The code of docs/engines.md runs: each snippet in a fresh process with the engine (the numbers it prints are
zheval.score's on the same three items)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from helpers import REPO
from helpers.engines import engine_or_skip

import zheval

HERE = REPO / "tests" / "adapters" / "engines"
PREDS = ["今天北京天气很好", "我想订一张去上海的机票", "附近有什么好吃的餐厅"]
REFS = [["今天北京天气不错", "北京今天天气很好"], ["帮我订一张去上海的机票"], ["附近有哪些好吃的饭店"]]
IDS = ["q1", "q2", "q3"]


def poisson_score(preds, refs, ids):
    """zheval.score_batches with the Poisson bootstrap (what the snippets ask the doors for)."""
    return zheval.score_batches([(preds, refs, None, ids)], bootstrap=1000, bootstrap_method="poisson",
                                progress=False)


def run(snippet: str) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), SPARK_LOCAL_IP="127.0.0.1", PYSPARK_PYTHON=sys.executable)
    env.pop("SPARK_REMOTE", None)
    proc = subprocess.run([sys.executable, str(HERE / snippet)], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.splitlines()


def test_the_ray_snippet_runs():
    engine_or_skip("ray", "ray")
    out = run("docs_ray_snippet.py")
    want = poisson_score(PREDS, REFS, IDS)
    assert out[0] == f"{want['bleu']['bleu']} {want['rouge']['rougeL']} {want['rouge']['rougeL_ci_low']}"
    assert out[1] == str(zheval.score(PREDS[1:2], REFS[1:2])["rouge"]["rougeL"])
    per_item = zheval.compute_rouge(PREDS, REFS, tokenizer="jieba", use_aggregator=False)["rougeL"]
    assert out[2] == str(sorted(i for i, f in zip(["q1", "q2", "q3"], per_item) if f < 0.6))


def test_the_spark_snippet_runs():
    engine_or_skip("pyspark", "spark")
    out = run("docs_spark_snippet.py")
    want = poisson_score(PREDS, REFS, IDS)
    assert out[0] == f"{want['bleu']['bleu']} {want['rouge']['rougeL']} {want['rouge']['rougeL_ci_low']}"
    assert any("| id|" in line for line in out)
