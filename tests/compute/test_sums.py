"""Results from partial sums (zheval.compute.sums) == zheval.score on the shared real data, for 1, 2, 8 and 64
batches in shuffled batch orders; the Poisson bootstrap identical across partitionings and item orders, printed
beside the multinomial default."""

from __future__ import annotations

import numpy as np
import pytest

import zheval
from helpers import crosswoz_items
from zheval.compute.joint import score_config, score_items
from zheval.compute.sums import batch_sums, needs_every_item, sums_result
from zheval.results.partial_sums import merge_groups
from zheval.results.poisson import POISSON_CDF, item_keys, poisson_weights

PARTITIONS = (1, 2, 8, 64)


@pytest.fixture(scope="module")
def real_items(csl_rows, crosswoz_groups, crosswoz_single):
    preds, refs = crosswoz_items(crosswoz_groups)
    preds += [r["summary"] for r in csl_rows[:400]]
    refs += [[r["document"][:60]] for r in csl_rows[:400]]
    preds += [r["query"] for r in crosswoz_single[:600]]
    refs += [r["responses"] for r in crosswoz_single[:600]]
    groups = ["crosswoz-groups"] * (len(preds) - 1000) + ["csl"] * 400 + ["crosswoz-single"] * 600
    return preds, refs, groups


def _reduce(preds, refs, config, parts, seed, groups=None, bootstrap=False):
    """Sums of `parts` batches, merged in a shuffled order."""
    rng = np.random.default_rng(seed)
    bounds = np.array_split(np.arange(len(preds)), parts)
    pieces = []
    for idx in bounds:
        p = [preds[i] for i in idx]
        r = [refs[i] for i in idx]
        items = score_items(p, r, config, warn=False)
        keys = item_keys(p, [[x] if isinstance(x, str) else list(x) for x in r]) if bootstrap else None
        pieces.append(batch_sums(items, config, keys=keys, groups=[groups[i] for i in idx] if groups else None))
    order = rng.permutation(len(pieces))
    merged = {}
    for k in order:
        merged = merge_groups(merged, pieces[k])
    return merged


