"""zheval.definitions.bleu: hand computations written out, and properties (hypothesis).

Every expected value below is derived by hand in the comments (Papineni et al. 2002 definitions; sacrebleu 2.6.0
``BLEU.compute_bleu`` for the smoothing rules; nltk 3.10 ``SmoothingFunction.method3`` for ``nltk3``), never copied
from zheval's output.
"""

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zheval.definitions.bleu import closest_ref_length, corpus_stats, item_stats, stats_max_order, stats_width, sum_stats
from zheval.definitions.bleu_score import BP_REF_LENGTHS, SMOOTH_METHODS, corpus_bleu, corpus_score, score_stats, sentence_bleu, sentence_scores


def chars(text):
    """Tiny local character tokenizer for hand computations (no normalisation)."""
    return [c for c in text if not c.isspace()]


# ------------------------------------------------------------------------------------------------------------------
# Hand computations
# ------------------------------------------------------------------------------------------------------------------


def test_papineni_modified_precision_example_in_chinese():
    # Papineni et al. 2002, section 2.1: candidate "the the the the the the the" against
    # R1 "The cat is on the mat" (2 x the) and R2 "There is a cat on the mat" (1 x the): modified unigram
    # precision 2/7. Chinese version: 的 x 7; R1 contains 的 twice, R2 once.
    hyp = chars("的的的的的的的")
    r1 = chars("猫的的垫子上")
    r2 = chars("垫子上有的猫")
    row = item_stats(hyp, [r1, r2], max_order=4)
    # row = [hyp_len, closest, shortest, m1..m4, t1..t4]
    # unigrams: min(7, max(2, 1)) = 2 of 7
    # bigrams: 的的 x 6 in the hypothesis; R1 has 的的 once, R2 never -> clipped to 1 of 6
    # trigrams: 的的的 x 5, in no reference -> 0 of 5; 4-grams 0 of 4
    # both references have 6 characters -> closest = shortest = 6
    assert row == [7, 6, 6, 2, 1, 0, 0, 7, 6, 5, 4]
    s = score_stats(row, smooth_method="none")
    assert s.precisions[:2] == (2 / 7, 1 / 6)
    assert s.score == 0.0  # no trigram matches and no smoothing


def test_full_bleu_by_hand():
    # hyp 我爱北京天安门 (7), ref 我爱北京的天安门 (8)
    # 1-grams: all 7 hypothesis characters occur in the reference        -> 7/7
    # 2-grams: 我爱 爱北 北京 京天 天安 安门; ref lacks 京天             -> 5/6
    # 3-grams: 我爱北 爱北京 北京天 京天安 天安门; ref has 1st, 2nd, 5th  -> 3/5
    # 4-grams: 我爱北京 爱北京天 北京天安 京天安门; ref has only 我爱北京 -> 1/4
    # BP = exp(1 - 8/7) = exp(-1/7)
    # BLEU = exp(-1/7) * (1 * 5/6 * 3/5 * 1/4) ** (1/4) = exp(-1/7) * (1/8) ** (1/4) = exp(-1/7) * 2 ** -0.75
    s = sentence_bleu(chars("我爱北京天安门"), [chars("我爱北京的天安门")], smooth_method="none", effective_order=False)
    assert s.counts == (7, 5, 3, 1)
    assert s.totals == (7, 6, 5, 4)
    assert s.hyp_len == 7 and s.ref_len == 8
    assert s.brevity_penalty == pytest.approx(math.exp(-1 / 7), rel=1e-15)
    assert s.length_ratio == 7 / 8
    assert s.precisions == pytest.approx((1.0, 5 / 6, 3 / 5, 1 / 4), rel=1e-15)
    assert s.score == pytest.approx(math.exp(-1 / 7) * 2 ** -0.75, rel=1e-13)
    d = s.as_dict()
    assert set(d) >= {"bleu", "precisions", "brevity_penalty", "length_ratio", "translation_length", "reference_length"}
    assert d["translation_length"] == 7 and d["reference_length"] == 8


