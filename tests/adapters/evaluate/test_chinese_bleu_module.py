"""metrics/chinese_bleu as an evaluate module, and zheval.compute.bleu.compute_bleu behind it.

evaluate caches point to a temporary directory (tests/conftest.py); modules are loaded by absolute path, offline.
"""

import doctest
import importlib.metadata as md
import math
import os

import evaluate
import numpy as np
import pytest
import sacrebleu

from zheval.adapters.evaluate_cards import card
from zheval.compute.bleu import BleuItems, BleuOptions, bleu_config, bleu_items, bleu_result, compute_bleu
from zheval.compute.inputs import validate_inputs
from helpers import crosswoz_items
from helpers import csl_items as shared_csl_items
from helpers import REPO

BLEU_DIR = REPO / "metrics" / "chinese_bleu"
ROUGE_DIR = REPO / "metrics" / "chinese_rouge"
HUB_BLEU_KEYS = {"bleu", "precisions", "brevity_penalty", "length_ratio", "translation_length", "reference_length"}


@pytest.fixture(scope="module")
def chinese_bleu():
    return evaluate.load(str(BLEU_DIR))


def csl_items(rows):
    """The shared CSL items with each reference as a plain string (the module's string-reference feature set)."""
    preds, refs = shared_csl_items(rows)
    return preds, [r[0] for r in refs]


# ------------------------------------------------------------------------------------------------------------------
# the module
# ------------------------------------------------------------------------------------------------------------------


def test_module_name_and_hub_keys(chinese_bleu):
    assert chinese_bleu.name == "chinese_bleu"
    out = chinese_bleu.compute(predictions=["我爱北京天安门"], references=[["我爱北京的天安门"]])
    assert HUB_BLEU_KEYS <= set(out)
    assert {"counts", "totals", "signature", "level"} <= set(out)
    assert out["level"] == "corpus" and "level:corpus" in out["signature"]
    # by hand (tests/definitions/test_bleu_definition.py): exp(-1/7) * (1 * 5/6 * 3/5 * 1/4) ** (1/4)
    assert out["bleu"] == pytest.approx(math.exp(-1 / 7) * 2 ** -0.75, rel=1e-13)
    assert isinstance(out["bleu"], float) and isinstance(out["translation_length"], int)


