"""The file doors of ``zheval agree``'s review files -- the filled sheet (``--ratings``) and per-item scores computed
elsewhere (``--scores``): which formats they read, how a file's problems are gathered into one error, and which
names a score column may not take.

**Formats** (`REVIEW_FORMATS`): CSV, TSV, JSON Lines and Parquet, each also gzip-compressed, read by the reader of
every file door ([`read_rows`][zheval.io.rows.read_rows]: its encoding, line, header and quoting rules), chosen by the
file's name: ``.csv``, ``.tsv``, ``.jsonl``/``.json``/``.ndjson``, ``.parquet``/``.pq`` (``.gz`` after any of
them). A name that says none of these (``sheet.txt``, ``sheet``, ``sheet.xlsx``) is refused with one message naming
them (break-it F4: such a file was read as CSV whatever it held, ``s.jsonl`` giving 18 quoting errors and
``s.parquet`` three "not valid UTF-8"). In CSV and TSV every cell is text (an empty cell is empty); in JSON Lines
and Parquet values keep their types (a rating is a number or ``null``, never a string ``"4"``).
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from ...compute.judge_rubric import folded_key
from ...io.jsonl import id_map_hint, wrapped_rows_problem
from ...io.problems import EmptyFileError
from ...io.rows import RowFile, read_rows
from ...io.source import format_suffix

__all__ = ["REVIEW_FORMATS", "ReviewFileError", "read_review_file", "reserved_names", "loose_name", "listed",
           "raise_problems",
           "problems_heading"]

REVIEW_FORMATS = {".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".json": "jsonl", ".ndjson": "jsonl",
                  ".parquet": "parquet", ".pq": "parquet"}
"""``{extension: format}`` of the review files (``.gz`` removed first)."""

_ACCEPTED = ("CSV (.csv), TSV (.tsv), JSON Lines (.jsonl, .json, .ndjson) or Parquet (.parquet, .pq), each also "
             "gzip-compressed (.gz), chosen by the name")


class ReviewFileError(ValueError):
    """A review sheet or key that cannot be used: every problem in one message, each naming ``file:line`` (or the
    key's field) and the id."""

    def __init__(self, what: str, problems: list[str]):
        self.problems = list(problems)
        shown = self.problems[:20]
        more = len(self.problems) - len(shown)
        super().__init__(f"{what}: {len(self.problems)} problem(s)\n  "
                         + "\n  ".join(shown) + (f"\n  … and {more} more" if more > 0 else ""))


def read_review_file(path, what: str, hint: str = "", fields: Sequence[str] = ("id",)) -> RowFile:
    """The rows of a review file (module docstring: the format by the name).

    Args:
        path: the file (``pathlib.Path``). what: its role in messages (``"ratings sheet"``, ``"scores file"``).
        hint: added to a problem about the encoding (``"; save the sheet as UTF-8 CSV"``).
        fields: the columns a row is read for (``id`` and the rating columns): a JSON Lines file of one object
            with none of them that wraps the rows (``{"data": [{...}, ...]}``) is refused with the hint of every
            JSON door (`zheval.io.jsonl.wrapped_rows_problem`, at ``file:line``).

    Returns:
        [`RowFile`][zheval.io.rows.RowFile]: ``kind`` ``csv``/``tsv`` (text cells) or ``jsonl``/``parquet``
        (typed values).

    Raises:
        ReviewFileError: a name that says no accepted format (one problem naming them all); every problem of the file
            (encoding, gzip, quoting, header, cell counts, malformed JSON, ...: ``file:line``); a file without a
            row; one JSON object wrapping the rows; one JSON object mapping ids to numbers
            (`zheval.io.jsonl.id_map_hint`).
        OSError: the file cannot be read.
    """
    kind = REVIEW_FORMATS.get(format_suffix(path))
    if kind is None:
        raise ReviewFileError(f"cannot read the {what} {path}", [
            f"{path}: the file's name does not say its format: the {what} is read as {_ACCEPTED}; rename the file"])
    problems: list = []
    try:
        rf = read_rows(path, format=kind, what=what, problems=problems, numbers=True)  # JSON: 1e-400 is no 0.0
    except EmptyFileError:
        raise ReviewFileError(f"cannot read the {what} {path}", [f"{path}: the file has no row (a header at most)"])
    if problems:
        raise ReviewFileError(f"cannot read the {what} {path}",
                              [str(p) + (hint if "UTF-8" in p.message else "") for p in problems])
    if not rf.rows:
        raise ReviewFileError(f"cannot read the {what} {path}", [f"{path}: the file has no row (a header at most)"])
    wrapper = wrapped_rows_problem(rf.kind, rf.rows, fields, str(path))  # {"data": [{...}, ...]}: rows wrapped
    if wrapper is not None:
        raise ReviewFileError(f"cannot read the {what} {path}", [str(wrapper)])
    mapping = id_map_hint(rf.rows[0][1], str(path), (list(fields[1:]) or ["score"])[0]) if (
        rf.kind == "jsonl" and len(rf.rows) == 1 and not set(fields) & set(rf.rows[0][1])) else None  # {"q1": 0.5, ...}: ids mapped to scores, not rows
    if mapping is not None:
        raise ReviewFileError(f"cannot read the {what} {path}", [f"{path}:{rf.rows[0][0]}: {mapping}"])
    return rf


def typed(rf: RowFile) -> str:
    """``"jsonl"`` or ``"parquet"`` when the rows of ``rf`` keep their types (the file's kind: a string's advice in
    `zheval.io.numbers.number_cells` fits it), ``""`` when they are text cells (CSV, TSV)."""
    return rf.kind if rf.kind in ("jsonl", "parquet") else ""


def columns_of(rf: RowFile) -> list:
    """The columns of a review file: the header (CSV, TSV), the schema (Parquet), every key of any row in order of
    first appearance (JSON Lines)."""
    if rf.kind != "jsonl":
        return list(rf.fields)
    return list(dict.fromkeys(k for _, row in rf.rows for k in row))


def lacking(rf: RowFile, path, needed: Sequence[str], what: str) -> list:
    """Problems of JSON Lines rows that lack one of ``needed`` (columns other rows have), each ``file:line``: ``no
    'naturalness' (the other rows have it; <what>)``. Empty for the other formats (every row has every column)."""
    if rf.kind != "jsonl":
        return []
    return [f"{path}:{line}: no {c!r} (the other rows have it; {what})" for line, row in rf.rows for c in needed
            if c not in row]


def reserved_names(key: dict, rating_columns: Sequence[str] = ()) -> dict:
    """``{name: what it names}`` of the names a ``--scores`` column may not take, so that no two rows of the agreement
    table read alike (break-it F2: a column ``sentence BLEU`` gave two rows ``sentence BLEU``): each metric of the
    key by its name (``rougeL``) and its printed label (``ROUGE-L``), and each rating column (the key's and
    ``rating_columns``, those read from the sheet). `name_clashes` compares them with `loose_name`."""
    out: dict = {}
    for m in key.get("metrics") or []:
        out.setdefault(m["name"], f"the key's metric {m['name']!r}")
    for m in key.get("metrics") or []:
        out.setdefault(m.get("label", m["name"]), f"the printed label of the key's metric {m['name']!r}")
    for c in [*(key.get("rating_columns") or []), *rating_columns]:
        out.setdefault(c, "a rating column of the sheet")
    return out


def loose_name(name: str) -> str:
    """``name`` as a score column name is compared (`name_clashes`): the judge's ``ambiguous_key`` rule
    ([`folded_key`][zheval.compute.judge_rubric.folded_key]: case, width) with every space, ``_`` and ``-`` removed,
    so ``rougel``, ``Rouge L`` and ``ROUGE-L`` are one name, and ``sentence_bleu`` is ``sentence BLEU``."""
    return re.sub(r"[\s_-]+", "", folded_key(name))


def name_clashes(path, columns: Sequence[str], taken: Mapping[str, str]) -> list:
    """One problem ``file:1`` per column of a scores file whose name is in ``taken`` (`reserved_names`, and the
    columns of earlier ``--scores`` files), naming what it clashes with, or is one of them, or an earlier column of
    the file, apart from case, spaces, ``_``/``-`` or width (`loose_name`), naming both (break-it 18 A: a column
    ``Relevance`` was paired beside the rating ``relevance``, ``rougel`` beside ``ROUGE-L``)."""
    loose: dict = {}
    for name, what in taken.items():
        loose.setdefault(loose_name(name), (name, what))
    out = []
    for c in columns:
        if c in taken:
            out.append(f"{path}:1: column {c!r} is also {taken[c]}: the table would show two rows alike; rename the "
                       "column")
        elif loose_name(c) in loose:
            name, what = loose[loose_name(c)]
            said = what if what.endswith(repr(name)) else f"{name!r}, {what},"  # the key's metric 'rougeL'
            out.append(f"{path}:1: column {c!r} is {said} apart from case, spaces, '_'/'-' or width: the table "
                       "would show two rows alike; rename the column")
        loose.setdefault(loose_name(c), (c, "another column of this file"))
    return out


def listed(values: Sequence, show=repr, limit: int = 20) -> str:
    """The first ``limit`` of ``values`` shown with ``show``, comma-separated, `` …`` after them when there are
    more."""
    return ", ".join(show(v) for v in values[:limit]) + (" …" if len(values) > limit else "")


def raise_problems(what: str, key: str, values: list, problems: list, lost: list = ()) -> None:
    """Raise one `ReviewFileError` with every problem of a review file (ids, then cells, then numbers that read as
    the same float: ``lost``, `zheval.io.numbers.SameFloat`), headed by `problems_heading`; nothing when there is
    none."""
    if problems or values or lost:
        raise ReviewFileError(problems_heading(what, key, values, problems, lost), problems + values + list(lost))


def problems_heading(what: str, key: str, values: list, problems: list, lost: list = ()) -> str:
    """The heading of a ratings sheet's or scores file's problems that says what is wrong: ``"<what> has N cell(s)
    that are not numbers"`` for ``values`` ([`number_cells`][zheval.io.numbers.number_cells]' problems),
    ``"<what> does not match <key>"`` for the other ``problems`` (ids missing, repeated, unknown or absent), both
    joined by "and" when there are both; ``"has N cell(s) that read as the same float64 as another number of their column"`` for
    ``lost`` (`zheval.io.numbers.SameFloat`)."""
    parts = ([f"has {len(values)} cell(s) that are not numbers"] if values else []) + \
        ([f"has {len(lost)} cell(s) that read as the same float64 as another number of their column"]
         if lost else []) + \
        ([f"does not match {key}"] if problems else [])
    return f"{what} " + " and ".join(parts)
