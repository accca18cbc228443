"""Signature, input validation, sentence splitting, tokenised corpus, bootstrap helper."""

import numpy as np
import pytest

import zheval

from zheval.version import __version__
from zheval.tokenizers.corpus import tokenize_corpus
from zheval.compute.inputs import validate_inputs
from zheval.text.sentences import split_sentences
from zheval.results.signature import build_signature, nrefs_field, parse_signature
from zheval.results.reducers import bootstrap_interval, group_indices, mean
from zheval.tokenizers import get_tokenizer


# -- signature ------------------------------------------------------------------------------------------------
def test_signature_fields_in_order():
    tok = get_tokenizer("char", terms=["小黄鸭"])
    sig = build_signature(tok, [2, 3, 2], "rouge", [("multi", "max"), ("beta", 1.0)])
    fields = parse_signature(sig)
    assert list(fields) == ["nrefs", "tok", "norm", "case", "metric", "multi", "beta", "zheval"]
    assert fields["nrefs"] == "var"
    assert fields["tok"].startswith("char+terms.")
    assert fields["norm"] == "nfkc+zw+punct+space+lower"
    assert fields["case"] == "lc"
    assert fields["beta"] == "1"
    assert fields["zheval"] == __version__


def test_signature_preset_jieba_and_t2s():
    tok = get_tokenizer("jieba", jieba_hmm=True, t2s=True, normalize=False)
    sig = parse_signature(build_signature(tok, [1, 1], "bleu", [("bp", None), ("eff", True)], preset="llamafactory"))
    assert sig["nrefs"] == "1"
    assert sig["tok"].startswith("jieba-0.42.1+dict.") and sig["tok"].endswith("+hmm")
    assert sig["norm"] == "t2s" and sig["case"] == "mixed"
    assert sig["preset"] == "llamafactory" and sig["bp"] == "none" and sig["eff"] == "yes"


def test_nrefs_field():
    assert nrefs_field([]) == "0"
    assert nrefs_field([4, 4]) == "4"
    assert nrefs_field([4, 3]) == "var"


def test_signature_rejects_reserved_characters():
    with pytest.raises(ValueError, match="reserved"):
        build_signature(get_tokenizer("char"), [1], "rouge", [("x", "a|b")])


# -- inputs ---------------------------------------------------------------------------------------------------
def test_validate_inputs_allow_empty():
    assert validate_inputs([], [], allow_empty=True) == ([], [])


def test_validate_inputs_ragged_and_strings():
    preds, refs = validate_inputs(("a", "b"), ["x", ["y", "z"]])
    assert preds == ["a", "b"] and refs == [["x"], ["y", "z"]]


@pytest.mark.parametrize(
    "preds, refs, exc, pattern",
    [
        (["a", "b"], [["x"]], ValueError, "2 predictions and 1 references"),
        (["a", "b", "c"], [["x", "y", "z"], ["u", "v", "w"]], ValueError, "transposed"),
        (["a"], [[]], ValueError, r"references\[0\] is an empty list"),
        (["a", None], ["x", "y"], TypeError, r"predictions\[1\] must be str, got None"),
        (["a"], [["x", None]], TypeError, r"references\[0\]\[1\] must be str, got None"),
        (["a"], [3], TypeError, r"references\[0\]"),
        ("abc", ["x", "y", "z"], TypeError, "not a single str"),
        (["a"], None, TypeError, "references must be a list"),
        ([], [], ValueError, "no items to score"),
        (["ok", "bad\ud800"], ["x", "y"], ValueError, r"predictions\[1\] is not valid text"),
        (["ok"], [["x", "\udfff"]], ValueError, r"references\[0\]\[1\] is not valid text"),
    ],
)
def test_validate_inputs_errors(preds, refs, exc, pattern):
    with pytest.raises(exc, match=pattern):
        validate_inputs(preds, refs)


