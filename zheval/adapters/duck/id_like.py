"""Predictions without ids whose ids sit under another field (``qid``, ``uid``, ``item_id``): found before they are
paired with the items by line order (issue 35 break-it: a shuffled file with ``qid`` scored BLEU 0.016 instead of
0.354, with only a note).

`id_like_fields` looks, in the predictions' own file, for the fields whose values are exactly the data's ids: on
every prediction's line a valid id by the one id rule ([`zheval.io.fields.id_value`][]: ``7`` is the id ``"7"``),
each id of the data once. `id_like_check` then decides: such a field in another order than the data's is refused
(pairing by line order would score each prediction against another item's references; the message names the file,
the field as the file writes it, the first line out of order and the way to join by it); in the data's order the
pairing is kept, and `id_like_warning` says which field holds the ids and how to have them checked. The readers
keep no other field, so the file is read again (only for predictions paired by line order, from a file with
fields: JSONL, CSV, TSV, Parquet).

A field numbering the lines (``idx``, ``index``, ``row``: every value ``0``..``N-1`` or ``1``..``N`` once, integers
or digit strings) holds no id of the data but says which item each line is: in another order than the lines'
(a shuffled file keyed by a row index) it is refused too (`row_index_check`), in the lines' order it is named in
the note of the pairing (`zheval.adapters.duck.inputs.order_notes`), which says "no ids" only of a file without any
other field (break-it: a shuffled ``idx`` file scored BLEU 0.028 instead of 0.249, noted as "have no ids"). Which
names are read as an index, which never (``rank``, ``score``, ``tokens``), a loose numbering (a line without it, a
repeat, a gap, numbers from 1000, ``"q3"``) and when its lines are out of place (a rotation, swaps) — refused under
an index's name, said in a warning under another — is the rule of `zheval.adapters.duck.row_index`, written out
there. One numbering the lines from 0 in their order where the data's ids number the items from 1 (or the other
way round) is such a row index, not the data's ids in another order (`_numbering_off_by_one`).
"""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path
from typing import Optional

from ...io import FileFormatError, id_value, predictions_arguments, read_rows
from .mismatch import whole_id
from .row_index import (MIN_ROW_INDEX_LINES, MIN_UNNAMED_LINES, exact_start, field_numbers, name_kind,
                        numbering_message, numbers_lines, out_of_place, row_number, loose_in_order)

__all__ = ["MIN_MATCHED", "MIN_ROW_INDEX_LINES", "MIN_SHARE", "field_words", "id_like_fields", "row_index_check", "id_like_matches", "id_like_check", "id_like_warning",
           "shared_id_field"]

_FIELD_FORMATS = ("jsonl", "csv", "tsv", "parquet")

MIN_SHARE = 0.5
"""The share of a predictions file's lines whose values of a field must be the data's ids (`id_like_matches`) for
the field to be read as holding them: at least half."""

MIN_MATCHED = 2
"""The least number of lines whose values of a field must be the data's ids (`id_like_matches`): one line that
happens to hold an id says nothing of the order."""


def _rows_of(predictions) -> Optional[list]:
    """The rows of ``predictions``' own file, one per prediction (by its line), or ``None`` (no file with fields,
    a file that changed since it was read)."""
    src = getattr(predictions, "source", None)
    if getattr(predictions, "kind", None) not in _FIELD_FORMATS or not src or not os.path.isfile(src):
        return None
    try:
        rows = dict(read_rows(Path(src), format=predictions.kind, what="predictions", problems=[]).rows)
    except (FileFormatError, OSError, ValueError):
        return None
    lines = list(predictions.lines or [])
    if len(lines) != len(predictions) or any(ln not in rows for ln in lines):
        return None
    return [rows[ln] for ln in lines]


def _candidate_fields(predictions, rows: list) -> list:
    """The fields of ``rows`` (``predictions``' file, one row per prediction) that may hold ids, in the file's
    order (the fields of every line: one missing on the first line too): not the prediction's own field (its value
    is the prediction's text on every line), nor a stored label (LLaMA-Factory ``label``: its value on every line),
    reference or query field (issue 35 break-it pass 17: numeric answers ``"1"``, ``"3"`` … and labels equal to ids
    were taken for an id field and the file refused)."""
    texts = list(getattr(predictions, "texts", None) or [])
    labels = getattr(predictions, "labels", None)
    named = {f for f in (getattr(predictions, "reference_fields", None) or []) if isinstance(f, str)}
    for fields in getattr(predictions, "query_fields", None) or []:
        named.update(f for f in (fields if isinstance(fields, (list, tuple)) else [fields]) if isinstance(f, str))

    def content(field) -> bool:
        same_text = len(texts) == len(rows) and all(row.get(field) == t for row, t in zip(rows, texts))
        same_label = labels is not None and len(labels) == len(rows) and all(
            row.get(field) == lab for row, lab in zip(rows, labels))
        return same_text or same_label

    fields = dict.fromkeys(f for row in rows for f in row)  # a field missing on the first line is one too
    return [f for f in fields if f not in named and not content(f)]


