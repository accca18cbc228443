"""Splits of the items that show where a single score hides something: reference-length buckets
(`check_buckets`, `bucket_groups`), random folds (`fold_groups`) and their stability
(`fold_stability`), and a fixed number of references (`check_max_refs`, `reference_limit`).

These functions only choose **which items** form a group; the scores of a group are the report's own reduction of
the selected items' statistics (corpus BLEU from summed statistics, mean ROUGE F) with the same bootstrap
(`zheval.results.reducers.bootstrap_interval` on the selected rows).

**Length buckets.** The length of an item is the **mean length of its references in tokens of the metrics'
tokenizer** (after any ``max_refs`` limit): the mean, not the shortest or the closest, because an item's references
are all equally its answer. Bucket edges ``e1 < e2 < … < ek`` give the half-open buckets ``[0, e1)``, ``[e1, e2)``,
…, ``[ek, ∞)``; the default edges are `DEFAULT_BUCKETS` (10, 20, 50 tokens: with the char tokenizer a short
reply, a sentence, a paragraph). Example: references of 8 and 13 tokens have length 10.5 → bucket ``[10, 20)``.

**Folds.** The items are shuffled with ``numpy.random.default_rng(seed).permutation(n)`` and cut into ``k`` folds of
sizes differing by at most one (``numpy.array_split``). The stability summary gives every fold's score, their mean,
the sample standard deviation (``ddof=1``) and the largest ``|fold − mean of folds|``; a fold is *flagged* when its
score is outside the bootstrap interval of the score on all items. A fold holds ``n/k`` items, so its score varies
more than the interval of all ``n`` items says: a flag is a prompt to look at that fold (an unbalanced test set, a
cluster of hard items), not a test.
"""

from __future__ import annotations

import math
from typing import Optional, Sequence

import numpy as np

from ..io.lists import split_entries
from ..io.numbers import NumberFormatError, parse_number

__all__ = [
    "DEFAULT_BUCKETS",
    "check_buckets",
    "bucket_label",
    "bucket_groups",
    "check_folds",
    "fold_groups",
    "fold_stability",
    "check_max_refs",
    "first_references",
    "reference_limit",
    "reference_limit_text",
    "reference_limit_notes",
]

DEFAULT_BUCKETS = (10, 20, 50)
"""Default reference-length bucket edges, in tokens: ``[0, 10)``, ``[10, 20)``, ``[20, 50)``, ``[50, ∞)``."""


def _option(name: str, option: str | None) -> str:
    return option or name


def check_buckets(edges, option: str | None = None) -> tuple:
    """The bucket edges as a tuple of positive numbers, strictly increasing.

    Args:
        edges: a sequence of numbers, or a comma list as one string (``"10,20,50"``).
        option: the option's name for the message (``"--buckets"`` on the command line; default ``"buckets"``).

    A comma list is read by the library's comma-list rule (`zheval.io.lists.split_entries`: an empty entry, as in
    ``"10,,20"``, ``"10,20,"`` or ``",10"``, is refused naming its position) and every entry by the one number rule
    (`zheval.io.numbers.parse_number`: ``1_0`` and full-width ``１０`` are refused). An edge need not be a whole
    number (a length is the mean length of an item's references, e.g. 10.5), so ``20.0`` and ``10.5`` are edges;
    an entry written as an integer (``20``) is kept as an ``int``.

    Raises:
        ValueError: no edge, an empty entry, an entry that is not a number under the number rule (naming its
            position and why), an edge that is not a finite number > 0, or edges not strictly increasing (the
            message names the option and the first pair out of order).
    """
    name = _option("buckets", option)
    if isinstance(edges, str):
        edges = [_edge(p, j, name) for j, p in enumerate(split_entries(edges, name), 1)] if edges.strip() else []
    try:
        out = tuple(edges)
    except TypeError:
        raise ValueError(f"{name} must be a list of numbers, got {edges!r}") from None
    if not out:
        raise ValueError(f"{name} needs at least one edge, e.g. 10,20,50")
    for e in out:
        if isinstance(e, bool) or not isinstance(e, (int, float, np.integer, np.floating)) or not math.isfinite(e) or e <= 0:
            raise ValueError(f"{name}: every edge must be a number > 0 (a length in tokens), got {e!r}")
    for a, b in zip(out, out[1:]):
        if not b > a:
            raise ValueError(f"{name} must be strictly increasing, got {a} then {b} (in {', '.join(map(str, out))})")
    return out


