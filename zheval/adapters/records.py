"""Predictions files that carry their own references — any JSONL, CSV/TSV or Parquet file with one item per row —
scored with the 小黄鸭 report (:func:`read_records`, :func:`score_records`).

The door for a user without a 小黄鸭 file: LLaMA-Factory's ``generated_predictions.jsonl``
(``{"prompt", "predict", "label"}`` per line), an evaluation dump with ``output``/``answers``/``category``, a
spreadsheet exported as CSV, a Parquet file written by pandas or datasets. The fields are named by the caller
(CLI ``--pred-field``, ``--ref-field``, ``--id-field``, ``--group-field``); without names, the prediction is the
first of :data:`DEFAULT_PRED_FIELDS` and the reference the first of :data:`DEFAULT_REF_FIELDS` that the **first
row** has (LLaMA-Factory's ``predict``/``label`` first), and the choice is then required of every row.

Every row is checked before anything is scored, with the strictness of the 小黄鸭 loader
(:mod:`zheval.adapters.duck.load`): every problem is listed (the first
:data:`~zheval.adapters.duck.load.MAX_REPORTED`, with the total), each named ``file:line`` (JSONL and CSV/TSV: the
physical line where the row starts; Parquet: the 1-based row number) and the id when there is one, and no row is
ever dropped or repaired:

* the prediction field: present, a string (an empty string is a valid, empty prediction; ``null``, a number or a
  list is an error);
* each reference field: present, a non-empty string or a non-empty list of non-empty strings (several reference
  fields are concatenated in the order given: ``--ref-field ref1 --ref-field ref2``);
* the id field (optional; without it the rows are named by their line): a non-empty string or an integer (an
  integer becomes its decimal string, so ``7`` and ``"7"`` are the same id and a duplicate); ids are unique;
* each group field: present; a string, an integer (its decimal string) or ``null`` (its own group, ``null``, as in
  the 小黄鸭 report); in CSV/TSV an empty cell is ``null``;
* JSONL as in the 小黄鸭 loader: UTF-8 (a BOM and CRLF accepted; UTF-16/32 and GB18030 refused with one message),
  one JSON object per line, no key given twice, no lone surrogate; a file that is one JSON document (an array) is
  one problem saying so. CSV/TSV: UTF-8, a header row with distinct non-empty names, every row as many cells as
  the header; blank lines are skipped, except in a one-column file, where a blank line could be an empty value
  and is refused (write ``""``, as pandas does).

Fields not named are ignored (``prompt`` and the like). The report is the 小黄鸭 one
(:func:`zheval.adapters.duck.evaluate.evaluate_predictions`): the rows become a ``datasets.Dataset`` with ``id``,
``responses`` and the group columns (:meth:`Records.dataset`), so the numbers equal ``zheval.compute_bleu`` /
``compute_rouge`` on the same predictions and references.
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from .duck.load import (DuckFormatError, EmptyDataError, Problem, duplicate_key_problem, encoding_problem,
                        json_document_problem, lone_surrogate, existing_file, json_line_or_problem, list_feature)

__all__ = [
    "Records",
    "RecordsFormatError",
    "RECORD_FORMATS",
    "DEFAULT_PRED_FIELDS",
    "DEFAULT_REF_FIELDS",
    "RESERVED_COLUMNS",
    "records_format",
    "read_records",
    "score_records",
    "predictions_from_records",
]

RECORD_FORMATS = ("auto", "jsonl", "csv", "tsv", "parquet")
"""Values of ``format``: ``auto`` picks by extension (``.jsonl``/``.json``/``.ndjson`` → JSONL, ``.csv``, ``.tsv``,
``.parquet``/``.pq``), else JSONL."""

DEFAULT_PRED_FIELDS = ("predict", "prediction")
"""Prediction field names tried, in order, when none is named (``predict`` is LLaMA-Factory's)."""

DEFAULT_REF_FIELDS = ("label", "references", "reference")
"""Reference field names tried, in order, when none is named (``label`` is LLaMA-Factory's)."""

RESERVED_COLUMNS = ("id", "query", "responses", "prediction")
"""Column names of the report's dataset, which a group field cannot be named."""


class RecordsFormatError(DuckFormatError):
    """An invalid records file: every :class:`~zheval.adapters.duck.load.Problem` found (``problems``), the first
    :data:`~zheval.adapters.duck.load.MAX_REPORTED` listed as ``file:line: id '…': what is wrong``."""

    def __init__(self, problems: Sequence[Problem], what: str = "invalid predictions file"):
        super().__init__(problems, what)


@dataclass
class Records:
    """Rows of a records file, checked: one item per row.

    Attributes:
        ids: one non-empty string per row (the id field's value, or ``"line N"`` / ``"row N"`` without one).
        predictions: one string per row. references: per row a non-empty list of non-empty strings.
        groups: ``{group field: per-row value (str or None)}``, in the order the fields were named.
        lines: per row its 1-based line (JSONL, CSV/TSV) or row number (Parquet).
        source: the path as given. kind: ``jsonl``, ``csv``, ``tsv`` or ``parquet``.
        fields: the field names used: ``{"pred": str, "ref": [str, ...], "id": str | None, "groups": [str, ...]}``.
    """

    ids: list
    predictions: list
    references: list
    groups: dict = field(default_factory=dict)
    lines: list = field(default_factory=list)
    source: str = "<memory>"
    kind: str = "jsonl"
    fields: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.predictions)

    def dataset(self):
        """A ``datasets.Dataset`` with ``id`` (string), ``responses`` (``List(string)``) and one nullable string
        column per group field, in row order (what :func:`~zheval.adapters.duck.evaluate.evaluate_predictions`
        scores)."""
        from datasets import Dataset, Features, Value

        feats = {"id": Value("string"), "responses": list_feature(Value("string"))}
        feats.update({g: Value("string") for g in self.groups})
        cols = {"id": list(self.ids), "responses": [list(r) for r in self.references]}
        cols.update({g: list(v) for g, v in self.groups.items()})
        return Dataset.from_dict(cols, features=Features(feats))

    def locations(self) -> dict:
        """``{id: (source, line)}``, so later problems (a reference without tokens) name ``file:line``."""
        return {i: (self.source, ln) for i, ln in zip(self.ids, self.lines)}


