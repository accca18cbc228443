"""zheval.definitions.rouge core: hand computations written out, hypothesis properties, errors."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zheval.definitions.rouge import (
    Score,
    combine_references,
    f_measure,
    parse_rouge_type,
    rouge_l,
    rouge_lsum,
    rouge_n,
    rouge_s,
    rouge_su,
    rouge_w,
    score_item,
)

ALL_TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"]


def approx(score, p, r, f):
    assert score.precision == pytest.approx(p, abs=1e-12)
    assert score.recall == pytest.approx(r, abs=1e-12)
    assert score.fmeasure == pytest.approx(f, abs=1e-12)


# ---------------------------------------------------------------------------------------------------------------
# Hand computations


def test_seed_example_cat_on_mat():
    hyp = list("猫坐在垫子上")  # 6 characters
    ref = list("猫趴在垫子上面")  # 7 characters
    # Unigrams: common 猫 在 垫 子 上 = 5 -> P = 5/6, R = 5/7, F = 2PR/(P+R) = (50/42)/(65/42) = 10/13.
    approx(rouge_n(hyp, ref, 1), 5 / 6, 5 / 7, 10 / 13)
    # Bigrams: hyp 猫坐 坐在 在垫 垫子 子上 (5); ref 猫趴 趴在 在垫 垫子 子上 上面 (6); common 在垫 垫子 子上 = 3
    # -> P = 3/5, R = 3/6, F = 2 * 0.6 * 0.5 / 1.1 = 6/11.
    approx(rouge_n(hyp, ref, 2), 3 / 5, 1 / 2, 6 / 11)
    # Trigrams: hyp 5-... common 在垫子 垫子上 = 2 of 4 (hyp) and 5 (ref).
    approx(rouge_n(hyp, ref, 3), 2 / 4, 2 / 5, 2 * 0.5 * 0.4 / 0.9)
    # LCS 猫在垫子上 = 5 -> same as ROUGE-1 here.
    approx(rouge_l(hyp, ref), 5 / 6, 5 / 7, 10 / 13)
    out = score_item([hyp], [[ref]], ["rouge1", "rouge2", "rougeL", "rougeLsum"])
    approx(out["rougeLsum"], 5 / 6, 5 / 7, 10 / 13)
    assert list(out) == ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def test_clipping():
    # 好好好好 vs 好: one clipped hit; P = 1/4, R = 1/1, F = 2 * .25 * 1 / 1.25 = 0.4.
    approx(rouge_n(list("好好好好"), ["好"], 1), 0.25, 1.0, 0.4)
    # Bigrams 好好 x3 vs none.
    approx(rouge_n(list("好好好好"), ["好"], 2), 0.0, 0.0, 0.0)
    # ROUGE-L: LCS 1 -> same as ROUGE-1.
    approx(rouge_l(list("好好好好"), ["好"]), 0.25, 1.0, 0.4)


def test_lin_2004_rouge_s_example():
    # Lin (2004) section 4: S1 is the reference. Skip-bigrams of a 4-word sentence: C(4,2) = 6.
    s1 = "police killed the gunman".split()
    s2 = "police kill the gunman".split()  # matches: (police,the) (police,gunman) (the,gunman) = 3
    s3 = "the gunman kill police".split()  # matches: (the,gunman) = 1
    s4 = "the gunman police killed".split()  # matches: (the,gunman) (police,killed) = 2
    approx(rouge_s(s2, s1, skip=None), 3 / 6, 3 / 6, 0.5)
    approx(rouge_s(s3, s1, skip=None), 1 / 6, 1 / 6, 1 / 6)
    approx(rouge_s(s4, s1, skip=None), 2 / 6, 2 / 6, 2 / 6)
    # ROUGE-SU adds unigrams: S2 shares police, the, gunman (3 of 4) -> (3 + 3) / (6 + 4).
    approx(rouge_su(s2, s1, skip=None), 0.6, 0.6, 0.6)
    # Skip distance 0 = plain bigrams: S2 vs S1 share only (the, gunman): 1 of 3.
    approx(rouge_s(s2, s1, skip=0), 1 / 3, 1 / 3, 1 / 3)
    # Skip distance 1: pairs with j <= i + 2: S1 has (p,k)(p,t)(k,t)(k,g)(t,g) = 5; S2 shares (p,t) (t,g) = 2.
    approx(rouge_s(s2, s1, skip=1), 2 / 5, 2 / 5, 2 / 5)
    via_item = score_item([s2], [[s1]], ["rougeS*", "rougeSU*", "rougeS0", "rougeS1"])
    approx(via_item["rougeS*"], 0.5, 0.5, 0.5)
    approx(via_item["rougeSU*"], 0.6, 0.6, 0.6)
    approx(via_item["rougeS1"], 0.4, 0.4, 0.4)


def test_rouge_w_examples():
    x = list("ABCDEFG")
    # Lin (2004) 3.3 with f(k) = k^2: WLCS(X, Y1) = 4^2 = 16 -> R = sqrt(16 / 7^2) = 4/7, P = sqrt(16 / 7^2) = 4/7.
    approx(rouge_w(list("ABCDHIK"), x, weight=2.0), 4 / 7, 4 / 7, 4 / 7)
    # Y2 = AHBKCID: four runs of one: WLCS = 4 -> R = sqrt(4 / 49) = 2/7.
    approx(rouge_w(list("AHBKCID"), x, weight=2.0), 2 / 7, 2 / 7, 2 / 7)
    # w = 1.2, hyp ABCDH (5 tokens): WLCS = 4^1.2; R = (4^1.2 / 7^1.2)^(1/1.2) = 4/7, P = 4/5.
    approx(rouge_w(list("ABCDH"), x, weight=1.2), 4 / 5, 4 / 7, 2 * (4 / 5) * (4 / 7) / (4 / 5 + 4 / 7))
    # w = 1.2, hyp AXBCY: runs A and BC: WLCS = 1 + 2^1.2; R = ((1 + 2^1.2) / 7^1.2)^(1/1.2).
    wl = 1 + 2**1.2
    r = (wl / 7**1.2) ** (1 / 1.2)
    p = (wl / 5**1.2) ** (1 / 1.2)
    approx(rouge_w(list("AXBCY"), x, weight=1.2), p, r, 2 * p * r / (p + r))
    # identical texts score 1 (Lin's definition; ROUGE-1.5.5's does not, see the presets).
    approx(rouge_w(x, x), 1.0, 1.0, 1.0)


def test_lsum_union_lcs_lin_example():
    # Lin (2004) 3.2: r = w1 w2 w3 w4 w5; c1 = w1 w2 w6 w7 w8; c2 = w1 w3 w8 w9 w5.
    # LCS(r, c1) = w1 w2, LCS(r, c2) = w1 w3 w5, union = w1 w2 w3 w5 -> 4 hits; m = 5, n = 10.
    r = ["w1", "w2", "w3", "w4", "w5"]
    c1 = ["w1", "w2", "w6", "w7", "w8"]
    c2 = ["w1", "w3", "w8", "w9", "w5"]
    approx(rouge_lsum([c1, c2], [r]), 4 / 10, 4 / 5, 2 * 0.4 * 0.8 / 1.2)


def test_lsum_clipping_over_reference_sentences():
    # Two reference sentences "a b" and "a c" both LCS-match the single candidate "a": the candidate has one "a",
    # so only one hit counts (rouge-score/ROUGE-1.5.5 clipping): hits = 1, m = 4, n = 1.
    approx(rouge_lsum([["a"]], [["a", "b"], ["a", "c"]]), 1.0, 0.25, 0.4)


def test_f_measure_beta_and_alpha():
    p, r = 0.6, 0.3
    assert f_measure(p, r) == 2 * p * r / (p + r)
    for beta in (0.5, 2.0, 3.0):
        b2 = beta * beta
        assert f_measure(p, r, beta) == pytest.approx((1 + b2) * p * r / (r + b2 * p), abs=1e-15)
        # ROUGE-1.5.5's alpha form with alpha = 1 / (1 + beta^2) is the same number.
        alpha = 1 / (1 + b2)
        assert f_measure(p, r, beta) == pytest.approx(p * r / ((1 - alpha) * p + alpha * r), abs=1e-15)
    assert f_measure(p, r, 0.0) == pytest.approx(p)
    assert f_measure(0.0, 0.0, 2.0) == 0.0
    out = score_item([list("abcd")], [[list("ab")]], ["rouge1"], beta=2.0)
    approx(out["rouge1"], 0.5, 1.0, 5 * 0.5 * 1.0 / (1.0 + 4 * 0.5))


# ---------------------------------------------------------------------------------------------------------------
# Multiple references


def test_multi_ref_modes_by_hand():
    hyp = [list("abcd")]
    refs = [[list("ab")], [list("abcdef")], [list("xyz")]]
    # rouge1 per reference: (hit, |ref|, |hyp|) = (2, 2, 4), (4, 6, 4), (0, 3, 4)
    # -> P/R/F = (.5, 1, 2/3), (1, 2/3, .8), (0, 0, 0)
    out = {m: score_item(hyp, refs, ["rouge1"], multi_ref=m)["rouge1"] for m in ("max", "mean", "pool", "best_recall")}
    approx(out["max"], 1.0, 2 / 3, 0.8)
    approx(out["mean"], 1.5 / 3, (1 + 2 / 3) / 3, (2 / 3 + 0.8) / 3)
    # pool (ROUGE-1.5.5 -f A): R = (2+4+0)/(2+6+3) = 6/11, P = 6/(3*4) = 1/2.
    approx(out["pool"], 0.5, 6 / 11, 2 * 0.5 * (6 / 11) / (0.5 + 6 / 11))
    approx(out["best_recall"], 0.5, 1.0, 2 / 3)


def test_max_ties_first_reference_wins():
    # Equal F = 2/3 from (P=.5, R=1) and (P=1, R=.5): the first reference is kept, as rouge-score's score_multi.
    a = score_item([list("ab")], [[list("a")], [list("abcd")]], ["rouge1"])["rouge1"]
    approx(a, 0.5, 1.0, 2 / 3)
    b = score_item([list("ab")], [[list("abcd")], [list("a")]], ["rouge1"])["rouge1"]
    approx(b, 1.0, 0.5, 2 / 3)


def test_combine_references_errors():
    with pytest.raises(ValueError, match="at least one"):
        combine_references([], "max")
    with pytest.raises(ValueError, match="max, mean, pool, best_recall"):
        combine_references([(1, 1, 1), (1, 2, 1)], "median")


# ---------------------------------------------------------------------------------------------------------------
# Empty input and errors


def test_empty_texts_score_zero_and_never_raise():
    zero = Score(0.0, 0.0, 0.0)
    for hyp, ref in (([], [[list("abc")]]), ([list("abc")], [[]]), ([[]], [[[]]]), ([[], []], [[[], []]])):
        out = score_item(hyp, ref, ALL_TYPES)
        assert all(v == zero for v in out.values()), out
    # n longer than both texts
    assert score_item([list("ab")], [[list("ab")]], ["rouge5"])["rouge5"] == zero
    # one-token texts have no skip-bigrams
    assert score_item([["a"]], [[["a"]]], ["rougeS4"])["rougeS4"] == zero


def test_parse_rouge_type():
    assert parse_rouge_type("rouge1").n == 1
    assert parse_rouge_type("rouge12") == ("rouge12", "N", 12, None)
    assert parse_rouge_type("rougeSU4").skip == 4 and parse_rouge_type("rougeSU4").kind == "SU"
    assert parse_rouge_type("rougeS*").skip is None
    assert parse_rouge_type("rougeLsum").kind == "Lsum"
    for bad in ("rouge0", "rougeX", "ROUGE1", "rouge-1", "rougeS", "rougeSU-1", "rougel", ""):
        with pytest.raises(ValueError) as ei:
            parse_rouge_type(bad)
        msg = str(ei.value)
        assert "rougeLsum" in msg and "rougeSU" in msg and "rouge1" in msg
    with pytest.raises(TypeError):
        parse_rouge_type(1)


def test_item_errors():
    with pytest.raises(ValueError, match="at least one reference"):
        score_item([["a"]], [], ["rouge1"])
    with pytest.raises(ValueError, match="multi_ref"):
        score_item([["a"]], [[["a"]]], ["rouge1"], multi_ref="avg")
    with pytest.raises(ValueError, match="beta"):
        score_item([["a"]], [[["a"]]], ["rouge1"], beta=-1)
    with pytest.raises(ValueError, match="rouge_w_weight"):
        score_item([["a"]], [[["a"]]], ["rougeW"], rouge_w_weight=0)
    with pytest.raises(ValueError, match="Valid forms"):
        score_item([["a"]], [[["a"]]], ["rougeQ"])


# ---------------------------------------------------------------------------------------------------------------
# Properties

tokens = st.lists(st.sampled_from("甲乙丙丁戊"), max_size=12)
sentences = st.lists(tokens, min_size=1, max_size=3)


@settings(max_examples=150, deadline=None)
@given(sentences, st.lists(sentences, min_size=1, max_size=3), st.sampled_from(["max", "mean", "pool", "best_recall"]))
def test_bounds(hyp, refs, mode):
    for s in score_item(hyp, refs, ALL_TYPES, multi_ref=mode).values():
        assert all(0.0 <= v <= 1.0 + 1e-12 for v in s)
        if mode != "mean":  # a mean of F values need not lie between the mean P and the mean R
            assert min(s.precision, s.recall) - 1e-12 <= s.fmeasure <= max(s.precision, s.recall) + 1e-12


@settings(max_examples=150, deadline=None)
@given(sentences)
def test_identical_scores_one(sents):
    flat = [t for s in sents for t in s]
    out = score_item(sents, [sents], ALL_TYPES)
    n_tok = len(flat)
    for name, s in out.items():
        rt = parse_rouge_type(name)
        units = {
            "N": n_tok - rt.n + 1,
            "L": n_tok,
            "Lsum": n_tok,
            "W": n_tok,
            "S": n_tok - 1,
            "SU": n_tok,
        }[rt.kind]
        expected = 1.0 if units > 0 else 0.0
        assert s.fmeasure == pytest.approx(expected, abs=1e-12), name
        assert s.precision == pytest.approx(expected, abs=1e-12) and s.recall == pytest.approx(expected, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(tokens, tokens)
def test_swap_swaps_precision_and_recall(a, b):
    types = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeW", "rougeS4", "rougeSU*"]
    ab = score_item([a], [[b]], types)
    ba = score_item([b], [[a]], types)
    for t in types:
        assert ab[t].precision == ba[t].recall and ab[t].recall == ba[t].precision, t
        assert ab[t].fmeasure == pytest.approx(ba[t].fmeasure, abs=1e-15)


@settings(max_examples=80, deadline=None)
@given(sentences, st.lists(sentences, min_size=2, max_size=3))
def test_reference_order_never_changes_max_mean_pool(hyp, refs):
    base = {m: score_item(hyp, refs, ALL_TYPES, multi_ref=m) for m in ("max", "mean", "pool")}
    for perm in itertools.permutations(refs):
        for m in ("max", "mean", "pool"):
            got = score_item(hyp, list(perm), ALL_TYPES, multi_ref=m)
            for t in ALL_TYPES:
                if m == "max":
                    # F never depends on order; P and R only through ties in F (first wins, as rouge-score).
                    assert got[t].fmeasure == base[m][t].fmeasure
                else:
                    assert got[t] == base[m][t]


@settings(max_examples=100, deadline=None)
@given(tokens, tokens)
def test_int_ids_give_the_same_scores_as_strings(a, b):
    vocab = {t: i for i, t in enumerate("甲乙丙丁戊")}
    ia = [vocab[t] for t in a]
    ib = [vocab[t] for t in b]
    assert score_item([a], [[b]], ALL_TYPES) == score_item([ia], [[ib]], ALL_TYPES)


def test_skip_unlimited_totals_are_binomial():
    hyp = list("abcdefg")
    out = rouge_s(hyp, list("abc"), skip=None)
    # C(7,2) = 21 hyp pairs, C(3,2) = 3 ref pairs, all 3 ref pairs occur in hyp.
    approx(out, 3 / 21, 1.0, 2 * (3 / 21) / (1 + 3 / 21))
    assert math.comb(7, 2) == 21


def test_rouge_w_identical_texts_exactly_one_and_never_above():
    from zheval.compute.rouge import compute_rouge

    texts = ["猫坐在垫子上" * k for k in (1, 5, 40)] + ["今天天气很好，我们去公园散步吧。" * 30]
    out = compute_rouge(texts, texts, rouge_types=["rougeW"], use_aggregator=False, return_precision_recall=True)
    assert out["rougeW"] == [1.0] * len(texts)
    assert out["rougeW_precision"] == [1.0] * len(texts) and out["rougeW_recall"] == [1.0] * len(texts)
