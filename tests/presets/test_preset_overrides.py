"""An option that departs from a preset's recipe (break-it 5, F2): one rule for every preset, metric and door.

The scores are then zheval's under those options, so the preset's own numbers (``longbench_rouge_l``,
``llamafactory_rouge_1``, ``opencompass_rouge1``, ``glm4_rouge_1``, ``llamafactory_bleu_4`` ...) are left out --
before, ``preset="longbench", tokenizer="char"`` printed ``longbench_rouge_l = 52.7`` where LongBench's number is
49.02 --, a `zheval.PresetOverrideWarning` names the departing options, and the signature's ``preset`` reads
``name(overridden:option+...)``. Options the tool itself offers (ROUGE-1.5.5's ``-f B`` / ``-p`` / ``-w``,
sacrebleu's smoothing methods and levels) keep the tool's own numbers but are marked and warned too (issue 35:
the signature equals what ran; tests/presets/test_preset_signature_truth.py). Checked at the library, the command
line and the OpenCompass evaluators.
"""

from __future__ import annotations

import warnings

import pytest

import zheval
from helpers.cli import run_cli
from zheval.adapters import harness_opencompass as OC

P = ["今天天气好", "会议推迟到下周举行"]
R = [["今天天气很好"], ["会议改到下周举行"]]

#: ROUGE presets on a tool tokenizer, and the keys of their own numbers.
TOOL_ROUGE = {
    "llamafactory": "llamafactory_rouge_1",
    "opencompass-jieba-rouge": "opencompass_rouge1",
    "longbench": "longbench_rouge_l",
    "glm4": "glm4_rouge_1",
}


def _quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("error", zheval.PresetOverrideWarning)  # the recipe: no warning
        return fn(*a, **k)


@pytest.mark.parametrize("preset, key", TOOL_ROUGE.items())
def test_a_rouge_preset_with_another_tokenizer_drops_its_own_numbers(preset, key):
    own = _quiet(zheval.compute_rouge, P, R, preset=preset)
    assert key in own and f"|preset:{preset}|" in own["signature"]
    with pytest.warns(zheval.PresetOverrideWarning, match=rf"preset '{preset}': tokenizer \(the preset's: "):
        out = zheval.compute_rouge(P, R, preset=preset, tokenizer="char")
    assert not [k for k in out if k.startswith(key.split("_")[0] + "_")], out
    assert f"|preset:{preset}(overridden:tokenizer)|" in out["signature"]


def test_the_overridden_scores_are_the_preset_formula_on_the_new_tokens():
    # llamafactory (rouge-chinese rules) on characters, item 0: distinct unigrams 今天气好 (4) against 今天气很好 (5),
    # 4 shared: P = 1, R = 4/5, F = 2PR / (P + R + 1e-8) -- zheval's score, with no llamafactory_rouge_1 beside it
    with pytest.warns(zheval.PresetOverrideWarning):
        out = zheval.compute_rouge(P[:1], R[:1], preset="llamafactory", tokenizer="char", rouge_types=["rouge1"])
    assert out["rouge1"] == pytest.approx(2 * 1 * 0.8 / (1 + 0.8 + 1e-8), abs=1e-15)
    assert set(out) == {"rouge1", "signature"}


def test_a_subset_of_the_preset_types_keeps_the_numbers_and_another_type_departs():
    with pytest.warns(zheval.PresetOverrideWarning, match="rouge_types"):
        out = zheval.compute_rouge(P, R, preset="llamafactory", rouge_types=["rougeL"])
    assert "llamafactory_rouge_l" in out and "preset:llamafactory(overridden:rouge_types)" in out["signature"]
    with pytest.warns(zheval.PresetOverrideWarning, match="rouge_types"):
        out = zheval.compute_rouge(P, R, preset="llamafactory", rouge_types=["rouge3"])
    assert "llamafactory_rouge_3" not in out  # LLaMA-Factory reports rouge-1, rouge-2 and rouge-l only
    assert "preset:llamafactory(overridden:rouge_types)" in out["signature"]


def test_rouge155_marks_its_own_options_and_a_rule_that_is_not_the_scripts():
    for opts, marked in (({"multi_ref": "best_recall"}, "multi_ref"), ({"beta": 2.0}, "beta"),
                         ({"rouge_types": ["rougeW"], "rouge_w_weight": 1.5}, "rouge_types+rouge_w_weight"),
                         ({"rouge_types": ["rougeS*"]}, "rouge_types")):
        with pytest.warns(zheval.PresetOverrideWarning, match="each a choice the tool itself offers"):
            out = zheval.compute_rouge(P, R, preset="rouge155", **opts)  # -f B, -p, -w, -2 -1
        assert f"|preset:rouge155(overridden:{marked})|" in out["signature"], opts
    with pytest.warns(zheval.PresetOverrideWarning, match="multi_ref"):
        out = zheval.compute_rouge(P, R, preset="rouge155", multi_ref="max")
    assert "|preset:rouge155(overridden:multi_ref)|" in out["signature"]


