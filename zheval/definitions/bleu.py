"""BLEU sufficient statistics and corpus / sentence scores on token sequences.

Pure functions: nothing here tokenises text or reads global state. Tokens are any hashable values
(``str`` tokens, or ``int`` ids after `zheval.tokenizers.corpus` maps them).

Sources followed
----------------
* Papineni, Roukos, Ward, Zhu (2002), "BLEU: a method for automatic evaluation of machine translation", ACL,
  section 2.1 (clipped n-gram precision against the maximum count over the references), 2.2 (corpus-level
  micro-averaging of the precision numerators and denominators), 2.2.2 (brevity penalty).
* sacrebleu 2.6.0 ``sacrebleu/metrics/bleu.py``: ``BLEU.compute_bleu`` (smoothing ``none``, ``floor``, ``add-k``,
  ``exp``; ``effective_order``; the early return of 0.0 when no n-gram matches at all; ``my_log``),
  ``BLEU._get_closest_ref_len`` (closest reference length, ties go to the shorter reference). The arithmetic of
  `score_stats` for these four methods is the same sequence of float operations as sacrebleu's, done on
  sacrebleu's 0-100 scale and divided by 100 once at the end, so ``score == sacrebleu_score / 100`` holds bit for
  bit (the cross-check tests assert a difference of exactly 0), except for a score that float rounding pushes
  above 1 (sacrebleu: 100.00000000000004), which is clamped to 1.0.
* nltk 3.10 ``nltk/translate/bleu_score.py``: ``modified_precision`` (denominator ``max(1, total)``),
  ``SmoothingFunction.method3`` (Chen & Cherry 2014, method 3: the k-th order with zero matches gets precision
  ``1 / (2**k * denominator)``), ``brevity_penalty``, and the final ``bp * exp(fsum(w_i * log p_i))``. This is
  ``smooth_method="nltk3"``.

Statistics layout
-----------------
One item (a hypothesis with its references) is summarised by an integer row of width ``3 + 2 * max_order``::

    [hyp_len, closest_ref_len, shortest_ref_len, matches_1 .. matches_N, totals_1 .. totals_N]

* ``matches_n``: clipped n-gram matches, each hypothesis n-gram counted at most the maximum number of times it
  occurs in any single reference of the item (Papineni 2.1).
* ``totals_n``: number of n-grams in the hypothesis, ``max(0, hyp_len - n + 1)``.
* ``closest_ref_len``: length of the reference closest in length to the hypothesis, ties to the shorter one.
* ``shortest_ref_len``: length of the shortest reference.

Every column is additive: the statistics of a corpus, a shard, a subset or a bootstrap resample are the column
sums of its items' rows, and `score_stats` scores any such sum. Corpus BLEU is therefore never an average of
per-item scores.

Scale: all scores and precisions returned here are on the 0-1 scale of the Hugging Face ``bleu`` module.

The scores of these statistics (smoothing, brevity penalty) are `zheval.definitions.bleu_score`.
"""

from __future__ import annotations

from collections import Counter
from itertools import repeat

try:  # the C helper behind Counter(iterable); same counts, without Counter's per-call overhead
    from collections import _count_elements
except ImportError:  # pragma: no cover - other Python implementations

    def _count_elements(mapping, iterable):
        get = mapping.get
        for elem in iterable:
            mapping[elem] = get(elem, 0) + 1
from typing import Hashable, List, Optional, Sequence

import numpy as np

from .orders import MAX_ORDER  # the one bound of every n-gram order

__all__ = [
    "HYP_LEN",
    "CLOSEST_REF_LEN",
    "SHORTEST_REF_LEN",
    "N_LENGTH_COLUMNS",
    "stats_width",
    "stats_max_order",
    "closest_ref_length",
    "ngram_counts",
    "item_stats",
    "corpus_stats",
    "sum_stats",
    "check_max_order",
    "MAX_ORDER",
    "check_token_sequence",
    "check_references_list",
]

#: Column indices of the length statistics in a statistics row.
HYP_LEN, CLOSEST_REF_LEN, SHORTEST_REF_LEN = 0, 1, 2
#: Number of length columns before the per-order matches.
N_LENGTH_COLUMNS = 3


def stats_width(max_order: int) -> int:
    """Width of one statistics row for ``max_order`` (an int >= 1): ``3 + 2 * max_order``."""
    check_max_order(max_order)
    return N_LENGTH_COLUMNS + 2 * max_order


