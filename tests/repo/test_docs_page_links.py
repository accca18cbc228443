"""The guides point at each other with links a reader can click, not with paths written as text: no page of the docs
site (but the design map, ``docs/DESIGN.md``, which lists repository files) names another page as a plain
``docs/<page>.md`` path; the strict site build (tests/repo/test_docs_site.py) checks that every link and anchor
resolves."""

from __future__ import annotations

import re

import pytest

from helpers import REPO

PAGES = sorted(p for p in (REPO / "docs").glob("*.md") if p.name != "DESIGN.md")

#: A backticked ``docs/<page>.md`` that is not the text of a link (``[`docs/x.md`](x.md)`` is a link).
PLAIN_PATH = re.compile(r"(?<!\[)`docs/([\w-]+)\.md`")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_page_names_another_page_as_plain_text(page):
    text = page.read_text(encoding="utf-8")
    plain = [(text[:m.start()].count("\n") + 1, m.group(0)) for m in PLAIN_PATH.finditer(text)
             if (REPO / "docs" / f"{m.group(1)}.md").is_file()]
    assert not plain, f"{page.name}: write these as links ([title](page.md)): {plain}"


def test_the_cli_page_links_the_pages_it_names():
    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    for page in ("doors.md", "compare.md", "human_review.md", "diagnostics.md", "chrf.md"):
        assert f"]({page})" in text, page