def _edge(text: str, position: int, name: str):
    """Entry ``position`` (1-based) of a comma list of edges, by `parse_number`: an ``int`` when written as one."""
    try:
        value = parse_number(text)
    except NumberFormatError as err:
        raise ValueError(f"{name} must be a comma list of numbers, e.g. 10,20,50; entry {position} {text!r} is not a "
                         f"number ({err.reason})") from None
    return int(text) if text.lstrip("+-").isdigit() and text.isascii() else value


def _num(x) -> str:
    return format(x, "g")


def bucket_label(low, high) -> str:
    """``"[low, high)"`` (``high=None``: ``"[low, ∞)"``)."""
    return f"[{_num(low)}, {'∞' if high is None else _num(high)})"


def bucket_groups(lengths: Sequence[float], edges: Sequence[float]) -> list[tuple[str, np.ndarray]]:
    """``[(label, item indices)]`` of every bucket (empty ones included, in order) for per-item ``lengths``.

    An item of length ``x`` is in ``[a, b)`` when ``a <= x < b``; the first bucket starts at 0, the last is
    ``[ek, ∞)``. ``edges`` must satisfy `check_buckets`.
    """
    x = np.asarray(lengths, dtype=np.float64)
    bounds = [0, *edges]
    which = np.searchsorted(np.asarray(edges, dtype=np.float64), x, side="right")
    out = []
    for b, low in enumerate(bounds):
        high = edges[b] if b < len(edges) else None
        out.append((bucket_label(low, high), np.flatnonzero(which == b)))
    return out


def check_folds(folds, n_items: int, option: str | None = None) -> int:
    """``folds`` as an int, checked: at least 2 and at most ``n_items``.

    Raises:
        ValueError: not an int, below 2, or more folds than items (the message names the option).
    """
    name = _option("folds", option)
    if isinstance(folds, bool) or not isinstance(folds, (int, np.integer)):
        raise ValueError(f"{name} must be an int >= 2, got {folds!r}")
    if folds < 2:
        raise ValueError(f"{name} must be at least 2 (one fold is the whole set), got {folds}")
    if folds > n_items:
        raise ValueError(f"{name} {folds} is more than the {n_items} item(s): every fold needs at least one item")
    return int(folds)


def fold_groups(n_items: int, folds: int, seed: int) -> list[np.ndarray]:
    """The item indices of each fold: ``array_split(default_rng(seed).permutation(n_items), folds)``, each fold's
    indices sorted (the module docstring). ``folds`` must satisfy `check_folds`."""
    perm = np.random.default_rng(seed).permutation(n_items)
    return [np.sort(part) for part in np.array_split(perm, folds)]


