"""Are the predictions of a filled review sheet the ones its key was scored on? (issue 35 F3)

``zheval agree`` joins a sheet's ratings to the key's scores by id. Two systems' sheets drawn from the same data
share their ids, so another system's sheet (or a sheet whose prediction cells were edited) used to be joined to the
key without a word, every rating correlated with scores of other texts. Each item of a key written by ``zheval
sample`` records ``prediction_sha256`` (`zheval.text.controls.text_digest` of the exact prediction it was scored on),
and `sheet_predictions` compares it with the sheet's ``prediction`` cell read back by the sheet's escaping rule
(`zheval.text.controls.sheet_plain`: the formula guard dropped, then `unescaped_text`, the inverse of what `sheet_csv`
writes; a raw ``\\r\\n`` in the cell is read as ``\\n`` first, since the sheet writes a carriage return as ``\\r`` and only a spreadsheet's re-save leaves a
raw one). A JSON Lines or Parquet sheet holds the prediction exactly (`zheval.adapters.review.sheet_formats`) and
is compared as it is, never unescaped (issue 35). The prediction cell is not for editing:
any other text is an error naming the ids, never a rating of the key's text.

A key without digests (written before they were recorded) or a sheet without a ``prediction`` column cannot be
checked: a note says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...text.terminal import sheet_plain, text_digest
from .review_files import listed

__all__ = ["SheetCheck", "sheet_predictions"]

_DIGEST = re.compile(r"[0-9a-f]{64}\Z")


@dataclass
class SheetCheck:
    """What `sheet_predictions` found: ``problems`` (error lines for `ReviewFileError`) and ``notes`` (what could not
    be checked, for the agreement report)."""

    problems: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def _cell_texts(cell, typed: bool) -> list:
    """The texts a prediction cell may stand for: in a CSV/TSV sheet its unescaped form (``\\r\\n`` read as ``\\n``
    first, the formula guard ``'`` dropped by `zheval.text.controls.sheet_plain`); in a typed sheet (JSON Lines,
    Parquet: written exactly) the value as it is, and nothing else."""
    if not isinstance(cell, str):
        return []
    if typed:
        return [cell]
    plain = sheet_plain(cell.replace("\r\n", "\n"))
    return [] if plain is None else [plain]


def sheet_predictions(path, rf, lines: dict, key: dict) -> SheetCheck:
    """Check each sheet row's prediction against the key item's ``prediction_sha256`` (module docstring).

    Args:
        path: the sheet (for messages). rf: its `zheval.io.rows.RowFile`. lines: ``{key id: line}`` of the rows
            matched to key items (`read_ratings`). key: from `read_key`.

    Returns:
        A `SheetCheck`: one problem naming the count and the first ids (with their lines) whose prediction cell is
        not the key's text, one per key item whose ``prediction_sha256`` is not 64 lower-case hex digits; a note when
        the key has no digests (or lacks some) or the sheet has no ``prediction`` column. Raises nothing.
    """
    out = SheetCheck()
    items = key.get("items") or []
    digests = {it["id"]: it.get("prediction_sha256") for it in items}
    bad_digest = [i for i, d in digests.items() if d is not None and not (isinstance(d, str) and _DIGEST.match(d))]
    if bad_digest:
        out.problems.append(f"the key's prediction_sha256 of {len(bad_digest)} item(s) is not a SHA-256 hex digest "
                            f"(64 lower-case hex digits): ids {listed(bad_digest, limit=5)}")
    lacking = [i for i, d in digests.items() if d is None]
    if lacking:
        out.notes.append(f"the key records no prediction digest (prediction_sha256) for {len(lacking)} of "
                         f"{len(items)} item(s) (a key written before zheval recorded them): the sheet's predictions "
                         "of those could not be checked against the predictions the key was scored on")
    columns = rf.fields if rf.kind != "jsonl" else {k for _, row in rf.rows for k in row}
    if "prediction" not in columns:
        out.notes.append(f"{path} has no 'prediction' column: its ratings could not be checked to be of the "
                         "predictions the key was scored on (zheval sample writes that column)")
        return out
    rows = dict(rf.rows)
    typed = rf.kind in ("jsonl", "parquet")
    differ = []
    for rid, line in lines.items():
        want = digests.get(rid)
        if rid in bad_digest or want is None or line not in rows:
            continue
        if not any(text_digest(t) == want for t in _cell_texts(rows[line].get("prediction"), typed)):
            differ.append((rid, line))
    if differ:
        out.problems.append(
            f"{path}: the prediction of {len(differ)} of {len(lines)} item(s) is not the prediction the key was "
            f"scored on: {listed(differ, lambda d: f'{d[0]!r} (line {d[1]})', limit=5)}; the sheet rates other texts "
            "(another system's sheet, or a sample of other predictions?): give the key zheval sample wrote with this "
            "sheet; the prediction cells are not for editing")
    return out
