"""lm-evaluation-harness (``lm-eval`` 0.4.x) door: the package a task YAML names with
``!function zheval.adapters.lm_eval_harness.<name>`` (``docs/harnesses.md``). Every name is
[`zheval.adapters.lm_eval_harness.metrics`][]'s (the metrics, aggregations, ``process_results`` functions and their
standard errors); importing this package registers them in lm-eval. `zheval.adapters.lm_eval_harness.cli` runs
lm-eval's own command with them registered. It is named ``lm_eval_harness`` so that it never shadows the ``lm_eval``
package.

lm-eval's ``!function`` resolver first looks for a file ``<yaml folder>/zheval/adapters/lm_eval_harness.py`` beside
the task YAML; as the door is a package, there is none even when the YAML sits in a clone of this repository's root,
so the resolver imports the importable ``zheval`` package by name.
"""

from __future__ import annotations

from .metrics import *  # noqa: F401,F403 - the door re-exports the metrics module's names
from .metrics import __all__  # noqa: F401
