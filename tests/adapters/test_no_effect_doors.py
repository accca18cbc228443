"""An option given where it has no effect is refused at every door, as ``compute_rouge`` / ``compute_bleu`` /
``compute_chrf`` refuse it (issue 35: nothing reinterpreted silently): the evaluate modules, the OpenCompass
evaluators and the Trainer hook go through the same door config (`zheval.compute.rouge.rouge_door_config` ...), and
an explanation refuses the options that change nothing in it (`zheval.compute.option_rules.check_explain_options`).
"""

from __future__ import annotations

import re

import pytest

import zheval

PREDS = ["猫坐在垫子上。", "今天天气很好", "明天会下雨"]
REFS = [["猫在垫子上坐着。"], ["今天天气不错"], ["明天下雨"]]
METRICS = ("rouge", "bleu", "chrf")
INTERVAL = [{"seed": 5}, {"confidence": 0.9}, {"bootstrap_method": "poisson"}]


def _module(metric):
    pytest.importorskip("evaluate")
    import evaluate
    from helpers import METRICS as PATH

    return evaluate.load(str(PATH / f"chinese_{metric}"))


def _evaluator(metric):
    from zheval.adapters import harness_opencompass as oc

    return {"rouge": oc.ZhevalRougeEvaluator, "bleu": oc.ZhevalBleuEvaluator, "chrf": oc.ZhevalChrfEvaluator}[metric]


class _Tokenizer:
    """The least the Trainer hook asks of a transformers tokenizer at build time (nothing is decoded here)."""

    pad_token_id = 0

    def batch_decode(self, ids, **kw):  # pragma: no cover - not reached
        raise AssertionError


def _hook(metrics, **options):
    from zheval.adapters.trainer import build_compute_metrics

    return build_compute_metrics(_Tokenizer(), metrics, **options)


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("option", INTERVAL, ids=lambda o: next(iter(o)))
def test_module_refuses_interval_options_without_bootstrap(metric, option):
    """chinese_<metric>.compute(seed=5) scored without an interval and said nothing; now the error of
    compute_<metric>, naming the module and the parameter, before anything is stored."""
    module = _module(metric)
    name = next(iter(option))
    with pytest.raises(ValueError, match=rf"chinese_{metric}: {name} sets the bootstrap interval, and bootstrap is 0"
                                         rf".*give bootstrap=N .* or leave {name} out"):
        module.compute(predictions=PREDS, references=REFS, **option)
    with pytest.raises(ValueError, match="bootstrap is 0"):
        module.compute(predictions=PREDS, references=REFS, bootstrap=0, **option)
    out = module.compute(predictions=PREDS, references=REFS, bootstrap=10, **option)
    assert "|bs:10|" in out["signature"]


@pytest.mark.parametrize("split", ["newline", "punct"])
def test_module_refuses_sentence_split_without_rougelsum(split):
    module = _module("rouge")
    with pytest.raises(ValueError, match=rf"chinese_rouge: sentence_split='{split}' splits the sentences of "
                                         r"rougeLsum.*\['rouge1', 'rougeL'\].*add rougeLsum or leave sentence_split out"):
        module.compute(predictions=PREDS, references=REFS, rouge_types=["rouge1", "rougeL"], sentence_split=split)
    out = module.compute(predictions=PREDS, references=REFS, rouge_types=["rougeLsum"], sentence_split=split)
    assert f"split:{split}" in out["signature"]


def test_module_refuses_before_storing_anything():
    """The refusal comes before evaluate stores the batch: the stored items are kept, nothing of the call added."""
    module = _module("bleu")
    module.add_batch(predictions=PREDS[:1], references=REFS[:1])
    with pytest.raises(ValueError, match="seed sets the bootstrap interval"):
        module.compute(predictions=PREDS[1:], references=REFS[1:], seed=5)
    assert len(module) == 1


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("option", INTERVAL, ids=lambda o: next(iter(o)))
def test_opencompass_evaluators_refuse_interval_options_without_bootstrap(metric, option):
    cls = _evaluator(metric)
    name = next(iter(option))
    with pytest.raises(ValueError, match=rf"{cls.__name__}: {name} sets the bootstrap interval, and bootstrap is 0"):
        cls(**option)
    typed = {"rouge": zheval.RougeOptions, "bleu": zheval.BleuOptions, "chrf": zheval.ChrfOptions}[metric]
    with pytest.raises(ValueError, match=rf"{cls.__name__}: {name} sets the bootstrap interval"):
        cls(**{metric: typed(**option)})
    out = cls(bootstrap=10, **option).score(PREDS, [r[0] for r in REFS])
    assert "|bs:10|" in out["signature"]


