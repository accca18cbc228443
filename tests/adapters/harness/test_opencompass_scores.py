"""zheval's OpenCompass evaluators (zheval/adapters/harness_opencompass.py) as classes: their numbers are zheval's x
100 with per-item ``details``, options pass through, bad input names the item, bad options fail at construction.
These hold whatever the base class is (OpenCompass's ``BaseEvaluator`` when it imports, else ``object``), so the file
runs in the main venv and in OpenCompass's own (``bash .ci/opencompass``). Everything that needs the real OpenCompass
-- its ``BaseEvaluator.evaluate``, ``OpenICLEvalTask``, the ``opencompass`` command, its ``JiebaRougeEvaluator``, the
presets through the evaluators -- is in ``test_opencompass.py``.
"""

from __future__ import annotations

from inspect import signature
from pathlib import Path

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


def test_without_opencompass_the_evaluators_are_plain_classes():
    if OC.OPENCOMPASS_BASE is not object:
        pytest.skip("OpenCompass is installed: the evaluators subclass its BaseEvaluator (test_opencompass.py)")
    ev = OC.ZhevalRougeEvaluator(pred_postprocessor=None)
    assert ev.pred_postprocessor is None
    assert list(signature(ev.score).parameters) == ["predictions", "references"]


@pytest.mark.parametrize("preset", ["opencompass-jieba-rouge", "glm4", "llamafactory"])
def test_a_type_a_rouge_chinese_preset_refuses_names_that_preset(preset):
    """The library's error (it was "valid for preset 'llamafactory'" for every rouge-chinese preset, and came only
    once the texts were scored): at option time, naming the preset given and its own types."""
    with pytest.raises(ValueError, match=rf"preset '{preset}' computes rougeN .* only.*\['rougeLsum'\].*own rouge_types"):
        zheval.compute_rouge(["好"], [["好"]], preset=preset, rouge_types=["rouge1", "rougeLsum"])


def test_preset_number_scale_is_each_tools_own():
    from zheval.adapters.harness_opencompass import _opencompass_scale
    from zheval.presets import bleu_preset, rouge_preset

    P, R = ["北京今天天气很好", "会议推迟到下周"], [["北京今天天气晴朗"], ["会议改到下周"]]
    # LLaMA-Factory reports BLEU-4 x 100, the GLM-4 demo nltk's 0-1 value: the same per-item recipe on different
    # tokenizers, so each key relates to its own tokenizer's zheval BLEU (the mean of per-item scores, 0-1)
    lf = zheval.compute_bleu(P, R, preset="llamafactory")
    glm = zheval.compute_bleu(P, R, preset="glm4")
    assert bleu_preset("llamafactory").number_scale == 100.0 and lf["llamafactory_bleu_4"] == pytest.approx(
        100 * lf["bleu"], abs=1e-4)
    assert bleu_preset("glm4").number_scale == 1.0 and glm["glm4_bleu_4"] == glm["bleu"]
    for preset in ("llamafactory", "opencompass-jieba-rouge", "longbench", "glm4"):
        assert rouge_preset(preset).number_scale == 100.0
    assert bleu_preset("sacrebleu-zh").number_scale is None and rouge_preset("rouge155").number_scale == 1.0
    with pytest.raises(ValueError, match="adds no number of its own"):
        _opencompass_scale("bleu", bleu_preset("sacrebleu-zh"), 0.5)


def test_chrf_evaluator_is_zheval_times_100_and_sacrebleus_number():
    from sacrebleu.metrics import CHRF

    out = OC.ZhevalChrfEvaluator().score(PREDS, REFS)
    ours = zheval.compute_chrf(PREDS, REFS)
    assert out["chrf"] == 100 * ours["chrf"] and out["signature"] == ours["signature"]
    # pure Han text without punctuation: the normalised text is the text; sacrebleu with ragged streams
    refs = [[r] if isinstance(r, str) else r for r in REFS]
    streams = [[rs[k] if k < len(rs) else None for rs in refs] for k in range(max(map(len, refs)))]
    assert abs(out["chrf"] - CHRF().corpus_score(PREDS, streams).score) < 1e-9
    assert out["statistics"]["name"] == "chrF2" and len(out["statistics"]["precisions"]) == 6
    assert not any(isinstance(v, (int, float)) for k, v in out.items() if k not in ("chrf",))  # one top-level number
    pp = OC.ZhevalChrfEvaluator(tokenizer="jieba", word_order=2, level="sentence", bootstrap=50, seed=1)
    res = pp.score(PREDS, REFS)
    want = zheval.compute_chrf(PREDS, REFS, tokenizer="jieba", word_order=2, level="sentence", bootstrap=50, seed=1)
    assert res["chrf"] == 100 * want["chrf"] and res["statistics"]["name"] == "chrF2++"
    assert [d["chrf"] for d in res["details"]] == [100 * s for s in want["scores"]]
    assert res["chrf_ci_low"] == 100 * want["chrf_ci_low"]


