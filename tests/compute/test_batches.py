"""zheval.compute.batches.score_batches: == zheval.score on the shared real data for any batching, groups, the
Poisson bootstrap identical for any batching, per-item scores written as computed, errors named over all batches,
and the options that need every item refused with their alternative."""

from __future__ import annotations

import json

import numpy as np
import pytest

import zheval
from helpers import crosswoz_items
from zheval.compute.batches import score_batches
from zheval.compute.joint import item_scores, score_config, score_items
from zheval.compute.inputs import EmptyReferenceError


@pytest.fixture(scope="module")
def corpus(csl_rows, crosswoz_groups, crosswoz_single):
    preds, refs = crosswoz_items(crosswoz_groups)
    preds += [r["summary"] for r in csl_rows[:300]]
    refs += [r["document"][:80] for r in csl_rows[:300]]  # a str reference per item
    preds += [r["query"] for r in crosswoz_single[:300]]
    refs += [r["responses"] for r in crosswoz_single[:300]]
    groups = ["groups"] * (len(preds) - 600) + ["csl"] * 300 + ["single"] * 300
    return preds, refs, groups


def _batches(preds, refs, size, groups=None):
    for s in range(0, len(preds), size):
        yield (preds[s:s + size], refs[s:s + size]) + ((groups[s:s + size],) if groups else ())


@pytest.mark.parametrize("size", [1, 37, 500, 100_000])
@pytest.mark.parametrize("metrics,options", [
    (["bleu", "rouge"], {}),
    (["bleu", "rouge", "chrf"], dict(tokenizer="jieba", rouge_types=["rouge1", "rougeL", "rougeLsum"])),
])
def test_equals_score(corpus, size, metrics, options):
    preds, refs, groups = corpus
    if size == 1:
        preds, refs, groups = preds[:120], refs[:120], groups[:120]
    assert score_batches(_batches(preds, refs, size), metrics, progress=False, **options) == \
        zheval.score(preds, refs, metrics, **options)
    got = score_batches(_batches(preds, refs, size, groups), metrics, progress=False, **options)
    for g in dict.fromkeys(groups):
        idx = [i for i, x in enumerate(groups) if x == g]
        assert got["groups"][g] == zheval.score([preds[i] for i in idx], [refs[i] for i in idx], metrics, **options)
    assert list(got["groups"]) == list(dict.fromkeys(groups))


def test_poisson_bootstrap_is_the_same_for_any_batching(corpus):
    preds, refs, _ = corpus
    runs = [score_batches(_batches(preds, refs, size), ["bleu", "rouge", "chrf"], bootstrap=300, seed=9,
                          bootstrap_method="poisson", progress=False) for size in (len(preds), 64, 7)]
    assert runs[0] == runs[1] == runs[2]
    plain = zheval.score(preds, refs, ["bleu", "rouge", "chrf"])
    assert runs[0]["bleu"]["bleu"] == plain["bleu"]["bleu"] and runs[0]["rouge"]["rougeL"] == plain["rouge"]["rougeL"]


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_per_item_scores_are_written_as_computed(corpus, tmp_path, suffix):
    preds, refs, groups = corpus
    path = tmp_path / f"items{suffix}"
    score_batches(_batches(preds[:200], refs[:200], 64, groups[:200]), ["bleu", "rouge", "chrf"], items_path=path,
                  progress=False)
    config = score_config(["bleu", "rouge", "chrf"])
    want = item_scores(score_items(preds[:200], refs[:200], config, warn=False), config)
    if suffix == ".jsonl":
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    else:
        import pyarrow.parquet as pq

        rows = pq.read_table(path).to_pylist()
    assert [r["index"] for r in rows] == list(range(200)) and [r["group"] for r in rows] == groups[:200]
    for col, values in want.items():
        assert [r[col] for r in rows] == values.tolist()
    with pytest.raises(ValueError, match="exists"):
        score_batches(_batches(preds[:5], refs[:5], 5), items_path=path, progress=False)


@pytest.mark.parametrize("options,named", [
    (dict(use_aggregator=False), "use_aggregator=False"),
    (dict(level="sentence"), "level='sentence'"),
    (dict(preset="longbench", rouge_types=["rougeL"]), "preset='longbench'"),
    (dict(bootstrap=100), "bootstrap_method='poisson'"),
])
def test_what_needs_every_item_is_refused_naming_the_alternative(options, named):
    with pytest.raises(ValueError, match="score_batches keeps sums, not items") as e:
        score_batches([(["今天"], ["今天好"])], ["rouge"] if "preset" in options else ["bleu", "rouge"],
                      progress=False, **options)
    assert named in str(e.value)


