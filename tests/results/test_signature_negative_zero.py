"""-0 and 0 are one setting, so one signature (issue 35): a number that enters a signature as ``-0.0`` is written
``0``, as ``0.0`` is. Expected fields are written by hand."""

from __future__ import annotations

import subprocess
import sys

from zheval import compute_bleu, compute_chrf, compute_rouge
import pytest

from zheval.results.signature import parse_signature

PRED, REFS = ["今天天气很好"], [["今天天气不错"]]


def test_signature_number_writes_minus_zero_as_zero():
    from zheval.results.signature import signature_number
    assert [signature_number(v) for v in (-0.0, 0.0, 0, -0, 1.0, 0.5, -1.5)] == \
        ["0", "0", "0", "0", "1", "0.5", "-1.5"]


def test_bleu_smooth_value_minus_zero():
    sig = parse_signature(compute_bleu(PRED, REFS, smooth_method="floor", smooth_value=-0.0)["signature"])
    assert sig["smooth"] == "floor[0]"
    assert sig == parse_signature(compute_bleu(PRED, REFS, smooth_method="floor", smooth_value=0.0)["signature"])


def test_rouge_and_chrf_beta_minus_zero():
    assert parse_signature(compute_rouge(PRED, REFS, beta=-0.0)["signature"])["beta"] == "0"
    assert parse_signature(compute_chrf(PRED, REFS, beta=-0.0)["signature"])["beta"] == "0"


def test_judge_temperature_minus_zero():
    pytest.importorskip("openai")
    from zheval.compute.judge import JudgeConfig, JudgeOptions, judge_config
    config = judge_config(JudgeOptions(base_url="http://127.0.0.1:9/v1", model="m", temperature=-0.0,
                                        use_cache=False))
    assert isinstance(config, JudgeConfig) and "|temp:0|" in config.signature(1)


def test_cli_smooth_value_minus_zero(tmp_path):
    (tmp_path / "r.txt").write_text("今天天气不错\n", encoding="utf-8")
    (tmp_path / "h.txt").write_text("今天天气很好\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "zheval", "bleu", str(tmp_path / "r.txt"), "-i",
                          str(tmp_path / "h.txt"), "--smooth", "floor", "--smooth-value", "-0", "-f", "text"],
                         capture_output=True, text=True, encoding="utf-8")
    assert run.returncode == 0, run.stderr
    assert "|smooth:floor[0]|" in run.stdout and "floor[-0]" not in run.stdout


def test_judge_cache_key_of_temperature_minus_zero_is_that_of_zero():
    # -0.0 == 0.0: the same request, so a rerun with -0 finds the answers cached at 0 (json.dumps wrote "-0.0")
    from zheval.compute.judge_cache import answer_key

    key = dict(model="m", messages=[{"role": "user", "content": "好"}], seed=1, json_mode=True, max_tokens=None)
    assert answer_key(temperature=-0.0, **key) == answer_key(temperature=0.0, **key) == answer_key(temperature=0, **key)
    assert answer_key(temperature=0.5, **key) != answer_key(temperature=0.0, **key)
