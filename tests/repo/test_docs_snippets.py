"""The code the guides show is byte for byte the snippet files the tests execute: docs/engines.md's Ray and Spark
blocks (run with Ray and Spark by tests/adapters/engines/test_engine_docs.py), docs/trainer.md's "Use in a Trainer"
and "Scale-out" blocks (tests/adapters/trainer/test_trainer_runs.py, tests/adapters/evaluate/test_distributed_eval.py)."""

from __future__ import annotations

import pytest

from helpers import REPO
from helpers.docs import doc_file_of, doc_section, fenced_block

SNIPPETS = {
    "## Ray": ("engines.md", "adapters/engines/docs_ray_snippet.py"),
    "## Spark": ("engines.md", "adapters/engines/docs_spark_snippet.py"),
    "## Use in a Trainer": ("trainer.md", "adapters/trainer/readme_trainer_snippet.py"),
    "## Scale-out": ("trainer.md", "adapters/evaluate/readme_distributed_snippet.py"),
}


@pytest.mark.parametrize("heading", list(SNIPPETS))
def test_docs_code_is_the_executed_snippet(heading):
    page, snippet = SNIPPETS[heading]
    assert doc_file_of(heading) == REPO / "docs" / page
    assert fenced_block(doc_section(heading), "python") == (REPO / "tests" / snippet).read_text(encoding="utf-8")
