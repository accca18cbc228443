"""The speed-floor prototype of issue 26 (``../shared/perf-floor/floor3.py``) as ``scripts/bench.py``
implementations, timed side by side with zheval in the same run (``floor3/rouge``, ``floor3/bleu``,
``floor3/both``).

``floor3.py`` is a standalone numpy + standard-library program computing zheval's default char ROUGE-1/2/L (per-item
F, exact) and char BLEU; it is not part of zheval and is looked up at ``$ZHEVAL_PERF_FLOOR`` or
``<repo>/../shared/perf-floor`` (then ``/work/shared/perf-floor``). When it is not there, these implementations are
not registered (bench.py lists what it has).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def floor3_path() -> "Path | None":
    """The folder holding ``floor3.py``, or None."""
    for cand in (os.environ.get("ZHEVAL_PERF_FLOOR"), ROOT.parent / "shared" / "perf-floor",
                 Path("/work/shared/perf-floor")):
        if cand and (Path(cand) / "floor3.py").exists():
            return Path(cand)
    return None


def _floor3():
    spec = importlib.util.spec_from_file_location("floor3", floor3_path() / "floor3.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _rouge_check(means: dict) -> dict:
    return {"mean": {t: (None, None, float(means[t])) for t in ("rouge1", "rouge2", "rougeL")}}


def floor3_rouge(w):
    """floor3.rouge_corpus: mean F of rouge1/2/L (zheval's defaults, char), raw text."""
    f3 = _floor3()
    preds, refs = w["predictions"], w["references"]
    return (lambda: f3.rouge_corpus(preds, refs)), _rouge_check, None


def floor3_bleu(w):
    """floor3.bleu_corpus: zheval's default char corpus BLEU, raw text."""
    f3 = _floor3()
    preds, refs = w["predictions"], w["references"]
    return (lambda: f3.bleu_corpus(preds, refs)), (lambda s: {"bleu": float(s)}), None


def floor3_both(w):
    """floor3.rouge_bleu_corpus: rouge1/2/L and BLEU from one normalisation and tokenisation."""
    f3 = _floor3()
    preds, refs = w["predictions"], w["references"]

    def check(out):
        c = _rouge_check(out)
        c["bleu"] = float(out["bleu"])
        return c

    return (lambda: f3.rouge_bleu_corpus(preds, refs)), check, None


IMPLS = {}
if floor3_path() is not None:
    IMPLS = {
        "floor3/rouge": ("rouge", floor3_rouge, False, "perf-floor floor3.rouge_corpus: rouge1/2/L, numpy prototype"),
        "floor3/bleu": ("bleu", floor3_bleu, False, "perf-floor floor3.bleu_corpus: char BLEU, numpy prototype"),
        "floor3/both": ("both", floor3_both, False, "perf-floor floor3.rouge_bleu_corpus: rouge1/2/L + BLEU"),
    }
