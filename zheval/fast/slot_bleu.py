"""BLEU clipped matches of every item by one sort per n-gram order over a `zheval.fast.slots.SlotLayout`.

Papineni et al. (2002) section 2.1: item i's clipped matches of order n are ``sum_g min(c_hyp(g), max_r c_r(g))``.
Keys ``gram | item | side | pos`` as for ROUGE-N (`zheval.fast.slots`): after one sort, an (n-gram, item) group
holds the prediction's entries first, then one run per reference; its clipped count is ``min(prediction run,
longest reference run)``. Orders >= 3 are keyed by the matchable group of their first ``n - 1`` tokens (a group
holding the prediction and more) and their last token: an n-gram can only match if its prefix does (the pruning of
`zheval.fast.ngrams.item_clipped_hits_orders`), and the group fixes the item, so the keys stay narrow.
"""

from __future__ import annotations

import numpy as np

from . import slots as _slots
from .slots import SlotLayout, concat_ranges, bits_for

__all__ = ["item_clipped_matches_sorted", "bleu_slot_bits", "bleu_key_bits", "slot_bleu_fits", "MAX_SPREAD"]


def bleu_key_bits(vb: int, sb: int, pb: int, ib: int, n_entries: int) -> int:
    """Key bits `item_clipped_matches_sorted` needs for a layout of ``n_entries`` entries with ``vb``-bit
    tokens, ``sb``-bit sides, ``pb``-bit positions and ``ib``-bit items (the widest order: 1 and 2 keyed by
    n-gram and item, >= 3 by their prefix group, at most ``n_entries``, and their last token)."""
    entries = bits_for(max(n_entries - 1, 0))
    order2 = 2 * vb if 2 * vb <= _slots.KEY_BITS - sb - pb - 1 else entries
    return max(vb + ib, order2 + ib, entries + vb) + sb + pb


def bleu_slot_bits(lay: SlotLayout) -> int:
    """Key bits `item_clipped_matches_sorted` needs besides the item field; the layout fits when this plus
    ``lay.ib`` is at most 63."""
    return bleu_key_bits(lay.vb, lay.sb, lay.pb, lay.ib, lay.N) - lay.ib


#: Largest ratio of a slot layout's entries to the distinct texts' tokens for which the one-sort twin is used:
#: when texts repeat much (W1: 17 item texts per distinct text), the per-text counts of
#: `zheval.fast.ngrams.item_clipped_hits_orders` cost less than sorting every item's copy.
MAX_SPREAD = 4


def slot_bleu_fits(layout) -> bool:
    """Whether `item_clipped_matches_sorted` should count BLEU for a `zheval.fast.index.CorpusLayout`:
    its slot layout's keys fit in 63 bits and it holds at most `MAX_SPREAD` times the distinct texts'
    tokens (computed from the layout's lengths, before any slot layout is built)."""
    lengths = layout.lengths
    if not len(layout.hyp):
        return True
    n_entries = int(lengths[layout.hyp].sum() + lengths[layout.ref].sum())
    if n_entries > MAX_SPREAD * max(int(lengths.sum()), 1):
        return False
    longest = max(int(lengths[layout.hyp].max()), int(lengths[layout.ref].max()))
    vb = bits_for(max(int(layout.vocab_size), 1) - 1)
    sb = bits_for(int(layout.ref_counts.max()))
    pb = bits_for(max(longest - 1, 0))
    ib = bits_for(len(layout.hyp) - 1)
    return bleu_key_bits(vb, sb, pb, ib, n_entries) <= _slots.KEY_BITS