def stats_max_order(stats) -> int:
    """The ``max_order`` a statistics row (1-D) or matrix (2-D, items x columns) was computed with.

    Raises ``ValueError`` if the width is not ``3 + 2 * N`` for some ``N >= 1``.
    """
    width = np.shape(stats)[-1] if np.ndim(stats) else 0
    order, rest = divmod(width - N_LENGTH_COLUMNS, 2)
    if rest or order < 1:
        raise ValueError(
            f"BLEU statistics must have 3 + 2 * max_order columns "
            f"[hyp_len, closest_ref_len, shortest_ref_len, matches_1..N, totals_1..N]; got width {width}"
        )
    return order


def check_max_order(max_order) -> None:
    """ValueError unless ``max_order`` is an int in [1, `MAX_ORDER`] (bool refused; the bound of every n-gram order,
    `zheval.definitions.orders`)."""
    if isinstance(max_order, bool) or not isinstance(max_order, (int, np.integer)) or max_order < 1:
        raise ValueError(f"max_order must be an int >= 1, got {max_order!r}")
    if max_order > MAX_ORDER:
        raise ValueError(f"max_order must be at most {MAX_ORDER} (one statistics column pair per order; an order "
                         f"above every text's token count only adds zero counts), got {max_order!r}")


# ----------------------------------------------------------------------------------------------------------------
# Per-item statistics
# ----------------------------------------------------------------------------------------------------------------


