"""bootstrap / seed / confidence are checked at every entry point with an error that names the option (issue 13,
item 13): not numpy's "SeedSequence expects int or sequence of ints" for seed="a", no endless resampling for a
20-digit bootstrap (bounded by zheval.results.reducers.MAX_BOOTSTRAP_RESAMPLES), a confidence outside (0, 1) even when no
interval is asked for."""

from __future__ import annotations

import math

import evaluate
import numpy as np
import pytest

import zheval
from zheval.compute.bleu import compute_bleu
from zheval.compute.chrf import compute_chrf
from zheval.compute.rouge import compute_rouge
from zheval.results.reducers import MAX_BOOTSTRAP_RESAMPLES, MAX_SEED, bootstrap_interval, paired_bootstrap
from helpers import METRICS

P, R = ["猫坐在垫子上", "今天天气很好"], [["猫趴在垫子上面"], ["今天天气不错"]]


def _modules():
    return {name: evaluate.load(str(METRICS / name)) for name in ("chinese_rouge", "chinese_bleu", "chinese_chrf")}


@pytest.fixture(scope="module")
def calls():
    mods = _modules()
    return {
        "compute_rouge": lambda **kw: compute_rouge(P, R, **kw),
        "compute_bleu": lambda **kw: compute_bleu(P, R, **kw),
        "compute_chrf": lambda **kw: compute_chrf(P, R, **kw),
        "score": lambda **kw: zheval.score(P, R, **kw),
        "chinese_rouge": lambda **kw: mods["chinese_rouge"].compute(predictions=P, references=R, **kw),
        "chinese_bleu": lambda **kw: mods["chinese_bleu"].compute(predictions=P, references=R, **kw),
        "chinese_chrf": lambda **kw: mods["chinese_chrf"].compute(predictions=P, references=R, **kw),
    }


BAD = [
    (dict(seed="a", bootstrap=10), TypeError, r"seed must be an int in \[0, 4294967295\].*got str 'a'"),
    (dict(seed="a"), TypeError, r"seed must be an int"),  # even without an interval
    (dict(seed=1.5, bootstrap=10), TypeError, r"seed must be an int.*got float 1.5"),
    (dict(seed=True, bootstrap=10), TypeError, r"seed must be an int.*got bool"),
    (dict(seed=-5, bootstrap=10), ValueError, r"seed must be an int in \[0, 4294967295\].*got -5"),
    (dict(seed=2**32, bootstrap=10), ValueError, r"seed must be an int in \[0, 4294967295\].*got 4294967296"),
    (dict(bootstrap=10**20), ValueError, r"bootstrap must be 0 \(no interval\) or an int from 2 .* to 100000 "
                                         r".*got 100000000000000000000"),
    (dict(bootstrap=MAX_BOOTSTRAP_RESAMPLES + 1), ValueError, r"bootstrap must be 0 \(no interval\) or an int "
                                                              r"from 2 .* to 100000"),
    (dict(bootstrap=-1), ValueError, r"bootstrap must be 0 \(no interval\) or an int from 2"),
    # one resample has no spread: its "interval" need not even hold the score, and numpy warns (F3)
    (dict(bootstrap=1), ValueError, r"bootstrap must be 0 \(no interval\) or an int from 2 .*got 1; one resample "
                                    r"has no spread"),
    (dict(bootstrap=np.int64(1)), ValueError, r"or an int from 2 .*got (np.int64\()?1\)?; one resample has no spread"),
    (dict(bootstrap=2.0), ValueError, r"bootstrap must be 0 \(no interval\) or an int"),
    (dict(bootstrap="1000"), ValueError, r"bootstrap must be 0 \(no interval\) or an int"),
    (dict(bootstrap=True), ValueError, r"bootstrap must be 0 \(no interval\) or an int"),
    (dict(confidence=1.5), ValueError, r"confidence must be a number in \(0, 1\).*got 1.5"),
    (dict(confidence=0), ValueError, r"confidence must be a number in \(0, 1\)"),
    (dict(confidence=1, bootstrap=10), ValueError, r"confidence must be a number in \(0, 1\)"),
    (dict(confidence=float("nan")), ValueError, r"confidence must be a number in \(0, 1\)"),
    (dict(confidence="0.9"), TypeError, r"confidence must be a number in \(0, 1\).*got str"),
]


@pytest.mark.parametrize("call", ["compute_rouge", "compute_bleu", "compute_chrf", "score", "chinese_rouge",
                                  "chinese_bleu", "chinese_chrf"])
@pytest.mark.parametrize("options, error, message", BAD)
def test_bad_interval_options_name_the_option(calls, call, options, error, message):
    with pytest.raises(error, match=message):
        calls[call](**options)


@pytest.mark.parametrize("call", ["compute_rouge", "compute_bleu", "score", "chinese_rouge", "chinese_bleu"])
def test_the_edges_of_the_ranges_are_accepted(calls, call):
    for options in (dict(seed=0, bootstrap=5), dict(seed=MAX_SEED, bootstrap=5), dict(seed=np.int64(7), bootstrap=5),
                    dict(bootstrap=5, confidence=0.5), dict(bootstrap=np.int32(3), confidence=0.999)):
        assert calls[call](**options)


def test_the_bound_is_documented_and_reused():
    assert MAX_BOOTSTRAP_RESAMPLES == 100_000 and MAX_SEED == 2**32 - 1
    rows = np.arange(10.0)
    # an interval asked for: 0 is no count here, so the rule is stated without it, for 0 and above the maximum alike
    for n in (MAX_BOOTSTRAP_RESAMPLES + 1, 0):
        with pytest.raises(ValueError, match=f"^n_resamples must be an int from 2 .* to 100000 .*, got {n}$"):
            bootstrap_interval(rows, lambda a: a.mean(axis=-1), n_resamples=n)
    with pytest.raises(ValueError, match="got 1; one resample has no spread"):
        bootstrap_interval(rows, lambda a: a.mean(axis=-1), n_resamples=1)
    with pytest.raises(ValueError, match="got 1; one resample has no spread"):
        paired_bootstrap(rows, rows, lambda s: s[:, 0], n_resamples=1)
    with pytest.raises(TypeError, match="seed must be an int"):
        paired_bootstrap(rows, rows, lambda s: s[:, 0], n_resamples=10, seed="x")
    with pytest.raises(ValueError, match="n_resamples must be an int from 2 .* to 100000"):
        paired_bootstrap(rows, rows, lambda s: s[:, 0], n_resamples=10**12)
    # a valid interval still equals its definition: constant rows give a degenerate interval at the value
    low, high = bootstrap_interval(np.full(5, 0.25), lambda a: a.mean(axis=-1), n_resamples=20, seed=MAX_SEED)
    assert math.isclose(low, 0.25) and math.isclose(high, 0.25)


@pytest.mark.parametrize("name", ["chinese_rouge", "chinese_bleu"])
@pytest.mark.parametrize("seed", ["1", 1.5, True, None])
def test_non_int_seed_is_refused_up_front(name, seed):
    # a module refuses it before anything is stored
    m = evaluate.load(str(METRICS / name))
    with pytest.raises(TypeError, match="seed must be an int"):
        m.compute(predictions=["猫"], references=["猫"], seed=seed, bootstrap=5)
    assert len(m) == 0
