"""The Poisson bootstrap's intervals of a whole list in one process: what
[`zheval.score`][zheval.compute.joint.score] gives for ``bootstrap_method="poisson"`` (the same intervals as
[`zheval.score_batches`][zheval.compute.batches.score_batches] and the engine doors on the same items), and the pieces
the streamed sums share with it (`poisson_signature`, `resampled_interval`). The method: `zheval.results.poisson`.
"""

from __future__ import annotations

from typing import Any, Dict

import numpy as np

from ..definitions.bleu_score import score_stats as bleu_score_stats
from ..results.partial_sums import PartialSums
from ..results.poisson import percentile_interval, poisson_weights
from ..results.reducers import MIN_INTERVAL_ITEMS, no_interval_reason
from .chrf import score_from_sums as chrf_score_from_sums

__all__ = ["RESAMPLE_BLOCK", "poisson_signature", "resampled_interval", "with_poisson_intervals"]

RESAMPLE_BLOCK = 1024  # items per weight block: (B, 1024) uint8 at a time


def poisson_signature(signature: str) -> str:
    """``signature`` with ``bsmethod:poisson`` after its ``seed`` field (an interval of the Poisson bootstrap is not
    the multinomial one of the same ``bs`` and ``seed``: the signature says so)."""
    head, sep, tail = signature.partition("|seed:")
    if not sep:
        return signature
    value, bar, rest = tail.partition("|")
    return f"{head}|seed:{value}|bsmethod:poisson{bar}{rest}"


def resampled_interval(sums: PartialSums, name: str, score, confidence: float):
    """The percentile interval of the resampled statistic ``score(row)`` over the rows of ``sums``' resampled
    integer sums ``name`` (a resample of total weight 0 left out); ``(0.0, 0.0)`` without items."""
    if not sums.n:
        return 0.0, 0.0
    rows = sums.resample_ints[name]
    stats = np.array([score(row) if w else np.nan for row, w in zip(rows, sums.resample_weights.tolist())])
    return percentile_interval(stats, confidence)


def _with_interval(result: Dict[str, Any], bounds: Dict[str, float], signature: str) -> Dict[str, Any]:
    """``result`` with the interval keys inserted before its ``signature``, which is replaced."""
    out: Dict[str, Any] = {}
    for k, v in result.items():
        if k == "signature":
            out.update(bounds)
            out[k] = signature
        else:
            out[k] = v
    return out


def with_poisson_intervals(out: Dict[str, dict], items, config, keys: np.ndarray,
                           per_item: Dict[str, np.ndarray]) -> Dict[str, dict]:
    """``out`` (the result of [`zheval.compute.joint.score_result`][] without a bootstrap) with the Poisson
    bootstrap's intervals of ``items`` and ``bsmethod:poisson`` signatures.

    Args:
        out: ``{metric: result}``. items: the `zheval.compute.joint.ScoreItems` of every row (at least one).
        config: the `zheval.compute.joint.ScoreConfig` with ``bootstrap`` > 0. keys: ``(n,)`` uint64 item keys
            (`zheval.results.poisson.item_keys`). per_item: the `zheval.compute.joint.item_scores` columns of the
            sentence-level metrics (a sentence-level interval resamples the mean of the per-item scores), or ``{}``.
    """
    counts = sorted(set(items.rouge.reference_counts.tolist() if items.rouge is not None else
                        (items.bleu or items.chrf).reference_counts.tolist()))
    if len(items) < MIN_INTERVAL_ITEMS:
        return {m: _with_interval(r, {"no_interval": no_interval_reason(len(items))},
                                  poisson_signature(getattr(config, m).signature(counts))) for m, r in out.items()}
    boot, seed = int(config.first.bootstrap), int(config.first.seed)
    sentence = {m: getattr(config, m) is not None and getattr(config, m).level == "sentence" for m in ("bleu", "chrf")}
    sums = PartialSums()
    for start in range(0, len(items), RESAMPLE_BLOCK):
        idx = np.arange(start, min(start + RESAMPLE_BLOCK, len(items)))
        w = poisson_weights(np.asarray(keys)[idx], seed, boot)
        part = items.select(idx)
        sums.add_items(len(idx), w)
        if config.rouge is not None:
            for t in part.rouge.types:
                sums.add_floats(f"rouge:{t}:f", part.rouge.fmeasure[t], w)
        for m in ("bleu", "chrf"):
            if getattr(config, m) is None:
                continue
            if sentence[m]:
                sums.add_floats(f"{m}:sentence", per_item[m][idx], w)
            else:
                sums.add_ints(m, getattr(part, m).stats, w)
    metrics = dict(out)
    if config.rouge is not None:
        c = config.rouge
        bounds = {}
        for t in c.types:
            bounds[f"{t}_ci_low"], bounds[f"{t}_ci_high"] = percentile_interval(
                sums.resampled_means(f"rouge:{t}:f"), c.confidence)
        metrics["rouge"] = _with_interval(out["rouge"], bounds, poisson_signature(c.signature(counts)))
    for m in ("bleu", "chrf"):
        c = getattr(config, m)
        if c is None:
            continue
        if sentence[m]:
            low, high = percentile_interval(sums.resampled_means(f"{m}:sentence"), c.confidence)
        elif m == "bleu":
            opts = c.score_options
            low, high = resampled_interval(sums, "bleu", lambda row: bleu_score_stats(row.tolist(), **opts).score,
                                            c.confidence)
        else:
            from_sums = chrf_score_from_sums(c)
            low, high = resampled_interval(sums, "chrf", lambda row: float(from_sums(row[None, :])[0]), c.confidence)
        metrics[m] = _with_interval(out[m], {f"{m}_ci_low": low, f"{m}_ci_high": high},
                                    poisson_signature(c.signature(counts)))
    return metrics