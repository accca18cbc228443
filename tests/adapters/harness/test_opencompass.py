"""zheval inside OpenCompass (zheval/adapters/harness_opencompass.py): the evaluators follow OpenCompass 0.5.x's
``BaseEvaluator`` interface -- built from a config dict, ``score(predictions, references) -> dict`` on 0-100 with
per-item ``details`` -- and their numbers are zheval's times 100.

OpenCompass is not installed here (about 6.6 GB with torch and CUDA; ``opencompass.openicl`` imports torch and its
evaluators do not import as installed, ECOSYSTEM §7.2), so the path through OpenCompass is checked against a
stand-in: a module ``opencompass.openicl.icl_evaluator`` whose ``BaseEvaluator`` does what the real one does for a
score (constructor with ``pred_postprocessor``; ``evaluate`` checks lengths, post-processes predictions, calls
``score`` and takes out ``details``), driven the way ``opencompass/tasks/openicl_eval.py`` drives it (the config's
``type`` built with its keyword arguments; ``score``'s keyword arguments filtered by its signature). Our module is
re-imported under the stand-in, so the evaluators then subclass it as they would subclass OpenCompass's.
"""

from __future__ import annotations

import copy
import importlib
import sys
import types
from inspect import signature

import numpy as np
import pytest

import zheval
from zheval.adapters import harness_opencompass as OC

PREDS = ["北京今天天气晴朗", "会议推迟到下周举行", "他在公园跑步", "请关窗户"]
REFS = ["北京今天天气很好", ["会议改到下周举行", "下周再开会"], ["她去超市买菜", "天空下着小雨", "他每天在公园里跑步"],
        ["麻烦关一下窗户", "请关上窗户"]]


def test_rouge_scores_are_zheval_times_100_with_details():
    out = OC.ZhevalRougeEvaluator().score(PREDS, REFS)
    ours = zheval.compute_rouge(PREDS, REFS)
    per_item = zheval.compute_rouge(PREDS, REFS, use_aggregator=False)
    for t in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        assert out[t] == 100 * ours[t]
        assert [d[t] for d in out["details"]] == [100 * f for f in per_item[t]]
    assert out["signature"] == ours["signature"]
    # item 0, rouge1 by hand: 北京今天天气晴朗 vs 北京今天天气很好, 8 characters each, 6 shared: F = 6/8 -> 75
    assert out["details"][0]["rouge1"] == pytest.approx(75.0, abs=1e-12)
    assert out["details"][0]["pred"] == PREDS[0] and out["details"][0]["answer"] == REFS[0]
    assert out["details"][1]["answer"] == REFS[1]


def test_jieba_rouge_and_options_pass_through():
    ev = OC.ZhevalRougeEvaluator(tokenizer="jieba", rouge_types=["rouge1", "rougeL"], details=False,
                                 multi_ref="mean")
    out = ev.score(PREDS, REFS)
    ours = zheval.compute_rouge(PREDS, REFS, tokenizer="jieba", rouge_types=["rouge1", "rougeL"], multi_ref="mean")
    assert out == {"rouge1": 100 * ours["rouge1"], "rougeL": 100 * ours["rougeL"], "signature": ours["signature"]}


def test_bleu_is_zheval_times_100():
    out = OC.ZhevalBleuEvaluator(tokenizer="jieba").score(PREDS, REFS)
    ours = zheval.compute_bleu(PREDS, REFS, tokenizer="jieba")
    assert out["bleu"] == 100 * ours["bleu"] and out["signature"] == ours["signature"]
    assert out["statistics"]["precisions"] == [100 * p for p in ours["precisions"]]
    assert out["statistics"]["reference_length"] == ours["reference_length"]
    assert "details" not in out
    sent = OC.ZhevalBleuEvaluator(level="sentence").score(PREDS, REFS)
    assert [d["bleu"] for d in sent["details"]] == [100 * s for s in zheval.compute_bleu(
        PREDS, REFS, level="sentence")["scores"]]


def test_bad_input_names_the_item():
    ev = OC.ZhevalRougeEvaluator()
    with pytest.raises(ValueError, match="same length; got 4 predictions and 3 references"):
        ev.score(PREDS, REFS[:3])
    with pytest.raises(ValueError, match="references is None: the dataset's reader_cfg names no output_column"):
        ev.score(PREDS, None)
    with pytest.raises(TypeError, match=r"references\[2\] must be a str or a list of str"):
        ev.score(PREDS, [REFS[0], REFS[1], None, REFS[3]])
    with pytest.raises(TypeError, match=r"predictions\[1\] must be str"):
        ev.score([PREDS[0], None, PREDS[2], PREDS[3]], REFS)
    with pytest.raises(ValueError, match=r"references\[3\] is an empty list"):
        OC.ZhevalBleuEvaluator().score(PREDS, [REFS[0], REFS[1], REFS[2], []])
    with pytest.raises(zheval.EmptyReferenceError, match=r"references\[1\]\[1\]"):
        ev.score(PREDS, [REFS[0], ["会议改到下周举行", " "], REFS[2], REFS[3]])