OPTION_SETS = [
    dict(metrics=["bleu", "rouge", "chrf"]),
    dict(metrics=["bleu", "rouge"], tokenizer="jieba", return_precision_recall=True),
    dict(metrics=["rouge"], rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeSU4"]),
    dict(metrics=["bleu", "chrf"], tokenizer="char", max_order=2, word_order=2, smooth_method="floor"),
    dict(metrics=["bleu", "rouge"], max_refs=1, beta=2.0),
    dict(metrics=["rouge"], multi_ref="pool", rouge_types=["rouge1", "rougeW", "rougeSU4"]),  # rouge155's rule
    dict(metrics=["bleu"], preset="sacrebleu-zh"),
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("parts", PARTITIONS)
def test_sums_result_equals_score(real_items, options, parts):
    preds, refs, groups = real_items
    options = dict(options)
    metrics = options.pop("metrics")
    config = score_config(metrics, **options)
    assert needs_every_item(config) is None
    want = zheval.score(preds, refs, metrics, **options)
    merged = _reduce(preds, refs, config, parts, parts)
    assert sums_result(merged[None], config) == want
    by_group = _reduce(preds, refs, config, parts, parts + 1, groups=groups)
    for g in ("csl", "crosswoz-single", "crosswoz-groups"):
        idx = [i for i, x in enumerate(groups) if x == g]
        assert sums_result(by_group[g], config) == zheval.score([preds[i] for i in idx], [refs[i] for i in idx],
                                                                metrics, **options), g


@pytest.mark.parametrize("options,named", [
    (dict(use_aggregator=False), "use_aggregator=False"),
    (dict(level="sentence"), "level='sentence'"),
    (dict(preset="llamafactory"), "preset='llamafactory'"),
    (dict(bootstrap=100), "bootstrap_method='poisson'"),
])
def test_what_needs_every_item_is_named(options, named):
    if options.get("preset") == "llamafactory":  # rouge155 (ROUGE only) adds the script's bootstrap average too
        assert "preset='rouge155'" in needs_every_item(score_config(["rouge"], preset="rouge155"))
    config = score_config(["bleu", "rouge"], **options)
    assert named in needs_every_item(config)
    if "bootstrap" in options:
        assert needs_every_item(score_config(["bleu", "rouge"], bootstrap_method="poisson", **options)) is None
        return
    with pytest.raises(ValueError, match="cannot be reduced from sums"):
        sums_result(batch_sums(score_items(["今天"], ["今天好"], config, warn=False), config,
                               keys=np.zeros(1, np.uint64))[None], config)


def test_poisson_weights_are_a_function_of_seed_key_and_resample():
    keys = np.array([1, 2, 3, 2**63 + 5], dtype=np.uint64)
    w = poisson_weights(keys, 7, 50)
    assert w.shape == (50, 4)
    assert np.array_equal(poisson_weights(keys[::-1], 7, 50), w[:, ::-1])
    assert np.array_equal(poisson_weights(keys[2:], 7, 50), w[:, 2:])
    assert not np.array_equal(poisson_weights(keys, 8, 50), w)


def test_poisson_weights_follow_poisson_1():
    """The inverse-CDF draws against Poisson(1)'s own probabilities e^-1 / k! (scipy.stats.poisson as the
    independent reference) on 2 million draws: every frequency within 5 standard errors."""
    from scipy.stats import poisson

    w = poisson_weights(np.arange(20_000, dtype=np.uint64), 12345, 100).ravel()
    n = w.size
    for k in range(6):
        p = poisson.pmf(k, 1.0)
        assert abs((w == k).sum() / n - p) < 5 * np.sqrt(p * (1 - p) / n), k
    assert abs(w.mean() - 1.0) < 5 * np.sqrt(1.0 / n)
    assert POISSON_CDF[-1] == 1.0 and abs(POISSON_CDF[0] - np.exp(-1)) < 1e-16


@pytest.mark.parametrize("parts", PARTITIONS)
def test_poisson_intervals_identical_across_partitions_and_orders(real_items, parts):
    preds, refs, _ = real_items
    config = score_config(["bleu", "rouge", "chrf"], bootstrap=200, seed=3, bootstrap_method="poisson")
    whole = sums_result(_reduce(preds, refs, config, 1, 0, bootstrap=True)[None], config)
    rng = np.random.default_rng(parts)
    perm = rng.permutation(len(preds))
    shuffled = sums_result(_reduce([preds[i] for i in perm], [refs[i] for i in perm], config, parts, parts,
                                   bootstrap=True)[None], config)
    assert shuffled == whole
    assert whole["rouge"]["rougeL_ci_low"] < whole["rouge"]["rougeL"] < whole["rouge"]["rougeL_ci_high"]


def test_poisson_and_multinomial_intervals_side_by_side(real_items, capsys):
    """Both methods on the shared data (1000 resamples): printed side by side; the Poisson interval's ends are within
    a fifth of the multinomial interval's width of the multinomial ones (both estimate the same sampling spread)."""
    preds, refs, groups = real_items
    lines = [f"{'data':16} {'metric':7} {'score':>8} {'multinomial 95%':>21} {'poisson 95%':>21}"]
    for g in ("csl", "crosswoz-single", "crosswoz-groups"):
        idx = [i for i, x in enumerate(groups) if x == g]
        p, r = [preds[i] for i in idx], [refs[i] for i in idx]
        multi = zheval.score(p, r, ["bleu", "rouge", "chrf"], bootstrap=1000, seed=1)
        config = score_config(["bleu", "rouge", "chrf"], bootstrap=1000, seed=1, bootstrap_method="poisson")
        pois = sums_result(_reduce(p, r, config, 4, 0, bootstrap=True)[None], config)
        for metric, key in (("bleu", "bleu"), ("rouge", "rougeL"), ("chrf", "chrf")):
            m, q = multi[metric], pois[metric]
            assert m[key] == q[key]
            width = m[f"{key}_ci_high"] - m[f"{key}_ci_low"]
            assert abs(q[f"{key}_ci_low"] - m[f"{key}_ci_low"]) < width / 5, (g, key)
            assert abs(q[f"{key}_ci_high"] - m[f"{key}_ci_high"]) < width / 5, (g, key)
            lines.append(f"{g:16} {key:7} {m[key]:8.4f} [{m[f'{key}_ci_low']:8.4f}, {m[f'{key}_ci_high']:8.4f}] "
                         f"[{q[f'{key}_ci_low']:8.4f}, {q[f'{key}_ci_high']:8.4f}]")
    with capsys.disabled():
        print("\n" + "\n".join(lines))


def test_a_poisson_interval_says_so_in_the_signature():
    config = score_config(["bleu", "rouge", "chrf"], bootstrap=50, seed=4, bootstrap_method="poisson")
    items = score_items(["今天天气很好", "明天下雨"], [["今天天气不错"], ["明天会下雨"]], config, warn=False)
    got = sums_result(batch_sums(items, config, keys=item_keys(["今天天气很好", "明天下雨"],
                                                                [["今天天气不错"], ["明天会下雨"]]))[None], config)
    for metric in ("bleu", "rouge", "chrf"):
        assert "|bs:50|seed:4|bsmethod:poisson|" in got[metric]["signature"]
    plain = sums_result(batch_sums(items, score_config(["rouge"]))[None], score_config(["rouge"]))
    assert "bsmethod" not in plain["rouge"]["signature"]


@pytest.mark.parametrize("options", [dict(metrics=["bleu", "rouge", "chrf"]),
                                     dict(metrics=["bleu", "rouge"], tokenizer="jieba", return_precision_recall=True)])
def test_one_process_poisson_result_equals_the_sums_for_any_batching(real_items, options):
    """score_result of the Poisson config on all the items (one process) == the reduced sums of 1, 8 and 64 shuffled
    batches: the same numbers, the same intervals, the same signature."""
    from zheval.compute.joint import score_result

    preds, refs, _ = real_items
    options = dict(options)
    metrics = options.pop("metrics")
    config = score_config(metrics, bootstrap=200, seed=8, bootstrap_method="poisson", **options)
    canon = [[r] if isinstance(r, str) else list(r) for r in refs]
    one = score_result(score_items(preds, refs, config, warn=False), config, keys=item_keys(preds, canon))
    for parts in (1, 8, 64):
        assert sums_result(_reduce(preds, refs, config, parts, parts, bootstrap=True)[None], config) == one
    assert list(one["rouge"]) == list(zheval.score(preds, refs, metrics, bootstrap=200, seed=8, **options)["rouge"])


def test_one_process_poisson_result_for_presets_and_sentence_level(real_items):
    """What the sums cannot give (a preset's own numbers, sentence-level lists) one process still can: the numbers
    are zheval.score's, the intervals Poisson's."""
    from zheval.compute.joint import score_result

    preds, refs, _ = real_items
    canon = [[r] if isinstance(r, str) else list(r) for r in refs]
    for metrics, options in ((["bleu", "rouge"], dict(preset="llamafactory")), (["bleu", "chrf"], dict(level="sentence"))):
        config = score_config(metrics, bootstrap=100, bootstrap_method="poisson", **options)
        got = score_result(score_items(preds, refs, config, warn=False), config, keys=item_keys(preds, canon))
        want = zheval.score(preds, refs, metrics, bootstrap=100, **options)
        for m in metrics:
            assert set(got[m]) == set(want[m])
            same = {k for k in want[m] if "_ci_" not in k and k != "signature"}
            assert {k: got[m][k] for k in same} == {k: want[m][k] for k in same}
            assert "bsmethod:poisson" in got[m]["signature"]
