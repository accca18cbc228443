"""The engine doors' own checks, free of both engines:

* the door's parameters that are not scoring options, on the driver before any work (`check_door_args`:
  ``batch_size``, ``per_item``, ``gather_items``; the scoring options' numbers -- ``bootstrap``, ``seed``,
  ``max_refs``, ``confidence`` ... -- are checked once, by `zheval.compute.options`, for every door);
* the group column's values: a nested column type (a list, a struct, a map) is refused on the driver from the
  schema (`refuse_nested_group`); on the workers each batch's values are checked (`group_value_problem`: a value
  that is not hashable, NaN) and their kinds recorded (`group_kind`), and a column whose values are of more than
  one kind (``0`` beside ``"0"``, ``1`` beside ``True``: possible in a Ray column of Python objects or in blocks of
  different types) is refused naming the first row of another kind (`kind_change`). The CLI's ``--group-field``
  reads an integer as its decimal text, so ``0`` and ``"0"`` are one group there; an engine keeps a column's values
  as they are (an integer column gives integer keys), so a column that mixes kinds is refused rather than split
  into groups the CLI would merge.
* the id column's values follow the rules of `zheval.compute.batch_checks` (those of ``zheval.score_batches``): the
  CLI's id rule on the workers (`id_problem`); one kind of id (`first_id_kinds` on the workers, a few values a
  batch; `IdKinds` on the driver names the first row of another kind with `MIXED_IDS`); unique by the id's text form
  (`id_text`: ``7`` and ``"7"`` are one id), which the doors check where the data lives (Ray groups the text forms,
  Spark's typed column holds one kind, so its values are unique exactly when their texts are) and report with
  `duplicate_id_message`.
"""

from __future__ import annotations

import numbers
from typing import Any, Dict, Optional, Sequence, Tuple

from ..compute.batch_checks import MIXED_IDS, group_kind, id_kind, id_text
from ..io.fields import group_spaces_problem

__all__ = ["check_door_args", "refuse_nested_group", "group_kind", "group_value_problem", "kind_change", "id_problem",
           "id_text", "first_id_kinds", "IdKinds", "duplicate_id_message"]

#: What to do with a group column the engines cannot use as it is (the end of every group-value message).
_CAST = ("cast the column to one scalar type first (Spark: df.withColumn(name, df[name].cast('string')); Ray: "
         "map_batches), e.g. to strings, as read_records reads a group field (an integer as its decimal text: 0 and "
         "'0' are one group '0' there)")


def check_door_args(engine: str, *, per_item: Any, gather_items: Any, **batch_size: Any) -> None:
    """Refuse a door argument of the wrong kind with one line naming it, before the engine sees it.

    Args:
        engine: the door's name (the message's first words).
        per_item, gather_items: must be ``True`` or ``False`` (a string ``"False"`` would be read as true).
        batch_size: given only by the Ray door (``batch_size=...``): a positive ``int`` (rows per ``map_batches``
            batch) or ``None`` (one batch per block); ``0``, a negative number, a float or a bool is refused here
            rather than inside Ray.

    Raises:
        TypeError: a flag that is not a bool; a ``batch_size`` that is not an int or ``None`` (a bool included).
        ValueError: a ``batch_size`` below 1.
    """
    for name, value in (("per_item", per_item), ("gather_items", gather_items)):
        if not isinstance(value, bool):
            raise TypeError(f"{engine}: {name} must be True or False, got {type(value).__name__} {value!r}")
    if "batch_size" not in batch_size:
        return
    size = batch_size["batch_size"]
    if size is None:
        return
    what = "batch_size must be a positive int (rows per map_batches batch) or None (one batch per block)"
    if isinstance(size, bool) or not isinstance(size, int):
        raise TypeError(f"{engine}: {what}, got {type(size).__name__} {size!r}")
    if size < 1:
        raise ValueError(f"{engine}: {what}, got {size!r}")


def refuse_nested_group(engine: str, column: str, type_text: Optional[str]) -> None:
    """Raise ``TypeError`` when the group column's type (``type_text``, the engine's name for it, given only when it
    is nested: ``array<string>``, ``list<item: int64>``, a struct, a map) cannot name a group."""
    if type_text is not None:
        raise TypeError(f"{engine}: the group column {column!r} is {type_text}: a list, a struct or a map cannot "
                        f"name a group (a group value is a scalar: a string, a number, a bool, a date ...); {_CAST}")


