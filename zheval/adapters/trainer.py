"""``compute_metrics`` for transformers ``Trainer`` / ``Seq2SeqTrainer`` (transformers 5.x).

Quick use::

    from zheval.adapters.trainer import build_compute_metrics

    trainer = Seq2SeqTrainer(..., processing_class=tokenizer, compute_metrics=build_compute_metrics(tokenizer))
    trainer.evaluate()   # {"eval_rouge1": ..., "eval_rougeL": ..., "eval_bleu": ..., ...}

What the hook does, and the transformers behaviour behind each step (transformers 5.x ``trainer.py``
``evaluation_loop``, ``trainer_seq2seq.py`` ``prediction_step``, ``trainer_utils.py`` ``EvalPrediction``):

1. **Unwrap.** ``EvalPrediction`` (or a ``(predictions, label_ids)`` tuple). ``predictions`` may be a tuple (a model
   that returns more than logits, e.g. hidden states): its first element is taken.
2. **Logits → ids.** A floating 3-D array ``(batch, length, vocab)`` is reduced with ``argmax`` over the last axis
   (better: pass :func:`preprocess_logits_for_metrics` to the Trainer so that this happens on the device, per
   batch, and the Trainer never stores logits).
3. **Causal LMs** (``causal_lm=True``): the logit at position ``t`` predicts the token at ``t + 1``; predictions are
   shifted by one and only positions whose label is not ``-100`` are kept (the prompt and the padding are masked).
4. **-100 → pad.** The Trainer concatenates batches with ``EvalLoopContainer(padding_index=-100)``, so
   *predictions as well as labels* carry ``-100`` wherever batch lengths differ; a fast tokenizer raises
   ``OverflowError`` on it. Both are replaced by ``tokenizer.pad_token_id`` before decoding.
5. **Decode** with ``skip_special_tokens=True`` (pad, eos, bos, unk and added special tokens disappear) and
   **normalise whitespace** with :func:`zheval.normalize.normalize_space`: character vocabularies decode to
   ``今 天 天 气``, which is scored as ``今天天气`` (spaces between Latin words are kept).
6. **Score** with every metric of ``metrics``, each set up once when the hook is built, and return a flat dict of
   Python floats (``rouge1, rouge2, rougeL, rougeLsum, bleu, precisions_1 .. precisions_4, brevity_penalty, ...``)
   whose keys survive the Trainer's ``eval_`` prefix and can be named in ``metric_for_best_model``.

``batch_eval_metrics=True`` (``TrainingArguments``): the Trainer calls the hook once per batch with torch tensors
and ``compute_result``; the hook keeps the per-item statistics of each batch (decoded texts are scored batch by
batch; BLEU keeps additive n-gram statistics, ROUGE per-item scores), returns the summary on the call with
``compute_result=True`` and then resets. The summary equals the whole-set result exactly.

The Trainer already gathers predictions from every rank and calls ``compute_metrics`` on every rank with the same
data, so evaluate's distributed mode (``num_process``/``process_id``) must not be used here; it is meant for
hand-written ``torchrun``/``accelerate`` loops (``docs/trainer.md``).
"""

from __future__ import annotations

import logging
import math
import numbers
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from ..normalize import normalize_space

__all__ = [
    "IGNORE_INDEX",
    "LIBRARY_METRICS",
    "ZhevalComputeMetrics",
    "build_compute_metrics",
    "preprocess_logits_for_metrics",
    "prediction_ids",
    "decode_predictions",
    "flatten_result",
]

logger = logging.getLogger(__name__)

IGNORE_INDEX = -100
"""The label (and, after concatenation, prediction) padding value used by transformers and PyTorch losses."""

LIBRARY_METRICS = ("chinese_rouge", "chinese_bleu")
"""Metric names that :func:`build_compute_metrics` computes with the zheval library directly (no evaluate module
load, no cache files; the numbers are identical to the ``metrics/<name>`` evaluate modules)."""


# ---------------------------------------------------------------------------------------------------------------
# Arrays


