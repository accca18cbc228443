"""The report doors check their own numeric arguments (``bootstrap``, ``seed``, ``confidence``, ``max_refs``) with
the checks ``compute_*`` uses (the fields of `zheval.compute.options.IntervalOptions`): ``evaluate_predictions(ds,
preds, bootstrap=10.7)`` ran 10 resamples and wrote ``bs:10`` (``score_records``, ``human_ceiling`` likewise),
``bootstrap=False`` was taken as 0 and ``bootstrap=True`` failed naming 1, while ``compute_rouge`` refuses all of
them. Now refused before the data is read, naming the door, the argument and the value as given."""

from __future__ import annotations

import re

import pytest

import zheval

P, R = ["猫坐在垫子上", "今天天气很好"], [["猫趴在垫子上面"], ["今天天气不错"]]


def _door(name):
    from zheval.adapters.duck.ceiling import human_ceiling
    from zheval.adapters.duck.evaluate import evaluate_predictions, report_config
    from zheval.adapters.records import score_records
    from zheval.adapters.records_stream import score_records_stream

    return {"evaluate_predictions": lambda **o: evaluate_predictions(None, None, **o),
            "report_config": lambda **o: report_config(o),
            "score_records": lambda **o: score_records(None, **o),
            "score_records_stream": lambda **o: score_records_stream(None, **o),
            "human_ceiling": lambda **o: human_ceiling(None, **o)}[name]


DOORS = ("evaluate_predictions", "report_config", "score_records", "score_records_stream", "human_ceiling")
BAD = [({"bootstrap": 10.7}, ValueError, "bootstrap must be 0 (no interval) or an int", "got 10.7"),
       ({"bootstrap": 10.0}, ValueError, "bootstrap must be 0 (no interval) or an int", "got 10.0"),
       ({"bootstrap": True}, ValueError, "bootstrap must be 0 (no interval) or an int", "got True"),
       ({"bootstrap": False}, ValueError, "bootstrap must be 0 (no interval) or an int", "got False"),
       ({"seed": 7.5}, TypeError, "seed must be an int", "got float 7.5"),
       ({"seed": True}, TypeError, "seed must be an int", "got bool True"),
       ({"confidence": True}, TypeError, "confidence must be a number in (0, 1)", "got bool True"),
       ({"max_refs": 2.5}, ValueError, "max_refs must be an int >= 1", "got 2.5"),
       ({"max_refs": True}, ValueError, "max_refs must be an int >= 1", "got True")]


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize("given, error, rule, value", BAD, ids=lambda v: repr(v) if isinstance(v, dict) else None)
def test_report_doors_refuse_what_compute_refuses(door, given, error, rule, value):
    if "max_refs" in given and door == "score_records_stream":
        pytest.skip("the streamed report has no max_refs")
    name = "evaluate_predictions" if door == "report_config" else door
    with pytest.raises(error, match=rf"^{name}: {re.escape(rule)}.*{re.escape(value)}"):
        _door(door)(**given)
    # the same value is refused by compute_rouge with the same rule (one checker)
    with pytest.raises(error, match=re.escape(rule)):
        zheval.compute_rouge(P, R, **given)


def test_a_valid_report_still_runs_with_integral_numpy_values():
    import numpy as np
    from zheval.adapters.duck import load_duck, sample_files
    from zheval.adapters.duck.evaluate import evaluate_predictions

    with sample_files() as files:
        report = evaluate_predictions(load_duck(files["data"]), files["predictions"], bootstrap=np.int64(10),
                                      seed=np.int32(3), max_refs=np.int64(2), by=())
    assert "|bs:10|seed:3|" in report.signatures["bleu"] and "maxrefs:2" in report.signatures["bleu"]
