"""chrF in the Trainer hook: ``metrics=[..., "chinese_chrf"]`` gives compute_chrf's numbers on the decoded texts,
batch_eval_metrics accumulation equals the whole set exactly, options reach chrF only where it takes them, and the
default metrics stay ROUGE and BLEU; a real (tiny) Seq2SeqTrainer run logs eval_chrf."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from transformers import EvalPrediction

from helpers.trainer_models import HOOK_PAIRS, make_tokenizer
from zheval.adapters.trainer import build_compute_metrics
from zheval.compute.chrf import compute_chrf

PAIRS = [HOOK_PAIRS[i] for i in (0, 1, 2, 4, 5, 8)]  # the empty generation included


@pytest.fixture(scope="module")
def tok():
    return make_tokenizer(extra_chars="".join(p + r for p, r in PAIRS))


def encode(tok, texts, width):
    rows = [tok(t, add_special_tokens=False)["input_ids"] + [tok.eos_token_id] for t in texts]
    return np.array([r + [-100] * (width - len(r)) for r in rows])


def arrays(tok):
    return encode(tok, [p for p, _ in PAIRS], 14), encode(tok, [r for _, r in PAIRS], 12)


@pytest.mark.parametrize("options", [{}, {"word_order": 2}, {"word_order": 2, "tokenizer": "jieba"},
                                     {"eps_smoothing": True, "bootstrap": 40, "seed": 2}])
def test_chrf_equals_the_library_and_batches_equal_the_whole(tok, options):
    preds, labels = arrays(tok)
    hook = build_compute_metrics(tok, metrics=["chinese_chrf"], **options)
    whole = hook(EvalPrediction(predictions=preds, label_ids=labels))
    want = compute_chrf([p for p, _ in PAIRS], [r for _, r in PAIRS], **options)
    assert whole["chrf"] == want["chrf"]
    assert whole["precisions_1"] == want["precisions"][0] and "matches_1" not in whole and "beta" not in whole
    assert hook.results["chinese_chrf"]["signature"] == want["signature"]
    out = None
    for start in range(0, len(preds), 4):
        last = start + 4 >= len(preds)
        out = hook(EvalPrediction(predictions=torch.tensor(preds[start:start + 4]),
                                  label_ids=torch.tensor(labels[start:start + 4])), compute_result=last)
    assert out == whole


def test_with_rouge_and_bleu_options_go_where_they_are_taken(tok):
    preds, labels = arrays(tok)
    hook = build_compute_metrics(tok, metrics=["chinese_rouge", "chinese_bleu", "chinese_chrf"], word_order=2,
                                 max_order=2, rouge_types=["rouge1"])
    got = hook((preds, labels))
    texts_p, texts_r = [p for p, _ in PAIRS], [r for _, r in PAIRS]
    assert got["chrf"] == compute_chrf(texts_p, texts_r, word_order=2)["chrf"]
    assert "chinese_chrf_precisions_1" in got and "chinese_bleu_precisions_1" in got  # the clash rule
    assert "chrf" not in build_compute_metrics(tok)((preds, labels))  # the default metrics are unchanged


def test_unknown_chrf_option_fails_at_build_time(tok):
    with pytest.raises(TypeError, match="chinese_chrf"):
        build_compute_metrics(tok, metrics=[("chinese_chrf", {"whitespace": True})])
    with pytest.raises(ValueError, match="word_order"):
        build_compute_metrics(tok, metrics=["chinese_chrf"], word_order=-1)


def test_real_seq2seq_trainer_logs_chrf(tmp_path):
    from transformers import DataCollatorForSeq2Seq, Seq2SeqTrainer, Seq2SeqTrainingArguments

    from helpers.trainer_models import EVAL_PAIRS, make_t5, seq2seq_dataset

    tok = make_tokenizer(extra_chars="".join(p + r for p, r in EVAL_PAIRS))
    model = make_t5(tok)
    ds = seq2seq_dataset(tok, EVAL_PAIRS)
    hook = build_compute_metrics(tok, metrics=["chinese_bleu", "chinese_chrf"], word_order=2)

    def trainer(**extra):
        args = Seq2SeqTrainingArguments(output_dir=str(tmp_path), per_device_eval_batch_size=2,
                                        predict_with_generate=True, report_to="none", **extra)
        return Seq2SeqTrainer(model=model, args=args, eval_dataset=ds, processing_class=tok,
                              data_collator=DataCollatorForSeq2Seq(tok, model=model), compute_metrics=hook)

    metrics = trainer().evaluate()
    assert len(hook.predictions) == len(EVAL_PAIRS) and hook.references == [r for _, r in EVAL_PAIRS]
    assert metrics["eval_chrf"] == compute_chrf(hook.predictions, hook.references, word_order=2)["chrf"]
    assert "eval_bleu" in metrics and "eval_chinese_chrf_precisions_1" in metrics
    batched = trainer(batch_eval_metrics=True).evaluate()
    assert batched["eval_chrf"] == metrics["eval_chrf"]
