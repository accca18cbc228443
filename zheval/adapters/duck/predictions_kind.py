"""Which kind a predictions file read line by line is (`sniff_format`: JSONL or plain text), and the refusals of
a file read as the wrong kind ([`zheval.adapters.duck.predictions.read_predictions`][]): plain text that looks like
JSONL (`refuse_jsonl_as_text`), JSONL whose lines mostly are not JSON (`looks_like_text_problem`)."""

from __future__ import annotations

import json
from pathlib import Path

from ...io import JsonIntegerTooLong, JsonTooDeep, format_suffix, json_document_problem, parse_json_line
from .load import DuckFormatError, Problem

__all__ = ["JSONL_LOOKING_FRACTION", "nonblank_lines", "sniff_format", "refuse_jsonl_as_text",
           "looks_like_text_problem"]

JSONL_LOOKING_FRACTION = 0.5
"""A file read as plain text by ``format="auto"`` is refused when at least this fraction of its non-blank lines
parse as JSON objects (it is almost certainly JSONL with another extension); the same fraction of non-JSON lines
in a file read as JSONL adds the hint that it looks like plain text."""


def nonblank_lines(lines):
    """The ``(line number, text)`` lines whose text is not blank."""
    return ((lineno, text) for lineno, text in lines if text.strip())


def sniff_format(path: Path, lines) -> str:
    """``"jsonl"`` or ``"text"``: by the extension (``.jsonl``/``.json``, ``.txt``), else by the first non-blank
    line (a JSON object: JSONL)."""
    suffix = format_suffix(path)
    if suffix in (".jsonl", ".json"):
        return "jsonl"
    if suffix == ".txt":
        return "text"
    for _, text in nonblank_lines(lines):
        try:
            return "jsonl" if isinstance(parse_json_line(text)[0], dict) else "text"
        except (JsonIntegerTooLong, JsonTooDeep):  # JSON all the same: the JSONL reader names its line
            return "jsonl"
        except json.JSONDecodeError:
            return "text"
    return "text"


def _json_objects(lines) -> tuple[int, int, int | None]:
    """``(non-blank lines, lines that parse as a JSON object, line number of the first such line)``."""
    nonblank = objects = 0
    first = None
    for lineno, text in nonblank_lines(lines):
        nonblank += 1
        t = text.strip()
        if not (t.startswith("{") and t.endswith("}")):
            continue
        try:
            obj = parse_json_line(t)[0]
        except (JsonIntegerTooLong, JsonTooDeep):  # an integer longer, or nesting deeper, than Python reads
            obj = {}
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            objects += 1
            if first is None:
                first = lineno
    return nonblank, objects, first


def _looks_like_jsonl(path: Path, lines) -> Problem | None:
    nonblank, objects, first = _json_objects(lines)
    if nonblank and objects >= JSONL_LOOKING_FRACTION * nonblank:
        why = "its extension is .txt" if path.suffix.lower() == ".txt" else "its first non-blank line is not a JSON object"
        return Problem(
            str(path), first, None,
            f"this file looks like JSONL ({objects} of {nonblank} non-blank lines are JSON objects), but it would be "
            f"read as plain text because {why}: each whole JSON line would be scored as a prediction. Rename it "
            "to .jsonl or pass --predictions-format jsonl (format='jsonl'); if the lines really are the prediction "
            "texts, pass --predictions-format text (format='text')",
        )
    return None


def refuse_jsonl_as_text(path, lines: list, name: str) -> None:
    """Raise DuckFormatError when a file sniffed as text looks like JSONL or is one JSON document."""
    bad = _looks_like_jsonl(path, lines)
    if bad is None:
        doc = json_document_problem("\n".join(t for _, t in lines), name)
        if doc is not None:
            bad = Problem(name, 0, None, doc + "; or pass --predictions-format text (format='text') if the lines "
                          "really are the prediction texts")
    if bad is not None:
        raise DuckFormatError([bad], "predictions file read as the wrong kind")


def looks_like_text_problem(path, format: str, not_json: int, nonblank: int, first: int) -> Problem:
    """The problem of a file read as JSONL whose non-blank lines are mostly not JSON (``first``: the first one)."""
    if format != "auto":
        why = "format='jsonl' (--predictions-format jsonl) was given"
    elif path.suffix.lower() in (".jsonl", ".json"):
        why = f"its extension is {path.suffix}"
    else:
        why = "its first non-blank line is a JSON object"
    return Problem(str(path), first, None,
                   f"this file is read as JSONL because {why}, but {not_json} of {nonblank} non-blank lines are not "
                   "JSON: if it holds one prediction text per line, rename it to .txt or pass --predictions-format "
                   "text (format='text')")
