"""Shared helpers of the test suite: where the repository and the real public test data are, and how a test reads
that data.

The real public test data (CSL, CrossWOZ) is read at run time from :data:`SHARED_DATA` (``$ZHEVAL_SHARED_DATA``,
else ``../shared/data`` next to the repository) and never copied into the repository. Every test that needs it gets
it through :func:`shared_path` / :func:`read_jsonl` or the fixtures of ``tests/conftest.py``, so that without the
data such tests are skipped from one place with one message, counted in one line at the end of the run (the hooks
in ``tests/conftest.py``) — and fail under ``CI=true``.

Tests import this package as ``helpers`` (``from helpers import REPO, read_jsonl``): pytest puts the ``tests``
folder on ``sys.path`` (``pythonpath`` in ``pyproject.toml``) and imports the test files themselves with
``--import-mode=importlib``, so test files never import each other and two of them may share a basename.
"""

from __future__ import annotations

import inspect
import json
import os
from pathlib import Path

import pytest

__all__ = [
    "METRICS",
    "REPO",
    "SHARED_DATA",
    "SHARED_DATA_FILES",
    "SHARED_DATA_MISSING",
    "SHARED_DATA_SKIP_LOCATION",
    "SHARED_DATA_VARIABLE",
    "STRICT_SHARED_DATA",
    "TESTS",
    "crosswoz_items",
    "csl_items",
    "read_jsonl",
    "shared_data_missing",
    "shared_path",
]

TESTS = Path(__file__).resolve().parents[1]
"""The ``tests`` folder."""
REPO = TESTS.parent
"""The repository root."""
METRICS = REPO / "metrics"
"""The folder of the two evaluate metric modules (``chinese_rouge``, ``chinese_bleu``)."""

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


def shared_data_missing() -> None:
    """The one place a test that needs the shared data stops: a skip with one fixed message (so ``-ra`` folds them
    into one line and the summary counts them), or a failure under ``CI=true``."""
    if STRICT_SHARED_DATA:
        pytest.fail(f"{SHARED_DATA_MISSING}; CI=true: missing shared data is a failure", pytrace=False)
    pytest.skip(SHARED_DATA_MISSING)


def _skip_location() -> tuple[str, int]:
    """``(file, line)`` of the ``pytest.skip`` call above: every shared-data skip is reported there."""
    lines, first = inspect.getsourcelines(shared_data_missing)
    offset = next(i for i, line in enumerate(lines) if "pytest.skip(" in line)
    return str(Path(__file__)), first + offset


SHARED_DATA_SKIP_LOCATION = _skip_location()
"""``(file, line)`` at which ``tests/conftest.py`` reports every shared-data skip (one line under ``-ra``)."""


def shared_path(name: str) -> Path:
    """Path of the shared data file ``name``; skips the calling test when it is missing (fails under ``CI=true``)."""
    path = SHARED_DATA / name
    if not path.is_file():
        shared_data_missing()
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


def csl_items(rows: list[dict]) -> tuple[list[str], list[list[str]]]:
    """Items from CSL rows: the prediction is the start of the document, about as long as the summary (-4 to +4
    characters, cycling), the reference the summary."""
    preds = [r["document"][: max(1, len(r["summary"]) + (i % 9) - 4)] for i, r in enumerate(rows)]
    return preds, [[r["summary"]] for r in rows]


def missing_module_message(module: str, call: str) -> str:
    """What ``call`` (Python code after ``import zheval``) prints as its ``ModuleNotFoundError`` in a fresh process in
    which ``module`` cannot be imported (the one-line message of a missing extra)."""
    import subprocess
    import sys

    code = (f"import sys; sys.modules[{module!r}] = None\n"
            "import zheval\n"
            "try:\n"
            f"    {call}\n"
            "except ModuleNotFoundError as exc:\n"
            "    print(exc)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    return out.stdout.strip()
