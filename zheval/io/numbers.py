"""The one number rule of every file door: a rating, an external score, a number in a records file.

Python's ``float()`` reads far more than a number as a person writes it in a sheet: ``float("4_0")`` is ``40.0``
(a digit separator), ``float("４")`` is ``4.0`` (a full-width digit), ``float("٣")`` is ``3.0`` (an Arabic-Indic
digit), ``float("nan")`` and ``float("inf")`` pass, and ``float("1e400")`` is ``inf``. A typo on a 1–5 scale
(``4_0``) then becomes an extreme rank, without a word. Every door that reads a number from a file reads it with
`parse_number` instead, which accepts exactly this grammar (ASCII only)::

    number   = [sign] mantissa [exponent]
    mantissa = digits ["." [digits]] | "." digits
    exponent = ("e" | "E") [sign] digits
    sign     = "+" | "-"
    digits   = one or more of "0" "1" "2" "3" "4" "5" "6" "7" "8" "9"

with spaces and tabs around it allowed (``" 4 "`` is 4: a CSV written with ``", "``). Refused, each with its own
reason: ``_`` separators, digits other than ASCII (full-width ``４``, Arabic-Indic ``٣``, superscripts …), a comma
(``4,5``: a decimal comma or a thousands separator, which cannot be told apart), ``nan`` / ``inf`` / ``infinity``
(unless the door passes ``allow_nonfinite=True`` because such a value means something there), a value too large
for a float (``1e400``: it would be infinity), a value too small for one (``1e-400``: a non-zero number that a float
would read as 0.0, tied with a real 0; a subnormal such as ``1e-310`` is still non-zero and accepted), hexadecimal and other literals (``0x10``), booleans and the empty cell (the door decides
what an empty cell means before it asks for a number).

A value that is already a number (a Parquet cell) is accepted when it is an ``int`` or ``float`` (not a ``bool``),
finite unless ``allow_nonfinite``; an ``int`` as long as a float holds it (up to about ``1.8e308``). A JSON number is
judged by its literal: ``json.loads`` rounds ``1e-400`` to ``0.0`` and ``1e400`` to ``inf`` before any rule could
look, so a door that reads numbers from JSON Lines reads them as `JsonNumber` (``read_rows(numbers=True)``, via
``parse_json_line(numbers=True)``), a ``float`` that keeps its text: ``1e-400`` is then refused as in a CSV cell, and
messages show ``1e400``, ``NaN`` as the user wrote them (unquoted: a JSON number, not a string).

Distinct numbers are never tied by the float they become: within one column of one file (`SameFloat`, the
readers of ratings, scores and judge ratings through `number_cells`), two cells whose values as written differ
exactly (``decimal.Decimal`` of the text; the exact ``int`` of a JSON integer or a Parquet int64 cell) but read as
the same float64 -- ``9007199254740993`` and ``9007199254740992``, ``1.00000000000000000001`` and ``1``,
``0.30000000000000001`` and ``0.3`` -- are refused, naming both places and the column: a rank correlation would
tie them and lose their order, as ``1e-400`` would tie with a real 0. Cells equal as written (``1``, ``1.0``,
``1e0``) are the same number and accepted.

Errors name the place: `NumberFormatError` carries a [`Problem`][zheval.io.problems.Problem] printed
``file:line: id 'x': column 'overall' is '4_0', not a number (...)``.
"""

from __future__ import annotations

import decimal
import json
import math
import re
import unicodedata

from .problems import Problem

__all__ = ["NUMBER_GRAMMAR", "NUMBER_SYNTAX", "JsonNumber", "NumberFormatError", "SameFloat", "exact_value",
           "number_cells", "number_reason", "parse_number"]

NUMBER_GRAMMAR = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
"""The accepted grammar as a regular expression (ASCII digits only; matched whole, after stripping spaces/tabs)."""

NUMBER_SYNTAX = "expected digits 0-9 with an optional sign, decimal point and exponent (e.g. 4, -0.5, 1e-3)"
"""The reason `number_reason` gives a text that is no number and has no more particular fault (an integer door says
its own syntax instead: `zheval.cli.option_numbers.number_parser`)."""

_NUMBER = re.compile(NUMBER_GRAMMAR + r"\Z", re.ASCII)
_NONFINITE = re.compile(r"[+-]?(?:nan|inf|infinity)\Z", re.IGNORECASE)
_SURROUNDING = " \t"


class JsonNumber(float):
    """A JSON number with a fraction or an exponent (``4.5``, ``1e-400``), or JSON's non-standard ``NaN`` /
    ``Infinity`` / ``-Infinity``, as the ``float`` ``json.loads`` makes of it, keeping its text as ``literal``.

    It is the ``parse_float``/``parse_constant`` hook of ``parse_json_line(numbers=True)``: `number_reason` judges
    ``literal`` by `NUMBER_GRAMMAR` (so ``1e-400``, which the float reads as 0.0, is refused as a CSV cell is), and
    ``repr()`` is ``literal``, so a message shows the user's own text. Otherwise a ``float`` (equal, hashed and
    serialised as one; `parse_number` returns a plain ``float``). Integers need no hook: an ``int`` is exact.
    """

    __slots__ = ("literal",)

    def __new__(cls, literal: str):
        self = float.__new__(cls, literal)
        self.literal = literal
        return self

    def __repr__(self) -> str:
        return self.literal

    def __reduce__(self):
        return JsonNumber, (self.literal,)


