"""Options of the library that would change nothing, or be converted silently, are refused (issue 35, break-it
pass 5: F4, F7, F11)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import zheval

PREDS = ["猫坐在垫子上。", "今天天气很好"]
REFS = [["猫在垫子上坐着。"], ["今天天气不错"]]


@pytest.mark.parametrize("weights, where, kind", [
    (["0.25"] * 4, "weights[0]", "str"),
    ([0.5, 0.5, "0", 0], "weights[2]", "str"),
    ([True, False, False, False], "weights[0]", "bool"),
    ([1.0, 0.0, np.bool_(False), 0.0], "weights[2]", "bool"),
    ("1111", "weights", "str"),
])
def test_bleu_weights_refuse_strings_and_bools(weights, where, kind):
    """F11: a str would be converted to a number and a bool would count as 1/0; both refused, naming the entry."""
    with pytest.raises(TypeError, match=re.escape(where) + rf".* {kind}"):
        zheval.compute_bleu(PREDS, REFS, weights=weights)


def _bleu_door(door, weights):
    if door == "module":
        import evaluate
        from helpers import METRICS
        return evaluate.load(str(METRICS / "chinese_bleu")).compute(predictions=PREDS, references=REFS,
                                                                     weights=weights)
    if door == "opencompass":
        from zheval.adapters.harness_opencompass import ZhevalBleuEvaluator
        return ZhevalBleuEvaluator(weights=weights).score(PREDS, [r[0] for r in REFS])
    if door == "score":
        return zheval.score(PREDS, REFS, metrics=["bleu"], weights=weights)
    return zheval.compute_bleu(PREDS, REFS, weights=weights)


@pytest.mark.parametrize("door", ["compute_bleu", "module", "opencompass", "score"])
@pytest.mark.parametrize("weights, why", [
    ({1: 0.25, 2: 0.25, 3: 0.25, 4: 0.25}, r"weights is a dict \(a mapping: iterating it would use its keys, "
                                           r"\[1, 2, 3, 4\]"),
    ({0.25}, r"weights is a set \(unordered"),
    (frozenset({0.5, 0.25}), r"weights is a frozenset \(unordered"),
])
def test_bleu_weights_refuse_mappings_and_sets(door, weights, why):
    """A dict of weights was read as its keys: {1: .25, 2: .25, 3: .25, 4: .25} scored with weights 1, 2, 3, 4
    (renormalised 0.1 .. 0.4, not uniform); a set has no order to pair weights with n-gram orders. Refused at every
    door, as references already are."""
    with pytest.raises(TypeError, match=why):
        _bleu_door(door, weights)


def test_bleu_weights_numbers_still_work():
    """Numbers (numpy ones too) still work: uniform weights 1/4 are the default."""
    base = zheval.compute_bleu(PREDS, REFS)["bleu"]
    assert zheval.compute_bleu(PREDS, REFS, weights=[0.25, 0.25, 0.25, 0.25])["bleu"] == pytest.approx(base)
    assert zheval.compute_bleu(PREDS, REFS, weights=np.full(4, 0.25))["bleu"] == pytest.approx(base)


@pytest.mark.parametrize("options, named", [
    ({"punct": "drop"}, "punct='drop'"),
    ({"tokenizer": "jieba"}, "tokenizer='jieba'"),
    ({"terms": ["猫坐"]}, "terms"),
    ({"tokenizer": "jieba", "jieba_hmm": True}, "tokenizer='jieba', jieba_hmm"),
    ({"tokenizer": list}, r"tokenizer=list \(a user tokenizer\)"),
    ({"tokenizer": lambda s: None}, r"tokenizer=<lambda> \(a user tokenizer\)"),
])
def test_chrf_word_options_without_word_order_are_refused(options, named):
    """F4: with word_order=0 chrF counts the characters of the normalised text; punct, terms and the jieba options
    act on chrF++'s words only. '猫，坐' against '猫。坐': the same score with punct='drop' as without, while the
    signature said tok:zh-char+nopunct."""
    with pytest.raises(ValueError, match=rf"chrF option\(s\) {named} act only on chrF\+\+'s word n-grams"):
        zheval.compute_chrf(["猫，坐"], [["猫。坐"]], **options)
    with pytest.raises(ValueError, match="act only on chrF"):
        zheval.ChrfOptions(**options)
    with pytest.raises(ValueError, match="act only on chrF"):
        zheval.score(["猫，坐"], [["猫。坐"]], metrics=["chrf"], **options)


def test_chrf_word_options_act_with_word_order():
    """With word n-grams they act: '猫，坐' / '猫。坐' have the words 猫 ， 坐 / 猫 。 坐 (char tokens); dropping
    punctuation makes the word unigrams 猫 坐 on both sides: word unigram precision and recall 2/2 instead of 2/3."""
    kept = zheval.compute_chrf(["猫，坐"], [["猫。坐"]], word_order=1)
    dropped = zheval.compute_chrf(["猫，坐"], [["猫。坐"]], word_order=1, punct="drop")
    assert kept["precisions"][-1] == pytest.approx(2 / 3) and dropped["precisions"][-1] == pytest.approx(1.0)
    assert "tok:zh-char+nopunct" in dropped["signature"]


def test_score_gives_shared_word_options_to_the_metrics_they_act_on():
    """At a door feeding several metrics, tokenizer='jieba' and punct='drop' act on BLEU; chrF (word_order 0) scores
    the same characters, and its signature says tok:zh-char, not jieba."""
    p, r = ["今天天气很好，我们去公园。"], [["今天天气不错，我们去公园吧。"]]
    out = zheval.score(p, r, metrics=["bleu", "chrf"], tokenizer="jieba", punct="drop")
    assert "tok:jieba" in out["bleu"]["signature"] and "+nopunct" in out["bleu"]["signature"]
    assert "|tok:zh-char|" in out["chrf"]["signature"]
    assert out["chrf"]["chrf"] == zheval.compute_chrf(p, r)["chrf"]


def test_a_user_tokenizer_acts_on_chrf_words_only():
    """A user tokenizer at word_order=0 was accepted, never called (``lambda s: None`` gave a score), and the
    signature said tok:custom. chrF++ still calls it (its tokens are the words); beside ROUGE at score(), it acts on
    ROUGE and chrF's signature says tok:zh-char, with the default chrF's score."""
    p, r = ["今天天气很好"], [["今天天气不错"]]
    words = zheval.compute_chrf(p, r, word_order=2, tokenizer=lambda s: s.split())
    assert "tok:custom:" in words["signature"]
    with pytest.raises(TypeError, match="returned NoneType"):
        zheval.compute_chrf(p, r, word_order=2, tokenizer=lambda s: None)
    out = zheval.score(p, r, metrics=["rouge", "chrf"], tokenizer=list)
    assert "tok:custom:list" in out["rouge"]["signature"] and "|tok:zh-char|" in out["chrf"]["signature"]
    assert out["chrf"]["chrf"] == zheval.compute_chrf(p, r)["chrf"]


@pytest.mark.parametrize("door", ["compute_bleu", "compute_rouge", "compute_chrf", "score"])
@pytest.mark.parametrize("option", [{"seed": 5}, {"confidence": 0.9}, {"bootstrap_method": "poisson"}])
def test_interval_options_without_bootstrap_are_refused(door, option):
    """F7: seed, confidence and bootstrap_method with bootstrap=0 changed nothing and were accepted."""
    name = next(iter(option))
    with pytest.raises(ValueError, match=rf"{door}: {name} sets the bootstrap interval, and bootstrap is 0"):
        getattr(zheval, door)(PREDS, REFS, **option)
    with pytest.raises(ValueError, match="bootstrap is 0"):
        getattr(zheval, door)(PREDS, REFS, bootstrap=0, **option)


def test_interval_options_with_bootstrap_and_defaults_still_work():
    """With bootstrap they act; left at their defaults (or not given) nothing is refused."""
    p, r = PREDS * 3, REFS * 3
    a = zheval.compute_bleu(p, r, bootstrap=20, seed=5, confidence=0.9)
    assert "bs:20" in a["signature"] and "seed:5" in a["signature"]
    assert zheval.compute_rouge(p, r, use_aggregator=False)["rouge1"] == zheval.compute_rouge(
        p, r, use_aggregator=False, seed=12345)["rouge1"]
    zheval.score(p, r, metrics=["bleu", "chrf"], bootstrap=10, bootstrap_method="poisson")


@pytest.mark.parametrize("door", ["compute_rouge", "score"])
@pytest.mark.parametrize("split", ["newline", "punct"])
def test_sentence_split_without_rougelsum_is_refused(door, split):
    """F7: sentence_split splits rougeLsum's sentences only; without rougeLsum it would change nothing."""
    extra = {"metrics": ["rouge"]} if door == "score" else {}
    with pytest.raises(ValueError, match=rf"{door}: sentence_split='{split}' splits the sentences of rougeLsum.*"
                                         r"\['rouge1', 'rougeL'\]"):
        getattr(zheval, door)(PREDS, REFS, rouge_types=["rouge1", "rougeL"], sentence_split=split, **extra)
    out = getattr(zheval, door)(PREDS, REFS, rouge_types=["rougeLsum"], sentence_split=split, **extra)
    assert "rougeLsum" in (out["rouge"] if door == "score" else out)


