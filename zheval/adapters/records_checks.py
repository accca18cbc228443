"""Checks of a records file that are not about one row's values (`zheval.adapters.records.checked_records`): the
names given to the fields (`check_field_names`), a file that is ``zheval sample``'s review sheet
(`review_sheet_problem`), and the references of a row read as one string each (`string_references`, for the line
break rule, `zheval.io.line_break`).
"""

from __future__ import annotations

import os
from pathlib import PurePath
from typing import Optional, Sequence

from ..io import Problem
from .review.sheet_columns import SHEET_COLUMNS

__all__ = ["RESERVED_COLUMNS", "check_field_names", "review_sheet_problem", "string_references"]

RESERVED_COLUMNS = ("id", "query", "responses", "prediction")
"""Column names of the report's dataset, which a group field cannot be named."""


def check_field_names(pred: str, refs: list, id_field, groups: list) -> None:
    """Refuse field names given twice, not non-empty strings, a group field named like a report column
    (`RESERVED_COLUMNS`), or a field named in two roles (``ValueError``/``TypeError`` naming it)."""
    for what, names in (("ref_field", refs), ("group_fields", groups)):
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
             "group_fields": groups}
    seen: dict = {}
    for role, names in roles.items():
        for n in names:
            if n in seen and seen[n] != role:
                raise ValueError(f"field {n!r} is named as both {seen[n]} and {role}; each field has one role")
            seen[n] = role


def review_sheet_problem(name: str, fields, line: int) -> Optional[Problem]:
    """The one problem, at ``name:line`` (a CSV/TSV header, the first JSONL object, Parquet's first row), of a file
    whose ``fields`` (header, schema, first object's keys) are those of a review sheet written by ``zheval sample``
    (`zheval.adapters.review.sheet_columns.SHEET_COLUMNS`: ``id``, ``query``, ``prediction``, ``references`` and
    the rating columns, in any order, other columns beside them); ``None`` otherwise. Such a sheet is a blind
    sample for raters, its texts escaped for reading and a CSV sheet's references one per line in one cell: scored,
    each item's references were one long reference (break-it: BLEU 0.005 instead of 0.328). It is read by ``zheval
    agree``, never scored: the records door and the predictions of ``--data`` refuse it."""
    if not set(SHEET_COLUMNS) <= set(fields):
        return None
    return Problem(name, line, None, (
        f"this is a review sheet written by zheval sample (its columns {', '.join(SHEET_COLUMNS)}): it is for "
        f"rating, then zheval agree --ratings {name} --key {_default_key(name)} (its key, there unless zheval sample "
        "was given --key), not a scoring input (a blind sample of the items, its texts escaped for reading, each "
        "item's references one per line in one cell); score the predictions file it was sampled from (the key's \"data\" names it), or a file with one "
        "prediction field and the references as a list or one column each"))


def _default_key(sheet: str) -> str:
    """Where ``zheval sample`` writes a sheet's key without ``--key`` (`zheval.cli.sample.default_key`: beside the
    sheet, ``out/s.csv`` → ``out/s.key.json``), said as the sheet is."""
    return os.path.join(os.path.dirname(sheet), PurePath(sheet).stem + ".key.json")


def string_references(row: dict, refs: Sequence[str]) -> tuple:
    """``(references, names)``: the values of ``row``'s reference fields ``refs`` that are one string (a CSV/TSV cell,
    a JSONL/Parquet string; never a list's entries) and their names as `Records.reference_names` gives them
    (``'label'``)."""
    present = [f for f in refs if isinstance(row.get(f), str)]
    return [row[f] for f in present], [repr(f) for f in present]
