"""BLEU statistics of a whole corpus at once, with numpy: the corpus-at-once twin of
`zheval.definitions.bleu.item_stats` (stacked over items; exact integers)."""

from __future__ import annotations

from typing import Hashable, Sequence

import numpy as np

from ..definitions.bleu import (CLOSEST_REF_LEN, HYP_LEN, N_LENGTH_COLUMNS, SHORTEST_REF_LEN, check_max_order,
                                 check_references_list, check_token_sequence)
from . import usable_for
from .index import CorpusLayout
from .ngrams import item_clipped_hits_orders
from .slot_bleu import item_clipped_matches_sorted
from .slots import SlotLayout

__all__ = ["corpus_stats", "layout_stats"]


def corpus_stats(
    hypotheses: Sequence[Sequence[Hashable]],
    references: Sequence[Sequence[Sequence[Hashable]]],
    max_order: int = 4,
) -> np.ndarray:
    """Per-item statistics of a corpus as an ``int64`` matrix of shape ``(len(hypotheses), 3 + 2 * max_order)``.

    Args:
        hypotheses: one token sequence per item.
        references: one list of reference token sequences per item (ragged: items may have different numbers
            of references; each item needs at least one).
        max_order: highest n-gram order.

    Raises:
        ValueError: different numbers of hypotheses and reference lists, or an item without references
            (the message names the item index).
        TypeError: a str/None where a token sequence is expected (names item and reference index).
    """
    check_max_order(max_order)
    if isinstance(hypotheses, (str, bytes)) or isinstance(references, (str, bytes)):
        raise TypeError("hypotheses and references must be sequences, not strings")
    hypotheses = list(hypotheses)
    references = list(references)
    if len(hypotheses) != len(references):
        raise ValueError(
            f"got {len(hypotheses)} hypotheses but {len(references)} reference lists; "
            f"references must hold one list of references per hypothesis"
        )
    for i, (hyp, refs) in enumerate(zip(hypotheses, references)):
        if not isinstance(hyp, (list, tuple)):
            hypotheses[i] = check_token_sequence(hyp, f"item {i}: hypothesis")
        if not isinstance(refs, list) or not refs or not all(isinstance(r, (list, tuple)) for r in refs):
            references[i] = check_references_list(refs, i)
    if not hypotheses:
        return np.zeros((0, N_LENGTH_COLUMNS + 2 * max_order), dtype=np.int64)
    return layout_stats(CorpusLayout.from_token_sequences(hypotheses, references), max_order)


