"""Validation of metric inputs: predictions and (ragged) references, and the empty-reference rule.

Every metric entry point calls `validate_inputs` first, so bad input always gets the same clear error naming
the item (and reference) index, and nothing is ever dropped or coerced silently (``None`` is never scored as
``"None"``; a sacrebleu-style transposed reference layout is detected and explained).

**The empty-reference rule** (one definition, `check_references`, called by every scoring path: ROUGE and its
presets, BLEU and its presets, [`zheval.score`][zheval.compute.joint.score], the statistics for shards, the evaluate modules). A reference
is *empty* when

* its text is the empty string or whitespace only (empty under every tokenizer; checked before any option is known,
  e.g. by the evaluate modules' ``add_batch``), or
* it has **no token** after normalisation and tokenisation with the tokenizer actually used -- e.g. ``"……"`` with
  ``punct="drop"``, a zero-width space under the default normalisation, a user callable that returns ``[]``.

An empty reference is an error ([`EmptyReferenceError`][zheval.compute.inputs.EmptyReferenceError], a ``ValueError``) naming every such
``references[i][j]`` (the first `MAX_LISTED_EMPTY_REFERENCES`, with the text and why it has no token, and the
total count): it has no right number -- BLEU would take 0 as the closest reference length (cancelling the brevity
penalty) and ROUGE would score the prediction 0 against it. Only the human-ceiling and data-cleaning paths accept empty references,
explicitly (``allow_empty_references=True`` of `zheval.tokenizers.corpus.tokenize_corpus`), and they count them.
A BLEU preset that reproduces a tool scoring empty references (``BleuPreset.scores_empty_references``: sacrebleu,
reference length 0 and no n-gram) scores them as the tool does, never silently: `scored_empty_references` counts
them and warns (`zheval.compute.guards.EmptyReferenceWarning`, naming the count and the first ``references[i][j]``).
"""

from __future__ import annotations

import re
import unicodedata
from itertools import chain
from typing import Any, Callable, Iterable, Optional, Sequence

from ..io.text_lists import check_text_list, table_why, unordered_why
from ..text.normalize import is_blank

__all__ = ["validate_inputs", "prepare_items", "check_references", "empty_references", "EmptyReferenceError",
           "scored_empty_references",
           "MAX_LISTED_EMPTY_REFERENCES"]

#: At most this many empty references are listed (index, text and reason) in one `EmptyReferenceError`; the
#: message always gives the total count, and the exception's ``positions`` holds all of them.
MAX_LISTED_EMPTY_REFERENCES = 10

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


def _index_of(x: Any) -> Optional[list]:
    """The index labels of a pandas Series (or another object with an ``index`` that is no method, as a list's
    is), or ``None``."""
    index = getattr(x, "index", None)
    return None if index is None or callable(index) else list(index)


