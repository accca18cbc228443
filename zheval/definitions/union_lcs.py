"""Union-LCS of ROUGE-Lsum (Lin 2004, section 3.2), bit-parallel: which reference positions one LCS of every
(reference sentence, candidate sentence) pair uses, as rouge-score 0.1.2 ``_union_lcs`` / ``lcs_ind`` does.

Union-LCS (ROUGE-Lsum) -- packed columns + a per-element backtrack
    ROUGE-Lsum needs, for every reference sentence r and every candidate sentence c, the positions above.
    `union_lcs_ref_positions` does them all at once with two observations:

    * *Packing.* Run the recurrence with the roles swapped (bits = reference positions, one step per candidate
      token) on all reference sentences packed into one int, each followed by a guard bit that is cleared after
      every step. ``U = V & mask`` is a subset of V, so ``V - U`` never borrows; a carry out of a sentence lands in
      its (zero) guard bit and is cleared, so every sentence evolves exactly as on its own. One pass over c gives
      the DP *columns* of c against every reference sentence: the zero bits of column j mark the rows i where
      ``t[i][j] = t[i-1][j] + 1``.
    * *Per-element backtrack.* Without a match at (i, j) the rule above means "up while t[i-1][j] == T, else
      left". So from (i, j) with value T the path climbs column j to the top i0 of its T-plateau (the highest
      increase row <= i: one ``bit_length``), taking the diagonal at the lowest cell of that climb whose tokens
      are equal (the highest reference position < i holding c[j-1] and >= i0-1: one ``bit_length`` of a mask);
      if there is none, it steps left along row i0, where ``t[i0-1][.] < T`` forbids going up, to the nearest
      column j' < j with ``c[j'-1] == ref[i0-1]`` (one C-level ``tuple.index`` on the reversed candidate) and
      takes that diagonal. Each LCS element costs O(1) big-int operations; the path stops when the plateau top falls
      below the sentence (T = 0). Tested equal to `lcs_ref_positions` and to rouge-score on random
      small-alphabet texts and on real long summaries.
    * *Contained sentences.* If a reference sentence is a subsequence of some candidate sentence (a verbatim copy,
      as in extractive summaries, is the common case), that pair's LCS uses every position of the sentence, so its
      union is the whole sentence whatever the other pairs add, and its backtracks are skipped. The test is read off
      the last DP column of each candidate sentence (LCS = sentence length <=> every row of the sentence increases
      there): adding the sentences' start bits to that column carries into a sentence's guard bit exactly when all
      its bits are set -- two big-int operations per candidate sentence for all reference sentences of a block.
"""

from __future__ import annotations

from functools import reduce
from typing import Dict, Hashable, List, Sequence, Tuple

from .lcs import lcs_step


__all__ = ["PackedReference", "BLOCK_POSITIONS", "union_lcs_ref_positions", "union_lcs_tokens"]

Token = Hashable


class PackedReference:
    """The reference sentences of ROUGE-Lsum packed into bit layouts, built once per distinct reference text and
    reused against every candidate (see "Union-LCS" in the module docstring).

    Reference sentence s occupies positions ``offsets[s] .. offsets[s] + len(s) - 1`` of the whole layout and is
    followed by one guard position; ``flat[p]`` is the token at position p (``None`` at guards) and ``masks`` maps a
    token to the int with the bits of its positions (used for the whole-text LCS). For the union-LCS the sentences
    are grouped into consecutive **blocks** of at most `BLOCK_POSITIONS` positions (a longer sentence is a
    block of its own), so that the per-element backtrack works on ints of bounded width however many sentences the
    text has: ``blocks`` lists ``(base, masks, segments, segment_bits, starts, guards)`` with block-local positions
    (``segments`` = ``(start, end)`` of its non-empty sentences; ``segment_bits``, ``starts``, ``guards``: the bits
    of their positions, of their first positions and of their guard positions).

    Args:
        ref_sents: reference sentences (sequences of hashable tokens; empty ones allowed).
    """

    __slots__ = ("masks", "flat", "offsets", "width", "blocks")

    def __init__(self, ref_sents: Sequence[Sequence[Token]]):
        self.masks, self.flat, self.offsets, self.width = _pack(ref_sents)
        if self.width <= BLOCK_POSITIONS:
            self.blocks = [_block(0, self.masks, ref_sents, self.offsets)]
            return
        self.blocks = []
        start = 0
        while start < len(ref_sents):
            stop = start + 1
            while stop < len(ref_sents) and self.offsets[stop] + len(ref_sents[stop]) - self.offsets[start] < BLOCK_POSITIONS:
                stop += 1
            group = ref_sents[start:stop]
            masks, _, offsets, _ = _pack(group)
            self.blocks.append(_block(self.offsets[start], masks, group, offsets))
            start = stop