_T2S = ("t2s=False contradicts normalize=\"nfkc+t2s\", whose 't2s' step converts Traditional to Simplified; leave "
        "out t2s=False, or the 't2s' step")
_PUNCT = ("punct=\"keep\" contradicts normalize=\"nfkc+nopunct\", whose 'nopunct' step drops punctuation; leave out "
          "punct=\"keep\", or the 'nopunct' step")


@pytest.mark.parametrize("options, message", [
    ({"normalize": "nfkc+t2s", "t2s": False}, _T2S),
    ({"punct": "keep", "normalize": "nfkc+nopunct"}, _PUNCT),
])
def test_an_explicit_flag_that_a_normalisation_step_contradicts_is_refused(options, message):
    """Break-it pass 12: t2s=False beside normalize="nfkc+t2s" still converted (norm:nfkc+t2s); punct="keep" beside
    "nfkc+nopunct" still dropped the '！'. Refused at every door, naming both options."""
    for door in (zheval.compute_rouge, zheval.compute_bleu, zheval.compute_chrf, zheval.score):
        with pytest.raises(ValueError) as info:
            door(["我們今天很開心！"], [["我们今天很开心"]], **options)
        assert str(info.value) == message


def test_a_normalisation_step_alone_or_with_an_agreeing_flag_is_applied():
    """The step with no flag, or a flag that agrees, still works. By hand: t2s makes the prediction 我们今天很开心！,
    8 characters of which the reference's 7 match: ROUGE-1 P 7/8, R 1, F 14/15; nopunct drops the ！: F 1."""
    p, r = ["我們今天很開心！"], [["我们今天很开心"]]
    for options in ({"normalize": "nfkc+t2s"}, {"normalize": "nfkc+t2s", "t2s": True}, {"normalize": "nfkc", "t2s": True}):
        assert zheval.compute_rouge(p, r, rouge_types=["rouge1"], **options)["rouge1"] == pytest.approx(14 / 15)
    for options in ({"normalize": "nfkc+t2s+nopunct"}, {"normalize": "nfkc+t2s+nopunct", "punct": "drop"}):
        assert zheval.compute_rouge(p, r, rouge_types=["rouge1"], **options)["rouge1"] == pytest.approx(1.0)
