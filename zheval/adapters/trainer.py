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
   batch, and the Trainer never stores logits). Positions whose logits are all ``-100`` are padding added by the
   Trainer (``pad_across_processes``, ``EvalLoopContainer``) and become ``-100``, not id 0.
3. **Causal LMs** (``causal_lm=True``): the logit at position ``t`` predicts the token at ``t + 1``; predictions are
   shifted by one and only positions whose label is not ``-100`` are kept (the prompt and the padding are masked).
4. **-100 → pad.** The Trainer concatenates batches with ``EvalLoopContainer(padding_index=-100)``, so
   *predictions as well as labels* carry ``-100`` wherever batch lengths differ; a fast tokenizer raises
   ``OverflowError`` on it. Both are replaced by ``tokenizer.pad_token_id`` before decoding.
5. **Decode** with ``skip_special_tokens=True`` (pad, eos, bos, unk and added special tokens disappear) and
   **remove the decoder's spaces** (:func:`remove_decoder_spaces`): a decoder that joins tokens with spaces (BERT's
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
``compute_result=True`` and then resets. The summary equals the whole-set result exactly.

The Trainer already gathers predictions from every rank and calls ``compute_metrics`` on every rank with the same
data, so evaluate's distributed mode (``num_process``/``process_id``) must not be used here; it is meant for
hand-written ``torchrun``/``accelerate`` loops (``docs/trainer.md``).
"""

from __future__ import annotations

import logging
import math
import numbers
import re
from typing import Any, Mapping, Sequence

import numpy as np

from ..text.chars import HAN_CLASS_BODY

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
        A ``torch.long`` tensor ``(batch, length)`` on the logits' device (or the unchanged ids). Positions whose
        logits are all ``-100`` (padding added by ``accelerator.pad_across_processes`` before this call) are ``-100``.

    Raises:
        ValueError: a tensor that is neither 3-D floating logits nor 2-D ids, naming its shape.
    """
    if isinstance(logits, (tuple, list)):
        if not logits:
            raise ValueError("preprocess_logits_for_metrics got an empty tuple of logits")
        logits = logits[0]
    shape = tuple(logits.shape)
    if logits.ndim == 3 and logits.is_floating_point():
        return _torch_argmax(logits)
    if logits.ndim == 2 and not logits.is_floating_point():
        return logits
    raise ValueError(
        f"preprocess_logits_for_metrics expects logits of shape (batch, length, vocab) or token ids of shape "
        f"(batch, length); got a {'floating' if logits.is_floating_point() else 'integer'} tensor of shape {shape}"
    )


def _torch_argmax(logits, ignore_index: int = IGNORE_INDEX):
    """``argmax`` over the vocabulary on the tensor's device; positions whose logits are all ``-100`` (padding
    added by ``accelerator.pad_across_processes`` / ``EvalLoopContainer`` when sequence lengths differ) become
    ``-100`` instead of id 0, so they decode to nothing."""
    ids = logits.argmax(dim=-1)
    padded = (logits == ignore_index).all(dim=-1)
    if bool(padded.any()):
        ids = ids.masked_fill(padded, ignore_index)
    return ids


def _numpy_argmax(logits: np.ndarray, ignore_index: int = IGNORE_INDEX) -> np.ndarray:
    """:func:`_torch_argmax` for numpy arrays."""
    ids = logits.argmax(axis=-1).astype(np.int64)
    padded = np.all(logits == ignore_index, axis=-1)
    if padded.any():
        ids[padded] = ignore_index
    return ids


def _to_numpy(x, what: str, ignore_index: int = IGNORE_INDEX) -> np.ndarray:
    """numpy array from a numpy array, a torch tensor (any device/dtype; reduced on device when it is logits) or a
    nested list."""
    if hasattr(x, "detach") and hasattr(x, "cpu"):  # torch tensor, without importing torch
        if x.ndim == 3 and x.is_floating_point():
            x = _torch_argmax(x, ignore_index)  # on the device: never copy logits to the host
        elif x.is_floating_point() and str(x.dtype) in ("torch.bfloat16", "torch.float16"):
            x = x.float()
        return x.detach().cpu().numpy()
    if isinstance(x, np.ndarray):
        return x
    try:
        return np.asarray(x)
    except ValueError as exc:  # ragged nested lists
        raise ValueError(f"{what} is not a rectangular array ({exc})") from None