def test_opencompass_rouge_evaluator_refuses_sentence_split_without_rougelsum():
    from zheval.adapters.harness_opencompass import ZhevalRougeEvaluator

    with pytest.raises(ValueError, match=r"ZhevalRougeEvaluator: sentence_split='newline' splits the sentences of "
                                         r"rougeLsum.*\['rouge1'\]"):
        ZhevalRougeEvaluator(rouge_types=["rouge1"], sentence_split="newline")
    out = ZhevalRougeEvaluator(rouge_types=["rougeLsum"], sentence_split="newline").score(PREDS, [r[0] for r in REFS])
    assert "split:newline" in out["signature"]


def test_trainer_hook_refuses_seed_without_bootstrap():
    with pytest.raises(ValueError, match=r"build_compute_metrics: seed sets the bootstrap interval, and bootstrap is "
                                         r"0.*give bootstrap=N"):
        _hook(["chinese_rouge", "chinese_bleu"], seed=5)
    with pytest.raises(ValueError, match=r"build_compute_metrics: confidence sets the bootstrap interval"):
        _hook([("chinese_chrf", {"confidence": 0.9})])
    hook = _hook(["chinese_rouge", "chinese_bleu"], seed=5, bootstrap=10)
    assert [b.config.bootstrap for b in hook.metrics] == [10, 10]


def test_trainer_hook_refuses_sentence_split_without_rougelsum():
    with pytest.raises(ValueError, match=r"build_compute_metrics: sentence_split='newline' splits the sentences of "
                                         r"rougeLsum.*\['rouge1', 'rouge2'\]"):
        _hook(["chinese_rouge"], rouge_types=["rouge1", "rouge2"], sentence_split="newline")
    with pytest.raises(ValueError, match="sentence_split='punct' splits the sentences of rougeLsum"):
        _hook(["chinese_rouge"], rouge=zheval.RougeOptions(rouge_types=["rouge1"], sentence_split="punct"))
    _hook(["chinese_rouge"], sentence_split="newline")  # the default types have rougeLsum


def test_trainer_hook_checks_a_loaded_zheval_module_when_built():
    """A zheval module loaded by path refuses the option when the hook is built, not after the first epoch."""
    pytest.importorskip("evaluate")
    from helpers import METRICS as PATH

    with pytest.raises(ValueError, match=r"chinese_bleu: seed sets the bootstrap interval"):
        _hook([str(PATH / "chinese_bleu")], seed=5)


EXPLAIN_OPTIONS = [{"bootstrap": 1000}, {"seed": 3}, {"confidence": 0.9}, {"use_aggregator": False},
                   {"crosscheck": True}, {"return_precision_recall": True},
                   {"bootstrap": 10, "bootstrap_method": "poisson"}]


@pytest.mark.parametrize("door", ["explain", "explain_items"])
@pytest.mark.parametrize("option", EXPLAIN_OPTIONS, ids=lambda o: "+".join(o))
def test_explain_refuses_options_without_effect(door, option):
    """explain(bootstrap=1000) drew no resample, yet its signatures said bs:1000|seed:12345; seed, confidence,
    use_aggregator=False, crosscheck=True and return_precision_recall changed nothing. Refused, naming them."""
    names = ", ".join(option)
    call = (lambda **o: zheval.explain(PREDS[0], REFS[0], **o)) if door == "explain" else (
        lambda **o: zheval.explain_items(PREDS, REFS, **o))
    with pytest.raises(ValueError, match=rf"explain: {names} would change nothing in an explanation.*leave "):
        call(**option)


@pytest.mark.parametrize("option", EXPLAIN_OPTIONS[:3], ids=lambda o: "+".join(o))
def test_explain_refuses_them_in_typed_options_too(option):
    for metric, cls in (("rouge", zheval.RougeOptions), ("bleu", zheval.BleuOptions), ("chrf", zheval.ChrfOptions)):
        with pytest.raises(ValueError, match=r"would change nothing in an explanation"):
            zheval.explain(PREDS[0], REFS[0], **{metric: cls(**option)})


def test_explain_signature_names_no_interval():
    """Options that act are kept (max_refs); the defaults, given explicitly, pass; no signature says bs:."""
    out = zheval.explain(PREDS[0], ["猫在垫子上坐着。", "猫坐着"], metrics=["rouge", "bleu", "chrf"], max_refs=1,
                         bootstrap=0, seed=12345, crosscheck=False, use_aggregator=True)
    assert len(out["references"]) == 1
    for sig in out["signature"].values():
        assert "bs:" not in sig and "seed:" not in sig and "maxrefs:1" in sig


