"""The group and id rules of [`score_batches`][zheval.compute.batches.score_batches], the rules of the engine doors
(`zheval.adapters.engine_checks`) and of the CLI's ``--id-field`` (`zheval.io.fields.id_value`), applied batch by
batch with every value named by its item index over all batches (``groups[12345]``, ``ids[12345]``):

* ``groups`` and ``ids`` are one value per item: a ``str`` (or ``bytes``) given for either is refused (by the batch's
  unpacking, `zheval.compute.batches`), as a ``str`` given for ``predictions`` is (one value per character);
* a group value is hashable, not NaN (NaN != NaN: each NaN would be a group of its own) and not a string with spaces
  around it (`zheval.io.fields.group_spaces_problem`: ``"x "`` beside ``"x"``, two groups shown alike), and every
  non-null group value is of one kind (`group_kind`: ``1`` beside ``True`` or ``1.0`` would merge into one group, ``0`` beside
  ``"0"`` would be two groups where the CLI has one); ``None`` is the group of items without one;
* an id follows the CLI's id rule (a non-empty string without spaces around it, or an integer; never ``None``, a
  bool or ``7.0``), every id is of one kind (`id_kind`: all strings or all integers, `MIXED_IDS`), ids are unique
  over all batches by their text form (`id_text`: ``7`` and ``"7"`` are one id, as for the CLI and as the Poisson
  bootstrap keys them, `zheval.results.poisson.item_keys`; a repeat names both items), and either every batch gives
  ids or none does.

Memory: the duplicate-id check keeps a 128-bit BLAKE2b key and the item index of every id seen (24 bytes an id,
`zheval.results.sorted_keys.SortedKeys`); a batch's own ids are compared in a dict of that batch only.
"""

from __future__ import annotations

import hashlib
import numbers
from typing import Any, Optional, Sequence

import numpy as np

from ..io.fields import group_spaces_problem, id_value
from ..results.sorted_keys import SortedKeys, unique_rows

__all__ = ["group_kind", "id_kind", "id_text", "MIXED_IDS", "BatchRules"]

#: Why ids of two kinds are refused (the end of the message of every door that refuses them).
MIXED_IDS = ("the ids are all strings or all integers (a mix is most often ids read two ways, and 7 beside '7' is one "
             "id written two ways in messages and the per-item file); convert them to one type first, e.g. str")