def test_bad_items_are_named_over_all_batches():
    batches = [(["今天好"] * 10, ["今天好"] * 10), (["今天好", None], ["a", "b"])]
    with pytest.raises(TypeError, match=r"predictions\[11\]"):
        score_batches(batches, progress=False)
    with pytest.raises(EmptyReferenceError, match=r"references\[12\]\[0\]"):
        score_batches([(["a"] * 10, ["a"] * 10), (["a", "b", "c"], ["a", "b", "  "])], progress=False)
    with pytest.raises(ValueError, match="no items to score"):
        score_batches([([], [])], progress=False)
    with pytest.raises(ValueError, match="unknown bootstrap_method 'bayes'; valid values: multinomial, poisson"):
        score_batches([], bootstrap_method="bayes")


def test_one_process_poisson_equals_score_batches(corpus):
    """score_result of the Poisson config on the whole list in one process == score_batches of 97-row batches."""
    from zheval.compute.joint import score_result
    from zheval.results.poisson import item_keys

    preds, refs, _ = corpus
    config = score_config(["bleu", "rouge", "chrf"], bootstrap=300, seed=9, bootstrap_method="poisson")
    canon = [[r] if isinstance(r, str) else list(r) for r in refs]
    one = score_result(score_items(preds, refs, config, warn=False), config, keys=item_keys(preds, canon))
    assert one == score_batches(_batches(preds, refs, 97), ["bleu", "rouge", "chrf"], bootstrap_method="poisson",
                                progress=False, bootstrap=300, seed=9)
    assert "bsmethod:poisson" in one["rouge"]["signature"]


def test_score_takes_the_poisson_bootstrap_by_name(corpus):
    """zheval.score(bootstrap_method="poisson") == score_batches of 97-row batches (the engines' intervals); every
    number but the intervals == the multinomial call; the ROUGE-L interval recomputed by hand from the weights."""
    from zheval.compute.inputs import validate_inputs
    from zheval.results.poisson import item_keys, poisson_weights

    preds, refs, _ = corpus
    metrics = ["bleu", "rouge", "chrf"]
    got = zheval.score(preds, refs, metrics, bootstrap=200, seed=9, bootstrap_method="poisson")
    assert got == score_batches(_batches(preds, refs, 97), metrics, bootstrap_method="poisson", progress=False,
                                bootstrap=200, seed=9)
    multinomial = zheval.score(preds, refs, metrics, bootstrap=200, seed=9)
    for m, result in got.items():
        assert "bsmethod:poisson" in result["signature"] and "bsmethod" not in multinomial[m]["signature"]
        same = {k: v for k, v in result.items() if "_ci_" not in k and k != "signature"}
        assert same == {k: v for k, v in multinomial[m].items() if "_ci_" not in k and k != "signature"}
    # by hand: each resample's ROUGE-L is the weighted mean of the per-item F; the percentile interval of those
    canon_preds, canon_refs = validate_inputs(preds, refs)
    f = np.asarray(zheval.compute_rouge(preds, refs, rouge_types=["rougeL"], use_aggregator=False)["rougeL"])
    w = poisson_weights(item_keys(canon_preds, canon_refs), 9, 200).astype(np.float64)
    means = (w @ f) / w.sum(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    assert got["rouge"]["rougeL_ci_low"] == pytest.approx(low, abs=1e-12)
    assert got["rouge"]["rougeL_ci_high"] == pytest.approx(high, abs=1e-12)
    # without bootstrap the method would change nothing: refused (break-it pass 5 F7), as bad values and the
    # cross-check are
    with pytest.raises(ValueError, match="score: bootstrap_method sets the bootstrap interval, and bootstrap is 0"):
        zheval.score(preds[:50], refs[:50], bootstrap_method="poisson")
    with pytest.raises(ValueError, match="unknown bootstrap_method 'bayes'; valid values: multinomial, poisson"):
        zheval.score(preds[:5], refs[:5], bootstrap_method="bayes")
    with pytest.raises(ValueError, match="crosscheck"):
        zheval.score(preds[:5], refs[:5], ["rouge"], bootstrap=10, crosscheck=True, bootstrap_method="poisson")


def test_progress_bar_counts_rows_and_rate(capsys):
    """progress=True: a bar on stderr naming the rows done and the rows per second (tqdm), the scores unchanged;
    progress=False: nothing on stderr."""
    import re

    preds, refs = ["今天天气很好", "我想订机票", "谢谢"] * 4, [["今天天气不错"], ["帮我订机票"], ["谢谢你"]] * 4
    with_bar = score_batches(_batches(preds, refs, 5), progress=True, bootstrap=0)
    err = capsys.readouterr().err
    assert "zheval score" in err and re.search(r"\b12(\.0)? rows\b", err) and re.search(r"rows/s", err), err
    assert score_batches(_batches(preds, refs, 5), progress=False, bootstrap=0) == with_bar
    assert capsys.readouterr().err == ""