def test_explain_refuses_a_level_nothing_uses():
    """metrics=["chrf"], level="corpus": chrF is explained at sentence level, and the signature said level:sentence
    under level="corpus". Refused; beside BLEU the level acts (BLEU's), and level="sentence" is what runs."""
    with pytest.raises(ValueError, match=r"explain: level='corpus' would change nothing: chrF is explained at "
                                         r"sentence level.*leave level out"):
        zheval.explain(PREDS[0], REFS[0], metrics=["chrf"], level="corpus")
    out = zheval.explain(PREDS[0], REFS[0], metrics=["bleu", "chrf"], level="corpus")
    assert "level:corpus" in out["signature"]["bleu"] and "level:sentence" in out["signature"]["chrf"]
    out = zheval.explain(PREDS[0], REFS[0], metrics=["chrf"], level="sentence")
    assert "level:sentence" in out["signature"]["chrf"]


# -- the other doors: score_batches, the engine doors, the report doors (table-driven) ---------------------------------

def _engine(engine):
    """An engine door up to the work it sends (`prepare_request`: the options checked on the driver), without the
    engine: the refusals come before any Ray or Spark call."""
    import pickle

    from zheval.adapters.engine_batches import prepare_request

    def door(metrics=("bleu", "rouge"), **options):
        return prepare_request(engine, metrics, options, {}, {"prediction_column": "p", "references_column": "r"},
                               lambda: ["p", "r"], False, pickle.dumps)
    return door


def _report(name):
    """A report door called with no data: its options are checked before the data is looked at."""
    from zheval.adapters.compare import compare_predictions
    from zheval.adapters.duck.ceiling import human_ceiling
    from zheval.adapters.duck.evaluate import evaluate_predictions
    from zheval.adapters.records import score_records
    from zheval.adapters.records_stream import score_records_stream

    return {"evaluate_predictions": lambda **o: evaluate_predictions(None, None, **o),
            "score_records": lambda **o: score_records(None, **o),
            "score_records_stream": lambda **o: score_records_stream(None, **o),
            "human_ceiling": lambda **o: human_ceiling(None, **o),
            "compare_predictions": lambda **o: compare_predictions(None, None, None, **o)}[name]


#: door name (the first words of its errors) -> the door, called with options by name
LIBRARY_DOORS = {
    "score": lambda **o: zheval.score(PREDS, REFS, **o),
    "score_batches": lambda **o: zheval.score_batches([(PREDS, REFS)], **o),
    "zheval.adapters.ray.score_dataset": _engine("zheval.adapters.ray.score_dataset"),
    "zheval.adapters.spark.score_dataframe": _engine("zheval.adapters.spark.score_dataframe"),
}
#: the report doors whose interval is their own bootstrap/seed/confidence (compare's bootstrap is never 0)
REPORT_DOORS = ("evaluate_predictions", "score_records", "score_records_stream", "human_ceiling")


def _door(name):
    return LIBRARY_DOORS[name] if name in LIBRARY_DOORS else _report(name)


@pytest.mark.parametrize("door", list(LIBRARY_DOORS))
@pytest.mark.parametrize("option", INTERVAL, ids=lambda o: next(iter(o)))
def test_library_doors_refuse_interval_options_without_bootstrap(door, option):
    """score_batches said 'score: ...'; the Ray and Spark doors accepted seed/confidence/bootstrap_method without
    bootstrap (no interval, so they changed nothing). Refused, naming the door and the option; with bootstrap they
    pass (score_batches and the engines with the Poisson bootstrap they reduce)."""
    name = next(iter(option))
    with pytest.raises(ValueError, match=rf"^{re.escape(door)}: {name} sets the bootstrap interval, and bootstrap "
                                         rf"is 0 .*give bootstrap=N .* or leave {name} out"):
        _door(door)(bootstrap=0, **option)
    _door(door)(**{**option, "bootstrap": 10, "bootstrap_method": "poisson"})


@pytest.mark.parametrize("door", REPORT_DOORS)
@pytest.mark.parametrize("option", INTERVAL[:2], ids=lambda o: next(iter(o)))
def test_report_doors_refuse_seed_and_confidence_without_bootstrap(door, option):
    """evaluate_predictions(bootstrap=0, seed=5) (score_records, the streamed report, human_ceiling) drew no
    resample and said nothing. Refused, naming the door and the argument, before the data is read."""
    name = next(iter(option))
    with pytest.raises(ValueError, match=rf"^{door}: {name} sets the bootstrap interval, and bootstrap is 0"):
        _door(door)(bootstrap=0, **option)
    with pytest.raises((TypeError, ValueError)) as info:  # the defaults, or an interval: on to the (missing) data
        _door(door)(bootstrap=0, seed=12345, confidence=0.95)
    assert "bootstrap interval" not in str(info.value)


