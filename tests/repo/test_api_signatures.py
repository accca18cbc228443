"""The public API shows its options (DESIGN rule 8): the compute functions' keyword-only parameters are the fields of
their options dataclass (names, types, defaults), and every door that feeds several metrics refuses an unknown option
and an option that no requested metric uses -- checked on the real functions, so a parameter added to one and not
the other fails here."""

from __future__ import annotations

import dataclasses
import inspect
import typing

import pytest

import zheval
from zheval.compute import options as options_module
from zheval.compute.options import BleuOptions, ChrfOptions, RougeOptions

COMPUTE = [("compute_rouge", RougeOptions), ("compute_bleu", BleuOptions), ("compute_chrf", ChrfOptions)]


def _hints(obj) -> dict:
    return typing.get_type_hints(obj, vars(options_module))


@pytest.mark.parametrize("name, cls", COMPUTE, ids=[n for n, _ in COMPUTE])
def test_compute_signature_equals_the_options_dataclass(name, cls):
    fn = getattr(zheval, name)
    params = list(inspect.signature(fn).parameters.values())
    assert [p.name for p in params[:2]] == ["predictions", "references"]
    options = params[2:]
    assert all(p.kind is p.KEYWORD_ONLY for p in options), "every option is keyword-only"
    fields = dataclasses.fields(cls)
    assert [p.name for p in options] == [f.name for f in fields]
    assert [p.default for p in options] == [f.default for f in fields]
    fn_hints, cls_hints = _hints(inspect.unwrap(fn)), _hints(cls)
    assert {p.name: fn_hints[p.name] for p in options} == {f.name: cls_hints[f.name] for f in fields}


class _Tokenizer:
    """The least a Trainer hook asks of the transformers tokenizer (never called here: the options fail first)."""

    pad_token_id = 0

    def batch_decode(self, ids, **kw):  # pragma: no cover - not reached
        raise AssertionError


def _doors():
    from zheval.adapters.duck.ceiling import human_ceiling
    from zheval.adapters.duck.evaluate import evaluate_predictions
    from zheval.adapters.engine_batches import prepare_request
    from zheval.adapters.harness_opencompass import ZhevalBleuEvaluator, ZhevalChrfEvaluator, ZhevalRougeEvaluator
    from zheval.adapters.records import score_records
    from zheval.adapters.trainer import build_compute_metrics

    def engine(metrics, **options):
        return prepare_request("engine", metrics, options, {}, {"prediction_column": "p", "references_column": "r"},
                               lambda: ["p", "r"], False, lambda x: b"")

    # door(metrics, **options): the call with those metrics (None: the door's own, single metric)
    return {
        "score": lambda metrics, **o: zheval.score(["好"], ["好"], metrics, **o),
        "score_config": lambda metrics, **o: zheval.compute.joint.score_config(metrics, **o),
        "explain": lambda metrics, **o: zheval.explain("好", ["好"], metrics, **o),
        "explain_items": lambda metrics, **o: zheval.explain_items(["好"], ["好"], metrics, **o),
        "engine prepare_request": engine,
        "build_compute_metrics": lambda metrics, **o: build_compute_metrics(
            _Tokenizer(), [f"chinese_{m}" for m in metrics], **o),
        "evaluate_predictions": lambda metrics, **o: evaluate_predictions(None, None, metrics=metrics, **o),
        "human_ceiling": lambda metrics, **o: human_ceiling(None, metrics=metrics, **o),
        "score_records": lambda metrics, **o: score_records(None, metrics=metrics, **o),
        "ZhevalRougeEvaluator": lambda metrics, **o: ZhevalRougeEvaluator(**o),
        "ZhevalBleuEvaluator": lambda metrics, **o: ZhevalBleuEvaluator(**o),
        "ZhevalChrfEvaluator": lambda metrics, **o: ZhevalChrfEvaluator(**o),
    }


#: (door, the metrics asked, an option none of them uses, the metric that would)
UNUSED = {
    "ZhevalRougeEvaluator": (["rouge"], {"max_order": 2}, "bleu"),
    "ZhevalBleuEvaluator": (["bleu"], {"rouge_types": ["rouge1"]}, "rouge"),
    "ZhevalChrfEvaluator": (["chrf"], {"smooth_method": "floor"}, "bleu"),
}


@pytest.mark.parametrize("door", list(_doors()))
def test_every_multi_metric_door_refuses_an_unknown_option_with_the_hub_reason(door):
    call = _doors()[door]
    metrics = UNUSED.get(door, (["bleu", "rouge"],))[0]
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['use_stemmer'\].*stems English words only"):
        call(metrics, use_stemmer=True)


@pytest.mark.parametrize("door", list(_doors()))
def test_every_multi_metric_door_refuses_an_option_no_requested_metric_uses(door):
    call = _doors()[door]
    metrics, option, user = UNUSED.get(door, (["bleu"], {"rouge_types": ["rouge1"]}, "rouge"))
    name = next(iter(option))
    with pytest.raises(TypeError, match=rf"uses option\(s\) \['{name}'\] \({name} is an option of {user}"):
        call(metrics, **option)
