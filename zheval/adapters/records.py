"""Predictions files that carry their own references — any JSONL, CSV/TSV or Parquet file with one item per row —
scored with the 小黄鸭 report ([`read_records`][zheval.adapters.records.read_records], [`score_records`][zheval.adapters.records.score_records]).

The door for a user without a 小黄鸭 file: LLaMA-Factory's ``generated_predictions.jsonl``
(``{"prompt", "predict", "label"}`` per line), an evaluation dump with ``output``/``answers``/``category``, a
spreadsheet exported as CSV, a Parquet file written by pandas or datasets. The fields are named by the caller
(CLI ``--pred-field``, ``--ref-field``, ``--id-field``, ``--group-field``); without names, the prediction and the
reference are the one candidate of each role the **first row** has ([`zheval.io.fields.pair_fields`][]:
``predict``↔``label``, ``prediction``↔``references``, ``prediction``↔``reference``...), a file whose fields pair up
in more than one way is refused naming the fields, and the choice is then required of every row; the id field is ``id`` when the file
has one (`zheval.io.fields.id_field_of`).

The file is read by [`zheval.io.rows.read_rows`][] (the reader of every door: gzip, one encoding and line rule,
TSV without quoting, CSV without a cell-size limit). Every row is checked before anything is scored: every problem
is listed (the first `MAX_REPORTED`, with the total), each named ``file:line`` (JSONL and
CSV/TSV: the physical line where the row starts; Parquet: the 1-based row number) and the id when there is one, and
no row is ever dropped or repaired:

* the prediction field: present, a string (an empty string is a valid, empty prediction; ``null``, a number or a
  list is an error);
* a reference that is a list written as text (`zheval.io.list_text`: ``['a', 'b']``, the cell pandas' ``to_csv``
  writes for a list, or a JSON list in a JSONL string) is scored as written, one text; the rows are counted and one
  `zheval.adapters.list_texts.ListTextWarning` per file says so (the first ``file:line`` and field, the remedy);
  a prediction is never checked; so is a reference cell (a string of a reference field, not a list's entry) that
  holds a line break (`zheval.io.line_break`: several references one per line in a cell are ONE reference), said in
  one `zheval.adapters.list_texts.LineBreakWarning` per file, never split;
* a file with the columns of ``zheval sample``'s review sheet (`zheval.adapters.review.sheet_columns.SHEET_COLUMNS`)
  is refused at its header: it is rated and read by ``zheval agree``, never scored;
* each reference field: present, a non-empty string or a non-empty list of non-empty strings (several reference
  fields are concatenated in the order given: ``--ref-field ref1 --ref-field ref2``); with several reference fields,
  a row may lack some of its references: an empty CSV/TSV cell or a JSONL/Parquet ``null`` of one of them is no
  reference there (as pandas writes a missing value), counted in the report's note ``N row(s) have an empty 'F'
  cell``, as long as one reference remains (none left: an error). The only reference field ``null``, a row
  without a field (a missing key is not a null), a JSONL/Parquet ``""`` (an empty reference: those formats say
  "none" with null) and a ``null`` inside a list stay errors;
* the id field (``id`` when present, else optional; without one the rows are named by their line): a non-empty
  string or an integer (an integer becomes its decimal string, so ``7`` and ``"7"`` are the same id and a
  duplicate); ids are unique;
* each group field: present; a string, an integer (its decimal string) or ``null`` (its own group, ``null``, as in
  the 小黄鸭 report); in CSV/TSV an empty cell is ``null``;
* JSONL as in the 小黄鸭 loader: UTF-8 (a BOM and CRLF accepted; UTF-16/32 and GB18030 refused with one message),
  one JSON object per line, no key given twice, no lone surrogate; a file that is one JSON document (an array) is
  one problem saying so. CSV/TSV (`zheval.io.table`): UTF-8, a header row with distinct non-empty names,
  every row as many cells as the header; blank lines are skipped, except in a one-column file, where a blank line
  could be an empty value and is refused (write ``""``, as pandas does).

Fields not named are ignored (``prompt`` and the like). The report is the 小黄鸭 one
([`zheval.adapters.duck.evaluate.evaluate_predictions`][]): the rows become a ``datasets.Dataset`` with ``id``,
``responses`` and the group columns (`Records.dataset`), so the numbers equal ``zheval.compute_bleu`` /
``compute_rouge`` on the same predictions and references.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from ..compute.bertscore import BertScoreOptions
from ..compute.options import BleuOptions, ChrfOptions, RougeOptions

from ..io import (PREDICTION_FIELDS, REFERENCE_FIELDS, ROW_FORMATS, EmptyFileError, FileFormatError, Problem,
                  UniqueIds, existing_file, group_spaces_problem, id_field_of, id_value, lone_surrogate, near_id_problem,
                  pair_fields, prediction_field,
                  read_rows, row_format, spaced_names, text_line_problem, type_name, field_arguments)
from ..io.jsonl import wrapped_rows_problem
from .duck.load import list_feature
from .duck.mismatch import count_group_form, group_type_notes
from .list_texts import LineBreaks, ListTexts
from .records_checks import RESERVED_COLUMNS, check_field_names, review_sheet_problem, string_references

__all__ = [
    "Records",
    "RecordsFormatError",
    "PlainTextRecordsError",
    "plain_text_problem",
    "RECORD_FORMATS",
    "DEFAULT_PRED_FIELDS",
    "DEFAULT_REF_FIELDS",
    "RESERVED_COLUMNS",
    "records_format",
    "read_records",
    "score_records",
    "predictions_from_records",
    "records_notes",
    "empty_cell_notes",
    "multiline_notes",
]

RECORD_FORMATS = ROW_FORMATS
"""Values of ``format`` (`zheval.io.rows.ROW_FORMATS`): ``auto`` picks by extension, ``.gz`` removed
(``.csv``, ``.tsv``, ``.parquet``/``.pq``; anything else, ``.jsonl``/``.json``/``.ndjson`` included, is JSONL)."""

DEFAULT_PRED_FIELDS = PREDICTION_FIELDS
"""Prediction field names known when none is named (`zheval.io.fields.PREDICTION_FIELDS`); paired with the
one reference field of `DEFAULT_REF_FIELDS` the file has."""

DEFAULT_REF_FIELDS = REFERENCE_FIELDS
"""Reference field names known when none is named (`zheval.io.fields.REFERENCE_FIELDS`)."""

class RecordsFormatError(FileFormatError):
    """An invalid records file: every [`Problem`][zheval.io.problems.Problem] found (``problems``), the first
    `MAX_REPORTED` listed as ``file:line: id '…': what is wrong``."""

    def __init__(self, problems: Sequence[Problem], what: str = "invalid predictions file"):
        super().__init__(problems, what)


class PlainTextRecordsError(RecordsFormatError):
    """A records file that is plain text (one prediction per line, no JSON): one line, ``file:line: …``, saying a
    text file carries no references (`plain_text_problem`), instead of a malformed-JSON problem per line."""

    def __init__(self, problem: Problem):
        self.problems = [problem]
        ValueError.__init__(self, str(problem))


def plain_text_problem(name: str, kind: str, rows: list, problems: list) -> Optional[Problem]:
    """The one problem of a JSONL records file that looks like a text file: at least half its non-blank lines are
    not JSON (``problems`` with `text_line_problem`; ``rows``: the ``(line, object)`` pairs) and, if a line is, so
    are its first line and two or more lines (a file starting with an object, or one stray line beside objects —
    ``\x1a`` at the end —, is JSONL with a bad line: that line's ``file:line`` problem). A text file has no
    references: scored against a 小黄鸭 file (``--data``) or rewritten with a reference field. ``None`` otherwise."""
    bad = [p for p in problems if text_line_problem(p)]
    if kind != "jsonl" or not bad or len(bad) < len(rows):
        return None
    if rows and (rows[0][0] < bad[0].line or len(bad) < 2):  # JSONL with a bad line, not a text file
        return None
    return Problem(name, bad[0].line, None, (
        f"this looks like a text file, one prediction per line ({len(bad)} of {len(bad) + len(rows)} non-blank lines "
        f"are not JSON): a text file carries no references, so it cannot be scored alone; score it against a "
        "小黄鸭 file with --data FILE (one prediction per line, in the data's order), or write a JSONL/CSV/TSV/Parquet "
        f"file with a prediction and a reference field ({field_arguments(True, True)})"))


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
        reference_names: per row, the user's name of each reference (``label``; ``references[1]`` for a list).
        empty_reference_cells: with several reference fields: ``{field: rows whose cell is empty (CSV/TSV) or
            null (JSONL, Parquet)}`` (those rows have fewer references; the report notes the counts).
        multiline_rows: CSV: the line of each row with a quoted cell over several lines (the report notes their
            count and the first: `multiline_notes`).
        list_texts: the references that are lists written as text, counted (`ListTexts`; each scored as one text).
        line_breaks: the reference cells (a string of a reference field) that hold a line break, counted
            (`LineBreaks`; each scored as one reference).
        group_forms: ``{(group field, value, "integer" or "string"): [rows, first line]}`` (`count_group_form`).
    """

    ids: list
    predictions: list
    references: list
    groups: dict = field(default_factory=dict)
    lines: list = field(default_factory=list)
    source: str = "<memory>"
    kind: str = "jsonl"
    fields: dict = field(default_factory=dict)
    empty_reference_cells: dict = field(default_factory=dict)
    reference_names: list = field(default_factory=list)
    multiline_rows: list = field(default_factory=list)
    list_texts: ListTexts = field(default_factory=ListTexts)
    line_breaks: LineBreaks = field(default_factory=LineBreaks)
    group_forms: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.predictions)

    def dataset(self):
        """A ``datasets.Dataset`` with ``id`` (string), ``responses`` (``List(string)``) and one nullable string
        column per group field, in row order (what [`evaluate_predictions`][zheval.adapters.duck.evaluate.evaluate_predictions]
        scores)."""
        from datasets import Dataset, Features, Value

        feats = {"id": Value("string"), "responses": list_feature(Value("string"))}
        feats.update({g: Value("string") for g in self.groups})
        cols = {"id": list(self.ids), "responses": [list(r) for r in self.references]}
        cols.update({g: list(v) for g, v in self.groups.items()})
        return Dataset.from_dict(cols, features=Features(feats))

    def as_predictions(self):
        """The rows' predictions as a `zheval.adapters.duck.predictions.Predictions` for `dataset`: joined by the
        rows' ids (each prediction is its own row's, never paired by position with another file), each with its
        ``file:line``."""
        from .duck.predictions import Predictions

        return Predictions(texts=list(self.predictions), ids=list(self.ids), lines=list(self.lines),
                           source=self.source, kind=self.kind)

    def locations(self) -> dict:
        """``{id: (source, line, reference names)}``, so later problems (a reference without tokens) name
        ``file:line`` and the user's field (``label``, ``references[1]``)."""
        names = self.reference_names or [[] for _ in self.ids]
        return {i: (self.source, ln, nm) for i, ln, nm in zip(self.ids, self.lines, names)}


