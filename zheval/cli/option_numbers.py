"""The number rule of the command line: an ``int`` or ``float`` option is read as the file doors read a number
(`zheval.io.numbers.NUMBER_GRAMMAR`, ASCII only), not by Python's ``int()``/``float()`` or typer's coercion, which
take ``1_2`` as 12, ``1000.0`` as the integer 1000 and a full-width ``４`` as 4 without a word. An integer option
takes digits with an optional sign only (``12``, ``-3``); a float option the grammar (``0.5``, ``1e-3``).

`number_parser` gives the ``parser`` of such an option (``typer.Option(parser=...)``), its bounds checked with
click's wording (``0 is not in the range x>=1.``).
"""

from __future__ import annotations

import re
from typing import Callable, Optional

import typer

from ..io.numbers import NUMBER_SYNTAX, number_reason

__all__ = ["number_parser"]

_INTEGER = re.compile(r"[+-]?[0-9]+")


def number_parser(kind: type, low: Optional[float] = None, high: Optional[float] = None) -> Callable[[object], object]:
    """The parser of an option of type ``kind`` (``int`` or ``float``) with the bounds ``low`` <= x <= ``high``
    (``None``: unbounded).

    Raises (when the parser runs): ``typer.BadParameter`` naming the value and what is wrong (``'1_2' is not an
    integer ('_' is not accepted ...)``, ``'12.0' is not an integer (digits 0-9 with an optional sign)``, out of
    range).
    """
    def parse(value: object) -> object:
        if isinstance(value, (int, float)) and not isinstance(value, bool):  # a default, already a number
            number = kind(value)
        else:
            reason = number_reason(value)
            text = value.strip(" \t") if isinstance(value, str) else ""
            if kind is int and (reason == NUMBER_SYNTAX or reason is None and not _INTEGER.fullmatch(text)):
                reason = "digits 0-9 with an optional sign"  # an integer's syntax, not a float's (--max-refs abc)
            if reason is not None:
                what = "an integer" if kind is int else "a number"
                raise typer.BadParameter(f"{value!r} is not {what} ({reason})")
            number = int(text) if kind is int else float(text)
        if (low is not None and number < low) or (high is not None and number > high):
            bounds = (f"{low}<=x<={high}" if low is not None and high is not None
                      else f"x>={low}" if low is not None else f"x<={high}")
            raise typer.BadParameter(f"{number} is not in the range {bounds}.")
        return number

    parse.__name__ = kind.__name__  # typer names the metavar after the parser: INT / FLOAT as before
    return parse
