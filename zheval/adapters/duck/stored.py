"""What a predictions file stores beside its predictions, checked against the 小黄鸭 items they are joined to — by
id or by line order alike — so that a file made for another split, or in another order, is never scored silently
against the wrong items:

* references: LLaMA-Factory's ``label`` and a stored ``references`` / ``reference`` (a string or a list of
  strings) must each be among the item's references (after normalisation); the item's own references are the ones
  scored, so a stored reference that is not among them is reported (`reference_mismatches`). A stored ``label``
  is checked whatever the prediction field is called (``predict`` or ``prediction``, `llama_factory_label`; break-it
  F3 of issue 35: beside ``prediction`` it was neither read nor compared, so a file for other items scored
  silently); ``--label-check off`` skips the comparison;
* a query: every stored query field of a line counts (`QUERY_KEYS`: ``query``; LLaMA-Factory's ``prompt``, which
  wraps the query in a chat template, read only on lines without LLaMA-Factory's ``label``; Alpaca's
  ``instruction``, with its ``input``): their texts joined must hold the item's ``query``, whitespace ignored, both
  normalised as for scoring (NFKC: ``？`` is ``?``; `stored_query`, `query_mismatches`), and the messages name every
  field that was read (``'query' / 'instruction'``, `field_names`). Break-it of issue 35: only the first present
  field was read, so an ``instruction`` beside a ``query`` was never compared, nor checked to be text.

A stored field that is not text (a list, a number) is refused by the reader naming ``file:line`` and the field, as
a ``label`` is; a line without one is not compared (as a line without a ``label``), nor is a stored query whose item
has none (no ``query`` column, or a null or blank one: `has_query`), which the report notes
(`zheval.adapters.duck.inputs.stored_field_notes`).

More than `LABEL_MISMATCH_MAX_FRACTION` of the compared items disagreeing is an error with ``label_check="strict"``
(the messages: `label_mismatch_message`, `reference_mismatch_message`, `query_mismatch_message`); fewer are
counted on the `zheval.adapters.duck.predictions.Predictions` and warned about by the caller
(`zheval.adapters.duck.inputs.stored_field_warnings`). Every message names the file's own field.
"""

from __future__ import annotations

import unicodedata

from ...io import type_name

__all__ = ["LABEL_MISMATCH_MAX_FRACTION", "QUERY_KEYS", "STORED_REFERENCE_KEYS", "llama_factory_label",
           "stored_query", "stored_references", "field_names", "has_query",
           "reference_mismatches", "query_mismatches", "label_mismatch_message", "reference_mismatch_message",
           "query_mismatch_message", "too_many"]

LABEL_MISMATCH_MAX_FRACTION = 0.20
"""Largest fraction of labelled items whose LLaMA-Factory ``label`` (or stored references, or stored query) may
disagree with their item before `zheval.adapters.duck.predictions.join_predictions` refuses the file (more than this
is an error). A file from the right split in the right order matches on (nearly) every item; a shuffled, reversed
or other-split file matches on almost none (a reversed 85-item CrossWOZ file: 81 of 85 do not match), so 20%
separates the two with a wide margin either side."""

QUERY_KEYS = ("query", "prompt", "instruction")
"""Fields of a predictions line that store the item's query; every one present (and not null) is read, in this
order, and their texts joined are checked against the 小黄鸭 item's ``query`` (``prompt``: LLaMA-Factory's, the
query inside its chat template, read only on lines without a ``label``, whose check covers the pairing;
``instruction``: Alpaca's, followed by its ``input``)."""

STORED_REFERENCE_KEYS = ("references", "reference")
"""Fields of a predictions line that store references besides LLaMA-Factory's ``label``: each stored text must be
among the item's references (the item's are the ones scored)."""

_SHOWN = 10


def llama_factory_label(row: dict, pred_field: str = "predict"):
    """The ``label`` a predictions row stores (any value, ``None`` when absent; the caller checks it is a string),
    whatever its prediction field ``pred_field`` is called: LLaMA-Factory's ``predict`` or ``prediction`` alike (a
    ``label`` is never ignored silently). Raises nothing."""
    return row.get("label")


