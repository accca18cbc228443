"""Token ids → texts for the Trainer hook: unwrap ``EvalPrediction``, logits → ids (``argmax``, on the device with
[`preprocess_logits_for_metrics`][zheval.adapters.trainer.decode.preprocess_logits_for_metrics]), the causal-LM shift, ``-100`` → pad, and decoding (steps 1–5 of
[`zheval.adapters.trainer`][]). The removal of the decoder's spaces is `zheval.adapters.trainer.decoder_spaces`.
"""

from __future__ import annotations

import logging
from typing import Optional

import numpy as np

from .decoder_spaces import DecoderSpaces, ambiguous_example, ambiguous_message
from .processing import batch_decode, can_encode, pad_token_id_of, text_tokenizer, vocabulary_size

__all__ = [
    "IGNORE_INDEX",
    "preprocess_logits_for_metrics",
    "prediction_ids",
    "unshifted_matches",
    "decode_predictions",
    "decode_with_ambiguity",
    "dropped_unknown_tokens",
    "out_of_vocabulary_message",
    "pad_token_id_of",
]

# the package's logger (records are named ``zheval.adapters.trainer``, whichever file of the package logs)
logger = logging.getLogger(__package__)

IGNORE_INDEX = -100
"""The label (and, after concatenation, prediction) padding value used by transformers and PyTorch losses."""


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
        ValueError: a tensor that is neither 3-D floating logits nor 2-D ids, naming its shape; logits that hold NaN,
            a position whose logits are all ``-inf``, or one with several ``+inf`` (argmax would make a token up),
            naming the first such row of this batch and its position (``"logits row R position P: ..."``).
    """
    if isinstance(logits, (tuple, list)):
        if not logits:
            raise ValueError("preprocess_logits_for_metrics got an empty tuple of logits")
        logits = logits[0]
    shape = tuple(logits.shape)
    if logits.ndim == 3 and logits.is_floating_point():
        return _torch_argmax(logits, what="logits")
    if logits.ndim == 2 and not logits.is_floating_point():
        return logits
    raise ValueError(
        f"preprocess_logits_for_metrics expects logits of shape (batch, length, vocab) or token ids of shape "
        f"(batch, length); got a {'floating' if logits.is_floating_point() else 'integer'} tensor of shape {shape}"
    )


def _torch_argmax(logits, ignore_index: int = IGNORE_INDEX, what: str = "predictions"):
    """``argmax`` over the vocabulary on the tensor's device; positions whose logits are all ``-100`` (padding
    added by ``accelerator.pad_across_processes`` / ``EvalLoopContainer`` when sequence lengths differ) become
    ``-100`` instead of id 0, so they decode to nothing. A position whose argmax would be made up (NaN, all
    ``-inf``, several ``+inf``) raises ValueError naming ``what``, its row and position."""
    maxima, ids = logits.max(dim=-1)  # the first maximal index, as argmax; a NaN is propagated to its maximum
    unreadable = ~maxima.isfinite()
    if bool(unreadable.any()):
        plus = maxima == float("inf")
        n_plus = plus.long()
        if bool(plus.any()):
            n_plus[plus] = (logits[plus] == float("inf")).sum(dim=-1)
        _refuse_unreadable_logits(maxima.float().cpu().numpy(), n_plus.cpu().numpy(), what)
    padded = (logits == ignore_index).all(dim=-1)
    if bool(padded.any()):
        ids = ids.masked_fill(padded, ignore_index)
    return ids


def _numpy_argmax(logits: np.ndarray, ignore_index: int = IGNORE_INDEX, what: str = "predictions") -> np.ndarray:
    """`_torch_argmax` for numpy arrays."""
    ids = logits.argmax(axis=-1).astype(np.int64)
    maxima = np.take_along_axis(logits, ids[..., None], axis=-1)[..., 0]  # NaN where argmax picked a NaN
    if not np.all(np.isfinite(maxima)):
        plus = maxima == np.inf
        n_plus = plus.astype(np.int64)
        n_plus[plus] = (logits[plus] == np.inf).sum(axis=-1)
        _refuse_unreadable_logits(maxima, n_plus, what)
    padded = np.all(logits == ignore_index, axis=-1)
    if padded.any():
        ids[padded] = ignore_index
    return ids


def _refuse_unreadable_logits(maxima: np.ndarray, n_plus_inf: np.ndarray, what: str) -> None:
    """Raise ValueError for the first logits position whose ``argmax`` would be a made-up token; return otherwise.

    ``argmax`` reads a NaN as the largest logit (and an all-NaN position as id 0), an all ``-inf`` position as id 0,
    and a tie between several ``+inf`` as the first of them: none of these is the model's choice. Logits holding
    NaN anywhere (a broken forward pass: fp16/bf16 overflow, a diverged model) are refused even at a position that
    ``causal_lm`` masks; ``-inf`` (masked tokens) is read, and so is one ``+inf`` in a position (its maximum).

    Args:
        maxima: ``(batch, length)`` floats, each position's maximal logit (NaN when it holds a NaN).
        n_plus_inf: ``(batch, length)`` ints, how many logits of each position are ``+inf`` (needed where
            ``maxima`` is ``+inf``).
        what: the array's name in the message (``"predictions"``, ``"logits"``).

    Raises:
        ValueError: ``"<what> row R position P: ..."`` naming the first unreadable position (row-major), what is
            wrong there, and how many more positions are unreadable.
    """
    nan = np.isnan(maxima)
    bad = nan | (maxima == -np.inf) | ((maxima == np.inf) & (n_plus_inf > 1))
    if not bad.any():
        return
    row, pos = (int(i) for i in np.argwhere(bad)[0])
    more = int(bad.sum()) - 1
    more = f" (and {more} more position{'s' if more > 1 else ''})" if more else ""
    where = f"{what} row {row} position {pos}: "
    if nan[row, pos]:
        raise ValueError(
            f"{where}the logits hold NaN{more}; argmax would read a NaN as the largest logit (an all-NaN position as "
            "id 0), so no token can be read. NaN logits come from a broken forward pass (fp16/bf16 overflow, a "
            "diverged model): fix the model or its precision, do not score them"
        )
    if maxima[row, pos] == -np.inf:
        raise ValueError(
            f"{where}every logit is -inf{more} (every token masked); argmax would read the position as id 0"
        )
    raise ValueError(
        f"{where}{int(n_plus_inf[row, pos])} logits are +inf{more}: overflowed values tie and have no maximum "
        "(argmax would take the first); check the model's precision"
    )


def _to_numpy(x, what: str, ignore_index: int = IGNORE_INDEX) -> np.ndarray:
    """numpy array from a numpy array, a torch tensor (any device/dtype; reduced on device when it is logits) or a
    nested list."""
    if hasattr(x, "detach") and hasattr(x, "cpu"):  # torch tensor, without importing torch
        if x.ndim == 3 and x.is_floating_point():
            x = _torch_argmax(x, ignore_index, what)  # on the device: never copy logits to the host
        elif x.is_floating_point() and str(x.dtype) in ("torch.bfloat16", "torch.float16"):
            _check_exact_float_ids(x.float().detach().cpu().numpy(), str(x.dtype).replace("torch.", ""), what)
            x = x.float()
        return x.detach().cpu().numpy()
    if isinstance(x, np.ndarray):
        return x
    try:
        return np.asarray(x)
    except ValueError as exc:  # ragged nested lists
        raise ValueError(f"{what} is not a rectangular array ({exc})") from None


#: Each float type keeps every whole number apart only below 2 ** (mantissa bits + 1): an id at or above it may be
#: another id rounded (2049 in float16 reads as 2048) before it reached the hook.
_MANTISSA_BITS = (("float16", 10), ("bfloat16", 7), ("float32", 23), ("float64", 52))


def _check_exact_float_ids(arr: np.ndarray, dtype: str, what: str) -> None:
    """Refuse token ids in a float container beyond the integers that float type holds exactly (an id of 2049 in
    float16 reads as 2048: another token, without a word), naming the first row and position."""
    bits = next((b for name, b in _MANTISSA_BITS if name == dtype), None)
    if bits is None or arr.size == 0:
        return
    limit = 2 ** (bits + 1)
    over = np.abs(arr) >= limit
    if over.any():
        row, pos = (int(i) for i in np.argwhere(over)[0])
        raise ValueError(
            f"{what} are token ids in {dtype}, which keeps whole numbers apart only below {limit}; row {row} "
            f"position {pos} holds {_show_float(arr[row, pos])}, which may be another id rounded: pass the ids as "
            "integers (e.g. predictions.astype('int64') before the float cast, or logits)"
        )


def _as_ids(arr: np.ndarray, what: str, ignore_index: int = IGNORE_INDEX) -> np.ndarray:
    """Token ids ``(batch, length)`` from ids or logits; raises ValueError naming the shape otherwise."""
    if arr.ndim >= 1 and arr.shape[0] == 0:
        return np.zeros((0, 0), dtype=np.int64)  # no items (an empty evaluation set): the hook reports it
    if arr.dtype == object:
        raise ValueError(f"{what} has dtype object (ragged rows?) and shape {arr.shape}; expected a rectangular array")
    if arr.ndim == 3 and np.issubdtype(arr.dtype, np.floating):
        return _numpy_argmax(arr, ignore_index, what)
    if arr.ndim == 2:
        if np.issubdtype(arr.dtype, np.integer):
            if np.issubdtype(arr.dtype, np.unsignedinteger) and arr.size and arr.max() > np.iinfo(np.int64).max:
                row, pos = (int(i) for i in np.argwhere(arr > np.iinfo(np.int64).max)[0])
                raise ValueError(
                    f"{what} row {row} position {pos} holds {int(arr[row, pos])} ({arr.dtype}), beyond int64: not a "
                    "token id (a -100 written as unsigned wraps to 2**64 - 100); pass signed integer ids"
                )
            return arr.astype(np.int64, copy=False)
        if np.issubdtype(arr.dtype, np.floating):
            whole = np.isfinite(arr) & (arr == np.round(arr))
            if whole.all():
                _check_exact_float_ids(arr, str(arr.dtype), what)
                return arr.astype(np.int64)  # ids that went through a float container
            row, pos = (int(i) for i in np.argwhere(~whole)[0])
            raise ValueError(
                f"{what} of shape {arr.shape} and dtype {arr.dtype} holds non-integer values (first: row {row} "
                f"position {pos}: {_show_float(arr[row, pos])}); expected token ids (batch, length) or logits "
                "(batch, length, vocab)"
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


def _show_float(value) -> str:
    """``NaN``, ``+inf``, ``-inf`` or the number, for a message."""
    value = float(value)
    if np.isnan(value):
        return "NaN"
    if np.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return repr(value)


def prediction_ids(
    predictions,
    label_ids,
    *,
    pad_token_id: int | None,
    causal_lm: bool = False,
    ignore_index: int = IGNORE_INDEX,
    vocab_size: int | None = None,
    dropped: list[int] | None = None,
) -> tuple[list[list[int]], list[list[int]]]:
    """Token-id rows to decode, from the Trainer's predictions and labels (numpy arrays or torch tensors).

    Every id the tokenizer cannot decode is refused or counted, in both directions: a negative id other than
    ``ignore_index`` is an error (in predictions and labels); an id ``>= vocab_size`` is an error in the labels (they
    come from the tokenizer) and, in the predictions, is left out of its row and counted in ``dropped`` (a model's
    output layer is often wider than its tokenizer — T5: 32,128 logits for 32,100 tokens — so an argmax may land on
    an id no tokenizer decodes; the caller warns with `out_of_vocabulary_message`).

    Args:
        predictions: ids ``(batch, length)``, logits ``(batch, length, vocab)`` (reduced with ``argmax``), or a
            tuple whose first element is one of those (a list is read as an array of rows).
        label_ids: ids ``(batch, length)`` with ``ignore_index`` where there is no label.
        pad_token_id: the id that replaces ``ignore_index`` (it must be a special token of the tokenizer so that
            ``skip_special_tokens=True`` removes it); None (a decoder without a pad id): ``ignore_index`` positions
            are removed from the rows instead, which decodes the same.
        causal_lm: shift predictions by one position (the prediction at ``t`` is for the label at ``t + 1``) and keep
            only positions whose label is not ``ignore_index``; predictions that equal their labels in place more
            often than shifted (generated ids, `unshifted_matches`) are shifted as asked, with a warning logged.
        ignore_index: the padding/ignore value, ``-100`` in transformers.
        vocab_size: the number of ids the tokenizer decodes (``len(tokenizer)``, added tokens included), ``>= 1``;
            None: not checked (a decoder that tells no size).
        dropped: a list to receive, per item, the number of prediction ids ``>= vocab_size`` left out of its row
            (cleared first); None: not reported.

    Returns:
        ``(prediction_rows, label_rows)``: two lists (one entry per item) of lists of ``int`` ids in
        ``[0, vocab_size)``.

    Raises:
        ValueError: an array that is not token ids or logits (the message names its shape), float ids that are
            not whole numbers (naming the first row and position), logits holding NaN anywhere or a position whose
            logits are all ``-inf`` or hold several ``+inf`` (naming the first row and position; ``-inf`` for
            masked tokens and one ``+inf`` are read), different numbers of rows, causal-LM predictions and labels
            of different lengths, a negative id other than ``ignore_index`` (naming the row), or a label id
            ``>= vocab_size`` (naming the row and the size).
    """
    preds, labels = _prediction_and_label_arrays(predictions, label_ids, ignore_index)
    if causal_lm and preds.shape[0]:
        if preds.shape[1] != labels.shape[1]:
            raise ValueError(
                f"causal_lm=True needs predictions and label_ids of the same length (teacher-forced logits); got "
                f"shapes {preds.shape} and {labels.shape} (generated ids cannot be aligned with labels)"
            )
        shifted_preds = preds[:, :-1]
        shifted_labels = labels[:, 1:]
        mask = shifted_labels != ignore_index
        unshifted = unshifted_matches(preds, labels, ignore_index)
        if unshifted:
            logger.warning(unshifted_message(*unshifted))
        pred_rows = [row[m] for row, m in zip(shifted_preds, mask)]
        label_rows = [row[m] for row, m in zip(shifted_labels, mask)]
    else:
        pred_rows = list(preds)
        label_rows = list(labels)
    if dropped is not None:
        dropped.clear()
    out_p = _decodable_rows("predictions", pred_rows, pad_token_id, ignore_index, vocab_size, dropped)
    out_l = _decodable_rows("label_ids", label_rows, pad_token_id, ignore_index, vocab_size, None)
    return out_p, out_l


def unshifted_matches(preds: np.ndarray, labels: np.ndarray, ignore_index: int) -> Optional[tuple[int, int, int]]:
    """Whether causal-LM predictions look like generated ids (read in place) rather than teacher-forced ones.

    A teacher-forced prediction at ``t`` is for the label at ``t + 1``; generated ids (``model.generate``: the prompt
    copied, then the answer) equal the label at ``t`` itself. With ``causal_lm=True`` such ids are read one position
    off. This counts, over the positions whose label is not ``ignore_index``, how many predictions equal the label
    at the same position and how many equal the next label.

    Args:
        preds, labels: integer arrays ``(batch, length)`` of the same shape.
        ignore_index: the label padding value.

    Returns:
        None when the shifted reading agrees at least as often, or fewer than half of the labelled positions equal
        their own label; else ``(in_place, shifted, labelled)``: the two counts of equal ids and the number of
        labelled positions (of the shifted reading).
    """
    if preds.shape[1] < 2:
        return None
    labelled = labels != ignore_index
    in_place = int(((preds == labels) & labelled).sum())
    next_labelled = labelled[:, 1:]
    shifted = int(((preds[:, :-1] == labels[:, 1:]) & next_labelled).sum())
    n = int(next_labelled.sum())
    if n == 0 or in_place <= shifted or 2 * in_place < int(labelled.sum()):
        return None
    return in_place, shifted, n


def unshifted_message(in_place: int, shifted: int, labelled: int) -> str:
    """The warning for `unshifted_matches`: the predictions look generated, not teacher-forced."""
    return (
        f"zheval compute_metrics: causal_lm=True reads the prediction at position t as the one for the label at "
        f"t + 1, but {in_place} prediction id(s) equal the label at their own position and only {shifted} of "
        f"{labelled} the next one: these look like generated ids (model.generate, predict_with_generate), not "
        f"teacher-forced logits. They are scored shifted by one as asked; for generated ids pass causal_lm=False"
    )


def _prediction_and_label_arrays(predictions, label_ids, ignore_index: int):
    """Unwrap tuples and check shapes: ``(predictions, labels)`` as integer arrays of shape ``(batch, length)``."""
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
    return preds, labels


def _decodable_rows(name: str, rows, pad_token_id, ignore_index: int, vocab_size, dropped) -> list[list[int]]:
    """``ignore_index`` → pad (or removed), negative ids refused, ids ``>= vocab_size`` refused in ``label_ids`` and
    left out of prediction rows (counted per row in ``dropped`` when it is a list)."""
    out = []
    for i, row in enumerate(rows):
        row = row[row != ignore_index] if pad_token_id is None else np.where(row == ignore_index, pad_token_id, row)
        if row.size and row.min() < 0:
            bad = int(row[row < 0][0])
            raise ValueError(f"{name} row {i} holds the negative id {bad} (only {ignore_index} is replaced by pad)")
        if vocab_size is not None and row.size and row.max() >= vocab_size:
            beyond = row >= vocab_size
            if name == "label_ids":
                raise ValueError(
                    f"label_ids row {i} holds the id {int(row[beyond][0])}, beyond the tokenizer's vocabulary "
                    f"of {vocab_size} ids (labels must come from the same tokenizer)"
                )
            row = row[~beyond]
            if dropped is not None:
                dropped.append(int(beyond.sum()))
        elif dropped is not None:
            dropped.append(0)
        out.append(row.tolist())
    return out


def out_of_vocabulary_message(dropped: list[int], vocab_size: int | None) -> str:
    """The warning for prediction ids left out because they are ``>= vocab_size``: how many ids in how many of
    the items, and the first such item (``dropped``: per item, as `prediction_ids` fills it)."""
    n_items = sum(1 for d in dropped if d)
    first = next(i for i, d in enumerate(dropped) if d)
    return (
        f"zheval compute_metrics: left out {sum(dropped)} prediction id(s) >= the tokenizer's vocabulary size "
        f"{vocab_size} in {n_items} of {len(dropped)} items (first: item {first}); no tokenizer decodes them (the "
        "model's output layer is wider than its tokenizer), so those positions score as if absent"
    )


def decode_predictions(
    eval_pred,
    tokenizer,
    *,
    causal_lm: bool = False,
    ignore_index: int = IGNORE_INDEX,
    clean_whitespace: bool = True,
) -> tuple[list[str], list[str]]:
    """Decode an ``EvalPrediction`` (or ``(predictions, label_ids)``) into prediction and reference texts.

    Steps 1–5 of [`zheval.adapters.trainer`][]: unwrap, logits → ids, causal shift (optional), ``-100`` → pad,
    decode with ``skip_special_tokens=True``, remove the spaces the decoder put between tokens where the ids cannot
    show a space (`remove_decoder_spaces`: ``今 天 天 气`` → ``今天天气``,
    ``4. 5`` → ``4.5``; ``hello world`` from a WordPiece vocabulary stays). A text in which such a removed space could
    have been a real one (``K F C`` from a character vocabulary: ``KFC`` or ``K F C``?) is logged as a warning.

    Args:
        eval_pred: a ``transformers.EvalPrediction`` or a ``(predictions, label_ids)`` tuple; arrays as numpy arrays
            or torch tensors (see `prediction_ids`).
        tokenizer: anything with ``batch_decode`` (`zheval.adapters.trainer.processing`): a transformers
            tokenizer, a processor (its ``.tokenizer`` gives the pad id and checks the spaces), or a wrapper (keyword
            options its ``batch_decode`` does not take are not passed).
        causal_lm, ignore_index: see `prediction_ids`.
        clean_whitespace: remove the decoder's spaces (default); False: the texts exactly as ``batch_decode``
            returns them.

    Returns:
        ``(predictions, references)``: two lists of ``str``, one per item (possibly empty strings; both empty for an
        empty evaluation set).

    Raises:
        TypeError: ``tokenizer`` has no ``batch_decode``, or it returns something else than one ``str`` per row.
        ValueError: ``tokenizer.pad_token_id`` is None (says what to set); bad shapes (see `prediction_ids`).
    """
    preds, refs, amb_p, amb_r = decode_with_ambiguity(
        eval_pred, tokenizer, causal_lm=causal_lm, ignore_index=ignore_index, clean_whitespace=clean_whitespace
    )
    n_amb = sum(a or b for a, b in zip(amb_p, amb_r))
    if n_amb:
        logger.warning(ambiguous_message(n_amb, len(preds), ambiguous_example(preds, refs, amb_p, amb_r)))
    return preds, refs


def dropped_unknown_tokens(tokenizer, rows) -> int:
    """How many ids of ``rows`` (lists of ints) are ``tokenizer.unk_token_id`` when decoding drops it -- when it is
    one of ``all_special_ids``, which ``skip_special_tokens=True`` removes; 0 otherwise (an unknown token that is not
    special decodes to its text, which is scored)."""
    unk = getattr(tokenizer, "unk_token_id", None)
    special = getattr(tokenizer, "all_special_ids", None) or ()
    if unk is None or unk not in special:
        return 0
    return sum(list(row).count(unk) for row in rows)


def decode_with_ambiguity(eval_pred, tokenizer, *, causal_lm, ignore_index, clean_whitespace, space_sensitive=False,
                          counts: Optional[dict] = None):
    """`decode_predictions` plus, per item, whether its prediction / reference holds a removed space that
    could have been real.

    Args: as `decode_predictions`; ``space_sensitive``: a scoring tokenizer splits on spaces, so every removed
    space counts as ambiguous (`DecoderSpaces`); ``counts``: a dict that gets ``out_of_vocabulary_ids`` (prediction
    ids left out for being beyond the vocabulary), ``unknown_tokens`` and ``reference_unknown_tokens`` (prediction
    and label ids of the tokenizer's unknown token, which decoding drops as a special token;
    `dropped_unknown_tokens`), logged when not 0.

    Returns:
        ``(preds, refs, ambiguous_preds, ambiguous_refs)``: two lists of ``str`` and two lists of ``bool``, one
        entry per item. The ambiguous spaces are not logged here (the caller words that warning); prediction ids
        beyond the tokenizer's vocabulary (``len()`` of its text tokenizer) are left out and logged here as a
        warning with their count (`out_of_vocabulary_message`).

    Raises:
        TypeError / ValueError: as `decode_predictions`; a label id beyond the vocabulary.
    """
    pad_id = pad_token_id_of(tokenizer)
    preds, labels = _unpack(eval_pred)
    encoder = text_tokenizer(tokenizer)
    vocab = vocabulary_size(encoder)
    dropped: list[int] = []
    pred_rows, label_rows = prediction_ids(
        preds, labels, pad_token_id=pad_id, causal_lm=causal_lm, ignore_index=ignore_index, vocab_size=vocab,
        dropped=dropped,
    )
    if any(dropped):
        logger.warning(out_of_vocabulary_message(dropped, vocab))
    unk_token = getattr(encoder, "unk_token", None)
    unknown = dropped_unknown_tokens(encoder, pred_rows)
    if unknown:
        logger.warning("zheval compute_metrics: %d prediction id(s) are the tokenizer's unknown token %r, which "
                       "batch_decode(skip_special_tokens=True) drops: the model wrote a token it has no text for "
                       "(counted as 'unknown_tokens')", unknown, unk_token)
    ref_unknown = dropped_unknown_tokens(encoder, label_rows)
    if ref_unknown:
        logger.warning("zheval compute_metrics: %d label id(s) are the tokenizer's unknown token %r, which "
                       "batch_decode(skip_special_tokens=True) drops from the references (counted as "
                       "'reference_unknown_tokens'): the references are scored without them", ref_unknown, unk_token)
    if counts is not None:
        counts["out_of_vocabulary_ids"] = int(sum(dropped))
        counts["unknown_tokens"] = unknown
        counts["reference_unknown_tokens"] = ref_unknown
    n = len(pred_rows)
    texts = batch_decode(tokenizer, pred_rows + label_rows, skip_special_tokens=True) if n else []
    if clean_whitespace and n and can_encode(encoder):
        texts, ambiguous = DecoderSpaces(encoder, space_sensitive=space_sensitive).apply(texts)
    else:
        if clean_whitespace and any(" " in t for t in texts):
            logger.warning(
                "zheval compute_metrics: %s has no text tokenizer that encodes (callable with add_special_tokens=, "
                "and a len() or vocab_size), so the spaces its decoder may put between tokens cannot be checked; "
                "the texts are scored as batch_decode returns them",
                type(tokenizer).__name__,
            )
        ambiguous = [False] * len(texts)
    return texts[:n], texts[n:], ambiguous[:n], ambiguous[n:]


def _unpack(eval_pred):
    if hasattr(eval_pred, "predictions") and hasattr(eval_pred, "label_ids"):
        return eval_pred.predictions, eval_pred.label_ids
    if isinstance(eval_pred, (tuple, list)) and len(eval_pred) >= 2:
        return eval_pred[0], eval_pred[1]
    raise TypeError(
        f"compute_metrics expects a transformers EvalPrediction or a (predictions, label_ids) tuple, got "
        f"{type(eval_pred).__name__}"
    )
