"""The one definition of the options (zheval.compute.options): every field checks its value when the object is built,
and the doors that feed several metrics split options given by name and typed objects with one rule
(options_for_metrics): unknown and unused options are errors, nothing is dropped silently."""

from __future__ import annotations

import dataclasses

import pytest

import zheval
from zheval.compute.options import (BleuOptions, ChrfOptions, IntervalOptions, RougeOptions, TokenizerOptions,
                                    options_for_metrics)

PREDS = ["今天天气很好", "我们去公园散步吧", "他喜欢读书"]
REFS = [["今天天气不错"], ["我们去公园走走", "咱们去公园散步"], ["他爱看书"]]


def test_the_three_classes_share_the_tokenizer_and_interval_parts():
    shared = [f.name for f in dataclasses.fields(TokenizerOptions)] + [f.name for f in dataclasses.fields(IntervalOptions)]
    assert shared == ["tokenizer", "terms", "punct", "jieba_hmm", "jieba_dict", "normalize", "t2s",
                      "bootstrap", "bootstrap_method", "seed", "confidence", "max_refs"]
    for cls in (RougeOptions, BleuOptions, ChrfOptions):
        assert list(cls.names()[:len(shared)]) == shared
    # a field a preset may set defaults to None ("the preset's or the metric's default"); chrF has no preset
    assert RougeOptions().tokenizer is None and BleuOptions().tokenizer is None
    assert ChrfOptions().tokenizer == "char"


@pytest.mark.parametrize("cls, bad, error, words", [
    (RougeOptions, {"multi_ref": "best"}, ValueError, "unknown multi_ref 'best'; valid values: max, mean"),
    (RougeOptions, {"rouge_types": ["rouge1", "rouge1"]}, ValueError, "duplicates"),
    (RougeOptions, {"beta": -1}, ValueError, "beta must be a finite number >= 0"),
    (RougeOptions, {"use_aggregator": "False"}, TypeError, "use_aggregator must be True or False"),
    (BleuOptions, {"smooth_method": "exponential"}, ValueError, "unknown smooth_method 'exponential'"),
    (BleuOptions, {"max_order": 0}, ValueError, "max_order must be an int >= 1"),
    (BleuOptions, {"effective_order": "yes"}, TypeError, "effective_order must be True, False or None"),
    (ChrfOptions, {"char_order": 0, "word_order": 0}, ValueError, "both 0"),
    (ChrfOptions, {"level": "document"}, ValueError, "unknown level 'document'"),
    (ChrfOptions, {"bootstrap": -1}, ValueError, r"bootstrap must be 0 \(no interval\) or an int from 2"),
    (ChrfOptions, {"seed": 1.5}, TypeError, "seed must be an int"),
    (ChrfOptions, {"max_refs": 0}, ValueError, "max_refs must be at least 1"),
])
def test_every_field_checks_its_value_when_the_object_is_built(cls, bad, error, words):
    with pytest.raises(error, match=words):
        cls(**bad)


def test_an_option_no_requested_metric_uses_is_an_error_naming_the_metric_that_would():
    with pytest.raises(TypeError, match=r"rouge_types.*option of rouge"):
        zheval.score(PREDS, REFS, metrics=["bleu"], rouge_types=["rouge1"])
    with pytest.raises(TypeError, match=r"word_order.*option of chrf"):
        zheval.score(PREDS, REFS, word_order=2)  # default metrics: BLEU and ROUGE
    with pytest.raises(TypeError, match=r"level.*option of bleu and chrf"):
        zheval.score(PREDS, REFS, metrics=["rouge"], level="sentence")


def test_an_unknown_option_keeps_its_error_and_the_hub_reasons():
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['use_stemmer'\].*stems English words only"):
        zheval.score(PREDS, REFS, use_stemmer=True)
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['smooth'\].*none of sacrebleu's methods"):
        zheval.score(PREDS, REFS, metrics=["bleu"], smooth=True)


def test_typed_objects_equal_the_same_options_by_name():
    typed = zheval.score(PREDS, REFS, metrics=["rouge", "bleu", "chrf"],
                         rouge=RougeOptions(rouge_types=["rouge1", "rougeL"], multi_ref="mean"),
                         bleu=BleuOptions(max_order=2, smooth_method="floor"), chrf=ChrfOptions(word_order=2),
                         tokenizer="jieba")
    assert typed["rouge"] == zheval.compute_rouge(PREDS, REFS, tokenizer="jieba", rouge_types=["rouge1", "rougeL"],
                                                  multi_ref="mean")
    assert typed["bleu"] == zheval.compute_bleu(PREDS, REFS, tokenizer="jieba", max_order=2, smooth_method="floor")
    assert typed["chrf"] == zheval.compute_chrf(PREDS, REFS, tokenizer="jieba", word_order=2)
    assert list(typed) == ["rouge", "bleu", "chrf"]


def test_typed_objects_are_checked_as_the_names_are():
    with pytest.raises(TypeError, match=r"rouge=RougeOptions\(\.\.\.\) was given but 'rouge' is not among"):
        zheval.score(PREDS, REFS, metrics=["bleu"], rouge=RougeOptions())
    with pytest.raises(TypeError, match="bleu= takes a BleuOptions, got dict"):
        zheval.score(PREDS, REFS, bleu={"max_order": 2})
    with pytest.raises(TypeError, match=r"\['tokenizer'\] given both by name and in rouge=RougeOptions"):
        zheval.score(PREDS, REFS, metrics=["rouge"], rouge=RougeOptions(tokenizer="jieba"), tokenizer="char")


def test_options_for_metrics_gives_each_metric_its_own_options():
    got = options_for_metrics("door", ["rouge", "chrf"], {"beta": 3, "tokenizer": "jieba", "max_refs": 1})
    # jieba's words act on ROUGE; chrF without word n-grams counts the characters, which jieba's normaliser gives as
    # char's (break-it pass 5 F4): chrF keeps its "char"
    assert got == {"rouge": RougeOptions(beta=3, tokenizer="jieba", max_refs=1),
                   "chrf": ChrfOptions(beta=3, max_refs=1)}
    got = options_for_metrics("door", ["rouge", "chrf"], {"tokenizer": "jieba", "word_order": 2})
    assert got["chrf"] == ChrfOptions(tokenizer="jieba", word_order=2)