def preprocess_logits_for_metrics(logits, labels=None):
    """Reduce logits to token ids **on their device**; pass as ``Trainer(preprocess_logits_for_metrics=...)``.

    The Trainer calls it on every evaluation batch before gathering and concatenating, so only ``(batch, length)``
    integer ids are kept instead of ``(batch, length, vocab)`` floats (for a 32k vocabulary, 32 000 times less
    memory).

    Args:
        logits: a torch tensor ``(batch, length, vocab)``, or a tuple/list whose first element is one (models that
            also return hidden states or caches). Integer ``(batch, length)`` ids are returned unchanged.
        labels: ignored (part of the Trainer's calling convention).

    Returns:
        A ``torch.long`` tensor ``(batch, length)`` on the logits' device (or the unchanged ids).

    Raises:
        ValueError: a tensor that is neither 3-D floating logits nor 2-D ids, naming its shape.
    """
    if isinstance(logits, (tuple, list)):
        if not logits:
            raise ValueError("preprocess_logits_for_metrics got an empty tuple of logits")
        logits = logits[0]
    shape = tuple(logits.shape)
    if logits.ndim == 3 and logits.is_floating_point():
        return logits.argmax(dim=-1)
    if logits.ndim == 2 and not logits.is_floating_point():
        return logits
    raise ValueError(
        f"preprocess_logits_for_metrics expects logits of shape (batch, length, vocab) or token ids of shape "
        f"(batch, length); got a {'floating' if logits.is_floating_point() else 'integer'} tensor of shape {shape}"
    )


def _to_numpy(x, what: str) -> np.ndarray:
    """numpy array from a numpy array, a torch tensor (any device/dtype; reduced on device when it is logits) or a
    nested list."""
    if hasattr(x, "detach") and hasattr(x, "cpu"):  # torch tensor, without importing torch
        if x.ndim == 3 and x.is_floating_point():
            x = x.argmax(dim=-1)  # on the device: never copy logits to the host
        elif x.is_floating_point() and str(x.dtype) in ("torch.bfloat16", "torch.float16"):
            x = x.float()
        return x.detach().cpu().numpy()
    if isinstance(x, np.ndarray):
        return x
    try:
        return np.asarray(x)
    except ValueError as exc:  # ragged nested lists
        raise ValueError(f"{what} is not a rectangular array ({exc})") from None


def _as_ids(arr: np.ndarray, what: str) -> np.ndarray:
    """Token ids ``(batch, length)`` from ids or logits; raises ValueError naming the shape otherwise."""
    if arr.dtype == object:
        raise ValueError(f"{what} has dtype object (ragged rows?) and shape {arr.shape}; expected a rectangular array")
    if arr.ndim == 3 and np.issubdtype(arr.dtype, np.floating):
        return arr.argmax(axis=-1)
    if arr.ndim == 2:
        if np.issubdtype(arr.dtype, np.integer):
            return arr.astype(np.int64, copy=False)
        if np.issubdtype(arr.dtype, np.floating):
            if np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
                return arr.astype(np.int64)  # ids that went through a float container
            raise ValueError(
                f"{what} of shape {arr.shape} and dtype {arr.dtype} holds non-integer values; expected token ids "
                "(batch, length) or logits (batch, length, vocab)"
            )
    kind = "logits" if arr.ndim == 3 else "token ids"
    raise ValueError(
        f"cannot decode {what} of shape {arr.shape} and dtype {arr.dtype} ({kind}?): expected token ids of shape "
        "(batch, length) or floating logits of shape (batch, length, vocab)"
        + (
            "; a 1-D array looks like classification labels/predictions, which are not text"
            if arr.ndim == 1
            else ""
        )
    )


