"""``zheval compare`` of records files (predictions files that carry their references,
[`read_records`][zheval.adapters.records.read_records]): the other systems' files checked to hold the first file's
items and references (`same_items`: by id, else row by row; each difference named ``file:line``), and the group
values that differ from the first file's noted (`group_differences`: the groups scored are the first file's); every
file's predictions with the notes ``zheval score`` gives of its rows (`compared_predictions`)."""

from __future__ import annotations

from ..io import Problem
from ..text.terminal import terminal_text
from .duck.id_like import shared_id_field
from .duck.mismatch import id_hints
from .records import Records, RecordsFormatError, records_notes

__all__ = ["same_items", "group_differences", "compared_predictions", "reference_difference"]

_AROUND = 20  # characters shown on each side of the first difference of two references


def _shown(text: str, at: int) -> str:
    """``text`` around character ``at`` (``…`` where cut), escaped by the terminal rule, in single quotes."""
    lo, hi = max(0, at - _AROUND), at + _AROUND
    cut = ("…" if lo else "") + text[lo:hi] + ("…" if hi < len(text) else "")
    return "'" + terminal_text(cut, one_line=True) + "'"


def reference_difference(refs, base_refs) -> str:
    """The first difference between two lists of reference strings, for ``zheval compare``'s message: their
    counts when they differ, else the first reference that differs, both texts shown (escaped by the terminal rule,
    `zheval.text.terminal.terminal_text` with ``one_line``; cut to 20 characters around the first differing
    character, ``…`` where cut) with that character's 1-based position. Raises nothing."""
    refs, base_refs = [str(r) for r in refs], [str(r) for r in base_refs]
    if len(refs) != len(base_refs):
        return f"{len(refs)} reference(s) here, {len(base_refs)} there"
    j = next(j for j, (a, b) in enumerate(zip(refs, base_refs)) if a != b)
    a, b = refs[j], base_refs[j]
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    which = f"reference {j + 1} " if len(refs) > 1 else "the reference "
    return f"{which}here is {_shown(a, at)}, there {_shown(b, at)}: they first differ at character {at + 1}"


def compared_predictions(records: list) -> list:
    """The predictions of ``zheval compare``'s records files (``records``: two or more `Records`, the first one's
    items, references and groups compared): the first file's own (`Records.as_predictions`), then each other
    file's for the first one's items (`same_items`). Each carries, as its ``notes``, the notes ``zheval score``
    gives of that file's rows (`zheval.adapters.records.records_notes`: reference cells left empty, quoted cells
    over several lines) before those of `same_items`; the comparison's report gives them per system.

    Raises:
        RecordsFormatError: what `same_items` raises."""
    preds = [records[0].as_predictions()] + [same_items(records[0], r) for r in records[1:]]
    for p, r in zip(preds, records):
        p.notes = records_notes(r) + list(p.notes)
    return preds


def same_items(base: Records, other: Records):
    """``other``'s predictions for the items of ``base`` (``zheval compare`` of records files: the first file's items
    and references are the comparison's): the same items -- by id when both files have an id field, else row by
    row -- with the same references (in the same order).

    Args:
        base: the first system's records (its items, references and groups are scored). other: another system's.

    Returns:
        A `zheval.adapters.duck.predictions.Predictions` of ``other``'s rows with ``base``'s ids, for
        ``base.dataset()``.

    Raises:
        RecordsFormatError: every difference, each named ``file:line`` of ``other`` (and the line of ``base`` it
            differs from): an id only one file has, references that differ, a different number of rows, an id field
            in one file only.
    """
    from .duck.predictions import Predictions

    problems = []
    ided = bool(base.fields.get("id")), bool(other.fields.get("id"))
    if ided[0] != ided[1]:
        problems.append(Problem(other.source, 0, None, f"{'has' if ided[1] else 'has no'} id field but "
                                f"{base.source} {'has none' if ided[1] else 'has one'}: give both files an id "
                                "field (id_field=\"NAME\") or neither (then the rows are paired in order)"))
    elif ided[0]:
        where = {rid: k for k, rid in enumerate(base.ids)}
        for rid, ln, refs in zip(other.ids, other.lines, other.references):
            k = where.get(rid)
            if k is None:
                problems.append(Problem(other.source, ln, rid, f"no item with this id in {base.source}"))
            elif list(refs) != list(base.references[k]):
                problems.append(Problem(other.source, ln, rid, f"its references differ from those of "
                                        f"{base.source}:{base.lines[k]} ({reference_difference(refs, base.references[k])}; "
                                        "the systems must be compared on the same references)"))
        theirs = set(other.ids)
        missing = [rid for rid in base.ids if rid not in theirs]
        if missing:
            problems.append(Problem(other.source, 0, None, f"{len(missing)} item(s) of {base.source} have no row "
                                    f"here (ids {', '.join(repr(m) for m in missing[:5])}"
                                    f"{' …' if len(missing) > 5 else ''})"))
        extra = [rid for rid in other.ids if rid not in where]
        problems += [Problem(other.source, 0, None, hint)
                     for hint in id_hints(missing, extra, str(base.source), str(other.source))]
    elif len(other) != len(base):
        problems.append(Problem(other.source, 0, None, f"has {len(other)} rows but {base.source} has {len(base)}: "
                                "without ids the rows of the systems are paired in order"))
    else:
        problems += [Problem(other.source, ln, None, f"its references differ from those of {base.source}:{bl} "
                             f"({reference_difference(refs, brefs)}; without ids the rows are paired in order; the "
                             "systems must be compared on the same references)")
                     for ln, refs, bl, brefs in zip(other.lines, other.references, base.lines, base.references)
                     if list(refs) != list(brefs)]
        hint = shared_id_field(base, other) if problems else None  # both carry 'qid': name --id-field qid
        problems += [Problem(other.source, 0, None, hint)] if hint else []
    if problems:
        raise RecordsFormatError(problems, f"{other.source} does not hold the items of {base.source}")
    return Predictions(texts=list(other.predictions), ids=list(other.ids if ided[0] else base.ids),
                       lines=list(other.lines), source=other.source, kind=other.kind,
                       notes=group_differences(base, other))


def group_differences(base: Records, other: Records) -> list:
    """One note per group field whose value differs between ``other`` and ``base`` on some item (paired as
    `same_items` pairs them: by id, else row by row): how many of ``other``'s items, the first named by both
    ``file:line`` with both values; the groups scored are ``base``'s (issue 35 F7: ``zheval compare`` used the first
    file's values and said nothing)."""
    where = {rid: k for k, rid in enumerate(base.ids)} if base.fields.get("id") else None
    notes = []
    for g, values in other.groups.items():
        mine = base.groups.get(g)
        pairs = [(j, j if where is None else where[rid]) for j, rid in enumerate(other.ids)]
        diff = [(j, k) for j, k in pairs if mine is not None and values[j] != mine[k]]
        if diff:
            j, k = diff[0]
            shown = ["null" if v is None else repr(v) for v in (values[j], mine[k])]  # repr: controls escaped
            notes.append(f"{len(diff)} of {len(values)} item(s) have another {g!r} in {other.source} than in "
                         f"{base.source} (first: {other.source}:{other.lines[j]} has {shown[0]}, {base.source}:"
                         f"{base.lines[k]} has {shown[1]}): the groups are {base.source}'s values")
    return notes
