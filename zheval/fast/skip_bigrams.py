"""Skip-bigram counts of a whole corpus at once, with numpy: ROUGE-S and ROUGE-SU (Lin 2004, section 4) of every
(prediction, reference) pair, the same integers as `zheval.definitions.rouge.skip_bigram_counts` and
`zheval.definitions.rouge.clipped_overlap`.

Pure functions on integer token ids (``0 <= id < vocab_size``); nothing is kept between calls.

Method (exact integer arithmetic only)
    1. **Keys.** The skip-bigram ``(tokens[i], tokens[i + g])`` of a text (``1 <= g <= skip + 1``, every g below
       the text's length when ``skip`` is None; all (i, g) of a chunk of texts enumerated at once) gets the id ``tokens[i] * V + tokens[i + g]`` (V = vocabulary
       size), so two skip-bigrams have the same id iff their token pairs are equal.
    2. **Counts per text.** Sort ``text * V**2 + id``; runs give ``(text, id, count)`` ordered by text and id: an
       `zheval.fast.ngrams.NgramCounts`, the per-text multiset ``skip_bigram_counts`` builds with a Counter.
       Texts are counted in chunks of at most `CHUNK_KEYS` keys (one text alone may exceed it), so the memory
       stays bounded; the chunks' runs are simply concatenated (each text is in one chunk).
    3. **Clipped sums.** `zheval.fast.ngrams.pair_clipped_hits` on those counts, pairs taken in chunks of at
       most `CHUNK_KEYS` entries.

Where it serves: ``zheval.fast.usable_for("skip_bigrams", ...)`` -- the longest text has at most
`MAX_TEXT_SKIP_BIGRAMS` skip-bigrams (unlimited ROUGE-S* on a 100,000-token text has 5·10⁹ of them) and the
keys fit in 62 bits; otherwise the reference runs.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from .keys import runs
from .ngrams import NgramCounts, pair_clipped_hits

__all__ = ["CHUNK_KEYS", "MAX_TEXT_SKIP_BIGRAMS", "skip_bigram_totals", "skip_bigram_counts_by_text",
           "pair_skip_bigram_hits", "corpus_skip_bigram_hits", "skip_bigrams_fit"]

#: Keys sorted at once (each an int64: 32 MiB per array).
CHUNK_KEYS = 1 << 22
#: Largest number of skip-bigrams of one text this module counts (beyond it, the reference runs).
MAX_TEXT_SKIP_BIGRAMS = 1 << 25
_KEY_LIMIT = 1 << 62


def skip_bigram_totals(lengths: np.ndarray, skip: Optional[int]) -> np.ndarray:
    """``(n,)`` int64: the number of skip-bigrams of texts of these token counts (the sum of the counts
    `zheval.definitions.rouge.skip_bigram_counts` returns): ``sum_{g=1}^{min(L-1, skip+1)} (L - g)``, all
    ``L (L - 1) / 2`` pairs when ``skip`` is None."""
    L = np.asarray(lengths, dtype=np.int64)
    if skip is None:
        return L * (L - 1) // 2
    k = np.minimum(np.maximum(L - 1, 0), skip + 1)
    return k * L - k * (k + 1) // 2


def skip_bigrams_fit(longest: int, skip: Optional[int], vocab_size: int, n_texts: int) -> bool:
    """Whether `skip_bigram_counts_by_text` counts texts of at most ``longest`` tokens over ``vocab_size``
    ids (``n_texts`` texts) within its bounds (see the module docstring)."""
    V = max(int(vocab_size), 1)
    # text keys (text * V**2 + id) and the pair keys of pair_clipped_hits (id * (count bound) + count) fit in 62 bits
    if max(int(n_texts), 1) * V * V >= _KEY_LIMIT or V * V * (MAX_TEXT_SKIP_BIGRAMS + 1) >= _KEY_LIMIT:
        return False
    return int(skip_bigram_totals(np.array([int(longest)]), skip)[0]) <= MAX_TEXT_SKIP_BIGRAMS


def _chunk_bounds(sizes: np.ndarray, limit: int):
    """``[(lo, hi), ...]`` consecutive ranges whose ``sizes`` sum to at most ``limit`` (a single larger one alone)."""
    bounds = []
    lo = 0
    n = len(sizes)
    csum = np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)])
    while lo < n:
        hi = int(np.searchsorted(csum, csum[lo] + limit, side="right")) - 1
        hi = max(hi, lo + 1)
        bounds.append((lo, min(hi, n)))
        lo = min(hi, n)
    return bounds


def skip_bigram_counts_by_text(tokens: np.ndarray, offsets: np.ndarray, vocab_size: int,
                               skip: Optional[int]) -> NgramCounts:
    """Per-text skip-bigram multisets (the twin of `zheval.definitions.rouge.skip_bigram_counts`).

    Args:
        tokens: int64 token ids of all texts, concatenated; ``0 <= id < vocab_size``.
        offsets: ``(n_texts + 1,)`` int64 start offsets into ``tokens``.
        vocab_size: V >= 1 (an upper bound of the ids).
        skip: maximum skip distance d >= 0 (pairs ``i < j <= i + d + 1``), or None for every pair.
    Returns:
        `NgramCounts` (``order`` 2): text t's entries are the ids ``a * V + b`` of its
        distinct skip-bigrams ``(a, b)``, increasing, with their counts; ``n_ids = V * V``.
    Raises:
        ValueError: keys that do not fit in 62 bits (``skip_bigrams_fit`` says no).
    """
    tokens = np.asarray(tokens, dtype=np.int64)
    offsets = np.asarray(offsets, dtype=np.int64)
    V = max(int(vocab_size), 1)
    G = V * V
    n_texts = len(offsets) - 1
    if max(n_texts, 1) * G >= _KEY_LIMIT:
        raise ValueError(f"skip-bigram keys of {n_texts} texts over {V} token ids do not fit in 62 bits")
    lengths = np.diff(offsets)
    totals = skip_bigram_totals(lengths, skip)
    out_offsets = np.zeros(n_texts + 1, dtype=np.int64)
    ids_parts, count_parts = [], []
    max_count = 0
    done = 0
    for lo, hi in _chunk_bounds(totals, CHUNK_KEYS):
        t0, t1 = int(offsets[lo]), int(offsets[hi])
        seg = tokens[t0:t1]
        text_of = np.repeat(np.arange(hi - lo, dtype=np.int64), lengths[lo:hi])
        end = (offsets[lo + 1:hi + 1] - t0)[text_of]
        first = text_of * G + seg * V  # the key of position i without its second token
        pos = np.arange(t1 - t0, dtype=np.int64)
        partners = end - pos - 1  # positions after i in its text
        if skip is not None:
            np.minimum(partners, skip + 1, out=partners)
        n_keys = int(partners.sum())
        keys = []
        if n_keys:
            # every (i, i + g), 1 <= g <= partners[i], at once: i repeated, g counted up within each run
            i = np.repeat(pos, partners)
            run_start = np.cumsum(partners) - partners
            j = np.arange(n_keys, dtype=np.int64)
            j -= np.repeat(run_start, partners)
            j += i + 1
            keys.append(first[i] + seg[j])
        if keys:
            key = np.concatenate(keys)
            key.sort()
            uniq, counts = runs(key)
            t = uniq // G
            out_offsets[lo + 1:hi + 1] = done + np.searchsorted(t, np.arange(1, hi - lo + 1, dtype=np.int64),
                                                                  side="left")
            ids_parts.append(uniq - t * G)
            count_parts.append(counts.astype(np.int64))
            max_count = max(max_count, int(counts.max()))
            done += len(uniq)
        else:
            out_offsets[lo + 1:hi + 1] = done
    ids = np.concatenate(ids_parts) if ids_parts else np.zeros(0, dtype=np.int64)
    counts = np.concatenate(count_parts) if count_parts else np.zeros(0, dtype=np.int64)
    return NgramCounts(2, out_offsets, ids, counts, G, max_count, None)


def pair_skip_bigram_hits(nc: NgramCounts, hyp: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """``(P,)`` int64 clipped skip-bigram co-occurrences of every pair (text ``hyp[p]`` against ``ref[p]``):
    `zheval.fast.ngrams.pair_clipped_hits` on `skip_bigram_counts_by_text`'s counts, in chunks of
    pairs of at most `CHUNK_KEYS` entries."""
    hyp = np.asarray(hyp, dtype=np.int64)
    ref = np.asarray(ref, dtype=np.int64)
    sizes = (nc.offsets[hyp + 1] - nc.offsets[hyp]) + (nc.offsets[ref + 1] - nc.offsets[ref])
    out = np.zeros(len(hyp), dtype=np.int64)
    for lo, hi in _chunk_bounds(sizes, CHUNK_KEYS):
        out[lo:hi] = pair_clipped_hits(nc, hyp[lo:hi], ref[lo:hi])
    return out


def corpus_skip_bigram_hits(tokens: np.ndarray, offsets: np.ndarray, vocab_size: int, skip: Optional[int],
                            hyp: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """``(P,)`` int64 clipped skip-bigram co-occurrences of every pair, counting as it goes: the pairs are taken in
    consecutive chunks whose texts have at most `CHUNK_KEYS` skip-bigrams together (one pair alone may
    exceed it), and only the texts of a chunk are counted (`skip_bigram_counts_by_text`) and matched
    (`pair_skip_bigram_hits`), so the memory is bounded by the chunk, not the corpus. Pairs sorted by
    hypothesis (as the ROUGE twin's distinct pairs are) count each hypothesis about once.

    Args:
        tokens, offsets, vocab_size, skip: as `skip_bigram_counts_by_text`.
        hyp, ref: ``(P,)`` text indices of the pairs.
    """
    tokens = np.asarray(tokens, dtype=np.int64)
    offsets = np.asarray(offsets, dtype=np.int64)
    hyp = np.asarray(hyp, dtype=np.int64)
    ref = np.asarray(ref, dtype=np.int64)
    lengths = np.diff(offsets)
    totals = skip_bigram_totals(lengths, skip)
    out = np.zeros(len(hyp), dtype=np.int64)
    for lo, hi in _chunk_bounds(totals[hyp] + totals[ref], CHUNK_KEYS):
        texts = np.unique(np.concatenate([hyp[lo:hi], ref[lo:hi]]))
        lens = lengths[texts]
        sub_offsets = np.zeros(len(texts) + 1, dtype=np.int64)
        np.cumsum(lens, out=sub_offsets[1:])
        pos = np.arange(int(sub_offsets[-1]), dtype=np.int64)
        pos += np.repeat(offsets[texts] - sub_offsets[:-1], lens)
        nc = skip_bigram_counts_by_text(tokens[pos], sub_offsets, vocab_size, skip)
        out[lo:hi] = pair_skip_bigram_hits(nc, np.searchsorted(texts, hyp[lo:hi]), np.searchsorted(texts, ref[lo:hi]))
    return out