def _check_same_index(predictions: Any, references: Any) -> None:
    """Refuse predictions and references that both carry an index (pandas Series) when their indexes differ: they
    are paired by position, so ``pd.Series(p, index=[5, 3])`` beside ``pd.Series(r, index=[3, 5])`` would score
    label 5's prediction against label 3's reference without a word."""
    p_index, r_index = _index_of(predictions), _index_of(references)
    if p_index is None or r_index is None or p_index == r_index:
        return
    first = next((i for i, (a, b) in enumerate(zip(p_index, r_index)) if a != b), None)
    where = (f"position {first}: predictions' label {p_index[first]!r}, references' {r_index[first]!r}"
             if first is not None else "")
    raise ValueError(
        f"predictions and references have different indexes ({where}); items are paired by position, not by index "
        "label. Align them first (references = references.reindex(predictions.index)), or pair by position on "
        "purpose: predictions.reset_index(drop=True) and references.reset_index(drop=True), or .tolist()")


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
            not a ``str`` (``None`` included), naming its index (``predictions[3]``, ``references[3][1]``);
            ``predictions``, ``references`` or ``references[i]`` a mapping (``dict``: iterating it gives its keys,
            which would be scored as texts), a table (pandas DataFrame: iterating it gives its column names) or a set
            (unordered: the first reference and tie-breaks would change
            from run to run).
        ValueError: a lone surrogate in a text (naming the item); no items (unless ``allow_empty``); lengths differ (with a hint when ``references`` looks transposed — sacrebleu's layout of one
            list per reference *set*); an item with an empty reference list.

    Regular input (all ``str``; references ``str``, ``list`` or ``tuple``) is checked in a few C-level passes over
    all texts; anything else goes through an item-by-item loop, which also names the culprit of every error.
    """
    for name, value in (("predictions", predictions), ("references", references)):
        if isinstance(value, (str, bytes)):
            raise TypeError(f"{name} must be a list with one entry per item, not a single {type(value).__name__}")
        check_text_list(value, name)  # a table, a mapping or a set (`zheval.io.text_lists`)
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
    _check_same_index(predictions, references)
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
        if isinstance(r, (bytes, bytearray)) or (
                not isinstance(r, (list, tuple)) and not (hasattr(r, "__len__") and hasattr(r, "__iter__"))):
            raise TypeError(f"references[{i}] must be a str or a list of str, got {_describe(r)}")
        why = unordered_why(r) or table_why(r, f"references[{i}]", "pass the item's references as a list of str")
        if why is not None:
            raise TypeError(f"references[{i}] must be a str or a list of str, not {why}")
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


# ---------------------------------------------------------------------------------------------------------------
# the empty-reference rule

_AMBIGUOUS = ("An empty reference is ambiguous (BLEU would take 0 as its length and drop the brevity penalty, ROUGE "
              "would score the prediction 0 against it): remove it from its item's list or give a real reference.")


class EmptyReferenceError(ValueError):
    """References that are empty (see the module docstring): raised by `check_references`.

    Attributes:
        positions: every ``(i, j)`` index of an empty reference (``references[i][j]``), items in order -- all of them,
            not only those listed in the message.
        texts: the texts at ``positions``. reasons: why each listed one is empty (``None`` past the listed ones).
        context: the tokenizer description (``tok:…, norm:…``), or ``""`` when only the text was checked.
        locate: maps an item index to a note on where that item comes from (``""``: nothing to add); the evaluate
            modules use it to say which stored batch an item was added by.
        note: a closing sentence (e.g. whether stored items are included and kept), or ``""``.
    """

    def __init__(self, positions, texts, reasons, context: str = "", locate: Optional[Callable[[int], str]] = None,
                 note: str = ""):
        self.positions = list(positions)
        self.texts = list(texts)
        self.reasons = list(reasons)
        self.context = context
        self.locate = locate
        self.note = note
        super().__init__(self._message())

    def relocated(self, locate: Callable[[int], str], note: str = "") -> "EmptyReferenceError":
        """The same error with item origins (``locate(i)``) and a closing ``note`` in its message."""
        return EmptyReferenceError(self.positions, self.texts, self.reasons, self.context, locate, note)

    def _message(self) -> str:
        total = len(self.positions)
        how = f"after normalisation and tokenisation ({self.context})" if self.context else ""
        items = []
        for (i, j), text, why in list(zip(self.positions, self.texts, self.reasons))[:MAX_LISTED_EMPTY_REFERENCES]:
            where = self.locate(i) if self.locate is not None else ""
            shown = ascii(text) if is_blank(text) else repr(text)  # a blank one: every character escaped (U+3164 …)
            items.append((f"references[{i}][{j}]", f"{shown} {why}" + (f" -- {where}" if where else "")))
        if total == 1:
            name, what = items[0]
            lines = [f"{name} is empty{' ' + how if how else ''}: {what}. {_AMBIGUOUS}"]
        else:
            shown = f"the first {len(items)} listed" if total > len(items) else "all listed"
            lines = [f"{total} references are empty{' ' + how if how else ''}, {shown}:"]
            lines += [f"  {name} is empty: {what}" for name, what in items]
            if total > len(items):
                lines.append(f"  ... and {total - len(items)} more (EmptyReferenceError.positions has them all)")
            lines.append(_AMBIGUOUS)
        if self.note:
            lines.append(self.note)
        return "\n".join(lines)


def _only(text: str, prefixes: str) -> bool:
    chars = [c for c in text if not c.isspace()]
    return bool(chars) and all(unicodedata.category(c)[0] in prefixes for c in chars)


def _why_empty(text: str, tokenizer) -> str:
    """Why ``text`` has no token under ``tokenizer`` (or is blank): the clause after the quoted text."""
    if text == "":
        return "is the empty string"
    if text.isspace():
        return "is whitespace only"
    if tokenizer is None:
        return "has no token"
    norm = tokenizer.normalize(text)
    steps = tokenizer.normalizer.steps
    if not norm.strip():
        if "nopunct" in steps and _only(text, "PSZC"):
            return "is only punctuation, which the nopunct normalisation step removes"
        if _only(text, "CZ"):
            spaces = "whitespace and " if any(c.isspace() for c in text) else ""  # NBSP, U+3000 ...: said too
            return f"has only {spaces}invisible or format characters, which normalisation removes"
        return f"is blank after normalisation ({norm!r})"
    if getattr(tokenizer, "punct", "keep") == "drop" and _only(norm, "PSC"):
        return 'is only punctuation and symbols, which punct="drop" removes'
    if _only(norm, "C"):
        return f"has only invisible or format characters (normalised: {norm!r}), which are no token"
    if getattr(tokenizer, "name", "") == "custom":
        return (f"gets no token from the custom tokenizer (it returned [] or only empty/whitespace tokens for the "
                f"normalised text {norm!r})")
    return f"gets no token from the tokenizer (normalised text {norm!r})"


def _tokenizer_context(tokenizer) -> str:
    return f"tok:{tokenizer.signature()}, norm:{tokenizer.normalizer.name}"


def check_references(references: Sequence[Sequence[str]], tokenizer=None, lengths: Optional[Iterable[int]] = None,
                     allow_empty: bool = False) -> None:
    """The empty-reference rule (module docstring), the one definition every scoring path calls.

    Args:
        references: canonical references (``list[list[str]]``, the output of `validate_inputs`).
        tokenizer: the `BaseTokenizer` that produced ``lengths`` (named in the message and
            used to explain each case); ``None`` checks only what needs no option: empty or whitespace-only texts.
        lengths: the token count of every reference, flattened in item order (``sum(map(len, references))``
            values: a list, an iterator or an integer array); ``None`` with ``tokenizer=None``.
        allow_empty: return without checking (the explicit opt-out of the human-ceiling and cleaning paths).

    Raises:
        EmptyReferenceError (a ``ValueError``): naming every empty ``references[i][j]`` (the first
            `MAX_LISTED_EMPTY_REFERENCES` with their text and why, and the total), with the tokenizer
            and normalisation in the message.

    Cost: for clean input, C-level passes over the references (and the lengths).
    """
    if allow_empty:
        return
    flat = references[0] if len(references) == 1 else list(chain.from_iterable(references))
    if lengths is not None:
        lengths = lengths if hasattr(lengths, "all") else list(lengths)
        zero = not (lengths.all() if hasattr(lengths, "all") else all(lengths))
        if len(lengths) != len(flat):
            raise ValueError(f"check_references got {len(lengths)} lengths for {len(flat)} references")
    else:
        zero = False
    if not zero and "" not in flat and not any(map(str.isspace, flat)):
        return
    lens = [None] * len(flat) if lengths is None else [int(x) for x in lengths]
    positions, texts, reasons = [], [], []
    k = 0
    for i, rs in enumerate(references):
        for j, r in enumerate(rs):
            if lens[k] == 0 or r == "" or r.isspace():
                positions.append((i, j))
                texts.append(r)
                reasons.append(_why_empty(r, tokenizer if lengths is not None else None)
                               if len(reasons) < MAX_LISTED_EMPTY_REFERENCES else None)
            k += 1
    raise EmptyReferenceError(positions, texts, reasons,
                              _tokenizer_context(tokenizer) if tokenizer is not None and lengths is not None else "")


def scored_empty_references(references: Sequence[Sequence[str]], tokenizer, lengths: Iterable[int],
                            preset: str, tool: str) -> list:
    """The empty-reference rule of a preset whose tool scores empty references (``BleuPreset.scores_empty_references``):
    the references `check_references` would refuse are scored as ``tool`` scores them (length 0, no n-gram), counted
    and said -- one `zheval.compute.guards.EmptyReferenceWarning` naming the count, the first ``references[i][j]``,
    the preset and the tool (its ``positions`` hold every one; the text-file commands say ``FILE:line``).

    Returns:
        The positions ``(i, j)`` of the empty references, in item order (``[]``: none, and no warning).
    """
    import warnings

    from .guards import EmptyReferenceWarning

    try:
        check_references(references, tokenizer, lengths)
    except EmptyReferenceError as exc:
        i, j = exc.positions[0]
        n = len(exc.positions)
        warnings.warn(EmptyReferenceWarning(
            f"{n} empty reference(s) scored (the first: references[{i}][{j}]): preset {preset!r} follows {tool}, "
            "which scores an empty reference (reference length 0, no n-gram); without such a preset zheval refuses "
            "empty references",
            exc.positions), stacklevel=3)
        return exc.positions
    return []


def empty_references(references: Sequence[Sequence[str]], tokenizer=None) -> list:
    """The positions ``(i, j)`` of the references that the empty-reference rule refuses (`check_references`)
    under ``tokenizer`` (``None``: only blank texts), in item order; ``[]`` when there is none. For the adapters
    that skip and count such items on purpose (the Trainer hook's ``empty_references="skip"``) instead of failing.
    """
    lengths = None if tokenizer is None else [len(tokenizer.tokenize_cached(r)) for rs in references for r in rs]
    try:
        check_references(references, tokenizer, lengths)
    except EmptyReferenceError as exc:
        return exc.positions
    return []


def prepare_items(references: Sequence[Sequence[str]], max_refs: Optional[int]) -> tuple[list, Any]:
    """The preamble of every metric's items (ROUGE, BLEU, chrF): the references cut to the first ``max_refs`` of
    each item (`zheval.results.breakdowns.first_references`; ``None``: all) and each item's reference count
    (counted after the cut).

    Args:
        references: ``list[list[str]]`` (the output of `validate_inputs`); max_refs: an int >= 1 or ``None``.

    Returns:
        ``(references, counts)``: the references scored, and an ``(n_items,)`` int64 array.
    """
    import numpy as np

    from ..results.breakdowns import first_references

    if max_refs is not None:
        references = first_references(references, max_refs)
    return references, np.asarray([len(r) for r in references], dtype=np.int64)
