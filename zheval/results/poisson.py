"""The Poisson bootstrap: resamples that are sums, identical whatever the partitioning and the order.

The multinomial bootstrap (`zheval.results.reducers.bootstrap_interval`, today's default) draws ``n`` item
indices per resample: it needs every item in one place and in one order. The **Poisson bootstrap** gives every item
an independent weight ``w ~ Poisson(1)`` in every resample instead (Hanley & MacGibbon 2006, "Creating non-parametric
bootstrap samples using Poisson frequencies", Computer Methods and Programs in Biomedicine 83(1); Chamandy, Muralidharan,
Najmi & Naik 2012, "Estimating uncertainty for massive data streams", Google Technical Report): the multinomial
counts of ``n`` draws from ``n`` items are, for large ``n``, close to independent Poisson(1) counts, and a resample
statistic becomes a function of weighted sums (``sum w_i f_i / sum w_i`` for a mean, ``sum w_i s_i`` for BLEU's and
chrF's statistic vectors). Weighted sums merge across batches, partitions and machines.

To make the weights independent of where an item is processed, they come from a **counter-based generator**: the
weight of item ``key`` in resample ``b`` is a pure function of ``(seed, key, b)`` -- SplitMix64 (Steele, Lea & Flood
2014, "Fast splittable pseudorandom number generators", OOPSLA; the finaliser of ``java.util.SplittableRandom``)
mixes the seed, the item key and the resample index into 64 random bits, whose top 53 give a uniform ``u`` in
[0, 1); the weight is the inverse CDF of Poisson(1) at ``u`` (the smallest ``k`` with ``u < P(K <= k)``, a table of
the CDF in float64). The item key is a 64-bit hash (BLAKE2b) of the item's content -- its id when the data has one
(its text form under the CLI's id rule: ``7`` is the id ``"7"``), its prediction and its references (`item_keys`) --
so a Ray Dataset, a Spark DataFrame, ``zheval score --stream`` and one process give the same weights to the same
item, and the same intervals.

Two honest differences from the multinomial bootstrap: a resample's total weight varies (mean ``n``, standard
deviation ``sqrt(n)``), which the ratio statistics absorb; a resample with total weight 0 (probability ``e**-n``) has
no statistic and is left out of the percentiles. Two items with the same key (the same prediction and references and
no id column) get the same weights: they are resampled together, like one item counted twice.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import Callable, Mapping, Optional, Sequence

import numpy as np

from ..io.fields import id_value
from .partial_sums import PartialSums

__all__ = ["POISSON_CDF", "RESAMPLE_BLOCK", "item_keys", "poisson_weights", "percentile_interval", "resampled_sums",
           "resampled_interval", "resampled_mean_interval", "poisson_sums_of", "add_poisson_bounds", "poisson_keys",
           "StatisticResampling"]

RESAMPLE_BLOCK = 1024  # items per weight block: (B, 1024) uint8 at a time

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _poisson1_cdf() -> np.ndarray:
    cdf, term, total, k = [], math.exp(-1.0), 0.0, 0
    while True:
        total = math.fsum([total, term])
        cdf.append(min(total, 1.0))
        if total >= 1.0 or k > 40:
            break
        k += 1
        term /= k
    cdf[-1] = 1.0
    return np.asarray(cdf, dtype=np.float64)


POISSON_CDF = _poisson1_cdf()
"""``P(K <= k)`` for ``K ~ Poisson(1)``, ``k = 0, 1, ...`` until it rounds to 1.0 in float64 (the last entry is 1.0)."""


def _splitmix64(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        z = x + _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
        return z ^ (z >> np.uint64(31))


def item_keys(predictions: Sequence[str], references: Sequence[Sequence[str]],
              ids: Optional[Sequence] = None) -> np.ndarray:
    """The 64-bit key of each item: BLAKE2b (8 bytes) of its id (when given), prediction and references.

    Args:
        predictions: ``list[str]``; references: per item a list of ``str`` (canonical, as
            `zheval.compute.inputs.validate_inputs` gives them); ids: optional, one per item, each keyed by its
            text form under the CLI's id rule (`zheval.io.fields.id_value`: a string as it is, an integer -- a
            numpy integer too -- as its decimal text), whose ``repr`` is hashed: ``7`` and ``"7"`` are one id, one
            key, whichever door read it (``zheval score --stream`` reads ``7`` as ``"7"``).

    Returns:
        ``(n,)`` uint64: byte ``0x00``, the prediction, then ``0x01`` and each reference, after ``repr(text)`` of
        the id (UTF-8, ``surrogatepass``), little-endian.

    Raises:
        ValueError: an id the id rule refuses (``None``, a bool, ``7.0``, a blank string ...), named ``ids[i]``.
    """
    out = np.empty(len(predictions), dtype=np.uint64)
    for i, (p, rs) in enumerate(zip(predictions, references)):
        h = hashlib.blake2b(digest_size=8)
        if ids is not None:
            v = ids[i]
            text, err = id_value(v.item() if isinstance(v, np.integer) else v, "ids")
            if err:
                raise ValueError(f"item_keys: ids[{i}]: {err}")
            h.update(repr(text).encode("utf-8", "surrogatepass"))
        h.update(b"\x00")
        h.update(p.encode("utf-8", "surrogatepass"))
        for r in rs:
            h.update(b"\x01")
            h.update(r.encode("utf-8", "surrogatepass"))
        out[i] = int.from_bytes(h.digest(), "little")
    return out


def poisson_weights(keys: np.ndarray, seed: int, n_resamples: int) -> np.ndarray:
    """The Poisson(1) weight of every item in every resample: ``(n_resamples, n)`` uint8.

    Args:
        keys: ``(n,)`` uint64 item keys (`item_keys`). seed: an int in ``[0, 2**32 - 1]``.
        n_resamples: the number of resamples (>= 1).

    The weight of item ``keys[i]`` in resample ``b`` depends only on ``(seed, keys[i], b)``.
    """
    keys = np.asarray(keys, dtype=np.uint64)
    with np.errstate(over="ignore"):
        salt = _splitmix64(np.asarray([seed], dtype=np.uint64))[0]
        base = _splitmix64(keys ^ salt)
        steps = (np.arange(1, n_resamples + 1, dtype=np.uint64) * _GOLDEN)[:, None]
        bits = _splitmix64(base[None, :] + steps)
    u = (bits >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))
    return np.searchsorted(POISSON_CDF, u, side="right").astype(np.uint8)


def percentile_interval(statistics: np.ndarray, confidence: float) -> tuple[float, float]:
    """The percentile interval of resampled statistics (NaN ones -- resamples of total weight 0 -- left out), as
    `scipy.stats.bootstrap`'s ``method="percentile"`` takes it: the ``(1 - confidence) / 2`` and
    ``(1 + confidence) / 2`` quantiles (`numpy.percentile`, linear interpolation).

    Raises:
        ValueError: no finite statistic.
    """
    s = np.asarray(statistics, dtype=np.float64)
    s = s[~np.isnan(s)]
    if s.size == 0:
        raise ValueError("the Poisson bootstrap needs at least one resample with a positive total weight")
    alpha = (1 - confidence) / 2
    low, high = np.percentile(s, [100 * alpha, 100 * (1 - alpha)])
    return float(low), float(high)


def resampled_sums(keys: np.ndarray, seed: int, n_resamples: int, floats: Optional[Mapping[str, np.ndarray]] = None,
                   ints: Optional[Mapping[str, np.ndarray]] = None) -> PartialSums:
    """The Poisson bootstrap's weighted sums of every item of one list, in one process: `PartialSums` with
    ``floats`` (``{name: (n,) values}``, e.g. ROUGE's per-item F) and ``ints`` (``{name: (n, k) int rows}``, BLEU's
    and chrF's statistics) summed under the weights of `poisson_weights` -- what the streamed and the engines' sums
    of the same items hold (their merge is exact), taken `RESAMPLE_BLOCK` items at a time.

    Raises:
        ValueError: not one key per item of a column.
    """
    keys = np.asarray(keys, dtype=np.uint64)
    columns = {**(floats or {}), **(ints or {})}
    bad = sorted(name for name, col in columns.items() if len(col) != len(keys))
    if bad:
        raise ValueError(f"the Poisson bootstrap needs one key per item: {len(keys)} keys for the items of {bad}")
    sums = PartialSums()
    for start in range(0, len(keys), RESAMPLE_BLOCK):
        block = slice(start, start + RESAMPLE_BLOCK)
        w = poisson_weights(keys[block], seed, n_resamples)
        sums.add_items(w.shape[1], w)
        for name, values in (floats or {}).items():
            sums.add_floats(name, np.asarray(values)[block], w)
        for name, rows in (ints or {}).items():
            sums.add_ints(name, np.asarray(rows)[block], w)
    return sums


def resampled_interval(sums: PartialSums, name: str, score: Callable[[np.ndarray], float], confidence: float):
    """The percentile interval of the resampled statistic ``score(row)`` over the rows of ``sums``' resampled
    integer sums ``name`` (a resample of total weight 0 left out); ``(0.0, 0.0)`` without items."""
    if not sums.n:
        return 0.0, 0.0
    rows = sums.resample_ints[name]
    stats = np.array([score(row) if w else np.nan for row, w in zip(rows, sums.resample_weights.tolist())])
    return percentile_interval(stats, confidence)


def resampled_mean_interval(sums: PartialSums, name: str, confidence: float):
    """The percentile interval of the resampled weighted mean of ``sums``' float column ``name``."""
    return percentile_interval(sums.resampled_means(name), confidence)


def poisson_sums_of(bootstrap: int, seed: int, keys: Optional[np.ndarray], given: Optional[PartialSums],
                    columns: Callable[[], dict]) -> PartialSums:
    """The resampled sums a metric's Poisson interval reads: ``given`` (the sums a call of several metrics made
    once for all of them) or `resampled_sums` of ``columns()`` (``{"floats": ..., "ints": ...}``) under ``keys``.

    Raises:
        ValueError: neither sums nor keys (the items' keys come from `item_keys` of the texts).
    """
    if given is not None:
        return given
    if keys is None:
        raise ValueError("bootstrap_method='poisson' needs each item's key (zheval.results.poisson.item_keys of the "
                         "texts); score the texts with compute_*/zheval.score, or pass keys=")
    return resampled_sums(keys, int(seed), int(bootstrap), **columns())


def add_poisson_bounds(out: dict, config, resampling: StatisticResampling, stats, keys: Optional[np.ndarray],
                       given: Optional[PartialSums]) -> None:
    """Adds to a BLEU or chrF result ``out`` its Poisson interval (``resampling.bounds`` of `poisson_sums_of`: the
    ``given`` sums, or the per-item ``stats`` resampled under ``keys``) when ``config`` asks for the Poisson bootstrap
    and ``out`` has no ``no_interval``. Raises the errors of `poisson_sums_of`."""
    if config.bootstrap and config.bootstrap_method == "poisson" and "no_interval" not in out:
        out.update(resampling.bounds(poisson_sums_of(config.bootstrap, config.seed, keys, given,
                                                     lambda: resampling.columns(stats))))


def poisson_keys(predictions: Sequence[str], references: Sequence[Sequence[str]], config) -> Optional[np.ndarray]:
    """`item_keys` of validated items when a metric's ``config`` asks for the Poisson bootstrap (``bootstrap`` > 0,
    ``bootstrap_method="poisson"``): what its result function reads (``keys=``); else ``None``."""
    if getattr(config, "bootstrap", 0) and getattr(config, "bootstrap_method", "multinomial") == "poisson":
        return item_keys(predictions, references)
    return None


@dataclass(frozen=True)
class StatisticResampling:
    """How the Poisson bootstrap resamples a statistic-vector metric (BLEU, chrF): at corpus level its integer
    statistics (``ints[metric]``; a resample's score is ``from_sums`` of its weighted sums), at sentence level each
    item's score, ``from_sums`` of its own row (``floats["<metric>:sentence"]``, the interval of their mean).

    Attributes:
        metric: the column name and the result keys' prefix; sentence: sentence level; from_sums: ``(m, width)``
            summed statistics -> ``(m,)`` scores; confidence: the interval's level.
    """

    metric: str
    sentence: bool
    from_sums: Callable[[np.ndarray], np.ndarray]
    confidence: float

    def columns(self, stats: np.ndarray) -> dict:
        """The columns of ``(n, width)`` per-item statistics, for `resampled_sums`."""
        if not self.sentence:
            return {"ints": {self.metric: stats}}
        rows = np.asarray(stats)
        scores = np.asarray(self.from_sums(rows), dtype=np.float64) if len(rows) else np.zeros(0)
        return {"floats": {f"{self.metric}:sentence": scores}}

    def bounds(self, sums: PartialSums) -> dict:
        """``<metric>_ci_low``/``_ci_high`` from resampled sums of `columns`."""
        if self.sentence:
            low, high = resampled_mean_interval(sums, f"{self.metric}:sentence", self.confidence)
        else:
            score = self.from_sums
            low, high = resampled_interval(sums, self.metric, lambda row: float(score(row[None, :])[0]),
                                           self.confidence)
        return {f"{self.metric}_ci_low": low, f"{self.metric}_ci_high": high}
