"""The docstrings speak the docs site's language: no Sphinx role (``:func:`...```, shown as literal text by
mkdocstrings) is left in zheval/ (``scripts/docstring_roles.py --check``), and the script that rewrote them turns a
role into an autorefs cross-reference where the site documents the target, plain code elsewhere, idempotently."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections import Counter


from helpers import REPO

SCRIPT = REPO / "scripts" / "docstring_roles.py"


def _script():
    spec = importlib.util.spec_from_file_location("docstring_roles", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_no_sphinx_role_is_left_in_zheval():
    res = subprocess.run([sys.executable, str(SCRIPT), "--check"], cwd=REPO, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stdout[-3000:]


def test_check_names_a_role_that_reappears(tmp_path):
    (tmp_path / "clean.py").write_text('"""See [`get_tokenizer`][zheval.tokenizers.get_tokenizer]."""\n')
    res = subprocess.run([sys.executable, str(SCRIPT), "--check", "--root", str(tmp_path)], capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 0, res.stdout
    (tmp_path / "sample.py").write_text('"""Fine.\n\nUses :func:`zheval.compute_rouge`."""\n', encoding="utf-8")
    res = subprocess.run([sys.executable, str(SCRIPT), "--check", "--root", str(tmp_path)], capture_output=True,
                         text=True, timeout=60)
    assert res.returncode == 1 and "sample.py:3: :func:`zheval.compute_rouge`" in res.stdout, res.stdout


def test_rewrite_links_documented_targets_and_codes_the_rest():
    roles = _script()
    inventory = ["zheval.tokenizers.get_tokenizer", "zheval.compute.rouge.compute_rouge",
                 "zheval.compute.rouge.rouge_items"]
    resolver = roles.Resolver(inventory)
    source = (
        '"""ROUGE: :func:`~zheval.tokenizers.get_tokenizer`, :func:`zheval.compute_rouge`, :func:`rouge_items`,\n'
        ':class:`zheval.compute.rouge.RougeConfig`, :exc:`ValueError`, :func:`the pair <rouge_items>`."""\n'
        "# a comment on :func:`zheval.tokenizers.get_tokenizer`\n"
        "X = 1\n"
    )
    counts = Counter()
    out = roles.rewrite_source(source, "zheval.compute.rouge", resolver, counts)
    assert out == (
        '"""ROUGE: [`get_tokenizer`][zheval.tokenizers.get_tokenizer], '
        "[`zheval.compute_rouge`][zheval.compute.rouge.compute_rouge], "
        "[`rouge_items`][zheval.compute.rouge.rouge_items],\n"
        '`zheval.compute.rouge.RougeConfig`, `ValueError`, [`the pair`][zheval.compute.rouge.rouge_items]."""\n'
        "# a comment on `zheval.tokenizers.get_tokenizer`\n"
        "X = 1\n"
    )
    assert counts["link"] == 4 and counts["code"] == 3
    assert roles.rewrite_source(out, "zheval.compute.rouge", resolver, Counter()) == out  # idempotent
    # a name written as the identifier itself is linked with autorefs' short form
    assert "[`zheval.tokenizers.get_tokenizer`][]" in roles.rewrite_source(
        '"""See :func:`zheval.tokenizers.get_tokenizer`."""\n', "zheval.compute.rouge", resolver, Counter())
