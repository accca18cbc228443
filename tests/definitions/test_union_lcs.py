"""zheval.definitions.union_lcs (ROUGE-Lsum's union LCS): the union positions and tokens of the packed bit-parallel
kernel equal rouge-score 0.1.2's own union (``_find_union`` of ``lcs_ind``), and the whole-text LCS from the same
pass equals the plain DP table -- on generated sentence lists, long sentences across word boundaries, without the
mask table, in blocks, with contained sentences (the backtrack skipped) and with a small stop-mask budget."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as rs

import zheval.definitions.union_lcs as lcs_module
from oracles.lcs_dp import dp_table
from zheval.definitions.union_lcs import PackedReference, union_lcs_ref_positions, union_lcs_tokens


def rouge_score_unions(ref_sents, can_sents):
    """rouge-score 0.1.2's own union: ``_find_union`` of ``lcs_ind(r, c)`` over the non-empty candidate sentences."""
    out = []
    for r in ref_sents:
        if not r:
            out.append([])
            continue
        out.append(rs._find_union([rs.lcs_ind(r, c) for c in can_sents if c]))
    return out


sentence_lists = st.lists(st.lists(st.sampled_from("abcd"), max_size=12), min_size=1, max_size=5)


@settings(max_examples=300, deadline=None)
@given(sentence_lists, sentence_lists)
def test_union_positions_are_rouge_scores_union(ref_sents, can_sents):
    # packed columns + per-element backtrack == rouge-score's lcs_ind path unioned, sentence by sentence
    got = union_lcs_ref_positions(ref_sents, can_sents)
    assert got == rouge_score_unions(ref_sents, can_sents)
    flat = [r[i] for r, pos in zip(ref_sents, got) for i in pos]
    tokens, text_lcs = union_lcs_tokens(ref_sents, can_sents)
    assert Counter(tokens) == Counter(flat)
    assert union_lcs_tokens(PackedReference(ref_sents), can_sents) == (tokens, text_lcs)  # packed once, reused
    # the whole-text LCS from the same pass: rouge-score's DP table on the concatenated sentences
    whole_ref = [t for r in ref_sents for t in r]
    whole_can = [t for c in can_sents for t in c]
    assert text_lcs == (rs._lcs_table(whole_ref, whole_can)[-1][-1] if whole_ref and whole_can else 0)
    assert [rs._union_lcs(r, [c for c in can_sents if c]) for r in ref_sents if r] == [
        [r[i] for i in pos] for r, pos in zip(ref_sents, got) if r
    ]


@pytest.mark.parametrize("seed", range(6))
def test_union_positions_long_sentences_cross_word_boundaries(seed):
    # sentences of 60-200 tokens: packed ints span many 30-bit digits and guard bits sit mid-digit
    rng = random.Random(seed)
    alphabet = rng.randint(2, 12)
    ref = [[rng.randrange(alphabet) for _ in range(rng.randint(60, 200))] for _ in range(rng.randint(2, 6))]
    can = [[rng.randrange(alphabet) for _ in range(rng.randint(60, 200))] for _ in range(rng.randint(1, 6))]
    ref.insert(1, [])  # an empty sentence in the middle keeps its own (empty) segment
    assert union_lcs_ref_positions(ref, can) == rouge_score_unions(ref, can)
    whole_ref = [t for r in ref for t in r]
    whole_can = [t for c in can for t in c]
    assert union_lcs_tokens(ref, can)[1] == dp_table(whole_ref, whole_can)[-1][-1]


def test_union_positions_without_mask_table(monkeypatch):
    # texts wider than the tabulated 2**k - 1 masks compute them on the fly: same path
    rng = random.Random(7)
    ref = [[rng.randrange(4) for _ in range(40)] for _ in range(3)]
    can = [[rng.randrange(4) for _ in range(50)] for _ in range(2)]
    expected = rouge_score_unions(ref, can)
    monkeypatch.setattr(lcs_module, "_LOW_TABLE_MAX", 10)
    assert union_lcs_ref_positions(ref, can) == expected