class NumberFormatError(ValueError):
    """A cell that is not a number under `NUMBER_GRAMMAR`.

    Attributes:
        problem: the [`Problem`][zheval.io.problems.Problem] (file, line, id, message naming the column and value);
        reason: why the value was refused (e.g. ``"'_' digit separators are not accepted"``).
    """

    def __init__(self, problem: Problem, reason: str):
        self.problem = problem
        self.reason = reason
        super().__init__(str(problem) if problem.path else problem.message)


def number_reason(value: object, *, allow_nonfinite: bool = False) -> str | None:
    """Why ``value`` is not a number under `NUMBER_GRAMMAR`, or None when it is one.

    Args:
        value: a ``str`` cell, or an ``int``/``float`` cell of a typed file (Parquet, JSON); a `JsonNumber` is judged
            by its literal, as a ``str`` cell.
        allow_nonfinite: accept ``nan``, ``inf``, ``-inf`` (any case; ``infinity`` too) and non-finite floats.

    Returns:
        None, or a short reason in English (no location: `parse_number` adds it).
    """
    if isinstance(value, bool):
        return "a boolean is not a number"
    if isinstance(value, int):
        try:
            float(value)
        except OverflowError:
            return "too large for a number (overflows a float)"
        return None
    if isinstance(value, JsonNumber):
        value = value.literal
    elif isinstance(value, float):
        return None if allow_nonfinite or math.isfinite(value) else "not a finite number"
    if value is None:
        return "null (no value) is not a number"
    if not isinstance(value, str):
        return f"a {type(value).__name__} is not a number"
    text = value.strip(_SURROUNDING)
    if not text:
        return "an empty cell is not a number"
    if _NONFINITE.match(text):
        return None if allow_nonfinite else "nan and infinity are not accepted here"
    if _NUMBER.match(text):
        number = float(text)
        if number == 0.0 and any(c in "123456789" for c in re.split("[eE]", text)[0]):
            return "too small for a number (a non-zero value that underflows to 0.0)"
        return None if allow_nonfinite or math.isfinite(number) else "too large for a number (overflows to infinity)"
    return _refusal(text)


def _refusal(text: str) -> str:
    """The reason a string that does not match the grammar is refused (the first cause found)."""
    if "_" in text:
        return "'_' is not accepted in a number (neither as a digit separator nor as a decimal point)"
    for ch in text:
        if not ch.isascii() and (ch.isdigit() or ch.isnumeric() or unicodedata.category(ch) == "Nd"):
            name = unicodedata.name(ch, "?")
            return f"{ch!r} (U+{ord(ch):04X} {name}) is not an ASCII digit 0-9"
    for ch in text:
        if unicodedata.category(ch) == "Cc":  # \x0c, \x1c, \x85, ...: no name in unicodedata
            return f"{ch!r} (U+{ord(ch):04X}, a control character) has no place in a number"
        if not ch.isascii():
            name = unicodedata.name(ch, "?")
            return f"{ch!r} (U+{ord(ch):04X} {name}) has no place in a number"
    if "," in text:
        return "a comma is neither a decimal point nor accepted as a thousands separator (write 4.5 or 4500)"
    if text[:2].lower() in ("0x", "0o", "0b") or text[1:3].lower() in ("0x", "0o", "0b"):
        return "hexadecimal, octal and binary literals are not accepted"
    return NUMBER_SYNTAX


def parse_number(
    value: object,
    *,
    path: str = "",
    line: int = 0,
    column: str = "",
    row_id: str | None = None,
    allow_nonfinite: bool = False,
) -> float:
    """``value`` read as a number under `NUMBER_GRAMMAR` (the module docstring), as a ``float``.

    Args:
        value: a ``str`` cell (spaces/tabs around it allowed), or an ``int``/``float`` cell of a typed file.
        path: the file the cell comes from ("" when there is none); line: its 1-based line (0: unknown);
            column: the column or field name as the user's file spells it; row_id: the row's id when known.
        allow_nonfinite: accept ``nan`` / ``inf`` (only where such a value means something).

    Returns:
        The value as a ``float`` (an ``int`` converted exactly up to 2**53).

    Raises:
        NumberFormatError: the value is not a number; its message is ``path:line: id 'x': column 'c' is '4_0',
            not a number (reason)``.
    """
    reason = number_reason(value, allow_nonfinite=allow_nonfinite)
    if reason is not None:
        what = f"column {column!r} is {value!r}" if column else f"{value!r} is"
        message = f"{what}, not a number ({reason})" if column else f"{what} not a number ({reason})"
        raise NumberFormatError(Problem(path, line, row_id, message), reason)
    if isinstance(value, str):
        return float(value.strip(_SURROUNDING))
    return float(value)  # a JsonNumber too: a plain float of the same value