#: Most packed positions per union-LCS block (see `PackedReference`).
BLOCK_POSITIONS = 2048


def _pack(ref_sents: Sequence[Sequence[Token]]) -> Tuple[Dict[Token, int], List[Token], List[int], int]:
    """``(masks, flat, offsets, width)`` of sentences laid out one after another with a guard position after each."""
    masks: Dict[Token, int] = {}
    get = masks.get
    offsets: List[int] = []
    flat: List[Token] = []
    pos = 0
    for s in ref_sents:
        offsets.append(pos)
        for tok in s:
            masks[tok] = get(tok, 0) | (1 << pos)
            pos += 1
        flat.extend(s)
        flat.append(None)
        pos += 1  # guard
    return masks, flat, offsets, pos


def _block(base: int, masks: Dict[Token, int], ref_sents, offsets) -> tuple:
    """One union-LCS block: ``(base, masks, segments, segment_bits, starts, guards)`` (block-local positions;
    ``starts``/``guards``: the bits of the first position / the guard of each non-empty sentence)."""
    segments = _segments(ref_sents, offsets)
    starts = guards = 0
    for o, e in segments:
        starts |= 1 << o
        guards |= 1 << e
    return (base, masks, segments, _segment_bits(ref_sents, offsets), starts, guards)


def _segments(ref_sents, offsets) -> List[Tuple[int, int]]:
    return [(o, o + len(s)) for o, s in zip(offsets, ref_sents) if s]


def _segment_bits(ref_sents, offsets) -> int:
    bits = 0
    for o, s in zip(offsets, ref_sents):
        bits |= ((1 << len(s)) - 1) << o
    return bits


def _union_lcs_packed(ref: "PackedReference | Sequence[Sequence[Token]]",
                      can_sents: Sequence[Sequence[Token]]) -> Tuple[set, "PackedReference", int]:
    """Core of `union_lcs_ref_positions`: ``(positions, packed, text_lcs)``.

    ``positions`` is the set of positions (see `PackedReference`) on the LCS path of some (reference
    sentence, candidate sentence) pair. ``text_lcs`` is the LCS length of the two whole texts (sentences
    concatenated), from a second bit vector run in the pass of the first block over the candidate tokens: the
    packed reference read as one sequence whose guard positions are tokens that match nothing, which leaves the LCS
    unchanged.
    """
    packed = ref if isinstance(ref, PackedReference) else PackedReference(ref)
    flat = packed.flat
    out: set = set()
    record = out.add
    cands = [c for c in can_sents if c]
    wget = packed.masks.get
    whole = (1 << packed.width) - 1  # whole-text DP over all positions (guards included: they never match)
    record_range = out.update
    for block_index, (base, masks, segments, segment_bits, starts, guards) in enumerate(packed.blocks):
        get = masks.get
        # the backtrack reads low[a] for block positions a <= the end of the last sentence
        low: Sequence[int] = _LOW_MASKS if not segments or segments[-1][1] <= _LOW_TABLE_MAX else _LowMasks()
        flat_b = flat[base:] if base else flat
        rec = record if not base else (lambda a, _r=record, _b=base: _r(_b + a))
        paths = []  # (stops, c) of the candidate sentences with a non-zero LCS against some sentence of the block
        full = 0  # guard bits e of the sentences [o, e) that are a subsequence of some candidate sentence
        # the stop masks wait for the backtrack (which then knows every contained sentence) up to a memory budget;
        # beyond it they are backtracked at once against the sentences not known to be contained yet (the union of
        # a contained sentence is all of it, so recording some of its positions early changes nothing)
        stop_bytes = (segments[-1][1] if segments else 0) // 8 + 40  # an int of the block's width, roughly
        held = 0
        for c in cands:
            if block_index == 0:  # only the first block's pass advances the whole-text DP
                whole = reduce(lcs_step, map(wget, c), whole)
            if len(c) * stop_bytes > _HELD_STOPS_MAX:
                # one candidate sentence whose stop masks alone exceed the budget (a 100,000-token sentence against
                # a 100,000-token one: 1.25 GB): keep every k-th column state, recompute stops block by block
                lazy = _CheckpointStops(c, get, segment_bits)
                if lazy.z:
                    full |= (lazy.z + starts) & guards
                    _backtrack_paths([(lazy, c)], full, segments, flat_b, low, rec)
                continue
            # One pass over c gives the bit columns of c against every reference sentence of the block (guard bits
            # cleared). stops[j]: block positions (rows) where column j increases or holds c[j-1] -- where
            # rouge-score's path, climbing column j, stops.
            stops = [0]
            _, z = _segment_columns(c, get, segment_bits, 0, segment_bits, stops.append)
            if z:
                paths.append((stops, c))
                # z holds the rows where the last column increases: all rows of a sentence <=> LCS = its length.
                # Adding the sentence's start bit then carries into its guard bit (and only then).
                full |= (z + starts) & guards
                held += len(stops) * stop_bytes
                if held > _HELD_STOPS_MAX:
                    _backtrack_paths(paths, full, segments, flat_b, low, rec)
                    paths = []
                    held = 0
        if full:
            # A reference sentence that is a subsequence of a candidate sentence has every position on that pair's
            # LCS path: its union is the whole sentence, whatever the other candidate sentences do.
            for o, e in segments:
                if (full >> e) & 1:
                    record_range(range(base + o, base + e))
        if paths:
            _backtrack_paths(paths, full, segments, flat_b, low, rec)
    text_lcs = packed.width - (whole & ((1 << packed.width) - 1)).bit_count()
    return out, packed, text_lcs


