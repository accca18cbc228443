"""Every item's texts side by side, and the ROUGE-N hits of all its pairs from one sort per n-gram order.

The shared layout of `pair_ngram_hits_sorted` (ROUGE-N, and the ROUGE-L match masks) and
`zheval.fast.slot_bleu.item_clipped_matches_sorted` (BLEU). Pure functions of integer token ids.

Layout (`SlotLayout`)
    Item i owns consecutive *slots*: its prediction (side 0), then its references (side j = 1..k_i). The prediction
    is laid out **once per item** for all its references (ROUGE gives the distinct (prediction, reference) pairs
    grouped by distinct prediction text, so a prediction text is laid out once). Entry e of the layout is token
    ``tok[e]`` at position ``pos[e]`` of its slot.

One sort per order (Lin 2004 section 2: ROUGE-N hits ``sum_g min(c_hyp(g), c_ref(g))``)
    Keys ``gram | item | side | pos`` (bit fields, most significant first). After one ``np.sort`` the entries of an
    (n-gram, item) *group* are contiguous, the prediction's first; within a group, a reference's entries form one
    run. A reference entry of rank r in its run is a clipped hit iff r < the prediction's count in the group, so the
    hits of a pair are a ``bincount`` of its hit entries. ``gram`` is the n tokens packed (``n * bits(V - 1)`` bits)
    when that fits, else a dense id (the rank of the n-gram among the distinct n-grams present: no key-width limit
    on the n-gram); items are processed in chunks whose keys fit in 63 bits (`slot_key_chunks`).

LCS match masks from the unigram groups (the prediction is the bit column)
    The unigram keys carry the position, so every (token, item) group lists the prediction's positions of that
    token: their OR (``np.bitwise_or.reduceat``) is the match mask of every reference entry in the group -- no dense
    (texts x vocabulary) table. `zheval.fast.slot_lcs` runs the bit-parallel recurrence on them.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SlotLayout", "pair_ngram_hits_sorted", "slot_key_chunks", "slot_keys_fit", "bits_for", "concat_ranges"]

#: Bits of a sort key (non-negative int64).
KEY_BITS = 63


def bits_for(x: int) -> int:
    """Bits needed to hold every value ``0..x`` (at least 1)."""
    return max(1, int(x).bit_length())


def concat_ranges(starts: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """Concatenated index ranges ``starts[k] .. starts[k] + lens[k] - 1``."""
    total = int(lens.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    shift = starts - (np.cumsum(lens) - lens)
    return np.repeat(shift, lens) + np.arange(total, dtype=np.int64)


class SlotLayout:
    """Items' texts side by side: item i's prediction (side 0), then its references (sides 1..k_i).

    Args:
        tokens, offsets: the texts' int64 token ids (``0 <= id < vocab_size``) concatenated, and their
            ``(n_texts + 1,)`` start offsets.
        hyp: ``(I,)`` text of each item's prediction; ref: ``(P,)`` text of every reference, items in order;
            ref_counts: ``(I,)`` references per item (each >= 1).
        vocab_size: V >= 1.

    Attributes:
        n_items, n_pairs; first_pair ``(I,)``; pair_item ``(P,)``; first_slot ``(I,)``; ref_slot ``(P,)``;
        hyp_len ``(I,)``, ref_len ``(P,)`` token counts; slot_len ``(I + P,)``; slot_start ``(I + P,)`` first entry of
        each slot; tok, pos ``(N,)`` every entry's token and position; entry_base ``(N,)`` its
        ``item << sb | side``, entry_item ``(N,)`` its item; vb, sb, ib, pb: bits of a token, a side, an item and a
        position.
    """

    def __init__(self, tokens, offsets, hyp, ref, ref_counts, vocab_size: int):
        hyp = np.asarray(hyp, dtype=np.int64)
        ref = np.asarray(ref, dtype=np.int64)
        ref_counts = np.asarray(ref_counts, dtype=np.int64)
        I, P = len(hyp), len(ref)
        self.n_items, self.n_pairs = I, P
        self.first_pair = np.zeros(I, dtype=np.int64)
        if I > 1:
            np.cumsum(ref_counts[:-1], out=self.first_pair[1:])
        self.pair_item = np.repeat(np.arange(I, dtype=np.int64), ref_counts)
        self.first_slot = self.first_pair + np.arange(I, dtype=np.int64)
        self.ref_slot = np.arange(P, dtype=np.int64) + self.pair_item + 1
        slot_text = np.empty(I + P, dtype=np.int64)
        slot_text[self.first_slot] = hyp
        slot_text[self.ref_slot] = ref
        tlen = np.diff(offsets)
        self.hyp_len = tlen[hyp]
        self.ref_len = tlen[ref]
        lens = tlen[slot_text]
        self.slot_len = lens
        cum = np.cumsum(lens)
        self.slot_start = cum - lens
        N = int(cum[-1]) if len(cum) else 0
        self.N = N
        self.tok = (tokens[concat_ranges(offsets[slot_text], lens)].astype(np.int64, copy=False) if N  # keys below
                    else np.zeros(0, dtype=np.int64))
        slot_item = np.repeat(np.arange(I, dtype=np.int64), ref_counts + 1)
        slot_side = np.zeros(I + P, dtype=np.int64)
        slot_side[self.ref_slot] = self.ref_slot - self.first_slot[self.pair_item]
        self.pos = np.arange(N, dtype=np.int64) - np.repeat(self.slot_start, lens)
        self.vb = bits_for(max(int(vocab_size), 1) - 1)
        self.sb = bits_for(int(ref_counts.max()) if I else 1)
        self.entry_base = np.repeat((slot_item << self.sb) | slot_side, lens)
        self.ib = bits_for(I - 1)
        self.pb = bits_for(int(lens.max()) - 1 if len(lens) and lens.max() > 0 else 0)
        self.vocab_size = max(int(vocab_size), 1)

    @property
    def entry_item(self) -> np.ndarray:
        """``(N,)`` the item of every entry."""
        return self.entry_base >> self.sb

    def ngram_starts(self, n: int) -> np.ndarray:
        """Entries where an n-gram starts inside its slot (``pos + n <= slot length``)."""
        if n == 1:
            return np.arange(self.N, dtype=np.int64)
        room = np.repeat(self.slot_len, self.slot_len) - self.pos
        return np.flatnonzero(room >= n)

    def gram_ids(self, n: int, starts: np.ndarray):
        """``(ids, bits)``: an id of the n-gram at every entry of ``starts`` (equal ids iff equal n-grams) and the
        bits it needs: the tokens packed when ``n * vb`` bits leave room for the other key fields, else dense ranks
        (one extra sort). No start (``n`` above every slot's length, e.g. ``rouge1000`` on shorter texts): no ids, whatever ``n``
        (no loop over the order)."""
        vb = self.vb
        if not len(starts):
            return np.zeros(0, dtype=np.int64), bits_for(0)
        if n * vb <= KEY_BITS - self.sb - self.pb - 1:
            key = self.tok[starts].copy()
            for k in range(1, n):
                key <<= vb
                key |= self.tok[starts + k]
            return key, n * vb
        from .keys import unique_inverse

        ids = unique_inverse(self.tok[starts])[1]
        V = self.vocab_size
        for k in range(1, n):
            ids = unique_inverse(ids * V + self.tok[starts + k])[1]
        G = int(ids.max()) + 1 if len(ids) else 1
        return ids, bits_for(G - 1)


def slot_key_chunks(lay: SlotLayout, gram_bits: int, with_pos: bool):
    """Item ranges ``(lo, hi)`` whose keys ``gram | item - lo | side [| pos]`` fit in 63 bits, or None when not
    even one item fits (the caller then takes another path; `zheval.fast.usable_for` ``"slot_keys"``)."""
    room = KEY_BITS - gram_bits - lay.sb - (lay.pb if with_pos else 0)
    if room < 1:
        return None
    size = 1 << room
    return [(lo, min(lay.n_items, lo + size)) for lo in range(0, max(lay.n_items, 1), size)]


def slot_keys_fit(lay: SlotLayout, n: int, with_pos: bool) -> bool:
    """Whether the order-``n`` keys of ``lay`` fit in 63 bits for at least one item at a time (the n-gram field
    bounded by the packed width or, when that is too wide, by the bits of the number of entries), so that
    `pair_ngram_hits_sorted` can serve it; asked through `zheval.fast.usable_for` ``"slot_keys"``."""
    gb = n * lay.vb
    if gb > KEY_BITS - lay.sb - lay.pb - 1:
        gb = bits_for(max(lay.N - 1, 0))
    return KEY_BITS - gb - lay.sb - (lay.pb if with_pos else 0) >= 1


def _sorted_groups(key: np.ndarray, low: int, side_shift: int, smask: int):
    """Of sorted keys: the groups (equal ``key >> low``) whose first entry is a prediction entry (side 0) and that
    hold more than one entry, as ``(group start, group size)``."""
    N = len(key)
    d = key[1:] ^ key[:-1]
    d >>= low
    new = np.empty(N, dtype=bool)
    new[0] = True
    np.not_equal(d, 0, out=new[1:])
    gstart = np.flatnonzero(new)
    gsize = np.empty(len(gstart), dtype=np.int64)
    gsize[:-1] = gstart[1:] - gstart[:-1]
    gsize[-1] = N - gstart[-1]
    first = (key[gstart] >> side_shift) & smask
    sel = np.flatnonzero((first == 0) & (gsize > 1))
    return gstart[sel], gsize[sel]


def pair_ngram_hits_sorted(lay: SlotLayout, n: int, masks_words: int = 0):
    """ROUGE-N hits ``sum_g min(c_hyp(g), c_ref(g))`` of every (item prediction, reference) pair of a
    `SlotLayout`: the corpus-at-once twin of `zheval.definitions.rouge.clipped_overlap` on
    `zheval.definitions.rouge.ngram_counts` (Lin 2004 section 2), by one sort per order (module docstring).

    Args:
        lay: the layout; n: the order (>= 1).
        masks_words: for n = 1, also the LCS match masks of every reference entry (prediction = bit column) for
            predictions of at most ``64 * masks_words`` tokens (0: none).
    Returns:
        ``(P,)`` int64 hits (each in ``[0, min(hyp n-grams, ref n-grams)]``), or None when the keys cannot fit
        (`slot_key_chunks`); with ``masks_words``, ``(hits, masks)`` where masks is
        ``(pair, pos, mask_rows, group_of_entry)`` of the reference entries whose token occurs in their prediction
        (``mask_rows`` an ``(n_groups, masks_words)`` uint64 array).
    """
    with_pos = bool(masks_words) and n == 1
    starts = lay.ngram_starts(n)
    gram, gb = lay.gram_ids(n, starts)
    chunks = slot_key_chunks(lay, gb, with_pos)
    if chunks is None:
        return None
    P = lay.n_pairs
    hits = np.zeros(P, dtype=np.int64)
    parts = []
    sb, pb = lay.sb, (lay.pb if with_pos else 0)
    smask = (1 << sb) - 1
    whole = n == 1  # every entry starts a unigram: no gathers
    for lo, hi in chunks:
        if len(chunks) > 1:
            item = lay.entry_item if whole else lay.entry_item[starts]
            e = np.flatnonzero((item >= lo) & (item < hi))
            g, st = gram[e], starts[e]
            base = lay.entry_base[st] - (lo << sb)
        else:
            g, st = gram, starts
            base = lay.entry_base if whole else lay.entry_base[st]
        if not len(g):
            continue
        ib = bits_for(hi - lo - 1) if len(chunks) > 1 else lay.ib
        key = g << (ib + sb + pb)
        if pb:
            key |= base << pb
            key |= lay.pos if whole and len(chunks) == 1 else lay.pos[st]
        else:
            key |= base
        key.sort()
        gst, gsz = _sorted_groups(key, sb + pb, pb, smask)
        if not len(gst):
            continue
        ke = key[concat_ranges(gst, gsz)]
        del key
        side = (ke >> pb) & smask
        gid = np.repeat(np.arange(len(gst), dtype=np.int64), gsz)
        is_h = side == 0
        hc = np.bincount(gid, weights=is_h, minlength=len(gst)).astype(np.int64)
        m = len(ke)
        run_new = np.empty(m, dtype=bool)
        run_new[0] = True
        d = ke[1:] ^ ke[:-1]
        d >>= pb
        np.not_equal(d, 0, out=run_new[1:])
        idx = np.arange(m, dtype=np.int64)
        rank = idx - np.maximum.accumulate(np.where(run_new, idx, 0))
        hit = ~is_h & (rank < hc[gid])
        kh = ke[hit]
        imask = (1 << ib) - 1
        pair = lay.first_pair[((kh >> (sb + pb)) & imask) + lo] + ((kh >> pb) & smask) - 1
        hits += np.bincount(pair, minlength=P).astype(np.int64)
        if with_pos:
            parts.append(_group_masks(lay, ke, is_h, gid, hc, len(gst), lo, ib, sb, pb, masks_words))
    if not with_pos:
        return hits
    return hits, _concat_masks(parts, masks_words)


def _group_masks(lay, ke, is_h, gid, hc, n_groups, lo, ib, sb, pb, words):
    """The match mask rows of the matchable unigram groups (OR of the prediction's position bits, positions below
    ``64 * words``) and, for every reference entry of those groups, its pair, position and group."""
    pmask = (1 << pb) - 1
    smask = (1 << sb) - 1
    imask = (1 << ib) - 1
    hpos = ke[is_h] & pmask
    hstart = np.zeros(n_groups, dtype=np.int64)
    np.cumsum(hc[:-1], out=hstart[1:])
    bits = np.left_shift(np.uint64(1), (hpos & 63).astype(np.uint64))
    gmask = np.zeros((n_groups, words), dtype=np.uint64)
    hw = hpos >> 6
    for w in range(words):
        col = bits if words == 1 and not (hw > 0).any() else np.where(hw == w, bits, np.uint64(0))
        gmask[:, w] = np.bitwise_or.reduceat(col, hstart)
    is_r = ~is_h
    kr = ke[is_r]
    r_pos = kr & pmask
    kr >>= pb
    r_pair = lay.first_pair[((kr >> sb) & imask) + lo] + (kr & smask) - 1
    return r_pair, r_pos, gmask, gid[is_r]


def _concat_masks(parts, words):
    if not parts:
        z = np.zeros(0, dtype=np.int64)
        return z, z, np.zeros((0, words), dtype=np.uint64), z
    if len(parts) == 1:
        return parts[0]
    base = np.cumsum([0] + [len(p[2]) for p in parts[:-1]])
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]), np.concatenate([p[3] + b for p, b in zip(parts, base)]))