def closest_ref_length(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """Length of the reference closest in length to ``hyp_len``; on a tie the shorter reference wins.

    Same rule as sacrebleu 2.6.0 ``BLEU._get_closest_ref_len`` and nltk's ``closest_ref_length``.
    ``ref_lens`` must be non-empty (``ValueError`` otherwise).
    """
    if not ref_lens:
        raise ValueError("closest_ref_length needs at least one reference length")
    best = ref_lens[0]
    best_diff = abs(hyp_len - best)
    for r in ref_lens[1:]:
        d = abs(hyp_len - r)
        if d < best_diff or (d == best_diff and r < best):
            best, best_diff = r, d
    return best


def ngram_counts(tokens: Sequence[Hashable], n: int) -> Counter:
    """Counter of the n-grams of order ``n`` in ``tokens``.

    Keys are the tokens themselves for ``n == 1`` and tuples of ``n`` tokens for ``n >= 2`` (each order is kept in
    its own Counter, so the two kinds of keys never meet). A sequence shorter than ``n`` gives an empty Counter.
    """
    if n == 1:
        return Counter(tokens)
    return Counter(zip(*[tokens[i:] for i in range(n)]))


def check_token_sequence(tokens, what: str):
    """``tokens`` as a list/tuple of tokens; TypeError naming ``what`` for a str, bytes or None (a text, not tokens)."""
    if isinstance(tokens, (list, tuple)):
        return tokens
    if isinstance(tokens, (str, bytes)):
        raise TypeError(
            f"{what}: expected a sequence of tokens, got a {type(tokens).__name__}; tokenise the text first "
            f"(zheval.definitions.bleu never tokenises)"
        )
    if tokens is None:
        raise TypeError(f"{what}: expected a sequence of tokens, got None")
    try:
        return list(tokens)
    except TypeError:
        raise TypeError(f"{what}: expected a sequence of tokens, got {type(tokens).__name__}") from None


def item_stats(hypothesis: Sequence[Hashable], references: Sequence[Sequence[Hashable]], max_order: int = 4) -> List[int]:
    """Sufficient BLEU statistics of one item.

    Args:
        hypothesis: the hypothesis tokens (any hashables; may be empty).
        references: one or more reference token sequences (ragged; each may be empty, at least one is required).
        max_order: highest n-gram order N (>= 1).

    Returns:
        A list of ``3 + 2 * max_order`` Python ints laid out as described in the module docstring.

    Raises:
        ValueError: no reference, or a bad ``max_order``. TypeError: a str/None given instead of a token sequence.
    """
    check_max_order(max_order)
    row = _item_stats(check_token_sequence(hypothesis, "hypothesis"), check_references_list(references, None), max_order)
    return row


def check_references_list(references, index: Optional[int]):
    """``references`` as a non-empty list of token sequences (each checked by `check_token_sequence`).

    Raises:
        TypeError: a str/None instead of a list; ValueError: an empty list (both name item ``index`` if given)."""
    where = "" if index is None else f"item {index}: "
    if isinstance(references, (str, bytes)) or references is None:
        raise TypeError(f"{where}references must be a list of token sequences, got {type(references).__name__}")
    refs = list(references)
    if not refs:
        raise ValueError(f"{where}empty reference list; every item needs at least one reference")
    for j, r in enumerate(refs):
        refs[j] = check_token_sequence(r, f"{where}reference {j}")
    return refs


def _item_stats(hyp, refs, max_order: int) -> List[int]:
    # Hot loop: kept free of validation. hyp: list/tuple; refs: non-empty list of lists/tuples.
    # n-grams are counted into plain dicts by collections' C helper (no Counter.__init__/update overhead); only the
    # hypothesis n-grams are looked up in the references (Papineni 2.1: clip to the max count over references).
    hyp_len = len(hyp)
    matches = [0] * max_order
    totals = [0] * max_order
    nref = len(refs)
    if nref == 1:
        ref = refs[0]
        closest = shortest = len(ref)
    else:
        ref_lens = [len(r) for r in refs]
        closest = closest_ref_length(hyp_len, ref_lens)
        shortest = min(ref_lens)
    for n in range(1, max_order + 1):
        t = hyp_len - n + 1
        if t <= 0:
            break
        totals[n - 1] = t
        h: dict = {}
        _count_elements(h, hyp if n == 1 else zip(*[hyp[i:] for i in range(n)]))
        if nref == 1:
            r: dict = {}
            _count_elements(r, ref if n == 1 else zip(*[ref[i:] for i in range(n)]))
            m = sum(map(min, h.values(), map(r.get, h, repeat(0))))
        else:
            lookups = []
            for ref in refs:
                r = {}
                _count_elements(r, ref if n == 1 else zip(*[ref[i:] for i in range(n)]))
                lookups.append(map(r.get, h, repeat(0)))
            m = sum(map(min, h.values(), map(max, *lookups)))
        if m == 0:
            # no n-gram of this order matches, so no longer one can (its prefix would match): the rest stay 0
            for k in range(n + 1, max_order + 1):
                tk = hyp_len - k + 1
                if tk <= 0:
                    break
                totals[k - 1] = tk
            break
        matches[n - 1] = m
    return [hyp_len, closest, shortest] + matches + totals


def corpus_stats(
    hypotheses: Sequence[Sequence[Hashable]],
    references: Sequence[Sequence[Sequence[Hashable]]],
    max_order: int = 4,
) -> np.ndarray:
    """Per-item statistics of a corpus: `item_stats` of every item, stacked into an ``int64`` matrix of shape
    ``(len(hypotheses), 3 + 2 * max_order)`` -- the reference semantics; its corpus-at-once twin is
    `zheval.fast.bleu.corpus_stats`.

    Args:
        hypotheses: one token sequence per item; references: one non-empty list of reference token sequences per
            item (ragged); max_order: highest n-gram order (>= 1).

    Raises:
        ValueError: different numbers of hypotheses and reference lists, an item without references (naming the
            item index), a bad ``max_order``. TypeError: a str/None where a token sequence is expected.
    """
    check_max_order(max_order)
    if isinstance(hypotheses, (str, bytes)) or isinstance(references, (str, bytes)):
        raise TypeError("hypotheses and references must be sequences, not strings")
    hypotheses, references = list(hypotheses), list(references)
    if len(hypotheses) != len(references):
        raise ValueError(
            f"got {len(hypotheses)} hypotheses but {len(references)} reference lists; "
            f"references must hold one list of references per hypothesis"
        )
    rows = [_item_stats(check_token_sequence(h, f"item {i}: hypothesis"), check_references_list(r, i), max_order)
            for i, (h, r) in enumerate(zip(hypotheses, references))]
    return np.array(rows, dtype=np.int64).reshape(len(rows), N_LENGTH_COLUMNS + 2 * max_order)


def sum_stats(stats) -> np.ndarray:
    """Column sums of a statistics matrix (items x columns) -> one ``int64`` row; a 1-D row is returned as is.

    An empty matrix sums to a row of zeros (which `score_stats` scores 0.0).
    """
    arr = np.asarray(stats)
    if arr.ndim == 1:
        stats_max_order(arr)
        return arr
    if arr.ndim != 2:
        raise ValueError(f"BLEU statistics must be a row or an items x columns matrix, got shape {arr.shape}")
    stats_max_order(arr)
    return arr.sum(axis=0, dtype=np.int64) if arr.dtype.kind in "iub" else arr.sum(axis=0)