def fold_stability(values: Sequence[float], low: float | None = None, high: float | None = None, *,
                   value: float | None = None) -> dict:
    """Summary of per-fold scores: ``{"folds": [...], "mean", "std", "max_deviation", "flagged": [fold numbers,
    from 1], "interval": [low, high] or None, "band": [low, high] or None}``.

    Args:
        values: the K fold scores (K >= 1); low, high: the bootstrap interval of the score on all items (``None``:
            no flag); value: the score on all items (default: the middle of ``[low, high]``).

    ``std`` is the sample standard deviation (``ddof=1``; 0.0 for one fold), ``max_deviation`` the largest
    ``|value − mean|``. A fold is **flagged** when it differs from the score on all items by more than a random
    fold of n/K items does at the 95% level: outside ``band`` = ``value ± h·√(K − 1)``, ``h`` the half-width of the
    interval on all items. (A fold's mean minus the mean of all n items has variance σ²(K − 1)/n when the folds are
    a random partition; the mean of all items σ²/n, whose 95% half-width is ``h``.) So about 5% of the folds of a
    homogeneous test set are flagged by chance — with K folds and several metrics, a flag or two is expected; the
    interval of all items alone (``interval``) would flag about a third of them at K = 5. Without an interval
    nothing is flagged and ``flagged``/``band`` are ``None``.
    """
    v = [float(x) for x in values]
    m = math.fsum(v) / len(v)
    std = math.sqrt(math.fsum((x - m) ** 2 for x in v) / (len(v) - 1)) if len(v) > 1 else 0.0
    dev = max(abs(x - m) for x in v)
    flagged = band = None
    if low is not None and high is not None:
        centre = (float(low) + float(high)) / 2 if value is None else float(value)
        half = (float(high) - float(low)) / 2 * math.sqrt(max(len(v) - 1, 1))
        band = [centre - half, centre + half]
        flagged = [i + 1 for i, x in enumerate(v) if x < band[0] or x > band[1]]
    return {"folds": v, "mean": m, "std": std, "max_deviation": dev, "flagged": flagged,
            "interval": None if low is None or high is None else [float(low), float(high)], "band": band}


def check_max_refs(max_refs, option: str | None = None):
    """``max_refs`` as an int >= 1, or ``None`` (no limit).

    Raises:
        ValueError: not an int, or below 1 (the message names the option).
    """
    if max_refs is None:
        return None
    name = _option("max_refs", option)
    if isinstance(max_refs, bool) or not isinstance(max_refs, (int, np.integer)):
        raise ValueError(f"{name} must be an int >= 1 (the number of references to score with), got {max_refs!r}")
    if max_refs < 1:
        raise ValueError(f"{name} must be at least 1 (the number of references to score with), got {max_refs}")
    return int(max_refs)


def first_references(references: Sequence[Sequence[str]], max_refs: int | None) -> list:
    """The first ``max_refs`` references of every item (items with fewer keep all theirs); ``None``: unchanged."""
    if max_refs is None:
        return [list(r) for r in references]
    return [list(r)[:max_refs] for r in references]


def reference_limit(reference_counts: Sequence[int], max_refs: int) -> dict:
    """What scoring with the first ``max_refs`` references does to items with these reference counts:
    ``{"max_refs", "items", "fewer", "truncated", "dropped_references"}`` -- items with fewer than ``max_refs``
    references (they keep theirs), items with more (cut to the first ``max_refs``), and how many references
    that leaves out in all."""
    c = [int(x) for x in reference_counts]
    return {"max_refs": int(max_refs), "items": len(c), "fewer": sum(x < max_refs for x in c),
            "truncated": sum(x > max_refs for x in c), "dropped_references": sum(max(0, x - max_refs) for x in c)}


def reference_limit_notes(limit: Optional[dict]) -> list:
    """The report note when a `reference_limit` (``None``: no limit) cut nothing -- no item has more references:
    the signature's ``maxrefs:K`` then changes no score, which the report says (break-it pass 13); ``[]``
    otherwise."""
    if limit is None or limit["truncated"]:
        return []
    k = limit["max_refs"]
    return [f"the reference limit of {k} (max_refs, --max-refs) cut nothing: no item has more than {k} "
            f"reference{'s' if k != 1 else ''}, so every item is scored with all of its references, as without the "
            f"limit (the signature still reads maxrefs:{k})"]


def reference_limit_text(limit: dict) -> str:
    """The diagnostics line of a `reference_limit` (``zheval score``'s and each system's of ``zheval compare``)."""
    r = limit
    return (f"references: scored with the first {r['max_refs']} of every item; {r['fewer']} of {r['items']} item(s) "
            f"had fewer (they keep theirs), {r['truncated']} had more (cut; {r['dropped_references']} reference(s) "
            "left out)")
