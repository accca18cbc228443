"""The leaderboard presets against the real code on the shared real data: ``opencompass-jieba-rouge`` vs OpenCompass
``JiebaRougeEvaluator`` (rouge-chinese 1.0.3), ``glm4`` vs the GLM-4 demo's ``compute_metrics`` (rouge-chinese,
nltk), ``longbench`` vs LongBench's ``rouge_zh_score`` + ``scorer`` (pltrdy ``rouge`` 1.0.1, run in a subprocess as
LongBench runs it). The real code is copied verbatim in ``tests/oracles/harness_rouge.py`` and
``tests/oracles/longbench_eval.py`` (source URLs and commits there). Every comparison is ``==`` on floats.

pltrdy ``rouge`` 1.0.1 and rouge-chinese 1.0.3 both install a top-level ``rouge`` module, so pltrdy's lives in its
own directory, never on this process's path, and the LongBench oracle runs in a subprocess
(:mod:`oracles.longbench_runner`).
"""

from __future__ import annotations

import logging

import pytest

import zheval
from oracles.harness_rouge import JiebaRougeEvaluator, general_postprocess, glm4_compute_metrics
from oracles.longbench_runner import run_longbench
from zheval.presets.longbench import (
    LONGBENCH_RECURSION_BUDGET,
    longbench_score,
    make_longbench_item_scorer,
    pltrdy_rouge_l,
    pltrdy_sentences,
)
from zheval.presets.opencompass import opencompass_average
from zheval.tokenizers import get_tokenizer
from zheval.tokenizers.harness_jieba import opencompass_general_postprocess

logging.getLogger("jieba").setLevel(logging.ERROR)

# texts where each tool's rules bite: empty and whitespace-only, ASCII . , and newlines (OpenCompass cuts there,
# pltrdy splits on "."), a/an/the, full-width punctuation only, placeholders, repeated words (sets)
EDGE_PAIRS = [
    ("", "你好"), ("。", "好的。"), (",好的", "好的"), ("\n你好", "你好"), ("好的\n谢谢", "好的"),
    ("3.5分", "3.5分"), ("the 北京 a an", "北京"), ("The cat, a dog.", "the cat"), ("好好好好", "好"),
    ("  你好  ", "你好"), ("...", "好的"), ("好的. 谢谢. ", "好的. 谢谢"), ("a. b. c", "c. b. a"),
    ("__REFRPLACEHOLDER__", "。"), ("你好。\n再见", "再见。\n你好"), ("中the文", "中the文"), ("北京　欢迎你", "北京欢迎你"),
]


def opencompass_pairs(csl_rows, crosswoz_single, crosswoz_groups):
    pairs = [(r["query"], r["responses"][0]) for r in crosswoz_single]
    pairs += [(r["document"], r["summary"]) for r in csl_rows]
    pairs += [(r["summary"], r["document"]) for r in csl_rows]
    pairs += [(r["query"], resp) for r in crosswoz_groups for resp in r["responses"]]
    return pairs + EDGE_PAIRS


# ---------------------------------------------------------------------------------------------------------------
# opencompass-jieba-rouge


def test_general_postprocess_equals_opencompass(csl_rows, crosswoz_single, crosswoz_groups):
    texts = [t for p in opencompass_pairs(csl_rows, crosswoz_single, crosswoz_groups) for t in p]
    diffs = [t for t in texts if opencompass_general_postprocess(t) != general_postprocess(t)]
    assert len(texts) == 2 * (2000 + 2000 + sum(len(r["responses"]) for r in crosswoz_groups) + len(EDGE_PAIRS))
    assert diffs == []
    # by hand: cut at the first ASCII . , or newline; punctuation deleted; articles deleted on word boundaries
    assert opencompass_general_postprocess("3.5分") == "3"
    assert opencompass_general_postprocess("你好，世界！") == "你好世界"
    assert opencompass_general_postprocess("The cat, a dog.") == "cat"
    assert opencompass_general_postprocess("中the文 the 书") == "中the文 书"


