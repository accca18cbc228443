"""Paired approximate randomisation (zheval.results.significance): the p-value equals sacrebleu's PairedTest
(test_type='ar') on the same texts and seed — with zheval's own BLEU statistics (preset sacrebleu-zh) and with
sacrebleu's statistics and scorer — and equals a loop-by-loop hand implementation written here (per-item swaps in
Python, math.fsum means, sacrebleu's compute_bleu on the summed counts). The semantics are checked against an
exact enumeration of all 2**n swaps, and the bad inputs are refused with a message naming the argument."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from zheval.compute.bleu import BleuOptions, bleu_config, bleu_items
from zheval.definitions.bleu_score import score_stats
from zheval.results.significance import AR_DEFAULT_TRIALS, p_value_from_trials, paired_approximate_randomization


def _three_way(groups):
    rows = [g for g in groups if len(g["responses"]) >= 3]
    return ([r["responses"][0] for r in rows], [r["responses"][1] for r in rows], [r["responses"][2] for r in rows])


def _mean_rows(values):
    return np.column_stack([np.asarray(values, dtype=np.float64), np.ones(len(values))])


def _mean_from_sums(s):
    return s[:, 0] / s[:, 1]


@pytest.mark.parametrize("seed, trials", [(7, 2000), (12345, 1000), (2**32 - 1, 500)])
def test_bleu_p_value_equals_sacrebleu_paired_test(crosswoz_groups, monkeypatch, seed, trials):
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    a, b, ref = _three_way(crosswoz_groups)
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))  # PairedTest reads its seed there (0 would mean "unseeded")
    _, res = PairedTest([("A", a), ("B", b)], {"BLEU": BLEU(tokenize="zh")}, [ref], test_type="ar",
                        n_samples=trials)()
    expected_p = res["BLEU"][1].p_value
    # zheval's own statistics and BLEU (0-1), preset sacrebleu-zh
    cfg = bleu_config(BleuOptions(preset="sacrebleu-zh"))
    sa = bleu_items(a, [[r] for r in ref], cfg).stats
    sb = bleu_items(b, [[r] for r in ref], cfg).stats

    def ours(sums):
        return np.array([score_stats(r, **cfg.score_options).score for r in np.asarray(sums).tolist()])

    out = paired_approximate_randomization(sa, sb, ours, trials, seed)
    assert out["p_value"] == expected_p
    assert out["score_b"] * 100 == pytest.approx(res["BLEU"][1].score, abs=1e-9)
    assert out["score_a"] * 100 == pytest.approx(res["BLEU"][0].score, abs=1e-9)
    # sacrebleu's statistics and scorer (0-100) through the same function: the same p
    m = BLEU(tokenize="zh")
    st_a = np.array(m._extract_corpus_statistics(a, [ref]))
    st_b = np.array(m._extract_corpus_statistics(b, [ref]))

    def theirs(sums):
        return np.array([m._compute_score_from_stats(list(r)).score for r in np.asarray(sums)])

    assert paired_approximate_randomization(st_a, st_b, theirs, trials, seed)["p_value"] == expected_p


def _hand_ar(a_vals, b_vals, score, trials, seed):
    """AR by hand: the same draw as sacrebleu, then one Python loop per trial and item."""
    sel = np.random.default_rng(seed).integers(2, size=(trials, len(a_vals)), dtype=bool).tolist()
    observed = abs(score(b_vals) - score(a_vals))
    count = 0
    for row in sel:
        x = [ai if keep else bi for keep, ai, bi in zip(row, a_vals, b_vals)]
        y = [bi if keep else ai for keep, ai, bi in zip(row, a_vals, b_vals)]
        if abs(score(x) - score(y)) > observed:
            count += 1
    return (count + 1) / (trials + 1)


def test_rouge_mean_p_value_equals_a_hand_loop(crosswoz_groups):
    from zheval import compute_rouge  # noqa: F401 - the library path below
    from zheval.compute.rouge import RougeOptions, rouge_config, rouge_items

    a, b, ref = _three_way(crosswoz_groups)
    cfg = rouge_config(RougeOptions(rouge_types=["rouge1"]))
    fa = rouge_items(a, [[r] for r in ref], cfg).fmeasure["rouge1"].tolist()
    fb = rouge_items(b, [[r] for r in ref], cfg).fmeasure["rouge1"].tolist()

    def fsum_mean(v):
        return math.fsum(v) / len(v)

    for seed in (1, 99):
        expected = _hand_ar(fa, fb, fsum_mean, 1500, seed)
        got = paired_approximate_randomization(_mean_rows(fa), _mean_rows(fb), _mean_from_sums, 1500, seed)
        assert got["p_value"] == expected


@pytest.mark.parametrize("seed", [1, 4, 6, 8, 18])
def test_systems_that_differ_on_few_items_are_not_inflated_by_rounding(seed):
    # 500 items, B = A except 3: only the 3 items' swaps matter, so 1 trial in 4 is the observed split or its mirror,
    # whose difference equals the observed one. Summed in another order than the observed scores, such a trial can
    # exceed it by a rounding error; the hand loop (math.fsum, exactly rounded) counts them as ties, and so must we.
    # (Measured without the tie tolerance, p vs the hand loop: seed 1 0.556 vs 0.536, 4 0.392 vs 0.244, 6 0.663 vs
    # 0.486, 8 0.970 vs 0.741, 18 1.0 vs 0.718.)
    rng = np.random.default_rng(seed)
    a = rng.random(500)
    b = a.copy()
    b[rng.choice(500, 3, replace=False)] = rng.random(3)

    def fsum_mean(v):
        return math.fsum(v) / len(v)

    expected = _hand_ar(a.tolist(), b.tolist(), fsum_mean, 400, seed)
    got = paired_approximate_randomization(_mean_rows(a), _mean_rows(b), _mean_from_sums, 400, seed)
    assert got["p_value"] == expected


def test_bleu_p_value_equals_a_hand_loop_with_sacrebleu_compute_bleu(crosswoz_groups):
    from sacrebleu.metrics import BLEU

    a, b, ref = _three_way(crosswoz_groups)
    a, b, ref = a[:40], b[:40], ref[:40]
    cfg = bleu_config(BleuOptions(preset="sacrebleu-zh"))
    sa = bleu_items(a, [[r] for r in ref], cfg).stats
    sb = bleu_items(b, [[r] for r in ref], cfg).stats

    def sacre_score(rows):  # rows: zheval layout [hyp, closest, shortest, m1..m4, t1..t4]; summed in Python ints
        tot = [sum(int(r[c]) for r in rows) for c in range(11)]
        return BLEU.compute_bleu(tot[3:7], tot[7:11], tot[0], tot[1], smooth_method="exp").score

    expected = _hand_ar(sa.tolist(), sb.tolist(), sacre_score, 800, 5)

    def ours(sums):
        return np.array([score_stats(r, **cfg.score_options).score for r in np.asarray(sums).tolist()])

    assert paired_approximate_randomization(sa, sb, ours, 800, 5)["p_value"] == expected


def test_p_value_converges_to_the_exact_permutation_p():
    # 6 items: all 2**6 swap patterns enumerated by hand; the AR estimate with 100,000 trials lies within 0.01
    a = [0.9, 0.7, 0.65, 0.8, 0.2, 0.5]
    b = [0.6, 0.6, 0.7, 0.3, 0.25, 0.4]
    observed = abs(sum(b) / 6 - sum(a) / 6)
    exceed = 0
    for pattern in itertools.product([True, False], repeat=6):
        x = [ai if k else bi for k, ai, bi in zip(pattern, a, b)]
        y = [bi if k else ai for k, ai, bi in zip(pattern, a, b)]
        exceed += abs(sum(x) / 6 - sum(y) / 6) > observed + 1e-12
    assert exceed == 6  # 6 of the 64 patterns differ more than observed (the observed pattern and its mirror do not)
    exact = exceed / 64
    got = paired_approximate_randomization(_mean_rows(a), _mean_rows(b), _mean_from_sums, 100_000, 3)["p_value"]
    assert abs(got - exact) < 0.01


def test_identical_systems_get_the_smallest_p_and_the_test_is_symmetric():
    rng = np.random.default_rng(0)
    v = rng.random(50)
    w = rng.random(50)
    same = paired_approximate_randomization(_mean_rows(v), _mean_rows(v), _mean_from_sums, 999, 1)
    assert same["delta"] == 0.0 and same["p_value"] == 1 / 1000
    ab = paired_approximate_randomization(_mean_rows(v), _mean_rows(w), _mean_from_sums, 999, 1)
    ba = paired_approximate_randomization(_mean_rows(w), _mean_rows(v), _mean_from_sums, 999, 1)
    assert ab["p_value"] == ba["p_value"] and ab["delta"] == -ba["delta"]
    assert ab["n_trials"] == 999 and ab["seed"] == 1 and ab["test"] == "ar"


def test_p_value_from_trials_is_sacrebleus():
    from sacrebleu.significance import _compute_p_value

    t = np.array([0.1, 0.5, 0.5, 0.7, 0.0])
    for obs in (0.0, 0.5, 0.6, 1.0):
        # by hand: strictly larger, +1 on both sides
        assert p_value_from_trials(t, obs) == (sum(x > obs for x in t) + 1) / 6 == _compute_p_value(t, obs)
    with pytest.raises(ValueError, match="at least one trial"):
        p_value_from_trials([], 0.0)


def test_bad_inputs_name_the_argument():
    r = _mean_rows([0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match=r"rows_a has 3 items, rows_b has 2"):
        paired_approximate_randomization(r, r[:2], _mean_from_sums, 10)
    for bad in (0, -1, 100_001):
        with pytest.raises(ValueError, match="n_trials must be an int from 1"):
            paired_approximate_randomization(r, r, _mean_from_sums, bad)
    for bad in (True, 10.0, "10"):
        with pytest.raises(TypeError, match="n_trials"):
            paired_approximate_randomization(r, r, _mean_from_sums, bad)
    with pytest.raises(ValueError, match="seed"):
        paired_approximate_randomization(r, r, _mean_from_sums, 10, -1)
    with pytest.raises(ValueError, match="at least one item"):
        paired_approximate_randomization(np.zeros((0, 2)), np.zeros((0, 2)), _mean_from_sums, 10)
    with pytest.raises(ValueError, match="same statistics columns"):
        paired_approximate_randomization(r, np.ones((3, 3)), _mean_from_sums, 10)
    assert AR_DEFAULT_TRIALS == 10_000
