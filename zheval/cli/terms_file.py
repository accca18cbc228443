"""The ``--terms`` file: plain text, one protected term per line (``docs/doors.md``), read by the one line reader
([`zheval.io.rows.read_lines`][]: gzip undone, the encoding rule). A line written as JSON or as a literal of Python
(``{"term": "快递柜"}``, ``["快递柜"]``, ``"快递柜"``, ``['快递柜']``), a malformed JSON line, or a whole file that is
one JSON document is refused at its ``FILE:line`` with what to write instead: read as text it would be a term that
never matches (its quotes and brackets part of it; the rule of ``terms=``: `zheval.io.literals`).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["read_terms"]

_TERMS_RULE = "a --terms file is plain text, one term per line (e.g. 快递柜, not {\"term\": \"快递柜\"} or [\"快递柜\"])"


def read_terms(path: Path) -> list:
    """The protected terms of a ``--terms`` file: one term per line, read by [`zheval.io.rows.read_lines`][]
    (gzip undone, the encoding rule), each line stripped of surrounding spaces, blank lines skipped.

    Raises:
        FileFormatError (a ValueError): the file's encoding/gzip/line-end problems; a line (or the whole file)
            that starts with ``{`` or ``[`` (a JSONL or JSON file of terms would otherwise be read as terms that
            never match), parsed or malformed (``["猫坐"``; `_json_value`); a line that is a JSON string
            (``"快递柜"``) or a Python literal (``['快递柜']``, ``'快递柜'``: `_line_problem`); each ``file:line``,
            with the terms to write instead when the line holds them.
        EmptyFileError: the file is empty or has only blank lines (``no items in FILE ...``), as the one reader's
            rule for every input file.
    """
    from ..io import EmptyFileError, FileFormatError, Problem, json_like, read_lines

    problems: list = []
    lines = read_lines(path, "--terms", problems)
    if lines is None:
        raise FileFormatError(problems, "invalid --terms file")
    name = str(path)
    whole = "\n".join(t for _, t in lines)
    if json_like(whole) and _json_value(whole) is True and not all(
            _json_value(t) is True for _, t in lines if t.strip()):
        problems.append(Problem(name, 0, None, f"is a JSON document: {_TERMS_RULE}"))
    for n, t in lines:
        said = _line_problem(t)
        if said:
            problems.append(Problem(name, n, None, said))
    if problems:
        raise FileFormatError(problems, "invalid --terms file")
    found = [t.strip() for _, t in lines if t.strip()]
    if not found:
        raise EmptyFileError(name)
    return found


def _line_problem(line: str):
    """What is wrong with a line of a ``--terms`` file that is not a term (module docstring), the rule and what to
    write instead; ``None`` for a term (``[UNK]``, ``{name}``: bracketed words, neither JSON nor Python)."""
    from ..io import json_error_message, json_like
    from ..io.literals import instead_of_literal, literal_items, literal_why, term_literal

    got = json_like(line) and _json_value(line)  # True: one JSON value; an error: malformed JSON; else False
    literal = term_literal(line)
    shown = line.strip()[:40]
    if got is False:
        if not literal:
            return None
        kind, value = literal
        return f"is {kind} ({shown}): {literal_why(kind, line)}: {_TERMS_RULE}; {instead_of_literal(value, True)}"
    instead = f"; {instead_of_literal(literal[1], True)}" if literal and literal_items(literal[1]) else ""
    return f"{f'looks like JSON ({shown})' if got is True else json_error_message(got)}: {_TERMS_RULE}{instead}"


def _json_value(text: str):
    """``text`` (``{``/``[`` first) to `zheval.io.jsonl.parse_json_line`: ``True``, JSON; its error if meant as JSON
    (too deep, or with ``"`` or left open: ``["猫坐"``); ``False``, a bracketed word (``[UNK]``, ``{name}``)."""
    import json

    from ..io import JsonTooDeep, parse_json_line

    try:
        parse_json_line(text)
    except json.JSONDecodeError as exc:
        s = text.strip()
        return exc if isinstance(exc, JsonTooDeep) or '"' in s or s[-1] != {"[": "]", "{": "}"}[s[0]] else False
    return True
