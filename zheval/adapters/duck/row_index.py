"""A field of a predictions file without ids that numbers its lines loosely — an index-like name (``idx``, ``row``,
``sample_id`` …), whole numbers on most lines, mostly distinct, close together — in another order than the lines':
refused before the predictions are paired with the items by line order (`numbering_refusal`, called by
`zheval.adapters.duck.id_like.row_index_check` for a field that is not exactly ``0``..``N-1`` or ``1``..``N``).

Break-it: a shuffled file whose ``idx`` was a numbering with one flaw — one line without it, ``null`` or an empty
CSV cell, one number repeated, one missing and another beyond N, or numbers from 1000 — was paired by line order
with only a note, each prediction scored against another item's references (BLEU 0.049 instead of 0.939).

The rule (all of it, for a file of N lines; the exact numberings are `row_index_check`'s, under any name):

- the field's name reads as an index (`index_named`): a ``length``, ``score``, ``tokens``, ``label`` or timestamp
  field is never read as numbering the lines by this rule, whatever its values;
- at least `ROW_INDEX_SHARE` of the lines (and at least `MIN_ROW_INDEX_LINES`) hold distinct whole numbers
  (`row_number`: ``3``, ``3.0``, ``"3"``, ``"３"``) lying within one run of N consecutive numbers: mostly repeated
  values (a 0/1 label) or values spread wide (lengths, timestamps) are no numbering;
- its numbers are out of line order on many lines: the lines outside a longest non-decreasing run of them down the
  file are at least `ROW_INDEX_DISORDER` of the numbered lines and at least 2. Numbers in line order — with gaps,
  an offset, a repeat, lines without one — are kept (paired by line order, as the note says); so is one mistyped
  number in a file in line order.
"""

from __future__ import annotations

import bisect
import math
import re
import unicodedata
from typing import Optional

from ...io import predictions_arguments

__all__ = ["MIN_ROW_INDEX_LINES", "ROW_INDEX_DISORDER", "ROW_INDEX_SHARE", "index_named", "numbering_refusal",
           "row_number"]

MIN_ROW_INDEX_LINES = 3
"""The least number of lines whose field numbering them in another order (`row_index_check`) is refused: in two
lines, ``1`` and ``0`` (a yes/no field) say nothing of the order."""

ROW_INDEX_SHARE = 0.8
"""The share of a file's N lines that must hold distinct whole numbers within one run of N consecutive numbers for
a field with an index-like name to be read as numbering them loosely (`numbering_refusal`): four lines in five —
of six lines, one without a number, or with a repeated one, or beyond N, is a numbering still."""

ROW_INDEX_DISORDER = 0.25
"""The share of the numbered lines that must be out of line order (outside a longest non-decreasing run of the
numbers down the file) for a loose numbering to be refused, and at least 2 lines: a shuffled file has most of
them out of order, a file in line order with one mistyped number one."""

_INDEX_WORDS = frozenset({"idx", "index", "id", "row", "line", "lineno", "rowid", "no", "number", "i", "seq", "pos",
                          "position", "order", "key"})
_INDEX_ENDS = ("id", "idx", "index")
_INDEX_HAN = ("序号", "编号", "行号", "索引", "题号")