def id_like_fields(predictions, ids: list, rows: Optional[list] = None) -> list:
    """``[(field, the id on each prediction's line)]`` of the fields of ``predictions``' file (a
    `zheval.adapters.duck.predictions.Predictions` read from JSONL, CSV, TSV or Parquet) whose values are exactly
    the data's ``ids``: a valid id on every line (`zheval.io.fields.id_value`), each of ``ids`` once; in the file's
    field order. ``[]`` for predictions from memory or a plain-text file. ``rows``: the file's rows, when read."""
    if rows is None:
        rows = _rows_of(predictions) if len(predictions) == len(ids) else None
    if not rows:
        return []
    wanted = set(ids)
    if len(wanted) != len(ids):
        return []
    found = []
    for field in _candidate_fields(predictions, rows):
        values = []
        for row in rows:
            rid, bad = id_value(row.get(field), str(field))
            if bad or rid not in wanted:
                break
            values.append(rid)
        if len(values) == len(ids) and len(set(values)) == len(ids):
            found.append((field, values))
    return found


def _loose(value) -> str:
    """The key of an id once the ways of writing it that the id hints name are set aside (`zheval.io.fields.
    near_id_problem`, `zheval.adapters.duck.mismatch.id_pairs`): full-width and other compatibility characters
    (NFKC), case, spaces around it, a decimal ``.0`` (``2.0``), leading zeros: the id written plainly (NFKC)
    without the spaces around it, then `zheval.adapters.duck.mismatch.whole_id` (leading zeros, a decimal ``.0``),
    casefolded."""
    return whole_id(unicodedata.normalize("NFKC", str(value)).strip()).casefold()


def id_like_matches(predictions, ids: list, rows: Optional[list] = None) -> list:
    """``[(field, {line index: data index}, loose)]`` of the fields of ``predictions``' file whose values are the
    data's ``ids`` on a large share of its lines (`MIN_SHARE` of them, and at least `MIN_MATCHED`): a value (a
    string or an integer; one per line) matches the id it is by the id rule, else the one id it equals once case,
    spaces around it, full-width characters (NFKC), leading zeros and a decimal ``.0`` (``2.0``, ``"2.0"``) are set
    aside (`_loose`); each id once (a
    repeat does not match). ``loose`` counts the lines matched only that way. The fields holding exactly the ids
    (`id_like_fields`) are among them. ``rows``: the file's rows, one per prediction, when already read."""
    if rows is None:
        rows = _rows_of(predictions) if len(predictions) == len(ids) else None
    if not rows or len(set(ids)) != len(ids):
        return []
    where = {rid: k for k, rid in enumerate(ids)}
    keys: dict = {}
    for k, rid in enumerate(ids):
        keys.setdefault(_loose(rid), []).append(k)
    found = []
    for field in _candidate_fields(predictions, rows):
        matched, taken, loose = {}, set(), 0
        for i, row in enumerate(rows):
            v = row.get(field)
            if isinstance(v, float) and v.is_integer():
                v = int(v)  # 2.0: an integer id column read as floats (pandas writes one with a missing value so)
            if isinstance(v, bool) or not isinstance(v, (str, int)):
                continue
            k, exact = where.get(str(v)), True
            if k is None and len(keys.get(_loose(v), ())) == 1:
                k, exact = keys[_loose(v)][0], False
            if k is not None and k not in taken:
                matched[i] = k
                taken.add(k)
                loose += not exact
        if len(matched) >= max(MIN_MATCHED, MIN_SHARE * len(rows)):
            found.append((field, matched, loose))
    return found


