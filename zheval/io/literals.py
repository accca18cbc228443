"""A protected term (``terms=``, ``--terms``) written as a literal of JSON or Python instead of as the term: a
string in quotes (``"快递柜"``, ``'快递柜'``), a list (``['快递柜']``, ``["a", 'b']``), a set or a dict. Read as a
term, its quotes and brackets would be part of it, and it would never match a text. One rule for ``terms=`` of
every tokenizer (`zheval.tokenizers.char.normalize_terms`, a ``ValueError`` naming ``terms[i]``) and the lines of a
``--terms`` file (`zheval.cli.terms_file.read_terms`, naming ``FILE:line``); in `zheval.io`, which both may import.
A term that only starts like one (``[UNK]``, ``{name}``, ``"快递柜" 和 "小黄鸭"``, ``'s``) is a term.
"""

from __future__ import annotations

import ast
import json
from typing import Optional

__all__ = ["term_literal", "literal_items", "literal_why", "instead_of_literal"]

_OPENERS = ('"', "'", "[", "{")
_MAX_LENGTH = 10_000  # longer text is not parsed as a Python literal (a term is short; ast would hold it all)


def term_literal(term: str) -> Optional[tuple]:
    """``(what it is, its value)`` when ``term`` (spaces around it aside) is a whole literal: a JSON string, list or
    object (``("a JSON string", "快递柜")``), else a Python string, list, set or dict (``("a Python list",
    ["快递柜"])``; ``["a", 'b']`` is one); ``None`` for any other term (``[UNK]``, a number)."""
    s = term.strip()
    if not s.startswith(_OPENERS) or len(s) > _MAX_LENGTH:
        return None
    try:
        value = json.loads(s)
    except (ValueError, RecursionError):
        pass
    else:
        kind = {str: "string", list: "list", dict: "object"}.get(type(value))
        return (f"a JSON {kind}", value) if kind else None
    try:
        value = ast.literal_eval(s)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    kind = {str: "string", list: "list", tuple: "tuple", set: "set", dict: "dict"}.get(type(value))
    return (f"a Python {kind}", value) if kind else None


def literal_items(value) -> Optional[list]:
    """The terms a literal of `term_literal` holds when all are strings: the string itself, the items of a list,
    tuple or set (a set sorted), the values of a dict; ``None`` when one is not a string."""
    if isinstance(value, str):
        items = [value]
    elif isinstance(value, dict):
        items = list(value.values())
    else:
        items = sorted(value, key=repr) if isinstance(value, set) else list(value)
    return items if all(isinstance(x, str) for x in items) else None


def literal_why(kind: str, term: str) -> str:
    """Why ``term``, a literal of `term_literal` of ``kind`` (``"a JSON string"``), is refused as a term."""
    quotes = "'" in term or '"' in term
    marks = "quotes" if kind.endswith("string") else "brackets and quotes" if quotes else "brackets"
    return f"read as a term, its {marks} would be part of it, and it would never match a text"


def instead_of_literal(value, file: bool) -> str:
    """What to write instead of the literal ``value`` (`term_literal`): in a ``--terms`` file (``file``) its terms
    each on a line of their own, for ``terms=`` the terms themselves."""
    items = literal_items(value)
    if items is not None:
        items = [x.strip() for x in items if x.strip()]
    if items == []:
        return "remove the line (it holds no term)" if file else "leave it out (it holds no term)"
    if items is None:
        return ("write each term on a line of its own, without quotes or brackets" if file
                else "pass each term as a string of its own, without quotes or brackets")
    if not file:
        return f"pass the term itself: {items[0]!r}" if len(items) == 1 else f"pass its items as terms: {items!r}"
    shown = ", ".join(items[:5]) + (f", … ({len(items) - 5} more)" if len(items) > 5 else "")
    return (f"write {shown} on a line of its own" if len(items) == 1
            else f"write {shown}, each on a line of its own")
