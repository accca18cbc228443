"""The compute_metrics hook on hand-made arrays: its numbers equal the library on the same texts, batch_eval_metrics
accumulation equals the whole-set call exactly under many options, empty references are counted, keys are flat
floats, and bad input fails when the hook is built."""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest
import torch
from transformers import EvalPrediction

from helpers.trainer_models import HOOK_PAIRS, make_tokenizer
from zheval.adapters.trainer import build_compute_metrics, flatten_result
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge

PAIRS = HOOK_PAIRS


@pytest.fixture(scope="module")
def tok():
    return make_tokenizer(extra_chars="".join(p + r for p, r in PAIRS))


def encode(tok, texts, width=None, fill=-100):
    rows = [tok(t, add_special_tokens=False)["input_ids"] + [tok.eos_token_id] for t in texts]
    width = width or max(map(len, rows))
    return np.array([r + [fill] * (width - len(r)) for r in rows])


def arrays(tok, pairs=PAIRS):
    return encode(tok, [p for p, _ in pairs], 14), encode(tok, [r for _, r in pairs], 12)


def batches(preds, labels, size):
    """The Trainer's batch_eval_metrics calls: torch tensors, compute_result on the last one."""
    n = len(preds)
    for start in range(0, n, size):
        yield (
            EvalPrediction(
                predictions=torch.tensor(preds[start : start + size]),
                label_ids=torch.tensor(labels[start : start + size]),
            ),
            start + size >= n,
        )


def run_batched(hook, preds, labels, size):
    out = None
    for eval_pred, last in batches(preds, labels, size):
        out = hook(eval_pred, compute_result=last)
        if not last:
            assert out == {}
    return out


def test_whole_set_equals_library_on_the_texts(tok):
    preds, labels = arrays(tok)
    hook = build_compute_metrics(tok)
    got = hook(EvalPrediction(predictions=preds, label_ids=labels))
    texts_p, texts_r = [p for p, _ in PAIRS], [r for _, r in PAIRS]
    assert (hook.predictions, hook.references) == (texts_p, texts_r)
    rouge, bleu = compute_rouge(texts_p, texts_r), compute_bleu(texts_p, texts_r)
    want = {k: rouge[k] for k in ("rouge1", "rouge2", "rougeL", "rougeLsum")}
    want["bleu"] = bleu["bleu"]
    want.update({f"precisions_{i}": v for i, v in enumerate(bleu["precisions"], 1)})
    for k in ("brevity_penalty", "length_ratio", "translation_length", "reference_length"):
        want[k] = float(bleu[k])
    empty = sum(1 for p in texts_p if not p.strip())  # scored 0 as the library does, and counted
    if empty:
        want["empty_predictions"] = float(empty)
    assert got == want
    assert all(type(v) is float for v in got.values())
    assert hook.results["chinese_rouge"]["signature"] == rouge["signature"]


OPTION_GRID = [
    {},
    {"tokenizer": "jieba", "terms": ["快递柜", "小黄鸭"]},
    {"preset": "llamafactory"},
    {"bootstrap": 50, "seed": 1, "return_precision_recall": True},
    {"bootstrap": 50, "seed": 1, "bootstrap_method": "poisson", "level": "sentence"},
    {"level": "sentence", "rouge_types": ["rouge1", "rougeW", "rougeSU4"], "multi_ref": "mean"},
    {"max_order": 2, "smooth_method": "add-k", "smooth_value": 0.5, "beta": 2.0, "normalize": False},
]


@pytest.mark.parametrize("options", OPTION_GRID, ids=lambda o: "+".join(o) or "defaults")
@pytest.mark.parametrize("size", [1, 4])
def test_batch_eval_metrics_equals_whole_set(tok, options, size):
    preds, labels = arrays(tok)
    hook = build_compute_metrics(tok, **options)
    whole = hook((preds, labels))
    whole_full = {n: {k: v for k, v in r.items() if k != "signature"} for n, r in hook.results.items()}
    batched = run_batched(hook, preds, labels, size)
    assert batched == whole
    batched_full = {n: {k: v for k, v in r.items() if k != "signature"} for n, r in hook.results.items()}
    assert batched_full == whole_full
    # the state was reset: a second evaluation gives the same numbers again
    assert run_batched(hook, preds, labels, size) == whole
    assert hook._n_items == 0


