"""zheval.definitions.lcs (ROUGE-L, ROUGE-W): the bit-parallel LCS length, positions and rows equal independent
dynamic programmes (rouge-score's table and ``lcs_ind`` path, a ROUGE-1.5.5-style weighted-LCS DP; oracles.lcs_dp),
for str and mixed hashable tokens."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as rs

from oracles.lcs_dp import dp_table, wlcs_dp_perl_style
from zheval.definitions.lcs import lcs_length, lcs_ref_positions, lcs_rows, match_masks, wlcs, wlcs_ref_positions

# Small alphabets make ties between equally long LCSs frequent, which is what the backtrack must get right.
small_text = st.lists(st.sampled_from("abc"), max_size=14)
mixed_text = st.lists(st.one_of(st.sampled_from("abcdef"), st.integers(0, 3)), max_size=14)


@settings(max_examples=100, deadline=None)
@given(small_text, small_text)
def test_length_equals_dp_and_is_symmetric(a, b):
    assert lcs_length(a, b) == dp_table(a, b)[-1][-1] == lcs_length(b, a)


@settings(max_examples=150, deadline=None)
@given(mixed_text, mixed_text)
def test_hashable_tokens_of_mixed_types(a, b):
    assert lcs_length(a, b) == dp_table(a, b)[-1][-1]


@settings(max_examples=100, deadline=None)
@given(small_text, small_text)
def test_positions_are_rouge_scores_lcs(ref, can):
    pos = lcs_ref_positions(ref, can)
    assert pos == rs.lcs_ind(ref, can)
    assert len(pos) == lcs_length(ref, can)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from("abc"), max_size=40), st.lists(st.sampled_from("abc"), max_size=40))
def test_positions_with_checkpointed_rows_are_rouge_scores_lcs(ref, can):
    # every pair above the limit: rows kept every ceil(sqrt(m))-th and recomputed block by block while walking back
    import zheval.definitions.lcs as lcs

    old = lcs.ROWS_BITS_LIMIT
    lcs.ROWS_BITS_LIMIT = -1
    try:
        assert lcs_ref_positions(ref, can) == rs.lcs_ind(ref, can)
    finally:
        lcs.ROWS_BITS_LIMIT = old


def test_long_pair_positions_in_bounded_memory():
    # 3,000 x 3,000 tokens over a small alphabet (many ties): the checkpointed walk keeps ~2 sqrt(m) rows, not m
    import random
    import tracemalloc

    import zheval.definitions.lcs as lcs

    rnd = random.Random(4)
    ref = [rnd.choice("abcd") for _ in range(3000)]
    can = [rnd.choice("abcd") for _ in range(3000)]
    want = lcs_ref_positions(ref, can)  # all rows (below the limit)
    old = lcs.ROWS_BITS_LIMIT
    lcs.ROWS_BITS_LIMIT = -1
    try:
        tracemalloc.start()
        got = lcs_ref_positions(ref, can)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    finally:
        lcs.ROWS_BITS_LIMIT = old
    assert got == want == rs.lcs_ind(ref, can)
    assert peak < 3000 * 3000 / 8 / 4  # well under a quarter of all rows' bytes (1.1 MB)


@settings(max_examples=100, deadline=None)
@given(small_text, small_text)
def test_rows_give_dp_rows(a, b):
    t = dp_table(a, b)
    rows = lcs_rows(match_masks(b), len(b), a)
    for i, v in enumerate(rows):
        assert [j - (v & ((1 << j) - 1)).bit_count() for j in range(len(b) + 1)] == t[i]


@settings(max_examples=100, deadline=None)
@given(small_text, small_text, st.sampled_from([1.0, 1.2, 2.0]))
def test_wlcs_and_path_match_independent_dp(ref, can, w):
    value, marks = wlcs_dp_perl_style(ref, can, w)
    # wlcs sums the same run weights without the telescoping increments: equal up to float rounding
    assert wlcs(ref, can, w) == pytest.approx(value, rel=1e-12, abs=1e-12)
    assert wlcs_ref_positions(ref, can, w) == marks
    if w == 1.0:
        assert wlcs(ref, can, w) == lcs_length(ref, can)


def test_wlcs_lin_2004_example():
    # Lin (2004) 3.3 with f(k) = k^2: X = ABCDEFG; Y1 = ABCDHIK has one run of 4, Y2 = AHBKCID four runs of 1.
    x = list("ABCDEFG")
    assert wlcs(x, list("ABCDHIK"), 2.0) == 16.0
    assert wlcs(x, list("AHBKCID"), 2.0) == 4.0


def test_empty_and_long():
    assert lcs_length([], list("abc")) == 0 == lcs_length(list("abc"), [])
    assert lcs_ref_positions([], []) == []
    assert wlcs([], ["a"]) == 0.0
    a = [i % 7 for i in range(500)]
    b = [i % 5 for i in range(400)]
    assert lcs_length(a, b) == dp_table(a, b)[-1][-1]


@pytest.mark.parametrize("n", [1, 2, 7, 50, 300, 1000])
@pytest.mark.parametrize("w", [1.2, 1.5, 2.0])
def test_wlcs_of_identical_texts_is_exactly_f_n(n, w):
    # one run of length n: f(n) = n**w exactly, so ROUGE-W of identical texts is exactly 1
    text = [i % 7 for i in range(n)]
    assert wlcs(text, text, w) == n**w