def records_format(path, format: str = "auto") -> str:
    """The format a records file is read as: ``format`` itself, or for ``auto`` by the extension, ``.gz`` removed
    (JSONL for any other extension): `zheval.io.rows.row_format`.

    Raises:
        ValueError: unknown ``format`` (lists `RECORD_FORMATS`).
    """
    return row_format(path, format)


# ---------------------------------------------------------------------------------------------------------------
# checking one row


def _text_value(v, what: str, allow_empty: bool) -> tuple[Optional[str], Optional[str]]:
    """``(value, None)`` or ``(None, problem)`` for a field that must hold one string."""
    if not isinstance(v, str):
        hint = " (a list is accepted for a reference field only)" if isinstance(v, (list, tuple)) else ""
        return None, f"{what} must be a string, got {type_name(v)}{hint}"
    bad = lone_surrogate(v)
    if bad:
        return None, f"{what} {bad}"
    if not allow_empty and not v.strip():
        return None, f"{what} is empty or whitespace only"
    return v, None


def _references(row: dict, ref_fields: Sequence[str], errs: list, kind: str, out: "Records") -> tuple:
    refs, names = [], []
    absent = []
    for f in ref_fields:
        if f not in row:
            continue  # reported as a missing field
        v = row[f]
        if len(ref_fields) > 1 and _no_reference(v, kind):
            absent.append(f)  # a row with fewer references than the fields: an empty cell / a null is no reference
            continue
        if isinstance(v, (list, tuple)):
            if not v:
                errs.append(f"{f!r} is an empty list; at least one reference is needed")
            for j, s in enumerate(v):
                t, err = _text_value(s, f"{f}[{j}]", allow_empty=False)
                if err:
                    errs.append(err)
                else:
                    refs.append(t)
                    names.append(f"{f}[{j}]")
        elif isinstance(v, str):
            t, err = _text_value(v, repr(f), allow_empty=False)
            if err:
                errs.append(err)
            else:
                refs.append(t)
                names.append(repr(f))
        else:
            errs.append(f"{f!r} must be a string or a list of strings (the reference(s)), got {type_name(v)}")
    if absent and len(absent) == len(ref_fields):
        what = "cell {} is empty" if kind in ("csv", "tsv") else "field {} is null"
        errs.append(f"every reference {what.format(absent)}; at least one reference is needed")
    elif absent:
        for f in absent:
            out.empty_reference_cells[f] = out.empty_reference_cells.get(f, 0) + 1
    return refs, names


