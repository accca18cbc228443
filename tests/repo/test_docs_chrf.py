"""docs/chrf.md stays true: its pycon examples run as doctests against the library."""

import doctest
import re

from helpers import REPO

DOC = (REPO / "docs" / "chrf.md").read_text(encoding="utf-8")


def test_chrf_doc_examples_pass():
    blocks = re.findall(r"```pycon\n(.*?)```", DOC, flags=re.S)
    assert blocks
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "chrf.md", "docs/chrf.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 5
