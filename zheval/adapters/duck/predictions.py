"""Model predictions for a 小黄鸭 dataset: read them from a file and join them to the dataset's items.

Accepted files:

* **JSONL with ids**: ``{"id": str, "prediction": str}`` per line (other keys are ignored) → joined **by id**.
* **LLaMA-Factory** ``generated_predictions.jsonl``: ``{"prompt": str, "predict": str, "label": str}`` per line
  (written by LLaMA-Factory's ``save_predictions`` / ``vllm_infer``), no id → joined **in dataset order**. The
  ``label`` is used as a sanity check: items whose label is not one of their references (after normalisation)
  are counted (`Predictions.label_mismatches`), which catches a file made for another split or order.
  More than `LABEL_MISMATCH_MAX_FRACTION` (20%) of the labelled items not matching is an error
  (`PredictionMismatchError`, listing the first mismatches by ``file:line``): every prediction would be
  scored against another item's references. Up to that fraction it is a warning with the count.
  ``label_check="warn"`` makes it a warning at any fraction (e.g. when the references were cleaned after the
  predictions were made), ``"off"`` skips the check. ``"predict"`` may also be used together with ``"id"``.
  A ``label`` beside ``prediction`` is checked the same way (`zheval.adapters.duck.stored.llama_factory_label`).
  Every line is read with the first line's prediction field: a line with the other one (``prediction`` after
  ``predict``) is refused at its ``file:line`` naming both and ``--pred-field``, as the records door does.
  Stored references (``references``/``reference``, the data's own ``responses``, ``answer(s)``, ``target``,
  ``gold``, ``ground_truth``) and a stored query (every one present of ``query``, ``prompt`` without a label,
  ``instruction`` with its ``input``, ``question``, ``input``, a chat's user turns) are checked the same way,
  whether the predictions are joined by id or by order (`zheval.adapters.duck.stored`).
* **CSV, TSV, Parquet** (by extension, or ``format="csv"`` …): a header row; the prediction column is the one of
  ``predict``/``prediction`` the header has, joined **by id** when there is an ``id`` column (the one id rule of
  [`zheval.io.fields`][]: whenever a file has ids, they are used), else in dataset order; ``label`` as above. An
  empty cell of a stored field (``label``, references, query) stores nothing on that line, for every stored field
  alike (an empty prediction cell is an empty prediction); the report's notes say how many lines stored each
  field and were compared, and how many stored none (`zheval.adapters.duck.inputs.stored_field_notes`).
* **plain text**: one prediction per line, in dataset order (an empty line is an empty prediction; a final line
  break does not start another prediction). Lines written as JSON strings (``print(json.dumps(text))``) follow
  `zheval.io.json_strings`: all of them refused with ``auto``, some said (`zheval.adapters.json_texts.JsonStringWarning`:
  those with an escape, or all when they are half the lines). A prediction of a JSONL, CSV, TSV or Parquet file that is
  itself a JSON string literal (``json.dumps`` applied twice) is said by the same rule, per file
  (`zheval.adapters.json_texts.JsonFields`).

``format="auto"`` picks JSONL for ``.jsonl``/``.json`` files, text for ``.txt``, and otherwise JSONL when the first
non-blank line is a JSON object. Two checks catch a file read the wrong way (a wrong number, not an error,
otherwise):

* a file read as **text** by ``auto`` whose non-blank lines are at least `JSONL_LOOKING_FRACTION` (half)
  JSON objects is refused (``file:line`` of the first such line; the fix: rename it ``.jsonl`` or pass
  ``format="jsonl"`` / ``--predictions-format jsonl``), and so is one that is a single JSON document (an array,
  e.g. ``json.dump(rows, f, indent=2)``). Explicit ``format="text"`` reads such lines as text;
* a file read as **JSONL** whose non-blank lines are at least half not JSON (a line starting with ``{`` or ``[``
  is malformed JSON, never text: `zheval.io.jsonl.json_like`) gets, besides the per-line problems,
  one problem saying it looks like plain text (the fix: ``format="text"`` / ``--predictions-format text``); one
  that is a single JSON document (an array of objects, or one object over several lines) gets that one message.

A UTF-8 BOM and CRLF line ends are accepted; a key given twice on a line, and UTF-16/UTF-32/GB18030 files, are
refused (as by `load`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ...io import (PREDICTION_FIELDS, EmptyFileError, UniqueIds, duplicate_key_problem, existing_file, near_id_problem,
                   id_field_of, id_value, json_document_problem, json_error_message, json_like, lone_surrogate, parse_json_line,
                   field_arguments, prediction_field, predictions_arguments, read_lines, read_rows, row_format, json_string_check)
from ...io.jsonl import wrapped_rows_hint
from ..records_checks import review_sheet_problem
from ..json_texts import PREDICTIONS_INSTEAD, JsonFields, warn_json_lines
from .id_like import id_like_check
from .load import DuckFormatError, Problem
from .predictions_kind import (JSONL_LOOKING_FRACTION, looks_like_text_problem, nonblank_lines, refuse_jsonl_as_text,
                               sniff_format)
from .mismatch import blank_last_line_note, count_mismatch_message, id_mismatch_lines
from .stored import (LABEL_MISMATCH_MAX_FRACTION, label_mismatch_message, llama_factory_label,
                     has_query, query_mismatch_message, query_mismatches, reference_mismatch_message, reference_mismatches,
                     stored_query, stored_references, too_many)

__all__ = [
    "Predictions",
    "PredictionMismatchError",
    "read_predictions",
    "join_predictions",
    "PREDICTION_KEYS",
    "PREDICTION_FORMATS",
    "TABLE_FORMATS",
    "LABEL_CHECKS",
    "LABEL_MISMATCH_MAX_FRACTION",
    "JSONL_LOOKING_FRACTION",
]

PREDICTION_KEYS = PREDICTION_FIELDS
"""Field names accepted for the prediction text (`zheval.io.fields.PREDICTION_FIELDS`; ``predict`` is
LLaMA-Factory's)."""

PREDICTION_FORMATS = ("auto", "jsonl", "text", "csv", "tsv", "parquet")
"""Values of ``format`` (CLI ``--predictions-format``)."""

TABLE_FORMATS = ("csv", "tsv", "parquet")
"""The formats read as a table with a header ([`zheval.io.rows.read_rows`][]): the prediction column is the one
of `PREDICTION_KEYS` the header has, the id column ``id`` when there is one ([`zheval.io.fields`][])."""

LABEL_CHECKS = ("strict", "warn", "off")
"""Values of ``label_check``: ``strict`` (default) = error above `LABEL_MISMATCH_MAX_FRACTION`, warning up to
it; ``warn`` = warning at any fraction; ``off`` = labels are not compared."""


_SHOWN = 10

@dataclass
class Predictions:
    """Predictions read from a file.

    Attributes:
        texts: the prediction strings in file order. ids: one id per prediction, or ``None`` (ordered file).
        labels: LLaMA-Factory ``label`` values, or ``None``. lines: 1-based line number of each prediction.
        source: the file path; kind: ``"jsonl"`` or ``"text"``.
        label_mismatches: set by `join_predictions`: ids of items whose label is not among their references.
        label_mismatch_lines: the predictions-file line of each of those (same order).
        labelled: set by `join_predictions`: how many items had a label to compare.
        queries: the query stored with each prediction (every one present of ``query``, LLaMA-Factory's
            ``prompt``, Alpaca's ``instruction`` with its ``input``, ``question``, ``input``, a chat's user
            turns, joined: `zheval.adapters.duck.stored.stored_query`),
            or ``None``; `join_predictions` checks that each item's query is in it.
        query_fields: the tuple of fields each stored query was read from (the user's own names, used in the
            messages), or ``None``.
        paired_by_order: set by `join_predictions`: the predictions had no ids and were paired with the items
            by line order (the report says so).
        id_like_field: set by `join_predictions` for predictions paired by line order: a field of their file that
            holds the items' ids in the data's order (`zheval.adapters.duck.id_like`; the report warns), or ``None``;
            likewise row_index_field, row_index_doubt, row_index_loose, other_fields and id_like_gaps
            (`zheval.adapters.duck.id_like.id_like_check`).
        query_mismatches: set by `join_predictions`: ``(line, item id, field)`` of each line whose stored query is
            not its item's query (below the error threshold; the caller warns).
        queries_checked: set by `join_predictions`: how many stored queries were compared.
        queries_uncompared: set by `join_predictions`: the index of each prediction that stores a query but was not
            compared because its item has no query (the data has no ``query`` column, or the item's is null or
            blank; `zheval.adapters.duck.stored.has_query`); the report notes them.
        references: the references stored with each prediction (``references``/``reference``: a list of strings,
            `zheval.adapters.duck.stored.stored_references`), or ``None``; reference_fields: the field of each.
        reference_mismatches: set by `join_predictions`: ``(line, item id, field)`` of each line that stores a
            reference that is none of its item's; references_checked: how many lines' references were compared.
        notes: what the report says of how these predictions were paired with the items besides the line-order note
            (`zheval.adapters.duck.inputs.order_notes`), e.g. group values that differ from the first file's in
            ``zheval compare`` of records files (`zheval.adapters.records_compare.same_items`).
    """

    texts: list
    ids: list | None = None
    labels: list | None = None
    lines: list = field(default_factory=list)
    source: str = "<memory>"
    kind: str = "jsonl"
    label_mismatches: list = field(default_factory=list)
    label_mismatch_lines: list = field(default_factory=list)
    labelled: int = 0
    queries: list | None = None
    query_fields: list | None = None
    paired_by_order: bool = False
    id_like_field: str | None = None
    row_index_field: tuple | None = None
    row_index_doubt: str | None = None
    row_index_loose: str | None = None
    id_like_gaps: str | None = None
    other_fields: list = field(default_factory=list)
    query_mismatches: list = field(default_factory=list)
    queries_checked: int = 0
    queries_uncompared: list = field(default_factory=list)
    references: list | None = None
    reference_fields: list | None = None
    reference_mismatches: list = field(default_factory=list)
    references_checked: int = 0
    notes: list = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.texts)


