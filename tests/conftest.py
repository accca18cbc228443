"""Shared test fixtures.

The real public test data (CSL, CrossWOZ) is read at run time from :data:`SHARED_DATA` (``$ZHEVAL_SHARED_DATA``,
else ``../shared/data`` next to the repository) and never copied into the repository. Every test that needs it gets
it through :func:`shared_path` / :func:`read_jsonl` or the fixtures below, so that without the data such tests are
skipped from one place with one message, counted in one line at the end of the run — and fail under ``CI=true``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import tempfile

import pytest

# evaluate and datasets read these at import time: set them before any test imports them, so that no test touches
# the user's caches or the network. (Subprocess tests inherit them.)
_TMP = Path(tempfile.mkdtemp(prefix="zheval-tests-"))
for _var, _sub in (("HF_MODULES_CACHE", "modules"), ("HF_METRICS_CACHE", "metrics"), ("HF_DATASETS_CACHE", "datasets")):
    os.environ[_var] = str(_TMP / _sub)
os.environ["HF_EVALUATE_OFFLINE"] = "1"
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA_VARIABLE = "ZHEVAL_SHARED_DATA"
SHARED_DATA = Path(os.environ.get(SHARED_DATA_VARIABLE) or REPO.parent / "shared" / "data")
"""Folder of the real public test data (CSL, CrossWOZ; never copied into the repository): ``$ZHEVAL_SHARED_DATA``,
else ``../shared/data`` next to the repository."""
SHARED_DATA_FILES = ("csl_ts_test.jsonl", "crosswoz_single_turn.jsonl", "crosswoz_same_query_groups.jsonl")
STRICT_SHARED_DATA = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")
"""Under ``CI=true`` (what ``.ci/run`` sets) missing shared data fails the tests that need it instead of skipping."""

SHARED_DATA_MISSING = (
    f"shared real test data not found in {SHARED_DATA} (looked for {', '.join(SHARED_DATA_FILES)}; "
    f"{SHARED_DATA_VARIABLE}=<folder> names the folder, default ../shared/data beside the repository)"
)


def _shared_data_missing() -> None:
    """The one place a test that needs the shared data stops: a skip with one fixed message (so ``-ra`` folds them
    into one line and the summary counts them), or a failure under ``CI=true``."""
    if STRICT_SHARED_DATA:
        pytest.fail(f"{SHARED_DATA_MISSING}; CI=true: missing shared data is a failure", pytrace=False)
    pytest.skip(SHARED_DATA_MISSING)


def _skip_location() -> tuple[str, int]:
    """``(file, line)`` of the ``pytest.skip`` call above: every shared-data skip is reported there."""
    import inspect

    lines, first = inspect.getsourcelines(_shared_data_missing)
    offset = next(i for i, line in enumerate(lines) if "pytest.skip(" in line)
    return str(Path(__file__)), first + offset


_SKIP_LOCATION = _skip_location()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """pytest reports a skip raised in a fixture at the test's own line, so ``-ra`` would print one line per test;
    a shared-data skip is reported at its one place instead, which folds them all into one line."""
    outcome = yield
    report = outcome.get_result()
    longrepr = report.longrepr
    if report.skipped and isinstance(longrepr, tuple) and len(longrepr) == 3 and SHARED_DATA_MISSING in longrepr[2]:
        report.longrepr = (*_SKIP_LOCATION, longrepr[2])


def shared_path(name: str) -> Path:
    """Path of the shared data file ``name``; skips the calling test when it is missing (fails under ``CI=true``)."""
    path = SHARED_DATA / name
    if not path.is_file():
        _shared_data_missing()
    return path


def read_jsonl(name: str) -> list[dict]:
    """Rows of the shared data file ``name`` (skips the test if it is missing; fails under ``CI=true``)."""
    with open(shared_path(name), encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def crosswoz_items(groups: list[dict]) -> tuple[list[str], list[list[str]]]:
    """Leave-one-out items from same-query groups: each response in turn is the prediction, the group's other
    responses (2-4, ragged) are its references."""
    preds, refs = [], []
    for g in groups:
        resp = g["responses"]
        for k in range(len(resp)):
            preds.append(resp[k])
            refs.append(resp[:k] + resp[k + 1:])
    return preds, refs


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


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One line at the end of the run: how many tests the missing shared data skipped (or failed), and where it was
    looked for."""
    def about_data(report) -> bool:
        longrepr = getattr(report, "longrepr", None)
        text = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr or "")
        return SHARED_DATA_MISSING in text

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
