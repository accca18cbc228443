"""Shared fixtures and hooks of the test suite (the helpers a test imports are in ``tests/helpers/``).

The real public test data (CSL, CrossWOZ) is read at run time from ``helpers.SHARED_DATA`` (``$ZHEVAL_SHARED_DATA``,
else ``../shared/data`` next to the repository) and never copied into the repository. Every test that needs it gets
it through ``helpers.shared_path`` / ``helpers.read_jsonl`` or the fixtures below, so that without the data such
tests are skipped from one place with one message, counted in one line at the end of the run (the two hooks below)
— and fail under ``CI=true``.

Test files do not import this file: pytest loads it, and ``from conftest import ...`` in a test file is refused
below (under ``--import-mode=importlib`` it would load a second copy of this file). Import from ``helpers``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

if any(getattr(m, "__file__", None) and Path(m.__file__).resolve() == Path(__file__).resolve()
       for name, m in list(sys.modules.items()) if name != __name__):
    raise ImportError(
        "tests/conftest.py is loaded by pytest; a test file imports the shared helpers from the helpers package "
        "(from helpers import REPO, read_jsonl, ...), not from conftest")

pytest.register_assert_rewrite("helpers", "oracles")

# evaluate and datasets read these at import time: set them before any test imports them, so that no test touches
# the user's caches or the network. (Subprocess tests inherit them.)
_TMP = Path(tempfile.mkdtemp(prefix="zheval-tests-"))
for _var, _sub in (("HF_MODULES_CACHE", "modules"), ("HF_METRICS_CACHE", "metrics"), ("HF_DATASETS_CACHE", "datasets")):
    os.environ[_var] = str(_TMP / _sub)
os.environ["HF_EVALUATE_OFFLINE"] = "1"
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from helpers import (  # noqa: E402 - after the environment above
    SHARED_DATA,
    SHARED_DATA_FILES,
    SHARED_DATA_MISSING,
    SHARED_DATA_SKIP_LOCATION,
    read_jsonl,
    shared_path,
)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """pytest reports a skip raised in a fixture at the test's own line, so ``-ra`` would print one line per test;
    a shared-data skip is reported at its one place instead, which folds them all into one line."""
    outcome = yield
    report = outcome.get_result()
    longrepr = report.longrepr
    if report.skipped and isinstance(longrepr, tuple) and len(longrepr) == 3 and SHARED_DATA_MISSING in longrepr[2]:
        report.longrepr = (*SHARED_DATA_SKIP_LOCATION, longrepr[2])


@pytest.fixture(scope="session")
def shared_data_dir() -> Path:
    """The shared data folder, for tests that pass it (or a file in it) to a command or a script; skips when any
    file of :data:`SHARED_DATA_FILES` is missing (fails under ``CI=true``)."""
    for name in SHARED_DATA_FILES:
        shared_path(name)
    return SHARED_DATA


@pytest.fixture(scope="session")
def csl_rows() -> list[dict]:
    return read_jsonl("csl_ts_test.jsonl")


@pytest.fixture(scope="session")
def crosswoz_single() -> list[dict]:
    return read_jsonl("crosswoz_single_turn.jsonl")


@pytest.fixture(scope="session")
def crosswoz_groups() -> list[dict]:
    return read_jsonl("crosswoz_same_query_groups.jsonl")


@pytest.fixture()
def fresh_hf_env(tmp_path) -> dict:
    """Environment for a subprocess with its own empty evaluate caches (for evaluate.load in a fresh process)."""
    env = dict(os.environ)
    env["HF_MODULES_CACHE"] = str(tmp_path / "modules")
    env["HF_METRICS_CACHE"] = str(tmp_path / "metrics")
    return env


#: Tests marked ``commands`` run real commands in subprocesses for minutes (lm-eval's ``lm_eval``, the Space in
#: Chromium, the shell blocks of docs pages, a wheel build): README's test command leaves them to the CI step
#: ``.ci/commands``, which sets this variable and runs ``python3 dev.py test -m commands``.
COMMAND_TESTS_VARIABLE = "ZHEVAL_COMMAND_TESTS"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "commands: runs real commands in subprocesses for minutes (lm_eval, the Space in Chromium, a docs "
        "page's shell blocks, a wheel build); README's test command leaves them to the CI step .ci/commands")


def pytest_collection_modifyitems(config, items):
    """Deselect the ``commands`` tests unless ``$ZHEVAL_COMMAND_TESTS`` is set (counted at the end of the run)."""
    if os.environ.get(COMMAND_TESTS_VARIABLE):
        return
    kept = [item for item in items if item.get_closest_marker("commands") is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if item.get_closest_marker("commands")])
        config._zheval_command_tests = len(items) - len(kept)
        items[:] = kept


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One line at the end of the run: how many tests the missing shared data skipped (or failed), and where it was
    looked for."""
    def about_data(report) -> bool:
        longrepr = getattr(report, "longrepr", None)
        text = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr or "")
        return SHARED_DATA_MISSING in text

    commands = getattr(config, "_zheval_command_tests", 0)
    if commands:
        terminalreporter.write_line(
            f"{commands} tests marked 'commands' were left to the CI step .ci/commands "
            f"({COMMAND_TESTS_VARIABLE}=1 python3 dev.py test -m commands runs them)")
    skipped = sum(1 for r in terminalreporter.stats.get("skipped", []) if about_data(r))
    failed = sum(1 for key in ("failed", "error") for r in terminalreporter.stats.get(key, []) if about_data(r))
    if skipped:
        terminalreporter.write_line(
            f"{skipped} tests skipped: {SHARED_DATA_MISSING}; the other tests ran (under CI=true these would fail)",
            yellow=True, bold=True)
    if failed:
        terminalreporter.write_line(
            f"{failed} tests failed: {SHARED_DATA_MISSING}; CI=true: missing shared data is a failure",
            red=True, bold=True)