class PredictionMismatchError(ValueError):
    """Predictions do not match the dataset (counts, missing / extra / duplicate ids); the message lists the counts
    and the first ids of each kind."""


def _read_lines(path: Path) -> list[tuple[int, str]]:
    problems: list = []
    lines = read_lines(path, "predictions", problems)
    if lines is None:
        raise DuckFormatError(problems, "invalid predictions file")
    return lines


def _read_table(path: Path, kind: str) -> Predictions:
    """A CSV/TSV/Parquet predictions file: the prediction column by the field rule, ids from ``id`` when the
    header has it, a stored ``label`` when present (`llama_factory_label`); predictions that are JSON string
    literals (``json.dumps`` applied twice) said as in a JSONL file (`zheval.adapters.json_texts.JsonFields`)."""
    name = str(path)
    problems: list = []
    rf = read_rows(path, format=kind, what="predictions", problems=problems)
    if not rf.rows:
        raise DuckFormatError(problems, "invalid predictions file")
    sheet = review_sheet_problem(name, rf.fields, rf.header_line or rf.rows[0][0])
    if sheet is not None:  # zheval sample's review sheet: for zheval agree, never scored
        raise DuckFormatError([sheet], "invalid predictions file")
    pred, err = prediction_field(rf.fields, bool(rf.header_line), predictions_arguments(field_arguments(True, False)))
    if err:  # named at the header's line (the fields are the header's)
        raise DuckFormatError([Problem(name, rf.header_line or rf.rows[0][0], None, err)], "invalid predictions file")
    idf = id_field_of(rf.fields)
    seen = UniqueIds()
    texts, ids, labels, linenos, stored = [], [], [], [], []
    encoded = JsonFields()  # predictions JSON-encoded twice: scored as written, one warning (as in a JSONL file)
    for line, row in rf.rows:
        rid, bad = (id_value(row.get(idf), idf) if idf else (None, None))
        errs = [bad] if bad else []
        if rid is not None:
            dup = seen.add(rid, name, line)
            if dup:
                errs.append(dup)
        cells = {k: v for k, v in row.items() if v != "" or k == pred}  # an empty stored cell stores nothing
        text, label = row.get(pred), llama_factory_label(cells, pred)
        if not isinstance(text, str):
            errs.append(f"{pred!r} must be a string, got {type(text).__name__ if text is not None else 'null'}")
        if label is not None and not isinstance(label, str):
            errs.append(f"'label' must be a string, got {type(label).__name__}")
        errs += [f"{k!r} {lone_surrogate(v)}" for k, v in ((pred, text), ("label", label))
                 if isinstance(v, str) and lone_surrogate(v)]
        refs, query = stored_references(cells, pred), stored_query(cells, pred)
        errs += [e for e in (refs[2], query[2]) if e]
        if errs:
            problems.extend(Problem(name, line, rid, e) for e in errs)
            continue
        texts.append(text)
        encoded.add(line, [text], [repr(pred)])
        ids.append(rid)
        labels.append(label)
        linenos.append(line)
        stored.append(refs + query)
    if problems:
        raise DuckFormatError(problems, "invalid predictions file")
    encoded.warn(name, stacklevel=4)
    return Predictions(texts=texts, ids=ids if idf else None,
                       labels=labels if any(lbl is not None for lbl in labels) else None, lines=linenos, source=name,
                       kind=rf.kind, **_stored_fields(stored))