def stored_query(row: dict, pred_field: str = "predict") -> tuple:
    """``(fields, text, problem)`` of the query a predictions row stores under `QUERY_KEYS`: ``fields`` the tuple of
    every field present and not null (``prompt`` only on a row without LLaMA-Factory's ``label``,
    `llama_factory_label` of the row's prediction field ``pred_field``), ``text`` their texts joined by line breaks
    (Alpaca's ``instruction`` followed by its ``input`` when the row has one); ``(None, None, None)`` without one;
    ``problem`` the text of the first value that is not a string, naming the row's own field."""
    fields, texts = [], []
    for key in QUERY_KEYS:
        value = row.get(key)
        if value is None or (key == "prompt" and llama_factory_label(row, pred_field) is not None):
            continue
        if not isinstance(value, str):
            return key, None, f"{key!r} must be a string, got {type_name(value)}"
        extra = row.get("input") if key == "instruction" else None
        if extra is not None and not isinstance(extra, str):
            return key, None, f"'input' (with 'instruction') must be a string, got {type_name(extra)}"
        fields.append(key)
        texts.append(value if extra is None else value + "\n" + extra)
    return (tuple(fields), "\n".join(texts), None) if fields else (None, None, None)


def field_names(fields) -> str:
    """The stored fields of some lines as the messages name them: each field once, quoted, in order of first
    appearance, joined by `` / `` (``fields``: field names, or tuples of them as `stored_query` gives)."""
    keys = [k for f in fields for k in ((f,) if isinstance(f, str) else f)]
    return " / ".join(repr(k) for k in dict.fromkeys(keys))


def stored_references(row: dict) -> tuple:
    """``(field, texts, problem)`` of the references a predictions row stores under `STORED_REFERENCE_KEYS` (the
    first present and not null; an empty table cell is none): ``(None, None, None)`` without one; ``texts`` a list
    of strings; ``problem`` the text of a value that is neither a string nor a non-empty list of strings."""
    key = next((k for k in STORED_REFERENCE_KEYS if row.get(k) is not None), None)
    if key is None:
        return None, None, None
    value = row[key]
    texts = [value] if isinstance(value, str) else value if isinstance(value, list) else None
    if texts is None:
        return key, None, f"{key!r} must be a string or a list of strings, got {type_name(value)}"
    bad = next((k for k, t in enumerate(texts) if not isinstance(t, str)), None)
    if bad is not None:
        return key, None, f"{key}[{bad}] must be a string, got {type_name(texts[bad])}"
    if not texts:  # nothing to compare: never read as "every stored reference is the item's"
        return key, None, f"{key!r} is an empty list: store the item's references, or leave the field out"
    return key, texts, None


def reference_mismatches(stored: list, fields: list, order: list, refs: list, ids: list, lines: list,
                         norm) -> tuple:
    """``(compared, mismatches)``: how many items have stored references, and ``(line, item id, text, item's
    references, field)`` of each item with a stored text that is none of its references (normalised by ``norm``).
    ``stored[j]``: the texts stored with prediction ``j`` (or ``None``) under the field ``fields[j]``; ``order[i]``:
    the prediction of item ``i``; ``lines[j]``: its line."""
    compared, bad = 0, []
    for i, j in enumerate(order):
        texts = stored[j]
        if texts is None:
            continue
        compared += 1
        have = {norm(r) for r in refs[i]}
        other = next((t for t in texts if norm(t) not in have), None)
        if other is not None:
            bad.append((lines[j] if j < len(lines) else None, ids[i], other, refs[i], fields[j]))
    return compared, bad


def has_query(query) -> bool:
    """Whether an item's ``query`` can be compared with a stored one: a string with a character that is not
    whitespace (a blank query is in every stored text, so comparing it would count a check that checks nothing)."""
    return isinstance(query, str) and bool(query.strip())


def query_mismatches(stored: list, fields: list, order: list, queries: list, ids: list, lines: list,
                     norm=None) -> tuple:
    """``(compared, mismatches)`` of the stored queries: ``(line, item id, stored, item's query, field)`` of each
    item whose query is not in the stored one, both normalised as for scoring (NFKC, then ``norm``: ``？`` and
    ``?`` are one mark) and whitespace removed; an item without a query (`has_query`) is not compared. Arguments as
    `reference_mismatches`."""
    squash = lambda t: "".join((norm or str)(unicodedata.normalize("NFKC", t)).split())  # noqa: E731
    compared, bad = 0, []
    for i, j in enumerate(order):
        if stored[j] is None or not has_query(queries[i]):
            continue
        compared += 1
        if squash(queries[i]) not in squash(stored[j]):
            bad.append((lines[j] if j < len(lines) else None, ids[i], stored[j], queries[i], fields[j]))
    return compared, bad


