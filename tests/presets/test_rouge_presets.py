"""Presets: ``llamafactory`` against the real rouge-chinese 1.0.3 + jieba pipeline of LLaMA-Factory on real data;
``rouge155`` against hand computations of ROUGE-1.5.5.pl's formulas (each quirk written out) and rouge-score."""

from __future__ import annotations

import logging

import numpy as np
import pytest
from rouge_score import rouge_scorer

from zheval.presets.rouge155 import alpha_from_beta, make_rouge155_item_scorer, rouge155_score_item, rouge155_wlcs_hit
from zheval.presets.llamafactory import (
    llamafactory_item_value,
    llamafactory_mean,
    llamafactory_score_item,
    make_llamafactory_item_scorer,
    rouge_chinese_words,
)
from zheval.tokenizers import get_tokenizer as _get_tokenizer


def llamafactory_tokenizer():
    return _get_tokenizer("llamafactory-jieba")
from zheval.definitions.rouge import score_item
from zheval.text.sentences import split_sentences
from zheval.tokenizers import get_tokenizer

# ---------------------------------------------------------------------------------------------------------------
# llamafactory


def _llamafactory_reference(pairs):
    """LLaMA-Factory ComputeSimilarity's ROUGE part, verbatim in behaviour: global jieba, rouge_chinese.Rouge."""
    import jieba
    from rouge_chinese import Rouge

    jieba.setLogLevel(logging.ERROR)
    out = {"rouge-1": [], "rouge-2": [], "rouge-l": []}
    for pred, label in pairs:
        hypothesis = list(jieba.cut(pred))
        reference = list(jieba.cut(label))
        if len(" ".join(hypothesis).split()) == 0 or len(" ".join(reference).split()) == 0:
            result = {"rouge-1": {"f": 0.0}, "rouge-2": {"f": 0.0}, "rouge-l": {"f": 0.0}}
        else:
            result = Rouge().get_scores(" ".join(hypothesis), " ".join(reference))[0]
        for k, v in result.items():
            out[k].append(round(v["f"] * 100, 4))
    return out


def _ours(pairs):
    tok = llamafactory_tokenizer()
    scorer = make_llamafactory_item_scorer()
    out = {"rouge1": [], "rouge2": [], "rougeL": []}
    for pred, label in pairs:
        s = scorer(tok.tokenize(pred), [tok.tokenize(label)])
        for k in out:
            out[k].append(llamafactory_item_value(s[k].fmeasure))
    return out


def test_llamafactory_equals_rouge_chinese_on_real_data(crosswoz_single, csl_rows):
    pairs = [(r["query"], r["responses"][0]) for r in crosswoz_single]
    pairs += [(r["document"][: len(r["summary"])], r["summary"]) for r in csl_rows]
    # multi-line texts (a line break after a sentence-final mark triggers rouge-chinese's empty-word quirk)
    pairs += [(a + "\n" + b, b + "。\n" + a) for a, b in pairs[:200]]
    pairs += [("", "你好"), ("  ", "你好"), ("你好", "\n")]
    expected = _llamafactory_reference(pairs)
    got = _ours(pairs)
    assert len(pairs) == 3203
    for theirs, ours in (("rouge-1", "rouge1"), ("rouge-2", "rouge2"), ("rouge-l", "rougeL")):
        assert got[ours] == expected[theirs]  # per item, bit for bit
        assert llamafactory_mean(got[ours]) == float(np.mean(expected[theirs]))


def test_llamafactory_quirks_by_hand():
    # "你好。\n再见": jieba [你好, 。, \n, 再见] -> pieces "你好 。", " ", " 再见" -> words 你好 。 "" 再见
    assert rouge_chinese_words(["你好", "。", "\n", "再见"]) == ["你好", "。", "", "再见"]
    assert rouge_chinese_words(["你好", "。", "再见"]) == ["你好", "。", "再见"]
    assert rouge_chinese_words([" ", "\n"]) == []
    # identical texts: F = 2 * (1 * 1 / (1 + 1 + 1e-8)) = 0.999999995 -> x100 rounded to 4 decimals = 100.0
    s = llamafactory_score_item(["猫", "坐"], [["猫", "坐"]])
    assert s["rouge1"].fmeasure == 2 * (1 / (2 + 1e-8)) == 0.999999995
    assert llamafactory_item_value(s["rouge1"].fmeasure) == 100.0
    # sets, not multisets: 好好好好 vs 好 -> unique unigrams {好} both -> P = R = 1
    s = llamafactory_score_item(list("好好好好"), [["好"]])
    assert s["rouge1"].precision == 1.0 and s["rouge1"].recall == 1.0
    # rouge-l is the LCS of the whole word lists, not union-LCS: 3 of 4 hyp words, 3 of 3 ref words
    s = llamafactory_score_item(["a", "。", "b", "c"], [["a", "b", "c"]])
    p, r = 3 / 4, 1.0
    assert s["rougeL"] == (p, r, 2 * (p * r / (p + r + 1e-8)))
    with pytest.raises(ValueError, match="rougeN"):
        make_llamafactory_item_scorer(["rougeLsum"])