def group_value_problem(values: Sequence[Any], column: str) -> Optional[Tuple[int, str, str]]:
    """``(row in the batch, exception type name, message)`` of the first value of ``values`` that cannot name a
    group (runs on a worker): one that is not hashable (a list, a dict: a Ray column of Python objects) or NaN
    (NaN != NaN: each would be a group of its own) or a string with spaces around it
    (`zheval.io.fields.group_spaces_problem`); ``None`` when every value can (nulls are a group of their own).
    """
    for i, v in enumerate(values):
        if v is None:
            continue
        try:
            hash(v)
        except TypeError:
            return i, "TypeError", (f"the group column {column!r} holds {type(v).__name__} {v!r}, which cannot name "
                                    f"a group (a group value is a scalar: a string, a number, a bool, a date ...); {_CAST}")
        if isinstance(v, numbers.Real) and v != v:
            return i, "ValueError", (f"the group column {column!r} holds NaN, which cannot name a group (NaN != NaN: "
                                     "each would be a group of its own); use null for no group, or fill it")
        spaced = group_spaces_problem(v, column)
        if spaced:
            return i, "ValueError", spaced
    return None


def kind_change(values: Sequence[Any], column: str) -> Optional[Tuple[int, str]]:
    """``(row, message)`` of the first non-null value of ``values`` whose `group_kind` differs from the first
    non-null value's, else ``None`` (runs on the driver over the gathered groups)."""
    first = None
    for i, v in enumerate(values):
        if v is None:
            continue
        if first is None:
            first = (i, v, group_kind(v))
        elif group_kind(v) != first[2]:
            return i, (f"the group column {column!r} holds {group_kind(v)} {v!r} here and {first[2]} {first[1]!r} "
                       f"at row {first[0]}: a group column holds one kind of value, so that no two values are one group "
                       f"in one door and two in another; {_CAST}")
    return None


def id_problem(values: Sequence[Any], column: str) -> Optional[Tuple[int, str, str]]:
    """``(row in the batch, exception type name, message)`` of the first id of ``values`` that the CLI's id rule
    (`zheval.io.fields.id_value`: a non-empty string without spaces around it, or an integer) refuses -- a null
    among them -- else ``None`` (runs on a worker)."""
    from ..io.fields import id_value

    for i, v in enumerate(values):
        err = id_value(v, column)[1]
        if err:
            return i, "ValueError", err
    return None


def first_id_kinds(values: Sequence[Any]) -> Dict[str, Tuple[int, Any]]:
    """``{kind: (row in the batch, value)}``: the first id of each kind (`zheval.compute.batch_checks.id_kind`)
    among the values the id rule accepts (runs on a worker: at most two entries a batch, never the ids)."""
    out: Dict[str, Tuple[int, Any]] = {}
    for i, v in enumerate(values):
        if id_text(v) is not None:
            out.setdefault(id_kind(v), (i, v))
            if len(out) == 2:
                break
    return out


class IdKinds:
    """The id kinds of the batches, fed in row order on the driver (`first_id_kinds` of each batch and its first
    row): ``change`` is ``None`` or ``(row, message)`` naming the first row whose id is of another kind than the
    first id's, with `MIXED_IDS`."""

    def __init__(self, column: str) -> None:
        self.column = column
        self.first: Optional[Tuple[int, Any]] = None
        self.change: Optional[Tuple[int, str]] = None

    def add(self, offset: int, kinds: Dict[str, Tuple[int, Any]]) -> None:
        """Feed one batch's `first_id_kinds` (its first row is row ``offset`` of the data)."""
        for i, v in sorted(kinds.values(), key=lambda t: t[0]):
            if self.first is None:
                self.first = (offset + i, v)
            elif self.change is None and id_kind(v) != id_kind(self.first[1]):
                j, w = self.first
                self.change = (offset + i, f"the id column {self.column!r} holds {id_kind(v)} {v!r} here and "
                                           f"{id_kind(w)} {w!r} at row {j}: {MIXED_IDS}")


def duplicate_id_message(column: str, value: Any, count: int, rows: Sequence[int], more: int,
                         values: Sequence[Any] = ()) -> str:
    """The message of a duplicated id: the value (or its text form, `id_text`), how many rows have it, the first of
    them (``rows``, in the data's order) and how many other ids are duplicated (``more``); ``values``, the values of
    those rows as the data holds them: the one value they share is named, or each when they differ (``7`` and
    ``"7"``: one id under zheval's id rule)."""
    where = " and ".join(f"row {r}" for r in rows)
    others = f"; {more} more id(s) are duplicated too" if more else ""
    raw = ""
    if len({repr(v) for v in values}) == 1:
        value = values[0]  # the value as the rows hold it (an integer column's 7, not its text '7')
    elif values:
        raw = (" (" + ", ".join(f"row {r} holds {type(v).__name__} {v!r}" for r, v in zip(rows, values))
               + ": one id under zheval's id rule, which reads an integer as its decimal text)")
    return (f"duplicate id {value!r} in the id column {column!r}{raw}: {count} rows have it ({where} first){others}; "
            f"an id names one row (in messages, and in the Poisson bootstrap's keys), so each value of the id column "
            f"(id_column={column!r}) must be unique")
