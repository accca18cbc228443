# `model`, `tokenizer`, `train_dataset`, `eval_dataset` (tokenised, with a "labels" column) are yours.
from transformers import DataCollatorForSeq2Seq, Seq2SeqTrainer, Seq2SeqTrainingArguments

from zheval.adapters.trainer import build_compute_metrics

compute_metrics = build_compute_metrics(tokenizer)  # chinese_rouge + chinese_bleu, set up once

args = Seq2SeqTrainingArguments(
    output_dir="out",
    predict_with_generate=True,  # score generated text, not teacher-forced logits
    eval_strategy="epoch",
    save_strategy="epoch",
    save_total_limit=1,
    load_best_model_at_end=True,
    metric_for_best_model="rougeL",  # any returned key: rouge1, rouge2, rougeL, rougeLsum, bleu, ...
    num_train_epochs=8,
    learning_rate=5e-3,
    per_device_train_batch_size=2,
    per_device_eval_batch_size=2,
    report_to="none",
)
trainer = Seq2SeqTrainer(
    model=model,
    args=args,
    train_dataset=train_dataset,
    eval_dataset=eval_dataset,
    data_collator=DataCollatorForSeq2Seq(tokenizer, model=model),  # pads labels with -100
    processing_class=tokenizer,
    compute_metrics=compute_metrics,
)
trainer.train()
metrics = trainer.evaluate()
print(metrics["eval_rougeL"], metrics["eval_bleu"])