def _no_reference(v, kind: str) -> bool:
    """Whether the value of one of several reference fields says "no reference in this row": the way each format
    writes a missing value (pandas' ``to_csv``/``to_json``/``to_parquet`` of ``None``/``NaN``): an empty CSV/TSV
    cell (a table has no other way), a JSON/Parquet ``null``. An explicit ``""`` of JSONL/Parquet is not one (those
    formats say "none" with null): it is an empty reference, an error, as a blank CSV cell (``" "``) is."""
    return v is None or (kind in ("csv", "tsv") and v == "")


def _group_value(v, f: str, kind: str) -> tuple[Optional[str], Optional[str]]:
    if v is None or (kind in ("csv", "tsv") and v == ""):
        return None, None
    if isinstance(v, int) and not isinstance(v, bool):
        return str(v), None
    if isinstance(v, str):
        bad = lone_surrogate(v)
        if bad:
            return None, f"{f!r} {bad}"
        spaced = group_spaces_problem(v, f)
        return (None, spaced) if spaced else (v, None)
    return None, f"the group field {f!r} must be a string, an integer or null, got {type_name(v)}"


def _as_list(value) -> list:
    return [] if value is None else [value] if isinstance(value, str) else list(value)


def read_records(path, *, pred_field: Optional[str] = None, ref_field=None, id_field: Optional[str] = None,
                 group_fields: Sequence[str] = (), format: str = "auto", with_references: bool = True) -> Records:
    """Read and check a predictions file that carries its references (the module docstring has every rule).

    Args:
        path: a JSONL, CSV, TSV or Parquet file (each may be gzip-compressed), one item per row.
        pred_field: the prediction's field (default: the one of `DEFAULT_PRED_FIELDS` the file has,
            [`zheval.io.fields.pair_fields`][]).
        ref_field: the reference field, or a list of them (concatenated in order); each holds a string or a list
            of strings (default: the one of `DEFAULT_REF_FIELDS` the file has).
        id_field: the item id's field (default ``id`` when the file has it, else none: rows are named ``line N`` /
            ``row N``).
        group_fields: fields to group the report by (each value a string, an integer or null).
        format: one of `RECORD_FORMATS`.
        with_references: ``False`` reads predictions only (``ref_field`` must then be ``None``; every
            ``references`` entry is ``[]``): a predictions file with other field names joined to a 小黄鸭 file
            (`predictions_from_records`).

    Returns:
        `Records`, one per row, in file order.

    Raises:
        RecordsFormatError (a ValueError): every problem of every row (missing field, wrong type, a list where a
            string is expected, an empty reference, a duplicate id, malformed JSON/CSV, a wrong encoding, fields that
            pair up in more than one way), each named ``file:line`` and id; a file without rows
            (`EmptyFileError`).
        FileNotFoundError, IsADirectoryError: ``path``. ValueError/TypeError: an unknown ``format``; field names
            given twice, a field named in two roles, a group field named like a report column
            (`RESERVED_COLUMNS`).

    Warns:
        ListTextWarning: references that are lists written as text (``['a', 'b']``), each scored as one text: once
            for the file, with their count and the first ``file:line`` (`zheval.adapters.list_texts`).
        LineBreakWarning: reference cells that hold a line break, each scored as one reference: once for the
            file, as ``ListTextWarning`` (`zheval.io.line_break`).
        JsonStringWarning: predictions and references that are themselves JSON string literals (``json.dumps``
            applied twice; without an escape when half a field's texts are so), each scored as written: once for the
            file, as ``ListTextWarning`` (`zheval.adapters.json_texts.JsonFields`).
    """
    kind = records_format(path, format)
    path = existing_file(path, "predictions")
    name = str(path)
    problems: list = []
    rf = read_rows(path, format=kind, what="predictions", problems=problems)
    raw = rf.rows
    text = plain_text_problem(name, rf.kind, raw, problems)
    if text is not None:
        raise PlainTextRecordsError(text)
    if not raw:
        raise RecordsFormatError(problems)
    try:
        records = checked_records(rf, problems, pred_field, ref_field, id_field, group_fields, with_references)
    except FileFormatError as exc:
        if isinstance(exc, RecordsFormatError):
            raise
        raise RecordsFormatError(exc.problems) from None
    records.list_texts.warn(name)  # references that are lists written as text: one warning for the file
    records.line_breaks.warn(name)  # reference cells over several lines: one warning for the file
    return records