def test_chrf_evaluator_bad_options_and_input():
    with pytest.raises(ValueError, match="word_order"):
        OC.ZhevalChrfEvaluator(word_order=-1)
    with pytest.raises(TypeError):
        OC.ZhevalChrfEvaluator(whitespace=True)
    with pytest.raises(zheval.EmptyReferenceError, match=r"references\[1\]\[0\]"):
        OC.ZhevalChrfEvaluator().score(["好", "好"], ["好", "\u200b"])
    with pytest.raises(ValueError, match="references is None"):
        OC.ZhevalChrfEvaluator().score(["好"], None)


@pytest.mark.parametrize("cls, own, others", [
    (OC.ZhevalBleuEvaluator, "max_order", ("rouge_types", "use_aggregator", "word_order", "beta", "details")),
    (OC.ZhevalChrfEvaluator, "word_order", ("rouge_types", "use_aggregator", "max_order", "details")),
    (OC.ZhevalRougeEvaluator, "rouge_types", ("max_order", "word_order", "smooth_method")),
])
def test_unknown_option_lists_only_the_evaluators_own_options(cls, own, others):
    """Issue 35: ``ZhevalBleuEvaluator(details=False)`` listed every metric's options as valid, each then refused as
    another metric's."""
    with pytest.raises(TypeError) as err:
        cls(no_such_option=1)
    listed = str(err.value).split("valid options:")[1]
    assert own in listed and "pred_postprocessor" in listed
    assert not [o for o in others if o in listed.replace("bleu=", "").split(", ")]


def test_score_applies_no_pred_postprocessor_as_opencompass_documented():
    """OpenCompass 0.5.4's ``BaseEvaluator.evaluate`` applies ``pred_postprocessor`` before ``score``; ``score`` itself
    does not (its own evaluators neither): ours behaves the same, and docs/harnesses.md says so."""
    plain = OC.ZhevalRougeEvaluator().score(PREDS, REFS)
    stored = OC.ZhevalRougeEvaluator(pred_postprocessor=dict(type="general")).score(PREDS, REFS)
    assert stored["rouge1"] == plain["rouge1"]
    docs = (Path(__file__).resolve().parents[3] / "docs" / "harnesses.md").read_text(encoding="utf-8")
    assert "**not by `score`**" in docs


@pytest.mark.parametrize("cls", [OC.ZhevalRougeEvaluator, OC.ZhevalBleuEvaluator, OC.ZhevalChrfEvaluator])
def test_every_option_listed_as_valid_is_accepted(cls):
    """The unknown-option error of ``ZhevalRougeEvaluator`` listed ``use_aggregator``, which it refuses ("cannot be
    set"): each option it lists, given its default value (of the options class), now constructs."""
    from dataclasses import fields

    with pytest.raises(TypeError) as err:
        cls(no_such_option=1)
    listed = [o.strip() for o in str(err.value).split("valid options:")[1].split(",") if "=" not in o]
    metric = cls._SCORED.metric if hasattr(cls, "_SCORED") else "rouge"
    defaults = {f.name: getattr(OC.OPTIONS_CLASSES[metric](), f.name) for f in fields(OC.OPTIONS_CLASSES[metric])}
    defaults.update(pred_postprocessor=None, details=True)
    assert set(listed) <= set(defaults), listed
    for name in listed:
        cls(**{name: defaults[name]})  # accepted: no TypeError/ValueError


def test_a_0_1_preset_number_moves_its_decimal_point_without_float_noise():
    # break-it 22: ROUGE-1.5.5 prints 0.30769; OpenCompass's scale showed 30.769000000000002 (0.30769 * 100)
    from zheval.adapters.harness_opencompass import _opencompass_scale
    from zheval.presets import bleu_preset, rouge_preset

    assert 0.30769 * 100 == 30.769000000000002  # the float product the old rule gave
    assert _opencompass_scale("rouge", rouge_preset("rouge155"), 0.30769) == 30.769
    assert _opencompass_scale("rouge", rouge_preset("rouge155"), 0.0) == 0.0
    assert _opencompass_scale("bleu", bleu_preset("glm4"), 0.57) == 57.0
    # 0-100 numbers stay the tool's own, bit for bit
    assert _opencompass_scale("rouge", rouge_preset("longbench"), 30.769000000000002) == 30.769000000000002
