"""Real (tiny) Trainer runs, offline: Seq2SeqTrainer(predict_with_generate=True) on a T5 from a config, the README
snippet verbatim, batch_eval_metrics=True, evaluate modules loaded once, and a causal LM whose predictions are a
(logits, hidden_states) tuple.

Expected values are computed independently of the hook: ids are turned into text here by mapping each id to its
character (no batch_decode, no whitespace normalisation), then scored with the zheval library calls and with the
evaluate modules in ``metrics/``.
"""

from __future__ import annotations

import math
import os
import runpy
from pathlib import Path

import evaluate
import numpy as np
import pytest
from transformers import (
    DataCollatorForSeq2Seq,
    Seq2SeqTrainer,
    Seq2SeqTrainingArguments,
    Trainer,
    TrainingArguments,
)

from helpers.trainer_models import (
    EVAL_PAIRS,
    causal_collator,
    causal_dataset,
    make_causal_lm,
    make_t5,
    make_tokenizer,
    seq2seq_dataset,
)
from zheval.adapters.trainer import build_compute_metrics, preprocess_logits_for_metrics
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge
from helpers import REPO

SNIPPET = Path(__file__).with_name("readme_trainer_snippet.py")
ROUGE_KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum")
BLEU_KEYS = ("bleu", "brevity_penalty", "length_ratio", "translation_length", "reference_length")


def ids_to_text(tok, rows) -> list[str]:
    """Independent decoding: drop -100 and special ids, map each remaining id to its one-character token."""
    special = set(tok.all_special_ids)
    vocab = {i: t for t, i in tok.get_vocab().items()}
    return ["".join(vocab[int(i)] for i in row if int(i) >= 0 and int(i) not in special) for row in rows]


def expected_scores(preds: list[str], refs: list[str]) -> dict[str, float]:
    keep = [i for i, r in enumerate(refs) if r]
    preds, refs = [preds[i] for i in keep], [refs[i] for i in keep]
    rouge = compute_rouge(preds, refs)
    bleu = compute_bleu(preds, refs)
    out = {k: rouge[k] for k in ROUGE_KEYS}
    out.update({k: bleu[k] for k in BLEU_KEYS})
    out.update({f"precisions_{i}": p for i, p in enumerate(bleu["precisions"], 1)})
    return out


def assert_scores_equal(metrics: dict, expected: dict, prefix: str = "eval_") -> None:
    for key, value in expected.items():
        got = metrics[prefix + key]
        assert type(got) is float, (key, type(got))
        assert got == value, (key, got, value)


@pytest.fixture(scope="module")
def snippet(tmp_path_factory):
    """Run the README snippet verbatim (in a temp CWD); returns its globals."""
    tok = make_tokenizer()
    inputs = {
        "tokenizer": tok,
        "model": make_t5(tok),
        "train_dataset": seq2seq_dataset(tok),
        "eval_dataset": seq2seq_dataset(tok, EVAL_PAIRS),
    }
    cwd = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("snippet"))
    try:
        ns = runpy.run_path(str(SNIPPET), init_globals=inputs)
    finally:
        os.chdir(cwd)
    return ns


def test_readme_snippet_seq2seq_generate(snippet):
    trainer, metrics, tok = snippet["trainer"], snippet["metrics"], snippet["tokenizer"]
    for key in ROUGE_KEYS + ("bleu",):
        assert "eval_" + key in metrics
    # independent decoding of the same generations
    out = trainer.predict(snippet["eval_dataset"])
    preds = ids_to_text(tok, out.predictions)
    refs = ids_to_text(tok, out.label_ids)
    assert refs == [tgt for _, tgt in EVAL_PAIRS]
    assert (out.label_ids == -100).any(), "labels of different lengths are padded with -100"
    expected = expected_scores(preds, refs)
    assert expected["rouge1"] > 0, "a trivial all-zero comparison would prove nothing"
    assert_scores_equal(metrics, expected)
    assert_scores_equal(out.metrics, expected, prefix="test_")
    # the hook's decoded texts are the same strings
    assert compute_metrics_texts(snippet) == (preds, refs)
    # metric_for_best_model="rougeL" worked: the best checkpoint is the epoch with the best eval_rougeL
    history = [h["eval_rougeL"] for h in trainer.state.log_history if "eval_rougeL" in h]
    assert len(history) >= 8
    assert trainer.state.best_metric == max(history[:8])


def compute_metrics_texts(snippet):
    hook = snippet["compute_metrics"]
    return hook.predictions, hook.references


def test_evaluate_modules_give_the_same_numbers(snippet):
    hook = snippet["compute_metrics"]
    preds, refs = hook.predictions, hook.references
    rouge = evaluate.load(str(REPO / "metrics" / "chinese_rouge")).compute(predictions=preds, references=refs)
    bleu = evaluate.load(str(REPO / "metrics" / "chinese_bleu")).compute(predictions=preds, references=refs)
    metrics = snippet["metrics"]
    for key in ROUGE_KEYS:
        assert metrics["eval_" + key] == rouge[key]
    assert metrics["eval_bleu"] == bleu["bleu"]


def seq2seq_trainer(snippet, compute_metrics, tmp_path, **args):
    tok, model = snippet["tokenizer"], snippet["model"]
    targs = Seq2SeqTrainingArguments(
        output_dir=str(tmp_path), predict_with_generate=True, per_device_eval_batch_size=2, report_to="none", **args
    )
    return Seq2SeqTrainer(
        model=model,
        args=targs,
        eval_dataset=snippet["eval_dataset"],
        data_collator=DataCollatorForSeq2Seq(tok, model=model),
        processing_class=tok,
        compute_metrics=compute_metrics,
    )


