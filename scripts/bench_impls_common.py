"""What every implementation of ``scripts/bench_impls.py`` shares: the ROUGE types timed, our char tokenizer and its
cache, and the outputs turned into comparable numbers; importing it puts the code under test first on sys.path."""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import Dict, List


ROOT = Path(__file__).resolve().parents[1]
#: Where ``zheval`` and ``metrics/`` are imported from: the parent's snapshot of the code under test (see
#: ``bench.py --no-snapshot``), else the repository itself.
SRC = Path(os.environ.get("ZHEVAL_BENCH_SRC") or ROOT)
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))

ROUGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _char_tokenizer():
    from zheval.tokenizers import get_tokenizer

    return get_tokenizer("char")


def _clear():
    from zheval.tokenizers import clear_cache

    clear_cache()


# ---------------------------------------------------------------------------------------------------------------
# output normalisation


def _triple(v):
    """(P, R, F) from a rouge Score-like value, a dict, or a bare F float (P, R = None)."""
    if hasattr(v, "fmeasure"):
        return (float(v.precision), float(v.recall), float(v.fmeasure))
    if isinstance(v, dict):
        f = v.get("fmeasure", v.get("f", v.get("f1")))
        return (v.get("precision", v.get("p")), v.get("recall", v.get("r")), None if f is None else float(f))
    if isinstance(v, (int, float)):
        return (None, None, float(v))
    raise TypeError(f"cannot read a ROUGE score from {type(v).__name__}: {v!r}")


def _peer_check(per_item: List[Dict]) -> dict:
    items = {t: [(s[t].precision, s[t].recall, s[t].fmeasure) for s in per_item] for t in ROUGE_TYPES}
    n = len(per_item)
    mean = {t: tuple(math.fsum(x[k] for x in items[t]) / n for k in range(3)) for t in ROUGE_TYPES}
    return {"mean": mean, "items": items}


def rouge_check_from_result(res) -> dict:
    """Comparable numbers from a ``compute_rouge``/``chinese_rouge`` result (aggregated or per item)."""
    out: dict = {"mean": {}, "items": {}}
    for t in ROUGE_TYPES:
        v = res[t]
        if isinstance(v, (list, tuple)) and not hasattr(v, "fmeasure"):
            trip = [_triple(x) for x in v]
            ps, rs = res.get(f"{t}_precision"), res.get(f"{t}_recall")
            if isinstance(ps, list) and isinstance(rs, list):  # return_precision_recall=True
                trip = [(p, r, f) for p, r, (_p, _r, f) in zip(ps, rs, trip)]
            out["items"][t] = trip
            n = len(trip)
            out["mean"][t] = tuple(
                None if any(x[k] is None for x in trip) else math.fsum(x[k] for x in trip) / n for k in range(3)
            )
        else:
            p, r, f = _triple(v)
            # flat keys such as rouge1_precision / rouge1_recall (Hub-style extras)
            p = p if p is not None else res.get(f"{t}_precision")
            r = r if r is not None else res.get(f"{t}_recall")
            out["mean"][t] = (p, r, f)
    if not out["items"]:
        del out["items"]
    return out