def _widened_check(predictions, ids: list, rows_n: int, rows: Optional[list], kept: Optional[set] = None
                   ) -> Optional[str]:
    """The refusal of `id_like_check` for a field holding the data's ids on a large share of lines but not exactly
    (`id_like_matches`: some values edited, or written in another case, with spaces, full-width, zero-padded), in
    another order than the data's; else ``None``. The fields holding them in the data's order are added to
    ``kept`` (never read as a row index then: integer ids in the data's order need not increase down the lines)."""
    src = predictions.source
    if not rows:
        return None
    for field, matched, loose in id_like_matches(predictions, ids, rows):
        wrong = [i for i, k in matched.items() if k != i]
        if not wrong:
            _gaps(predictions, ids, rows, field, matched)
            if kept is not None:
                kept.add(field)
            continue
        if _numbering_off_by_one(rows, field, matched):
            continue  # 'idx' 0, 1, 2 … in line order where the ids are 1, 2, 3 …: a row index (`row_index_check`)
        i = wrong[0]
        value = rows[i].get(field)
        msg = (f"predictions ({src}) have no 'id' field, but their field {field!r} holds the data's ids on "
               f"{len(matched)} of its {rows_n} lines, in another order ({src}:{predictions.lines[i]} has {field!r} "
               f"{value!r}, the id {ids[matched[i]]!r} of item {matched[i]}, where item {i} of the data is "
               f"{ids[i]!r})")
        if loose:
            msg += (f"; {loose} of them only once case, spaces around them, full-width characters (NFKC), a decimal "
                    "'.0' or leading zeros are set aside")
        unmatched = [j for j in range(rows_n) if j not in matched]
        if unmatched:
            j = unmatched[0]
            msg += (f"; {len(unmatched)} line(s) hold none of the data's ids (first: {src}:{predictions.lines[j]} has "
                    f"{field!r} {rows[j].get(field)!r})")
        return (msg + ": paired by line order, the predictions would be scored against other items' references. "
                f"Write the data's ids in that field and join them by it with "
                f"{predictions_arguments(f'id_field={field!r}')}; if {field!r} does not hold the items' ids, "
                "remove it from the file")
    return None


def _numbering_off_by_one(rows: list, field, matched: dict) -> bool:
    """Whether ``field``, matching the data's ids on the lines ``matched`` (``{line index: data index}``) each one
    item off the line's own (the same shift, ``+1`` or ``-1``, on every matched line), numbers the lines in their
    order from ``0`` or ``1`` (its whole numbers, `row_number`, non-decreasing down the lines, the least ``0`` or
    ``1``): a row index from 0 where the data's ids number the items from 1, or the other way round — not ids in
    another order (``idx`` 0, 1, 2 … of a file in the data's order, ids ``1``, ``2``, ``3`` …, was refused as
    "holds the data's ids … in another order"). A file whose ids are moved one line (``2``, ``3`` … ``7``) starts
    at neither and stays refused."""
    shifts = {k - i for i, k in matched.items()}
    numbers = [n for n in (row_number(row.get(field)) for row in rows) if n is not None]
    return (len(shifts) == 1 and abs(shifts.pop()) == 1 and bool(numbers) and min(numbers) in (0, 1)
            and all(a <= b for a, b in zip(numbers, numbers[1:])))


def _gaps(predictions, ids: list, rows: list, field, matched: dict) -> None:
    """For a field holding the data's ids in the data's order on a large share of the lines (`id_like_matches`),
    but none of them on some: ``predictions.id_like_gaps``, the words of `id_like_warning` (those lines are paired
    with the items by their place, which their field does not say), unless set by an earlier field."""
    unmatched = [j for j in range(len(rows)) if j not in matched]
    if not unmatched or getattr(predictions, "id_like_gaps", None):
        return
    src, j = predictions.source, unmatched[0]
    predictions.id_like_gaps = (
        f"the predictions ({src}) have no 'id' field and were paired with the items by line order; their field "
        f"{field!r} holds the items' ids in the data's order on {len(matched)} of its {len(rows)} lines, but "
        f"{len(unmatched)} line(s) do not hold the id of the item they are paired with (first: {src}:{predictions.lines[j]} has {field!r} "
        f"{rows[j].get(field)!r}, paired by its place with item {j} of the data, {ids[j]!r}): is each such line's "
        f"prediction for the item it is paired with? Write the data's ids in that field and join them by it with "
        f"{predictions_arguments(f'id_field={field!r}')}, so that the ids are checked")


