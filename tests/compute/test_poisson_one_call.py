"""``bootstrap_method`` is one interval option (a field of ``IntervalOptions``): compute_rouge / compute_bleu /
compute_chrf take it by name and give the Poisson interval of zheval.score (and so of score_batches and the engines)
on the same items -- on an embedded sample and on the shared real data; the intervals are recomputed by hand from
the documented weights (numpy for ROUGE's and a sentence level's weighted means, sacrebleu 2.6.0's own
``compute_bleu`` / ``CHRF._compute_score_from_stats`` for the summed statistics); the combinations that cannot use
it are refused naming the alternative."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF

import zheval
from zheval.compute.bleu import BleuOptions, bleu_config, bleu_items
from zheval.compute.chrf import ChrfOptions, chrf_config, chrf_items
from zheval.compute.inputs import validate_inputs
from zheval.compute.joint import score_config
from zheval.compute.options import RougeOptions
from zheval.results.poisson import item_keys, poisson_weights

#: A small embedded sample (no shared data needed): 12 items, two with two references.
PREDS = ["今天天气很好，我们去公园吧。", "模型的回答基本正确。", "请在三天内办理退货。", "他明天要去北京开会。",
         "这家餐厅的菜很好吃。", "会议推迟到下周一。", "我不同意这个方案。", "价格比上个月便宜了。",
         "快递已经送到楼下了。", "孩子们在操场上踢球。", "这本书讲的是历史。", "火车晚点了半个小时。"]
REFS = ["今天天气不错，去公园走走吧。", ["模型的回答正确。", "回答基本上是对的。"], "三天之内可以办理退货。",
        "他明天去北京参加会议。", "这家饭店的菜非常好吃。", ["会议改到下周一了。", "会议延期到下周一。"],
        "我不赞成这个方案。", "价格比上月便宜。", "快递到楼下了。", "孩子们正在操场踢足球。", "这本书讲历史。",
        "火车晚了半小时。"]

COMPUTE = {"rouge": zheval.compute_rouge, "bleu": zheval.compute_bleu, "chrf": zheval.compute_chrf}


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _weights(preds, refs, seed, n):
    canon_preds, canon_refs = validate_inputs(preds, refs)
    return poisson_weights(item_keys(canon_preds, canon_refs), seed, n).astype(np.float64)


def _percentile(stats, confidence=0.95):
    alpha = (1 - confidence) / 2
    return tuple(np.percentile(np.asarray(stats, dtype=np.float64), [100 * alpha, 100 * (1 - alpha)]))


def _same_as_score(preds, refs, seed, n, **options):
    """Each compute_* call == its metric in zheval.score alone and in one call of the three (shared weights)."""
    together = _quiet(zheval.score, preds, refs, list(COMPUTE), bootstrap=n, seed=seed, bootstrap_method="poisson",
                      **options)
    for metric, fn in COMPUTE.items():
        # chrF (no word n-grams) takes no jieba: its characters are char's (break-it pass 5 F4); score gives it char
        mine = {k: v for k, v in options.items() if (k != "level" or metric != "rouge")
                and (k != "tokenizer" or metric != "chrf")}
        one = _quiet(fn, preds, refs, bootstrap=n, seed=seed, bootstrap_method="poisson", **mine)
        assert one == _quiet(zheval.score, preds, refs, [metric], bootstrap=n, seed=seed,
                             bootstrap_method="poisson", **mine)[metric]
        if mine == options or metric == "chrf":
            assert one == together[metric]
        assert "|bsmethod:poisson|" in one["signature"]
    return together


def _hand_intervals(preds, refs, seed, n, **options):
    """ROUGE-L, BLEU and chrF intervals from the weights by hand: per-item values from zheval, the resample
    statistics from numpy (weighted means) and sacrebleu (summed statistics)."""
    w = _weights(preds, refs, seed, n)
    f = np.asarray(_quiet(zheval.compute_rouge, preds, refs, rouge_types=["rougeL"], use_aggregator=False,
                          **{k: v for k, v in options.items() if k == "tokenizer"})["rougeL"])
    out = {"rougeL": _percentile((w @ f) / w.sum(axis=1))}
    canon = validate_inputs(preds, refs)
    bleu_stats = bleu_items(*canon, bleu_config(BleuOptions(**options))).stats.astype(np.int64)
    chrf_options = {k: v for k, v in options.items() if k != "tokenizer"}  # chrF's characters: char's
    chrf_stats = chrf_items(*canon, chrf_config(ChrfOptions(**chrf_options))).stats.astype(np.int64)
    if options.get("level") == "sentence":
        for metric, fn in (("bleu", zheval.compute_bleu), ("chrf", zheval.compute_chrf)):
            s = np.asarray(_quiet(fn, preds, refs, **(options if metric == "bleu" else chrf_options))["scores"])
            out[metric] = _percentile((w @ s) / w.sum(axis=1))
        return out
    ints = w.astype(np.int64)
    bleu_rows = ints @ bleu_stats
    out["bleu"] = _percentile([BLEU.compute_bleu(list(r[3:7]), list(r[7:11]), int(r[0]), int(r[1]),
                                                 smooth_method="exp").score / 100 for r in bleu_rows])
    chrf = CHRF()
    out["chrf"] = _percentile([chrf._compute_score_from_stats(list(r)).score / 100 for r in ints @ chrf_stats])
    return out


def _check_hand(got, hand):
    assert (got["rouge"]["rougeL_ci_low"], got["rouge"]["rougeL_ci_high"]) == pytest.approx(hand["rougeL"], abs=1e-12)
    for metric in ("bleu", "chrf"):
        assert (got[metric][f"{metric}_ci_low"], got[metric][f"{metric}_ci_high"]) == pytest.approx(hand[metric],
                                                                                                   abs=1e-9)


@pytest.mark.parametrize("options", [{}, {"level": "sentence"}], ids=["corpus", "sentence"])
def test_each_metric_takes_the_poisson_bootstrap_on_an_embedded_sample(options):
    got = _same_as_score(PREDS, REFS, 21, 300, **options)
    _check_hand(got, _hand_intervals(PREDS, REFS, 21, 300, **options))
    # every number but the interval is the multinomial call's; the interval is another one
    multinomial = _quiet(zheval.compute_bleu, PREDS, REFS, bootstrap=300, seed=21, **options)
    same = {k: v for k, v in multinomial.items() if "_ci_" not in k and k != "signature"}
    assert {k: got["bleu"][k] for k in same} == same
    assert (got["bleu"]["bleu_ci_low"], got["bleu"]["bleu_ci_high"]) != (multinomial["bleu_ci_low"],
                                                                         multinomial["bleu_ci_high"])
    assert "bsmethod" not in multinomial["signature"]


@pytest.mark.parametrize("options", [{}, {"tokenizer": "jieba"}, {"level": "sentence"}],
                         ids=["char", "jieba", "sentence"])
def test_each_metric_takes_the_poisson_bootstrap_on_the_shared_data(csl_rows, crosswoz_single, options):
    preds = [r["summary"] for r in csl_rows[:300]] + [r["query"] for r in crosswoz_single[:300]]
    refs = [[r["document"][:60]] for r in csl_rows[:300]] + [r["responses"] for r in crosswoz_single[:300]]
    got = _same_as_score(preds, refs, 5, 200, **options)
    _check_hand(got, _hand_intervals(preds, refs, 5, 200, **options))
    # == the streamed sums of 7 batches (the engines' reduction), at corpus level
    if options.get("level") != "sentence":
        batches = [(preds[i:i + 90], refs[i:i + 90]) for i in range(0, len(preds), 90)]
        assert _quiet(zheval.score_batches, batches, list(COMPUTE), bootstrap=200, seed=5, bootstrap_method="poisson",
                      progress=False, **options) == got


def test_the_option_is_one_definition_and_typed_objects_carry_it():
    with pytest.raises(ValueError, match="unknown bootstrap_method 'bayes'; valid values: multinomial, poisson"):
        RougeOptions(bootstrap_method="bayes")
    for fn in COMPUTE.values():
        with pytest.raises(ValueError, match="unknown bootstrap_method 'bayes'"):
            fn(PREDS, REFS, bootstrap=10, bootstrap_method="bayes")
    by_object = _quiet(zheval.score, PREDS, REFS, ["rouge"], rouge=RougeOptions(bootstrap=100, seed=2,
                                                                                 bootstrap_method="poisson"))
    assert by_object["rouge"] == _quiet(zheval.compute_rouge, PREDS, REFS, bootstrap=100, seed=2,
                                        bootstrap_method="poisson")
    # without a bootstrap it would change nothing: refused (break-it pass 5 F7)
    with pytest.raises(ValueError, match="compute_chrf: bootstrap_method sets the bootstrap interval"):
        _quiet(zheval.compute_chrf, PREDS, REFS, bootstrap_method="poisson")
    # one item: no interval, said so, with either method
    one = _quiet(zheval.compute_bleu, PREDS[:1], REFS[:1], bootstrap=10, bootstrap_method="poisson")
    assert "no_interval" in one and "bleu_ci_low" not in one


def test_what_cannot_use_it_is_refused_naming_the_alternative():
    for fn in (zheval.compute_rouge, zheval.compute_bleu):
        with pytest.raises(ValueError, match="crosscheck=True.*bootstrap_method='multinomial' with crosscheck"):
            fn(PREDS, REFS, bootstrap=10, crosscheck=True, bootstrap_method="poisson")
    with pytest.raises(ValueError, match="crosscheck"):
        zheval.score(PREDS, REFS, ["rouge"], bootstrap=10, crosscheck=True, bootstrap_method="poisson")
    with pytest.raises(ValueError, match="use use_aggregator=True"):
        zheval.compute_rouge(PREDS, REFS, bootstrap=10, use_aggregator=False, bootstrap_method="poisson")
    # a stream shares one set of weights: metrics of different bootstrap values are refused, naming the fix
    with pytest.raises(ValueError, match="same bootstrap and seed"):
        zheval.score_batches([(PREDS, REFS)], ["rouge", "bleu"], rouge=RougeOptions(bootstrap=10,
                             bootstrap_method="poisson"), bleu=BleuOptions(bootstrap=20, bootstrap_method="poisson"),
                             progress=False)
    # an engine door that gathers every item cannot key them: the multinomial default there
    from zheval.adapters.engine_sums import reducible

    config = score_config(["bleu"], level="sentence", bootstrap=10, bootstrap_method="poisson")
    with pytest.raises(ValueError, match="use the multinomial default"):
        reducible(config, True, "engine")
    assert reducible(score_config(["bleu"], bootstrap=10, bootstrap_method="poisson"), False, "engine") is True


def test_the_evaluate_module_forwards_it():
    import evaluate
    from helpers import REPO

    module = evaluate.load(str(REPO / "metrics" / "chinese_rouge"))
    got = _quiet(module.compute, predictions=PREDS, references=REFS, bootstrap=100, seed=4, bootstrap_method="poisson")
    want = _quiet(zheval.compute_rouge, PREDS, REFS, bootstrap=100, seed=4, bootstrap_method="poisson")
    assert {k: got[k] for k in want} == want