def records_format(path, format: str = "auto") -> str:
    """The format a records file is read as: ``format`` itself, or for ``auto`` by the extension (JSONL for any
    other extension).

    Raises:
        ValueError: unknown ``format`` (lists :data:`RECORD_FORMATS`).
    """
    if format not in RECORD_FORMATS:
        raise ValueError(f"unknown records format {format!r}; valid: {', '.join(RECORD_FORMATS)}")
    if format != "auto":
        return format
    suffix = Path(path).suffix.lower()
    return {".csv": "csv", ".tsv": "tsv", ".parquet": "parquet", ".pq": "parquet"}.get(suffix, "jsonl")


def _type_name(x) -> str:
    if x is None:
        return "null"
    return {str: "string", int: "integer", float: "number", bool: "boolean", list: "array", dict: "object",
            tuple: "array"}.get(type(x), type(x).__name__)


# ---------------------------------------------------------------------------------------------------------------
# reading rows: (line, dict) pairs, or problems


def _decode(path: Path, name: str, problems: list) -> Optional[str]:
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    enc = encoding_problem(data, name)
    if enc is not None:
        problems.append(Problem(name, 0, None, enc))
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        problems.append(Problem(name, line, None, f"not valid UTF-8 (byte {exc.start}: "
                                                   f"{data[exc.start:exc.start + 4]!r})"))
        return None


def _jsonl_rows(path: Path, name: str, problems: list) -> list:
    text = _decode(path, name, problems)
    if text is None:
        return []
    rows, first = [], len(problems)
    for lineno, line in enumerate(text.split("\n"), start=1):
        parsed = json_line_or_problem(line, name, lineno, problems)
        if parsed is None:
            continue
        obj, dups = parsed
        if dups:
            problems.append(Problem(name, lineno, None, duplicate_key_problem(dups)))
            continue
        if not isinstance(obj, dict):
            problems.append(Problem(name, lineno, None, f"expected a JSON object, got {_type_name(obj)}"))
            continue
        rows.append((lineno, obj))
    if len(problems) > first:
        doc = json_document_problem(text, name)
        if doc is not None:
            del problems[first:]
            problems.append(Problem(name, 0, None, doc))
            return []
    return rows