@pytest.mark.parametrize("block", [1, 5, 16, 40])
def test_union_positions_in_blocks(monkeypatch, block):
    # many sentences: the reference is cut into blocks of at most `block` positions (a longer sentence alone);
    # positions, tokens and the whole-text LCS stay those of rouge-score
    monkeypatch.setattr(lcs_module, "BLOCK_POSITIONS", block)
    rng = random.Random(block)
    for _ in range(40):
        ref = [[rng.randrange(3) for _ in range(rng.choice([0, 1, 3, 8, 30]))] for _ in range(rng.randint(1, 12))]
        can = [[rng.randrange(3) for _ in range(rng.choice([0, 2, 6, 25]))] for _ in range(rng.randint(1, 8))]
        assert union_lcs_ref_positions(ref, can) == rouge_score_unions(ref, can)
        whole_ref = [t for r in ref for t in r]
        whole_can = [t for c in can for t in c]
        assert union_lcs_tokens(ref, can)[1] == (dp_table(whole_ref, whole_can)[-1][-1] if whole_ref and whole_can else 0)
    assert len(PackedReference([[0] * 3] * 30).blocks) > 1 or block >= 120


def test_union_positions_edge_cases():
    assert union_lcs_ref_positions([], [["a"]]) == []
    assert union_lcs_ref_positions([["a"]], []) == [[]]
    assert union_lcs_ref_positions([[], ["a"]], [[], ["a"]]) == [[], [0]]
    assert union_lcs_ref_positions([["a", "b"]], [["x"], ["y"]]) == [[]]
    # Hand-computed: ref "abab", candidates "ba" and "ab". rouge-score's path for "ba" takes the diagonal at the
    # last "a" (ref index 2) then "b" at index 1; for "ab" it takes "b" at 3 and "a" at 2: union {1, 2, 3}.
    assert union_lcs_ref_positions([list("abab")], [list("ba"), list("ab")]) == [[1, 2, 3]]


@pytest.mark.parametrize("block", [5, 64, 2048])
def test_union_of_a_reference_sentence_contained_in_a_candidate_sentence(monkeypatch, block):
    # A reference sentence that is a subsequence of some candidate sentence (verbatim copies included: extractive
    # summaries) has all its positions in the union; those sentences skip the backtrack. Checked against
    # rouge-score's own union, and that the shortcut is really taken.
    monkeypatch.setattr(lcs_module, "BLOCK_POSITIONS", block)
    backtracked = []
    real = lcs_module._backtrack

    def spy(stops, c, segments, *rest):
        backtracked.extend(segments)
        return real(stops, c, segments, *rest)

    monkeypatch.setattr(lcs_module, "_backtrack", spy)
    rng = random.Random(block)
    for _ in range(60):
        can = [[rng.randrange(4) for _ in range(rng.randint(0, 30))] for _ in range(rng.randint(1, 5))]
        ref = []
        for _ in range(rng.randint(1, 6)):
            kind = rng.random()
            src = rng.choice(can)
            if kind < 0.3:
                ref.append(list(src))  # verbatim copy
            elif kind < 0.6:
                ref.append([t for t in src if rng.random() < 0.6])  # a subsequence
            else:
                ref.append([rng.randrange(4) for _ in range(rng.randint(0, 30))])
        assert union_lcs_ref_positions(ref, can) == rouge_score_unions(ref, can)
        whole_ref = [t for r in ref for t in r]
        whole_can = [t for c in can for t in c]
        assert union_lcs_tokens(ref, can)[1] == (dp_table(whole_ref, whole_can)[-1][-1] if whole_ref and whole_can else 0)
    # hand case: "ab" is a subsequence of "xaxb", so its union is {0, 1} without a backtrack of its segment; "ba"
    # is not: rouge-score's path from ("ba", "xaxb") goes up at (2, 4) (t[1][4] = t[2][3] = 1) and takes the
    # diagonal at ref index 0 ("b" == "b")
    backtracked.clear()
    assert union_lcs_ref_positions([list("ab"), list("ba")], [list("xaxb")]) == [[0, 1], [0]]
    if block == 2048:  # one block: segments (0, 2) and (3, 5)
        assert (0, 2) not in backtracked and (3, 5) in backtracked


