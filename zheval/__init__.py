"""zheval: trustworthy, fast Chinese BLEU and ROUGE for the Hugging Face ecosystem.

Layers (see ``../shared/DESIGN.md``):

* :mod:`zheval.normalize` and :mod:`zheval.tokenizers` — one explicit normalisation and tokenisation;
* :mod:`zheval.rouge`, :mod:`zheval.bleu`, :mod:`zheval.lcs` — pure scoring functions on token sequences;
* :mod:`zheval.corpus`, :mod:`zheval.inputs`, :mod:`zheval.stats`, :mod:`zheval.signature` — shared plumbing;
* ``metrics/chinese_rouge`` and ``metrics/chinese_bleu`` — thin ``evaluate.Metric`` modules on top.
"""

__version__ = "0.1.0"

__all__ = ["__version__", "score"]


def __getattr__(name):
    # ``zheval.score`` (zheval.scoring.score), imported on first use so that ``import zheval`` stays light.
    if name == "score":
        from .scoring import score

        return score
    raise AttributeError(f"module 'zheval' has no attribute {name!r}")