def test_opencompass_preset_equals_jieba_rouge_evaluator(csl_rows, crosswoz_single, crosswoz_groups):
    pairs = opencompass_pairs(csl_rows, crosswoz_single, crosswoz_groups)
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    evaluator = JiebaRougeEvaluator()
    theirs = evaluator.score(preds, refs)
    got = ours = zheval.compute_rouge(preds, refs, preset="opencompass-jieba-rouge", use_aggregator=False)
    # the corpus numbers, bit for bit
    for key in ("rouge1", "rouge2", "rougeL"):
        assert got[f"opencompass_{key}"] == theirs[key]
        assert opencompass_average(ours[key]) == theirs[key]
    # per item: the evaluator on one item is F * 100
    item_diffs = 0
    for i, (p, r) in enumerate(pairs):
        one = evaluator.score([p], [r])
        item_diffs += sum(one[k] != opencompass_average([ours[k][i]]) for k in ("rouge1", "rouge2", "rougeL"))
    assert len(pairs) == 4000 + sum(len(r["responses"]) for r in crosswoz_groups) + len(EDGE_PAIRS)
    assert item_diffs == 0
    # the silent zeros are counted: texts that post-process to "" (CSL abstracts use ASCII "," and ".")
    assert got["opencompass_placeholder_predictions"] == sum(general_postprocess(p) == "" for p in preds)
    assert got["opencompass_placeholder_references"] == sum(general_postprocess(r) == "" for r in refs)
    assert got["opencompass_placeholder_predictions"] >= 5
    assert "preset:opencompass-jieba-rouge" in got["signature"] and "+ocpost" in got["signature"]


def test_opencompass_placeholder_rules_by_hand():
    # an empty side scores 0 against the other's placeholder word; even a prediction that spells the reference
    # placeholder does not match it (jieba cuts it into "__", "REFRPLACEHOLDER", "__"), in OpenCompass and here
    out = zheval.compute_rouge(["。", "__REFRPLACEHOLDER__", "好的"], ["好的", "。", "好的"],
                               preset="opencompass-jieba-rouge", use_aggregator=False)
    assert out["rouge1"] == [0.0, 0.0, 2 * (1 / (2 + 1e-8))]
    assert JiebaRougeEvaluator().score(["__REFRPLACEHOLDER__"], ["。"])["rouge1"] == 0.0
    with pytest.raises(ValueError, match=r"references\[0\]\[0\]"):
        zheval.compute_rouge(["好的"], ["  "], preset="opencompass-jieba-rouge")  # blank as given: zheval's rule
    with pytest.raises(ValueError, match="crosscheck is not available"):
        zheval.compute_rouge(["好的"], ["好的"], preset="opencompass-jieba-rouge", crosscheck=True)


# ---------------------------------------------------------------------------------------------------------------
# glm4


def glm4_pairs(csl_rows, crosswoz_single, crosswoz_groups):
    pairs = opencompass_pairs(csl_rows, crosswoz_single, crosswoz_groups)
    return [(p, r) for p, r in pairs if p.strip() and r.strip()]  # the demo raises on an empty side


def test_glm4_preset_equals_finetune_demo(csl_rows, crosswoz_single, crosswoz_groups):
    pairs = glm4_pairs(csl_rows, crosswoz_single, crosswoz_groups)
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    means, lists = glm4_compute_metrics(preds, refs)
    rouge = items = zheval.compute_rouge(preds, refs, preset="glm4", use_aggregator=False)
    bleu = zheval.compute_bleu(preds, refs, preset="glm4")
    diffs = 0
    for theirs, ours in (("rouge-1", "rouge1"), ("rouge-2", "rouge2"), ("rouge-l", "rougeL")):
        diffs += sum(a != round(b * 100, 4) for a, b in zip(lists[theirs], items[ours]))
        assert rouge["glm4_rouge_" + theirs[-1]] == float(means[theirs])
    diffs += sum(a != b for a, b in zip(lists["bleu-4"], bleu["scores"]))
    assert len(pairs) == len(opencompass_pairs(csl_rows, crosswoz_single, crosswoz_groups)) - 1  # ("", "你好")
    assert diffs == 0
    assert bleu["glm4_bleu_4"] == float(means["bleu-4"])  # 0-1, unrounded
    assert 0 < bleu["glm4_bleu_4"] < 1
    assert "preset:glm4" in rouge["signature"] and "preset:glm4" in bleu["signature"]
    assert "+strip" in bleu["signature"]


def test_glm4_empty_prediction_is_an_error():
    for fn in (zheval.compute_rouge, zheval.compute_bleu):
        with pytest.raises(ValueError, match=r"predictions\[1\], predictions\[2\]"):
            fn(["好的", "  ", "\n"], ["好的", "好的", "你好"], preset="glm4")
    # the demo itself raises there
    with pytest.raises(ValueError, match="Hypothesis is empty"):
        glm4_compute_metrics(["  "], ["好的"])
    # whitespace inside is kept as jieba tokens (BLEU counts them), at both ends it is stripped
    assert get_tokenizer("glm4-jieba").tokenize(" 你好 世界\n") == ["你好", " ", "世界"]


