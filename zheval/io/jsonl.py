"""JSON Lines: one JSON value per line, decoded strictly (`parse_json_line`: a key given twice is a
problem, not a silent last value), read into ``(line, object)`` rows (`jsonl_rows`), with one message for a
file that is one JSON document instead (`json_document_problem`).
"""

from __future__ import annotations

import json
from typing import Sequence

from .problems import Problem, type_name

__all__ = ["parse_json_line", "duplicate_key_problem", "json_error_message", "json_document_problem",
           "json_line_or_problem", "jsonl_rows", "jsonl_row", "json_like", "text_line_problem"]


def json_document_problem(text: str, path: str = "FILE") -> str | None:
    """One message when a file that failed as JSON Lines is one JSON document instead (an array of objects, or an
    object spread over several lines, e.g. ``json.dump(rows, f, indent=2)``), else ``None``: then every line would
    otherwise be reported as malformed."""
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    stem = path[:-5] if path.endswith(".json") else path
    if isinstance(doc, list):
        return (f"is one JSON array of {len(doc)} item(s), not JSON Lines (one JSON object per line): convert it, "
                f"e.g. jq -c '.[]' {path} > {stem}.jsonl")
    if isinstance(doc, dict) and text.strip().count("\n"):
        return (f"is one JSON object spread over several lines, not JSON Lines (one JSON object per line); write "
                f"each object on its own line (e.g. jq -c . {path} > {stem}.jsonl)")
    return None


def json_like(text: str) -> bool:
    """Whether a line is meant as JSON Lines' object or array: it starts with ``{`` or ``[`` (after spaces). Such a
    line that does not parse is malformed JSON (cut short, single-quoted as Python's ``str()`` of a dict writes),
    never plain text (`text_line_problem`)."""
    return text.lstrip().startswith(("{", "["))


def json_error_message(exc: json.JSONDecodeError) -> str:
    """``malformed JSON: <what> at column N`` for a `json.JSONDecodeError` (json's own messages that end in
    "at", such as ``Unterminated string starting at``, get the column directly); ``malformed JSON object`` (or
    ``array``) for a line that starts with ``{`` (``[``): `json_like`, with a hint when its keys are single-quoted
    (Python's ``str()`` of a dict)."""
    msg, doc = exc.msg, exc.doc if isinstance(exc.doc, str) else ""
    what = ("malformed JSON object" if doc.lstrip().startswith("{") else "malformed JSON array") \
        if json_like(doc) else "malformed JSON"
    where = f"column {exc.colno}" if msg.endswith(" at") else f"at column {exc.colno}"
    quoted = msg.startswith("Expecting property name") and doc[exc.pos:exc.pos + 1] == "'"
    return f"{what}: {msg} {where}" + (" (single quotes are not JSON: is it Python's str() of a dict? write "
                                       "each row with json.dumps)" if quoted else "")


def text_line_problem(problem: Problem) -> bool:
    """Whether ``problem`` is a line that is not JSON and might be plain text: malformed JSON on a line that is not
    `json_like` (`json_error_message`'s wording)."""
    return problem.message.startswith("malformed JSON:")


def json_line_or_problem(text: str, name: str, lineno: int, problems: list):
    """`parse_json_line` of one line of a JSONL file, the way every JSONL reader here treats it: ``None`` for a
    blank line (skipped) and for malformed JSON (a [`Problem`][zheval.io.problems.Problem] ``name:lineno`` appended to ``problems``), else
    ``(value, duplicate keys)``."""
    if not text.strip():
        return None
    try:
        return parse_json_line(text)
    except json.JSONDecodeError as exc:
        problems.append(Problem(name, lineno, None, json_error_message(exc)))
        return None


def parse_json_line(text: str) -> tuple[object, list[str]]:
    """Decode one JSON line and report keys given twice in any object of it.

    ``json.loads`` keeps the last value of a repeated key silently (RFC 8259 leaves the behaviour open); a
    repeated ``"prediction"`` or ``"responses"`` would score a value the user did not see. The line is decoded
    with an ``object_pairs_hook`` that records every repeated key.

    Returns:
        ``(value, duplicate keys in order of repetition)``; the value is what ``json.loads`` gives.

    Raises:
        json.JSONDecodeError: malformed JSON.
    """
    dups: list[str] = []

    def hook(pairs):
        obj = {}
        for k, v in pairs:
            if k in obj and k not in dups:
                dups.append(k)
            obj[k] = v
        return obj

    return json.loads(text, object_pairs_hook=hook), dups


def duplicate_key_problem(dups: Sequence[str]) -> str:
    """The problem text for keys given twice on one line."""
    keys = ", ".join(repr(k) for k in dups)
    return (f"key {keys} given more than once on this line (a JSON reader would silently keep the last value); "
            "give each key once")


def jsonl_row(line: str, name: str, lineno: int, problems: list):
    """The object of one JSONL line (its line end removed), or ``None``: a blank line (skipped), or a problem
    appended ``name:lineno`` (malformed JSON, a key given twice, a value that is not an object)."""
    parsed = json_line_or_problem(line, name, lineno, problems)
    if parsed is None:
        return None
    obj, dups = parsed
    if dups:
        problems.append(Problem(name, lineno, None, duplicate_key_problem(dups)))
        return None
    if not isinstance(obj, dict):
        problems.append(Problem(name, lineno, None, f"expected a JSON object, got {type_name(obj)}"))
        return None
    return obj


def jsonl_rows(text: str, name: str, problems: list) -> list:
    """The rows of a JSONL file's text: ``(1-based line, object)`` for every line holding a JSON object.

    Blank lines are skipped. Problems appended to ``problems``, each ``file:line``: malformed JSON, a key given
    twice, a value that is not an object. A file that is one JSON document (an array of rows, or one object over
    several lines) is one problem saying so instead of a problem per line (then no row is returned).
    """
    rows, first = [], len(problems)
    for lineno, line in enumerate(text.split("\n"), start=1):
        obj = jsonl_row(line, name, lineno, problems)
        if obj is not None:
            rows.append((lineno, obj))
    if len(problems) > first:
        doc = json_document_problem(text, name)
        if doc is not None:
            del problems[first:]
            problems.append(Problem(name, 0, None, doc))
            return []
    return rows