def _stored_fields(stored: list) -> dict:
    """`Predictions`' ``references``, ``reference_fields``, ``queries`` and ``query_fields`` from
    ``(reference field, texts, _, query field, query, _)`` per prediction (`stored_references`, `stored_query`)."""
    out = {}
    if any(s[1] is not None for s in stored):
        out.update(references=[s[1] for s in stored], reference_fields=[s[0] for s in stored])
    if any(s[4] is not None for s in stored):
        out.update(queries=[s[4] for s in stored], query_fields=[s[3] for s in stored])
    return out


def read_predictions(path, format: str = "auto") -> Predictions:
    """Read a predictions file (formats and the checks for a file read the wrong way: the module docstring).

    Args:
        path: the file (``.gz`` too). format: ``"auto"`` (default: ``.csv``/``.tsv``/``.parquet`` are read as tables
            with a header, their prediction column by the field rule and ids from an ``id`` column; else by
            extension, else by the first non-blank line; a ``.txt``
            or sniffed-text file that looks like JSONL is refused), ``"jsonl"`` or ``"text"`` (read every line as
            a prediction, even one that looks like JSON), ``"csv"``, ``"tsv"`` or ``"parquet"``.

    Returns:
        `Predictions`.

    Raises:
        DuckFormatError (ValueError): undecodable UTF-8 (one problem for a UTF-16/UTF-32/GB18030 file), a text
            file that looks like JSONL or whose lines are all JSON strings (``format="auto"``), malformed JSON (plus a hint when most lines are not
            JSON), a key given twice on a line, a line that is not an object, no or two prediction fields, a
            prediction field other than the first line's (``predict`` on some lines, ``prediction`` on others), a
            non-string prediction/id/label, ids on some lines only, a duplicate id — every problem named
            ``file:line`` (first 20 listed).
        EmptyFileError (a DuckFormatError): a file without a line.
        FileNotFoundError: missing file. IsADirectoryError: ``path`` is a directory. ValueError: unknown ``format``.
        A prediction, id or label with a lone surrogate (a JSON ``\\ud800`` escape without its pair) is a problem
        named ``file:line`` and id.

    Warns:
        JsonStringWarning: predictions written as JSON string literals (text lines ``print(json.dumps(text))``, or a
            JSONL/CSV/TSV/Parquet prediction ``json.dumps``-ed twice; without an escape when half of them are so),
            each scored as written: once for the file (`zheval.io.json_strings`).
    """
    if format not in PREDICTION_FORMATS:
        raise ValueError(f"unknown predictions format {format!r}; valid: {', '.join(PREDICTION_FORMATS)}")
    path = existing_file(path, "predictions")
    table = format if format in TABLE_FORMATS else row_format(path) if format == "auto" else None
    if table in TABLE_FORMATS:
        return _read_table(path, table)
    lines = _read_lines(path)
    if not lines:
        raise EmptyFileError(str(path))
    kind = sniff_format(path, lines) if format == "auto" else format
    name = str(path)
    if kind == "text" and format == "auto":
        refuse_jsonl_as_text(path, lines, name)
    if kind == "text":
        # lines written as JSON strings (print(json.dumps(text))): all refused (auto), escaped ones said
        bad, said = json_string_check(name, lines, PREDICTIONS_INSTEAD, refuse=format == "auto")
        if bad is not None:
            raise DuckFormatError([bad], "predictions file read as the wrong kind")
        warn_json_lines(said)
        return Predictions(texts=[t for _, t in lines], lines=[i for i, _ in lines], source=name, kind="text")
    return _read_jsonl(path, lines, name, format)


