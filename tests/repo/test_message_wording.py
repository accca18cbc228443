"""No doubled word ("starting at at") in any message or document of the repository: every string literal of the
library, the metric scripts and the scripts (adjacent literals are joined by the parser, so a word repeated across a
line break of a message is caught; an f-string's placeholders count as words of their own), and the prose of the
Markdown files (code blocks left out)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from helpers import REPO

DOUBLED = re.compile(r"\b([A-Za-z]+)\s+\1\b", flags=re.I)


def _literals(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(v.value if isinstance(v, ast.Constant) else " {} " for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_no_doubled_word_in_string_literals():
    files = [*sorted((REPO / "zheval").rglob("*.py")), *sorted((REPO / "metrics").rglob("*.py")),
             *sorted((REPO / "scripts").rglob("*.py")), REPO / "dev.py"]
    found = [f"{p.relative_to(REPO)}:{line}: {m.group(0)!r}"
             for p in files for line, text in _literals(p) for m in DOUBLED.finditer(text)]
    assert found == []


def test_no_doubled_word_in_markdown_prose():
    files = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), *sorted((REPO / "metrics").glob("*/README.md"))]
    found = []
    for p in files:
        prose = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), p.read_text(encoding="utf-8"),
                       flags=re.S)
        for m in DOUBLED.finditer(prose):
            found.append(f"{p.relative_to(REPO)}:{prose[:m.start()].count(chr(10)) + 1}: {m.group(0)!r}")
    assert found == []


def test_the_check_finds_a_doubled_word():
    assert DOUBLED.search("the run starting at\n    at line 3")
    assert not DOUBLED.search("at 3 at 4")
