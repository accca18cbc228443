"""The documentation as the tests read it: README.md and the pages of the docs site (``docs/*.md``).

A section is found by its heading wherever it lives (the README keeps a short front door; the guides are pages of
``docs/``), so a test that runs a documented example keeps running it when a section moves between pages.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from . import REPO

__all__ = ["DOC_FILES", "doc_files", "doc_section", "doc_file_of", "heading_slug", "page_headings", "fenced_block",
           "zheval_commands"]


def doc_files() -> list[Path]:
    """README.md, then every page of the docs site, sorted."""
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


DOC_FILES = doc_files()

_FENCE = re.compile(r"^```")


def _headings(text: str):
    """``(level, title, start offset of the line)`` of every Markdown heading outside code blocks."""
    out, fence, pos = [], False, 0
    for line in text.split("\n"):
        if _FENCE.match(line):
            fence = not fence
        elif not fence:
            m = re.match(r"^(#{1,6}) (.+?)\s*$", line)
            if m:
                out.append((len(m.group(1)), m.group(2), pos))
        pos += len(line) + 1
    return out


def _find(heading: str):
    m = re.match(r"^(#{1,6}) (.+)$", heading.strip())
    assert m, f"a heading starts with #: {heading!r}"
    level, title = len(m.group(1)), m.group(2)
    hits = []
    for path in doc_files():
        text = path.read_text(encoding="utf-8")
        heads = _headings(text)
        for i, (lv, t, start) in enumerate(heads):
            if lv == level and t.startswith(title):
                end = next((s for lv2, _, s in heads[i + 1:] if lv2 <= level), len(text))
                hits.append((path, text[start:end]))
    assert hits, f"no section {heading!r} in README.md or docs/*.md"
    assert len(hits) == 1, f"section {heading!r} is in several places: {[str(p) for p, _ in hits]}"
    return hits[0]


def doc_section(heading: str) -> str:
    """The text of the one section whose heading (same level, title starting with the given one) is ``heading``,
    up to the next heading of the same or a higher level; an AssertionError if none or several match."""
    return _find(heading)[1]


def doc_file_of(heading: str) -> Path:
    """The file (README.md or a docs page) that holds the section ``heading``."""
    return _find(heading)[0]


def heading_slug(title: str) -> str:
    """The anchor of a heading as GitHub and mkdocs (Python-Markdown's toc) make it for our headings: lower case,
    characters other than letters, digits, ``-``, ``_`` and spaces removed, spaces to ``-``."""
    text = title.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text, flags=re.ASCII)
    return re.sub(r"[\- ]+", "-", text).strip("-")


def page_headings(path: Path) -> dict[str, str]:
    """``{anchor: title}`` of every heading of a Markdown file."""
    return {heading_slug(t): t for _, t, _ in _headings(path.read_text(encoding="utf-8"))}


def fenced_block(text: str, lang: str = "python") -> str:
    """The body of the first ```` ```lang ```` block of ``text`` (a page or a :func:`doc_section`); an AssertionError
    if there is none."""
    m = re.search(rf"```{lang}\n(.*?)```", text, flags=re.S)
    assert m, f"no ```{lang} block in {text[:80]!r}..."
    return m.group(1)


def zheval_commands(text: str) -> list[list[str]]:
    """The command lines of the first ```` ```bash ```` block of ``text``, comments dropped, each split as a shell
    does and without its leading ``zheval`` (every line must be a ``zheval`` command)."""
    out = []
    for line in fenced_block(text, "bash").splitlines():
        line = line.split("#")[0].strip()
        if line:
            args = shlex.split(line)
            assert args[0] == "zheval", line
            out.append(args[1:])
    return out