def test_llamafactory_tokenizer_is_private_and_keeps_whitespace():
    import jieba

    tok = llamafactory_tokenizer()
    assert tok.tokenize("你好。\n再见") == ["你好", "。", "\n", "再见"]
    assert tok._instance() is not jieba.dt
    assert tok.signature().startswith("jieba-0.42.1+dict.") and tok.signature().endswith("+hmm+ws")
    assert tok.normalizer.steps == ()


# ---------------------------------------------------------------------------------------------------------------
# rouge155: hand computations of ROUGE-1.5.5.pl


def r5(x):
    return float("%.5f" % x)  # sprintf("%7.5f", x)


def test_rouge155_rounds_r_and_p_before_f():
    # hyp 猫坐在垫子上 (6 tokens), ref 猫: rouge1 hit 1 -> R = 1.00000, P = 1/6 -> 0.16667;
    # F = 0.16667 * 1 / (0.5 * 0.16667 + 0.5 * 1) = 0.285722... -> 0.28572 (the exact F 2/7 rounds to 0.28571).
    s = rouge155_score_item([list("猫坐在垫子上")], [[["猫"]]], ["rouge1"])["rouge1"]
    assert s == (0.16667, 1.0, 0.28572)
    assert r5(2 / 7) == 0.28571
    # seed example, all single-reference types by hand
    out = rouge155_score_item([list("猫坐在垫子上")], [[list("猫趴在垫子上面")]], ["rouge1", "rouge2", "rougeL"])
    assert out["rouge1"] == (0.83333, 0.71429, r5(0.83333 * 0.71429 / (0.5 * 0.83333 + 0.5 * 0.71429)))
    assert out["rouge2"] == (0.6, 0.5, r5(0.6 * 0.5 / (0.5 * 0.6 + 0.5 * 0.5)))
    assert out["rougeL"] == out["rouge1"]


def test_rouge155_rouge_w_double_weighting():
    # identical 6-token texts: hit = 6^1.2 (one run); recall denominator (6^1.2)^1.2, precision denominator 6^1.2.
    x = list("猫坐在垫子上")
    s = rouge155_score_item([x], [[x]], ["rougeW"])["rougeW"]
    r = r5((6**1.2 / (6**1.2) ** 1.2) ** (1 / 1.2))  # = 6^-0.2 = 0.69883
    assert r == 0.69883
    assert s == (1.0, r, r5(1.0 * r / (0.5 * 1.0 + 0.5 * r)))
    # Lin's ROUGE-W gives 1 for identical texts
    assert score_item([x], [[x]], ["rougeW"])["rougeW"].fmeasure == pytest.approx(1.0)


def test_rouge155_rouge_w_runs_counted_on_model_positions():
    # model (ref) "a b", peer (hyp) "a x b": the WLCS path marks model positions 0 and 1, which ROUGE-1.5.5 counts
    # as ONE run of length 2 -> hit 2^1.2 (Lin's DP value would be 1 + 1 = 2).
    assert rouge155_wlcs_hit([["a", "b"]], [["a", "x", "b"]], 1.2) == (2**1.2, 2**1.2)
    s = rouge155_score_item([["a", "x", "b"]], [[["a", "b"]]], ["rougeW"])["rougeW"]
    r = r5((2**1.2 / (2**1.2) ** 1.2) ** (1 / 1.2))
    p = r5((2**1.2 / 3**1.2) ** (1 / 1.2))
    assert (r, p) == (0.87055, 0.66667)
    assert s == (p, r, r5(p * r / (0.5 * p + 0.5 * r)))


def test_rouge155_rouge_w_unflushed_run():
    # model units ["y"], ["x","y"]; peer unit ["x","y"]. Unit 1: y hits (peer y count 1 -> 0), flushed: +1.
    # Unit 2: x hits (run 1, next position marked so no flush); y is marked but clipped (peer y exhausted):
    # skipped without flushing, and the loop ends -> the open run is lost. hit = 1, base = 1 + 2^1.2.
    assert rouge155_wlcs_hit([["y"], ["x", "y"]], [["x", "y"]], 1.2) == (1.0, 1 + 2**1.2)


