"""The versions of the reference tools the cross-checks were tested against, and the run-time check of them.

A cross-check (`zheval.results.crosscheck_bleu`, `zheval.results.crosscheck_rouge`) recomputes zheval's
number with another tool; its verdict means "equal to *that version* of the tool". The suite checks the equality
at both ends of each declared range (``pyproject.toml``: the lowest-versions CI job installs the floor, the main
job the newest release): `TESTED_VERSIONS`. Every cross-check result names the installed version
(``tool``, ``tool_version``) and says whether it lies in the tested span (``tool_tested``); outside it a
`UntestedToolVersionWarning` is issued (a difference may then come from the tool, not from zheval).
"""

from __future__ import annotations

import re
import warnings
from importlib.metadata import PackageNotFoundError, version
from typing import Optional, Tuple

__all__ = ["TESTED_VERSIONS", "UntestedToolVersionWarning", "tool_version", "is_tested_version",
           "check_tool_version"]

#: distribution name → (lowest, highest) version the cross-check equality is tested on (both inclusive)
TESTED_VERSIONS = {
    "sacrebleu": ("2.4.0", "2.6.0"),
    "rouge-score": ("0.1.2", "0.1.2"),
    "rouge-chinese": ("1.0.3", "1.0.3"),
    "nltk": ("3.10.4", "3.10.4"),
}


class UntestedToolVersionWarning(UserWarning):
    """A cross-check ran against a version of its reference tool outside the tested span."""


def tool_version(distribution: str) -> Optional[str]:
    """The installed version of ``distribution`` (``"sacrebleu"``), or None when it is not installed."""
    try:
        return version(distribution)
    except PackageNotFoundError:
        return None


def _release(text: str) -> Tuple[int, ...]:
    match = re.match(r"\d+(?:\.\d+)*", text)
    return tuple(int(p) for p in match.group(0).split(".")) if match else ()


def is_tested_version(distribution: str, installed: Optional[str]) -> bool:
    """Whether ``installed`` lies in the tested span of ``distribution`` (release numbers compared; a
    pre-release or local suffix counts as its release). False for an unknown distribution or version."""
    span = TESTED_VERSIONS.get(distribution)
    if span is None or not installed:
        return False
    release = _release(installed)
    pad = max(len(release), *(len(_release(v)) for v in span))

    def padded(v: Tuple[int, ...]) -> Tuple[int, ...]:
        return v + (0,) * (pad - len(v))

    return padded(_release(span[0])) <= padded(release) <= padded(_release(span[1]))


def check_tool_version(distribution: str) -> dict:
    """``{"tool_version": installed, "tool_tested": bool}`` for a cross-check's result; warns when untested.

    Warns:
        UntestedToolVersionWarning: the installed version is outside `TESTED_VERSIONS` (naming both).
    """
    installed = tool_version(distribution)
    tested = is_tested_version(distribution, installed)
    if not tested:
        low, high = TESTED_VERSIONS.get(distribution, ("?", "?"))
        span = low if low == high else f"{low} to {high}"
        warnings.warn(
            f"crosscheck: {distribution} {installed} is not a version this cross-check was tested against "
            f"({span}); a difference it reports may come from {distribution}, not from zheval",
            UntestedToolVersionWarning, stacklevel=3)
    return {"tool_version": installed, "tool_tested": tested}
