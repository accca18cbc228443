"""Build hook of the zheval package (the project itself is declared in pyproject.toml).

One job: a wheel carries the evaluate module scripts. ``metrics/<name>/<name>.py`` in the repository are the files the
Hub Spaces publish (scripts/build_space.py); ``build_py`` copies each, unchanged, into the built package as
``zheval/adapters/evaluate_scripts/<name>/<name>.py``, where ``zheval.metric_path(name)`` finds it after ``pip
install`` (docs/install.md). In a clone (an editable install, or ``PYTHONPATH``) ``metric_path`` finds
``metrics/`` itself, so the scripts exist once in the repository. MANIFEST.in puts ``metrics/`` into the sdist so a
wheel built from the sdist (``python -m build``) has them too.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
#: the evaluate module scripts (kept in step with zheval.adapters.metric_paths.METRICS by tests/repo/test_wheel.py)
METRICS = ("chinese_rouge", "chinese_bleu", "chinese_chrf", "chinese_bertscore")
TARGET = ("zheval", "adapters", "evaluate_scripts")


class BuildPyWithMetricScripts(build_py):
    """``build_py`` plus the copy of ``metrics/<name>/<name>.py`` into the built package (not in editable mode)."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads metrics/ of the clone
        for name in METRICS:
            source = ROOT / "metrics" / name / f"{name}.py"
            if not source.is_file():
                raise FileNotFoundError(f"{source}: the evaluate module script is missing (the wheel must carry it)")
            target = Path(self.build_lib, *TARGET, name)
            target.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target / f"{name}.py")


setup(cmdclass={"build_py": BuildPyWithMetricScripts})
