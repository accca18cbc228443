"""The code in docs/trainer.md ("Use in a Trainer", "Scale-out") is byte for byte the snippet files that tests/adapters/trainer/test_trainer_runs.py and
tests/adapters/evaluate/test_distributed_eval.py execute."""

from __future__ import annotations

import re

import pytest
from helpers import REPO

SNIPPETS = {
    "## Use in a Trainer": REPO / "tests" / "adapters" / "trainer" / "readme_trainer_snippet.py",
    "## Scale-out": REPO / "tests" / "adapters" / "evaluate" / "readme_distributed_snippet.py",
}


def python_block_after(text: str, heading: str) -> str | None:
    """The first ```python block of the section that starts with ``heading`` (None if the section is absent)."""
    start = text.find(heading)
    if start < 0:
        return None
    nxt = re.search(r"^## ", text[start + len(heading) :], flags=re.M)
    section = text[start : start + len(heading) + (nxt.start() if nxt else len(text))]
    m = re.search(r"```python\n(.*?)```", section, flags=re.S)
    assert m, f"section {heading!r} has no python code block"
    return m.group(1)


@pytest.mark.parametrize("heading", list(SNIPPETS))
def test_docs_code_is_the_executed_snippet(heading):
    docs = (REPO / "docs" / "trainer.md").read_text(encoding="utf-8")
    assert python_block_after(docs, heading) == SNIPPETS[heading].read_text(encoding="utf-8")

