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
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from ...io import FileFormatError, id_value, predictions_arguments, read_rows

__all__ = ["id_like_fields", "id_like_check", "id_like_warning"]

_FIELD_FORMATS = ("jsonl", "csv", "tsv", "parquet")


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


def id_like_fields(predictions, ids: list) -> list:
    """``[(field, the id on each prediction's line)]`` of the fields of ``predictions``' file (a
    `zheval.adapters.duck.predictions.Predictions` read from JSONL, CSV, TSV or Parquet) whose values are exactly
    the data's ``ids``: a valid id on every line (`zheval.io.fields.id_value`), each of ``ids`` once; in the file's
    field order. ``[]`` for predictions from memory or a plain-text file."""
    rows = _rows_of(predictions) if len(predictions) == len(ids) else None
    if not rows:
        return []
    wanted = set(ids)
    if len(wanted) != len(ids):
        return []
    found = []
    for field in rows[0]:
        values = []
        for row in rows:
            rid, bad = id_value(row.get(field), str(field))
            if bad or rid not in wanted:
                break
            values.append(rid)
        if len(values) == len(ids) and len(set(values)) == len(ids):
            found.append((field, values))
    return found


def id_like_check(predictions, ids: list) -> Optional[str]:
    """For predictions without ids about to be paired with the items ``ids`` by line order: the refusal (the
    library's words; the command line writes ``--id-field NAME``) when a field of theirs holds the data's ids in
    another order (`id_like_fields`), else ``None``; a field holding them in the data's order is kept as
    ``predictions.id_like_field`` (for `id_like_warning`)."""
    found = id_like_fields(predictions, ids)
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
    predictions.id_like_field = found[0][0] if found else None
    return None


def id_like_warning(predictions, which: str = "") -> Optional[str]:
    """The warning of predictions paired by line order whose field ``id_like_field`` holds the data's ids in the
    data's order (`id_like_check`): the pairing is right, but no id was checked; ``None`` otherwise."""
    field = getattr(predictions, "id_like_field", None)
    if not field or not getattr(predictions, "paired_by_order", False):
        return None
    return (f"{which}the predictions ({predictions.source}) have no 'id' field and were paired with the items by line "
            f"order, but their field {field!r} holds the items' ids (in the data's order, so each prediction is "
            f"paired with its id): join them by that field, so that the ids are checked, with "
            f"{predictions_arguments(f'id_field={field!r}')}")