def exact_value(value: object):
    """The exact value of a cell accepted by `number_reason`: ``decimal.Decimal`` of a text cell or a `JsonNumber`'s
    literal (``"0.30000000000000001"`` is not ``"0.3"``), the ``int`` itself, ``decimal.Decimal`` of a ``float``
    (exact)."""
    if isinstance(value, JsonNumber):
        value = value.literal
    if isinstance(value, str):
        return decimal.Decimal(value.strip(_SURROUNDING))
    return value if isinstance(value, int) else decimal.Decimal(value)


class SameFloat:
    """The distinct numbers of one file's columns that read as the same float64 (the module docstring): keep one per
    file and pass it to every `number_cells` call; ``problems`` lists each clash, naming both places.

    Cost: one dict entry per distinct float of a column (the first cell that gave it and where); the exact values
    are compared only when a float is seen again.
    """

    __slots__ = ("_first", "problems")

    def __init__(self):
        self._first: dict = {}
        self.problems: list = []

    def check(self, column: str, value: object, number: float, where: str, rid: str) -> bool:
        """Record ``value`` (read as ``number``) of ``column`` at ``where`` (``file:line``), id ``rid``; False, with
        a problem in ``problems``, when an earlier cell of the column is another number that reads as ``number``."""
        entry = (value, where, rid)
        first = self._first.setdefault((column, number), entry)
        if first is entry or exact_value(first[0]) == exact_value(value):  # the first such cell, or the same number
            return True
        self.problems.append(
            f"{where}: {column} of id {rid!r} is {value!r} and {first[1]}: {column} of id {first[2]!r} is "
            f"{first[0]!r}: two different numbers that both round to the same float64 ({number!r}), so their order "
            "would be lost (zheval ranks float64 values: rescale or shift the column so that they differ as float64, "
            "or write them alike if they are the same number)")
        return False


def number_cells(cell, columns, where: str, rid: str, problems: list, *, kind: str = "a finite number",
                 blank=None, typed="", same: SameFloat | None = None) -> dict:
    """``{column: float}`` of one row of an id-keyed file (a ratings sheet, a scores file, a judge ratings file;
    ``cell(c)``: the row's value in column ``c``) by the one number rule of the file doors (`number_reason`).

    A value that is not a number is a problem ``"<where>: <c> of id <rid> is <value>, not <kind> (<reason>)"``
    appended to ``problems`` and left out (``<value>``: a text cell quoted, ``'4_0'``; a JSON number as written,
    ``1e-400``, when the rows were read with ``numbers=True``: `JsonNumber`). An empty cell (``""``; with ``typed``,
    a null) is one too, unless ``blank`` (called with the column) takes it: then its value is None. ``typed``:
    ``"jsonl"`` or ``"parquet"`` when the values come from that typed file, where a rating is a number, never a
    string: a string (``"4"``) is refused, with advice that fits the format (a JSON number without quotes; a numeric
    Parquet column); ``""``: a text file (CSV, TSV), whose cells are read by `parse_number`. (``True``/``False``
    are read as ``"jsonl"``/``""``.) ``same``: the file's `SameFloat`: a number that reads as the same float as
    another number of its column is a problem in ``same.problems`` (both places named): the caller refuses the file.
    """
    typed = {False: "", True: "jsonl"}.get(typed, typed) if isinstance(typed, bool) else typed
    if typed not in ("", "jsonl", "parquet"):
        raise ValueError(f"typed must be '', 'jsonl' or 'parquet', got {typed!r}")
    vals = {}
    for c in columns:
        v = cell(c)
        if (v is None if typed else v == "") and blank is not None:
            vals[c] = None
            blank(c)
            continue
        if isinstance(v, decimal.Decimal):  # a Parquet decimal128 column (pyarrow reads it as Decimal)
            problems.append(f"{where}: {c} of id {rid!r} is in a decimal column ({v!r}): store ratings as int or "
                            "float")
            continue
        if typed and isinstance(v, str):
            reason = ("a JSON string: write a rating as a JSON number, without quotes" if typed == "jsonl" else
                      "a string in a Parquet column: store the ratings in a numeric column (int or float), not a "
                      "string one")
        else:
            reason = number_reason(v)
        if reason is not None:
            written = typed == "jsonl" and (v is None or isinstance(v, bool))  # true, false, null as written
            problems.append(f"{where}: {c} of id {rid!r} is {json.dumps(v) if written else repr(v)}, not {kind} "
                            f"({reason})")
            continue
        vals[c] = parse_number(v)
        if same is not None:
            same.check(c, v, vals[c], where, rid)
    return vals