def id_like_check(predictions, ids: list) -> Optional[str]:
    """For predictions without ids about to be paired with the items ``ids`` by line order: the refusal (the
    library's words; the command line writes ``--id-field NAME``) when a field of theirs holds the data's ids in
    another order — exactly the ids (`id_like_fields`), or most of them (`id_like_matches`: `MIN_SHARE` of the
    lines and at least `MIN_MATCHED`, some edited or written in another case …) —, or numbers the lines in
    another order (`row_index_check`), else ``None``; a field holding exactly the ids in the data's order is kept
    as ``predictions.id_like_field`` (for `id_like_warning`; one holding them on most lines only, in the data's
    order, as the words of its warning ``predictions.id_like_gaps``: `_gaps`), one numbering the lines in their order as
    ``predictions.row_index_field``, the warning of one not named as an index numbering them out of place as
    ``predictions.row_index_doubt``, and the file's other fields as ``predictions.other_fields`` (for the note)."""
    rows = _rows_of(predictions) if len(predictions) == len(ids) else None
    predictions.id_like_gaps = None
    found = id_like_fields(predictions, ids, rows)
    for field, values in found:
        if values != list(ids):
            k = next(i for i, (v, rid) in enumerate(zip(values, ids)) if v != rid)
            src = predictions.source
            return (f"predictions ({src}) have no 'id' field, but their field {field!r} holds exactly the data's "
                    f"{len(ids)} ids, in another order ({src}:{predictions.lines[k]} has {field!r} {values[k]!r}, "
                    f"where item {k} of the data is {ids[k]!r}): paired by line order, the predictions would be "
                    f"scored against other items' references. Join them by that field with "
                    f"{predictions_arguments(f'id_field={field!r}')}; if {field!r} does not hold the items' ids, "
                    "remove it from the file")
    kept = {f for f, _ in found}
    widened = _widened_check(predictions, ids, len(ids), rows, kept) if len(predictions) == len(ids) else None
    if widened:
        return widened
    predictions.id_like_field = found[0][0] if found else None
    return row_index_check(predictions, ids, rows, kept)


def row_index_check(predictions, ids: list, rows: Optional[list], skip=()) -> Optional[str]:
    """For predictions without ids about to be paired with the items ``ids`` by line order (``rows``: their file's
    rows, one per prediction, or ``None``): the refusal when a field (not in ``skip``, the fields holding the
    data's ids in the data's order) numbers the lines in another order than theirs (at least
    `MIN_ROW_INDEX_LINES` lines), by the rule of `zheval.adapters.duck.row_index`: a field named as an index
    (``idx``, ``row``, ``num``, ``Unnamed: 0`` …) numbering them exactly (each of ``0``..``N-1`` or ``1``..``N``
    once, integers, digit strings or ``"q3"``) or loosely (a line without a number, a repeat, a gap, an offset
    aside) with lines out of place; a field with another name (not a never-index one: ``rank``, ``score``,
    ``tokens``, ``turn`` … are never read) numbering at least `MIN_UNNAMED_LINES` lines exactly. The file looks
    keyed by a row index, and paired by line order each prediction would be scored against another item's
    references. Else ``None``, with ``predictions.row_index_field`` ``(field, first number)`` for a field
    numbering them exactly in their order, ``predictions.row_index_doubt`` the warning of the first field with
    another name that numbers them loosely, or exactly on fewer lines, out of place (`row_index_warning`), and
    ``predictions.other_fields`` the file's fields besides the prediction and the stored ones."""
    predictions.row_index_field = predictions.row_index_doubt = predictions.row_index_loose = None
    predictions.other_fields = _candidate_fields(predictions, rows) if rows else []
    for field in (f for f in predictions.other_fields if f not in skip):
        kind = name_kind(field)
        if kind == "never":
            continue
        numbers, affix = field_numbers(rows, field)
        start = exact_start(numbers)
        if start is not None and all(v == i + start for i, v in enumerate(numbers)):
            predictions.row_index_field = predictions.row_index_field or (field, start)
            continue
        if len(rows) < MIN_ROW_INDEX_LINES:
            continue
        if start is not None:  # each of 0..N-1 (1..N) once, not in the lines' order: every line out of place counts
            place = (start, [i for i, v in enumerate(numbers) if v != i + start])
        else:
            place = out_of_place(numbers) if numbers_lines(numbers) else None
            if place is None:
                if kind == "index" and numbers_lines(numbers) and predictions.row_index_loose is None:
                    predictions.row_index_loose = _loose_words(predictions, rows, field, numbers)
                continue
        if start is not None and (kind == "index" or len(rows) >= MIN_UNNAMED_LINES):
            src, i, named = predictions.source, place[1][0], predictions_arguments('id_field="NAME"')
            return (f"predictions ({src}) have no 'id' field, but their field {field!r} numbers their {len(rows)} "
                    f"lines from {start} to {start + len(rows) - 1} in another order than the lines' "
                    f"({src}:{predictions.lines[i]} has {field!r} {rows[i].get(field)!r}, but by its place is paired "
                    f"with item {i} of the data, {ids[i]!r}): the file looks keyed by a row index of the data in "
                    f"another order, and paired by line order each prediction would be scored against another "
                    f"item's references. If {field!r} numbers the data's items from {start}, sort the file's lines "
                    f"by {'its number' if affix else 'it'}; or write the items' ids in an 'id' field (or in another "
                    f"field, joined by it with {named}); if {field!r} does not number the items, remove it from the "
                    "file")
        if kind == "index":
            return numbering_message(predictions, ids, rows, field, numbers, affix, place)
        if predictions.row_index_doubt is None:
            predictions.row_index_doubt = numbering_message(predictions, ids, rows, field, numbers, affix, place,
                                                            warn=True)
    return None


