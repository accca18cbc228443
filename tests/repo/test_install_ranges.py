"""Installs that do not fight the user's environment (issue 35): pyproject.toml declares ranges for the runtime
dependencies and every user-facing extra; exact versions live only in the test and CI files (.ci/tested-pins.txt),
each inside its declared range; CI checks with ``pip install --dry-run`` that the ranges install beside the versions
users run (.ci/install-ranges) and runs the engines at both ends of their ranges (.ci/engines)."""

from __future__ import annotations

import re
import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from helpers import REPO

PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
USER_EXTRAS = ("trainer", "space", "html", "ray", "spark", "fast", "bertscore", "judge")
#: the one exact runtime pin, and why: its words are the numbers of tokenizer="jieba" (0.42.1 is jieba's last release)
EXACT = {"jieba"}


def _requirements(group):
    return PROJECT["dependencies"] if group == "core" else PROJECT["optional-dependencies"][group]


@pytest.mark.parametrize("group", ["core", *USER_EXTRAS])
def test_runtime_requirements_are_ranges_with_a_floor(group):
    for text in _requirements(group):
        req = Requirement(text)
        ops = {s.operator for s in req.specifier}
        if req.name.lower() in EXACT:
            continue
        assert "==" not in ops and "===" not in ops, f"{group}: {text} is an exact pin (pin in .ci/tested-pins.txt)"
        assert ops & {">=", "~=", ">"}, f"{group}: {text} has no floor"


def test_opencc_is_a_range_that_admits_1_1_9_and_1_4_2():
    (req,) = [Requirement(r) for r in PROJECT["dependencies"] if Requirement(r).name.lower() == "opencc"]
    assert req.specifier.contains("1.1.9") and req.specifier.contains("1.4.2")


@pytest.mark.parametrize("extra, name, versions", [
    ("trainer", "torch", ["2.8.0", "2.13.0", "2.14.1"]),
    ("ray", "ray", ["2.50.0", "2.60.0"]),
    ("spark", "pyspark", ["3.5.0", "3.5.9", "4.0.0", "4.3.0"]),
    ("spark", "pandas", ["2.2.3", "2.3.3"]),
    ("space", "gradio", ["6.0.0", "6.31.0"]),
    ("judge", "openai", ["1.55.3", "3.60.0"]),
    ("bertscore", "torch", ["2.13.0"]),
    ("bertscore", "transformers", ["5.0.0"]),
    ("bertscore", "bert-score", ["0.3.13"]),
])
def test_extras_admit_the_versions_users_run(extra, name, versions):
    (req,) = [Requirement(r) for r in _requirements(extra) if Requirement(r).name.lower() == name]
    for v in versions:
        assert req.specifier.contains(v), f"zheval[{extra}] refuses {name} {v}: {req}"


def test_tested_pins_lie_inside_the_declared_ranges():
    declared: dict[str, SpecifierSet] = {}
    for group in ("core", *USER_EXTRAS):
        for text in _requirements(group):
            req = Requirement(text)
            declared[req.name.lower()] = req.specifier
    pins = [line.split("#")[0].strip() for line in (REPO / ".ci" / "tested-pins.txt").read_text().splitlines()]
    pins = [p for p in pins if p]
    assert pins
    for pin in pins:
        name, version = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)", pin).groups()
        assert name.lower() in declared, f"{pin}: not a declared dependency"
        assert declared[name.lower()].contains(version), f"{pin} lies outside {declared[name.lower()]}"


def test_ci_checks_the_ranges_and_the_test_run_uses_the_pins():
    release = [line for line in (REPO / ".ci" / "release-checks").read_text().splitlines() if not line.startswith("#")]
    assert {"bash .ci/install-ranges", "bash .ci/engines-floor", "bash .ci/wheel-smoke"} <= set(release)
    run = [line for line in (REPO / ".ci" / "run").read_text().splitlines() if not line.startswith("#")]
    # lane B ends with the engine tests at the floors (no two engine suites share the cores)
    assert any("bash .ci/opencompass && bash .ci/engines && bash .ci/engines-cluster && bash .ci/engines-floor" in line
               for line in run)
    assert any("bash .ci/commands && .ci/lowest-versions && bash .ci/extras-floor && bash .ci/install-ranges && "
               "bash .ci/wheel-smoke" in line for line in run)  # the floors and the release checks run in CI too (lane A)
    # every cached venv is built ahead, in the background, by the scripts that use it (ZHEVAL_CI_VENV_ONLY=1)
    assert any(".ci/lowest-versions && bash .ci/extras-floor )" in line for line in run)
    assert any("bash .ci/opencompass && bash .ci/engines && bash .ci/engines-floor )" in line for line in run)
    for script in ("lowest-versions", "extras-floor", "opencompass", "engines", "engines-floor"):
        text = (REPO / ".ci" / script).read_text()
        assert "source .ci/venv-lock.sh" in text and "venv_lock " in text and "if venv_only" in text, script
    floors = (REPO / ".ci" / "extras-floor").read_text()
    assert "--extra \"$extra\"" in floors
    for extra in ("fast", "space", "judge", "bertscore"):  # each extra at its floor, in a venv of its own
        assert f"floor_venv {extra} " in floors and f'"${extra}_py" -m pytest' in floors
    named = re.findall(r"tests/[\w/]+\.py", "\n".join(line for line in floors.splitlines() if not line.startswith("#")))
    assert "tests/compute/test_judge.py" in named and "tests/compute/test_bertscore.py" in named
    assert all((REPO / path).is_file() for path in named), [p for p in named if not (REPO / p).is_file()]
    ranges = (REPO / ".ci" / "install-ranges").read_text()
    for pin in ('"torch==2.8.0"', '"ray[data]==2.50.0"', '"pyspark~=3.5.0"', '"opencc==1.1.9"', '"torch==2.14.1"'):
        assert pin in ranges
    assert "--dry-run" in ranges
    assert '".ci/tested-pins.txt"' in (REPO / "dev.py").read_text()