def test_batch_mode_with_logits_on_torch(tok):
    preds, labels = arrays(tok)
    logits = np.full((*preds.shape, len(tok)), -1.0, dtype=np.float32)
    b, t = np.indices(preds.shape)
    logits[b, t, np.where(preds == -100, tok.pad_token_id, preds)] = 5.0
    hook = build_compute_metrics(tok)
    whole = hook((preds, labels))
    out = None
    for start in range(0, len(preds), 4):
        last = start + 4 >= len(preds)
        pred = (torch.tensor(logits[start : start + 4]).to(torch.bfloat16), torch.zeros(1))
        batch = EvalPrediction(predictions=pred, label_ids=torch.tensor(labels[start : start + 4]))
        out = hook(batch, compute_result=last)
    assert out == whole


def test_trainer_signature_check_passes(tok):
    # transformers checks `"compute_result" in inspect.signature(compute_metrics).parameters` for batch_eval_metrics
    assert "compute_result" in inspect.signature(build_compute_metrics(tok)).parameters


def test_empty_references_are_skipped_and_counted(tok, caplog):
    pairs = PAIRS[:3] + [("天气", "")] + PAIRS[3:5] + [("", "")]
    preds, labels = arrays(tok, pairs)
    labels[3] = -100  # an all-padding label row (e.g. a causal-LM prompt that filled the whole sequence)
    hook = build_compute_metrics(tok)
    got = hook((preds, labels))
    kept = [(p, r) for p, r in pairs if r]
    want = build_compute_metrics(tok)(arrays(tok, kept))
    assert got == {**want, "empty_references": 2.0}
    assert "skipped 2 of 7 items" in caplog.text
    # batch mode counts over all batches
    assert run_batched(hook, preds, labels, 3) == {**want, "empty_references": 2.0}
    with pytest.raises(ValueError, match="item 3 .*decodes to an empty string"):
        build_compute_metrics(tok, empty_references="error")((preds, labels))


def test_no_scorable_item_gives_nan_not_zero(tok):
    preds, labels = arrays(tok, [("天气", ""), ("好", "")])
    got = build_compute_metrics(tok)((preds, labels))
    assert got["empty_references"] == 2.0
    scores = {k: v for k, v in got.items() if k != "empty_references"}
    assert {"rouge1", "rougeL", "bleu"} <= set(scores)
    assert all(math.isnan(v) for v in scores.values())


class FakeModule:
    """A stand-in for a loaded evaluate module (records calls)."""

    name = "fake"

    def __init__(self, num_process=1):
        self.num_process = num_process
        self.rows = []
        self.calls = []

    def add_batch(self, predictions, references):
        self.rows += list(zip(predictions, references))

    def compute(self, predictions=None, references=None, **kw):
        if predictions is not None:
            self.rows += list(zip(predictions, references))
        n, self.rows = len(self.rows), []
        self.calls.append((n, kw))
        return {
            "bleu": n / 100,
            "scores": [0.1] * n,
            "signature": "x",
            "by_order": np.array([1, 2]),
            "nested": {"a": 1},
        }


def test_key_clash_is_prefixed_and_values_flattened(tok):
    fake = FakeModule()
    hook = build_compute_metrics(tok, ["chinese_bleu", fake], max_order=2)
    got = hook(arrays(tok))
    assert got["chinese_bleu_bleu"] == compute_bleu([p for p, _ in PAIRS], [r for _, r in PAIRS], max_order=2)["bleu"]
    assert got["fake_bleu"] == 0.09
    assert got["by_order_1"] == 1.0 and got["by_order_2"] == 2.0 and got["nested_a"] == 1.0
    assert "scores" not in got and "fake_scores_1" not in got and "signature" not in got
    # shared options go to evaluate modules as evaluate.combine sends them
    assert fake.calls[-1] == (9, {"max_order": 2})
    run_batched(hook, *arrays(tok), 4)
    assert fake.calls[-1] == (9, {"max_order": 2})


def test_per_metric_options(tok):
    preds, labels = arrays(tok)
    hook = build_compute_metrics(tok, [("chinese_rouge", {"preset": "rouge155"}), "chinese_bleu"], max_order=3)
    got = hook((preds, labels))
    texts_p, texts_r = [p for p, _ in PAIRS], [r for _, r in PAIRS]
    assert got["rougeL"] == compute_rouge(texts_p, texts_r, preset="rouge155")["rougeL"]
    assert got["bleu"] == compute_bleu(texts_p, texts_r, max_order=3)["bleu"]
    assert "precisions_4" not in got