def test_two_character_exact_match_corpus_vs_sentence():
    # 你好 vs 你好: totals = [2, 1, 0, 0], matches = [2, 1, 0, 0]
    row = item_stats(chars("你好"), [chars("你好")])
    assert row == [2, 2, 2, 2, 1, 0, 0, 2, 1, 0, 0]
    # corpus level, no effective order: orders 3 and 4 have no n-grams at all, so their precision is 0 and the
    # geometric mean is 0 -- under every sacrebleu smoothing ("exp" only smooths orders that have n-grams).
    for method in ("none", "floor", "exp"):
        assert score_stats(row, smooth_method=method).score == 0.0
    # add-k adds k to numerator and denominator of orders >= 2 *before* the zero-total test (sacrebleu), so orders
    # 3 and 4 get (0+1)/(0+1) = 1: (1 * 1 * 1 * 1) ** (1/4) = 1
    assert score_stats(row, smooth_method="add-k").score == pytest.approx(1.0, abs=1e-15)
    # sentence BLEU with effective order: the mean runs over orders 1..2: sqrt(2/2 * 1/1) = 1
    s = sentence_bleu(chars("你好"), [chars("你好")])
    assert s.order_used == 2
    assert s.score == pytest.approx(1.0, abs=1e-15)
    # nltk method 3: denominators max(1, 0) = 1; order 3 is the first zero-match order -> 1/(2*1), order 4 ->
    # 1/(4*1): (1 * 1 * 1/2 * 1/4) ** (1/4) = 2 ** -0.75
    assert score_stats(row, smooth_method="nltk3").score == pytest.approx(2 ** -0.75, rel=1e-15)


def test_smoothing_methods_by_hand():
    # hyp 我爱你们, ref 我爱他们 (equal lengths -> BP = 1)
    # 1-grams 我 爱 你 们: 3/4; 2-grams 我爱 爱你 你们: 1/3; 3-grams: 0/2; 4-grams: 0/1
    row = item_stats(chars("我爱你们"), [chars("我爱他们")])
    assert row == [4, 4, 4, 3, 1, 0, 0, 4, 3, 2, 1]
    # none: a zero precision -> 0
    assert score_stats(row, smooth_method="none").score == 0.0
    # exp: p3 = 1/(2*2), p4 = 1/(4*1) -> (3/4 * 1/3 * 1/4 * 1/4) ** (1/4) = (1/64) ** (1/4) = 2 ** -1.5
    assert score_stats(row, smooth_method="exp").score == pytest.approx(2 ** -1.5, rel=1e-14)
    # floor 0.1: p3 = 0.1/2, p4 = 0.1/1 -> (0.75 * 1/3 * 0.05 * 0.1) ** (1/4) = 0.00125 ** 0.25
    assert score_stats(row, smooth_method="floor").score == pytest.approx(0.00125 ** 0.25, rel=1e-14)
    # floor 0.5: p3 = 0.25, p4 = 0.5 -> (0.75 * 1/3 * 0.25 * 0.5) ** 0.25 = (1/32) ** 0.25
    assert score_stats(row, smooth_method="floor", smooth_value=0.5).score == pytest.approx(
        (1 / 32) ** 0.25, rel=1e-14
    )
    # add-k 1 (orders >= 2 only): p1 = 3/4, p2 = 2/4, p3 = 1/3, p4 = 1/2 -> (1/16) ** (1/4) = 1/2
    s = score_stats(row, smooth_method="add-k")
    assert s.score == pytest.approx(0.5, rel=1e-14)
    assert s.precisions == pytest.approx((3 / 4, 1 / 2, 1 / 3, 1 / 2), rel=1e-15)
    # nltk3: same as exp here (denominators are all >= 1): 2 ** -1.5
    assert score_stats(row, smooth_method="nltk3").score == pytest.approx(2 ** -1.5, rel=1e-14)
    # weights: BLEU-1 = BP * p1 = 3/4; (1/2, 1/2, 0, 0) skips the zero orders: sqrt(3/4 * 1/3) = 1/2
    assert score_stats(row, smooth_method="none", weights=(1, 0, 0, 0)).score == pytest.approx(0.75, rel=1e-15)
    assert score_stats(row, smooth_method="none", weights=(0.5, 0.5, 0, 0)).score == pytest.approx(0.5, rel=1e-15)


def test_closest_length_ties_go_to_the_shorter_reference():
    assert closest_ref_length(5, [4, 6]) == 4
    assert closest_ref_length(5, [6, 4]) == 4
    assert closest_ref_length(5, [7, 3]) == 3
    assert closest_ref_length(5, [7, 6]) == 6
    assert closest_ref_length(0, [2, 1]) == 1
    # hyp 5 characters, references 4 and 6 characters: closest = 4 (tie), so hyp > ref and BP = 1.
    # (had the tie gone to 6, BP would be exp(1 - 6/5) < 1)
    hyp = chars("一二三四五")
    refs = [chars("一二三四五六"), chars("一二三四")]
    row = item_stats(hyp, refs)
    assert row[:3] == [5, 4, 4]
    assert score_stats(row).brevity_penalty == 1.0