# ---------------------------------------------------------------------------------------------------------------
# longbench


def long_pairs(csl_rows, k=8):
    """Long single-sentence pairs (5 CSL abstracts each, ASCII "." replaced by "。" so pltrdy does not split them,
    500-700 words): their backtracks take 522 to 1550 frames, so some pass LongBench's recursion limit (one at 991,
    just past it)."""
    docs = [r["document"].replace(".", "。") for r in csl_rows]
    pairs = []
    for i in range(k):
        n = 5
        start = 16 * i
        other = start + 1 if i % 3 == 0 else start + n
        pairs.append(("".join(docs[start:start + n]), ["".join(docs[other:other + n])]))
    return pairs


def longbench_items(csl_rows, crosswoz_single, crosswoz_groups):
    items = [(r["query"], [r["responses"][0]]) for r in crosswoz_single]
    items += [(r["document"], [r["summary"]]) for r in csl_rows]
    items += [(r["summary"], [r["document"]]) for r in csl_rows]
    items += [(r["responses"][0], r["responses"][1:]) for r in crosswoz_groups]  # max over answers
    items += [(r["query"], r["responses"]) for r in crosswoz_groups]
    items += [(p, [r, "好的"]) for p, r in EDGE_PAIRS if r.strip()]
    return items + long_pairs(csl_rows)


def test_longbench_preset_equals_rouge_zh_score(tmp_path, csl_rows, crosswoz_single, crosswoz_groups):
    items = longbench_items(csl_rows, crosswoz_single, crosswoz_groups)
    preds, answers = [p for p, _ in items], [a for _, a in items]
    theirs = run_longbench(tmp_path, preds, answers)
    got = zheval.compute_rouge(preds, answers, preset="longbench", use_aggregator=False)
    diffs = sum(a != b for a, b in zip(theirs["items"], got["rougeL"]))
    assert len(items) == 4000 + 2 * len(crosswoz_groups) + len(EDGE_PAIRS) + 8
    assert diffs == 0
    assert got["longbench_rouge_l"] == theirs["score"] == longbench_score(theirs["items"])
    # the long pairs: those past the recursion limit score 0 in LongBench, and above 0 without the cutoff
    scorer = make_longbench_item_scorer()
    tok = get_tokenizer("llamafactory-jieba")
    long_items = [scorer(tok.tokenize(p), [tok.tokenize(a) for a in refs]) for p, refs in items[-8:]]
    cut = [i for i, it in enumerate(long_items) if it.cutoff_references]
    assert 2 <= len(cut) <= 6 and got["longbench_cutoff_references"] == len(cut)
    assert all(theirs["items"][-8 + i] == 0.0 < long_items[i].uncut.fmeasure for i in cut)
    assert got["longbench_rouge_l_uncut"] >= got["longbench_rouge_l"]
    on_long = zheval.compute_rouge(preds[-8:], answers[-8:], preset="longbench")
    assert on_long["longbench_rouge_l"] == longbench_score(theirs["items"][-8:])
    assert on_long["longbench_rouge_l_uncut"] == longbench_score([it.uncut.fmeasure for it in long_items])
    assert on_long["longbench_rouge_l_uncut"] > on_long["longbench_rouge_l"]
    assert got["longbench_failed_references"] >= 3  # "", "...", "." have no pltrdy sentence
    assert "preset:longbench" in got["signature"] and f"recursion:{LONGBENCH_RECURSION_BUDGET}" in got["signature"]


def test_longbench_recursion_cutoff_boundary(tmp_path, csl_rows):
    """The cutoff at exactly LongBench's depth: a prediction of N single-character words that never match the
    one-word reference takes N backtrack steps, N + 1 nested ``_recon`` frames; 990 frames pass, 991 raise
    (CPython 3.11, limit 1000, ``python eval.py``). With the limit raised to 1500 both pass."""
    chars = [c for c in "".join(r["document"] for r in csl_rows) if "\u4e00" <= c <= "\u9fff" and c != "甲"]
    # "甲" first, so that an item that passes scores above 0: N characters then one match, N + 2 frames
    preds = ["甲 " + " ".join(chars[:n]) for n in (987, 988, 989, 990)]
    answers = [["甲"]] * 4
    tok = get_tokenizer("llamafactory-jieba")
    frames = [pltrdy_rouge_l(pltrdy_sentences(" ".join(tok.tokenize(p))), ["甲"]).frames for p in preds]
    assert frames == [989, 990, 991, 992]
    default = run_longbench(tmp_path, preds, answers)
    raised = run_longbench(tmp_path, preds, answers, recursion_limit=1500)
    tokens = [tok.tokenize(p) for p in preds]
    ours_default = [make_longbench_item_scorer()(t, [["甲"]]).score.fmeasure for t in tokens]
    ours_raised = [make_longbench_item_scorer(recursion_budget=1500 - 10)(t, [["甲"]]).score.fmeasure for t in tokens]
    assert default["items"] == ours_default
    assert raised["items"] == ours_raised
    assert [s > 0 for s in default["items"]] == [True, True, False, False]
    assert all(s > 0 for s in raised["items"])