def _refuse_near_id(keys, raw, kind: str, name: str, problems: list) -> None:
    """Raise when a file without an ``id`` field has one under another spelling (`near_id_problem`): its rows would be
    named by their line, silently (compare, explain --id and the Poisson keys then lose the ids)."""
    near = near_id_problem(keys)
    if near is None:
        return
    line = next((ln for ln, row in raw if near[0] in row), raw[0][0]) if kind == "jsonl" else \
        (1 if kind in ("csv", "tsv") else raw[0][0])  # a table: its header line
    problems.append(Problem(name, line, None, near[1]))
    raise RecordsFormatError(sorted(problems, key=lambda p: p.line))


def checked_records(rf, problems: list, pred_field, ref_field, id_field, group_fields, with_references,
                    guessed: Optional[tuple] = None) -> Records:
    """The rows of a [`RowFile`][zheval.io.rows.RowFile] (a whole file, or one chunk of it:
    [`stream_records`][zheval.adapters.records_stream.stream_records]) checked into `Records` by the rules of
    [`read_records`][zheval.adapters.records.read_records] (arguments as there; ``problems``: the file's problems
    found so far, raised with the rows'). ``guessed``: ``(prediction field, reference field)`` found by
    `pair_fields` rather than named by the user (default: those not given here; a later chunk of a stream passes
    the first chunk's): a JSONL row with another candidate for such a role is a problem, as on the first row.

    Raises:
        RecordsFormatError: every problem of the rows and of ``problems``, in file order; and the field errors of
            [`read_records`][zheval.adapters.records.read_records].
    """
    raw, name = rf.rows, rf.name
    first_line, header = rf.header_line or raw[0][0], bool(rf.header_line)  # a field error names the header line
    wrapper = wrapped_rows_problem(rf.kind, rf.rows, [pred_field] if pred_field else DEFAULT_PRED_FIELDS, name)
    if wrapper is not None:  # {"data": [{...}, ...]}: one object holding the rows
        raise RecordsFormatError([wrapper])
    sheet = review_sheet_problem(name, rf.fields, first_line)
    if sheet is not None:  # zheval sample's review sheet: for zheval agree, never scored
        raise RecordsFormatError([sheet])
    refs = _as_list(ref_field)
    guessed = (not pred_field, not refs) if guessed is None else guessed
    if not with_references:
        if ref_field is not None:
            raise ValueError("ref_field names the references of a file that carries them; with_references=False "
                             "reads predictions only")
        pred = pred_field or _prediction_field(rf.fields, name, first_line, header)
    else:
        pred, ref = pair_fields(rf.fields, pred=pred_field, ref=refs[0] if len(refs) == 1 else None, name=name,
                                line=first_line, header=header) if len(refs) <= 1 else (pred_field, None)
        if pred is None:  # several reference fields named: the one prediction field
            pred = pair_fields(rf.fields, ref=refs[0], name=name, line=first_line, header=header)[0]
        refs = refs or [ref]
    keys = [k for _, row in raw for k in row] if rf.kind == "jsonl" else rf.fields  # any row
    id_field = id_field_of(keys, id_field)
    if id_field is None:
        _refuse_near_id(keys, raw, rf.kind, name, problems)
    groups = _as_list(group_fields)
    check_field_names(pred, refs, id_field, groups)
    needed = [pred, *refs] + ([id_field] if id_field else []) + groups
    where = rf.where
    out = Records(ids=[], predictions=[], references=[], groups={g: [] for g in groups}, source=name, kind=rf.kind,
                  fields={"pred": pred, "ref": refs, "id": id_field, "groups": groups})
    seen = UniqueIds()
    others = [f for f, role in [(f, 0) for f in PREDICTION_FIELDS] + [(f, 1) for f in REFERENCE_FIELDS]
              if with_references and rf.kind == "jsonl" and guessed[role] and f not in (pred, *refs)]
    for line, row in raw:
        rid = None
        errs: list = _field_problems(row, pred, refs, needed, [f for f in others if f in row], guessed)
        if id_field and id_field in row:
            rid, err = id_value(row[id_field], id_field)
            if err:
                errs.append(err)
            else:
                dup = seen.add(rid, name, line)
                if dup:
                    errs.append(dup)
        text = None
        if pred in row:
            text, err = _text_value(row[pred], f"the prediction {pred!r}", allow_empty=True)
            if err:
                errs.append(err + (" (use \"\" for an empty prediction)" if row[pred] is None else ""))
        references, ref_names = _references(row, refs, errs, rf.kind, out)
        values = {}
        for g in groups:
            if g in row:
                values[g], err = _group_value(row[g], g, rf.kind)
                if err:
                    errs.append(err)
        if errs:
            problems.extend(Problem(name, line, rid, e) for e in errs)
            continue
        out.ids.append(rid if id_field else f"{where} {line}")
        out.predictions.append(text)
        out.references.append(references)
        out.reference_names.append(ref_names)
        out.list_texts.add(line, references, ref_names, (repr(pred), text))  # lists as text, JSON-encoded texts
        out.line_breaks.add(line, *string_references(row, refs))
        for g in groups:
            out.groups[g].append(values[g])
            count_group_form(out.group_forms, g, row.get(g), values[g], line)
        out.lines.append(line)
        if rf.kind == "csv" and any(isinstance(v, str) and "\n" in v for v in row.values()):
            out.multiline_rows.append(line)
    if problems:
        raise RecordsFormatError(sorted(problems, key=lambda p: p.line))  # file order (stable within a line)
    return out