def _loose_words(predictions, rows: list, field, numbers: list) -> Optional[str]:
    """The words the note of predictions paired by line order adds for ``field``, named as an index, numbering the
    lines loosely in their order (`zheval.adapters.duck.row_index.loose_in_order`: a repeat, a gap, a line without
    one): how many numbered lines are not on the line their number gives, the first (FILE:LINE, its value, the item
    its number gives and the item its place pairs it with); ``None`` when every numbered line is on its own."""
    place = loose_in_order(numbers)
    if place is None:
        return None
    (s, wrong), src = place, predictions.source
    i = wrong[0]
    return (f"their field {field!r} numbers the lines in their order, but loosely: numbering the items from {s}, "
            f"{len(wrong)} of its numbered lines are not on the line their number gives (first: "
            f"{src}:{predictions.lines[i]} has {field!r} {rows[i].get(field)!r}, item {numbers[i] - s}'s number, "
            f"but by its place is paired with item {i}): if {field!r} numbers the data's items, write the items' "
            f"ids in an 'id' field, or give each line the number of its place")


def field_words(predictions) -> str:
    """How the note of predictions paired by line order says they lack ids: ``"have no ids"`` when their file
    (if any) has no field besides the prediction and the stored ones, else ``"have no 'id' field"`` (another field
    may be an id, or number the lines: never called "no ids")."""
    fields = (getattr(predictions, "other_fields", None) or getattr(predictions, "id_like_field", None)
              or getattr(predictions, "row_index_field", None))
    return "have no 'id' field" if fields else "have no ids"


def id_like_warning(predictions, which: str = "") -> Optional[str]:
    """The warning of predictions paired by line order whose field ``id_like_field`` holds the data's ids in the
    data's order (`id_like_check`): the pairing is right, but no id was checked; or, without one, whose field holds
    them in the data's order on most lines but none on some (``id_like_gaps``); ``None`` otherwise."""
    field = getattr(predictions, "id_like_field", None)
    if not getattr(predictions, "paired_by_order", False):
        return None
    gaps = getattr(predictions, "id_like_gaps", None)
    if not field:
        return f"{which}{gaps}" if gaps else None
    return (f"{which}the predictions ({predictions.source}) have no 'id' field and were paired with the items by line "
            f"order, but their field {field!r} holds the items' ids (in the data's order, so each prediction is "
            f"paired with its id): join them by that field, so that the ids are checked, with "
            f"{predictions_arguments(f'id_field={field!r}')}")


def shared_id_field(base, other) -> Optional[str]:
    """For ``zheval compare`` of two records files without ids whose rows, paired in order, have other references
    (`zheval.adapters.records_compare.same_items`): the hint (the library's words, ``id_field='qid'``) when a field
    both files carry (not a prediction, reference or group field) holds ids — in ``base`` a valid id on every row
    (`zheval.io.fields.id_value`), each once — that ``other``'s values of it match on a large share of its rows
    (`id_like_matches`) in another order; else ``None``."""
    rows = _rows_of(base)
    if not rows or len(other) != len(base):
        return None
    used = {base.fields.get("pred"), *base.fields.get("ref", ()), *base.fields.get("groups", ())}
    for field in (f for f in rows[0] if f not in used):
        ids = [id_value(row.get(field), str(field)) for row in rows]
        if any(bad for _, bad in ids) or len({i for i, _ in ids}) != len(ids):
            continue
        for f, matched, _ in id_like_matches(other, [i for i, _ in ids]):
            if f == field and any(k != i for i, k in matched.items()):
                return (f"both files have the field {field!r}, whose values match on {len(matched)} of "
                        f"{len(rows)} rows in another order: if it holds the items' ids, join the rows by it with "
                        f"id_field={field!r}")
    return None