def test_bp_ref_length_variants():
    # hyp 5, references 6 and 2: closest 6 (|5-6| = 1 < 3), shortest 2
    hyp = chars("一二三四五")
    refs = [chars("一二三四五六"), chars("一二")]
    row = item_stats(hyp, refs)
    assert row[:3] == [5, 6, 2]
    closest = score_stats(row, bp_ref_length="closest")
    shortest = score_stats(row, bp_ref_length="shortest")
    none = score_stats(row, bp_ref_length="none")
    assert closest.brevity_penalty == pytest.approx(math.exp(1 - 6 / 5), rel=1e-15)
    assert shortest.brevity_penalty == 1.0 and shortest.ref_len == 2
    assert none.brevity_penalty == 1.0 and none.ref_len == 6
    # precisions do not depend on the BP choice: all 4 orders match fully (hyp is a prefix of ref 1)
    assert closest.precisions == shortest.precisions == none.precisions == (1.0, 1.0, 1.0, 1.0)
    assert closest.score == pytest.approx(math.exp(1 - 6 / 5), rel=1e-14)
    assert none.score == pytest.approx(1.0, abs=1e-15)


def test_clipping_uses_the_max_count_over_references_not_the_sum():
    # hyp 的的的的; ref1 的的好 has 的 x2, ref2 的好的的好 has 的 x3 -> clip to max = 3 (not 2, not 5)
    # bigram 的的 x3 in hyp; ref1 has it once, ref2 once -> 1 (not 2)
    row = item_stats(chars("的的的的"), [chars("的的好"), chars("的好的的好")])
    assert row[3:5] == [3, 1]
    # closest to 4: |4-3| = 1 < |4-5| = 1? tie -> shorter = 3
    assert row[1] == 3


def test_empty_hypotheses_and_empty_corpus_never_raise():
    empty = corpus_stats([[], []], [[chars("你好")], [chars("谢谢"), chars("不客气")]])
    assert empty[:, 3:].sum() == 0  # no matches, no n-grams
    assert list(empty[:, 0]) == [0, 0]
    for method in SMOOTH_METHODS:
        for bp in BP_REF_LENGTHS:
            for eff in (False, True):
                s = corpus_score(empty, smooth_method=method, bp_ref_length=bp, effective_order=eff)
                assert s.score == 0.0
                assert all(p == 0.0 for p in s.precisions)
                for item in sentence_scores(empty, smooth_method=method, bp_ref_length=bp, effective_order=eff):
                    assert item.score == 0.0
    # zero items
    none = corpus_stats([], [])
    assert none.shape == (0, stats_width(4))
    s = corpus_score(none)
    assert s.score == 0.0 and s.length_ratio == 0.0 and s.brevity_penalty == 1.0
    # empty reference (zero tokens): no ZeroDivisionError
    s = corpus_bleu([chars("你好")], [[[]]])
    assert s.score == 0.0 and s.length_ratio == 0.0


def test_int_ids_score_like_strings():
    hyps = [chars("我爱北京天安门"), chars("天安门上太阳升")]
    refs = [[chars("我爱北京的天安门")], [chars("天安门上升起太阳"), chars("太阳升")]]
    vocab = {}

    def ids(seq):
        return [vocab.setdefault(t, len(vocab)) for t in seq]

    hyps_i = [ids(h) for h in hyps]
    refs_i = [[ids(r) for r in rs] for rs in refs]
    assert np.array_equal(corpus_stats(hyps, refs), corpus_stats(hyps_i, refs_i))
    assert corpus_stats([tuple(h) for h in hyps], refs).tolist() == corpus_stats(hyps, refs).tolist()


def test_stats_layout_and_additivity_helpers():
    assert stats_width(4) == 11 and stats_width(1) == 5
    assert stats_max_order(np.zeros(11)) == 4
    assert stats_max_order(np.zeros((3, 7))) == 2
    with pytest.raises(ValueError, match="3 \\+ 2 \\* max_order"):
        stats_max_order(np.zeros(10))
    m = corpus_stats([chars("你好吗"), chars("我很好")], [[chars("你好")], [chars("我很好啊")]])
    assert sum_stats(m).tolist() == (m[0] + m[1]).tolist()
    # max_order 2 statistics are the first columns of the max_order 4 ones, re-laid out
    m2 = corpus_stats([chars("你好吗")], [[chars("你好")]], max_order=2)
    assert m2.tolist() == [[3, 2, 2, 2, 1, 3, 2]]