def _as_ids(arr: np.ndarray, what: str, ignore_index: int = IGNORE_INDEX) -> np.ndarray:
    """Token ids ``(batch, length)`` from ids or logits; raises ValueError naming the shape otherwise."""
    if arr.ndim >= 1 and arr.shape[0] == 0:
        return np.zeros((0, 0), dtype=np.int64)  # no items (an empty evaluation set): the hook reports it
    if arr.dtype == object:
        raise ValueError(f"{what} has dtype object (ragged rows?) and shape {arr.shape}; expected a rectangular array")
    if arr.ndim == 3 and np.issubdtype(arr.dtype, np.floating):
        return _numpy_argmax(arr, ignore_index)
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
    preds = _as_ids(_to_numpy(predictions, "predictions", ignore_index), "predictions", ignore_index)
    labels = _to_numpy(label_ids, "label_ids")
    if labels.ndim >= 1 and labels.shape[0] == 0:
        labels = np.zeros((0, 0), dtype=np.int64)
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
    if causal_lm and preds.shape[0]:
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
                raise ValueError(
                    f"{name} row {i} holds the negative id {bad} (only {ignore_index} is replaced by pad)"
                )
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
    ``skip_special_tokens=True``, remove the spaces the decoder put between tokens where the ids cannot show a space
    (:func:`remove_decoder_spaces`: ``今 天 天 气`` → ``今天天气``, ``4. 5`` → ``4.5``; ``hello world`` from a
    WordPiece vocabulary stays). A text in which such a removed space could have been a real one (``K F C`` from a
    character vocabulary: ``KFC`` or ``K F C``?) is logged as a warning.

    Args:
        eval_pred: a ``transformers.EvalPrediction`` or a ``(predictions, label_ids)`` tuple; arrays as numpy arrays
            or torch tensors (see :func:`prediction_ids`).
        tokenizer: a transformers tokenizer with ``pad_token_id`` and ``batch_decode``.
        causal_lm, ignore_index: see :func:`prediction_ids`.
        clean_whitespace: remove the decoder's spaces (default); False: the texts exactly as ``batch_decode``
            returns them.

    Returns:
        ``(predictions, references)``: two lists of ``str``, one per item (possibly empty strings; both empty for an
        empty evaluation set).

    Raises:
        ValueError: ``tokenizer.pad_token_id`` is None (says what to set); bad shapes (see :func:`prediction_ids`).
    """
    preds, refs, amb_p, amb_r = _decode(
        eval_pred, tokenizer, causal_lm=causal_lm, ignore_index=ignore_index, clean_whitespace=clean_whitespace
    )
    n_amb = sum(a or b for a, b in zip(amb_p, amb_r))
    if n_amb:
        logger.warning(_ambiguous_message(n_amb, len(preds), _ambiguous_example(preds, refs, amb_p, amb_r)))
    return preds, refs


def _decode(eval_pred, tokenizer, *, causal_lm, ignore_index, clean_whitespace, space_sensitive=False):
    """:func:`decode_predictions` plus, per item, whether its prediction / reference holds a removed space that
    could have been real (``(preds, refs, ambiguous_preds, ambiguous_refs)``)."""
    pad_id = _pad_token_id(tokenizer)
    preds, labels = _unpack(eval_pred)
    pred_rows, label_rows = prediction_ids(
        preds, labels, pad_token_id=pad_id, causal_lm=causal_lm, ignore_index=ignore_index
    )
    n = len(pred_rows)
    texts = tokenizer.batch_decode(pred_rows + label_rows, skip_special_tokens=True) if n else []
    if clean_whitespace and n:
        texts, ambiguous = _DecoderSpaces(tokenizer, space_sensitive=space_sensitive).apply(texts)
    else:
        ambiguous = [False] * len(texts)
    return texts[:n], texts[n:], ambiguous[:n], ambiguous[n:]


def _ambiguous_example(preds, refs, amb_p, amb_r, indices=None) -> str | None:
    """``"item 3, prediction: '...'"`` for the first ambiguous item among ``indices`` (default: all), or None."""
    for i in range(len(preds)) if indices is None else indices:
        if amb_p[i] or amb_r[i]:
            which, text = ("prediction", preds[i]) if amb_p[i] else ("reference", refs[i])
            return f"item {i}, {which}: {text if len(text) <= 60 else text[:57] + '...'!r}"
    return None


def _ambiguous_message(n_items: int, n_total: int, example: str | None, space_sensitive: bool = False) -> str:
    where = (
        "between two tokens, which a scoring tokenizer that splits on spaces ('none' or a callable) would read as a "
        "token boundary (the tokenizer encodes e.g. '今天 天气' and '今天天气' alike)"
        if space_sensitive
        else "between two letters/digits (the tokenizer encodes e.g. 'K F C' and 'KFC' alike)"
    )
    return (
        f"zheval compute_metrics: in {n_items} of {n_total} items the token ids cannot show whether there was a "
        f"space {where}; the decoder's spaces there were removed ({example}), so a text written 'hello world' is "
        "scored as 'helloworld'. Scores of these items may differ from scores of the original texts (reported as "
        "'ambiguous_spaces'); for exact numbers use a tokenizer that encodes spaces (WordPiece, byte-level BPE, "
        "SentencePiece) or score saved generations with zheval offline."
    )


# ---------------------------------------------------------------------------------------------------------------
# Spaces put in by the decoder

_KANA_BODY = "\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9d"
#: A letter or digit of a script that separates words with spaces (not Han, not kana). A removed space between two
#: such characters could have been a word boundary (``hello world``) as well as a decoder artefact (``K F C``).
_SPACED_WORD_CHAR_RE = re.compile(f"[^\\W_{HAN_CLASS_BODY}{_KANA_BODY}]")
_PROBE_TOKENS = 32  # vocabulary tokens looked at by decoder_joins_with_spaces
_PROBE_IDS = 8192  # at most this many ids are decoded to find them


def decoder_joins_with_spaces(tokenizer) -> bool:
    """Whether the tokenizer's decoder puts a space between every two tokens (WordPiece / BERT, a ``tokenizers``
    model without a decoder such as a character ``WordLevel`` vocabulary), rather than decoding the tokens' own text
    (byte-level BPE, SentencePiece/Metaspace, ``BPEDecoder``, which need no repair).

    Probe: the first :data:`_PROBE_TOKENS` ordinary vocabulary tokens (not special) that decode on their own to
    letters/digits only (``今``, ``4``, ``hello``; not ``##ing``, not ``Ġthe``); the decoder joins with spaces when
    every consecutive pair of them decodes to ``decode([a]) + " " + decode([b])`` (a SentencePiece vocabulary has
    tokens without ``▁``, which join without a space). Fewer than two such tokens → False (texts are left alone).
    Runs in a few milliseconds; nothing is remembered (the tokenizer may change between calls).
    """
    special = set(getattr(tokenizer, "all_special_ids", None) or ())
    n_vocab = len(tokenizer)
    found: list[tuple[int, str]] = []
    for start in range(0, min(n_vocab, _PROBE_IDS), 1024):
        ids = [i for i in range(start, min(n_vocab, start + 1024)) if i not in special]
        if not ids:
            continue
        singles = tokenizer.batch_decode([[i] for i in ids], skip_special_tokens=True,
                                         clean_up_tokenization_spaces=False)
        found += [(i, t) for i, t in zip(ids, singles) if t.isalnum()]
        if len(found) >= _PROBE_TOKENS:
            break
    found = found[:_PROBE_TOKENS]
    if len(found) < 2:
        return False
    pairs = list(zip(found, found[1:]))
    joint = tokenizer.batch_decode([[a, b] for (a, _), (b, _) in pairs], skip_special_tokens=True,
                                   clean_up_tokenization_spaces=False)
    return all(j == f"{sa} {sb}" for j, ((_, sa), (_, sb)) in zip(joint, pairs))


def remove_decoder_spaces(texts: Sequence[str], tokenizer, *, space_sensitive: bool = False):
    """Remove the spaces a space-joining decoder put between tokens where the token ids cannot show a space.

    The rule (for a tokenizer whose decoder joins tokens with spaces, :func:`decoder_joins_with_spaces`; any other
    tokenizer's texts are returned unchanged): in a decoded text ``w1 w2 … wn`` (``wi`` the runs between spaces), the
    space between ``wi`` and ``wi+1`` is removed when the tokenizer encodes ``wi + wi+1`` to the same ids as
    ``wi + " " + wi+1`` — the space then carries no information, since the ids are the same whether the text had it
    or not. A space that changes the encoding is kept: it is a real word boundary the ids show (``hello world`` in
    a WordPiece vocabulary, where ``helloworld`` would encode as ``hello ##world``). So ``今 天`` → ``今天``,
    ``4. 5`` → ``4.5`` (BERT splits punctuation off either way), ``3 . 5 G B`` → ``3.5GB`` (a character vocabulary).
    Every rebuilt text encodes to the same ids as the decoded one: all spaces are tried at once first (one encoding
    per text), then, for a text where that changes the ids, pair by pair (each distinct pair encoded once within
    the call), then space by space where the pairs' decisions do not hold in context.

    Where a removed space sits between two letters/digits of a script that separates words with spaces (Latin,
    digits, Cyrillic, Hangul, …), the original could have had a space there (``hello world`` and ``helloworld``
    encode alike in a character vocabulary): such a text is *ambiguous* — its space was removed and it is reported.
    With ``space_sensitive=True`` (a scoring tokenizer that splits on spaces) every removed space makes it ambiguous.

    Args:
        texts: decoded texts (``batch_decode(..., skip_special_tokens=True)``).
        tokenizer: the transformers tokenizer that decoded them (``batch_decode`` and ``__call__``).
        space_sensitive: count every removed space as ambiguous.

    Returns:
        ``(texts, ambiguous)``: the texts with the decoder's silent spaces removed (a new list) and the sorted
        indices of the ambiguous texts.
    """
    out, flags = _DecoderSpaces(tokenizer, space_sensitive=space_sensitive).apply(list(texts))
    return out, [i for i, f in enumerate(flags) if f]


class _DecoderSpaces:
    """:func:`remove_decoder_spaces` for one call: the probe and the pair decisions live as long as the instance
    (one ``compute_metrics`` call), keyed by the texts themselves."""

    def __init__(self, tokenizer, *, space_sensitive: bool = False):
        self.tokenizer = tokenizer
        self.space_sensitive = space_sensitive
        self.joins = decoder_joins_with_spaces(tokenizer)
        # a vocabulary that encodes a space as a token *and* a decoder that joins tokens with spaces: every decoder
        # space would re-encode as a space token, so no space looks silent and none can be told from a real one
        self.spaces_are_tokens = self.joins and bool(self._encode([" "])[0])
        self._silent: dict[tuple[str, str], bool] = {}

    def _encode(self, texts: list[str]) -> list[list[int]]:
        if not texts:
            return []
        return self.tokenizer(texts, add_special_tokens=False, verbose=False, return_attention_mask=False,
                              return_token_type_ids=False)["input_ids"]

    def _decide_pairs(self, pairs: set) -> None:
        new = [p for p in pairs if p not in self._silent]
        if not new:
            return
        glued = self._encode([a + b for a, b in new])
        spaced = self._encode([f"{a} {b}" for a, b in new])
        for pair, g, sp in zip(new, glued, spaced):
            self._silent[pair] = list(g) == list(sp)

    def _ambiguous(self, left: str, right: str) -> bool:
        return self.space_sensitive or bool(
            _SPACED_WORD_CHAR_RE.match(left[-1]) and _SPACED_WORD_CHAR_RE.match(right[0])
        )

    def apply(self, texts: list[str]) -> tuple[list[str], list[bool]]:
        """``(texts, ambiguous flags)`` for a list of decoded texts.

        Every decision is checked on the whole text: a rebuilt text must encode to the ids of the decoded one.
        First every space at once (one encoding per text: a character vocabulary, or Chinese text in BERT, where no
        space is encoded); for a text where that changes the ids, pair by pair (a space stays where its pair
        encodes differently without it), and where the pairs' decisions do not hold in context, space by space.
        """
        flags = [False] * len(texts)
        out = list(texts)
        if not self.joins:
            return out, flags
        if self.spaces_are_tokens:
            if any(" " in t for t in texts):
                logger.warning(
                    "zheval compute_metrics: %s encodes a space as a token and its decoder also puts a space between "
                    "every two tokens, so the decoded texts hold spaces that were never in the text and the hook "
                    "cannot tell them from real ones; the texts are scored as decoded ('今 天 K F C'). Give the "
                    "tokenizer a decoder that concatenates tokens (tokenizers.decoders.Fuse()) for correct scores.",
                    type(self.tokenizer).__name__,
                )
            return out, flags
        todo = [(k, t.split(" ")) for k, t in enumerate(texts) if " " in t]
        if not todo:
            return out, flags
        all_gaps = [[bool(a and b) for a, b in zip(pieces, pieces[1:])] for _, pieces in todo]
        targets = self._encode([texts[k] for k, _ in todo])
        glued = self._encode([_join(pieces, drop) for (_, pieces), drop in zip(todo, all_gaps)])
        pairwise = []
        for (k, pieces), drop, target, g in zip(todo, all_gaps, targets, glued):
            if list(g) == list(target):
                self._set(out, flags, k, pieces, drop)
            else:
                pairwise.append((k, pieces, list(target)))
        if not pairwise:
            return out, flags
        self._decide_pairs({(a, b) for _, pieces, _ in pairwise for a, b in zip(pieces, pieces[1:]) if a and b})
        drops = [[bool(a and b and self._silent[(a, b)]) for a, b in zip(pieces, pieces[1:])]
                 for _, pieces, _ in pairwise]
        rebuilt = self._encode([_join(pieces, drop) for (_, pieces, _), drop in zip(pairwise, drops)])
        for (k, pieces, target), drop, r in zip(pairwise, drops, rebuilt):
            if list(r) != target:
                drop = self._decide_in_context(pieces, drop, target)
            self._set(out, flags, k, pieces, drop)
        return out, flags

    def _set(self, out: list[str], flags: list[bool], k: int, pieces: list[str], drop: list[bool]) -> None:
        out[k] = _join(pieces, drop)
        flags[k] = any(d and self._ambiguous(a, b) for d, a, b in zip(drop, pieces, pieces[1:]))

    def _decide_in_context(self, pieces: list[str], drop: list[bool], target: list[int]) -> list[bool]:
        """Space by space, left to right: remove a candidate space only if the whole text still encodes to
        ``target`` (rare: a pair that glues differently next to its neighbours)."""
        decided = [False] * len(drop)
        for g, candidate in enumerate(drop):
            if not candidate:
                continue
            trial = decided.copy()
            trial[g] = True
            if list(self._encode([_join(pieces, trial)])[0]) == target:
                decided = trial
        return decided


def _join(pieces: list[str], drop: list[bool]) -> str:
    parts = [pieces[0]]
    for piece, d in zip(pieces[1:], drop):
        parts.append(piece if d else " " + piece)
    return "".join(parts)


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
            "tokenizer must be a transformers tokenizer (with batch_decode and pad_token_id), got "
            f"{type(tokenizer).__name__}"
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


# ---------------------------------------------------------------------------------------------------------------
# Metric back-ends: the zheval library (chinese_rouge, chinese_bleu) or any loaded evaluate module

#: Result keys left out of the hook's flat dict by default: per-order raw counts (kept in ``hook.results``), the
#: per-item ``scores`` list of sentence-level BLEU, and strings (``signature``, ``level``) which are always left out.
DROP_KEYS = ("counts", "totals", "scores")


def space_sensitive(options: Mapping) -> bool:
    """True when the scoring tokenizer named in ``options`` may take spaces as token boundaries: ``"none"`` (or a
    :class:`zheval.tokenizers.WhitespaceTokenizer`) and a user callable / ``.tokenize`` object (which receives the
    text with its spaces). For such a metric every space the hook removes from a decoded text (one the token ids
    cannot show, :func:`remove_decoder_spaces`) counts as ambiguous. ``char`` and ``jieba`` (default) are not: their
    default normalisation removes spaces next to Chinese characters anyway."""
    from ..tokenizers import BaseTokenizer, CallableTokenizer, WhitespaceTokenizer

    tok = options.get("tokenizer")
    if tok is None or isinstance(tok, str):
        return tok == "none"
    if isinstance(tok, BaseTokenizer):
        return isinstance(tok, (WhitespaceTokenizer, CallableTokenizer))
    return True  # a user callable or object with .tokenize


def library_scoring_tokenizer(name: str, options: Mapping):
    """The zheval tokenizer that ``compute_bleu`` (``name="chinese_bleu"``) or ``compute_rouge``
    (``"chinese_rouge"``) builds from these options — their own option resolution, preset included — so that the
    hook can tell which references have no tokens before calling them. Options the metric does not take are ignored.
    Raises what the library raises for bad option values."""
    if name == "chinese_bleu":
        from ..compute import bleu as lib
    elif name == "chinese_rouge":
        from ..compute import rouge as lib
    else:
        raise ValueError(f"not a library metric: {name!r}; valid: {LIBRARY_METRICS}")
    own = {k: v for k, v in options.items() if k in _library_options(name)}
    given = {k: v for k, v in own.items() if k in lib.DEFAULTS}
    resolved = lib.resolve_options(own.get("preset"), **given)
    tok_opts = {k: v for k, v in own.items() if k in lib.TOKENIZER_OPTIONS}
    if name == "chinese_bleu":
        return lib.build_bleu_tokenizer(resolved["tokenizer"], **tok_opts)
    tok_opts.pop("normalize", None)  # compute_rouge: the resolved value (a preset may set it) replaces the given one
    if resolved["normalize"] is not None:
        tok_opts["normalize"] = resolved["normalize"]
    return lib.build_rouge_tokenizer(resolved["tokenizer"], **tok_opts)


def _probe(compute) -> set:
    """Run ``compute`` on a one-item probe to raise bad option values when the hook is built; return the result's
    keys. A scoring tokenizer that gives the probe reference no token (a user callable) raises the data error
    :class:`~zheval.compute.inputs.EmptyReferenceError`, which says nothing about the options: the keys are then unknown
    (empty set)."""
    from ..compute.inputs import EmptyReferenceError

    try:
        return set(compute(["好"], ["好"]))
    except EmptyReferenceError:
        return set()


class _Backend:
    """One metric of the hook. ``compute`` scores a whole set; ``add``/``summary`` accumulate batches."""

    name: str
    options: dict

    @property
    def space_sensitive(self) -> bool:
        """Whether this metric's scoring tokenizer may split on spaces (see :func:`space_sensitive`)."""
        return space_sensitive(self.options)

    def scoring_tokenizers(self) -> list:
        """``[(metric name, zheval tokenizer)]`` this metric scores with (built anew for each call: a user callable is
        never kept between calls); empty when the hook cannot know it (an evaluate module other than ours)."""
        return [(self.name, library_scoring_tokenizer(self.name, self.options))]

    def _take_options(self, options: dict, known) -> None:
        """Keep ``options``; refuse unknown ones and ``crosscheck`` (both metrics share these rules)."""
        self.options = dict(options)
        bad = sorted(set(self.options) - set(known))
        if bad:
            raise TypeError(f"{self.name} got unknown option(s) {bad}; valid options: {', '.join(sorted(known))}")
        if self.options.get("crosscheck"):
            raise ValueError("crosscheck=True is not supported inside a Trainer hook; run it on saved predictions")

    def compute(self, predictions: list[str], references: list[str]) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    def add(self, predictions: list[str], references: list[str]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def summary(self) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    def reset(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class _BleuBackend(_Backend):
    """:func:`zheval.compute.bleu.compute_bleu`; batches keep the additive per-item statistics matrix."""

    name = "chinese_bleu"

    def __init__(self, options: dict):
        from ..compute import bleu as bleu_corpus

        self._lib = bleu_corpus
        self._take_options(options, bleu_corpus.BLEU_OPTIONS)
        # split as compute_bleu does: preset + scoring options, tokenizer options, interval options
        tok_opts = {k: v for k, v in self.options.items() if k in bleu_corpus.TOKENIZER_OPTIONS}
        given = {k: v for k, v in self.options.items() if k in bleu_corpus.DEFAULTS}
        self._opts = bleu_corpus.resolve_options(self.options.get("preset"), **given)
        self._tok_opts = tok_opts
        self._interval = {k: self.options[k] for k in ("bootstrap", "seed", "confidence") if k in self.options}
        self._stats: list[np.ndarray] = []
        # fail fast (bad option values) when the hook is built, not after training; the keys of this probe tell
        # which option-dependent extras compute_bleu adds (they do not depend on the data)
        self._probe_keys = _probe(self.compute)

    def compute(self, predictions, references):
        return self._lib.compute_bleu(predictions, references, **self.options)

    def add(self, predictions, references):
        o = self._opts
        self._stats.append(
            self._lib.bleu_stats(predictions, references, o["tokenizer"], o["max_order"], **self._tok_opts)
        )

    def summary(self):
        o = self._opts
        width = 3 + 2 * o["max_order"]
        stats = np.concatenate(self._stats, axis=0) if self._stats else np.zeros((0, width), dtype=np.int64)
        self._stats = []
        keys = ("smooth_method", "smooth_value", "bp_ref_length", "effective_order", "weights")
        score_opts = {k: o[k] for k in keys}
        out = self._lib.result_from_stats(stats, level=o["level"], **self._interval, **score_opts)
        if "llamafactory_bleu_4" in self._probe_keys:
            from ..presets.llamafactory import llamafactory_bleu4

            out["llamafactory_bleu_4"] = llamafactory_bleu4(out["scores"])
        return out

    def reset(self):
        self._stats = []


class _RougeBackend(_Backend):
    """:func:`zheval.compute.rouge.compute_rouge`; batches keep the per-item P/R/F of every ROUGE type and the summary
    takes their exact mean (``math.fsum``, order-independent), as ``compute_rouge`` does."""

    name = "chinese_rouge"

    def __init__(self, options: dict):
        from ..compute import rouge as rouge_corpus

        self._lib = rouge_corpus
        self._take_options(options, rouge_corpus.ROUGE_OPTIONS)
        if self.options.get("use_aggregator", True) is False:
            raise ValueError(
                "use_aggregator=False returns per-item lists; a Trainer needs one number per key (the per-item "
                "values of the last call are in hook.results only when use_aggregator=True is kept)"
            )
        self._items: dict[str, list[float]] = {}
        _probe(self.compute)  # fail fast (bad option values) when the hook is built, not after training

    def compute(self, predictions, references):
        return self._lib.compute_rouge(predictions, references, **self.options)

    def add(self, predictions, references):
        per_item = {**self.options, "use_aggregator": False, "bootstrap": 0, "return_precision_recall": True}
        res = self._lib.compute_rouge(predictions, references, **per_item)
        for key, value in res.items():
            if isinstance(value, list):
                self._items.setdefault(key, []).extend(value)

    def summary(self):
        from ..results.reducers import bootstrap_interval, mean

        items, self._items = self._items, {}
        types = [k for k in items if not k.endswith(("_precision", "_recall"))]
        out: dict[str, Any] = {t: mean(items[t]) for t in types}
        if self.options.get("return_precision_recall"):
            for t in types:
                out[f"{t}_precision"] = mean(items[f"{t}_precision"])
                out[f"{t}_recall"] = mean(items[f"{t}_recall"])
        n_boot = self.options.get("bootstrap", 0)
        if n_boot:
            seed, confidence = self.options.get("seed", 12345), self.options.get("confidence", 0.95)
            for t in types:
                values = np.asarray(items[t])
                if len(values):
                    low, high = bootstrap_interval(values, lambda a: a.mean(axis=-1), int(n_boot), confidence, seed)
                else:
                    low = high = 0.0
                out[f"{t}_ci_low"], out[f"{t}_ci_high"] = low, high
        if self.options.get("preset") == "llamafactory":
            from ..presets.llamafactory import llamafactory_item_value, llamafactory_mean
            from ..definitions.rouge import parse_rouge_type

            for t in types:
                rt = parse_rouge_type(t)
                key = "llamafactory_rouge_" + ("l" if rt.kind == "L" else str(rt.n))
                out[key] = llamafactory_mean([llamafactory_item_value(f) for f in items[t]])
        return out

    def reset(self):
        self._items = {}


def _is_zheval_module(module) -> bool:
    """A loaded ``metrics/chinese_rouge`` / ``metrics/chinese_bleu`` script of this package (its module calls this
    zheval's ``compute_rouge`` / ``compute_bleu``), not merely a module of that name."""
    import sys

    name = getattr(module, "name", None)
    if name not in LIBRARY_METRICS:
        return False
    from ..compute import bleu as bleu_corpus, rouge as rouge_corpus

    script = sys.modules.get(type(module).__module__)
    fn = rouge_corpus.compute_rouge if name == "chinese_rouge" else bleu_corpus.compute_bleu
    return getattr(script, fn.__name__, None) is fn


class _ModuleBackend(_Backend):
    """A loaded ``evaluate`` module: ``compute`` for a whole set, ``add_batch`` + ``compute`` for batches."""

    def __init__(self, module, options: dict):
        members = getattr(module, "evaluation_modules", None) or [module]  # evaluate.combine(...) or one module
        for m in members:
            if getattr(m, "num_process", 1) != 1:
                raise ValueError(
                    f"evaluate module {getattr(m, 'name', m)!r} was loaded with num_process={m.num_process}: the "
                    "Trainer already gathers predictions from every rank and calls compute_metrics on each of them, "
                    "so evaluate's distributed mode must not be used inside a Trainer (load it without num_process)"
                )
        self.module = module
        names = getattr(module, "evaluation_module_names", None)
        self.name = getattr(module, "name", None) or ("+".join(names) if names else type(module).__name__)
        self.options = dict(options)

    def scoring_tokenizers(self) -> list:
        """For zheval's own modules (``metrics/chinese_rouge``, ``metrics/chinese_bleu``, alone or in
        ``evaluate.combine``) the tokenizer their ``compute`` builds from the options; nothing for other modules."""
        members = getattr(self.module, "evaluation_modules", None) or [self.module]
        return [(m.name, library_scoring_tokenizer(m.name, self.options)) for m in members if _is_zheval_module(m)]

    def compute(self, predictions, references):
        return self.module.compute(predictions=predictions, references=references, **self.options)

    def add(self, predictions, references):
        self.module.add_batch(predictions=predictions, references=references)

    def summary(self):
        return self.module.compute(**self.options)

    def reset(self):
        # evaluate has no public reset; compute() on the rows added so far empties the buffer
        try:
            self.module.compute(**self.options)
        except Exception:  # nothing was added, or the rows are unusable: either way the buffer is gone
            pass


# ---------------------------------------------------------------------------------------------------------------
# The hook


_EMPTY_SET_MESSAGE = (
    "compute_metrics got an empty evaluation set (0 items in {where}): there is nothing to score. Check "
    "eval_dataset (empty split, or every row removed by filtering/max_length); the Trainer itself does not call "
    "compute_metrics for an empty dataloader"
)


class ZhevalComputeMetrics:
    """The callable returned by :func:`build_compute_metrics` (see there); pass it as ``compute_metrics``.

    Call forms (transformers 5.x):

    * ``hook(eval_pred)`` — the whole evaluation set at once (default Trainer behaviour). Stateless.
    * ``hook(eval_pred, compute_result=False|True)`` — ``batch_eval_metrics=True``: one call per batch (torch
      tensors); per-item statistics are kept, the call with ``compute_result=True`` returns the summary and resets
      the state. Calls with ``compute_result=False`` return ``{}``.

    Returns:
        ``dict[str, float]``: for each metric its numeric keys (:func:`flatten_result`, minus :data:`DROP_KEYS`),
        e.g. ``rouge1, rouge2, rougeL, rougeLsum, bleu, precisions_1 .. precisions_4, brevity_penalty,
        length_ratio, translation_length, reference_length``; a key produced by two metrics is prefixed with the
        metric name (as ``evaluate.combine``). Two counts are added when they are not 0: ``empty_references`` (items
        skipped because their reference decoded to an empty string or has no tokens for a metric's scoring
        tokenizer) and ``ambiguous_spaces`` (scored items whose prediction or reference lost a decoder space that
        could have been a real one, :func:`remove_decoder_spaces`). When every item was skipped, every score is
        ``nan``. Scale: ROUGE and BLEU scores, precisions and the brevity penalty on 0–1 (the ``llamafactory_*``
        keys of the ``llamafactory`` presets on LLaMA-Factory's 0–100); ``translation_length``/``reference_length``
        in tokens of the scoring tokenizer.

    Raises:
        ValueError: an empty evaluation set (0 items in a whole-set call, or in all the batches of a
            ``batch_eval_metrics`` evaluation); with ``empty_references="error"``, an item whose reference is empty;
            bad arrays (see :func:`prediction_ids`).

    Attributes:
        metrics: the metric back-ends, in order. results: the full result dict of each metric from the last summary
            (with ``signature``, per-order ``counts``/``totals``, per-item ``scores``); ``predictions`` and
            ``references``: the decoded texts scored by the last whole-set call (for inspection/logging).
    """

    def __init__(
        self,
        tokenizer,
        backends: Sequence[_Backend],
        *,
        causal_lm: bool = False,
        ignore_index: int = IGNORE_INDEX,
        clean_whitespace: bool = True,
        empty_references: str = "skip",
    ):
        self.tokenizer = tokenizer
        self.metrics = list(backends)
        self.causal_lm = bool(causal_lm)
        self.ignore_index = int(ignore_index)
        self.clean_whitespace = bool(clean_whitespace)
        self.empty_references = empty_references
        self.results: dict[str, dict] = {}
        self.predictions: list[str] = []
        self.references: list[str] = []
        self._n_items = 0
        self._n_skipped = 0
        self._n_ambiguous = 0
        self._ambiguous_example: str | None = None

    # -- calls ---------------------------------------------------------------------------------------------------
    def __call__(self, eval_pred, compute_result: bool | None = None) -> dict[str, float]:
        preds, refs, amb_p, amb_r = self._decode(eval_pred)
        if compute_result is None and not preds:
            raise ValueError(_EMPTY_SET_MESSAGE.format(where="this call"))
        keep, skipped = self._scorable(preds, refs)
        ambiguous = sum(1 for i in keep if amb_p[i] or amb_r[i])
        example = _ambiguous_example(preds, refs, amb_p, amb_r, keep) if ambiguous else None
        preds = [preds[i] for i in keep]
        refs = [refs[i] for i in keep]
        if compute_result is None:
            self.predictions, self.references = preds, refs
            results = {b.name: b.compute(preds, refs) for b in self.metrics} if preds else None
            return self._summarise(results, len(preds), skipped, ambiguous, example)
        if preds:
            for b in self.metrics:
                b.add(preds, refs)
        self._n_items += len(preds)
        self._n_skipped += skipped
        self._n_ambiguous += ambiguous
        if example is not None and self._ambiguous_example is None:
            self._ambiguous_example = f"batch item {example[len('item '):]}"
        if not compute_result:
            return {}
        n, skipped, ambiguous, example = self._n_items, self._n_skipped, self._n_ambiguous, self._ambiguous_example
        self._n_items = self._n_skipped = self._n_ambiguous = 0
        self._ambiguous_example = None
        if n + skipped == 0:
            self.reset()
            raise ValueError(_EMPTY_SET_MESSAGE.format(where="the batches of this evaluation"))
        try:
            results = {b.name: b.summary() for b in self.metrics} if n else None  # summary() empties each state
        except BaseException:
            self.reset()
            raise
        return self._summarise(results, n, skipped, ambiguous, example)

    def decode(self, eval_pred) -> tuple[list[str], list[str]]:
        """Decoded ``(predictions, references)`` of one call, as the hook scores them (before items with an empty
        reference are skipped): see :func:`decode_predictions`."""
        preds, refs, _, _ = self._decode(eval_pred)
        return preds, refs

    def _decode(self, eval_pred):
        return _decode(
            eval_pred,
            self.tokenizer,
            causal_lm=self.causal_lm,
            ignore_index=self.ignore_index,
            clean_whitespace=self.clean_whitespace,
            space_sensitive=any(b.space_sensitive for b in self.metrics),
        )

    def reset(self) -> None:
        """Forget the batches accumulated in ``batch_eval_metrics`` mode (done after every summary; call it yourself
        only after an evaluation loop that was interrupted)."""
        self._n_items = 0
        self._n_skipped = 0
        self._n_ambiguous = 0
        self._ambiguous_example = None
        for b in self.metrics:
            b.reset()

    # -- helpers -------------------------------------------------------------------------------------------------
    def _scorable(self, preds: list[str], refs: list[str]) -> tuple[list[int], int]:
        """Indices of the items to score and the number skipped: an item is skipped when its reference decodes to
        an empty string or has no tokens for the scoring tokenizer of one of the metrics (``punct="drop"`` and a
        reference that is only punctuation; a user tokenizer returning ``[]``) — every metric scores the same items.
        With ``empty_references="error"`` the first such item raises ValueError."""
        tokenizers = [pair for b in self.metrics for pair in b.scoring_tokenizers()]
        keep, reasons = [], {}
        for i, ref in enumerate(refs):
            if not ref.strip():
                reasons[i] = "decodes to an empty string (all label positions are -100/pad/special tokens)"
                continue
            empty_for = next((name for name, tok in tokenizers if not tok.tokenize(ref)), None)
            if empty_for is not None:
                reasons[i] = f"has no tokens for the scoring tokenizer of {empty_for} ({ref!r})"
                continue
            keep.append(i)
        if reasons and self.empty_references == "error":
            first = min(reasons)
            raise ValueError(
                f"item {first} of this evaluation call (and {len(reasons) - 1} more) has a reference that "
                f"{reasons[first]}; use empty_references='skip' to skip and count such items"
            )
        return keep, len(reasons)

    def _summarise(self, results: dict | None, n_items: int, skipped: int, ambiguous: int = 0,
                   example: str | None = None) -> dict[str, float]:
        if ambiguous:
            sensitive = any(b.space_sensitive for b in self.metrics)
            logger.warning(_ambiguous_message(ambiguous, n_items, example, sensitive))
        if skipped:
            logger.warning(
                "zheval compute_metrics: skipped %d of %d items whose reference is empty (decodes to an empty string "
                "or has no tokens for a metric's scoring tokenizer; reported as 'empty_references')",
                skipped,
                skipped + n_items,
            )
        if results is None:
            # nothing to score: the same keys as a successful call, as nan (never a made-up 0)
            probe = {b.name: b.compute(["好"], ["好"]) for b in self.metrics}
            flat = self._flatten(probe)
            out = {k: math.nan for k in flat}
            logger.warning("zheval compute_metrics: no item with a non-empty reference; every score is nan")
            self.results = {}
        else:
            out = self._flatten(results)
            self.results = results
        if skipped:
            out["empty_references"] = float(skipped)
        if ambiguous:
            out["ambiguous_spaces"] = float(ambiguous)
        return out

    def _flatten(self, results: dict[str, dict]) -> dict[str, float]:
        flats = {
            name: flatten_result({k: v for k, v in res.items() if k not in DROP_KEYS}) for name, res in results.items()
        }
        seen: dict[str, int] = {}
        for flat in flats.values():
            for k in flat:
                seen[k] = seen.get(k, 0) + 1
        out: dict[str, float] = {}
        for name, flat in flats.items():
            for k, v in flat.items():
                out[f"{name}_{k}" if seen[k] > 1 else k] = v
        return out


def _load_module(spec: str):
    """``evaluate.load`` a module path or Hub id once (local paths made absolute: evaluate resolves relative paths
    against the CWD)."""
    import os

    import evaluate

    path = os.path.abspath(os.path.expanduser(spec)) if os.path.exists(os.path.expanduser(spec)) else spec
    return evaluate.load(path, keep_in_memory=True)


def _make_backend(spec, options: dict) -> _Backend:
    if isinstance(spec, str):
        if spec == "chinese_bleu":
            return _BleuBackend(_own_options(options, spec))
        if spec == "chinese_rouge":
            return _RougeBackend(_own_options(options, spec))
        return _ModuleBackend(_load_module(spec), options)
    if hasattr(spec, "compute") and hasattr(spec, "add_batch"):
        return _ModuleBackend(spec, options)
    raise TypeError(
        f"a metric must be 'chinese_rouge', 'chinese_bleu', an evaluate module path or Hub id, a loaded evaluate "
        f"module, or a (metric, options) pair; got {type(spec).__name__}"
    )


def _library_options(name: str) -> tuple[str, ...]:
    """Option names taken by a library metric (the keyword options of its compute function)."""
    if name == "chinese_bleu":
        from ..compute.bleu import BLEU_OPTIONS

        return tuple(BLEU_OPTIONS)
    from ..compute.rouge import ROUGE_OPTIONS

    return tuple(ROUGE_OPTIONS)


def _own_options(options: dict, name: str) -> dict:
    mine = set(_library_options(name))
    return {k: v for k, v in options.items() if k in mine}


def _check_options_used(specs: list, shared: dict) -> None:
    """Every shared option must be taken by at least one metric (an evaluate module takes all of them)."""
    taken: set[str] = set()
    for spec in specs:
        if not (isinstance(spec, str) and spec in LIBRARY_METRICS):
            return
        taken |= set(_library_options(spec))
    unused = sorted(set(shared) - taken)
    if unused:
        valid = {name: sorted(_library_options(name)) for name in LIBRARY_METRICS}
        raise TypeError(
            f"option(s) {unused} are taken by none of the metrics {specs}; valid options: "
            + "; ".join(f"{n}: {', '.join(v)}" for n, v in valid.items())
        )


def build_compute_metrics(
    tokenizer=None,
    /,
    metrics: Sequence = LIBRARY_METRICS,
    *,
    causal_lm: bool = False,
    ignore_index: int = IGNORE_INDEX,
    clean_whitespace: bool = True,
    empty_references: str = "skip",
    **metric_options,
) -> ZhevalComputeMetrics:
    """Build a ``compute_metrics`` callable for ``transformers.Trainer`` / ``Seq2SeqTrainer`` (transformers 5.x).

    Every metric is set up here, once: library metrics validate their options (a bad option fails now, not after
    the first training epoch) and evaluate modules are loaded here, never inside the hook.

    Args:
        tokenizer: (positional) the transformers tokenizer that decodes predictions and labels — the Trainer's
            ``processing_class``. It needs ``pad_token_id``.
        metrics: a sequence of metrics (default ``("chinese_rouge", "chinese_bleu")``); each is

            * ``"chinese_rouge"`` / ``"chinese_bleu"``: computed with the zheval library directly
              (:func:`zheval.compute.rouge.compute_rouge`, :func:`zheval.compute.bleu.compute_bleu` — what the
              ``metrics/chinese_*`` evaluate modules call, so the numbers are identical, without evaluate's module
              loading, Arrow cache files or locks);
            * any other string: a path to an evaluate module folder or script, or a Hub id, loaded once with
              ``evaluate.load(..., keep_in_memory=True)`` (relative paths are made absolute);
            * a loaded evaluate module (``EvaluationModule``) or ``evaluate.combine([...])``, used as it is (not
              in distributed mode);
            * a pair ``(metric, options)`` whose ``options`` dict is added to the shared options for that metric only.

        causal_lm: predictions are teacher-forced logits/ids of a causal LM: shift by one and score only positions
            whose label is not ``ignore_index`` (see :func:`prediction_ids`). Leave False for ``Seq2SeqTrainer`` with
            ``predict_with_generate=True``.
        ignore_index: the label padding value (``-100``).
        clean_whitespace: remove the spaces a space-joining decoder (WordPiece, a character vocabulary) put between
            tokens where the ids cannot show a space (``今 天 天 气`` → ``今天天气``, ``4. 5`` → ``4.5``), keeping every
            space the ids show (``hello world`` in WordPiece; the word boundaries of a word-level vocabulary, which a
            scoring tokenizer that splits on spaces — ``"none"`` or your callable — needs). Default on for every
            scoring tokenizer, user callables included; byte-level BPE/SentencePiece texts are never changed. Items
            where a removed space could have been real are counted as ``ambiguous_spaces`` and logged (every removed
            space counts for ``"none"``/callables). False: score the texts exactly as ``batch_decode`` returns them.
        empty_references: ``"skip"`` (default): items whose reference decodes to ``""`` (all labels -100/special), or
            has no tokens for the scoring tokenizer of one of the metrics (library metrics and zheval's own evaluate
            modules; e.g. ``punct="drop"`` and a reference that is only punctuation), are left out of every metric,
            counted in the result as ``empty_references`` and logged; ``"error"``: raise ValueError naming the first
            such item.
        metric_options: keyword options shared by the metrics, with the names of the metric modules (``tokenizer=
            "jieba"``, ``terms=[...]``, ``normalize``, ``t2s``, ``rouge_types``, ``multi_ref``, ``max_order``,
            ``smooth_method``, ``preset``, ...). For the library metrics each option goes to the metric(s) that
            take it; an option neither takes raises TypeError. Evaluate modules receive all shared options (as
            ``evaluate.combine`` does). Note: the keyword ``tokenizer=`` is the *scoring* tokenizer; the
            transformers tokenizer is the first, positional argument.

    Returns:
        A :class:`ZhevalComputeMetrics`: ``hook(eval_pred)`` or ``hook(eval_pred, compute_result=...)`` →
        ``dict[str, float]``.

    Raises:
        ValueError: the tokenizer has no ``pad_token_id`` (says what to set); bad option values (from the metric);
            ``empty_references`` not ``"skip"``/``"error"``; an evaluate module in distributed mode.
        TypeError: no transformers tokenizer given; an unknown option or metric specification; a ``seed`` that is
            not an int.
    """
    if tokenizer is None or not hasattr(tokenizer, "batch_decode"):
        hint = ""
        if hasattr(metric_options.get("tokenizer"), "batch_decode"):
            hint = (
                " — pass it positionally: build_compute_metrics(tokenizer, ...); the keyword tokenizer= is the "
                "scoring tokenizer ('char', 'jieba', ...)"
            )
        raise TypeError(f"build_compute_metrics needs the transformers tokenizer as its first argument{hint}")
    _pad_token_id(tokenizer)
    if empty_references not in ("skip", "error"):
        raise ValueError(f"empty_references must be 'skip' or 'error', got {empty_references!r}")
    if isinstance(metrics, str) or (isinstance(metrics, tuple) and len(metrics) == 2 and isinstance(metrics[1], dict)):
        metrics = [metrics]
    if not metrics:
        raise ValueError("metrics is empty; name at least one metric")
    pairs = []
    for spec in metrics:
        extra: Mapping = {}
        if isinstance(spec, tuple):
            if len(spec) != 2 or not isinstance(spec[1], Mapping):
                raise TypeError(f"a (metric, options) pair needs an options dict, got {spec!r}")
            spec, extra = spec
            if isinstance(spec, str) and spec in LIBRARY_METRICS:
                _check_options_used([spec], dict(extra))
        pairs.append((spec, {**metric_options, **extra}))
        seed = pairs[-1][1].get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise TypeError(f"seed must be an int (it seeds the bootstrap), got {type(seed).__name__} {seed!r}")
    _check_options_used([spec for spec, _ in pairs], metric_options)
    backends = [_make_backend(spec, options) for spec, options in pairs]
    names = [b.name for b in backends]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"metric(s) {dup} given twice; their keys would clash")
    return ZhevalComputeMetrics(
        tokenizer,
        backends,
        causal_lm=causal_lm,
        ignore_index=ignore_index,
        clean_whitespace=clean_whitespace,
        empty_references=empty_references,
    )
