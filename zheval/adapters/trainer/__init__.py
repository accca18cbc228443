"""``compute_metrics`` for transformers ``Trainer`` / ``Seq2SeqTrainer`` (transformers 5.x).

Quick use:

    from zheval.adapters.trainer import build_compute_metrics

    trainer = Seq2SeqTrainer(..., processing_class=tokenizer, compute_metrics=build_compute_metrics(tokenizer))
    trainer.evaluate()   # {"eval_rouge1": ..., "eval_rougeL": ..., "eval_bleu": ..., ...}

What the hook does, and the transformers behaviour behind each step (transformers 5.x ``trainer.py``
``evaluation_loop``, ``trainer_seq2seq.py`` ``prediction_step``, ``trainer_utils.py`` ``EvalPrediction``):

1. **Unwrap.** ``EvalPrediction`` (or a ``(predictions, label_ids)`` tuple). ``predictions`` may be a tuple (a model
   that returns more than logits, e.g. hidden states): its first element is taken.
2. **Logits → ids.** A floating 3-D array ``(batch, length, vocab)`` is reduced with ``argmax`` over the last axis
   (better: pass [`preprocess_logits_for_metrics`][zheval.adapters.trainer.decode.preprocess_logits_for_metrics] to the Trainer so that this happens on the device, per
   batch, and the Trainer never stores logits). Positions whose logits are all ``-100`` are padding added by the
   Trainer (``pad_across_processes``, ``EvalLoopContainer``) and become ``-100``, not id 0. Logits holding NaN, a
   position whose logits are all ``-inf`` or one with several ``+inf`` raise ValueError naming the row and position
   (``argmax`` would make a token up); ``-inf`` for masked tokens and one ``+inf`` in a position are read.
3. **Causal LMs** (``causal_lm=True``): the logit at position ``t`` predicts the token at ``t + 1``; predictions are
   shifted by one and only positions whose label is not ``-100`` are kept (the prompt and the padding are masked).
4. **-100 → pad.** The Trainer concatenates batches with ``EvalLoopContainer(padding_index=-100)``, so
   *predictions as well as labels* carry ``-100`` wherever batch lengths differ; a fast tokenizer raises
   ``OverflowError`` on it. Both are replaced by ``tokenizer.pad_token_id`` before decoding.
5. **Decode** with ``skip_special_tokens=True`` (pad, eos, bos, unk and added special tokens disappear) and
   **remove the decoder's spaces** (`remove_decoder_spaces`): a decoder that joins tokens with spaces (BERT's
   WordPiece, a character vocabulary without a decoder) writes ``今 天 天 气``, ``4. 5``, ``K F C``; a space is
   removed where the tokenizer encodes the text the same without it (the ids cannot show it), and kept where it
   changes the encoding (``hello world`` in WordPiece). Byte-level BPE and SentencePiece decode exactly and are left
   alone. Items where a removed space could have been real (``K F C``/``hello world`` from a character vocabulary)
   are counted as ``ambiguous_spaces`` and logged. Items whose reference is empty — as text, or for the scoring
   tokenizer of a metric (``punct="drop"`` and a reference that is only punctuation) — are skipped and counted as
   ``empty_references`` (or raise, ``empty_references="error"``). An empty evaluation set raises ValueError.
6. **Score** with every metric of ``metrics``, each set up once when the hook is built, and return a flat dict of
   Python floats (``rouge1, rouge2, rougeL, rougeLsum, bleu, precisions_1 .. precisions_4, brevity_penalty, ...``)
   whose keys survive the Trainer's ``eval_`` prefix and can be named in ``metric_for_best_model``.

``batch_eval_metrics=True`` (``TrainingArguments``): the Trainer calls the hook once per batch with torch tensors
and ``compute_result``; the hook keeps the per-item statistics of each batch (decoded texts are scored batch by
batch; BLEU keeps additive n-gram statistics, ROUGE per-item scores), returns the summary on the call with
``compute_result=True`` and then resets. The summary equals the whole-set result exactly. Register the hook as a callback too
(``callbacks=[hook]``), or call ``hook.reset()`` after an interrupted evaluation (`events`).

The Trainer already gathers predictions from every rank and calls ``compute_metrics`` on every rank with the same
data, so evaluate's distributed mode (``num_process``/``process_id``) must not be used here; it is meant for
hand-written ``torchrun``/``accelerate`` loops (``docs/trainer.md``).

The package, one job per file:

* `decode` — steps 1–5: arrays → token ids → texts
  ([`preprocess_logits_for_metrics`][zheval.adapters.trainer.decode.preprocess_logits_for_metrics], `prediction_ids`, `decode_predictions`);
* `decoder_spaces` — the decoder's spaces (`remove_decoder_spaces`,
  `decoder_joins_with_spaces`);
* `backends` — one back-end per metric (the library, or a loaded evaluate module);
* `events` — the hook as a Trainer callback (``callbacks=[hook]``): the batches of an interrupted
  ``batch_eval_metrics`` evaluation are discarded when the next one starts;
* `hook` — step 6 and the hook itself ([`build_compute_metrics`][zheval.adapters.trainer.hook.build_compute_metrics],
  `ZhevalComputeMetrics`, `flatten_result`).
"""

from __future__ import annotations

import logging

# the other public names of the package are importable from here too (not in __all__)
from .backends import LIBRARY_METRICS, library_scoring_tokenizer, space_sensitive  # noqa: F401
from .decode import IGNORE_INDEX, decode_predictions, prediction_ids, preprocess_logits_for_metrics
from .hook import DROP_KEYS, ZhevalComputeMetrics, build_compute_metrics, flatten_result  # noqa: F401
from .decoder_spaces import decoder_joins_with_spaces, remove_decoder_spaces

__all__ = [
    "IGNORE_INDEX",
    "LIBRARY_METRICS",
    "ZhevalComputeMetrics",
    "build_compute_metrics",
    "preprocess_logits_for_metrics",
    "prediction_ids",
    "decode_predictions",
    "decoder_joins_with_spaces",
    "remove_decoder_spaces",
    "flatten_result",
]

#: The logger every file of this package writes to (records named ``zheval.adapters.trainer``).
logger = logging.getLogger(__name__)
