"""An option given where it has no effect is refused at every door, as ``compute_rouge`` / ``compute_bleu`` /
``compute_chrf`` refuse it (issue 35: nothing reinterpreted silently): the evaluate modules, the OpenCompass
evaluators and the Trainer hook go through the same door config (`zheval.compute.rouge.rouge_door_config` ...), and
an explanation refuses the options that change nothing in it (`zheval.compute.option_rules.check_explain_options`).
"""

from __future__ import annotations

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
