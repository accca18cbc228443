"""No library function over 100 lines (its span from ``def`` to its last line, docstring included) outside the
numeric kernels listed here by name: a long function is split at its natural seams (options, scoring, the test,
the report) so that each part can be read and tested alone. A kernel is a loop kept whole for speed, with a
reference implementation it is tested against."""

from __future__ import annotations

import ast

from helpers import REPO

MAX_LINES = 100

#: The kernels allowed to be longer, each with the reference it is tested against.
KERNELS = {
    ("zheval/fast/union_lcs.py", "_hits"): "union-LCS hits, tested against definitions.union_lcs",
    ("zheval/fast/ngrams.py", "item_clipped_hits_orders"): "clipped n-gram hits, against definitions.rouge/bleu",
    ("zheval/fast/compiled/union_kernel.py", "union_lcs_hits"): "the compiled union-LCS loop, against fast/union_lcs",
}


def long_functions() -> dict:
    out = {}
    for path in sorted((REPO / "zheval").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                span = node.end_lineno - node.lineno + 1
                if span > MAX_LINES:
                    out[(rel, node.name)] = span
    return out


def test_no_library_function_is_over_100_lines_outside_the_kernels():
    too_long = {k: v for k, v in long_functions().items() if k not in KERNELS}
    assert not too_long, f"functions over {MAX_LINES} lines (split them at their seams): {too_long}"


def test_every_listed_kernel_still_exists_and_is_long():
    found = long_functions()
    stale = [k for k in KERNELS if k not in found]
    assert not stale, f"listed as long kernels but absent or no longer over {MAX_LINES} lines: {stale}"
