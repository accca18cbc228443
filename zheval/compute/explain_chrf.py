"""Why this chrF: one item's matched character and word n-grams, from the very counts chrF computes.

`chrf_explanation` lists, for every order of the reference that chrF keeps (the one with the best chrF,
`zheval.definitions.chrf.best_reference_stats`), the n-grams of the prediction found in the reference with the
clipped count, the unmatched ones on both sides, and the order's ``[hyp, ref, match]``, from the n-gram Counters of
`zheval.definitions.chrf.item_ngrams` -- so the matches add up to the statistics row, and ``sentence_chrf``
(`zheval.definitions.chrf_score.f_score`) is ``compute_chrf(level="sentence")["scores"][i]`` exactly
(``tests/compute/test_explain_chrf.py`` checks both on all of the shared real data).

Schema (part of [`zheval.explain`][zheval.compute.explain.explain]'s, key ``"chrf"``; scores 0-1)::

    {"name": "chrF2" | "chrF2++", "sentence_chrf": float, "statistics": [row], "selected": j,
     "per_reference": [{"reference": j, "chrf": float, "statistics": [row]}],
     "why": str,
     "orders": [{"kind": "char" | "word", "n": int, "hyp": int, "ref": int, "matches": int,
                 "precision": float, "recall": float, "effective": bool,
                 "matched": [{"ngram": str | [word, ...], "prediction_count", "reference_count", "match"}],
                 "unmatched_prediction": [{"ngram", "count"}], "unmatched_reference": [{"ngram", "count"}]}]}

A character n-gram is a string of ``n`` characters of the normalised text without whitespace; a word n-gram a list
of ``n`` words (the tokenizer's tokens after chrF++'s punctuation rule). ``hyp`` is 0 for an order the reference has
no n-gram of (sacrebleu's rule); ``effective`` says whether the order enters the default average (n-grams on both
sides; with ``eps_smoothing`` every order does).
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

from ..definitions.chrf import item_ngrams, match_stats
from ..definitions.chrf_score import f_score
from .chrf import ChrfConfig

__all__ = ["chrf_explanation"]


def _gram(g, kind: str, n: int):
    return g if kind == "char" else ([g] if n == 1 else list(g))


def _order(h, r, kind: str, n: int, eps: bool) -> Dict[str, Any]:
    matched, unmatched_h = [], []
    for g, c in h.items():
        rc = r.get(g, 0)
        if rc:
            matched.append({"ngram": _gram(g, kind, n), "prediction_count": c, "reference_count": rc,
                            "match": min(c, rc)})
        else:
            unmatched_h.append({"ngram": _gram(g, kind, n), "count": c})
    unmatched_r = [{"ngram": _gram(g, kind, n), "count": c} for g, c in r.items() if g not in h]
    hyp, ref, m = match_stats([h], [r])
    return {"kind": kind, "n": n, "hyp": hyp, "ref": ref, "matches": m,
            "precision": m / hyp if hyp else 0.0, "recall": m / ref if ref else 0.0,
            "effective": bool(eps or (hyp > 0 and ref > 0)),
            "matched": matched, "unmatched_prediction": unmatched_h, "unmatched_reference": unmatched_r}


def chrf_explanation(prediction: str, prediction_tokens: Sequence[str], references: Sequence[str],
                     reference_tokens: Sequence[Sequence[str]], config: ChrfConfig) -> Dict[str, Any]:
    """The chrF explanation of one item (schema in the module docstring).

    Args:
        prediction, references: the **normalised** texts (``config.tokenizer.normalize``); prediction_tokens,
            reference_tokens: their tokens (used with ``word_order`` > 0; may be empty otherwise). config: from
            [`zheval.compute.chrf.chrf_config`][].
    """
    nc, nw, beta, eps = config.char_order, config.word_order, config.beta, config.eps_smoothing
    hyp = item_ngrams(prediction, prediction_tokens, nc, nw)
    refs = [item_ngrams(r, t, nc, nw) for r, t in zip(references, reference_tokens)]
    per_ref: List[Dict[str, Any]] = []
    best, best_f = 0, -1.0
    for j, r in enumerate(refs):
        row = match_stats(hyp, r)
        f = f_score(row, beta, eps)
        per_ref.append({"reference": j, "chrf": f, "statistics": row})
        if f > best_f:
            best, best_f = j, f
    kinds = [("char", n) for n in range(1, nc + 1)] + [("word", n) for n in range(1, nw + 1)]
    orders = [_order(h, r, kind, n, eps) for (kind, n), h, r in zip(kinds, hyp, refs[best])]
    if len(refs) == 1:
        why = "the only reference"
    else:
        ties = [e["reference"] for e in per_ref if e["chrf"] == best_f]
        why = (f"reference {best + 1} has the highest chrF of the {len(refs)} references (sacrebleu's rule)"
               + (f"; tied with {[t + 1 for t in ties[1:]]}, the first one is kept" if len(ties) > 1 else ""))
    return {"name": config.name, "sentence_chrf": best_f, "statistics": per_ref[best]["statistics"],
            "selected": best, "per_reference": per_ref, "why": why, "orders": orders}