def test_typed_options_objects_equal_the_same_options_by_name(tok):
    from zheval.compute.options import BleuOptions, RougeOptions

    preds, labels = arrays(tok)
    typed = build_compute_metrics(tok, rouge=RougeOptions(preset="rouge155"), bleu=BleuOptions(max_order=3),
                                  tokenizer="char")((preds, labels))
    by_pair = build_compute_metrics(tok, [("chinese_rouge", {"preset": "rouge155"}), "chinese_bleu"], max_order=3,
                                    tokenizer="char")((preds, labels))
    assert typed == by_pair
    with pytest.raises(TypeError, match=r"chrf=ChrfOptions\(\.\.\.\) was given but 'chinese_chrf' is not among"):
        from zheval.compute.options import ChrfOptions

        build_compute_metrics(tok, chrf=ChrfOptions())
    with pytest.raises(TypeError, match=r"\['max_order'\] of chinese_bleu given both by name and in its options"):
        build_compute_metrics(tok, bleu=BleuOptions(max_order=3), max_order=2)


def test_flatten_result():
    flat = flatten_result(
        {"a": 1, "b": np.float32(0.5), "c": [1, 2], "d": "text", "e": None, "f": {"g": True}, "h": torch.tensor(0.25)}
    )
    assert flat == {"a": 1.0, "b": 0.5, "c_1": 1.0, "c_2": 2.0, "f_g": 1.0, "h": 0.25}
    assert all(type(v) is float for v in flat.values())


# ---------------------------------------------------------------------------------------------------------------
# bad input: all of it fails when the hook is built, before any training step


def test_no_pad_token(tok):
    with pytest.raises(ValueError, match=r"has no pad_token_id.*tokenizer\.pad_token = tokenizer\.eos_token"):
        build_compute_metrics(make_tokenizer(with_pad=False))


def test_tokenizer_given_by_keyword(tok):
    with pytest.raises(TypeError, match="pass it positionally"):
        build_compute_metrics(tokenizer=tok)
    with pytest.raises(TypeError, match="first argument"):
        build_compute_metrics("char")


@pytest.mark.parametrize(
    "kwargs, error, pattern",
    [
        ({"rouge_typo": ["rouge1"]}, TypeError, r"unknown option\(s\) \[.rouge_typo.\]"),
        ({"metrics": ["chinese_bleu"], "rouge_types": ["rouge1"]}, TypeError,
         r"no requested metric \(bleu\) uses option\(s\) \[.rouge_types.\] \(rouge_types is an option of rouge\)"),
        ({"smooth_method": "bogus"}, ValueError, "bogus"),
        ({"rouge_types": ["rouge0x"]}, ValueError, "rouge0x"),
        ({"tokenizer": "spacy"}, ValueError, "spacy"),
        ({"use_aggregator": False}, ValueError, "one number per key"),
        ({"crosscheck": True}, ValueError, "crosscheck"),
        ({"empty_references": "drop"}, ValueError, "'skip' or 'error'"),
        ({"metrics": []}, ValueError, "empty"),
        ({"metrics": ["chinese_bleu", "chinese_bleu"]}, ValueError, "twice"),
        ({"metrics": [42]}, TypeError, "got int"),
        ({"metrics": [("chinese_bleu", "max_order")]}, TypeError, "options dict"),
        ({"metrics": [FakeModule(num_process=2)]}, ValueError, "num_process=2.*Trainer already gathers"),
    ],
)
def test_bad_options_fail_at_build_time(tok, kwargs, error, pattern):
    with pytest.raises(error, match=pattern):
        build_compute_metrics(tok, **kwargs)


def test_metrics_as_a_comma_list(tok):
    # before: "chinese_rouge,chinese_bleu" was one metric, handed to evaluate.load as a Hub id
    preds, labels = arrays(tok)
    joined = build_compute_metrics(tok, metrics="chinese_rouge,chinese_bleu")((preds, labels))
    assert joined == build_compute_metrics(tok, metrics=["chinese_rouge", "chinese_bleu"])((preds, labels))
    with pytest.raises(ValueError, match=r"^metrics 'chinese_rouge,,chinese_bleu' has an empty entry \(entry 2\)$"):
        build_compute_metrics(tok, metrics="chinese_rouge,,chinese_bleu")
    assert "rouge1" in build_compute_metrics(tok, metrics="chinese_rouge")((preds, labels))


