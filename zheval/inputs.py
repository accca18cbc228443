"""Validation of metric inputs: predictions and (ragged) references.

Every metric entry point calls :func:`validate_inputs` first, so bad input always gets the same clear error naming
the item (and reference) index, and nothing is ever dropped or coerced silently (``None`` is never scored as
``"None"``; a sacrebleu-style transposed reference layout is detected and explained).
"""

from __future__ import annotations

import re
from itertools import chain
from typing import Any, Optional, Sequence

__all__ = ["validate_inputs"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_text(text: str, where: str) -> None:
    m = _SURROGATE.search(text)
    if m:
        raise ValueError(
            f"{where} is not valid text: {m.group()!r} at position {m.start()} is a lone surrogate (half of a UTF-16 "
            "pair, usually from a broken decode); it cannot be stored or tokenised"
        )


def _describe(x: Any) -> str:
    return "None" if x is None else type(x).__name__


def validate_inputs(
    predictions: Sequence[str], references: Sequence[Any], allow_empty: bool = False
) -> tuple[list[str], list[list[str]]]:
    """Check and canonicalise predictions and references.

    Args:
        predictions: a list/tuple of ``str`` (one hypothesis per item; an empty string is allowed and scores 0).
        references: a list/tuple with one entry per item: a ``str`` (one reference) or a non-empty list/tuple of
            ``str`` (several references; the count may differ between items).

    Returns:
        ``(predictions, references)`` as ``list[str]`` and ``list[list[str]]``.

    Raises:
        TypeError: ``predictions``/``references`` is a bare string or not a sequence; an item or reference that is
            not a ``str`` (``None`` included), naming its index (``predictions[3]``, ``references[3][1]``).
        ValueError: a lone surrogate in a text (naming the item); no items (unless ``allow_empty``); lengths differ (with a hint when ``references`` looks transposed — sacrebleu's layout of one
            list per reference *set*); an item with an empty reference list.

    Regular input (all ``str``; references ``str``, ``list`` or ``tuple``) is checked in a few C-level passes over
    all texts; anything else goes through an item-by-item loop, which also names the culprit of every error.
    """
    for name, value in (("predictions", predictions), ("references", references)):
        if isinstance(value, (str, bytes)):
            raise TypeError(f"{name} must be a list with one entry per item, not a single {type(value).__name__}")
        if not hasattr(value, "__len__") or not hasattr(value, "__getitem__"):
            raise TypeError(f"{name} must be a list (one entry per item), got {_describe(value)}")
    preds = list(predictions)
    refs_in = list(references)
    if len(preds) != len(refs_in):
        hint = ""
        if refs_in and all(isinstance(r, (list, tuple)) for r in refs_in) and all(len(r) == len(preds) for r in refs_in):
            hint = (
                f" It looks transposed: references has {len(refs_in)} lists of {len(preds)} strings each, i.e. "
                "sacrebleu's stream layout (one list per reference set). Pass one list of references per item: "
                "references = [list(refs) for refs in zip(*streams)]."
            )
        raise ValueError(
            f"predictions and references must have the same length; got {len(preds)} predictions and "
            f"{len(refs_in)} references.{hint}"
        )
    if not preds and not refs_in and not allow_empty:
        raise ValueError("no items to score: predictions and references are empty")
    refs = _fast_canonical(preds, refs_in)
    if refs is not None:
        return preds, refs
    for i, p in enumerate(preds):
        if not isinstance(p, str):
            raise TypeError(f"predictions[{i}] must be str, got {_describe(p)}")
    refs = []
    for i, r in enumerate(refs_in):
        if isinstance(r, str):
            refs.append([r])
            continue
        if not isinstance(r, (list, tuple)) and not (hasattr(r, "__len__") and hasattr(r, "__iter__")):
            raise TypeError(f"references[{i}] must be a str or a list of str, got {_describe(r)}")
        r = list(r)
        if not r:
            raise ValueError(f"references[{i}] is an empty list; every item needs at least one reference")
        for j, s in enumerate(r):
            if not isinstance(s, str):
                raise TypeError(f"references[{i}][{j}] must be str, got {_describe(s)}")
        refs.append(r)
    # lone surrogates (one scan of all text; item-by-item only to name the culprit)
    if _SURROGATE.search("".join(preds)):
        for i, p in enumerate(preds):
            _check_text(p, f"predictions[{i}]")
    if _SURROGATE.search("".join(r for rs in refs for r in rs)):
        for i, rs in enumerate(refs):
            for j, r in enumerate(rs):
                _check_text(r, f"references[{i}][{j}]")
    return preds, refs


def _fast_canonical(preds: list, refs_in: list) -> Optional[list]:
    """The canonical references when the input is regular (every prediction a ``str``, every reference entry a
    ``str``, a ``list`` or a ``tuple``, no empty list, every reference a ``str``, no lone surrogate), checked with a
    few C-level passes over all texts; ``None`` otherwise, and the caller's item-by-item loop then finds and names
    the problem. Same result as that loop for every regular input."""
    kinds = set(map(type, refs_in))
    if kinds <= {list}:
        refs = list(map(list, refs_in))
    elif kinds <= {list, tuple, str}:
        refs = [[r] if type(r) is str else list(r) for r in refs_in]
    else:
        return None
    if refs and min(map(len, refs)) == 0:
        return None
    try:
        # str.join accepts exactly the str instances (isinstance, as the loop checks); UTF-32 refuses exactly the
        # lone surrogates (code points U+D800-U+DFFF)
        "".join(preds).encode("utf-32-le")
        "".join(chain.from_iterable(refs)).encode("utf-32-le")
    except (TypeError, UnicodeEncodeError):
        return None
    return refs