def _field_problems(row: dict, pred: str, refs: list, needed: list, extra: list, guessed: tuple) -> list:
    """The problems of a row's field names: fields of ``needed`` it lacks (naming the fields it has, and, when it
    lacks the prediction or a reference field, that every row is read with the same fields and the options that
    name them), or ``extra`` candidates for a role beside the fields of the pairing (a second pairing: ambiguous).
    A row that uses other names instead of the pairing's is missing them, never ambiguous."""
    missing = [f for f in needed if f not in row]
    errs = []
    if extra and not set(missing) & {pred, *refs}:
        named = field_arguments(*guessed)
        errs.append(f"this row also has {extra} beside {pred!r} and {refs[0]!r} (the first row's pairing): the "
                    f"fields pair up in more than one way here; nothing is picked for you; name them with {named}")
    if missing:
        pairing = " and ".join(repr(f) for f in (pred, *refs))
        errs.append(f"missing field(s) {missing} (this row has {sorted(row)}){spaced_names(missing, row)}" + (
            f"; every row is read with the same fields, here {pairing} (the first row's, or those named): write "
            f"every row with them, or name the fields the rows use with {field_arguments(True, bool(refs))}"
            if set(missing) & {pred, *refs} else "")
            + (" (a row without one of several references writes it null)" if len(refs) > 1 and set(missing) &
               set(refs) else ""))
    return errs


