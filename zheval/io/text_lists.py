"""The one rule for what cannot stand for a list of texts at a library door: a mapping, a set, a table.

Every public function that takes predictions or references (``score``, ``compute_*``, ``explain``, ``explain_items``,
``diversity``, the judge and BERTScore, the three-layer agreement, the 小黄鸭 doors ``evaluate_predictions``,
``compare_predictions``, ``review_sample`` ...) refuses, with the same `TypeError` naming the parameter:

* a **table** (a pandas DataFrame or alike: ``columns`` and ``iloc``; pandas is not imported): iterating it gives
  its column *names*, which would be scored as texts. The remedy names one of its columns:
  ``predictions=df['pred'].tolist()``;
* a **mapping** (``dict``): iterating it gives its keys;
* a **set**: unordered, so the first reference and tie-breaks would change from run to run.

A pandas **Series** of strings is a sequence of texts and is accepted everywhere (paired by position; two Series
with different indexes are refused by `zheval.compute.inputs.validate_inputs`).
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import Any, Optional

__all__ = ["unordered_why", "is_table", "table_why", "check_text_list"]


def unordered_why(x: Any) -> Optional[str]:
    """Why ``x`` cannot stand for a list of texts -- a mapping (iterating it gives its *keys*) or a set (its order
    changes from run to run with string hashing, so "first reference" and tie-breaks would not reproduce) -- or
    ``None``."""
    if isinstance(x, Mapping):
        return (f"a {type(x).__name__} (a mapping: iterating it would score its keys, "
                f"{list(x)[:3]!r}{'...' if len(x) > 3 else ''}, as texts)")
    if isinstance(x, AbstractSet):
        return f"a {type(x).__name__} (unordered: the order of its texts would change from run to run); pass a list"
    return None


def is_table(x: Any) -> bool:
    """Whether ``x`` is a table (pandas DataFrame or alike: it has ``columns`` and ``iloc``)."""
    return hasattr(x, "columns") and hasattr(x, "iloc")


def table_why(x: Any, name: str, remedy: Optional[str] = None) -> Optional[str]:
    """Why ``x`` -- a table (pandas DataFrame or alike) -- cannot stand for the parameter ``name``: iterating a
    DataFrame gives its column *names*, which would be scored as texts; or ``None`` when ``x`` is no table.
    ``remedy``: what to pass instead (default: one column's values, ``name=df['<first column>'].tolist()``, and for
    ``references`` several reference columns as one list per item)."""
    if not is_table(x):
        return None
    cols = list(x.columns)
    first = cols[0] if cols else "col"
    if remedy is None:
        remedy = f"pass one column's values, {name}=df[{first!r}].tolist()"
        if name == "references" and len(cols) > 1:
            remedy += (f", or several reference columns as one list per item, "
                       f"references=df[{cols[:3]!r}].values.tolist()")
    return (f"a {type(x).__name__} (a table: iterating it would score its column names, "
            f"{cols[:3]!r}{'...' if len(cols) > 3 else ''}, as texts); {remedy}")


def check_text_list(value: Any, name: str, what: str = "a list with one entry per item",
                    remedy: Optional[str] = None) -> None:
    """Refuse ``value`` for the parameter ``name`` when it is a table, a mapping or a set (module docstring).

    Args:
        value: what the caller passed. name: the parameter's name as the caller typed it (``"predictions"``,
            ``"predictions_b"``, ``"references"``). what: what the parameter must be, for the message.
        remedy: what to pass instead of a table (default: `table_why`'s).

    Raises:
        TypeError: ``"{name} must be {what}, not a DataFrame (a table: ...); pass one column's values, ..."``.
    """
    why = unordered_why(value) or table_why(value, name, remedy)
    if why is not None:
        raise TypeError(f"{name} must be {what}, not {why}")