def test_batch_eval_metrics_equals_whole_set(snippet, tmp_path):
    hook = build_compute_metrics(snippet["tokenizer"])
    trainer = seq2seq_trainer(snippet, hook, tmp_path, batch_eval_metrics=True)
    first = trainer.evaluate()
    second = trainer.evaluate()  # the state was reset after the first summary
    keys = ["eval_" + k for k in ROUGE_KEYS + BLEU_KEYS] + [f"eval_precisions_{i}" for i in range(1, 5)]
    whole = {k: snippet["metrics"][k] for k in keys}
    for result in (first, second):
        for key, value in whole.items():
            assert result[key] == value, key
    assert hook._n_items == 0


def test_metric_paths_are_loaded_once(snippet, tmp_path, monkeypatch):
    calls = []
    real_load = evaluate.load

    def counting_load(*a, **kw):
        calls.append(a[0])
        return real_load(*a, **kw)

    monkeypatch.setattr(evaluate, "load", counting_load)
    paths = [str(REPO / "metrics" / "chinese_rouge"), str(REPO / "metrics" / "chinese_bleu")]
    hook = build_compute_metrics(snippet["tokenizer"], paths)
    assert calls == paths
    trainer = seq2seq_trainer(snippet, hook, tmp_path)
    r1, r2 = trainer.evaluate(), trainer.evaluate()
    batch = seq2seq_trainer(snippet, hook, tmp_path, batch_eval_metrics=True).evaluate()
    assert calls == paths, "evaluate.load must not run inside the hook"
    for result in (r1, r2, batch):
        for key in ROUGE_KEYS + BLEU_KEYS:
            assert result["eval_" + key] == snippet["metrics"]["eval_" + key], key


# ---------------------------------------------------------------------------------------------------------------
# causal LM


@pytest.fixture(scope="module")
def causal(tmp_path_factory):
    tok = make_tokenizer()
    model = make_causal_lm(tok)
    out = tmp_path_factory.mktemp("causal")
    args = TrainingArguments(
        output_dir=str(out), max_steps=30, learning_rate=1e-2, per_device_train_batch_size=4, report_to="none",
        save_strategy="no", logging_strategy="no",
    )
    Trainer(model=model, args=args, train_dataset=causal_dataset(tok), data_collator=causal_collator(tok)).train()
    return tok, model, out


def causal_trainer(causal, compute_metrics, **kw):
    tok, model, out = causal
    extra = {k: kw.pop(k) for k in list(kw) if k in ("batch_eval_metrics",)}
    args = TrainingArguments(output_dir=str(out), per_device_eval_batch_size=2, report_to="none", **extra)
    return Trainer(
        model=model,
        args=args,
        eval_dataset=causal_dataset(tok, EVAL_PAIRS),
        data_collator=causal_collator(tok),
        processing_class=tok,
        compute_metrics=compute_metrics,
        **kw,
    )


def causal_expected(tok, logits, labels):
    """Independent shift-and-mask: prediction at t is compared with the label at t + 1."""
    ids = logits.argmax(-1) if logits.ndim == 3 else logits
    preds, refs = [], []
    for p, lab in zip(ids, labels):
        pos = [t for t in range(1, len(lab)) if lab[t] != -100]
        preds.append([p[t - 1] for t in pos])
        refs.append([lab[t] for t in pos])
    return ids_to_text(tok, preds), ids_to_text(tok, refs)


def test_causal_lm_logits_tuple(causal):
    tok = causal[0]
    hook = build_compute_metrics(tok, causal_lm=True)
    trainer = causal_trainer(causal, hook)
    out = trainer.predict(trainer.eval_dataset)
    assert isinstance(out.predictions, tuple) and out.predictions[0].ndim == 3  # (logits, hidden_states)
    preds, refs = causal_expected(tok, out.predictions[0], out.label_ids)
    assert refs == [tgt for _, tgt in EVAL_PAIRS]
    expected = expected_scores(preds, refs)
    assert expected["rouge1"] > 0
    assert_scores_equal(out.metrics, expected, prefix="test_")
    assert_scores_equal(trainer.evaluate(), expected)
    # preprocess_logits_for_metrics: ids on the device, concatenated with -100 padding, same numbers
    reduced = causal_trainer(causal, hook, preprocess_logits_for_metrics=preprocess_logits_for_metrics)
    out2 = reduced.predict(reduced.eval_dataset)
    assert out2.predictions.ndim == 2 and (out2.predictions == -100).any()
    assert_scores_equal(out2.metrics, expected, prefix="test_")
    # batch_eval_metrics with torch tensors per batch, with and without the preprocessing
    for kw in ({}, {"preprocess_logits_for_metrics": preprocess_logits_for_metrics}):
        batched = causal_trainer(causal, build_compute_metrics(tok, causal_lm=True), batch_eval_metrics=True, **kw)
        assert_scores_equal(batched.evaluate(), expected)


def test_all_scores_are_floats_and_finite(snippet):
    for key, value in snippet["metrics"].items():
        assert isinstance(value, (float, int)), key
        assert math.isfinite(value), key
    assert not any(isinstance(v, (str, list, np.ndarray)) for v in snippet["metrics"].values())