def test_longbench_rules_by_hand():
    scorer = make_longbench_item_scorer()
    # sets: "好 好 好" vs "好": m = n = 1 distinct word, LCS set {好} -> P = R = 1
    assert scorer(["好", "好", "好"], [["好"]]).score.fmeasure == 2 * (1 / (2 + 1e-8))
    # ASCII "." splits sentences; the union of per-sentence LCS word sets: ref "a b" vs hyp "b . a" -> {a, b}
    it = scorer(["b", ".", "a"], [["a", " ", "b"]])
    assert it.score.recall == 1.0 and it.score.precision == 1.0
    # no sentence on the prediction side: 0, counted as failed
    it = scorer(["..."], [["好"]])
    assert it.score.fmeasure == 0.0 and it.failed_references == 1
    assert longbench_score([0.123456, 0.5]) == round(100 * (0. + 0.123456 + 0.5) / 2, 2) == 31.17
    for bad in ({"rouge_types": ["rouge1"]}, {"multi_ref": "mean"}, {"beta": 2.0}, {"crosscheck": True}):
        with pytest.raises(ValueError):
            zheval.compute_rouge(["好"], ["好"], preset="longbench", **bad)
    with pytest.raises(ValueError, match="chinese_rouge preset"):
        zheval.compute_bleu(["好"], ["好"], preset="longbench")


# ---------------------------------------------------------------------------------------------------------------
# every entry point: batches concatenate, the evaluate modules, the registries


@pytest.mark.parametrize("preset", ["opencompass-jieba-rouge", "longbench", "glm4"])
def test_preset_items_of_batches_concatenate_to_the_whole(preset, crosswoz_groups):
    """The Trainer hook and the 小黄鸭 evaluation score batch by batch: the preset's own numbers (and counts) of the
    concatenated items equal those of one call."""
    from zheval.compute.rouge import RougeItems, RougeOptions, rouge_config, rouge_items, rouge_result

    preds = [r["query"] for r in crosswoz_groups] + ["。", "..."]
    refs = [r["responses"] for r in crosswoz_groups] + [["好的"], ["好的"]]
    config = rouge_config(RougeOptions(preset=preset))
    whole = rouge_result(rouge_items(preds, refs, config), config)
    parts = [rouge_items(preds[i:i + 20], refs[i:i + 20], config) for i in range(0, len(preds), 20)]
    assert rouge_result(RougeItems.concat(parts), config) == whole
    assert rouge_result(RougeItems.concat([RougeItems.empty(config), *parts]), config) == whole
    assert rouge_result(RougeItems.concat(parts).select(list(range(len(preds)))), config) == whole


def test_presets_through_the_evaluate_modules():
    import evaluate

    from helpers import METRICS

    rouge = evaluate.load(str(METRICS / "chinese_rouge"))
    bleu = evaluate.load(str(METRICS / "chinese_bleu"))
    preds, refs = ["猫坐在垫子上。", "好的，谢谢"], [["猫趴在垫子上面。"], ["好的。", "谢谢你"]]
    for preset in ("opencompass-jieba-rouge", "longbench", "glm4"):
        assert rouge.compute(predictions=preds, references=refs, preset=preset) == \
            zheval.compute_rouge(preds, refs, preset=preset)
    assert bleu.compute(predictions=preds, references=refs, preset="glm4") == \
        zheval.compute_bleu(preds, refs, preset="glm4")


def test_preset_registries_and_unknown_names():
    from zheval.presets import get_preset, preset_names

    assert {"opencompass-jieba-rouge", "longbench", "glm4"} <= set(preset_names("rouge"))
    assert "glm4" in preset_names("bleu") and get_preset("glm4").metrics == ("rouge", "bleu")
    with pytest.raises(ValueError, match="unknown preset 'opencompass'.*opencompass-jieba-rouge"):
        zheval.compute_rouge(["好"], ["好"], preset="opencompass")
    with pytest.raises(ValueError, match="takes no options"):
        zheval.compute_rouge(["好"], ["好"], preset="glm4", t2s=True)
