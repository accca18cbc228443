"""The built-in preset objects say what they do: each attribute a door reads (``number_scale``, ``explainable``,
``doors``, ``defaults``) agrees with what the preset's computation actually does."""

from __future__ import annotations

import pytest

import zheval
from zheval.presets import bleu_preset, get_preset, preset_names, rouge_preset

P = ["北京今天天气很好。", "会议推迟到下周三"]
R = [["北京今天天气晴朗。", "今天天气不错"], ["会议改到下周三"]]


@pytest.mark.parametrize("name", preset_names("rouge"))
def test_rouge_preset_attributes_match_its_numbers(name):
    part = rouge_preset(name)
    res = zheval.compute_rouge(P, R, preset=name)
    types = list(part.defaults.get("rouge_types", ()))
    assert [k for k in res][:len(types)] == types  # the preset's own types by default
    own = {k: v for k, v in res.items() if k not in types and k != "signature"}
    numbers = [k for k, v in own.items() if isinstance(v, float)]
    assert bool(numbers) == (part.number_scale is not None), own  # a scale exactly when it adds numbers
    assert f"preset:{name}|" in res["signature"]
    assert ("|beta:" in res["signature"]) == (not part.fixed_beta)
    if part.explainable:
        e = zheval.explain(P[0], R[0], metrics=["rouge"], preset=name)
        assert e["rouge"][types[0]]["formula"] == name
        assert e["rouge"][types[0]]["score"]["fmeasure"] == zheval.compute_rouge(
            P[:1], R[:1], preset=name, use_aggregator=False)[types[0]][0]
    else:
        with pytest.raises(ValueError, match=f"explain does not cover preset '{name}'"):
            zheval.explain(P[0], R[0], preset=name)


@pytest.mark.parametrize("name", preset_names("bleu"))
def test_bleu_preset_attributes_match_its_numbers(name):
    part = bleu_preset(name)
    res = zheval.compute_bleu(P, R, preset=name)
    assert res["level"] == part.defaults["level"] and f"preset:{name}|" in res["signature"]
    own = [k for k in res if k.startswith(name.split("-")[0] + "_")]
    assert bool(own) == (part.number_scale is not None), own
    # changing the recipe (another order) drops the tool's own number: it would not be the tool's
    assert not [k for k in zheval.compute_bleu(P, R, preset=name, max_order=2) if k in own]


def test_every_preset_is_reachable_and_its_parts_are_named_after_it():
    for name in preset_names():
        preset = get_preset(name)
        assert preset.metrics and all(preset.part(m).name == name for m in preset.metrics)
        # the 小黄鸭 report says why for every built-in it does not take; one it takes for some metrics is refused
        # for the others by a message naming them (tests/adapters/cli/test_cli_preset_refusals.py)
        takes = [m for m in preset.metrics if "report" in preset.part(m).doors]
        assert preset.report_refusal or takes
    assert preset_names(door="report") == ("sacrebleu-zh",)
    assert preset_names("rouge", door="space") == ("rouge155", "llamafactory")
    assert preset_names("bleu", door="space") == ("sacrebleu-zh", "llamafactory")
