"""The versions of the reference tools the cross-checks were tested against, and the run-time check of them.

A cross-check (`zheval.results.crosscheck_bleu`, `zheval.results.crosscheck_rouge`) recomputes zheval's
number with another tool; its verdict means "equal to *that version* of the tool". The suite checks the equality
at both ends of each declared range (``pyproject.toml``: the lowest-versions CI job installs the floor, the main
job the newest release): `TESTED_VERSIONS`. Every cross-check result names the installed version
(``tool``, ``tool_version``) and says whether it lies in the tested span (``tool_tested``); outside it a
`UntestedToolVersionWarning` is issued (a difference may then come from the tool, not from zheval).

OpenCC is the other tool whose version shows in a number: its dictionaries are the output of the ``t2s``
normalisation step. pyproject.toml declares a range (``opencc>=1.1.9,<2``), the suite runs at both ends (the
lowest-versions job installs 1.1.9), every signature with ``t2s`` names the installed version (``opencc:1.4.2``) and
`check_tool_version` ``("opencc", use="t2s")`` warns outside the tested span.
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
    "opencc": ("1.1.9", "1.4.2"),  # the t2s step (not a cross-check): the dictionaries of these releases
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


def check_tool_version(distribution: str, *, use: str = "crosscheck") -> dict:
    """``{"tool_version": installed, "tool_tested": bool}`` for a cross-check's result; warns when untested.

    Args:
        distribution: a key of `TESTED_VERSIONS` (``"sacrebleu"``, ``"opencc"``).
        use: ``"crosscheck"`` (a cross-check's reference tool) or ``"t2s"`` (OpenCC's dictionaries in the ``t2s``
            normalisation step); it only words the warning.

    Warns:
        UntestedToolVersionWarning: the installed version is outside `TESTED_VERSIONS` (naming both).
    """
    installed = tool_version(distribution)
    tested = is_tested_version(distribution, installed)
    if not tested:
        low, high = TESTED_VERSIONS.get(distribution, ("?", "?"))
        span = low if low == high else f"{low} to {high}"
        if use == "t2s":
            message = (f"t2s: {distribution} {installed} is not a version the t2s step was tested with ({span}); its "
                       "dictionaries may convert some characters differently, so the scores may differ from a run "
                       f"on a tested version (the signature names {distribution} {installed})")
        else:
            message = (f"crosscheck: {distribution} {installed} is not a version this cross-check was tested against "
                       f"({span}); a difference it reports may come from {distribution}, not from zheval")
        warnings.warn(message, UntestedToolVersionWarning, stacklevel=3)
    return {"tool_version": installed, "tool_tested": tested}
