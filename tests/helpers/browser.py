"""What the two browser tests (the HTML report, the Space widgets) share before their first test: a screenshot
script of ``scripts/`` imported by path (it holds the headless-Chromium kit), and the one place such a test module
stops when no browser is installed (skipped locally, a failure under ``CI=true``)."""

from __future__ import annotations

import importlib.util
import os
from types import ModuleType

import pytest

from helpers import REPO

__all__ = ["load_script", "stop_module_without_browser"]


def load_script(filename: str, module_name: str) -> ModuleType:
    """``scripts/<filename>`` imported by its path as ``module_name``; returns the module."""
    spec = importlib.util.spec_from_file_location(module_name, REPO / "scripts" / filename)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def stop_module_without_browser(kit: ModuleType) -> None:
    """Returns ``None`` when ``kit.browser_missing()`` finds the browser; otherwise skips the calling test module
    (``pytest.skip(allow_module_level=True)``), or under ``CI=true`` raises ``RuntimeError`` naming what is missing."""
    missing = kit.browser_missing()
    if missing:
        if os.environ.get("CI", "").strip().lower() in ("1", "true", "yes"):
            raise RuntimeError(f"the browser test cannot run: {missing}; CI=true: that is a failure")
        pytest.skip(f"browser test: {missing}", allow_module_level=True)
