"""Partial sums: what a batch of items contributes to a result that needs only sums, merged exactly in any order.

A `PartialSums` holds, for one group of items:

* ``n``: the item count;
* ``floats``: exact sums of float columns (ROUGE's P/R/F, sentence-level scores, a preset's per-item numbers), each a
  Python int in units of ``2**-SCALE_BITS`` (`zheval.results.exact_sum`): the same whatever the partitioning and
  the order, rounded once at the end to what `math.fsum` of the whole gives;
* ``ints``: sums of integer statistic vectors (BLEU's and chrF's n-gram statistics: exact already), int64 arrays;
* ``reference_counts``: the distinct numbers of references per item (the signature's ``nrefs`` needs only those);
* the Poisson bootstrap's resampled sums (`zheval.results.poisson`): per resample the total weight
  (``resample_weights``), the weighted exact float sums (``resample_floats``) and the weighted integer sums
  (``resample_ints``).

`PartialSums.merge` is associative and commutative and keeps nothing per item, so a reduction holds
O(groups x columns x resamples) numbers however many rows stream by: what a Ray ``AggregateFn``, a Spark
``treeAggregate`` or a loop over chunks in one process carries. `merge_groups` merges ``{group: PartialSums}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Hashable, List, Optional

import numpy as np

from .exact_sum import exact_int, exact_mean, weighted_exact_ints

__all__ = ["PartialSums", "merge_groups"]


@dataclass
class PartialSums:
    """Sums of one group of items (see the module). Build with `add_floats`, `add_ints`,
    `add_reference_counts`; combine with `merge`."""

    n: int = 0
    floats: Dict[str, int] = field(default_factory=dict)
    ints: Dict[str, np.ndarray] = field(default_factory=dict)
    reference_counts: frozenset = frozenset()
    resample_weights: Optional[np.ndarray] = None
    resample_floats: Dict[str, List[int]] = field(default_factory=dict)
    resample_ints: Dict[str, np.ndarray] = field(default_factory=dict)

    def add_floats(self, name: str, values, weights: Optional[np.ndarray] = None) -> None:
        """Add the exact sum of ``values`` (``(n,)`` finite floats) to column ``name``; with Poisson ``weights``
        (``(B, n)`` small ints) also the weighted sum of every resample."""
        self.floats[name] = self.floats.get(name, 0) + exact_int(values)
        if weights is not None:
            add = weighted_exact_ints(weights, values)
            old = self.resample_floats.get(name)
            self.resample_floats[name] = add if old is None else [a + b for a, b in zip(old, add)]

    def add_ints(self, name: str, rows: np.ndarray, weights: Optional[np.ndarray] = None) -> None:
        """Add the column sums of ``rows`` (``(n, k)`` integers) to vector ``name``; with ``weights`` (``(B, n)``)
        also ``weights @ rows`` (exact int64)."""
        rows = np.asarray(rows, dtype=np.int64)
        s = rows.sum(axis=0, dtype=np.int64)
        self.ints[name] = s if name not in self.ints else self.ints[name] + s
        if weights is not None:
            ws = np.asarray(weights, dtype=np.int64) @ rows
            old = self.resample_ints.get(name)
            self.resample_ints[name] = ws if old is None else old + ws

    def add_items(self, count: int, weights: Optional[np.ndarray] = None) -> None:
        """Count ``count`` items; with ``weights`` (``(B, count)``) add each resample's total weight."""
        self.n += int(count)
        if weights is not None:
            tw = np.asarray(weights, dtype=np.int64).sum(axis=1)
            self.resample_weights = tw if self.resample_weights is None else self.resample_weights + tw

    def add_reference_counts(self, counts) -> None:
        """Remember the distinct reference counts among ``counts`` (ints)."""
        self.reference_counts = self.reference_counts | frozenset(int(c) for c in np.unique(np.asarray(counts)))

    def merge(self, other: "PartialSums") -> "PartialSums":
        """The sums of both (a new object; neither is changed).

        Raises:
            ValueError: one has resamples and the other, with items, has not (or a different number).
        """
        if (self.resample_weights is None) != (other.resample_weights is None) and self.n and other.n:
            raise ValueError("PartialSums.merge: one part has bootstrap resamples and the other has not")
        if self.resample_weights is not None and other.resample_weights is not None \
                and self.resample_weights.shape != other.resample_weights.shape:
            raise ValueError("PartialSums.merge: parts with different numbers of resamples")
        out = PartialSums(self.n + other.n, dict(self.floats), {k: v.copy() for k, v in self.ints.items()},
                          self.reference_counts | other.reference_counts,
                          None if self.resample_weights is None else self.resample_weights.copy(),
                          {k: list(v) for k, v in self.resample_floats.items()},
                          {k: v.copy() for k, v in self.resample_ints.items()})
        for k, v in other.floats.items():
            out.floats[k] = out.floats.get(k, 0) + v
        for k, v in other.ints.items():
            out.ints[k] = v.copy() if k not in out.ints else out.ints[k] + v
        if other.resample_weights is not None:
            rw = other.resample_weights
            out.resample_weights = rw.copy() if out.resample_weights is None else out.resample_weights + rw
        for k, v in other.resample_floats.items():
            old = out.resample_floats.get(k)
            out.resample_floats[k] = list(v) if old is None else [a + b for a, b in zip(old, v)]
        for k, v in other.resample_ints.items():
            out.resample_ints[k] = v.copy() if k not in out.resample_ints else out.resample_ints[k] + v
        return out

    def mean(self, name: str) -> float:
        """The mean of float column ``name`` over the items: ``math.fsum(values) / n`` of the whole (0.0 for no
        item). Raises KeyError: no such column."""
        return exact_mean(self.floats[name], self.n)

    def resampled_means(self, name: str) -> np.ndarray:
        """Per Poisson resample, the weighted mean of float column ``name`` (``sum w f / sum w``; NaN for a resample
        of total weight 0).

        Raises:
            ValueError: no resamples were drawn.
        """
        if self.resample_weights is None:
            raise ValueError("no bootstrap resamples in these sums")
        return np.array([exact_mean(t, int(w)) if w else np.nan
                         for t, w in zip(self.resample_floats[name], self.resample_weights.tolist())])

    def __eq__(self, other) -> bool:
        if not isinstance(other, PartialSums):
            return NotImplemented
        same_arrays = (lambda a, b: a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a))
        rw_same = ((self.resample_weights is None and other.resample_weights is None)
                   or (self.resample_weights is not None and other.resample_weights is not None
                       and np.array_equal(self.resample_weights, other.resample_weights)))
        return (self.n == other.n and self.floats == other.floats and same_arrays(self.ints, other.ints)
                and self.reference_counts == other.reference_counts and rw_same
                and self.resample_floats == other.resample_floats
                and same_arrays(self.resample_ints, other.resample_ints))


def merge_groups(a: Dict[Hashable, PartialSums], b: Dict[Hashable, PartialSums]) -> Dict[Hashable, PartialSums]:
    """``{group: PartialSums}`` of both (groups of either; a group in both merged); a new dict."""
    out = dict(a)
    for g, s in b.items():
        out[g] = s if g not in out else out[g].merge(s)
    return out
