"""``zheval compare`` imports ``zheval.adapters.compare`` first in a fresh process: that import must not be circular
(``adapters/duck/__init__.py`` re-exports ``compare_predictions``, and ``adapters/compare.py`` imports the duck
package's modules)."""

from __future__ import annotations

import subprocess
import sys

from helpers import REPO


def test_compare_module_imports_first_in_a_fresh_process():
    code = ("import zheval.adapters.compare as c, zheval.adapters.duck as d; "
            "assert d.compare_predictions is c.compare_predictions")
    res = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
