"""The one rule for a list written as text in a records field: refused, never scored as one text.

A reference (or a prediction) read from a file — a JSONL/Parquet string, a CSV/TSV cell, a 小黄鸭 ``responses``
entry — that starts with ``[`` and ends with ``]`` (spaces around it aside) and parses as a list of strings, as JSON
(``["猫趴在垫子上面", "猫在垫子上"]``) or as a Python literal (``['猫趴在垫子上面', '猫在垫子上']``, what pandas'
``to_csv`` writes for a cell holding a list), is a list written as text: scoring it as one text (brackets and quotes
included) gives a wrong number without a word. It is refused naming the field and the remedy (`LIST_TEXT_REMEDY`,
`PREDICTION_REMEDY`, `RESPONSES_REMEDY`).
Anything else in brackets is text: ``[图片]``, ``[1]``, ``[注释] 见上``, ``[1, 2]`` (not strings). Only a text starting
with ``[`` is parsed, so the rule costs nothing on other texts. Texts passed from Python (``compute_bleu``,
``compute_rouge``, the evaluate modules) are the caller's lists of strings and are never checked.
"""

from __future__ import annotations

import ast
import json
from typing import Optional

__all__ = ["LIST_TEXT_REMEDY", "PREDICTION_REMEDY", "RESPONSES_REMEDY", "list_text_problem"]

LIST_TEXT_REMEDY = ("pandas' to_csv writes lists as their repr — write JSONL or Parquet, or one column per reference: "
                    "--ref-field ref1 --ref-field ref2")
"""What the refusal of a reference written as a list in text tells the user to do instead."""

PREDICTION_REMEDY = ("a prediction is one text: write the text itself, not a list (pandas' to_csv writes a list cell "
                     "as its repr)")
"""The remedy said for a prediction written as a list in text."""

RESPONSES_REMEDY = "write each reference as its own entry of the 'responses' list"
"""The remedy said for a 小黄鸭 ``responses`` entry that is itself a list written as text."""


def _list_of_strings(text: str) -> Optional[list]:
    """``text`` read as JSON, else as a Python literal, when that is a list of strings; else ``None``."""
    for parse in (json.loads, ast.literal_eval):
        try:
            value = parse(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, list) and all(isinstance(s, str) for s in value):
            return value
        return None  # it parsed, as something else ([1, 2]): text
    return None


def list_text_problem(text, what: str, remedy: str = LIST_TEXT_REMEDY) -> Optional[str]:
    """The problem text of ``text`` (the value of ``what``, e.g. ``"'references'"``) when it is a list written as
    text (the module docstring has the rule), else ``None`` (any other value, of any type). ``remedy``: what the
    problem tells the user to do (`LIST_TEXT_REMEDY` for a reference field, `PREDICTION_REMEDY`, `RESPONSES_REMEDY`).

    Example: ``list_text_problem("['a', 'b']", "'references'")`` → ``"'references' is a list written as text
    (['a', 'b'], 2 strings): ..."``; ``list_text_problem("[图片]", "'references'")`` → ``None``.
    """
    if not isinstance(text, str):
        return None
    s = text.strip()
    if not (s.startswith("[") and s.endswith("]")):
        return None
    items = _list_of_strings(s)
    if items is None:
        return None
    shown = s if len(s) <= 60 else s[:57] + "..."
    return (f"{what} is a list written as text ({shown}, {len(items)} string(s)): it would be scored as one text, "
            f"brackets and quotes included; {remedy}")