def _near_id(obj: dict, name: str, lineno: int, problems: list) -> bool:
    """Whether a row without ``id`` has it under another spelling (``" id"``, ``"ID"``): a problem then (its ids
    must never be read as missing, which pairs the predictions by line order)."""
    near = None if "id" in obj else near_id_problem(obj, predictions_arguments)
    if near is None:
        return False
    problems.append(Problem(name, lineno, None, near[1]))
    return True


def _other_field(key: str, first: tuple | None, name: str) -> str | None:
    """The problem of a line whose prediction field ``key`` is not the one of the first line that has one
    (``first``: ``(field, line)``), else ``None``: every line is read with the same field, as the records door
    reads every row (a file mixing ``predict`` and ``prediction`` is two files pasted together, or one written by
    two programs; which lines belong with which is never guessed)."""
    if first is None or key == first[0]:
        return None
    return (f"this line's prediction field is {key!r}, the first line's ({name}:{first[1]}) is {first[0]!r}: every "
            f"line is read with the same fields, here {first[0]!r}; write every line with one prediction field, or "
            f"name the field the lines use with {predictions_arguments(field_arguments(True, False))}")


def _read_jsonl(path, lines: list, name: str, format: str) -> Predictions:
    """The predictions of a JSONL file's ``(line number, text)`` lines (every problem named ``file:line``)."""
    problems: list[Problem] = []
    texts, ids, labels, linenos, stored = [], [], [], [], []
    with_id = without_id = 0
    seen = UniqueIds()
    nonblank = not_json = 0
    first_not_json = first_key = None
    encoded = JsonFields()  # predictions JSON-encoded twice ("\"\\u4eca\""): scored as written, one warning
    for lineno, text in nonblank_lines(lines):
        nonblank += 1
        try:
            obj, dups = parse_json_line(text)
        except json.JSONDecodeError as exc:
            problems.append(Problem(name, lineno, None, json_error_message(exc)))
            if not json_like(text):  # a line starting with { or [ is malformed JSON, never a text line
                not_json += 1
                first_not_json = first_not_json or lineno
            continue
        if dups:
            rid = obj.get("id") if isinstance(obj, dict) and isinstance(obj.get("id"), str) else None
            problems.append(Problem(name, lineno, rid, duplicate_key_problem(dups)))
            continue
        if not isinstance(obj, dict):
            problems.append(Problem(name, lineno, None, "expected a JSON object with an id and a prediction"))
            continue
        sheet = review_sheet_problem(name, obj, lineno) if first_key is None else None
        if sheet is not None:  # zheval sample's review sheet (its first object's keys): never scored
            raise DuckFormatError([sheet], "invalid predictions file")
        rid = obj.get("id")
        bad = [f"{k!r} {lone_surrogate(obj[k])}" for k in ("id",) + PREDICTION_KEYS
               + (("label",) if "predict" in obj else ()) if isinstance(obj.get(k), str) and lone_surrogate(obj[k])]
        if bad:
            problems.extend(Problem(name, lineno, rid if isinstance(rid, str) else None, b) for b in bad)
            continue
        if _near_id(obj, name, lineno, problems):
            continue
        if "id" in obj:
            rid, err = id_value(rid, "id")
            if err:
                problems.append(Problem(name, lineno, None, err))
                continue
            dup = seen.add(rid, name, lineno)
            if dup:
                problems.append(Problem(name, lineno, rid, dup))
                continue
            with_id += 1
        else:
            without_id += 1
        key, err = prediction_field(obj, named=predictions_arguments(field_arguments(True, False)))
        hint = wrapped_rows_hint(obj, name) if err else None  # {"data": [{...}, ...]}: one object holding the rows
        err = (f"{err}; {hint}" if hint else err) or _other_field(key, first_key, name)
        if err:
            problems.append(Problem(name, lineno, rid, err))
            continue
        first_key = first_key or (key, lineno)
        keys = [key]
        pred = obj[key]
        if not isinstance(pred, str):
            problems.append(Problem(name, lineno, rid, f"{keys[0]!r} must be a string, got {type(pred).__name__ if pred is not None else 'null'}"))
            continue
        label = llama_factory_label(obj, key)
        if label is not None and not isinstance(label, str):
            problems.append(Problem(name, lineno, rid, f"'label' must be a string, got {type(label).__name__}"))
            continue
        refs, query = stored_references(obj, key), stored_query(obj, key)
        if refs[2] or query[2]:
            problems.extend(Problem(name, lineno, rid, e) for e in (refs[2], query[2]) if e)
            continue
        stored.append(refs + query)
        texts.append(pred)
        encoded.add(lineno, [pred], [repr(key)])
        ids.append(rid)
        labels.append(label)
        linenos.append(lineno)
    if with_id and without_id:
        problems.append(Problem(name, 0, None, f"{with_id} line(s) have an 'id' and {without_id} do not; use ids on every line or on none"))
    if nonblank and not_json >= JSONL_LOOKING_FRACTION * nonblank:
        problems.insert(0, looks_like_text_problem(path, format, not_json, nonblank, first_not_json))
    if problems:
        doc = json_document_problem("\n".join(t for _, t in lines), name)
        if doc is not None:
            problems = [Problem(name, 0, None, doc)]
        raise DuckFormatError(problems, "invalid predictions file")
    encoded.warn(name, stacklevel=4)
    return Predictions(
        texts=texts,
        ids=ids if with_id else None,
        labels=labels if any(lbl is not None for lbl in labels) else None,
        lines=linenos,
        source=name,
        kind="jsonl",
        **_stored_fields(stored),
    )


