#!/usr/bin/env python3
"""Print the lowest declared version of every direct runtime dependency of ``pyproject.toml`` as ``name==X``.

    python3 scripts/lowest_pins.py                 # [project.dependencies]
    python3 scripts/lowest_pins.py --extra html    # also the lowest of an optional extra's requirements
    python3 scripts/lowest_pins.py --declared test pytest hypothesis   # those requirements of an extra, as declared
    python3 scripts/lowest_pins.py --only-extras --extra ray --extra spark   # the extras' floors, without the core's

One requirement per line, for ``pip install -r``. The lowest version of a requirement is its ``==`` pin or its
``>=`` bound; a requirement with neither (no floor declared) is an error, so that every dependency has a floor the
lowest-versions CI job (``.ci/lowest-versions``) can test. Environment markers are refused (none are used).

Reads the file with ``tomllib`` (Python >= 3.11, which CI runs). Needs nothing but the standard library.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: ``name[extras] specifiers`` of PEP 508 without markers or URLs
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*?)\s*$")
_SPECIFIER = re.compile(r"^(==|>=|<=|<|>|!=|~=)\s*([0-9][A-Za-z0-9.+!*-]*)$")


def lowest_pin(requirement: str) -> str:
    """``"numpy>=1.24"`` → ``"numpy==1.24"``; ``"jieba==0.42.1"`` → itself.

    Raises:
        ValueError: a marker, URL or unparsable specifier, or no ``==``/``>=``/``~=`` floor.
    """
    if ";" in requirement or "@" in requirement:
        raise ValueError(f"{requirement!r}: markers and URLs are not supported by this script")
    match = _REQUIREMENT.match(requirement)
    if not match:
        raise ValueError(f"{requirement!r}: not a requirement")
    name, extras, spec = match.group(1), match.group(2) or "", match.group(3)
    floor = None
    for part in filter(None, (p.strip() for p in spec.split(","))):
        found = _SPECIFIER.match(part)
        if not found:
            raise ValueError(f"{requirement!r}: cannot read the specifier {part!r}")
        op, version = found.groups()
        if op in ("==", ">=", "~="):
            if floor is not None:
                raise ValueError(f"{requirement!r}: more than one floor")
            floor = version
    if floor is None:
        raise ValueError(f"{requirement!r}: no lower bound (declare one: >=X, ==X or ~=X)")
    return f"{name}{extras}=={floor}"


def lowest_pins(pyproject: Path, extras: list[str], *, core: bool = True) -> list[str]:
    """The lowest pins of ``[project.dependencies]`` (unless ``core=False``) and of each named optional extra, in
    file order."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    requirements = list(project["dependencies"]) if core else []
    optional = project.get("optional-dependencies", {})
    for extra in extras:
        if extra not in optional:
            raise ValueError(f"pyproject.toml has no optional extra {extra!r}")
        requirements.extend(optional[extra])
    return [lowest_pin(r) for r in requirements]


def declared(pyproject: Path, extra: str, names: list[str]) -> list[str]:
    """The requirements of optional extra ``extra`` whose distribution is one of ``names``, as declared.

    Raises:
        ValueError: no such extra, or a name it does not list.
    """
    optional = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"].get("optional-dependencies", {})
    if extra not in optional:
        raise ValueError(f"pyproject.toml has no optional extra {extra!r}")
    by_name = {}
    for requirement in optional[extra]:
        match = _REQUIREMENT.match(requirement)
        if match:
            by_name[match.group(1).lower().replace("_", "-")] = requirement
    out = []
    for name in names:
        key = name.lower().replace("_", "-")
        if key not in by_name:
            raise ValueError(f"the {extra!r} extra does not list {name!r}")
        out.append(by_name[key])
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extra", action="append", default=[], help="also an optional extra's requirements")
    parser.add_argument("--declared", nargs="+", metavar=("EXTRA", "NAME"),
                        help="print these requirements of EXTRA as declared (not lowered), instead")
    parser.add_argument("--only-extras", action="store_true", help="the --extra floors only, not the core's")
    parser.add_argument("--pyproject", type=Path, default=ROOT / "pyproject.toml")
    args = parser.parse_args(argv)
    try:
        if args.declared:
            pins = declared(args.pyproject, args.declared[0], args.declared[1:])
        else:
            pins = lowest_pins(args.pyproject, args.extra, core=not args.only_extras)
    except ValueError as exc:
        print(f"lowest_pins: {exc}", file=sys.stderr)
        return 2
    print("\n".join(pins))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