# -- sentences ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, expected",
    [
        ("今天很好。明天下雨!后天呢?", ["今天很好。", "明天下雨!", "后天呢?"]),
        ('他说:"好。"然后走了', ['他说:"好。"', "然后走了"]),
        ("真的?!不会吧……嗯", ["真的?!", "不会吧……", "嗯"]),
        ("价格3.5元。", ["价格3.5元。"]),
        ("访问www.duck.cn吧", ["访问www.duck.cn吧"]),
        ("第一行\n第二行", ["第一行", "第二行"]),
        ("", []),
        ("没有标点", ["没有标点"]),
    ],
)
def test_split_sentences_punct(text, expected):
    assert split_sentences(text) == expected


def test_split_sentences_newline_is_rouge_score():
    assert split_sentences("a。b\n\nc", "newline") == "a。b\n\nc".split("\n")
    with pytest.raises(ValueError, match="punct"):
        split_sentences("x", "semicolon")


# -- corpus ---------------------------------------------------------------------------------------------------
def test_tokenize_corpus_ids_and_sentences():
    c = tokenize_corpus(["今天好。明天好"], [["今天不好", "好"]], get_tokenizer("char"))
    p = c.predictions[0]
    assert c.decode(p.tokens) == ["今", "天", "好", "。", "明", "天", "好"]
    assert [c.decode(s) for s in p.sentences] == [["今", "天", "好", "。"], ["明", "天", "好"]]
    assert [c.decode(r.tokens) for r in c.references[0]] == [["今", "天", "不", "好"], ["好"]]
    assert c.reference_counts == [2]
    # the same token always gets the same id within a corpus
    assert p.tokens[1] == p.tokens[5]


def test_tokenize_corpus_keeps_an_empty_reference_empty():
    # the empty-reference rule is the caller's (zheval.compute.inputs.check_references), not the tokenizer's
    c = tokenize_corpus(["a"], [[" "]], get_tokenizer("char"))
    assert c.references[0][0].tokens == () and c.reference_lengths() == [0]
    with pytest.raises(ValueError, match=r"references\[1\]\[0\] is empty after normalisation"):
        zheval.compute_rouge(["a", "b"], [["x"], ["\u200b "]])


def test_tokenize_corpus_empty_prediction_allowed():
    c = tokenize_corpus([""], [["参考"]], get_tokenizer("char"))
    assert c.predictions[0].tokens == () and c.predictions[0].sentences == ()


# -- stats ----------------------------------------------------------------------------------------------------
def test_mean_exact():
    assert mean([0.1] * 10) == 0.1 * 10 / 10
    assert mean([]) == 0.0


def test_bootstrap_interval_reproducible_and_brackets_mean():
    values = np.random.default_rng(0).random(400)
    a = bootstrap_interval(values, lambda r: r.mean(axis=-1), seed=7)
    b = bootstrap_interval(values, lambda r: r.mean(axis=-1), seed=7)
    assert a == b
    assert a[0] < values.mean() < a[1]
    # for a mean, the 95% interval half-width is about 1.96 * sd / sqrt(n)
    half = 1.96 * values.std(ddof=1) / np.sqrt(len(values))
    assert (a[1] - a[0]) / 2 == pytest.approx(half, rel=0.15)


def test_bootstrap_interval_errors():
    with pytest.raises(ValueError, match="at least one item"):
        bootstrap_interval(np.array([]), lambda r: r.mean(axis=-1))
    with pytest.raises(ValueError, match="n_resamples"):
        bootstrap_interval(np.ones(3), lambda r: r.mean(axis=-1), n_resamples=0)


def test_group_indices():
    assert group_indices(["a", None, "a", "b", None]) == {"a": [0, 2], None: [1, 4], "b": [3]}


def test_a_bytes_reference_is_named_as_bytes_not_as_its_integers():
    import pytest

    from zheval.compute.inputs import validate_inputs

    with pytest.raises(TypeError, match=r"references\[1\] must be a str or a list of str, got bytes"):
        validate_inputs(["好", "好"], ["好", "好".encode("utf-8")])
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] must be str, got bytes"):
        validate_inputs(["好"], [["好", b"x"]])