def _first(xs, n=_SHOWN) -> str:
    xs = list(xs)
    return ", ".join(repr(x) for x in xs[:n]) + (f", … ({len(xs) - n} more)" if len(xs) > n else "")


def join_predictions(ds, predictions, normalize=True, label_check: str = "strict") -> list[str]:
    """Align predictions with the items of ``ds``.

    Args:
        ds: a 小黄鸭 ``Dataset`` (needs ``id``; ``responses`` for the LLaMA-Factory label check).
        predictions: a `Predictions`, a path (read with `read_predictions`), a list of strings (dataset
            order) or a ``{id: prediction}`` dict.
        normalize: normaliser for the label check (as `zheval.text.normalize.get_normalizer`).
        label_check: one of `LABEL_CHECKS`: ``"strict"`` (default) refuses predictions whose LLaMA-Factory
            labels (stored references, stored queries) disagree with their item on more than
            `LABEL_MISMATCH_MAX_FRACTION` of the items that have them; ``"warn"`` only counts them; ``"off"`` does
            not compare them.

    Returns:
        ``list[str]``, one prediction per dataset item, in dataset order. For a `Predictions` that stores labels,
        references or queries (`zheval.adapters.duck.stored`), by id or by order alike, its ``label_mismatches``,
        ``label_mismatch_lines`` and ``labelled``, ``reference_mismatches`` and ``references_checked``,
        ``query_mismatches`` and ``queries_checked`` are filled in (the caller warns:
        `zheval.adapters.duck.inputs.stored_field_warnings`).

    Raises:
        PredictionMismatchError (ValueError): by id — missing ids (in the dataset, not in the predictions) or extra
            ids (in the predictions, not in the dataset), with both counts and the first ids of each; in order —
            a different number of predictions than items, or a field of the file other than ``id`` that holds the
            items' ids in another order (``qid``: `zheval.adapters.duck.id_like.id_like_check`); with ``label_check="strict"``, more than
            `LABEL_MISMATCH_MAX_FRACTION` of the labels (or of the stored references) match none of their item's
            references, or of the stored queries are not their item's query (the first mismatches listed by
            ``file:line``). TypeError: a non-string prediction in a list/dict.
        ValueError: unknown ``label_check``.
    """
    from ...tokenizers import get_normalizer

    if label_check not in LABEL_CHECKS:
        raise ValueError(f"unknown label_check {label_check!r}; valid: {', '.join(LABEL_CHECKS)}")

    if isinstance(predictions, (str, os.PathLike)):
        predictions = read_predictions(predictions)
    if isinstance(predictions, dict):
        bad = [k for k, v in predictions.items() if not isinstance(v, str)]
        if bad:
            raise TypeError(f"predictions must be strings; not for id(s) {_first(bad)}")
        predictions = Predictions(texts=list(predictions.values()), ids=list(predictions.keys()))
    elif not isinstance(predictions, (Predictions, str, bytes)) and hasattr(predictions, "__iter__"):
        predictions = list(predictions)  # a list, a tuple, a datasets Column, …
        for i, p in enumerate(predictions):
            if not isinstance(p, str):
                raise TypeError(f"predictions[{i}] must be str, got {type(p).__name__ if p is not None else 'None'}")
        predictions = Predictions(texts=list(predictions))
    elif not isinstance(predictions, Predictions):
        raise TypeError(f"predictions must be a path, a Predictions, a list or a dict, got {type(predictions).__name__}")
    ids = list(ds["id"])
    src = predictions.source
    if predictions.ids is not None:
        by_id = dict(zip(predictions.ids, predictions.texts))
        idset = set(ids)
        missing = [i for i in ids if i not in by_id]
        extra = [i for i in predictions.ids if i not in idset]
        if missing or extra:
            msg = [f"predictions ({src}) do not match the dataset: {len(ids)} items, {len(predictions)} predictions; "
                   f"{len(missing)} missing, {len(extra)} extra", *id_mismatch_lines(missing, extra)]
            raise PredictionMismatchError("\n".join(msg))
        out = [by_id[i] for i in ids]
        pos = {k: j for j, k in enumerate(predictions.ids)}
        order = [pos[i] for i in ids]
    else:
        if len(predictions) != len(ids):
            raise PredictionMismatchError(count_mismatch_message(src, len(predictions), len(ids), predictions.texts,
                                                                 predictions.lines, predictions.kind != "text"))
        hidden = id_like_check(predictions, ids)  # ids under another field ('qid'): never paired by line order
        if hidden:
            raise PredictionMismatchError(hidden)
        out = list(predictions.texts)
        order = list(range(len(ids)))
        predictions.paired_by_order = True
        blank = blank_last_line_note(predictions, ids)
        if blank and blank not in predictions.notes:
            predictions.notes.append(blank)
    if label_check != "off":
        _check_stored(ds, predictions, order, get_normalizer(normalize), label_check == "strict")
    return out


