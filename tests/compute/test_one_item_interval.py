"""One rule for an interval of one item (issue 35, break-it F9): resampling one item always returns it, so its
"interval" would be the score twice, which reads as certainty. Every library door gives no interval keys for fewer
than 2 items and says why in ``no_interval``, with the words the CLI prints (``n=1: ...``); two items get an
interval. The texts and the expected reason are written out here."""

from __future__ import annotations

import evaluate
import pytest

import zheval
from zheval.compute.batches import score_batches
from zheval.compute.bleu import compute_bleu
from zheval.compute.chrf import compute_chrf
from zheval.compute.rouge import compute_rouge
from helpers import METRICS

WHY = "n=1: a bootstrap interval needs at least 2 items (resampling one item always returns it)"
P1, R1 = ["猫坐在垫子上"], [["猫趴在垫子上面"]]
P2, R2 = ["猫坐在垫子上", "今天天气很好"], [["猫趴在垫子上面"], ["今天天气不错"]]


def _no_interval(result: dict, keys) -> None:
    assert result["no_interval"] == WHY
    assert not [k for k in result if k.endswith(("_ci_low", "_ci_high"))]
    for k in keys:
        assert isinstance(result[k], float)


def _doors(p, r):
    mods = {m: evaluate.load(str(METRICS / m)) for m in ("chinese_rouge", "chinese_bleu", "chinese_chrf")}
    return {
        "compute_rouge": (lambda: compute_rouge(p, r, bootstrap=20), ["rouge1", "rougeL"]),
        "compute_bleu": (lambda: compute_bleu(p, r, bootstrap=20), ["bleu"]),
        "compute_bleu sentence": (lambda: compute_bleu(p, r, bootstrap=20, level="sentence"), ["bleu"]),
        "compute_chrf": (lambda: compute_chrf(p, r, bootstrap=20), ["chrf"]),
        "compute_chrf sentence": (lambda: compute_chrf(p, r, bootstrap=20, level="sentence"), ["chrf"]),
        "chinese_rouge": (lambda: mods["chinese_rouge"].compute(predictions=p, references=r, bootstrap=20),
                          ["rouge1"]),
        "chinese_bleu": (lambda: mods["chinese_bleu"].compute(predictions=p, references=r, bootstrap=20), ["bleu"]),
        "chinese_chrf": (lambda: mods["chinese_chrf"].compute(predictions=p, references=r, bootstrap=20), ["chrf"]),
    }


@pytest.mark.parametrize("door", ["compute_rouge", "compute_bleu", "compute_bleu sentence", "compute_chrf",
                                  "compute_chrf sentence", "chinese_rouge", "chinese_bleu", "chinese_chrf"])
def test_one_item_has_no_interval_and_says_why(door):
    call, keys = _doors(P1, R1)[door]
    _no_interval(call(), keys)
    call, keys = _doors(P2, R2)[door]
    two = call()
    assert "no_interval" not in two
    for k in keys:
        assert two[f"{k}_ci_low"] <= two[f"{k}_ci_high"]


@pytest.mark.parametrize("method", ["multinomial", "poisson"])
def test_score_and_score_batches_follow_the_same_rule(method):
    outs = [zheval.score(P1, R1, ["rouge", "bleu", "chrf"], bootstrap=20, bootstrap_method=method)]
    if method == "poisson":  # score_batches keeps sums: Poisson only
        outs.append(score_batches([(P1, R1)], ["rouge", "bleu", "chrf"], bootstrap=20, bootstrap_method=method))
    for out in outs:
        _no_interval(out["rouge"], ["rouge1"])
        _no_interval(out["bleu"], ["bleu"])
        _no_interval(out["chrf"], ["chrf"])
    two = zheval.score(P2, R2, ["rouge", "bleu"], bootstrap=20, bootstrap_method=method)
    assert "no_interval" not in two["bleu"] and two["bleu"]["bleu_ci_low"] <= two["bleu"]["bleu_ci_high"]


def test_without_a_bootstrap_there_is_nothing_to_explain():
    assert "no_interval" not in compute_bleu(P1, R1) and "no_interval" not in compute_rouge(P1, R1)