def prediction_ids(
    predictions,
    label_ids,
    *,
    pad_token_id: int,
    causal_lm: bool = False,
    ignore_index: int = IGNORE_INDEX,
) -> tuple[list[list[int]], list[list[int]]]:
    """Token-id rows to decode, from the Trainer's predictions and labels (numpy arrays or torch tensors).

    Args:
        predictions: ids ``(batch, length)``, logits ``(batch, length, vocab)`` (reduced with ``argmax``), or a
            tuple whose first element is one of those (a list is read as an array of rows).
        label_ids: ids ``(batch, length)`` with ``ignore_index`` where there is no label.
        pad_token_id: the id that replaces ``ignore_index`` (it must be a special token of the tokenizer so that
            ``skip_special_tokens=True`` removes it).
        causal_lm: shift predictions by one position (the prediction at ``t`` is for the label at ``t + 1``) and keep
            only positions whose label is not ``ignore_index``.
        ignore_index: the padding/ignore value, ``-100`` in transformers.

    Returns:
        ``(prediction_rows, label_rows)``: two lists (one entry per item) of lists of non-negative ``int`` ids.

    Raises:
        ValueError: an array that is not token ids or logits (the message names its shape), different numbers of
            rows, causal-LM predictions and labels of different lengths, or a negative id other than
            ``ignore_index`` (naming the row).
    """
    if isinstance(predictions, tuple):
        if not predictions:
            raise ValueError("predictions is an empty tuple")
        predictions = predictions[0]
    if isinstance(label_ids, tuple):
        if len(label_ids) != 1:
            raise ValueError(
                f"label_ids is a tuple of {len(label_ids)} arrays (several label_names?); pass one label array"
            )
        label_ids = label_ids[0]
    if label_ids is None:
        raise ValueError("label_ids is None: the eval dataset has no 'labels' column (or label_names is wrong)")
    preds = _as_ids(_to_numpy(predictions, "predictions"), "predictions")
    labels = _to_numpy(label_ids, "label_ids")
    if labels.ndim != 2 or not (np.issubdtype(labels.dtype, np.integer) or np.issubdtype(labels.dtype, np.floating)):
        raise ValueError(
            f"cannot decode label_ids of shape {labels.shape} and dtype {labels.dtype}: expected token ids of shape "
            "(batch, length)"
        )
    labels = _as_ids(labels, "label_ids")
    if preds.shape[0] != labels.shape[0]:
        raise ValueError(
            f"predictions of shape {preds.shape} and label_ids of shape {labels.shape} have different numbers of "
            "rows (num_return_sequences > 1 gives several predictions per item; keep one per item)"
        )
    if causal_lm:
        if preds.shape[1] != labels.shape[1]:
            raise ValueError(
                f"causal_lm=True needs predictions and label_ids of the same length (teacher-forced logits); got "
                f"shapes {preds.shape} and {labels.shape} (generated ids cannot be aligned with labels)"
            )
        shifted_preds = preds[:, :-1]
        shifted_labels = labels[:, 1:]
        mask = shifted_labels != ignore_index
        pred_rows = [row[m] for row, m in zip(shifted_preds, mask)]
        label_rows = [row[m] for row, m in zip(shifted_labels, mask)]
    else:
        pred_rows = list(preds)
        label_rows = list(labels)
    out_p, out_l = [], []
    for name, rows, out in (("predictions", pred_rows, out_p), ("label_ids", label_rows, out_l)):
        for i, row in enumerate(rows):
            row = np.where(row == ignore_index, pad_token_id, row)
            if row.size and row.min() < 0:
                bad = int(row[row < 0][0])
                raise ValueError(f"{name} row {i} holds the negative id {bad} (only {ignore_index} is replaced by pad)")
            out.append(row.tolist())
    return out_p, out_l


