"""What the Trainer hook asks of the object that decodes (the Trainer's ``processing_class``): only what it has.

The hook accepts anything with ``batch_decode``:

* a transformers tokenizer (``PreTrainedTokenizerFast`` / ``PreTrainedTokenizer``);
* a processor (``AutoProcessor`` of a multimodal or speech model, a ``transformers.ProcessorMixin``): it has no
  ``len()``, no ``pad_token_id`` and a ``__call__`` that takes images/audio first; its text tokenizer is its
  ``.tokenizer``, which the hook uses for the pad id, the vocabulary size and the encoding that checks the
  decoder's spaces, while the texts are decoded with the processor's own ``batch_decode``;
* a user wrapper whose ``batch_decode`` takes fewer keyword options (no ``clean_up_tokenization_spaces=``): a
  keyword option is passed only when the signature accepts it (by name, or through ``**kwargs``).

A wrapper with neither ``pad_token_id`` nor a ``.tokenizer`` that has one gets its ``-100`` positions removed from
the id rows before decoding — what replacing them with the pad id and decoding with ``skip_special_tokens=True``
does. A decoder without a text tokenizer that can encode (``__call__`` taking ``add_special_tokens=``) cannot have
its spaces checked: its texts are scored as ``batch_decode`` returns them.
"""

from __future__ import annotations

import inspect

__all__ = ["accepts_keyword", "batch_decode", "text_tokenizer", "vocabulary_size", "can_encode", "pad_token_id_of"]

_NO_PAD = object()


def accepts_keyword(func, name: str) -> bool:
    """Whether ``func`` takes the keyword argument ``name`` (by name or through ``**kwargs``); True when its
    signature cannot be read (a C function: called as transformers' own)."""
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.kind is p.VAR_KEYWORD or (p.name == name and p.kind is not p.POSITIONAL_ONLY) for p in params)


def batch_decode(decoder, rows: list[list[int]], **options) -> list[str]:
    """``decoder.batch_decode(rows, **options)`` with only the options its signature accepts.

    Args:
        decoder: anything with ``batch_decode(sequences, ...)``.
        rows: token-id rows (lists of non-negative ``int``).
        options: keyword options (``skip_special_tokens=True``, ``clean_up_tokenization_spaces=False``); one that
            ``batch_decode`` does not take is left out.

    Returns:
        One ``str`` per row.

    Raises:
        TypeError: ``batch_decode`` returned something that is not one ``str`` per row (naming what it returned).
    """
    method = decoder.batch_decode
    texts = method(rows, **{k: v for k, v in options.items() if accepts_keyword(method, k)})
    texts = list(texts)
    if len(texts) != len(rows) or not all(isinstance(t, str) for t in texts):
        bad = next((t for t in texts if not isinstance(t, str)), None)
        raise TypeError(
            f"{type(decoder).__name__}.batch_decode returned {len(texts)} values for {len(rows)} id rows"
            + (f" (one of type {type(bad).__name__})" if bad is not None else "")
            + "; expected one str per row"
        )
    return texts


def text_tokenizer(decoder):
    """The text tokenizer behind ``decoder``: its ``.tokenizer`` when that has ``batch_decode`` (a processor),
    else ``decoder`` itself."""
    inner = getattr(decoder, "tokenizer", None)
    return inner if inner is not None and hasattr(inner, "batch_decode") else decoder


def vocabulary_size(tokenizer) -> int | None:
    """``len(tokenizer)`` (added tokens included) when defined, else its ``vocab_size``, else None."""
    if hasattr(type(tokenizer), "__len__"):
        try:
            return int(len(tokenizer))
        except TypeError:
            pass
    size = getattr(tokenizer, "vocab_size", None)
    return int(size) if isinstance(size, int) and not isinstance(size, bool) else None


def can_encode(tokenizer) -> bool:
    """Whether ``tokenizer(texts, add_special_tokens=False)`` gives ``{"input_ids": ...}`` as a transformers
    tokenizer does (callable, taking ``add_special_tokens``), so that the decoder's spaces can be checked."""
    return callable(tokenizer) and accepts_keyword(tokenizer, "add_special_tokens") and vocabulary_size(tokenizer) is not None


def pad_token_id_of(decoder) -> int | None:
    """The id that replaces ``-100`` before decoding: ``decoder.pad_token_id``, else that of its ``.tokenizer``
    (a processor); None when neither has the attribute (the hook then removes ``-100`` positions instead).

    Raises:
        TypeError: ``decoder`` has no ``batch_decode``.
        ValueError: the tokenizer's ``pad_token_id`` is None (the message says what to set).
    """
    if not hasattr(decoder, "batch_decode"):
        raise TypeError(
            "tokenizer must be a transformers tokenizer or processor (anything with batch_decode), got "
            f"{type(decoder).__name__}"
        )
    for obj in (decoder, text_tokenizer(decoder)):
        pad = getattr(obj, "pad_token_id", _NO_PAD)
        if pad is _NO_PAD:
            continue
        if pad is None:
            raise ValueError(
                f"{type(obj).__name__} has no pad_token_id: the hook replaces -100 with the pad id before decoding. "
                "Set one, e.g. `tokenizer.pad_token = tokenizer.eos_token` (causal LMs such as GPT-2/Llama) or "
                "`tokenizer.add_special_tokens({'pad_token': '<pad>'})` (then resize the model's embeddings)."
            )
        return int(pad)
    return None
