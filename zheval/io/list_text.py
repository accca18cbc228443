"""The one rule for a reference that is a list written as text in a file: scored as written, never silently.

A reference read from a file — a JSONL/Parquet string, a CSV/TSV cell, a 小黄鸭 ``responses`` entry — that starts
with ``[`` and ends with ``]`` (spaces around it aside) and parses as a list of strings, as JSON
(``["北京", "上海"]``) or as a Python literal (``['北京', '上海']``, what pandas' ``to_csv`` writes for a cell holding a
list), is a list written as text (`list_text`). It is scored as written, one text with its brackets and quotes: a
model trained on such answers replies in the same form, and that is what its users score. The reader counts them and
says so once per file (`list_text_message`, a warning of the reading door), with the remedy when they are meant as
several references (`LIST_TEXT_REMEDY`, `RESPONSES_REMEDY`).
Anything else in brackets is text: ``[图片]``, ``[1]``, ``[注释] 见上``, ``[1, 2]`` (not strings). Only a text starting
with ``[`` is parsed, so the rule costs nothing on other texts. A prediction is never checked: a model's answer is
scored as written, whatever it looks like; so are texts passed from Python (``compute_bleu``, ``compute_rouge``).
"""

from __future__ import annotations

import ast
import json
from typing import Optional

__all__ = ["LIST_TEXT_REMEDY", "RESPONSES_REMEDY", "list_text", "list_text_message"]

LIST_TEXT_REMEDY = ("pandas' to_csv writes a list cell as its repr: write the lists as JSONL or Parquet arrays, or "
                    "one column per reference (ref_field=[\"ref1\", \"ref2\"])")
"""What the warning of a records file's references written as lists tells the user to do when they are meant as
several references (the command line writes ``ref_field=[...]`` as ``--ref-field ref1 --ref-field ref2``)."""

RESPONSES_REMEDY = "write each reference as its own entry of the 'responses' list"
"""The remedy said for 小黄鸭 ``responses`` entries that are themselves lists written as text."""


def list_text(text) -> Optional[list]:
    """The strings of ``text`` when it is a list written as text (the module docstring has the rule): read as JSON,
    else as a Python literal, a list of strings; else ``None`` (any other value, of any type).

    Example: ``list_text("['北京', '上海']")`` → ``['北京', '上海']``; ``list_text("[图片]")`` → ``None``.
    """
    if not isinstance(text, str):
        return None
    s = text.strip()
    if not (s.startswith("[") and s.endswith("]")):
        return None
    for parse in (json.loads, ast.literal_eval):
        try:
            value = parse(s)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return value
        return None  # it parsed, as something else ([1, 2]): text
    return None


def list_text_message(count: int, rows: int, source: str, line: int, field: str,
                      remedy: str = LIST_TEXT_REMEDY) -> str:
    """The one warning of a file with ``count`` references in ``rows`` rows that are lists written as text, the
    first at ``source:line`` in ``field`` (``'references'``, ``references[1]``, ``responses[0]``): each is scored as
    one text, and ``remedy`` says what to write when they are meant as several references."""
    return (f"{source}: {count} reference(s) in {rows} row(s) are a list written as text (first at {source}:{line}, "
            f"{field}): each is scored as ONE text, brackets and quotes included; if they are meant as several "
            f"references, {remedy}")
