"""The sdist carries every evaluate module script that setup.py copies into the wheel: a wheel built from the sdist
(what ``pip install`` from PyPI or a git URL does, and what .ci/wheel-smoke builds) fails otherwise. Checked on
MANIFEST.in's own rules (setuptools' FileList, the code ``sdist`` runs), without building anything."""

from __future__ import annotations

import ast
import os
from pathlib import Path

from setuptools.command.egg_info import FileList

ROOT = Path(__file__).resolve().parents[2]


def _setup_metrics() -> tuple:
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "METRICS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("setup.py has no METRICS")


def test_manifest_carries_every_metric_script():
    files = FileList()
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        files.findall()
        for line in (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                files.process_template_line(line)
    finally:
        os.chdir(here)
    carried = {Path(f).as_posix() for f in files.files}
    missing = [f"metrics/{m}/{m}.py" for m in _setup_metrics() if f"metrics/{m}/{m}.py" not in carried]
    assert not missing, f"MANIFEST.in leaves out of the sdist: {missing}"
    assert "LICENSE" in carried
