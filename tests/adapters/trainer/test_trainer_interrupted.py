"""batch_eval_metrics and an interrupted evaluation (issue 35, break-it pass 5, F6): the batches an evaluation left
behind before its last batch must not be counted in the next evaluation.

A real Trainer (tiny GPT-2 from a config, 5 evaluation items in batches of 2) is interrupted by a callback raising
KeyboardInterrupt on its second prediction step — after the hook kept the first batch — and evaluated again. The
expected numbers are the whole-set result of a fresh hook (no batch mode) on the same model, itself checked against
the library on independently decoded texts in test_trainer_runs.py; the merged result (the bug) differs from it.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from transformers import EvalPrediction, Trainer, TrainerCallback, TrainingArguments

from helpers.trainer_models import EVAL_PAIRS, causal_collator, causal_dataset, make_causal_lm, make_tokenizer
from zheval.adapters.trainer import build_compute_metrics

KEYS = ("rouge1", "rouge2", "rougeL", "bleu")


class InterruptOnce(TrainerCallback):
    """Raise KeyboardInterrupt on the given prediction step of the first evaluation only."""

    def __init__(self, step: int):
        self.step, self.seen, self.armed = step, 0, True

    def on_prediction_step(self, args, state, control, **kwargs):
        if self.armed:
            self.seen += 1
            if self.seen == self.step:
                self.armed = False
                raise KeyboardInterrupt


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    tok = make_tokenizer()
    return tok, make_causal_lm(tok, output_hidden_states=False), tmp_path_factory.mktemp("interrupted")


def trainer(tiny, hook, callbacks=(), batch=True):
    tok, model, out = tiny
    args = TrainingArguments(output_dir=str(out), per_device_eval_batch_size=2, report_to="none",
                             batch_eval_metrics=batch)
    return Trainer(model=model, args=args, eval_dataset=causal_dataset(tok, EVAL_PAIRS),
                   data_collator=causal_collator(tok), processing_class=tok, compute_metrics=hook,
                   callbacks=list(callbacks))


def whole_set(tiny):
    return trainer(tiny, build_compute_metrics(tiny[0], causal_lm=True), batch=False).evaluate()


def test_interrupted_evaluation_is_not_merged_into_the_next(tiny):
    expected = whole_set(tiny)
    hook = build_compute_metrics(tiny[0], causal_lm=True)
    tr = trainer(tiny, hook, callbacks=[InterruptOnce(step=2), hook])
    with pytest.raises(KeyboardInterrupt):
        tr.evaluate()
    assert hook._n_items == 2  # the first batch (2 rows) was kept, its evaluation never finished
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = tr.evaluate()
    for key in KEYS:
        assert again["eval_" + key] == expected["eval_" + key], key
    texts = [str(w.message) for w in caught]
    assert any("discarded 2 row(s) in 1 batch(es) left over from an earlier evaluation" in t for t in texts), texts
    third = tr.evaluate()  # a finished evaluation leaves nothing behind: no warning, the same numbers
    for key in KEYS:
        assert third["eval_" + key] == expected["eval_" + key], key


def test_unregistered_hook_says_what_to_do(tiny):
    """An unregistered hook cannot see the new evaluation start: it counts the kept batch in the next evaluation
    (the numbers differ from the whole set), and it said, at its first batch, what to do: register it, or reset."""
    expected = whole_set(tiny)
    hook = build_compute_metrics(tiny[0], causal_lm=True)
    tr = trainer(tiny, hook, callbacks=[InterruptOnce(step=2)])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(KeyboardInterrupt):
            tr.evaluate()
    advice = [str(w.message) for w in caught if "cannot see a new evaluation start" in str(w.message)]
    assert len(advice) == 1 and "callbacks=[hook]" in advice[0] and "hook.reset()" in advice[0]
    merged = tr.evaluate()
    assert any(merged["eval_" + key] != expected["eval_" + key] for key in KEYS)
    with pytest.raises(KeyboardInterrupt):
        trainer(tiny, hook, callbacks=[InterruptOnce(step=2)]).evaluate()
    hook.reset()
    again = tr.evaluate()
    for key in KEYS:
        assert again["eval_" + key] == expected["eval_" + key], key


def test_same_dataloader_object_warns_with_the_rows_carried_over(tiny):
    """One dataloader object for every evaluation (dataloader_persistent_workers): the start cannot be seen, the
    summary says how many rows were carried over."""
    hook = build_compute_metrics(tiny[0], causal_lm=True)
    tok = tiny[0]
    loader = [0, 1, 2]  # stands for a 3-step evaluation dataloader, the same object both times
    ids = np.array([tok("今天天气很好</s>", add_special_tokens=False)["input_ids"]])
    pred = EvalPrediction(predictions=ids, label_ids=ids)
    hook.on_init_end()
    hook.on_prediction_step(eval_dataloader=loader)
    hook(pred, compute_result=False)  # interrupted after its first step
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for last in (False, False, True):
            hook.on_prediction_step(eval_dataloader=loader)
            hook(pred, compute_result=last)
    texts = [str(w.message) for w in caught]
    assert any("counts 1 row(s) in 1 batch(es) carried over" in t and "has 3" in t for t in texts), texts


def test_the_hook_takes_every_trainer_event():
    hook = build_compute_metrics(make_tokenizer())
    assert hook.on_train_begin(None, None, None) is None
    assert hook.on_some_future_event(None, None, None, model=None) is None
    with pytest.raises(AttributeError):
        hook.not_an_event
