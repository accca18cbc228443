"""zheval: trustworthy, fast Chinese BLEU and ROUGE for the Hugging Face ecosystem.

Layers (see ``../shared/DESIGN.md``):

* :mod:`zheval.normalize` and :mod:`zheval.tokenizers` — one explicit normalisation and tokenisation;
* :mod:`zheval.rouge`, :mod:`zheval.bleu`, :mod:`zheval.lcs` — pure scoring functions on token sequences;
* :mod:`zheval.corpus`, :mod:`zheval.inputs`, :mod:`zheval.stats`, :mod:`zheval.signature` — shared plumbing;
* ``metrics/chinese_rouge`` and ``metrics/chinese_bleu`` — thin ``evaluate.Metric`` modules on top.
"""

__version__ = "0.1.0"

__all__ = ["__version__", "score", "ZhevalWarning", "UnsegmentedTextWarning", "ScriptMismatchWarning",
           "EmptyReferenceError"]

#: Public names imported on first use (so that ``import zheval`` stays light): name -> module.
_LAZY = {
    "score": "scoring",
    # warning categories of the input guards (zheval.guards), for warnings.filterwarnings(..., category=...)
    "ZhevalWarning": "guards",
    "UnsegmentedTextWarning": "guards",
    "ScriptMismatchWarning": "guards",
    # the empty-reference error (a ValueError), zheval.inputs
    "EmptyReferenceError": "inputs",
}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is not None:
        from importlib import import_module

        return getattr(import_module(f".{module}", __name__), name)
    raise AttributeError(f"module 'zheval' has no attribute {name!r}")
