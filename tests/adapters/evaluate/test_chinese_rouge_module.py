"""metrics/chinese_rouge: evaluate.load by absolute path (temp caches from conftest), doctests of the script and the
card, feature sets, outputs, presets, cross-check on real data, bad input."""

from __future__ import annotations

import doctest
import re
from collections import Counter

import pytest

import evaluate

from zheval.adapters.evaluate_cards import card
from zheval.compute.rouge import compute_rouge
from helpers import METRICS

MODULE_DIR = METRICS / "chinese_rouge"


@pytest.fixture(scope="module")
def chinese_rouge():
    return evaluate.load(str(MODULE_DIR))


def _patched_load(monkeypatch):
    real = evaluate.load
    monkeypatch.setattr(evaluate, "load", lambda name, *a, **k: real(str(MODULE_DIR), *a, **k))


def test_loads_by_absolute_path(chinese_rouge):
    assert chinese_rouge.name == "chinese_rouge"
    assert len(chinese_rouge.features) == 2 if isinstance(chinese_rouge.features, list) else True


def test_script_doctests(monkeypatch):
    _patched_load(monkeypatch)
    # the inputs description of the module's card (its _info() and class docstring)
    text = card("rouge").inputs_description
    test = doctest.DocTestParser().get_doctest(text, {"evaluate": evaluate}, "kwargs", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 6


def test_card_examples_run_as_doctests(monkeypatch):
    _patched_load(monkeypatch)
    text = (MODULE_DIR / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n") and "\ntags:\n" in text.split("---")[1]
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "README", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 8


def test_two_feature_sets_and_outputs(chinese_rouge):
    a = chinese_rouge.compute(predictions=["猫坐在垫子上"], references=["猫趴在垫子上面"])
    b = chinese_rouge.compute(predictions=["猫坐在垫子上"], references=[["猫趴在垫子上面"]])
    assert a == b
    assert set(a) == {"rouge1", "rouge2", "rougeL", "rougeLsum", "signature"}
    assert all(isinstance(a[k], float) for k in ("rouge1", "rouge2", "rougeL", "rougeLsum"))
    c = chinese_rouge.compute(
        predictions=["猫坐在垫子上", "你好"],
        references=["猫趴在垫子上面", "你好"],
        use_aggregator=False,
        return_precision_recall=True,
    )
    assert c["rouge1"] == pytest.approx([10 / 13, 1.0], abs=1e-15)
    assert c["rouge1_precision"] == [5 / 6, 1.0] and c["rouge1_recall"] == [5 / 7, 1.0]
    assert c["rouge2"][0] == pytest.approx(6 / 11, abs=1e-15)


def test_add_batch_then_compute(chinese_rouge):
    chinese_rouge.add_batch(predictions=["猫坐在垫子上"], references=[["猫趴在垫子上面", "猫在垫子上"]])
    chinese_rouge.add_batch(predictions=["你好"], references=[["你好呀"]])
    out = chinese_rouge.compute(rouge_types=["rouge1"], multi_ref="mean")
    direct = compute_rouge(["猫坐在垫子上", "你好"], [["猫趴在垫子上面", "猫在垫子上"], ["你好呀"]],
                           rouge_types=["rouge1"], multi_ref="mean")
    assert out == direct
    assert "multi:mean" in out["signature"] and "nrefs:var" in out["signature"]


def test_bootstrap_is_separate_and_seeded(chinese_rouge):
    preds = ["猫坐在垫子上", "你好", "北京欢迎你", "今天天气很好"]
    refs = ["猫趴在垫子上面", "你好呀", "欢迎来北京", "今天天气不错"]
    a = chinese_rouge.compute(predictions=preds, references=refs, bootstrap=200, seed=7, rouge_types=["rouge1"])
    b = chinese_rouge.compute(predictions=preds, references=refs, bootstrap=200, seed=7, rouge_types=["rouge1"])
    plain = chinese_rouge.compute(predictions=preds, references=refs, rouge_types=["rouge1"])
    assert a == b
    assert a["rouge1"] == plain["rouge1"]
    assert a["rouge1_ci_low"] <= a["rouge1"] <= a["rouge1_ci_high"]
    assert "bs:200|seed:7" in a["signature"]


def test_presets_and_overrides(chinese_rouge):
    out = chinese_rouge.compute(predictions=["猫坐在垫子上"], references=["猫趴在垫子上面"], preset="rouge155")
    assert "preset:rouge155" in out["signature"] and "multi:pool" in out["signature"]
    types = {"rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeW", "rougeS4", "rougeSU4"}
    # and ROUGE-1.5.5's own printed Average_F (its bootstrap average) with its 95% interval, per type
    assert set(out) - {"signature"} == types | {f"rouge155_{t}{s}" for t in types for s in ("", "_ci_low", "_ci_high")}
    # explicit arguments override the preset: pre-tokenised text by ROUGE-1.5.5's rules
    out = chinese_rouge.compute(
        predictions=["我 爱 北京"], references=["我 爱 上海"], preset="rouge155", tokenizer="none", rouge_types=["rouge1"]
    )
    assert out["rouge1"] == 0.66667 and "tok:none" in out["signature"]
    lf = chinese_rouge.compute(
        predictions=["我爱北京天安门。\n天安门上太阳升"], references=["我爱北京。天安门上太阳升起"], preset="llamafactory",
        crosscheck=True,
    )
    assert set(lf) >= {"rouge1", "rouge2", "rougeL", "llamafactory_rouge_1", "llamafactory_rouge_2",
                       "llamafactory_rouge_l"}
    assert lf["llamafactory_rouge_1"] == round(lf["rouge1"] * 100, 4)
    assert lf["crosscheck"]["tool"] == "rouge-chinese 1.0.3" and lf["crosscheck"]["max_abs_diff"] == 0.0
    assert "preset:llamafactory" in lf["signature"] and "+hmm+ws" in lf["signature"]


def test_crosscheck_on_real_data(chinese_rouge, csl_rows, crosswoz_single, crosswoz_groups):
    types = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
    # (all rows are compared with rouge-score in tests/oracles/test_rouge_score_agreement.py; here the module's own crosscheck path)
    preds = [r["document"][: len(r["summary"])] for r in csl_rows[:300]] + [r["query"] for r in crosswoz_single[:300]]
    refs = [r["summary"] for r in csl_rows[:300]] + [r["responses"] for r in crosswoz_single[:300]]
    out = chinese_rouge.compute(predictions=preds, references=refs, rouge_types=types, crosscheck=True)
    cc = out["crosscheck"]
    assert cc["items"] == 600 and cc["max_abs_diff"] <= 1e-12
    for t in types:
        assert abs(cc["scores"][t] - out[t]) <= 1e-12
    out = chinese_rouge.compute(
        predictions=[g["query"] for g in crosswoz_groups], references=[g["responses"] for g in crosswoz_groups],
        rouge_types=types, crosscheck=True, sentence_split="newline",
    )
    assert out["crosscheck"]["items"] == 85 and out["crosscheck"]["max_abs_diff"] <= 1e-12


def test_jieba_and_terms_options(chinese_rouge):
    out = chinese_rouge.compute(predictions=["小黄鸭快递柜"], references=["小黄鸭的快递柜"], tokenizer="jieba",
                                terms=["小黄鸭", "快递柜"], rouge_types=["rouge1"], return_precision_recall=True)
    assert out["rouge1_precision"] == 1.0 and out["rouge1_recall"] == 2 / 3
    assert "tok:jieba-0.42.1" in out["signature"] and "+terms." in out["signature"]


def test_empty_prediction_scores_zero(chinese_rouge):
    out = chinese_rouge.compute(predictions=["", "。。。"], references=["你好", "你好"], rouge_types=["rouge1", "rougeLsum"],
                                use_aggregator=False)
    assert out["rouge1"] == [0.0, 0.0] and out["rougeLsum"] == [0.0, 0.0]


@pytest.mark.parametrize(
    "kwargs, exc, pattern",
    [
        (dict(predictions=["a", "b"], references=["a"]), ValueError, "same length"),
        (dict(predictions=["a"], references=[[]]), ValueError, r"references\[0\]"),
        (dict(predictions=["a", "b"], references=["a", "   "]), ValueError, r"references\[1\]\[0\]"),
        (dict(predictions=["a", "b"], references=[["a"], ["b", "\u200b"]]), ValueError, r"references\[1\]\[1\]"),
        (dict(predictions=["a", None], references=["a", "b"]), TypeError, r"predictions\[1\]"),
        (dict(predictions=["a", 3], references=["a", "b"]), TypeError, r"predictions\[1\]"),
        (dict(predictions=["a"], references=[["a", None]]), TypeError, r"references\[0\]\[1\]"),
        (dict(predictions=["a"], references=["a"], rouge_types=["rougeX"]), ValueError, "Valid forms"),
        (dict(predictions=["a"], references=["a"], multi_ref="median"), ValueError, "max, mean, pool, best_recall"),
        (dict(predictions=["a"], references=["a"], preset="rouge156"), ValueError, "rouge155, llamafactory"),
        (dict(predictions=["a"], references=["a"], sentence_split="nltk"), ValueError, "punct, newline"),
        (dict(predictions=["a"], references=["a"], frobnicate=1), TypeError, "unknown option"),
    ],
)
def test_bad_input(kwargs, exc, pattern):
    # the same checks run before evaluate stores anything (module) and in the library function
    with pytest.raises(exc, match=pattern):
        compute_rouge(**kwargs)


def test_bad_input_through_the_module(chinese_rouge):
    with pytest.raises(TypeError, match=r"predictions\[1\]"):
        chinese_rouge.compute(predictions=["a", None], references=["a", "b"])
    with pytest.raises(ValueError, match=r"references\[1\]\[0\]"):
        chinese_rouge.compute(predictions=["a", "b"], references=["a", "   "])
    with pytest.raises(ValueError, match="Valid forms"):
        chinese_rouge.compute(predictions=["a"], references=["a"], rouge_types=["rougeX"])
    with pytest.raises(TypeError, match="unknown option"):
        chinese_rouge.compute(predictions=["a"], references=["a"], frobnicate=1)
    # the module stays usable after errors
    assert chinese_rouge.compute(predictions=["你好"], references=["你好"])["rouge1"] == 1.0


def test_bleu_only_options_are_ignored_for_combine(chinese_rouge):
    out = chinese_rouge.compute(predictions=["你好"], references=["你好"], max_order=4, smooth_method="exp")
    assert out["rouge1"] == 1.0


def _su4_units(tokens, d=4):
    """Unigrams plus skip-bigrams (t_i, t_j), i < j <= i + d + 1 (Lin 2004, section 4; ROUGE-1.5.5 -2 4 -U)."""
    c = Counter(tokens)
    for i in range(len(tokens)):
        for j in range(i + 1, min(len(tokens), i + d + 2)):
            c[(tokens[i], tokens[j])] += 1
    return c


def test_docstring_rouge_su4_value_by_hand():
    # The script's example mixes a list and a string reference. By hand, with character tokens:
    # item 1: prediction 11 tokens -> 11 unigrams + (6*5 + 4+3+2+1) = 51 units.
    #   ref "不客气！" 4 tokens -> 4 + 6 = 10 units; hits: 4 unigrams + (不,客) (不,气) (客,气) = 7 -> F = 14/61.
    #   ref "不用客气，祝您愉快！" 10 tokens -> 10 + (5*5 + 4+3+2+1) = 45 units; F = 2*hits/96.
    # item 2: prediction 10 tokens -> 45 units; reference 13 tokens -> 13 + (8*5 + 10) = 63 units.
    p1, a, b = list("不客气，祝您玩得愉快！"), list("不客气！"), list("不用客气，祝您愉快！")
    p2, r2 = list("地址在北京市东城区。"), list("地址是北京市东城区东直门。")
    units = {k: sum(_su4_units(t).values()) for k, t in (("p1", p1), ("a", a), ("b", b), ("p2", p2), ("r2", r2))}
    assert units == {"p1": 51, "a": 10, "b": 45, "p2": 45, "r2": 63}
    hits_a = sum((_su4_units(p1) & _su4_units(a)).values())
    hits_b = sum((_su4_units(p1) & _su4_units(b)).values())
    hits_2 = sum((_su4_units(p2) & _su4_units(r2)).values())
    assert (hits_a, hits_b, hits_2) == (7, 32, 35)
    expected = (max(14 / 61, 64 / 96) + 70 / 108) / 2  # = (2/3 + 35/54) / 2 = 71/108
    assert expected == pytest.approx(71 / 108)
    out = evaluate.load(str(MODULE_DIR)).compute(
        predictions=["不客气，祝您玩得愉快！", "地址在北京市东城区。"],
        references=[["不客气！", "不用客气，祝您愉快！"], "地址是北京市东城区东直门。"],
        rouge_types=["rougeSU4"],
    )
    assert out["rougeSU4"] == pytest.approx(71 / 108, abs=1e-12)
    assert round(71 / 108, 4) == 0.6574
    text = card("rouge").inputs_description
    assert "(0.6574, 0.0)" in text and "0.3551" not in text


def test_rouge_types_as_a_comma_list(chinese_rouge):
    # before: the string was one unknown type ("Unknown ROUGE type 'rouge1,,rougeL'")
    with pytest.raises(ValueError) as err:
        chinese_rouge.compute(predictions=["猫坐在垫子上"], references=[["猫趴在垫子上面"]], rouge_types="rouge1,,rougeL")
    assert "rouge_types 'rouge1,,rougeL' has an empty entry (entry 2)" in str(err.value)
    joined = chinese_rouge.compute(predictions=["猫坐在垫子上"], references=[["猫趴在垫子上面"]],
                                   rouge_types="rouge1,rougeL")
    listed = chinese_rouge.compute(predictions=["猫坐在垫子上"], references=[["猫趴在垫子上面"]],
                                   rouge_types=["rouge1", "rougeL"])
    assert joined == listed
