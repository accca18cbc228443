"""lm-eval's own command with zheval's metrics registered first: ``python -m zheval.adapters.lm_eval_harness.cli ARGS`` runs
exactly ``lm_eval ARGS`` (lm-evaluation-harness 0.4.x, ``lm_eval.__main__.cli_evaluate``; every argument, output and
exit code is lm-eval's), after importing `zheval.adapters.lm_eval_harness`, which registers zheval's metric and
aggregation names. So a task YAML may name them (``metric: zheval_bleu_char``) without any ``!function``: with the
plain ``lm_eval`` command nothing imports zheval for such a YAML and lm-eval stops with ``KeyError: None``
(docs/harnesses.md, "Troubleshooting").
"""

from __future__ import annotations

import sys
from typing import Optional, Sequence

__all__ = ["main"]


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Run lm-eval's command line with zheval's metrics registered.

    Args:
        argv: the arguments after the program name (default: ``sys.argv[1:]``), as for ``lm_eval``.

    Raises:
        ImportError: lm-eval is not installed (``pip install "lm-eval[api]==0.4.13"``). Everything else is lm-eval's
        (its ``SystemExit`` codes included).
    """
    from . import metrics  # noqa: F401 - registers zheval's metrics in lm-eval
    from lm_eval.__main__ import cli_evaluate

    if argv is not None:
        sys.argv = [sys.argv[0], *argv]
    cli_evaluate()


if __name__ == "__main__":
    main()