def _run_doctest(text, name):
    original = evaluate.load

    def load(path, *args, **kwargs):
        target = {"chinese_bleu": BLEU_DIR, "chinese_rouge": ROUGE_DIR}.get(path, path)
        return original(str(target), *args, **kwargs)

    evaluate.load = load
    cwd = os.getcwd()
    os.chdir(BLEU_DIR.parents[1])  # the examples load "./metrics/chinese_bleu" from the repository root
    try:
        test = doctest.DocTestParser().get_doctest(text, {"evaluate": evaluate}, name, name, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        runner.run(test)
        result = runner.summarize(verbose=False)
    finally:
        evaluate.load = original
        os.chdir(cwd)
    return result


def test_kwargs_description_examples_run():
    # the inputs description of the module's card (its _info() and class docstring)
    result = _run_doctest(card("bleu").inputs_description, "bleu.inputs.txt")
    assert result.attempted >= 8 and result.failed == 0


def test_metric_card_examples_run():
    text = (BLEU_DIR / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n") and "\ntitle: Chinese BLEU\n" in text and "\ndescription: >-\n" in text
    result = _run_doctest(text, "README.md")
    assert result.attempted >= 10 and result.failed == 0


def test_list_and_string_reference_features_agree(chinese_bleu):
    preds = ["不客气，祝您玩得愉快！", "地址在北京市东城区。"]
    refs = ["不用客气，祝您愉快！", "地址是北京市东城区东直门。"]
    a = chinese_bleu.compute(predictions=preds, references=refs)
    b = chinese_bleu.compute(predictions=preds, references=[[r] for r in refs])
    assert a == b


def test_add_batch_equals_one_compute(chinese_bleu, crosswoz_groups):
    preds, refs = crosswoz_items(crosswoz_groups)
    whole = chinese_bleu.compute(predictions=preds, references=refs)
    for start in range(0, len(preds), 100):
        chinese_bleu.add_batch(predictions=preds[start:start + 100], references=refs[start:start + 100])
    assert chinese_bleu.compute() == whole


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(predictions=["好", "好"], references=["好"]), ValueError, "2 predictions and 1 references"),
        (
            dict(predictions=["好", "好", "你"], references=[["好", "好", "你"], ["好", "好", "你"]]),
            ValueError,
            "looks transposed",
        ),
        (dict(predictions=["好", "好"], references=[["好"], []]), ValueError, r"references\[1\] is an empty list"),
        (dict(predictions=["好", "好"], references=[["好"], ["好", ""]]), ValueError, r"references\[1\]\[1\] is empty"),
        (dict(predictions=["好", "好"], references=[["好"], ["好", "   "]]), ValueError, r"references\[1\]\[1\] is empty"),
        (dict(predictions=["好", None], references=["好", "好"]), TypeError, r"predictions\[1\] must be str, got None"),
        (dict(predictions=["好", 3], references=["好", "好"]), TypeError, r"predictions\[1\] must be str, got int"),
        (dict(predictions=["好"], references=[["好", None]]), TypeError, r"references\[0\]\[1\] must be str"),
        (dict(predictions=["好"], references=["好"], smooth_method="x"), ValueError, "none, floor, add-k, exp, nltk3"),
        (dict(predictions=["好"], references=["好"], bp_ref_length="x"), ValueError, "closest, shortest, none"),
        (dict(predictions=["好"], references=["好"], level="x"), ValueError, "corpus, sentence"),
        (dict(predictions=["好"], references=["好"], preset="x"), ValueError, "sacrebleu-zh, llamafactory"),
        (dict(predictions=["好"], references=["好"], smoth_method="exp"), TypeError, "unknown option"),
        (dict(predictions=["好"], references=["好"], smooth_method="exp", smooth_value=1), ValueError, "smooth_value"),
        (dict(predictions=["好"], references=["好"], bootstrap=-1), ValueError, "bootstrap"),
        (dict(predictions=["好"], references=["好"], crosscheck=True, bp_ref_length="none"), ValueError, "closest"),
        (dict(predictions=["好"], references=["好"], preset="sacrebleu-zh", terms=["好"]), ValueError, "no options"),
    ],
)
def test_bad_input(chinese_bleu, kwargs, error, message):
    with pytest.raises(error, match=message):
        chinese_bleu.compute(**kwargs)
    # nothing half-stored: the next call works and sees only its own data
    assert chinese_bleu.compute(predictions=["你好"], references=["你好"], level="sentence")["scores"] == [1.0]


def test_rouge_only_options_are_ignored(chinese_bleu):
    base = chinese_bleu.compute(predictions=["你好吗朋友"], references=["你好朋友"])
    with_rouge = chinese_bleu.compute(
        predictions=["你好吗朋友"], references=["你好朋友"], rouge_types=["rouge1"], use_aggregator=True,
        multi_ref="max", beta=1.0, return_precision_recall=True, rouge_w_weight=1.2, sentence_split="punct",
    )
    assert base == with_rouge


# ------------------------------------------------------------------------------------------------------------------
# cross-checks through the module on real data
# ------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["crosswoz_groups", "csl_ts_test"])
@pytest.mark.parametrize("level", ["corpus", "sentence"])
def test_crosscheck_is_exact_on_real_data(chinese_bleu, crosswoz_groups, csl_rows, name, level):
    preds, refs = crosswoz_items(crosswoz_groups) if name == "crosswoz_groups" else csl_items(csl_rows)
    out = chinese_bleu.compute(predictions=preds, references=refs, level=level, crosscheck=True)
    cc = out["crosscheck"]
    # the installed sacrebleu (2.6.0 in the main job, 2.4.0 in the lowest-versions job), a version tested equal
    assert cc["items"] == len(preds) and cc["tool"].startswith(f"sacrebleu {md.version('sacrebleu')} ")
    assert cc["tool_tested"] is True
    if level == "corpus":
        assert cc["max_abs_diff"] == 0.0
    else:
        assert cc["max_abs_diff"] <= 1e-15  # 0 except perfect matches where sacrebleu reports 100.00000000000004
    assert out["signature"].split("|")[0] == ("nrefs:var" if name == "crosswoz_groups" else "nrefs:1")


