"""The diagnostics of a 小黄鸭 score report that split or filter the items (``docs/diagnostics.md``):

* `truncation_excluded` -- the scores with the truncated predictions left out, per group, next to the scores on
  all items (never instead of them);
* `group_diversity` -- Distinct-1/2 of the predictions and of the references and the repeated predictions,
  per group ([`zheval.results.distinct`][]);
* `length_buckets` -- the scores per reference-length bucket with counts and intervals;
* `fold_scores` -- the scores of ``k`` random folds and their spread.

Every score here is the report's own reduction (`score_groups` with the same
`MetricSpec` s) of a selection of items, so a group's number is exactly the number
``compute_bleu``/``compute_rouge`` give on those items; the splits themselves are `zheval.results.breakdowns`.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ...results.breakdowns import DEFAULT_BUCKETS, bucket_groups, check_buckets, check_folds, fold_groups, fold_stability
from ...results.diagnostics import is_truncated
from ...results.distinct import diversity
from .tables import GroupScore, group_value, score_groups

__all__ = ["truncated_mask", "truncation_excluded", "group_diversity", "reference_lengths", "length_buckets",
           "fold_scores"]


def truncated_mask(predictions: Sequence[str], tokenizer) -> np.ndarray:
    """Boolean per item: the prediction, normalised by ``tokenizer``, is truncated
    (`zheval.results.diagnostics.is_truncated`, the same rule as the report's truncation count)."""
    return np.array([is_truncated(tokenizer.normalize(p)) for p in predictions], dtype=bool)


def truncation_excluded(specs, groups, mask: np.ndarray, bootstrap: int, seed: int, confidence: float) -> dict:
    """Scores of every group without its truncated items: ``{"excluded": count, "rate", "groups": [GroupScore
    dict with "excluded" (that group's truncated count)]}``; a group whose items are all truncated is listed with
    ``n`` 0 and no scores. Nothing is computed (``groups`` empty) when no prediction is truncated.

    The first group (``overall``) gets the bootstrap interval (``bootstrap`` resamples, ``seed``); the other
    groups get the point values only (an interval for every group would double the report's bootstrap time)."""
    n_trunc = int(mask.sum())
    out = {"excluded": n_trunc, "rate": n_trunc / len(mask) if len(mask) else 0.0, "groups": []}
    if not n_trunc:
        return out
    kept = [(dim, label, idx[~mask[idx]]) for dim, label, idx in groups]
    scorable = [g for g in kept if len(g[2])]
    scored = iter(score_groups(specs, scorable[:1], bootstrap, seed, confidence)
                  + score_groups(specs, scorable[1:], 0, seed, confidence))
    for (dim, label, idx), (_, _, full) in zip(kept, groups):
        g = next(scored) if len(idx) else GroupScore(dim, label, 0, {})
        out["groups"].append({**g.to_dict(), "excluded": int(len(full) - len(idx))})
    return out


def group_diversity(predictions, references, tokenizer, groups) -> list:
    """``[{"dimension", "value", "n", ...Diversity.to_dict()}]`` per group ([`zheval.results.distinct.diversity`][]
    on the group's items, with the metrics' tokenizer)."""
    per_group = diversity(predictions, references, tokenizer, groups=[idx for _, _, idx in groups])
    return [{"dimension": dim, "value": label if dim == "overall" else group_value(label), "n": int(len(idx)),
             **d.to_dict()}
            for (dim, label, idx), d in zip(groups, per_group)]


def reference_lengths(references, tokenizer) -> np.ndarray:
    """Per item the mean length of its references in tokens of ``tokenizer`` (the bucket length,
    `zheval.results.breakdowns`)."""
    return np.array([sum(len(tokenizer.tokenize_cached(r)) for r in rs) / len(rs) for rs in references],
                    dtype=np.float64)


def length_buckets(specs, references, tokenizer, edges, bootstrap: int, seed: int, confidence: float) -> dict:
    """Scores per reference-length bucket: ``{"edges", "length": "mean reference length in tokens", "buckets":
    [GroupScore dict]}`` (dimension ``"length"``, value the bucket label, ``n`` 0 and no scores for an empty bucket).

    Args:
        edges: ``True`` for `zheval.results.breakdowns.DEFAULT_BUCKETS`, or edges for
            `zheval.results.breakdowns.check_buckets`.

    Raises:
        ValueError: bad edges (naming ``buckets``).
    """
    edges = DEFAULT_BUCKETS if edges is True else check_buckets(edges, "buckets")
    lengths = reference_lengths(references, tokenizer)
    groups = [("length", label, idx) for label, idx in bucket_groups(lengths, edges)]
    scored = iter(score_groups(specs, [g for g in groups if len(g[2])], bootstrap, seed, confidence))
    rows = [(next(scored) if len(idx) else GroupScore(dim, label, 0, {})).to_dict() for dim, label, idx in groups]
    return {"edges": list(edges), "length": f"mean reference length in tokens ({tokenizer.signature()})",
            "buckets": rows}


def fold_scores(specs, n_items: int, folds, seed: int, overall: GroupScore) -> dict:
    """Scores of ``folds`` random folds (`zheval.results.breakdowns.fold_groups` with ``seed``) and, per
    metric, `zheval.results.breakdowns.fold_stability` against ``overall``'s interval: ``{"folds", "seed",
    "sizes", "metrics": {name: stability}}``.

    Raises:
        ValueError: ``folds`` below 2 or above ``n_items`` (naming ``folds``).
    """
    k = check_folds(folds, n_items, "folds")
    parts = fold_groups(n_items, k, seed)
    scored = score_groups(specs, [("fold", str(i + 1), idx) for i, idx in enumerate(parts)], 0, seed)
    metrics = {}
    for spec in specs:
        ov = overall.scores[spec.name]
        metrics[spec.name] = fold_stability([g.scores[spec.name].value for g in scored], ov.low, ov.high,
                                            value=ov.value)
    return {"folds": k, "seed": seed, "sizes": [int(len(p)) for p in parts], "metrics": metrics}
