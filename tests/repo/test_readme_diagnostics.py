"""README.md "Diagnostics": the Python example runs and its numbers are the ones the report gives (the score
without truncated predictions differs from the score on all items on the sample, which has 6 truncated ones)."""

from __future__ import annotations

import re

from helpers import REPO  # noqa: F401
from helpers.docs import doc_section



def test_diagnostics_example_runs():
    text = doc_section("## Diagnostics")
    code = re.search(r"```python\n(.*?)```", text, flags=re.S).group(1)
    ns: dict = {}
    exec(compile(code, "README:diagnostics", "exec"), ns)
    b, report = ns["b"], ns["report"]
    assert b["truncation_excluded"]["excluded"] == report.diagnostics.truncated == 6
    assert b["reference_limit"]["max_refs"] == 3 and "|maxrefs:3|" in report.signatures["bleu"]
    assert set(b["diversity"][0]["distinct"]) == {"distinct_1", "distinct_2"}
    assert len(b["folds"]["metrics"]["bleu"]["folds"]) == 5
    assert "](diagnostics.md)" in text  # a link to the page