def _csv_rows(path: Path, name: str, problems: list, delimiter: str) -> list:
    text = _decode(path, name, problems)
    if text is None:
        return []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows = []
    header = None
    start = 1
    try:
        for cells in reader:
            line, start = start, reader.line_num + 1
            if header is None:
                if not cells:
                    continue
                header = cells
                empty = [i + 1 for i, h in enumerate(header) if not h.strip()]
                dup = sorted({h for h in header if header.count(h) > 1})
                if empty:
                    problems.append(Problem(name, line, None, f"the header has an empty column name (column(s) "
                                                              f"{empty})"))
                if dup:
                    problems.append(Problem(name, line, None, f"the header names column(s) {dup} more than once"))
                if empty or dup:
                    return []
                continue
            if not cells:
                if len(header) == 1:  # an empty value, or no row at all? (pandas writes "" for an empty value)
                    problems.append(Problem(name, line, None, "a blank line in a one-column file: an empty value "
                                                              "or no row? write an empty value as \"\""))
                continue  # a blank line between rows
            if len(cells) != len(header):
                problems.append(Problem(name, line, None, f"{len(cells)} cell(s), but the header has "
                                                          f"{len(header)} columns"))
                continue
            rows.append((line, dict(zip(header, cells))))
    except csv.Error as exc:
        problems.append(Problem(name, reader.line_num, None, f"malformed {'TSV' if delimiter == chr(9) else 'CSV'}:"
                                                             f" {exc}"))
    if header is None and not problems:
        problems.append(Problem(name, 0, None, f"no header row in {name} (the file is empty or has only blank lines)"))
    return rows


def _parquet_rows(path: Path, name: str, problems: list) -> list:
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow raises ArrowInvalid / OSError subclasses for a file that is not Parquet
        problems.append(Problem(name, 0, None, f"cannot be read as Parquet ({type(exc).__name__}: {exc})"))
        return []
    return [(i, row) for i, row in enumerate(table.to_pylist(), start=1)]


# ---------------------------------------------------------------------------------------------------------------
# checking one row


def _text_value(v, what: str, allow_empty: bool) -> tuple[Optional[str], Optional[str]]:
    """``(value, None)`` or ``(None, problem)`` for a field that must hold one string."""
    if not isinstance(v, str):
        hint = " (a list is accepted for a reference field only)" if isinstance(v, (list, tuple)) else ""
        return None, f"{what} must be a string, got {_type_name(v)}{hint}"
    bad = lone_surrogate(v)
    if bad:
        return None, f"{what} {bad}"
    if not allow_empty and not v.strip():
        return None, f"{what} is empty or whitespace only"
    return v, None


def _references(row: dict, ref_fields: Sequence[str], errs: list) -> list:
    refs = []
    for f in ref_fields:
        if f not in row:
            continue  # reported as a missing field
        v = row[f]
        if isinstance(v, (list, tuple)):
            if not v:
                errs.append(f"{f!r} is an empty list; at least one reference is needed")
            for j, s in enumerate(v):
                t, err = _text_value(s, f"{f}[{j}]", allow_empty=False)
                if err:
                    errs.append(err)
                else:
                    refs.append(t)
        elif isinstance(v, str):
            t, err = _text_value(v, repr(f), allow_empty=False)
            if err:
                errs.append(err)
            else:
                refs.append(t)
        else:
            errs.append(f"{f!r} must be a string or a list of strings (the reference(s)), got {_type_name(v)}")
    return refs


def _id_value(v, f: str) -> tuple[Optional[str], Optional[str]]:
    if isinstance(v, int) and not isinstance(v, bool):
        return str(v), None
    if isinstance(v, str) and v.strip():
        bad = lone_surrogate(v)
        return (None, f"{f!r} {bad}") if bad else (v, None)
    return None, f"the id field {f!r} must be a non-empty string or an integer, got {_type_name(v)} {v!r}"


def _group_value(v, f: str, kind: str) -> tuple[Optional[str], Optional[str]]:
    if v is None or (kind in ("csv", "tsv") and v == ""):
        return None, None
    if isinstance(v, int) and not isinstance(v, bool):
        return str(v), None
    if isinstance(v, str):
        bad = lone_surrogate(v)
        return (None, f"{f!r} {bad}") if bad else (v, None)
    return None, f"the group field {f!r} must be a string, an integer or null, got {_type_name(v)}"


