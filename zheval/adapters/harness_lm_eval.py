"""lm-evaluation-harness (``lm-eval`` 0.4.x) door: the module a task YAML names with
``!function zheval.adapters.harness_lm_eval.<name>`` (``docs/harnesses.md``). Every name is
:mod:`zheval.adapters.lm_eval_metrics`'s (the metrics, aggregations, ``process_results`` functions and their
standard errors); importing this module registers them in lm-eval. It is named ``harness_lm_eval`` so that it never
shadows the ``lm_eval`` package.

**Loaded by its file path.** lm-eval's ``!function`` resolver first looks for the module as a file beside the task
YAML (``<yaml folder>/zheval/adapters/harness_lm_eval.py``) and loads it by path, outside any package. That happens
when the YAML sits in a folder holding a ``zheval/`` folder -- a clone of this repository's root. Then this file
does not run as part of the package: it imports the ``zheval`` package (the installed one, which the YAML's dotted
name means) and hands over its names, so the task works; a different copy of zheval than the file lm-eval found is
named in a warning. Without an importable ``zheval`` it raises an ImportError that says what to do.
"""

from __future__ import annotations

if __name__ == "zheval.adapters.harness_lm_eval":
    from .lm_eval_metrics import *  # noqa: F401,F403 - the door re-exports the metrics module's names
    from .lm_eval_metrics import __all__  # noqa: F401
else:  # loaded by file path (lm-eval's !function resolver, a task YAML beside a zheval/ folder)
    import importlib as _importlib
    import logging as _logging
    import os as _os

    _here = _os.path.abspath(__file__)
    _clone = _os.path.dirname(_os.path.dirname(_os.path.dirname(_here)))
    try:
        _door = _importlib.import_module("zheval.adapters.harness_lm_eval")
    except ImportError as _exc:
        raise ImportError(
            f"lm-eval loaded {_here} by its file path, because the task YAML's folder holds a zheval/ folder ({_clone}); "
            "that file is part of the zheval package, which does not import here "
            f"({_exc}). Install it (pip install -e {_clone}) or move the task YAML out of {_clone}.") from _exc
    _package_file = _os.path.abspath(_door.__file__)
    if _package_file != _here:
        _logging.getLogger("zheval.adapters.harness_lm_eval").warning(
            "lm-eval found %s beside the task YAML; zheval's metrics come from the importable zheval package, %s "
            "(the module the YAML's !function names)", _here, _package_file)
    __all__ = list(_door.__all__)
    globals().update({_name: getattr(_door, _name) for _name in __all__})