def test_report_takes_a_seed_for_its_folds_without_bootstrap():
    """seed draws the folds (as `zheval score --folds 3 --seed 7 --bootstrap 0`): accepted; confidence is not."""
    from zheval.adapters.duck import load_duck, sample_files
    from zheval.adapters.duck.evaluate import evaluate_predictions

    with sample_files() as files:
        ds = load_duck(files["data"])
        report = evaluate_predictions(ds, files["predictions"], bootstrap=0, folds=3, seed=7, by=())
        assert report.breakdowns["folds"]["seed"] == 7
        with pytest.raises(ValueError, match=r"^evaluate_predictions: confidence sets the bootstrap interval"):
            evaluate_predictions(ds, files["predictions"], bootstrap=0, folds=3, seed=7, confidence=0.9)


ALL_DOORS = (*LIBRARY_DOORS, *REPORT_DOORS, "compare_predictions")


@pytest.mark.parametrize("door", ALL_DOORS)
def test_every_door_refuses_sentence_split_without_rougelsum(door):
    """The engine doors and the report doors took sentence_split with ROUGE types that have no rougeLsum (the
    report's default types rouge1/2/L have none): it changed nothing. Refused, naming the door."""
    with pytest.raises(ValueError, match=rf"^{re.escape(door)}: sentence_split='newline' splits the sentences of "
                                         r"rougeLsum.*\['rouge1', 'rougeL'\].*add rougeLsum or leave "
                                         r"sentence_split out"):
        _door(door)(metrics=["rouge"], rouge_types=["rouge1", "rougeL"], sentence_split="newline")
    if door in LIBRARY_DOORS:
        _door(door)(metrics=["rouge"], rouge_types=["rougeLsum"], sentence_split="newline")
    else:
        with pytest.raises(ValueError, match=r"sentence_split='punct' splits.*\['rouge1', 'rouge2', 'rougeL'\]"):
            _door(door)(sentence_split="punct")


def test_report_keeps_sentence_split_with_rougelsum():
    from zheval.adapters.duck import load_duck, sample_files
    from zheval.adapters.duck.evaluate import evaluate_predictions

    with sample_files() as files:
        report = evaluate_predictions(load_duck(files["data"]), files["predictions"], bootstrap=0, by=(),
                                      rouge_types=["rouge1", "rougeLsum"], sentence_split="newline")
    assert "split:newline" in report.signatures["rouge"]


def _chrf_doors():
    from zheval.adapters.harness_opencompass import ZhevalChrfEvaluator

    return {**{name: (lambda d: lambda **o: d(metrics=["chrf"], **o))(_door(name)) for name in ALL_DOORS},
            "compute_chrf": lambda **o: zheval.compute_chrf(PREDS, REFS, **o),
            "chinese_chrf": lambda **o: _module("chrf").compute(predictions=PREDS, references=REFS, **o),
            "ZhevalChrfEvaluator": lambda **o: ZhevalChrfEvaluator(**o),
            "build_compute_metrics": lambda **o: _hook(["chinese_chrf"], **o)}


@pytest.mark.parametrize("door", [*ALL_DOORS, "compute_chrf", "chinese_chrf", "ZhevalChrfEvaluator",
                                  "build_compute_metrics"])
@pytest.mark.parametrize("options, named", [({"terms": ["天气"]}, "terms"), ({"punct": "drop"}, "punct='drop'"),
                                            ({"tokenizer": "jieba"}, "tokenizer='jieba'"),
                                            ({"tokenizer": list}, r"tokenizer=list \(a user tokenizer\)")],
                         ids=["terms", "punct", "jieba", "callable"])
def test_every_door_names_itself_refusing_chrf_word_options_without_word_order(door, options, named):
    """chrF alone with word_order=0: terms, punct='drop', tokenizer='jieba' act on chrF++'s words only. Every door
    refused them with the options object's message, which named no door; now the door is named first."""
    with pytest.raises(ValueError, match=rf"^{re.escape(door)}: chrF option\(s\) {named} act only on chrF\+\+'s "
                                         r"word n-grams, and word_order is 0.*set word_order >= 1"):
        _chrf_doors()[door](**options)

