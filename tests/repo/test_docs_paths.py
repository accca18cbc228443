"""Every repository path that docs/CONTRIBUTING.md and docs/DESIGN.md name exists: a backticked token with a ``/`` that
starts at a top-level folder of the repository (``zheval/compute/rouge.py``, ``tests/helpers``), or that names a file
(``presets/rouge155.py``, read in its context: below ``zheval/``, ``zheval/adapters/``, ``tests/``, ``tests/adapters/``,
``metrics/`` or ``docs/``). Placeholders (``metrics/<name>/<name>.py``, globs) and paths outside the repository
(``../shared``) are not paths of the repository."""

from __future__ import annotations

import re

import pytest

from helpers import REPO

DOCS = ("docs/CONTRIBUTING.md", "docs/DESIGN.md")
ROOTS = ("zheval/", "tests/", "docs/", "metrics/", "scripts/", "examples/", ".ci/")
CONTEXTS = ("", "zheval", "zheval/adapters", "tests", "tests/adapters", "metrics", "docs")
FILE = re.compile(r"\.(py|md|toml|yml|yaml|txt|j2|json|jsonl|sh|bib|css)$")


def named_paths(text: str) -> list[str]:
    """The repository paths a Markdown text names (see the module docstring)."""
    found = []
    for token in re.findall(r"`([^`\s]+)`", text):
        path = token.split("::")[0].rstrip(",.;:")
        if "/" not in path or re.search(r"[<>*{}$()=]", path) or path.startswith(("http", "../", "/", "shared/")):
            continue
        if path.startswith(ROOTS) or FILE.search(path):
            found.append(path)
    return sorted(set(found))


@pytest.mark.parametrize("doc", DOCS)
def test_every_named_path_exists(doc):
    paths = named_paths((REPO / doc).read_text(encoding="utf-8"))
    assert len(paths) >= 8, paths  # the rule finds the paths these pages are made of
    missing = [p for p in paths if not any((REPO / base / p).exists() for base in CONTEXTS)]
    assert not missing, f"{doc} names paths that do not exist: {missing}"


def test_the_rule_sees_a_stale_path():
    text = "the core (`zheval/rouge.py`, `zheval/definitions/lcs.py`), `metrics/<name>/<name>.py`, `../shared/data`"
    paths = named_paths(text)
    assert paths == ["zheval/definitions/lcs.py", "zheval/rouge.py"]
    assert not (REPO / "zheval/rouge.py").exists() and (REPO / "zheval/definitions/lcs.py").exists()
