"""The "lm-evaluation-harness: a first run" and "OpenCompass: a first run" sections of docs/harnesses.md run as written (from the repository root, as
documented) and give zheval's numbers on the same pairs; the example task YAML they name is the one in examples/."""

from __future__ import annotations

import json
import os
import re

import pytest
from helpers import REPO
from helpers.docs import doc_section as section

import zheval





def _python_block(heading: str) -> str:
    return re.search(r"```python\n(.*?)```", section(heading), flags=re.S).group(1)


def test_lm_eval_example_runs_offline_and_equals_zheval():
    pytest.importorskip("lm_eval", reason="lm-eval is in the test extra")
    code = _python_block("## lm-evaluation-harness: a first run")
    cwd = os.getcwd()
    os.chdir(REPO)  # the example task's data_files path is relative to the repository root, as documented
    try:
        ns: dict = {}
        exec(compile(code, "README:lm-evaluation-harness", "exec"), ns)
    finally:
        os.chdir(cwd)
    docs = [json.loads(line) for line in (REPO / "examples/lm_eval/zh_example.jsonl").read_text("utf-8").splitlines()]
    preds = [ns["stored"][d["id"]] for d in docs]
    refs = [d["references"] for d in docs]
    assert len({len(r) for r in refs}) > 1  # the example's references are ragged
    scores = ns["scores"]
    for t in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        assert scores[f"zheval_{t}_char,none"] == zheval.compute_rouge(preds, refs)[t]
        assert isinstance(scores[f"zheval_{t}_char_stderr,none"], float)
    assert scores["zheval_bleu_char,none"] == zheval.compute_bleu(preds, refs)["bleu"]
    # the bash line names the same task and folder
    assert "--include_path examples/lm_eval --tasks zheval_zh_example" in section("## lm-evaluation-harness: a first run")
    assert "task: zheval_zh_example" in (REPO / "examples/lm_eval/zheval_zh_example.yaml").read_text("utf-8")


def test_opencompass_example_runs_and_equals_zheval_times_100():
    ns: dict = {}
    exec(compile(_python_block("## OpenCompass: a first run"), "README:OpenCompass", "exec"), ns)
    p, r = ns["predictions"], ns["references"]
    assert ns["rouge"]["rouge1"] == 100 * zheval.compute_rouge(p, r, tokenizer="jieba")["rouge1"]
    assert ns["bleu"]["bleu"] == 100 * zheval.compute_bleu(p, r)["bleu"]
    assert ns["rouge"]["details"][0]["answer"] == r[0]
    assert 'evaluator=dict(type=ZhevalRougeEvaluator, tokenizer="jieba")' in section("## OpenCompass: a first run")