def _groups(key: np.ndarray, sb: int, pb: int):
    """Of sorted keys ``[group | side | pos]``: the groups that start with a prediction entry (side 0) and hold more;
    their group keys, their clipped count ``min(c_hyp, max_r c_r)``, their entries' keys and each entry's group."""
    N = len(key)
    low = sb + pb
    smask = (1 << sb) - 1
    kg = key >> low
    new = np.empty(N, dtype=bool)
    new[0] = True
    np.not_equal(kg[1:], kg[:-1], out=new[1:])
    gstart = np.flatnonzero(new)
    gsize = np.empty(len(gstart), dtype=np.int64)
    gsize[:-1] = gstart[1:] - gstart[:-1]
    gsize[-1] = N - gstart[-1]
    sel = np.flatnonzero((((key[gstart] >> pb) & smask) == 0) & (gsize > 1))
    gst, gsz = gstart[sel], gsize[sel]
    ke = key[concat_ranges(gst, gsz)]
    gid = np.repeat(np.arange(len(sel), dtype=np.int64), gsz)
    m = len(ke)
    if m == 0:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z, z
    ks = ke >> pb  # (group, side)
    run_new = np.empty(m, dtype=bool)
    run_new[0] = True
    np.not_equal(ks[1:], ks[:-1], out=run_new[1:])
    rs = np.flatnonzero(run_new)
    rlen = np.diff(np.append(rs, m))
    gfirst = np.zeros(len(sel), dtype=np.int64)  # each group's first run: the prediction's
    np.cumsum(np.bincount(gid[rs], minlength=len(sel))[:-1], out=gfirst[1:])
    refl = np.where((ks[rs] & smask) == 0, 0, rlen)
    clipped = np.minimum(rlen[gfirst], np.maximum.reduceat(refl, gfirst))
    return kg[gst], clipped, ke, gid


def item_clipped_matches_sorted(lay: SlotLayout, max_order: int = 4) -> "np.ndarray | None":
    """BLEU clipped matches of orders ``1..max_order`` of every item of ``lay`` (prediction = side 0, references =
    the other sides): the corpus-at-once twin of the ``matches_1..N`` columns of
    `zheval.definitions.bleu.item_stats` (exact integers; method in the module docstring).

    Args:
        lay: the items (`zheval.fast.slots.SlotLayout`); max_order: N >= 1.
    Returns:
        ``(n_items, max_order)`` int64, column ``n - 1`` in ``[0, prediction n-grams]``; None when the keys do not
        fit in 63 bits (``bleu_slot_bits(lay) + bits_for(n_items - 1) > 63``; the caller takes
        `zheval.fast.ngrams.item_clipped_hits_orders`).
    """
    I = lay.n_items
    out = np.zeros((I, max_order), dtype=np.int64)
    if I == 0 or lay.N == 0:
        return out
    if bleu_slot_bits(lay) + lay.ib > _slots.KEY_BITS:
        return None
    vb, sb, pb, ib = lay.vb, lay.sb, lay.pb, lay.ib
    imask = (1 << ib) - 1
    smask = (1 << sb) - 1
    pmask = (1 << pb) - 1
    key = lay.tok << (ib + sb)
    key |= lay.entry_base
    key.sort()
    gk, clipped, _, _ = _groups(key, sb, 0)
    out[:, 0] = np.bincount(gk & imask, weights=clipped, minlength=I).astype(np.int64)
    if max_order < 2:
        return out
    starts = lay.ngram_starts(2)
    if not len(starts):
        return out
    gram, gb = lay.gram_ids(2, starts)
    key = gram << (ib + sb + pb)
    key |= lay.entry_base[starts] << pb
    key |= lay.pos[starts]
    del gram
    key.sort()
    gk, clipped, ke, gid = _groups(key, sb, pb)
    del key
    item_of_group = gk & imask
    out[:, 1] = np.bincount(item_of_group, weights=clipped, minlength=I).astype(np.int64)
    slot_end = lay.slot_start + lay.slot_len
    side = (ke >> pb) & smask
    slot = lay.first_slot[item_of_group[gid]] + side
    entry = lay.slot_start[slot] + (ke & pmask)
    for n in range(3, max_order + 1):
        ok = entry + (n - 1) < slot_end[slot]
        entry, slot, side, gid = entry[ok], slot[ok], side[ok], gid[ok]
        if not len(entry):
            break
        key = gid << (vb + sb + pb)
        key |= lay.tok[entry + (n - 1)] << (sb + pb)
        key |= side << pb
        key |= lay.pos[entry]
        key.sort()
        gk, clipped, ke, g2 = _groups(key, sb, pb)
        del key
        item_of_group = item_of_group[gk >> vb]
        out[:, n - 1] = np.bincount(item_of_group, weights=clipped, minlength=I).astype(np.int64)
        side = (ke >> pb) & smask
        slot = lay.first_slot[item_of_group[g2]] + side
        entry = lay.slot_start[slot] + (ke & pmask)
        gid = g2
    return out