def _check_stored(ds, predictions: Predictions, order: list, norm, strict: bool) -> None:
    """The stored labels, references and queries of ``predictions`` compared with the items they were joined to
    (``order[i]``: the prediction of item ``i``; `zheval.adapters.duck.stored`): the counts set on
    ``predictions``; with ``strict``, more than `LABEL_MISMATCH_MAX_FRACTION` of one kind disagreeing raises
    `PredictionMismatchError`."""
    ids, src, lines = list(ds["id"]), predictions.source, predictions.lines
    by_id = predictions.ids is not None
    refs = list(ds["responses"]) if predictions.labels is not None or predictions.references is not None else None
    if predictions.labels is not None:
        labels = [None if lbl is None else [lbl] for lbl in predictions.labels]
        n, bad = reference_mismatches(labels, ["label"] * len(labels), order, refs, ids, lines, norm)
        predictions.label_mismatches = [d[1] for d in bad]
        predictions.label_mismatch_lines = [d[0] for d in bad]
        predictions.labelled = n
        if strict and too_many(bad, n):
            raise PredictionMismatchError(label_mismatch_message(src, bad, n))
    if predictions.references is not None:
        n, bad = reference_mismatches(predictions.references, predictions.reference_fields, order, refs, ids, lines,
                                      norm)
        predictions.references_checked = n
        predictions.reference_mismatches = [(d[0], d[1], d[4]) for d in bad]
        if strict and too_many(bad, n):
            raise PredictionMismatchError(reference_mismatch_message(src, bad, n, by_id))
    if predictions.queries is not None:
        queries = list(ds["query"]) if "query" in ds.column_names else [None] * len(ids)
        fields = predictions.query_fields or [("query",)] * len(predictions.queries)
        n, bad = query_mismatches(predictions.queries, fields, order, queries, ids, lines, norm)
        predictions.queries_checked = n
        predictions.queries_uncompared = [j for i, j in enumerate(order)
                                          if predictions.queries[j] is not None and not has_query(queries[i])]
        predictions.query_mismatches = [(line, rid, f) for line, rid, _, _, f in bad]
        if strict and too_many(bad, n):
            raise PredictionMismatchError(query_mismatch_message(src, bad, n, by_id))