def _prediction_field(fields, name: str, line: int, header: bool = False) -> str:
    pred, err = prediction_field(fields, header)
    if err:
        raise RecordsFormatError([Problem(name, line, None, err)])  # err names the first row's fields
    return pred


def score_records(records, *, pred_field: Optional[str] = None, ref_field=None, id_field: Optional[str] = None,
                  group_fields: Sequence[str] = (), format: str = "auto", metrics: Sequence[str] = ("bleu", "rouge"),
                  tokenizer: Any = "char", by: Optional[Sequence[str]] = None, bootstrap: int = 1000,
                  seed: int = 12345, confidence: float = 0.95, num_proc: Optional[int] = None, progress: bool = False,
                  keep_items: bool = False, max_refs: Optional[int] = None, buckets: Any = None,
                  folds: Optional[int] = None, rouge: Optional[RougeOptions] = None, bleu: Optional[BleuOptions] = None,
                  chrf: Optional[ChrfOptions] = None, bertscore: Optional[BertScoreOptions] = None, **options: Any):
    """Score a predictions file that carries its references with the 小黄鸭 report.

    Args:
        records: a path (read with [`read_records`][zheval.adapters.records.read_records] and the field arguments) or a `Records`.
        pred_field: the prediction's field, as ``read_records`` (for a path).
        ref_field: the reference field or fields, as ``read_records`` (for a path).
        id_field: the item id's field, as ``read_records`` (for a path).
        group_fields: the fields to group by, as ``read_records`` (for a path).
        format: the file's format, as ``read_records`` (for a path).
        metrics: any of ``"bleu"``, ``"rouge"``, ``"chrf"``, as
            [`evaluate_predictions`][zheval.adapters.duck.evaluate.evaluate_predictions].
        tokenizer: the scoring tokenizer of every metric, as ``evaluate_predictions``.
        by: the group columns (default: the group fields; overall only without any).
        bootstrap: resamples for the percentile intervals (0 = none), as ``evaluate_predictions``.
        seed: the bootstrap's seed, as ``evaluate_predictions``.
        confidence: the intervals' confidence level, as ``evaluate_predictions``.
        num_proc: worker processes, as ``evaluate_predictions``.
        progress: a progress bar, as ``evaluate_predictions``.
        keep_items: per-item scores in the report, as ``evaluate_predictions``.
        max_refs: the first ``max_refs`` references of every item, as ``evaluate_predictions``.
        buckets: scores per reference-length bucket, as ``evaluate_predictions``.
        folds: the scores of ``k`` random folds, as ``evaluate_predictions``.
        rouge: ROUGE's options as one [`RougeOptions`][zheval.compute.options.RougeOptions].
        bleu: BLEU's options as one [`BleuOptions`][zheval.compute.options.BleuOptions].
        chrf: chrF's options as one [`ChrfOptions`][zheval.compute.options.ChrfOptions].
        bertscore: a [`BertScoreOptions`][zheval.compute.bertscore.BertScoreOptions] adds the BERTScore-F1 column,
            as ``evaluate_predictions``; ``None`` (default): none.
        options: the metric options by name (each defined once in `zheval.compute.options`), as
            ``evaluate_predictions``.

    Returns:
        A `Report` (``kind="score"``; scores on 0–1), whose overall numbers
        equal [`zheval.compute_bleu`][zheval.compute.bleu.compute_bleu] / [`zheval.compute_rouge`][zheval.compute.rouge.compute_rouge] on the same predictions and references.

    Raises:
        RecordsFormatError, ValueError: what [`read_records`][zheval.adapters.records.read_records] and
            [`evaluate_predictions`][zheval.adapters.duck.evaluate.evaluate_predictions] raise (a reference without
            tokens is named ``file:line``).
    """
    from .duck.config import report_options
    from .duck.evaluate import evaluate_predictions

    report_options("score_records", metrics, tokenizer, options, {"rouge": rouge, "bleu": bleu, "chrf": chrf},
                   interval=dict(bootstrap=bootstrap, seed=seed, confidence=confidence, folds=folds,
                                 max_refs=max_refs))
    if isinstance(records, (str, os.PathLike)):
        records = read_records(records, pred_field=pred_field, ref_field=ref_field, id_field=id_field,
                               group_fields=group_fields, format=format)
    elif not isinstance(records, Records):
        raise TypeError(f"score_records expects a path or Records, got {type(records).__name__}")
    report = evaluate_predictions(
        records.dataset(), records.as_predictions(), label_check="off", locations=records.locations(), metrics=metrics,
        tokenizer=tokenizer, by=tuple(records.groups) if by is None else by, bootstrap=bootstrap, seed=seed,
        confidence=confidence, num_proc=num_proc, progress=progress, keep_items=keep_items, max_refs=max_refs,
        buckets=buckets, folds=folds, rouge=rouge, bleu=bleu, chrf=chrf, bertscore=bertscore, **options)
    f = records.fields
    report.title = (f"zheval score: {len(records)} items, predictions and references {records.source} "
                    f"(prediction {f.get('pred')!r}, references {f.get('ref')}"
                    + (f", ids {f['id']!r}" if f.get("id") else "") + ")")
    report.notes += records_notes(records)
    return report