def test_rouge155_su_drops_last_unigram():
    # hyp "b a", ref "a b": ROUGE-1.5.5 units hyp {(b,a), b}, ref {(a,b), a} -> no hit at all.
    assert rouge155_score_item([["b", "a"]], [[["a", "b"]]], ["rougeSU4"])["rougeSU4"] == (0.0, 0.0, 0.0)
    # Lin's SU counts both unigrams: hits 2 of 3 units each side.
    assert score_item([["b", "a"]], [[["a", "b"]]], ["rougeSU4"])["rougeSU4"].fmeasure == pytest.approx(2 / 3)
    # a one-token text has no SU unit at all
    assert rouge155_score_item([["a", "b"]], [[["a"]]], ["rougeSU4"])["rougeSU4"] == (0.0, 0.0, 0.0)
    # S4 is plain Lin: "a b c" vs "a b c": 3 pairs each
    assert rouge155_score_item([list("abc")], [[list("abc")]], ["rougeS4"])["rougeS4"] == (1.0, 1.0, 1.0)


def test_rouge155_pool_and_best():
    hyp = [list("abcd")]
    refs = [[list("ab")], [list("abcdef")]]
    # -f A: R = (2 + 4) / (2 + 6) = 0.75, P = (2 + 4) / (4 + 4) = 0.75
    assert rouge155_score_item(hyp, refs, ["rouge1"])["rouge1"] == (0.75, 0.75, 0.75)
    # -f B: per-model rounded recall 1.00000 vs 0.66667 -> model 1: R 1, P .5
    assert rouge155_score_item(hyp, refs, ["rouge1"], multi_ref="best_recall")["rouge1"] == (0.5, 1.0, r5(0.5 / 0.75))
    # -f B tie (R = 1/2 both): strictly greater needed, the first model wins
    tie = [[["a", "x"]], [list("abyz")]]
    assert rouge155_score_item(hyp, tie, ["rouge1"], multi_ref="best_recall")["rouge1"].precision == 0.25
    assert rouge155_score_item(hyp, tie[::-1], ["rouge1"], multi_ref="best_recall")["rouge1"].precision == 0.5
    # max / mean of per-reference ROUGE-1.5.5 scores
    m = rouge155_score_item(hyp, refs, ["rouge1"], multi_ref="max")["rouge1"]
    assert m == (1.0, 0.66667, r5(1.0 * 0.66667 / (0.5 + 0.5 * 0.66667)))


def test_rouge155_alpha():
    assert alpha_from_beta(1.0) == 0.5
    s = rouge155_score_item([list("abcd")], [[list("ab")]], ["rouge1"], beta=2.0)["rouge1"]
    a = 0.2  # 1 / (1 + 4)
    assert s == (0.5, 1.0, r5(0.5 * 1.0 / ((1 - a) * 0.5 + a * 1.0)))


def test_rouge155_l_and_lsum_are_rouge_scores_hits_rounded(csl_rows):
    # For one reference ROUGE-1.5.5's ROUGE-L hit count is rouge-score's (same LCS path, same clipping):
    # its R and P are rouge-score's recall and precision rounded to 5 decimals.
    tok = get_tokenizer("char")

    class T:
        def tokenize(self, text):
            return tok.tokenize_normalized(text)

    scorer = rouge_scorer.RougeScorer(["rougeL", "rougeLsum"], tokenizer=T())
    r155 = make_rouge155_item_scorer(["rougeL", "rougeLsum"])
    n = 0
    for row in csl_rows[:60]:
        hyp_s = split_sentences(tok.normalize(row["document"][: len(row["document"]) // 2]))
        ref_s = split_sentences(tok.normalize(row["document"]))
        exp = scorer.score("\n".join(ref_s), "\n".join(hyp_s))
        got = r155([T().tokenize(s) for s in hyp_s], [[T().tokenize(s) for s in ref_s]])
        for t in ("rougeL", "rougeLsum"):
            p, r = r5(exp[t].precision), r5(exp[t].recall)
            assert got[t] == (p, r, r5(p * r / (0.5 * p + 0.5 * r)))
            n += 1
    assert n == 120


def test_rouge155_empty_and_errors():
    zero = (0.0, 0.0, 0.0)
    out = rouge155_score_item([[]], [[["a"]]])
    assert all(v == zero for v in out.values())
    out = rouge155_score_item([["a"]], [[[]]])  # ROUGE-1.5.5 itself dies here on -w (division by zero)
    assert all(v == zero for v in out.values())
    with pytest.raises(ValueError, match="multi_ref"):
        make_rouge155_item_scorer(multi_ref="median")