def _segment_columns(c: Sequence[Token], get, v: int, z: int, segment_bits: int, push) -> Tuple[int, int]:
    """The bit columns of the tokens ``c`` against every reference sentence of a block, from the column state
    ``(v, z)``: the LCS step (`zheval.definitions.lcs.lcs_step`) cut at the sentences (``segment_bits``: guard bits
    cleared), ``z`` the rows where the column increases; ``push(stops[j])`` for each token (``z | m``: the rows where
    rouge-score's path, climbing column j, stops). Returns the state after the last token."""
    for tok in c:
        m = get(tok)
        if m:
            u = v & m
            v = ((v + u) | (v - u)) & segment_bits
            z = segment_bits ^ v
            push(z | m)
        else:
            push(z)
    return v, z


def _discard(_stop: int) -> None:
    """A ``push`` of `_segment_columns` that keeps nothing (the checkpoints keep the states only)."""


#: Bytes of stop masks held for the backtrack of one block before they are backtracked (see _union_lcs_packed).
_HELD_STOPS_MAX = 1 << 26


class _CheckpointStops:
    """``stops[j]`` of `_union_lcs_packed` for one candidate sentence ``c`` without holding them all: the
    column state ``(v, z)`` is kept every k-th column (k = ⌈√n⌉) and the k stops of the block holding ``j`` are
    recomputed from it when read (the same recurrence, so the same masks). Memory O(√n) ints instead of n;
    each backtrack over decreasing ``j`` recomputes every block once."""

    __slots__ = ("c", "get", "bits", "k", "marks", "z", "start", "block")

    def __init__(self, c: Sequence[Token], get, segment_bits: int) -> None:
        import math

        self.c, self.get, self.bits = c, get, segment_bits
        n = len(c)
        self.k = k = math.isqrt(max(n - 1, 0)) + 1
        v, z = segment_bits, 0
        marks = [(v, z)]
        for s in range(0, n, k):
            v, z = _segment_columns(c[s:s + k], get, v, z, segment_bits, _discard)
            if s + k <= n:
                marks.append((v, z))
        self.marks, self.z = marks, z
        self.start, self.block = -1, []

    def __getitem__(self, j: int) -> int:
        if j == 0:
            return 0
        s = (j - 1) // self.k * self.k
        if s != self.start:
            v, z = self.marks[s // self.k]
            block: List[int] = []
            _segment_columns(self.c[s:s + self.k], self.get, v, z, self.bits, block.append)
            self.start, self.block = s, block
        return self.block[j - s - 1]


def _backtrack_paths(paths, full: int, segments, flat_b, low, rec) -> None:
    """`_backtrack` of every ``(stops, c)`` in ``paths`` against the sentences not marked contained in
    ``full`` (guard bits)."""
    open_segments = [(o, e) for o, e in segments if not (full >> e) & 1] if full else segments
    if open_segments:
        for stops, c in paths:
            _backtrack(stops, c, open_segments, flat_b, low, rec)


def _backtrack(stops: List[int], c: Sequence[Token], segments, flat_b: Sequence[Token], low: Sequence[int], rec) -> None:
    """rouge-score's LCS path of candidate sentence ``c`` against every reference sentence (``segments``) of a
    block, from the stop masks of `_union_lcs_packed`; ``rec(a)`` is called with the block position of each
    LCS element. Climbing column j from rows below ``a`` (exclusive), the path stops at the highest row of
    ``stops[j] & low[a]`` (one ``bit_length``): a match there is a diagonal; otherwise (an increase row: the top of
    the T-plateau) the path goes left along that row to the nearest column holding the same token, and takes that
    diagonal. Nothing above the sentence start ``o`` means T = 0: the path ends."""
    n = len(c)
    backwards = tuple(reversed(c))  # backwards.index(x, n - j + 1): nearest x at a column < j (C-level)
    for o, a in segments:
        j = n
        while True:
            s = (stops[j] & low[a]).bit_length()  # highest stop row of column j below a, plus one
            if s <= o:  # t[i][j] == 0: no LCS element left
                break
            a = s - 1
            rec(a)
            x = flat_b[a]
            if x == c[j - 1]:  # match: diagonal
                j -= 1
            else:  # plateau top: left along row a to the nearest match of ref[a], then that diagonal
                j = n - 1 - backwards.index(x, n - j + 1)


class _LowMasks:
    """``low[k] == 2**k - 1`` without a table (for very long texts)."""

    __slots__ = ()

    def __getitem__(self, k: int) -> int:
        return (1 << k) - 1


_LOW_TABLE_MAX = 4096  # widest packed text (in tokens) for which the 2**k - 1 masks are tabulated
_LOW_MASKS = tuple((1 << k) - 1 for k in range(_LOW_TABLE_MAX + 1))  # a constant table (~1.2 MiB), built at import


def union_lcs_ref_positions(ref_sents: Sequence[Sequence[Token]], can_sents: Sequence[Sequence[Token]]) -> List[List[int]]:
    """Union-LCS positions of ROUGE-Lsum: for each reference sentence, the sorted union over every candidate
    sentence of `lcs_ref_positions` (the LCS path rouge-score 0.1.2 ``_union_lcs`` / ``lcs_ind`` takes).

    Equal to ``[sorted(set().union(*(lcs_ref_positions(r, c) for c in can_sents))) for r in ref_sents]``, computed
    much faster (see "Union-LCS" in the module docstring): the reference sentences are packed into one bit-vector
    with a guard bit after each, so one pass over a candidate sentence yields its DP columns against every
    reference sentence, and the backtrack costs a few big-int operations per LCS element instead of one Python
    step per cell of the path.

    Args:
        ref_sents: reference sentences (sequences of hashable tokens; empty ones allowed).
        can_sents: candidate sentences.
    Returns:
        list with one strictly increasing list of indices into ``ref_sents[s]`` per reference sentence.
    """
    out, packed, _ = _union_lcs_packed(ref_sents, can_sents)
    offsets = packed.offsets
    res: List[List[int]] = [[] for _ in ref_sents]
    if not out:
        return res
    import bisect

    for p in sorted(out):
        s = bisect.bisect_right(offsets, p) - 1
        res[s].append(p - offsets[s])
    return res


def union_lcs_tokens(
    ref_sents: "Sequence[Sequence[Token]] | PackedReference", can_sents: Sequence[Sequence[Token]]
) -> Tuple[List[Token], int]:
    """The reference tokens at the union-LCS positions of `union_lcs_ref_positions` (one entry per distinct
    position; in no particular order) -- the multiset ROUGE-Lsum clips against the candidate -- and, from the same
    pass, the LCS length of the whole texts (ROUGE-L of the concatenated sentences).

    Args:
        ref_sents: reference sentences, or their `PackedReference` (build it once to score one reference
            against many candidates).
        can_sents: candidate sentences.
    Returns:
        ``(tokens, text_lcs)``: a list of tokens of the reference (its length is the total size of the per-sentence
        unions) and ``lcs_length(concat(ref_sents), concat(can_sents))``, an int.
    """
    positions, packed, text_lcs = _union_lcs_packed(ref_sents, can_sents)
    return list(map(packed.flat.__getitem__, positions)), text_lcs