def test_union_with_a_small_stop_mask_budget(monkeypatch):
    # when the held stop masks exceed the budget they are backtracked early (before every contained sentence is
    # known): same positions as rouge-score
    monkeypatch.setattr(lcs_module, "_HELD_STOPS_MAX", 1)
    rng = random.Random(11)
    for _ in range(60):
        can = [[rng.randrange(4) for _ in range(rng.randint(0, 25))] for _ in range(rng.randint(1, 6))]
        ref = [list(rng.choice(can)) if rng.random() < 0.4 else [rng.randrange(4) for _ in range(rng.randint(0, 25))]
               for _ in range(rng.randint(1, 6))]
        ref.append(list(can[-1]))  # contained in the last candidate sentence: known only after the others
        assert union_lcs_ref_positions(ref, can) == rouge_score_unions(ref, can)


@settings(max_examples=200, deadline=None)
@given(sentence_lists, st.lists(st.lists(st.sampled_from("abcd"), max_size=40), min_size=1, max_size=4))
def test_union_positions_with_checkpointed_stop_masks(ref_sents, can_sents):
    # every candidate sentence over the stop-mask budget: its stops are recomputed block by block from every
    # ceil(sqrt(n))-th column state (one long sentence against another would otherwise hold n masks)
    old = lcs_module._HELD_STOPS_MAX
    lcs_module._HELD_STOPS_MAX = -1
    try:
        got = union_lcs_ref_positions(ref_sents, can_sents)
        tokens, text_lcs = union_lcs_tokens(ref_sents, can_sents)
    finally:
        lcs_module._HELD_STOPS_MAX = old
    assert got == rouge_score_unions(ref_sents, can_sents)
    assert Counter(tokens) == Counter(r[i] for r, pos in zip(ref_sents, got) for i in pos)
    whole_ref = [t for r in ref_sents for t in r]
    whole_can = [t for c in can_sents for t in c]
    assert text_lcs == (rs._lcs_table(whole_ref, whole_can)[-1][-1] if whole_ref and whole_can else 0)


@pytest.mark.parametrize("block", [1, 16])
def test_checkpointed_stop_masks_in_blocks(monkeypatch, block):
    rng = random.Random(11)
    ref = [[rng.randrange(3) for _ in range(rng.randint(0, 30))] for _ in range(8)]
    can = [[rng.randrange(3) for _ in range(rng.randint(1, 120))] for _ in range(3)]
    expected = rouge_score_unions(ref, can)
    monkeypatch.setattr(lcs_module, "BLOCK_POSITIONS", block)
    monkeypatch.setattr(lcs_module, "_HELD_STOPS_MAX", -1)
    assert union_lcs_ref_positions(ref, can) == expected


def test_long_sentence_pair_in_bounded_memory(monkeypatch):
    # one 3,000-token sentence against another: 3,000 stop masks of ~380 bytes (1.1 MB) would be held; over the
    # budget (here 100 kB) the checkpointed stops hold ~2 sqrt(n) of them
    import tracemalloc

    rng = random.Random(12)
    ref = [[rng.randrange(6) for _ in range(3000)]]
    can = [[rng.randrange(6) for _ in range(3000)]]
    want = union_lcs_ref_positions(ref, can)
    monkeypatch.setattr(lcs_module, "_HELD_STOPS_MAX", 100_000)
    tracemalloc.start()
    got = union_lcs_ref_positions(ref, can)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert got == want == [rs.lcs_ind(ref[0], can[0])]
    assert peak < 600_000
