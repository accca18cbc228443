"""Docs items of issue 35: no machine path in a documented command, code blocks that wrap (a trailing comment is
never hidden behind a scrollbar on the docs site), and chrF named wherever the metrics are listed."""

from __future__ import annotations

import re

import yaml

from helpers import REPO

DOCS = sorted((REPO / "docs").glob("*.md")) + [REPO / "README.md"]


def test_no_machine_path_in_the_docs():
    bad = []
    for page in DOCS:
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"(?<![\w.])/(?:work|home|root|Users)/", line):
                bad.append(f"{page.relative_to(REPO)}:{n}: {line.strip()}")
    assert not bad, "\n".join(bad)


def test_code_blocks_wrap_on_the_site():
    config = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    sheets = config.get("extra_css", [])
    assert sheets, "mkdocs.yml names no extra stylesheet"
    css = "".join((REPO / "docs" / s).read_text(encoding="utf-8") for s in sheets)
    rule = re.search(r"pre\s*>\s*code\s*\{([^}]*)\}", css)
    assert rule and re.search(r"white-space:\s*pre-wrap", rule.group(1)), css


def test_chrf_is_named_where_the_metrics_are_listed():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    first = readme.split("\n## ", 1)[0]
    assert "metrics/chinese_chrf" in first and "chrF" in first
    index = (REPO / "docs" / "index.md").read_text(encoding="utf-8").split("\n\n")[1]
    assert "chrF" in index, index
    development = (REPO / "docs" / "development.md").read_text(encoding="utf-8")
    row = next(line for line in development.splitlines() if line.startswith("| `metrics/`"))
    assert "chinese_chrf" in row


def test_zheval_help_names_chrf():
    from helpers.cli import run_cli

    res = run_cli("--help")
    assert res.exit_code == 0
    first = res.output.split("Options")[0]
    assert "chrF" in first and "BLEU" in first and "ROUGE" in first, first
