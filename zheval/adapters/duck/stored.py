"""What a predictions file stores beside its predictions, checked against the 小黄鸭 items they are joined to — by
id or by line order alike — so that a file made for another split, or in another order, is never scored silently
against the wrong items:

* references: LLaMA-Factory's ``label`` and stored references (`STORED_REFERENCE_KEYS`: ``references`` /
  ``reference``, the 小黄鸭 data's own ``responses``, ``answers`` / ``answer``, ``target``, ``gold``,
  ``ground_truth``; a string or a list of strings; never ``response`` or ``output``, which often hold the model's
  own output, nor the field read as the prediction) must each be among the item's references (after
  normalisation); the item's own references are the ones scored, so a stored reference that is not among them
  is reported (`reference_mismatches`). A stored ``label``
  is checked whatever the prediction field is called (``predict`` or ``prediction``, `llama_factory_label`; break-it
  F3 of issue 35: beside ``prediction`` it was neither read nor compared, so a file for other items scored
  silently); ``--label-check off`` skips the comparison;
* a query: every stored query field of a line counts (`QUERY_KEYS`: ``query``; LLaMA-Factory's ``prompt``, which
  wraps the query in a chat template, read only on lines without LLaMA-Factory's ``label``; Alpaca's
  ``instruction``, with its ``input``): their texts joined must hold the item's ``query``, whitespace ignored, both
  normalised as for scoring (NFKC: ``？`` is ``?``; `stored_query`, `query_mismatches`), and the messages name every
  field that was read (``'query' / 'instruction'``, `field_names`). Break-it of issue 35: only the first present
  field was read, so an ``instruction`` beside a ``query`` was never compared, nor checked to be text. Also read:
  ``question``, a seq2seq ``input`` (without ``instruction``), and the user turns of a ShareGPT
  ``conversations`` / OpenAI ``messages`` chat (`CHAT_KEYS`, `chat_query`);
* other names: a name in another case (``Query``, a CSV column ``Question``) is read as the name when it is the
  line's only case of it (`stored_key`). The common names added by the break-it pass that found shuffled files
  storing them scored silently (BLEU 0.0052 instead of 0.3107) are lenient (`LENIENT_KEYS`): such a field holding
  something else (``"answer": 42``, SQuAD's ``answers`` object, token ids under ``input``, a chat whose content is
  a list of parts) is not compared, never refused.

A stored field that is not text (a list, a number; under a lenient name: not compared) is refused by the reader
naming ``file:line`` and the field, as
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

__all__ = ["LABEL_MISMATCH_MAX_FRACTION", "QUERY_KEYS", "CHAT_KEYS", "STORED_REFERENCE_KEYS", "LENIENT_KEYS",
           "llama_factory_label", "stored_key", "chat_query",
           "stored_query", "stored_references", "field_names", "has_query",
           "reference_mismatches", "query_mismatches", "label_mismatch_message", "reference_mismatch_message",
           "query_mismatch_message", "too_many"]

LABEL_MISMATCH_MAX_FRACTION = 0.20
"""Largest fraction of labelled items whose LLaMA-Factory ``label`` (or stored references, or stored query) may
disagree with their item before `zheval.adapters.duck.predictions.join_predictions` refuses the file (more than this
is an error). A file from the right split in the right order matches on (nearly) every item; a shuffled, reversed
or other-split file matches on almost none (a reversed 85-item CrossWOZ file: 81 of 85 do not match), so 20%
separates the two with a wide margin either side."""

QUERY_KEYS = ("query", "prompt", "instruction", "question", "input")
"""Fields of a predictions line that store the item's query; every one present (and not null) is read, in this
order, and their texts joined are checked against the 小黄鸭 item's ``query`` (``prompt``: LLaMA-Factory's, the
query inside its chat template, read only on lines without a ``label``, whose check covers the pairing;
``instruction``: Alpaca's, followed by its ``input``; ``question``; ``input`` alone, as seq2seq files store it
beside a ``target``, only on a line without ``instruction``). The names after ``instruction`` are `LENIENT_KEYS`."""

CHAT_KEYS = ("conversations", "messages")
"""Fields of a predictions line that store a chat (ShareGPT's ``conversations``, a list of ``{"from", "value"}``;
OpenAI's ``messages``, a list of ``{"role", "content"}``): the texts of its user turns (``from``/``role``
``"human"`` or ``"user"``; the query is the first of a plain chat, the last of a few-shot one) are read as a stored query, as `QUERY_KEYS` are (`chat_query`). Only that simple shape is
read: a chat of another shape (content as a list of parts, no user turn) is not compared."""

STORED_REFERENCE_KEYS = ("references", "reference", "responses", "answers", "answer", "target", "gold",
                         "ground_truth")
"""Fields of a predictions line that store references besides LLaMA-Factory's ``label`` (the first present is
read; ``responses`` is the 小黄鸭 data's own name): each stored text must be among the item's references (the
item's are the ones scored). Never read as references: ``response`` and ``output``, which as often hold the model's
own output as a reference (a file storing its raw ``response`` beside the ``prediction`` would be refused falsely),
and the field read as the prediction."""

LENIENT_KEYS = frozenset(QUERY_KEYS[3:] + CHAT_KEYS + STORED_REFERENCE_KEYS[2:])
"""Common names that may hold something else than the item's query or references (``"answer": 42``, SQuAD's
``answers`` object, a tokenised ``input``, the model's own answer): a value of a shape they are not read in is not
compared (never refused), nor are stored references that are no item's references (`reference_mismatches`), where
``query``, ``prompt``, ``instruction``, ``references`` and ``reference`` must be text. A name in another case
(``Query``, a CSV column ``Question``) is read as its name when the line has neither the name nor another case of
it (`stored_key`); such a field is lenient too."""

_SHOWN = 10


def llama_factory_label(row: dict, pred_field: str = "predict"):
    """The ``label`` a predictions row stores (any value, ``None`` when absent; the caller checks it is a string),
    whatever its prediction field ``pred_field`` is called: LLaMA-Factory's ``predict`` or ``prediction`` alike (a
    ``label`` is never ignored silently). A blank ``label`` (``""``: an unlabelled test set's) stores nothing, as
    an empty cell of any stored field does, so the row's ``prompt`` is compared instead (break-it 25: it was
    compared as a reference, the file refused, and ``label_check="warn"`` then let a shuffled file through).
    Raises nothing."""
    label = row.get("label")
    return None if isinstance(label, str) and not label.strip() else label


def stored_key(row: dict, name: str, pred_field=None):
    """``(key, lenient)``: the key of ``row`` that stores ``name`` — ``name`` itself, else its one case variant
    (``Query`` for ``query``; none when the row has two, ``Query`` and ``QUERY``: ambiguous) — and whether a value
    of another shape is skipped rather than refused (`LENIENT_KEYS`, or a case variant); ``(None, False)`` when
    the row has none, or when it is ``pred_field``, the field read as the prediction (never compared)."""
    if name in row:
        key, lenient = name, name in LENIENT_KEYS
    else:
        near = [k for k in row if isinstance(k, str) and k != name and k.lower() == name]
        key, lenient = (near[0], True) if len(near) == 1 else (None, False)
    return (None, False) if key is None or key == pred_field or row.get(key) is None else (key, lenient)


def chat_query(value):
    """The texts of the user turns of a chat (`CHAT_KEYS`: a list of dicts with ``from``/``role``
    ``"human"``/``"user"`` and a string ``value``/``content``), joined by line breaks — the query is in one of them:
    the first of a plain chat, the last of a few-shot one (lm-eval's ``fewshot_as_multiturn``) — else ``None``
    (another shape, or no user turn: not read)."""
    if not isinstance(value, list):
        return None
    texts = []
    for turn in value:
        if not isinstance(turn, dict):
            return None
        if turn.get("from", turn.get("role")) in ("human", "user"):
            text = turn.get("value", turn.get("content"))
            if not isinstance(text, str):
                return None
            texts.append(text)
    return "\n".join(texts) if texts else None


def stored_query(row: dict, pred_field: str = "predict") -> tuple:
    """``(fields, text, problem)`` of the query a predictions row stores under `QUERY_KEYS` and `CHAT_KEYS`:
    ``fields`` the tuple of every field present and not null, as the row names it (`stored_key`: ``Query`` too;
    ``prompt`` only on a row without LLaMA-Factory's ``label``, `llama_factory_label` of the row's prediction field
    ``pred_field``; ``input`` alone only on a row without ``instruction``), ``text`` their texts joined by line
    breaks (Alpaca's ``instruction`` followed by its ``input`` when the row has one; a chat's user turns,
    `chat_query`); ``(None, None, None)`` without one; ``problem`` the text of the first value that is not a
    string, naming the row's own field (a lenient field's, `LENIENT_KEYS`, is skipped instead)."""
    fields, texts = [], []
    instruction = None
    for name in QUERY_KEYS + CHAT_KEYS:
        key, lenient = stored_key(row, name, pred_field)
        if key is None or (name == "prompt" and llama_factory_label(row, pred_field) is not None):
            continue
        if name == "input" and instruction is not None:
            continue  # Alpaca's: read with its instruction
        value = chat_query(row[key]) if name in CHAT_KEYS else row[key]
        if not isinstance(value, str):
            if lenient:
                continue
            return key, None, f"{key!r} must be a string, got {type_name(value)}"
        extra = None
        if name == "instruction":
            instruction = key
            extra = row.get("input")
            if extra is not None and not isinstance(extra, str):
                return key, None, f"'input' (with {key!r}) must be a string, got {type_name(extra)}"
        fields.append(key)
        texts.append(value if extra is None else value + "\n" + extra)
    return (tuple(fields), "\n".join(texts), None) if fields else (None, None, None)


def field_names(fields) -> str:
    """The stored fields of some lines as the messages name them: each field once, quoted, in order of first
    appearance, joined by `` / `` (``fields``: field names, or tuples of them as `stored_query` gives)."""
    keys = [k for f in fields for k in ((f,) if isinstance(f, str) else f)]
    return " / ".join(repr(k) for k in dict.fromkeys(keys))


def stored_references(row: dict, pred_field=None) -> tuple:
    """``(field, texts, problem)`` of the references a predictions row stores under `STORED_REFERENCE_KEYS` (the
    first present and not null, as the row names it, `stored_key`; an empty table cell is none; never
    ``pred_field``, the prediction's own field): ``(None, None, None)`` without one; ``texts`` a list of strings;
    ``problem`` the text of a value that is neither a string nor a non-empty list of strings (a lenient field's,
    `LENIENT_KEYS`, such as ``"answer": 42``, is not read: the next name is tried)."""
    for name in STORED_REFERENCE_KEYS:
        key, lenient = stored_key(row, name, pred_field)
        if key is None:
            continue
        value = row[key]
        texts = [value] if isinstance(value, str) else value if isinstance(value, list) else None
        bad = None if texts is None else next((k for k, t in enumerate(texts) if not isinstance(t, str)), None)
        if lenient and (texts is None or bad is not None or not texts):
            continue
        if texts is None:
            return key, None, f"{key!r} must be a string or a list of strings, got {type_name(value)}"
        if bad is not None:
            return key, None, f"{key}[{bad}] must be a string, got {type_name(texts[bad])}"
        if not texts:  # nothing to compare: never read as "every stored reference is the item's"
            return key, None, f"{key!r} is an empty list: store the item's references, or leave the field out"
        return key, texts, None
    return None, None, None


def reference_mismatches(stored: list, fields: list, order: list, refs: list, ids: list, lines: list,
                         norm) -> tuple:
    """``(compared, mismatches)``: how many items have stored references, and ``(line, item id, text, item's
    references, field)`` of each item with a stored text that is none of its references (normalised by ``norm``).
    ``stored[j]``: the texts stored with prediction ``j`` (or ``None``) under the field ``fields[j]``; ``order[i]``:
    the prediction of item ``i``; ``lines[j]``: its line; texts equal but for whitespace (a trailing line break,
    under ``normalize="none"``) are the same reference. Under a lenient name (`LENIENT_KEYS`: ``answer``,
    ``target`` … — not ``label``, ``references``, ``reference``), a line none of whose texts is any item's reference
    is not compared: it holds something else (the model's own raw answer, a reference of another data set), whereas
    a shuffled file's stored texts are other items' references."""
    strict = {"label", *STORED_REFERENCE_KEYS[:2]}

    def same(text: str) -> str:  # whitespace aside (a trailing line break, spaces), as every tokenizer reads it
        return " ".join(norm(text).split())

    every = {same(r) for rs in refs for r in rs} if any(f not in strict for f in fields if f) else set()
    compared, bad = 0, []
    for i, j in enumerate(order):
        texts = stored[j]
        if texts is None or (fields[j] not in strict and not any(same(t) in every for t in texts)):
            continue
        compared += 1
        have = {same(r) for r in refs[i]}
        other = next((t for t in texts if same(t) not in have), None)
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