def test_bad_input_messages():
    with pytest.raises(ValueError, match="valid values: none, floor, add-k, exp, nltk3"):
        score_stats([1, 1, 1, 1, 1], smooth_method="bogus")
    with pytest.raises(ValueError, match="valid values: closest, shortest, none"):
        score_stats([1, 1, 1, 1, 1], bp_ref_length="longest")
    with pytest.raises(ValueError, match="smooth_value applies only"):
        score_stats([1, 1, 1, 1, 1], smooth_method="exp", smooth_value=0.5)
    with pytest.raises(ValueError, match="weights has 2 entries but max_order is 1"):
        score_stats([1, 1, 1, 1, 1], weights=(0.5, 0.5))
    with pytest.raises(ValueError, match=">= 0 and sum to > 0"):
        score_stats([1, 1, 1, 1, 1], weights=(0,))
    with pytest.raises(ValueError, match="max_order"):
        corpus_stats([["a"]], [[["a"]]], max_order=0)
    with pytest.raises(ValueError, match="2 hypotheses but 1 reference lists"):
        corpus_stats([["a"], ["b"]], [[["a"]]])
    with pytest.raises(ValueError, match="item 1: empty reference list"):
        corpus_stats([["a"], ["b"]], [[["a"]], []])
    with pytest.raises(TypeError, match="item 0: reference 1"):
        corpus_stats([["a"]], [[["a"], "ab"]])
    with pytest.raises(TypeError, match="item 1: hypothesis"):
        corpus_stats([["a"], None], [[["a"]], [["b"]]])
    with pytest.raises(TypeError, match="tokenise the text first"):
        item_stats("你好", [["你", "好"]])


# ------------------------------------------------------------------------------------------------------------------
# Properties
# ------------------------------------------------------------------------------------------------------------------

ALPHABET = list("我你他好的了是不在有")
tokens_st = st.lists(st.sampled_from(ALPHABET), min_size=0, max_size=12)
refs_st = st.lists(tokens_st, min_size=1, max_size=4)
item_st = st.tuples(tokens_st, refs_st)
corpus_st = st.lists(item_st, min_size=0, max_size=8)
options_st = st.fixed_dictionaries(
    {
        "smooth_method": st.sampled_from(SMOOTH_METHODS),
        "effective_order": st.booleans(),
        "bp_ref_length": st.sampled_from(BP_REF_LENGTHS),
    }
)


@settings(max_examples=50, deadline=None)
@given(
    hyp=st.lists(st.sampled_from(ALPHABET), min_size=4, max_size=15),
    others=st.lists(tokens_st, max_size=3),
    opts=options_st,
)
def test_identical_hypothesis_scores_one(hyp, others, opts):
    # the hypothesis is one of its references and has n-grams of every order -> 1.0 under every option
    s = corpus_bleu([hyp], [[hyp] + others], **opts)
    assert s.score == pytest.approx(1.0, abs=1e-12)


@settings(max_examples=50, deadline=None)
@given(corpus=corpus_st, opts=options_st, seed=st.integers(0, 2**32 - 1))
def test_reference_order_never_changes_the_score(corpus, opts, seed):
    rng = random.Random(seed)
    hyps = [h for h, _ in corpus]
    refs = [list(r) for _, r in corpus]
    shuffled = [rng.sample(r, len(r)) for r in refs]
    a, b = corpus_stats(hyps, refs), corpus_stats(hyps, shuffled)
    assert np.array_equal(a, b)
    assert corpus_score(a, **opts) == corpus_score(b, **opts)


@settings(max_examples=50, deadline=None)
@given(corpus=corpus_st, opts=options_st)
def test_corpus_score_equals_score_of_summed_item_statistics(corpus, opts):
    hyps = [h for h, _ in corpus]
    refs = [r for _, r in corpus]
    direct = corpus_bleu(hyps, refs, **opts)
    summed = [0] * stats_width(4)
    for h, r in corpus:
        summed = [x + y for x, y in zip(summed, item_stats(h, r))]
    assert score_stats(summed, **opts) == direct
    assert 0.0 <= direct.score <= 1.0


@settings(max_examples=50, deadline=None)
@given(corpus=corpus_st, opts=options_st, cuts=st.lists(st.integers(0, 8), max_size=3))
def test_merging_shards_equals_whole(corpus, opts, cuts):
    hyps = [h for h, _ in corpus]
    refs = [r for _, r in corpus]
    whole = corpus_stats(hyps, refs)
    bounds = sorted({0, len(corpus), *[min(c, len(corpus)) for c in cuts]})
    shards = [corpus_stats(hyps[a:b], refs[a:b]) for a, b in zip(bounds, bounds[1:])]
    merged = sum((sum_stats(s) for s in shards), np.zeros(stats_width(4), dtype=np.int64))
    assert merged.tolist() == sum_stats(whole).tolist()
    assert corpus_score(merged, **opts) == corpus_score(whole, **opts)
    if shards:
        assert np.array_equal(np.concatenate(shards), whole)


@settings(max_examples=40, deadline=None)
@given(corpus=st.lists(item_st, min_size=1, max_size=8), opts=options_st)
def test_sentence_scores_are_each_item_alone(corpus, opts):
    hyps = [h for h, _ in corpus]
    refs = [r for _, r in corpus]
    per_item = sentence_scores(corpus_stats(hyps, refs), **opts)
    for (h, r), s in zip(corpus, per_item):
        assert s == corpus_bleu([h], [r], **opts)
        assert 0.0 <= s.score <= 1.0