def _default_field(first: dict, candidates: Sequence[str], what: str, option: str, name: str, line: int) -> str:
    for c in candidates:
        if c in first:
            return c
    raise RecordsFormatError([Problem(
        name, line, None,
        f"no {what} field named: the first row has none of {list(candidates)} (its fields: {sorted(first)}); "
        f"name it with {option} FIELD")])


def _as_list(value) -> list:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return list(value)


def _check_field_names(pred: str, refs: list, id_field, groups: list) -> None:
    for what, names in (("ref_field", refs), ("group_field", groups)):
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"{what} names {twice} more than once; give each field once")
    for n in [pred, *refs, *groups] + ([id_field] if id_field else []):
        if not isinstance(n, str) or not n:
            raise TypeError(f"field names must be non-empty strings, got {n!r}")
    clash = [g for g in groups if g in RESERVED_COLUMNS]
    if clash:
        raise ValueError(f"group field(s) {clash} cannot be used: {list(RESERVED_COLUMNS)} are the report's own "
                         "columns; rename the field in the file")
    roles = {"pred_field": [pred], "ref_field": refs, "id_field": [id_field] if id_field else [],
             "group_field": groups}
    seen: dict = {}
    for role, names in roles.items():
        for n in names:
            if n in seen and seen[n] != role:
                raise ValueError(f"field {n!r} is named as both {seen[n]} and {role}; each field has one role")
            seen[n] = role


def read_records(path, *, pred_field: Optional[str] = None, ref_field=None, id_field: Optional[str] = None,
                 group_fields: Sequence[str] = (), format: str = "auto", with_references: bool = True) -> Records:
    """Read and check a predictions file that carries its references (the module docstring has every rule).

    Args:
        path: a JSONL, CSV, TSV or Parquet file, one item per row.
        pred_field: the prediction's field (default: the first of :data:`DEFAULT_PRED_FIELDS` the first row has).
        ref_field: the reference field, or a list of them (concatenated in order); each holds a string or a list
            of strings (default: the first of :data:`DEFAULT_REF_FIELDS` the first row has).
        id_field: the item id's field (default none: rows are named ``line N`` / ``row N``).
        group_fields: fields to group the report by (each value a string, an integer or null).
        format: one of :data:`RECORD_FORMATS`.
        with_references: ``False`` reads predictions only (``ref_field`` must then be ``None``; every
            ``references`` entry is ``[]``): a predictions file with other field names joined to a 小黄鸭 file
            (:func:`predictions_from_records`).

    Returns:
        :class:`Records`, one per row, in file order.

    Raises:
        RecordsFormatError (a ValueError): every problem of every row (missing field, wrong type, a list where a
            string is expected, an empty reference, a duplicate id, malformed JSON/CSV, a wrong encoding), each named
            ``file:line`` and id; a file without rows (:class:`~zheval.adapters.duck.load.EmptyDataError`).
        FileNotFoundError, IsADirectoryError: ``path``. ValueError/TypeError: an unknown ``format``; field names
            given twice, a field named in two roles, a group field named like a report column
            (:data:`RESERVED_COLUMNS`).
    """
    kind = records_format(path, format)
    path = existing_file(path, "predictions")
    name = str(path)
    problems: list = []
    if kind == "jsonl":
        raw = _jsonl_rows(path, name, problems)
    elif kind == "parquet":
        raw = _parquet_rows(path, name, problems)
    else:
        raw = _csv_rows(path, name, problems, "," if kind == "csv" else "\t")
    if problems and not raw:
        raise RecordsFormatError(problems)
    if not raw:
        raise EmptyDataError(name)
    first_line, first = raw[0]
    pred = pred_field or _default_field(first, DEFAULT_PRED_FIELDS, "prediction", "--pred-field", name, first_line)
    if not with_references:
        if ref_field is not None:
            raise ValueError("ref_field names the references of a file that carries them; with_references=False "
                             "reads predictions only")
        refs = []
    else:
        refs = _as_list(ref_field) or [_default_field(first, DEFAULT_REF_FIELDS, "reference", "--ref-field", name,
                                                      first_line)]
    groups = _as_list(group_fields)
    _check_field_names(pred, refs, id_field, groups)
    needed = [pred, *refs] + ([id_field] if id_field else []) + groups
    where = "line" if kind != "parquet" else "row"
    out = Records(ids=[], predictions=[], references=[], groups={g: [] for g in groups}, source=name, kind=kind,
                  fields={"pred": pred, "ref": refs, "id": id_field, "groups": groups})
    seen: dict = {}
    for line, row in raw:
        errs: list = []
        rid = None
        if id_field and id_field in row:
            rid, err = _id_value(row[id_field], id_field)
            if err:
                errs.append(err)
            elif rid in seen:
                errs.append(f"duplicate id (first at {where} {seen[rid]})")
            else:
                seen[rid] = line
        missing = [f for f in needed if f not in row]
        if missing:
            errs.append(f"missing field(s) {missing} (this row has {sorted(row)})")
        text = None
        if pred in row:
            text, err = _text_value(row[pred], f"the prediction {pred!r}", allow_empty=True)
            if err:
                errs.append(err + (" (use \"\" for an empty prediction)" if row[pred] is None else ""))
        references = _references(row, refs, errs)
        values = {}
        for g in groups:
            if g in row:
                values[g], err = _group_value(row[g], g, kind)
                if err:
                    errs.append(err)
        if errs:
            problems.extend(Problem(name, line, rid, e) for e in errs)
            continue
        out.ids.append(rid if id_field else f"{where} {line}")
        out.predictions.append(text)
        out.references.append(references)
        for g in groups:
            out.groups[g].append(values[g])
        out.lines.append(line)
    if problems:
        raise RecordsFormatError(sorted(problems, key=lambda p: p.line))  # file order (stable within a line)
    return out