def test_one_name_with_spaces_follows_the_comma_list_rule(tok, monkeypatch):
    # before: "chinese_rouge, chinese_bleu" was stripped but " chinese_bleu" went to evaluate.load as a Hub id
    import evaluate

    def no_load(path, **kw):
        raise AssertionError(f"evaluate.load({path!r}) called")

    monkeypatch.setattr(evaluate, "load", no_load)
    preds, labels = arrays(tok)
    expected = build_compute_metrics(tok, metrics=["chinese_bleu"])((preds, labels))
    assert build_compute_metrics(tok, metrics=" chinese_bleu")((preds, labels)) == expected
    assert build_compute_metrics(tok, metrics="chinese_bleu \t")((preds, labels)) == expected
    with pytest.raises(ValueError, match="names no entry"):
        build_compute_metrics(tok, metrics="  ")
    # an entry of a list is not a comma list: refused, as zheval.score refuses metrics=[" bleu"]
    with pytest.raises(ValueError, match=r"metric name ' chinese_bleu' has surrounding spaces .*'chinese_bleu'"):
        build_compute_metrics(tok, metrics=[" chinese_bleu"])
    with pytest.raises(ValueError, match=r"metric name 'chinese_rouge ' has surrounding spaces"):
        build_compute_metrics(tok, metrics=[("chinese_rouge ", {})])


@pytest.mark.parametrize("preset, only, other", [("sacrebleu-zh", "chinese_bleu", "chinese_rouge"),
                                                 ("rouge155", "chinese_rouge", "chinese_bleu")])
def test_one_metric_preset_says_how_to_use_it_in_the_hook(tok, preset, only, other):
    """Issue 35: the library's bare "unknown preset 'sacrebleu-zh' ... valid values: rouge155, ..." told nothing about
    the hook; the error names the metric the preset lacks and the two ways to use it."""
    with pytest.raises(ValueError) as err:
        build_compute_metrics(tok, preset=preset)
    said = str(err.value)
    assert f"has no {other}" in said and f"metrics=('{only}',)" in said and "unknown preset" not in said
    assert f"('{only}', {{'preset': '{preset}'}})" in said
    preds, labels = arrays(tok)
    got = build_compute_metrics(tok, (only,), preset=preset)((preds, labels))
    texts_p, texts_r = [p for p, _ in PAIRS], [r for _, r in PAIRS]
    lib = compute_bleu if only == "chinese_bleu" else compute_rouge
    key = "bleu" if only == "chinese_bleu" else "rougeL"
    assert got[key] == lib(texts_p, texts_r, preset=preset)[key]


def test_preset_override_warns_once_per_metric_in_a_build_and_call(tok):
    """Issue 35: preset="llamafactory", tokenizer="char" gave the same PresetOverrideWarning three times per metric
    (built at build, for the scoring tokenizer and for the scores); now once per metric, when the hook is built."""
    import warnings

    import zheval

    preds, labels = arrays(tok)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hook = build_compute_metrics(tok, preset="llamafactory", tokenizer="char")
        hook((preds, labels))
        hook((preds, labels))
    said = [str(w.message) for w in caught if issubclass(w.category, zheval.PresetOverrideWarning)]
    assert len(said) == 2 and len(set(said)) == 2
    assert any("'llamafactory-jieba'" in s for s in said) and any("'llamafactory-char'" in s for s in said)


@pytest.mark.parametrize("name, ours", [("rouge", "chinese_rouge"), ("bleu", "chinese_bleu"), ("ROUGE", "chinese_rouge"),
                                        ("sacrebleu", "chinese_bleu"), ("google_bleu", "chinese_bleu")])
def test_a_bare_hub_metric_name_is_refused_before_evaluate_loads_it(tok, name, ours, monkeypatch):
    # break-it pass 17: metrics=["rouge"] went to evaluate.load as a Hub id (offline: evaluate's FileNotFoundError;
    # online: the Hub's rouge, whose tokenizer keeps only ASCII words, so Chinese scores 0, with no word)
    import evaluate

    loaded = []
    monkeypatch.setattr(evaluate, "load", lambda *a, **k: loaded.append(a))
    with pytest.raises(ValueError, match=rf"metric '{name}' would load the Hugging Face Hub's .*use '{ours}'.*"
                                         rf"'evaluate-metric/{name.lower()}' to load the Hub module on purpose"):
        build_compute_metrics(tok, metrics=[name])
    assert loaded == []


def test_the_hub_rouge_module_scores_chinese_zero_which_is_why_it_is_refused():
    # the premise, with rouge-score (the Hub rouge module's scorer, default tokenizer): Chinese text is dropped
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rouge1"])
    assert scorer.score("今天天气很好", "今天天气很好")["rouge1"].fmeasure == 0.0
