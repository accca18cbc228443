"""The documentation site builds: ``mkdocs build --strict`` (mkdocs-material, mkdocstrings' API reference from the
docstrings) with no warning — a broken link or anchor, a page left out of the nav, a docstring mkdocstrings cannot
parse fails it. The ``docs`` extra installs the builder (``python3 dev.py test`` does); without it a local run skips
this file, and under ``CI=true`` it fails."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from helpers import REPO

MISSING = importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("mkdocstrings") is None


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if MISSING:
        if os.environ.get("CI") == "true":
            pytest.fail("mkdocs / mkdocstrings are missing under CI=true: pip install -e '.[docs]'")
        pytest.skip("docs site: mkdocs / mkdocstrings missing: pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    res = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)], cwd=REPO, env=env,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    return out


def test_every_docs_page_is_in_the_site(site):
    pages = sorted(p.stem for p in (REPO / "docs").glob("*.md"))
    for stem in pages:
        built = site / ("index.html" if stem == "index" else f"{stem}/index.html")
        assert built.is_file(), f"docs/{stem}.md is not in the built site"


def test_the_api_reference_is_generated_from_the_docstrings(site):
    html = (site / "api" / "index.html").read_text(encoding="utf-8")
    for name in ("compute_rouge", "compute_bleu", "score", "explain", "get_tokenizer", "build_compute_metrics"):
        assert f'id="zheval.' in html and name in html, name
    # a sentence of compute_rouge's docstring reaches the page
    import zheval

    first = zheval.compute_rouge.__doc__.strip().splitlines()[0].split("``")[0].strip()[:30]
    assert first and first in html