def group_kind(value: Any) -> str:
    """The kind of a non-null group value: ``bool``, ``int`` (any integral number), ``float`` (any other real
    number), ``str``, else the type's name (``date``, ``Decimal``, ``bytes``, ``tuple`` ...)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, numbers.Integral):
        return "int"
    if isinstance(value, numbers.Real):
        return "float"
    return "str" if isinstance(value, str) else type(value).__name__


def id_kind(value: Any) -> str:
    """The kind of an id the CLI's id rule accepts (`zheval.io.fields.id_value`): ``"int"`` for an integer (a numpy
    integer too), ``"str"`` for a string."""
    return "int" if isinstance(value, numbers.Integral) else "str"


def id_text(value: Any) -> Optional[str]:
    """An id's text form under the CLI's id rule (`zheval.io.fields.id_value`): a string as it is, an integer (a
    numpy integer too) as its decimal text (``7`` -> ``"7"``); ``None`` for a value the rule refuses (``None``, a
    bool, ``7.0``, a blank string ...). Two ids are one id when their text forms are equal."""
    return id_value(_plain(value), "id")[0]


def _plain(v):
    return v.item() if isinstance(v, np.generic) else v


def _id_key(rid: str) -> tuple:
    d = hashlib.blake2b(rid.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    return int.from_bytes(d[:8], "little"), int.from_bytes(d[8:], "little")


class BatchRules:
    """The rules of the module docstring over the batches of one run, in order.

    Args:
        what: the door's name, the first words of every message (``"score_batches"``).
        unique_ids: the caller has already refused duplicate ids (``zheval score --stream``: ``file:line``), so
            no id is kept here.
    """

    def __init__(self, what: str = "score_batches", *, unique_ids: bool = False) -> None:
        self.what = what
        self.group_first: Optional[tuple] = None  # (item, value, kind) of the first non-null group value
        self.id_first: Optional[tuple] = None  # (item, value, kind) of the first id
        self.has_ids: Optional[bool] = None  # whether the first batch with items gave ids
        self.seen = None if unique_ids else SortedKeys(2, {"item": np.int64})

    def check(self, index: int, offset: int, n: int, groups, ids) -> tuple:
        """Check batch ``index`` (its first item is item ``offset`` over all batches, ``n`` items) before it is
        scored; the ids are remembered only when every check passed.

        Returns:
            ``(groups, ids)`` as lists (or ``None``), a numpy scalar (from an array or a pandas column) as the
            Python value it holds (``np.int64(7)`` -> ``7``: the same id, key and JSON value as ``7``).

        Raises:
            TypeError: a group value that is not hashable (a ``str`` given for ``groups`` or ``ids`` is refused by
                the caller, `zheval.compute.batches`, before their lengths are compared).
            ValueError: a NaN group; a group string with spaces around it; a group or id of another kind than the
                first (both items named); an id the id
                rule refuses; a duplicate id (both items named); ids in some batches and not in others.
        """
        groups = None if groups is None else [_plain(v) for v in groups]
        ids = None if ids is None else [_plain(v) for v in ids]
        if groups is not None:
            self._groups(offset, groups)
        given = ids is not None
        if self.has_ids is None:
            self.has_ids = given
        elif given != self.has_ids:
            which = "gives ids and the batches before it do not" if given else "gives no ids and the batches before it do"
            raise ValueError(f"{self.what}: batch {index} (items {offset}..{offset + n - 1}) {which}: either every "
                             "batch gives one id per item or none does (an id is part of each item's Poisson key "
                             "and of the per-item file)")
        if given:
            self._ids(offset, ids)
        return groups, ids

    def _groups(self, offset: int, groups) -> None:
        for i, v in enumerate(groups):
            if v is None:
                continue
            at = f"groups[{offset + i}]"
            try:
                hash(v)
            except TypeError:
                raise TypeError(f"{self.what}: {at} is {type(v).__name__} {v!r}, which cannot name a group (a group "
                                "value is a scalar: a string, a number, a bool, a date ...)") from None
            if isinstance(v, numbers.Real) and v != v:
                raise ValueError(f"{self.what}: {at} is NaN, which cannot name a group (NaN != NaN: each would be a "
                                 "group of its own); use None for no group, or fill it")
            spaced = group_spaces_problem(v, "groups")
            if spaced:
                raise ValueError(f"{self.what}: {at}: {spaced}")
            kind = group_kind(v)
            if self.group_first is None:
                self.group_first = (offset + i, v, kind)
            elif kind != self.group_first[2]:
                j, w, k = self.group_first
                raise ValueError(f"{self.what}: {at} is {kind} {v!r} and groups[{j}] is {k} {w!r}: the groups hold "
                                 "one kind of value, so that no two values are one group in one door and two in "
                                 "another (1 and True, or 1 and 1.0, would merge; 0 and '0' are one group for the "
                                 "CLI); convert them to one type first, e.g. str")

    def _ids(self, offset: int, ids: list) -> None:
        texts = []
        for i, v in enumerate(ids):
            at = f"ids[{offset + i}]"
            rid, err = id_value(v, "ids")
            if err:
                raise ValueError(f"{self.what}: {at}: {err}")
            kind = id_kind(v)
            if self.id_first is None:
                self.id_first = (offset + i, v, kind)
            elif kind != self.id_first[2]:
                j, w, k = self.id_first
                raise ValueError(f"{self.what}: {at} is {kind} {v!r} and ids[{j}] is {k} {w!r}: {MIXED_IDS}")
            texts.append(rid)
        if self.seen is None:
            return
        first: dict = {}
        for i, rid in enumerate(texts):
            if rid in first:
                self._duplicate(ids[i], offset + first[rid], offset + i)
            first[rid] = i
        if not texts:
            return
        keys = np.array([_id_key(r) for r in texts], dtype=np.uint64).reshape(-1, 2)
        uniq, where, _ = unique_rows(keys)
        pos, found = self.seen.locate(uniq)
        if found.any():
            k = int(np.min(where[found]))
            at = np.flatnonzero((uniq == keys[k]).all(axis=1))[0]
            self._duplicate(ids[k], int(self.seen.payload["item"][pos[at]]), offset + k)
        self.seen.insert(pos[~found], uniq[~found], {"item": (where[~found] + offset).astype(np.int64)})

    def _duplicate(self, value, first: int, again: int) -> None:
        raise ValueError(f"{self.what}: duplicate id {value!r}: ids[{again}] repeats ids[{first}]; an id names one "
                         "item (in messages, the per-item file and the Poisson bootstrap's keys), so each must be "
                         "unique")