def index_named(field) -> bool:
    """Whether the field name ``field`` reads as an index. Its words (split at characters other than ASCII letters
    and digits, and where lower case turns upper: ``sample_id``, ``sampleId``, ``line-no``; casefolded): the last
    one is ``idx``, ``index``, ``id``, ``row``, ``line``, ``lineno``, ``rowid``, ``no``, ``number``, ``i``,
    ``seq``, ``pos``, ``position``, ``order`` or ``key``, or ends in ``id``, ``idx`` or ``index`` (``qid``,
    ``uid``, ``rowidx``); or the first one is ``idx`` or ``index`` (``idx_in_data``); or the name holds ``序号``,
    ``编号``, ``行号``, ``索引`` or ``题号``. Not an index: ``length``, ``score``, ``tokens``, ``num_tokens``,
    ``label``, ``time``, ``n``."""
    name = str(field)
    if any(han in name for han in _INDEX_HAN):
        return True
    words = [w.casefold() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", name)]
    return bool(words) and (words[-1] in _INDEX_WORDS or words[-1].endswith(_INDEX_ENDS)
                            or words[0] in ("idx", "index"))


def row_number(value) -> Optional[int]:
    """The whole number ``value`` writes (an integer, ``2.0``, a string of digits, full-width or with spaces
    around them: NFKC), else ``None`` (``None``, ``""``, a bool, ``2.5``, ``"-1"``, text)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = unicodedata.normalize("NFKC", value).strip()
        return int(text) if text.isascii() and text.isdigit() else None
    return None


def _densest(values: list, width: int) -> int:
    """The most of the sorted distinct ``values`` within one run of ``width`` consecutive numbers."""
    best, lo = 0, 0
    for hi, v in enumerate(values):
        while v - values[lo] >= width:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def _in_order(numbers: list) -> int:
    """The length of a longest non-decreasing run (subsequence) of ``numbers``."""
    tails: list = []
    for v in numbers:
        k = bisect.bisect_right(tails, v)
        tails[k:k + 1] = [v]
    return len(tails)


def _has(row: dict, field) -> str:
    """How a line's value of ``field`` is written: ``has 'idx' 3``, ``has 'idx' None``, ``has no 'idx'``."""
    return f"has {field!r} {row[field]!r}" if field in row else f"has no {field!r}"


def numbering_refusal(predictions, ids: list, rows: list, field) -> Optional[str]:
    """The refusal (the library's words; the command line writes ``--id-field NAME``) when ``field`` of
    ``predictions``' file (``rows``: one per prediction, ``ids``: the items they would be paired with by line
    order) numbers its lines loosely in another order than theirs, by the module's rule (`index_named`,
    `ROW_INDEX_SHARE`, `ROW_INDEX_DISORDER`); else ``None``. The message names the file, the field, the first line
    whose number is below an earlier line's (FILE:LINE, the values as the file writes them), the lines without a
    number and the repeated ones, and the ways out: sort the lines by it, write the items' ids, or remove it."""
    n = len(rows)
    if n < MIN_ROW_INDEX_LINES or not index_named(field):
        return None
    numbers = [row_number(row.get(field)) for row in rows]
    numbered = [i for i, v in enumerate(numbers) if v is not None]
    distinct = sorted({numbers[i] for i in numbered})
    if _densest(distinct, n) < max(MIN_ROW_INDEX_LINES, math.ceil(ROW_INDEX_SHARE * n)):
        return None
    out = len(numbered) - _in_order([numbers[i] for i in numbered])
    if out < max(2, ROW_INDEX_DISORDER * len(numbered)):
        return None
    top, first = None, None
    for i in numbered:
        if top is not None and numbers[i] < numbers[top]:
            first = i
            break
        top = i if top is None or numbers[i] >= numbers[top] else top
    src, lines, named = predictions.source, predictions.lines, predictions_arguments('id_field="NAME"')
    msg = (f"predictions ({src}) have no 'id' field, but their field {field!r} numbers their lines in another order "
           f"than the lines': {len(distinct)} distinct whole numbers from {distinct[0]} to {distinct[-1]} on "
           f"{len(numbered)} of their {n} lines, {out} of them out of line order ({src}:{lines[first]} "
           f"{_has(rows[first], field)}, below the {rows[top].get(field)!r} of {src}:{lines[top]}, but by its place "
           f"is paired with item {first} of the data, {ids[first]!r})")
    bare = [i for i, v in enumerate(numbers) if v is None]
    if bare:
        msg += (f"; {len(bare)} line(s) hold no number in it (first: {src}:{lines[bare[0]]} "
                f"{_has(rows[bare[0]], field)})")
    seen: dict = {}
    for i in numbered:
        seen.setdefault(numbers[i], i)
    repeats = [(i, seen[numbers[i]]) for i in numbered if seen[numbers[i]] != i]
    if repeats:
        i, j = repeats[0]
        msg += (f"; {len(repeats)} line(s) repeat an earlier line's number (first: {src}:{lines[i]} "
                f"{_has(rows[i], field)}, as {src}:{lines[j]} does)")
    fix = ", after giving each line its own number" if bare or repeats else ""
    return (msg + ": the file looks keyed by a row index of the data in another order, and paired by line order "
            f"each prediction would be scored against another item's references. If {field!r} numbers the data's "
            f"items in their order, sort the file's lines by it{fix}; or write the items' ids in an 'id' field (or "
            f"in another field, joined by it with {named}); if {field!r} does not number the items, remove it from "
            "the file")