def test_bleu_presets_follow_the_same_rule():
    own = _quiet(zheval.compute_bleu, P, R, preset="llamafactory")
    assert "llamafactory_bleu_4" in own
    with pytest.warns(zheval.PresetOverrideWarning, match="tokenizer"):
        out = zheval.compute_bleu(P, R, preset="llamafactory", tokenizer="char")
    assert "llamafactory_bleu_4" not in out and "preset:llamafactory(overridden:tokenizer)" in out["signature"]
    with pytest.warns(zheval.PresetOverrideWarning, match="max_order"):
        out = zheval.compute_bleu(P, R, preset="glm4", max_order=2)
    assert "glm4_bleu_4" not in out and "preset:glm4(overridden:max_order)" in out["signature"]
    # sacrebleu-zh: the tokenizer is the recipe; sacrebleu's own smoothing methods, orders and levels are marked too
    for tok in ("char", "jieba"):
        with pytest.warns(zheval.PresetOverrideWarning, match="tokenizer"):
            out = zheval.compute_bleu(P, R, preset="sacrebleu-zh", tokenizer=tok)
        assert "|preset:sacrebleu-zh(overridden:tokenizer)|" in out["signature"]
    for opts in ({"smooth_method": "floor"}, {"level": "sentence"}, {"max_order": 2}, {"effective_order": True}):
        with pytest.warns(zheval.PresetOverrideWarning, match="each a choice the tool itself offers"):
            out = zheval.compute_bleu(P, R, preset="sacrebleu-zh", **opts)
        assert f"|preset:sacrebleu-zh(overridden:{next(iter(opts))})|" in out["signature"], opts
    for opts, name in (({"smooth_method": "nltk3"}, "smooth_method"), ({"bp_ref_length": "shortest"}, "bp_ref_length")):
        with pytest.warns(zheval.PresetOverrideWarning, match=name):
            out = zheval.compute_bleu(P, R, preset="sacrebleu-zh", **opts)
        assert f"|preset:sacrebleu-zh(overridden:{name})|" in out["signature"]


def _files(tmp_path):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("".join(r[0] + "\n" for r in R), encoding="utf-8")
    hyp.write_text("".join(p + "\n" for p in P), encoding="utf-8")
    return ref, hyp


@pytest.mark.parametrize("metric, preset, override", [
    ("rouge", "llamafactory", ("-t", "char")), ("rouge", "opencompass-jieba-rouge", ("-t", "char")),
    ("rouge", "longbench", ("-t", "char")), ("rouge", "glm4", ("-t", "jieba")),
    # --beta is ROUGE-1.5.5's own -p (its numbers stay); --multi-ref max is not the script's and needs two REF files
    ("rouge", "rouge155", ("--multi-ref", "max")),
    ("bleu", "llamafactory", ("-t", "char")), ("bleu", "glm4", ("-t", "char")),
    ("bleu", "sacrebleu-zh", ("-t", "char")), ("bleu", "sacrebleu-zh", ("-t", "jieba")),
])
def test_the_text_file_commands_say_so_and_print_no_preset_number(tmp_path, metric, preset, override):
    ref, hyp = _files(tmp_path)
    plain = run_cli(metric, ref, "-i", hyp, "--preset", preset)
    assert plain.exit_code == 0 and "PresetOverrideWarning" not in plain.stderr
    assert f"|preset:{preset}|" in plain.stdout
    refs = (ref,)
    if override[0] == "--multi-ref":
        (tmp_path / "ref2.txt").write_text(hyp.read_text(encoding="utf-8"), encoding="utf-8")
        refs = (ref, tmp_path / "ref2.txt")
    res = run_cli(metric, *refs, "-i", hyp, "--preset", preset, *override)
    assert res.exit_code == 0, res.output
    assert "the preset's own numbers" not in res.stdout
    assert f"|preset:{preset}(overridden:" in res.stdout
    assert res.stderr.count(f"zheval: warning: preset '{preset}'") == 1 and "PresetOverrideWarning" not in res.stderr


def test_the_opencompass_evaluators_drop_the_preset_numbers_too():
    own = OC.ZhevalRougeEvaluator(preset="opencompass-jieba-rouge").score(P, R)
    assert "opencompass_rouge1" in own
    with pytest.warns(zheval.PresetOverrideWarning, match="tokenizer"):
        ev = OC.ZhevalRougeEvaluator(preset="opencompass-jieba-rouge", tokenizer="char")
    out = ev.score(P, R)
    assert not [k for k in out if k.startswith("opencompass_")], out
    assert "preset:opencompass-jieba-rouge(overridden:tokenizer)" in out["signature"]
    with pytest.warns(zheval.PresetOverrideWarning, match="tokenizer"):
        ev = OC.ZhevalBleuEvaluator(preset="llamafactory", tokenizer="char")
    out = ev.score(P, R)
    assert "llamafactory_bleu_4" not in out and "preset:llamafactory(overridden:tokenizer)" in out["signature"]


def test_a_preset_without_numbers_of_its_own_does_not_say_they_stay():
    """Break-it (words13 F7): the warning said "(its own numbers stay)" for sacrebleu-zh, which reports no number of
    its own (its scores are zheval's columns); it says so only of a preset that has some -- rouge155 does since
    break-it pass 21 (``rouge155_<type>``, the script's bootstrap average), and ``-f B`` is the script's own."""
    with pytest.warns(zheval.PresetOverrideWarning) as record:
        out = zheval.compute_bleu(P, R, preset="sacrebleu-zh", max_order=3)
    text = " ".join(str(w.message) for w in record)
    assert "each a choice the tool itself offers, so the scores are still the tool's but not the preset's" in text
    assert "own numbers" not in text
    assert not [k for k in out if k.startswith("sacrebleu_")]  # indeed none of its own
    with pytest.warns(zheval.PresetOverrideWarning) as record:
        out = zheval.compute_rouge(P, R, preset="rouge155", multi_ref="best_recall")
    text = " ".join(str(w.message) for w in record)
    assert "so the scores are still the tool's (its own numbers stay) but not the preset's" in text
    assert "rouge155_rouge1" in out
