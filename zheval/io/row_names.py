"""The library's names of the rows of a call (``predictions[i]``, ``references[i][j]``: 0-based indices of the lists
it was given) rewritten in the words of the files they were read from (``FILE:line (id 'x', 'label')``): one
pattern and one substitution for the errors the command line relocates (`zheval.cli.located`) and the warnings a
report of file rows gives (`zheval.adapters.duck.inputs.prediction_checks`)."""

from __future__ import annotations

import re
from typing import Callable, Optional

__all__ = ["ROW_NAME", "renamed_rows", "place_text"]

#: A row of a library call as its messages name it: ``predictions[3]``, ``references[3][1]``.
ROW_NAME = re.compile(r"\b(predictions|references)\[(\d+)\](?:\[(\d+)\])?")


def place_text(path, line: int, rid=None, field: Optional[str] = None) -> Optional[str]:
    """``FILE:line (id 'x', field)`` (the id and field when known), or ``None`` when ``path`` is ``None``."""
    if path is None:
        return None
    return f"{path}:{line}" + (f" (id {rid!r}, {field})" if rid is not None and field else
                               f" (id {rid!r})" if rid is not None else f" ({field})" if field else "")


def renamed_rows(message: str, name: Callable[[str, int, int], Optional[str]]) -> Optional[str]:
    """``message`` with each row name (`ROW_NAME`) replaced by ``name(kind, i, j)`` (``kind``: ``"predictions"`` or
    ``"references"``; ``j`` 0 for a prediction); ``None`` when ``name`` returns ``None`` for one of them (the
    message is then best left as the library wrote it). A message naming no row is returned as it is."""
    unknown = []

    def sub(m) -> str:
        text = name(m.group(1), int(m.group(2)), int(m.group(3) or 0))
        if text is None:
            unknown.append(m.group(0))
            return m.group(0)
        return text

    renamed = ROW_NAME.sub(sub, message)
    return None if unknown else renamed