def decode_predictions(
    eval_pred,
    tokenizer,
    *,
    causal_lm: bool = False,
    ignore_index: int = IGNORE_INDEX,
    clean_whitespace: bool = True,
) -> tuple[list[str], list[str]]:
    """Decode an ``EvalPrediction`` (or ``(predictions, label_ids)``) into prediction and reference texts.

    Steps 1–5 of the module docstring: unwrap, logits → ids, causal shift (optional), ``-100`` → pad, decode with
    ``skip_special_tokens=True``, normalise whitespace (``今 天 天 气`` → ``今天天气``).

    Args:
        eval_pred: a ``transformers.EvalPrediction`` or a ``(predictions, label_ids)`` tuple; arrays as numpy arrays
            or torch tensors (see :func:`prediction_ids`).
        tokenizer: a transformers tokenizer with ``pad_token_id`` and ``batch_decode``.
        causal_lm, ignore_index: see :func:`prediction_ids`.
        clean_whitespace: apply :func:`zheval.normalize.normalize_space` to the decoded texts (default).

    Returns:
        ``(predictions, references)``: two lists of ``str``, one per item (possibly empty strings).

    Raises:
        ValueError: ``tokenizer.pad_token_id`` is None (says what to set); bad shapes (see :func:`prediction_ids`).
    """
    pad_id = _pad_token_id(tokenizer)
    preds, labels = _unpack(eval_pred)
    pred_rows, label_rows = prediction_ids(preds, labels, pad_token_id=pad_id, causal_lm=causal_lm, ignore_index=ignore_index)
    pred_texts = tokenizer.batch_decode(pred_rows, skip_special_tokens=True)
    ref_texts = tokenizer.batch_decode(label_rows, skip_special_tokens=True)
    if clean_whitespace:
        pred_texts = [normalize_space(t) for t in pred_texts]
        ref_texts = [normalize_space(t) for t in ref_texts]
    return pred_texts, ref_texts


def _unpack(eval_pred):
    if hasattr(eval_pred, "predictions") and hasattr(eval_pred, "label_ids"):
        return eval_pred.predictions, eval_pred.label_ids
    if isinstance(eval_pred, (tuple, list)) and len(eval_pred) >= 2:
        return eval_pred[0], eval_pred[1]
    raise TypeError(
        f"compute_metrics expects a transformers EvalPrediction or a (predictions, label_ids) tuple, got "
        f"{type(eval_pred).__name__}"
    )


def _pad_token_id(tokenizer) -> int:
    if not hasattr(tokenizer, "batch_decode"):
        raise TypeError(
            f"tokenizer must be a transformers tokenizer (with batch_decode and pad_token_id), got {type(tokenizer).__name__}"
        )
    pad = getattr(tokenizer, "pad_token_id", None)
    if pad is None:
        raise ValueError(
            f"{type(tokenizer).__name__} has no pad_token_id: the hook replaces -100 with the pad id before decoding. "
            "Set one, e.g. `tokenizer.pad_token = tokenizer.eos_token` (causal LMs such as GPT-2/Llama) or "
            "`tokenizer.add_special_tokens({'pad_token': '<pad>'})` (then resize the model's embeddings)."
        )
    return int(pad)


# ---------------------------------------------------------------------------------------------------------------
# Results


def flatten_result(result: Mapping[str, Any], prefix: str = "") -> dict[str, float]:
    """Keep the numeric values of a metric result as a flat ``{str: float}`` dict.

    * numbers (``int``, ``float``, ``bool``, numpy scalars, 0-d arrays/tensors) → ``float``;
    * lists/tuples/1-d arrays of numbers → ``<key>_1``, ``<key>_2``, ... (``precisions`` → ``precisions_1`` ...);
    * nested dicts → ``<key>_<subkey>``;
    * strings (the ``signature``) and ``None`` are left out (they cannot be logged as scalars).

    Args:
        result: a metric's result dict. prefix: prepended to every key.

    Returns:
        A new dict (insertion order kept).
    """
    out: dict[str, float] = {}
    for key, value in result.items():
        name = f"{prefix}{key}"
        if isinstance(value, (str, bytes)) or value is None:
            continue
        if hasattr(value, "tolist") and not isinstance(value, (list, tuple)):
            value = value.tolist()  # numpy scalar/array, torch tensor
        if isinstance(value, Mapping):
            out.update(flatten_result(value, prefix=f"{name}_"))
        elif isinstance(value, (list, tuple)):
            if all(isinstance(v, numbers.Number) for v in value):
                for i, v in enumerate(value, 1):
                    out[f"{name}_{i}"] = float(v)
        elif isinstance(value, numbers.Number):
            out[name] = float(value)
    return out
