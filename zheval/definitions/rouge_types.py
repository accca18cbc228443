"""ROUGE type names: the forms zheval accepts (``rouge1`` … ``rougeN``, ``rougeL``, ``rougeLsum``, ``rougeW``,
``rougeS<d>`` / ``rougeSU<d>``, ``rougeS*`` / ``rougeSU*``) and their parse into a `RougeType`.

The names follow rouge-score 0.1.2 (``rouge1``, ``rougeL``, ``rougeLsum``) and ROUGE-1.5.5 (Lin 2004: ROUGE-W with
weight, ROUGE-S/SU with a maximum skip distance). The N of ROUGE-N is an n-gram order, bounded by
`zheval.definitions.orders.MAX_ORDER` (1000) as BLEU's and chrF's orders are; the skip distance of ROUGE-S/SU is not
one (a skip-bigram is a pair whatever the distance; the work is set by the text's length), so it is not bounded.
Pure: imports only `zheval.definitions.orders`.
"""

from __future__ import annotations

import re
from typing import Dict, NamedTuple, Optional

from .orders import MAX_ORDER

__all__ = ["VALID_ROUGE_TYPE_FORMS", "RougeType", "parse_rouge_type"]

VALID_ROUGE_TYPE_FORMS = (
    f"rouge1 ... rouge9 (rougeN for any integer N from 1 to {MAX_ORDER})",
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

#: The largest skip distance a ROUGE-S/SU type carries into the computation: a larger one written in the name
#: (``rougeS99999999999999999999999``) stands for this one, which no text reaches (2**62 tokens), so the scores are
#: those of ``rougeS*`` and the name is kept as written. (ROUGE-N's N is bounded by `MAX_ORDER` instead.)
NUMBER_CEILING = 2 ** 62


def parse_rouge_type(name: str) -> RougeType:
    """Parse a ROUGE type name.

    Valid forms: ``rouge1`` ... ``rouge9`` (any ``rougeN``, 1 <= N <= `MAX_ORDER`), ``rougeL``, ``rougeLsum``, ``rougeW``,
    ``rougeS<d>``/``rougeSU<d>`` (d >= 0 the maximum skip distance: pairs i < j <= i + d + 1), ``rougeS*``/
    ``rougeSU*`` (unlimited). A number is written without leading zeros (``rouge01``, ``rougeS04`` are refused: one
    rule for N and d). N is at most `MAX_ORDER` (1000), the bound of every n-gram order; d has no bound.

    Raises:
        TypeError: ``name`` is not a str.
        ValueError: unknown name (the message lists the valid forms); a ROUGE-N order above `MAX_ORDER` (the
            message names the type and the bound).
    """
    hit = _PARSE_CACHE.get(name) if isinstance(name, str) else None
    if hit is not None:
        return hit
    if not isinstance(name, str):
        raise TypeError(f"ROUGE type must be a str, got {type(name).__name__}: {name!r}")
    m = _RE_N.match(name)
    if m:
        n = int(m.group(1)) if len(m.group(1)) <= len(str(MAX_ORDER)) else MAX_ORDER + 1  # no huge int parsed
        if n > MAX_ORDER:
            raise ValueError(f"ROUGE type {name!r}: n-gram order {m.group(1)} is above {MAX_ORDER}, the largest "
                             f"n-gram order of every metric (BLEU's max order and chrF's orders too): give an "
                             f"order from 1 to {MAX_ORDER} (rouge1 ... rouge{MAX_ORDER})")
        rt = RougeType(name, "N", n, None)
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