def layout_stats(layout: CorpusLayout, max_order: int = 4, pair_orders: int = 0):
    """Per-item statistics (as `corpus_stats`) of a `zheval.fast.index.CorpusLayout`, all items at once.

    Equal to stacking `item_stats` of every item: lengths from the layout; ``closest_ref_len`` as the
    minimum of ``(|hyp_len - ref_len|, ref_len)`` per item (ties to the shorter reference); clipped matches of every
    order by one sort per order (`zheval.fast.slot_bleu.item_clipped_matches_sorted`, where
    ``usable_for("slot_bleu")`` allows and no ``pair_orders`` are asked), else from
    `zheval.fast.ngrams.item_clipped_hits_orders` on the n-gram counts of the distinct texts (exact integers).

    Args:
        layout: the tokenised corpus.
        max_order: highest n-gram order (>= 1).
        pair_orders: also return the ROUGE-N hits ``sum_g min(c_hyp(g), c_ref(g))`` of every (prediction,
            reference) pair for orders ``1..pair_orders``, from the same pass
            (`zheval.fast.ngrams.item_clipped_hits_orders`); [`zheval.compute.joint.score`][] gives them to ROUGE.
    Returns:
        ``(n_items, 3 + 2 * max_order)`` int64 matrix; with ``pair_orders``, ``(matrix, pair_hits)`` where
        ``pair_hits`` is ``(n_pairs, min(pair_orders, max_order))`` int64 in the layout's pair order.
    """
    check_max_order(max_order)
    n_items = len(layout.hyp)
    out = np.zeros((n_items, N_LENGTH_COLUMNS + 2 * max_order), dtype=np.int64)
    if n_items == 0:
        return (out, np.zeros((len(layout.ref), min(pair_orders, max_order)), dtype=np.int64)) if pair_orders else out
    hyp_len = layout.lengths[layout.hyp]
    ref_len = layout.lengths[layout.ref]
    starts, counts = layout.ref_starts, layout.ref_counts
    big = int(ref_len.max()) + 1
    dist = np.abs(np.repeat(hyp_len, counts) - ref_len)
    closest = np.minimum.reduceat(dist * big + ref_len, starts) % big
    out[:, HYP_LEN] = hyp_len
    out[:, CLOSEST_REF_LEN] = closest
    out[:, SHORTEST_REF_LEN] = np.minimum.reduceat(ref_len, starts)
    for n in range(1, max_order + 1):
        out[:, N_LENGTH_COLUMNS + max_order + n - 1] = np.maximum(hyp_len - n + 1, 0)
    compiled = _compiled_matches(layout, max_order, pair_orders)
    if compiled is not None:
        out[:, N_LENGTH_COLUMNS:N_LENGTH_COLUMNS + max_order] = compiled[0]
        return (out, compiled[1]) if pair_orders else out
    if not pair_orders and usable_for("slot_bleu", corpus_layout=layout):
        slots = SlotLayout(*layout.flat(), layout.hyp, layout.ref, layout.ref_counts, layout.vocab_size)
        out[:, N_LENGTH_COLUMNS:N_LENGTH_COLUMNS + max_order] = item_clipped_matches_sorted(slots, max_order)
        return out
    layout.ngram_counts(max_order)  # every order in one pass
    tables = [layout.ngram_counts(n) for n in range(1, max_order + 1)]
    hits = item_clipped_hits_orders(tables, layout.hyp, layout.ref, layout.pair_item, max_order, pair_orders)
    if pair_orders:
        hits, pair_hits = hits
    out[:, N_LENGTH_COLUMNS:N_LENGTH_COLUMNS + max_order] = hits
    return (out, pair_hits) if pair_orders else out




#: CPU seconds of the numpy twin per n-gram order and token of an item's texts (for ``usable_for("compiled")``;
#: measured on W3 by ``scripts/bench_compiled.py --breakeven``).
NUMPY_SECONDS_PER_ITEM_TOKEN = 4e-8


def _compiled_matches(layout: CorpusLayout, max_order: int, pair_orders: int):
    """``(matches (I, max_order), pair hits (P, min(pair_orders, max_order)) or None)`` from the compiled twins
    (`zheval.fast.compiled.twins.item_bleu_matches`, and for ``pair_orders``
    `zheval.fast.compiled.twins.pair_ngram_lcs_stats` on the layout's pairs) where ``usable_for("compiled")``
    allows and the n-grams pack; else None."""
    tokens = int(layout.lengths[layout.hyp].sum() + layout.lengths[layout.ref].sum())
    if not usable_for("compiled", numpy_seconds=tokens * max_order * NUMPY_SECONDS_PER_ITEM_TOKEN):
        return None
    from .compiled.twins import item_bleu_matches, packed_fits, pair_ngram_lcs_stats

    if not packed_fits(layout.vocab_size, max_order):
        return None
    flat = layout.flat()
    matches = item_bleu_matches(*flat, layout.hyp, layout.ref, layout.ref_counts, max_order, layout.vocab_size)
    if not pair_orders:
        return matches, None
    top = min(pair_orders, max_order)
    hyp = layout.hyp[layout.pair_item]
    order = np.argsort(hyp, kind="stable")
    dh, dcount = np.unique(hyp[order], return_counts=True)
    hits, _ = pair_ngram_lcs_stats(*flat, dh, dcount, layout.ref[order], top, layout.vocab_size, False)
    pair_hits = np.empty_like(hits)
    pair_hits[order] = hits
    return matches, pair_hits