@pytest.mark.parametrize("name", ["crosswoz_groups", "csl_ts_test"])
def test_sacrebleu_zh_preset_is_exact_and_overridable(chinese_bleu, crosswoz_groups, csl_rows, name):
    preds, refs = crosswoz_items(crosswoz_groups) if name == "crosswoz_groups" else csl_items(csl_rows)
    refs = [[r] if isinstance(r, str) else r for r in refs]
    width = max(len(r) for r in refs)
    streams = [[r[k] if k < len(r) else None for r in refs] for k in range(width)]
    xc = name == "crosswoz_groups"  # the cross-check itself runs sacrebleu zh again: once is enough
    out = chinese_bleu.compute(predictions=preds, references=refs, preset="sacrebleu-zh", crosscheck=xc)
    theirs = sacrebleu.corpus_bleu(preds, streams, tokenize="zh")
    assert out["bleu"] == theirs.score / 100
    assert "preset:sacrebleu-zh" in out["signature"] and "tok:sacrebleu-zh" in out["signature"]
    if not xc:
        return
    assert out["crosscheck"]["sacrebleu_zh_abs_diff"] == 0.0 and out["crosscheck"]["max_abs_diff"] == 0.0
    # sentence level: sacrebleu's sentence_bleu (effective order on), per item, on raw text
    out = chinese_bleu.compute(predictions=preds, references=refs, preset="sacrebleu-zh", level="sentence",
                               crosscheck=True)
    assert "level:sentence" in out["signature"] and "eff:yes" in out["signature"]
    assert out["crosscheck"]["sacrebleu_zh_abs_diff"] <= 1e-15 and out["crosscheck"]["max_abs_diff"] <= 1e-15
    expected = [min(sacrebleu.sentence_bleu(p, r, tokenize="zh").score / 100, 1.0) for p, r in zip(preds, refs)]
    assert out["scores"] == expected
    # explicit arguments override the preset
    out = chinese_bleu.compute(predictions=preds, references=refs, preset="sacrebleu-zh", smooth_method="none")
    assert out["bleu"] == sacrebleu.corpus_bleu(preds, streams, tokenize="zh", smooth_method="none").score / 100
    assert "smooth:none" in out["signature"] and "preset:sacrebleu-zh" in out["signature"]


def test_llamafactory_preset_matches_nltk(chinese_bleu, crosswoz_single):
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    preds = [r["query"] for r in crosswoz_single[:400]]
    refs = [r["responses"][0] for r in crosswoz_single[:400]]
    out = chinese_bleu.compute(predictions=preds, references=refs, preset="llamafactory", crosscheck=True)
    items = [sentence_bleu([list(r)], list(p), smoothing_function=SmoothingFunction().method3) for p, r in zip(preds, refs)]
    assert out["scores"] == items
    assert out["llamafactory_bleu_4"] == float(np.mean([round(s * 100, 4) for s in items]))
    assert out["crosscheck"]["max_abs_diff"] == 0.0
    assert out["level"] == "sentence" and "preset:llamafactory" in out["signature"] and "smooth:nltk3" in out["signature"]


# ------------------------------------------------------------------------------------------------------------------
# levels, bootstrap, shards, presets vs defaults
# ------------------------------------------------------------------------------------------------------------------


def test_levels_are_never_confused():
    corpus = compute_bleu(["你好"], ["你好"])
    sentence = compute_bleu(["你好"], ["你好"], level="sentence")
    assert corpus["bleu"] == 0.0 and "level:corpus" in corpus["signature"] and "eff:no" in corpus["signature"]
    assert sentence["bleu"] == 1.0 and "level:sentence" in sentence["signature"] and "eff:yes" in sentence["signature"]
    assert "scores" not in corpus and sentence["scores"] == [1.0]


def test_empty_predictions_score_zero_without_error():
    out = compute_bleu(["", ""], ["你好", "谢谢你"], bootstrap=50)
    assert out["bleu"] == 0.0 and out["translation_length"] == 0
    assert out["bleu_ci_low"] == out["bleu_ci_high"] == 0.0
    out = compute_bleu(["", ""], ["你好", "谢谢你"], level="sentence")
    assert out["scores"] == [0.0, 0.0]
    with pytest.raises(ValueError, match="no items to score"):
        compute_bleu([], [])


