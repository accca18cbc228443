"""JSON Lines: one JSON value per line, decoded strictly (`parse_json_line`: a key given twice is a
problem, not a silent last value; an integer longer than Python reads is a problem at its line, not a crash),
read into ``(line, object)`` rows (`jsonl_rows`), with one message for a file that is one JSON document instead
(`json_document_problem`). A door that reads numbers asks for ``numbers=True``: each number with a fraction or an
exponent is then a [`JsonNumber`][zheval.io.numbers.JsonNumber] keeping its text, for the one number rule.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Sequence

from .encoding import INNER_BOM
from .numbers import JsonNumber
from .problems import Problem, type_name

__all__ = ["parse_json_line", "JsonIntegerTooLong", "JsonTooDeep", "duplicate_key_problem", "json_error_message", "json_document_problem",
           "json_line_or_problem", "jsonl_rows", "jsonl_row", "json_like", "text_line_problem",
           "wrapped_rows_hint", "wrapped_rows_problem", "id_map_hint"]


def _rows_file(path: str) -> str:
    """The file a conversion example writes: ``X.json`` to ``X.jsonl``, ``X.jsonl`` to ``X.rows.jsonl`` (a shell's
    ``>`` would empty the file before jq reads it), anything else ``X`` to ``X.jsonl``."""
    if path.endswith(".json"):
        return path[:-5] + ".jsonl"
    return path[:-6] + ".rows.jsonl" if path.endswith(".jsonl") else path + ".jsonl"


def json_document_problem(text: str, path: str = "FILE") -> str | None:
    """One message when a file that failed as JSON Lines is one JSON document instead (an array of objects, or an
    object spread over several lines, e.g. ``json.dump(rows, f, indent=2)``), else ``None``: then every line would
    otherwise be reported as malformed; an object wrapping the rows (``{"data": [...]}``) gets
    `wrapped_rows_hint`."""
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):  # ValueError: malformed JSON, or an integer longer than Python reads
        return None
    out = _rows_file(path)
    if isinstance(doc, list):
        return (f"is one JSON array of {len(doc)} item(s), not JSON Lines (one JSON object per line): convert it, "
                f"e.g. jq -c '.[]' {path} > {out}")
    if isinstance(doc, dict) and text.strip().count("\n"):
        hint = wrapped_rows_hint(doc, path) or id_map_hint(doc, path)  # jq -c . would write the one object again
        if hint is not None:
            return f"is one JSON object spread over several lines, not JSON Lines: {hint}"
        return (f"is one JSON object spread over several lines, not JSON Lines (one JSON object per line); write "
                f"each object on its own line (e.g. jq -c . {path} > {out})")
    return None


def wrapped_rows_hint(obj, path: str = "FILE") -> str | None:
    """The hint for a JSON object that seems to wrap the rows instead of being one (``{"data": [{...}, ...]}``): one
    of its values, under any key, and only one, is a non-empty list of objects. Said where such an object lacks the
    fields a row needs: ``the rows seem to sit under 'data' (a list of 2 objects): write them as JSON Lines, one
    object per line (e.g. jq -c '.data[]' FILE.json > FILE.jsonl)``: the example writes ``X.json`` to ``X.jsonl``
    and ``X.jsonl`` to ``X.rows.jsonl`` (never over the file it reads). ``None`` for any other value."""
    if not isinstance(obj, dict):
        return None
    lists = [(k, v) for k, v in obj.items() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)]
    if len(lists) != 1:
        return None
    key, rows = lists[0]
    out = _rows_file(path)
    jq = f".{key}[]" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) else f".[{json.dumps(key, ensure_ascii=False)}][]"
    example = "" if "'" in jq + path else f" (e.g. jq -c '{jq}' {path} > {out})"
    return (f"the rows seem to sit under {key!r} (a list of {len(rows)} object(s)): write them as JSON Lines, one "
            f"object per line{example}")


def id_map_hint(obj, path: str = "FILE", column: str = "score") -> str | None:
    """The hint for a JSON object mapping ids to numbers (``{"q1": 0.5, "q2": 0.1}``) instead of being rows, else
    ``None`` (an object with an ``id`` key, an empty one, or one with a value that is not a number): ``one JSON
    object mapping ids to values, not rows: write one JSON Lines row per id, {"id": ..., "score": ...} (e.g. jq -c
    'to_entries[] | {id: .key, score: .value}' FILE.json > FILE.jsonl), or a CSV with the header id,score``, where
    ``score`` is ``column`` (the column the file is read for)."""
    if not isinstance(obj, dict) or not obj or "id" in obj or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in obj.values()):
        return None
    key = column if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", column) else json.dumps(column, ensure_ascii=False)
    jq = f"to_entries[] | {{id: .key, {key}: .value}}"
    example = "" if "'" in jq + path else f" (e.g. jq -c '{jq}' {path} > {_rows_file(path)})"
    return (f"one JSON object mapping {len(obj)} id(s) to values, not rows: write one JSON Lines row per id, "
            f"{{\"id\": ..., {json.dumps(column, ensure_ascii=False)}: ...}}{example}, or a CSV with the header "
            f"id,{column}")


def wrapped_rows_problem(kind: str, rows: Sequence, fields: Sequence[str], name: str) -> Problem | None:
    """The problem of a JSONL file (``kind``) whose ``rows`` (``(line, object)`` pairs) are one object wrapping the
    rows (`wrapped_rows_hint`) that has none of ``fields`` (the prediction fields it was read for), at its line:
    ``one JSON object, not rows: the rows seem to sit under 'data' ...``; else ``None``."""
    if kind != "jsonl" or len(rows) != 1:
        return None
    line, row = rows[0]
    hint = wrapped_rows_hint(row, name)
    if hint is None or any(f in row for f in fields):
        return None
    return Problem(name, line, None, f"one JSON object, not rows: {hint}")


def json_like(text: str) -> bool:
    """Whether a line is meant as JSON Lines' object or array: it starts with ``{`` or ``[`` (after spaces). Such a
    line that does not parse is malformed JSON (cut short, single-quoted as Python's ``str()`` of a dict writes),
    never plain text (`text_line_problem`)."""
    return text.lstrip().startswith(("{", "["))


def json_error_message(exc: json.JSONDecodeError) -> str:
    """``malformed JSON: <what> at column N`` for a `json.JSONDecodeError` (json's own messages that end in
    "at", such as ``Unterminated string starting at``, get the column directly); ``malformed JSON object`` (or
    ``array``) for a line that starts with ``{`` (``[``): `json_like`, with a hint when its keys are single-quoted
    (Python's ``str()`` of a dict); a line that starts with a byte-order mark (the file's own is removed before):
    said so, with its likely cause (files joined together); `JsonTooDeep`: ``malformed JSON (nested too deeply at
    column N: ...)``."""
    if isinstance(exc, JsonIntegerTooLong):
        return f"{exc.msg} at column {exc.colno}: Python reads at most {exc.limit} (write it as a string)"
    if isinstance(exc, JsonTooDeep):
        return (f"malformed JSON (nested too deeply at column {exc.colno}: {exc.depth} arrays or objects inside one "
                "another, more than Python's JSON reader takes)")
    msg, doc = exc.msg, exc.doc if isinstance(exc.doc, str) else ""
    if doc.startswith("\ufeff"):  # json: "Unexpected UTF-8 BOM (decode using utf-8-sig)"; the file's own is removed
        return f"{INNER_BOM} remove it"
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


def json_line_or_problem(text: str, name: str, lineno: int, problems: list, *, numbers: bool = False):
    """`parse_json_line` of one line of a JSONL file, the way every JSONL reader here treats it: ``None`` for a
    blank line (skipped) and for malformed JSON (a [`Problem`][zheval.io.problems.Problem] ``name:lineno`` appended to ``problems``), else
    ``(value, duplicate keys)``. ``numbers``: as `parse_json_line`'s."""
    if not text.strip():
        return None
    try:
        return parse_json_line(text, numbers=numbers)
    except json.JSONDecodeError as exc:
        problems.append(Problem(name, lineno, None, json_error_message(exc)))
        return None


class JsonIntegerTooLong(json.JSONDecodeError):
    """A JSON integer with more digits than Python converts (``sys.get_int_max_str_digits()``, 4300 by default):
    ``json.loads`` raises a bare ``ValueError`` for it, which would stop a reader without naming the file or line.
    ``limit``: that number of digits."""

    def __init__(self, digits: int, limit: int, doc: str, pos: int):
        super().__init__(f"a JSON integer of {digits} digits", doc, pos)
        self.limit = limit


class JsonTooDeep(json.JSONDecodeError):
    """JSON nested more deeply than Python's reader goes (arrays or objects inside one another, about a thousand
    levels): ``json.loads`` raises ``RecursionError`` for it, which would stop a reader with a traceback. ``depth``:
    how deeply the text nests; located at the first bracket that opens that deepest level."""

    def __init__(self, doc: str):
        depth, pos = _deepest(doc)
        super().__init__(f"nested too deeply: {depth} arrays or objects inside one another, more than Python's "
                         "JSON reader takes", doc, pos)
        self.depth = depth


#: A JSON string (skipped: brackets inside it are text) or a bracket.
_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _deepest(text: str) -> tuple[int, int]:
    """``(deepest nesting, position of the bracket that first opens it)`` of JSON text (brackets in strings are
    not counted)."""
    depth = deepest = where = 0
    for m in _NESTING.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > deepest:
                deepest, where = depth, m.start()
        elif c in "]}":
            depth -= 1
    return deepest, where


def _too_long_integer(text: str, exc: ValueError) -> JsonIntegerTooLong:
    """The `JsonIntegerTooLong` of a line whose ``json.loads`` raised ``exc`` (Python's digit limit), located at the
    first run of more digits than the limit that starts a value (after ``:``, ``,`` or ``[``)."""
    limit = sys.get_int_max_str_digits()
    found = re.search(r"(?:^|[:,\[])\s*-?([0-9]{%d,})" % (limit + 1), text)
    if found is None:
        raise exc
    return JsonIntegerTooLong(len(found.group(1)), limit, text, found.start(1))


def parse_json_line(text: str, *, numbers: bool = False) -> tuple[object, list[str]]:
    """Decode one JSON line and report keys given twice in any object of it.

    ``json.loads`` keeps the last value of a repeated key silently (RFC 8259 leaves the behaviour open); a
    repeated ``"prediction"`` or ``"responses"`` would score a value the user did not see. The line is decoded
    with an ``object_pairs_hook`` that records every repeated key.

    Args:
        text: the line. numbers: give each number with a fraction or an exponent, and ``NaN``/``Infinity``, as a
            [`JsonNumber`][zheval.io.numbers.JsonNumber] (a ``float`` keeping its literal), for a door that reads
            numbers by the one number rule (``1e-400`` is 0.0 to ``json.loads``); ``False`` (every door that reads
            no number): plain ``json.loads`` values, at its speed.

    Returns:
        ``(value, duplicate keys in order of repetition)``; the value is what ``json.loads`` gives.

    Raises:
        json.JSONDecodeError: malformed JSON; `JsonIntegerTooLong` (a subclass) for an integer of more digits than
            Python converts; `JsonTooDeep` (a subclass) for arrays or objects nested more deeply than Python's reader
            goes (its ``RecursionError``).
    """
    dups: list[str] = []

    def hook(pairs):
        obj = {}
        for k, v in pairs:
            if k in obj and k not in dups:
                dups.append(k)
            obj[k] = v
        return obj

    try:
        if numbers:
            return json.loads(text, object_pairs_hook=hook, parse_float=JsonNumber, parse_constant=JsonNumber), dups
        return json.loads(text, object_pairs_hook=hook), dups
    except json.JSONDecodeError:
        raise
    except RecursionError:  # "maximum recursion depth exceeded while decoding a JSON array"
        raise JsonTooDeep(text) from None
    except ValueError as exc:  # "Exceeds the limit (4300 digits) for integer string conversion"
        raise _too_long_integer(text, exc) from None


def duplicate_key_problem(dups: Sequence[str]) -> str:
    """The problem text for keys given twice on one line."""
    keys = ", ".join(repr(k) for k in dups)
    return (f"key {keys} given more than once on this line (a JSON reader would silently keep the last value); "
            "give each key once")


def jsonl_row(line: str, name: str, lineno: int, problems: list, *, numbers: bool = False):
    """The object of one JSONL line (its line end removed), or ``None``: a blank line (skipped), or a problem
    appended ``name:lineno`` (malformed JSON, a key given twice, a value that is not an object). ``numbers``: as
    `parse_json_line`'s."""
    parsed = json_line_or_problem(line, name, lineno, problems, numbers=numbers)
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


def jsonl_rows(text: str, name: str, problems: list, *, numbers: bool = False) -> list:
    """The rows of a JSONL file's text: ``(1-based line, object)`` for every line holding a JSON object
    (``numbers``: as `parse_json_line`'s).

    Blank lines are skipped. Problems appended to ``problems``, each ``file:line``: malformed JSON, a key given
    twice, a value that is not an object. A file that is one JSON document (an array of rows, or one object over
    several lines) is one problem saying so instead of a problem per line (then no row is returned).
    """
    rows, first = [], len(problems)
    for lineno, line in enumerate(text.split("\n"), start=1):
        obj = jsonl_row(line, name, lineno, problems, numbers=numbers)
        if obj is not None:
            rows.append((lineno, obj))
    if len(problems) > first:
        doc = json_document_problem(text, name)
        if doc is not None:
            del problems[first:]
            problems.append(Problem(name, 0, None, doc))
            return []
    return rows