def records_notes(records: Records) -> list:
    """The notes a report gives of the rows of one records file (``zheval score`` without ``--data``, and each
    system of ``zheval compare`` without ``--data``): `empty_cell_notes` of its reference fields, then
    `multiline_notes`, then `zheval.adapters.duck.mismatch.group_type_notes`."""
    return (empty_cell_notes(records.empty_reference_cells) + group_type_notes(records.group_forms, records.source)
            + multiline_notes(len(records.multiline_rows), records.multiline_rows[:1], records.source))


def empty_cell_notes(counts: dict) -> list:
    """One note per reference field left empty or null in some rows (``counts``: ``{field: rows}``, as
    `Records.empty_reference_cells`): those rows are scored with the references they have."""
    return [f"{n} row(s) have an empty {col!r} cell: no reference there (those rows are scored with the references "
            "they have)" for col, n in counts.items()]


def multiline_notes(count: int, first: list, source: str) -> list:
    """The note of ``count`` CSV rows that hold a quoted cell over several lines (``first``: the first one's line,
    in a list; empty without any): such a cell is valid CSV, but a stray ``"`` at the start of a cell opens one that
    merges the rows after it, which the reader refuses only when the lines inside it read as rows
    (`zheval.io.table.spanning_cell_problem`), so the count is said, never silent."""
    if not count:
        return []
    return [f"{count} row(s) hold a quoted cell over several lines (first at {source}:{first[0]}): if every row "
            "should be one line, a stray \" at the start of a cell merged the lines after it into that cell"]


def predictions_from_records(records: Records):
    """The predictions of `Records` read with ``with_references=False``, as a
    `Predictions` for a 小黄鸭 file: joined **by id** when the records have
    an id field, else in dataset order (then the counts must match), each with its ``file:line``."""
    from .duck.predictions import Predictions

    return Predictions(texts=list(records.predictions), ids=list(records.ids) if records.fields.get("id") else None,
                       lines=list(records.lines), source=records.source, kind=records.kind)