def test_bootstrap_is_seeded_and_brackets_the_score(crosswoz_groups):
    preds, refs = crosswoz_items(crosswoz_groups)
    a = compute_bleu(preds, refs, bootstrap=200, seed=7)
    b = compute_bleu(preds, refs, bootstrap=200, seed=7)
    c = compute_bleu(preds, refs, bootstrap=200, seed=8)
    assert (a["bleu_ci_low"], a["bleu_ci_high"]) == (b["bleu_ci_low"], b["bleu_ci_high"])
    assert (a["bleu_ci_low"], a["bleu_ci_high"]) != (c["bleu_ci_low"], c["bleu_ci_high"])
    assert a["bleu_ci_low"] < a["bleu"] < a["bleu_ci_high"]
    assert "bs:200|seed:7" in a["signature"]
    s = compute_bleu(preds, refs, level="sentence", bootstrap=200, seed=7)
    assert s["bleu_ci_low"] < s["bleu"] < s["bleu_ci_high"]


def test_shards_merge_to_the_whole(csl_rows):
    preds, refs = csl_items(csl_rows)
    whole = compute_bleu(preds, refs)
    config = bleu_config(BleuOptions())
    shards = [bleu_items(*validate_inputs(preds[i:i + 250], refs[i:i + 250]), config) for i in range(0, len(preds), 250)]
    merged = bleu_result(BleuItems.concat(shards), config)
    assert merged == whole  # signature included
    assert merged["bleu"] == whole["bleu"]
    assert {k: merged[k] for k in HUB_BLEU_KEYS} == {k: whole[k] for k in HUB_BLEU_KEYS}


def test_bp_none_and_shortest_are_flagged():
    out = compute_bleu(["好的"], [["好的，谢谢", "好"]], bp_ref_length="none", max_order=2)
    assert out["brevity_penalty"] == 1.0 and "bp:none" in out["signature"] and "order:2" in out["signature"]
    # closest to 2 characters among 5 ("好的,谢谢" after normalisation) and 1: |2-1| < |2-5| -> 1, no penalty
    assert compute_bleu(["好的"], [["好的，谢谢", "好"]], max_order=2)["brevity_penalty"] == 1.0
    out = compute_bleu(["好的好的好"], [["好的好的好的", "好的"]], bp_ref_length="shortest")
    assert out["reference_length"] == 2 and "bp:shortest" in out["signature"]


def test_jieba_and_terms_options_reach_the_tokenizer():
    a = compute_bleu(["请打开小黄鸭APP"], ["打开小黄鸭APP"], tokenizer="char", terms=["小黄鸭"])
    assert "tok:zh-char+terms." in a["signature"]
    # 请 打 开 小黄鸭 app (5 tokens) vs 打 开 小黄鸭 app (4)
    assert a["translation_length"] == 5 and a["reference_length"] == 4
    b = compute_bleu(["我爱北京天安门"], ["我爱北京天安门"], tokenizer="jieba")
    assert "tok:jieba-0.42.1" in b["signature"] and b["bleu"] == pytest.approx(1.0, abs=1e-15)


# ------------------------------------------------------------------------------------------------------------------
# evaluate.combine with chinese_rouge
# ------------------------------------------------------------------------------------------------------------------


@pytest.mark.skipif(not (ROUGE_DIR / "chinese_rouge.py").exists(), reason="metrics/chinese_rouge not present")
def test_combine_with_chinese_rouge_takes_one_set_of_kwargs(chinese_bleu, crosswoz_groups):
    preds, refs = crosswoz_items(crosswoz_groups)
    preds, refs = preds[:120], refs[:120]
    chinese_rouge = evaluate.load(str(ROUGE_DIR))
    combined = evaluate.combine([chinese_bleu, chinese_rouge])
    kwargs = dict(tokenizer="char", normalize=True, punct="keep", crosscheck=True, bootstrap=0,
                  rouge_types=["rouge1", "rougeL"], smooth_method="exp", max_order=4)
    out = combined.compute(predictions=preds, references=refs, **kwargs)
    alone = chinese_bleu.compute(predictions=preds, references=refs, tokenizer="char", crosscheck=True)
    assert out["bleu"] == alone["bleu"]
    assert 0 < out["rouge1"] <= 1 and 0 < out["rougeL"] <= 1
    assert out["chinese_bleu_signature"].startswith("nrefs:var|tok:zh-char|")
    assert "metric:rouge" in out["chinese_rouge_signature"]
    # one preset name for both tools' LLaMA-Factory numbers
    lf = combined.compute(predictions=preds[:40], references=[r[0] for r in refs[:40]], preset="llamafactory")
    assert "llamafactory_bleu_4" in lf and "llamafactory_rouge_1" in lf