def too_many(mismatches: list, compared: int) -> bool:
    """More than `LABEL_MISMATCH_MAX_FRACTION` of ``compared`` items disagree."""
    return bool(compared) and len(mismatches) > LABEL_MISMATCH_MAX_FRACTION * compared


def _pairing(by_id: bool) -> str:
    return ("are joined to the items by id" if by_id else
            "have no 'id' field, so they are paired with the items by line order")


def _cause(by_id: bool) -> str:
    return ("the ids are those of another split or file, or the items changed" if by_id else
            "the file is in another order or from another split")


def _short(text: str, n: int = 30) -> str:
    return repr(text if len(text) <= n else text[:n] + "…")


def _listed(lines: list, details: list, fmt) -> list:
    lines += [fmt(*d) for d in details[:_SHOWN]]
    if len(details) > _SHOWN:
        lines.append(f"  … and {len(details) - _SHOWN} more")
    return lines


def label_mismatch_message(src: str, details: list, labelled: int) -> str:
    """The error for too many LLaMA-Factory labels that are none of their item's references."""
    head = [f"predictions ({src}): {len(details)} of {labelled} items have a LLaMA-Factory 'label' that is none of "
            f"the item's references (more than {LABEL_MISMATCH_MAX_FRACTION:.0%}, LABEL_MISMATCH_MAX_FRACTION): the "
            "file is most likely from another split or in another order, so its predictions would be scored against "
            "other items' references. First mismatches:"]
    lines = _listed(head, details, lambda line, rid, lbl, refs, _: (
        f"  {f'{src}:{line}' if line else src}: item {rid!r}: label {_short(lbl)} is not among its {len(refs)} "
        f"reference(s), e.g. {_short(refs[0])}"))
    lines.append("If the references were changed after the predictions were made (e.g. by zheval clean), pass "
                 "--label-check warn (label_check='warn'); --label-check off skips the comparison.")
    return "\n".join(lines)


def reference_mismatch_message(src: str, details: list, compared: int, by_id: bool) -> str:
    """The error for too many stored references that are not among their item's references (each named by its own
    field)."""
    field = " / ".join(repr(d[-1]) for d in details[:1])
    head = [f"predictions ({src}) {_pairing(by_id)}, but {len(details)} of {compared} items store a {field} that "
            f"is not among the item's references (more than {LABEL_MISMATCH_MAX_FRACTION:.0%}): {_cause(by_id)}; "
            "the data file's references are the ones scored, not the file's. First mismatches:"]
    lines = _listed(head, details, lambda line, rid, text, refs, f: (
        f"  {f'{src}:{line}' if line else src}: item {rid!r}: {f!r} has {_short(text)}, not among its "
        f"{len(refs)} reference(s), e.g. {_short(refs[0])}"))
    lines.append(f"To score the file against its own {field}, leave out --data; if the data's references were "
                 "changed on purpose (e.g. by zheval clean), pass --label-check warn (label_check='warn').")
    return "\n".join(lines)


def query_mismatch_message(src: str, details: list, compared: int, by_id: bool) -> str:
    """The error for too many stored queries that are not their item's query (each named by its own field)."""
    fields = field_names(d[-1] for d in details)
    head = [f"predictions ({src}) {_pairing(by_id)}, but on {len(details)} of {compared} lines the stored {fields} "
            f"is not the item's query (more than {LABEL_MISMATCH_MAX_FRACTION:.0%}): {_cause(by_id)}. "
            "First mismatches:"]
    lines = _listed(head, details, lambda line, rid, stored, query, f: (
        f"  {src}:{line}: {field_names([f])} {_short(stored)}, item {rid!r} has query {_short(query)}"))
    lines.append("Check that the predictions are for this data file (same split, same ids)." if by_id else
                 "Add an 'id' field to each prediction (then they are joined by id), or fix the order.")
    return "\n".join(lines)
