"""Shared test fixtures: the real public data in ../shared/data (read at run time, never copied into the repo)."""

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
SHARED_DATA = Path(os.environ.get("ZHEVAL_SHARED_DATA", REPO.parent / "shared" / "data"))


def read_jsonl(name: str) -> list[dict]:
    """Rows of ``../shared/data/<name>``; fails loudly (not a skip) when the data is missing."""
    path = SHARED_DATA / name
    if not path.exists():
        raise FileNotFoundError(f"shared test data missing: {path} (set ZHEVAL_SHARED_DATA)")
    with open(path, encoding="utf-8") as fh:
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
