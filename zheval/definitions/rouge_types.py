"""ROUGE type names: the forms zheval accepts (``rouge1`` … ``rougeN``, ``rougeL``, ``rougeLsum``, ``rougeW``,
``rougeS<d>`` / ``rougeSU<d>``, ``rougeS*`` / ``rougeSU*``) and their parse into a `RougeType`.

The names follow rouge-score 0.1.2 (``rouge1``, ``rougeL``, ``rougeLsum``) and ROUGE-1.5.5 (Lin 2004: ROUGE-W with
weight, ROUGE-S/SU with a maximum skip distance). Pure: imports nothing of zheval.
"""

from __future__ import annotations

import re
from typing import Dict, NamedTuple, Optional

__all__ = ["VALID_ROUGE_TYPE_FORMS", "RougeType", "parse_rouge_type"]

VALID_ROUGE_TYPE_FORMS = (
    "rouge1 ... rouge9 (rougeN for any integer N >= 1)",
    "rougeL",
    "rougeLsum",
    "rougeW (weight via rouge_w_weight)",
    "rougeS<d> / rougeSU<d> (maximum skip distance d >= 0 without leading zeros, e.g. rougeS4, rougeSU4)",
    "rougeS* / rougeSU* (unlimited skip distance)",
)


class RougeType(NamedTuple):
    """A parsed ROUGE type name.

    Attributes:
        name: the name as given, e.g. ``"rougeSU4"``.
        kind: one of ``"N"``, ``"L"``, ``"Lsum"``, ``"W"``, ``"S"``, ``"SU"``.
        n: n-gram order for kind ``"N"`` (else 0).
        skip: maximum skip distance d for ``"S"``/``"SU"`` (``None`` = unlimited); else ``None``.
    """

    name: str
    kind: str
    n: int = 0
    skip: Optional[int] = None


_RE_N = re.compile(r"rouge([1-9][0-9]*)\Z")
_RE_S = re.compile(r"rouge(SU|S)(0|[1-9][0-9]*|\*)\Z")  # no leading zero, as rougeN (rouge01 is refused too)
_PARSE_CACHE: Dict[str, RougeType] = {}

#: The largest n-gram order or skip distance a ROUGE type carries into the computation: a larger one written in the
#: name (``rouge99999999999999999999999``) stands for this one, which no text reaches (2**62 tokens), so the scores are
#: the same (ROUGE-N: no n-gram, 0; rougeS: every pair, as ``rougeS*``) and the name is kept as written.
NUMBER_CEILING = 2 ** 62


def parse_rouge_type(name: str) -> RougeType:
    """Parse a ROUGE type name.

    Valid forms: ``rouge1`` ... ``rouge9`` (any ``rougeN``, N >= 1), ``rougeL``, ``rougeLsum``, ``rougeW``,
    ``rougeS<d>``/``rougeSU<d>`` (d >= 0 the maximum skip distance: pairs i < j <= i + d + 1), ``rougeS*``/
    ``rougeSU*`` (unlimited). A number is written without leading zeros (``rouge01``, ``rougeS04`` are refused: one
    rule for N and d).

    Raises:
        TypeError: ``name`` is not a str.
        ValueError: unknown name; the message lists the valid forms.
    """
    hit = _PARSE_CACHE.get(name) if isinstance(name, str) else None
    if hit is not None:
        return hit
    if not isinstance(name, str):
        raise TypeError(f"ROUGE type must be a str, got {type(name).__name__}: {name!r}")
    m = _RE_N.match(name)
    if m:
        rt = RougeType(name, "N", min(int(m.group(1)), NUMBER_CEILING), None)
    elif name == "rougeL":
        rt = RougeType(name, "L")
    elif name == "rougeLsum":
        rt = RougeType(name, "Lsum")
    elif name == "rougeW":
        rt = RougeType(name, "W")
    else:
        m = _RE_S.match(name)
        if not m:
            raise ValueError(
                f"Unknown ROUGE type {name!r}. Valid forms: " + "; ".join(VALID_ROUGE_TYPE_FORMS) + "."
            )
        skip = None if m.group(2) == "*" else min(int(m.group(2)), NUMBER_CEILING)
        rt = RougeType(name, m.group(1), 0, skip)
    _PARSE_CACHE[name] = rt
    return rt
