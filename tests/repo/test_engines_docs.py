"""The code in docs/engines.md is byte for byte the snippet files that tests/adapters/engines/test_engine_docs.py
executes with Ray and Spark."""

from __future__ import annotations

import re

import pytest
from helpers import REPO

SNIPPETS = {
    "## Ray": REPO / "tests" / "adapters" / "engines" / "docs_ray_snippet.py",
    "## Spark": REPO / "tests" / "adapters" / "engines" / "docs_spark_snippet.py",
}


def python_block_after(text: str, heading: str) -> str:
    start = text.find("\n" + heading + "\n")
    assert start >= 0, f"docs/engines.md lost its {heading!r} section"
    m = re.search(r"```python\n(.*?)```", text[start:], flags=re.S)
    assert m, f"section {heading!r} has no python code block"
    return m.group(1)


@pytest.mark.parametrize("heading", list(SNIPPETS))
def test_docs_code_is_the_executed_snippet(heading):
    docs = (REPO / "docs" / "engines.md").read_text(encoding="utf-8")
    assert python_block_after(docs, heading) == SNIPPETS[heading].read_text(encoding="utf-8")