def test_bad_options_fail_at_construction():
    with pytest.raises(ValueError, match="Unknown ROUGE type .rouge_x."):
        OC.ZhevalRougeEvaluator(rouge_types=["rouge_x"])
    with pytest.raises(TypeError, match="use_aggregator"):
        OC.ZhevalRougeEvaluator(use_aggregator=False)
    with pytest.raises(TypeError):
        OC.ZhevalBleuEvaluator(smoothing="exp")


# --- through a stand-in of OpenCompass's evaluation path -------------------------------------------------------

class StandInBaseEvaluator:
    """What OpenCompass 0.5.x's ``BaseEvaluator`` does for one replica (icl_base_evaluator.py), reduced to it."""

    def __init__(self, pred_postprocessor=None):
        self.pred_postprocessor = pred_postprocessor
        self._dataset_replica_idx = 0

    def pred_postprocess(self, predictions):
        if self.pred_postprocessor is None:
            return predictions
        kwargs = copy.deepcopy(self.pred_postprocessor)
        proc = kwargs.pop("type")
        return [proc(p, **kwargs) for p in predictions]

    def evaluate(self, k, n, original_dataset, **score_kwargs):
        if "predictions" in score_kwargs and score_kwargs.get("references") is not None:
            if len(score_kwargs["predictions"]) != len(score_kwargs["references"]):
                raise ValueError("Predictions and references must have the same length")
        score_kwargs["predictions"] = self.pred_postprocess(score_kwargs["predictions"])
        results = self.score(**score_kwargs)
        details = results.pop("details", None)
        if details is None:
            return results
        # one replica (n=1): numbers averaged over the replicas, the rest kept as lists; details added (the real one
        # also regroups them per example)
        eval_results = {key: np.mean([v]) if isinstance(v, (int, float)) else [v] for key, v in results.items()}
        eval_results["details"] = list(details)
        return eval_results


@pytest.fixture
def under_stand_in(monkeypatch):
    """Our module re-imported while ``opencompass.openicl.icl_evaluator`` is the stand-in; restored after."""
    names = ["opencompass", "opencompass.openicl", "opencompass.openicl.icl_evaluator"]
    for name in names:
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    sys.modules["opencompass.openicl.icl_evaluator"].BaseEvaluator = StandInBaseEvaluator
    try:
        yield importlib.reload(OC)
    finally:
        monkeypatch.undo()
        importlib.reload(OC)


def _openicl_eval_task(eval_cfg, predictions, test_set, output_column):
    """The steps of opencompass/tasks/openicl_eval.py ``_score`` that reach an evaluator."""
    cfg = dict(eval_cfg["evaluator"])
    evaluator = cfg.pop("type")(**cfg)  # ICL_EVALUATORS.build with a class as type
    preds = {"predictions": predictions, "references": [row[output_column] for row in test_set] if output_column
             else None, "test_set": test_set, "origin_prompt": [None] * len(predictions)}
    preds = {k: preds[k] for k in signature(evaluator.score).parameters}
    return evaluator.evaluate(1, 1, copy.deepcopy(test_set), **preds)


def test_through_the_opencompass_evaluation_path(under_stand_in):
    module = under_stand_in
    assert module.OPENCOMPASS_BASE is StandInBaseEvaluator
    assert issubclass(module.ZhevalRougeEvaluator, StandInBaseEvaluator)
    test_set = [{"question": f"q{i}", "answer": r} for i, r in enumerate(REFS)]
    eval_cfg = dict(evaluator=dict(type=module.ZhevalRougeEvaluator, tokenizer="jieba"),
                    pred_role="BOT")
    results = _openicl_eval_task(eval_cfg, PREDS, test_set, "answer")
    ours = zheval.compute_rouge(PREDS, REFS, tokenizer="jieba")
    assert results["rouge1"] == 100 * ours["rouge1"] and len(results["details"]) == len(PREDS)
    assert results["signature"] == [ours["signature"]]
    # OpenCompass's pred_postprocessor runs before score (here: keep the text before the first comma)
    eval_cfg["evaluator"]["pred_postprocessor"] = dict(type=lambda s: s.split("，")[0])
    results = _openicl_eval_task(eval_cfg, ["北京今天天气晴朗，明天下雨"] + PREDS[1:], test_set, "answer")
    assert results["rouge1"] == 100 * ours["rouge1"]
    bleu = _openicl_eval_task(dict(evaluator=dict(type=module.ZhevalBleuEvaluator)), PREDS, test_set, "answer")
    assert bleu["bleu"] == 100 * zheval.compute_bleu(PREDS, REFS)["bleu"]
    with pytest.raises(ValueError, match="references is None"):
        _openicl_eval_task(dict(evaluator=dict(type=module.ZhevalBleuEvaluator)), PREDS, test_set, None)


def test_without_opencompass_the_evaluators_are_plain_classes():
    assert OC.OPENCOMPASS_BASE is object
    ev = OC.ZhevalRougeEvaluator(pred_postprocessor=None)
    assert ev.pred_postprocessor is None
    assert list(signature(ev.score).parameters) == ["predictions", "references"]