def score_records(records, *, pred_field: Optional[str] = None, ref_field=None, id_field: Optional[str] = None,
                  group_fields: Sequence[str] = (), format: str = "auto", **options):
    """Score a predictions file that carries its references with the 小黄鸭 report.

    Args:
        records: a path (read with :func:`read_records` and the field arguments) or a :class:`Records`.
        options: the options of :func:`zheval.adapters.duck.evaluate.evaluate_predictions` (``tokenizer``,
            ``metrics``, ``rouge_types``, ``bootstrap``, ``seed``, ``keep_items``, ``bleu_options``, tokenizer
            options, ...); ``by`` defaults to the group fields (overall only without any).

    Returns:
        A :class:`~zheval.adapters.duck.report.Report` (``kind="score"``; scores on 0–1), whose overall numbers
        equal :func:`zheval.compute_bleu` / :func:`zheval.compute_rouge` on the same predictions and references.

    Raises:
        what :func:`read_records` and :func:`~zheval.adapters.duck.evaluate.evaluate_predictions` raise (a reference
        without tokens is named ``file:line``).
    """
    from .duck.evaluate import evaluate_predictions
    from .duck.predictions import Predictions

    if isinstance(records, (str, os.PathLike)):
        records = read_records(records, pred_field=pred_field, ref_field=ref_field, id_field=id_field,
                               group_fields=group_fields, format=format)
    elif not isinstance(records, Records):
        raise TypeError(f"score_records expects a path or Records, got {type(records).__name__}")
    options.setdefault("by", tuple(records.groups))
    options.setdefault("locations", records.locations())
    preds = Predictions(texts=list(records.predictions), lines=list(records.lines), source=records.source,
                        kind=records.kind)
    report = evaluate_predictions(records.dataset(), preds, label_check="off", **options)
    f = records.fields
    report.title = (f"zheval score: {len(records)} items, predictions and references {records.source} "
                    f"(prediction {f.get('pred')!r}, references {f.get('ref')})")
    return report


def predictions_from_records(records: Records):
    """The predictions of :class:`Records` read with ``with_references=False``, as a
    :class:`~zheval.adapters.duck.predictions.Predictions` for a 小黄鸭 file: joined **by id** when the records have
    an id field, else in dataset order (then the counts must match), each with its ``file:line``."""
    from .duck.predictions import Predictions

    return Predictions(texts=list(records.predictions), ids=list(records.ids) if records.fields.get("id") else None,
                       lines=list(records.lines), source=records.source, kind=records.kind)
