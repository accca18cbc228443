"""The engine doors' own checks, made on the driver before any work is sent, free of both engines: the door's
parameters that are not scoring options (`check_door_args`: ``batch_size``, ``per_item``, ``gather_items``; the
scoring options' numbers -- ``bootstrap``, ``seed``, ``max_refs``, ``confidence`` ... -- are checked once, by
`zheval.compute.options`, for every door).
"""

from __future__ import annotations

from typing import Any

__all__ = ["check_door_args"]


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
