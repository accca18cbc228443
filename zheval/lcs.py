"""Longest-common-subsequence kernels for ROUGE-L, ROUGE-Lsum and ROUGE-W.

All functions are pure and work on sequences of hashable tokens (``str`` or ``int`` ids); tokens are compared with
``==``. Nothing here tokenises or reads global state.

LCS length -- bit-parallel (no O(m*n) Python loop)
    We use the bit-vector recurrence of Crochemore, Iliopoulos, Pinzon and Reid (2001), "A fast and practical
    bit-vector algorithm for the longest common subsequence problem" (IPL 80), the same family as Allison & Dix
    (1986) and Hyyro (2004). For a *column* sequence ``b`` of length n we build, once, one match mask per symbol:
    bit j of ``masks[s]`` is set iff ``b[j] == s``. A Python ``int`` of n bits, V, starts as all ones; for every
    token ``c`` of the *row* sequence ``a``::

        U = V & masks[c]
        V = (V + U) | (V - U)

    After processing the first i row tokens, the zero bits of V among its low n bits mark the columns where the
    DP row ``t[i][.]`` increases, so ``t[i][j] = j - popcount(V & (2**j - 1))`` and ``LCS = n - popcount(V & (2**n
    - 1))``. Each row step is a handful of C-level big-int operations on ceil(n/30) digits, so the whole length
    computation is O(m * n / 30) machine work with O(m) Python bytecode steps. Carries out of bit n-1 never reach
    lower bits, so V is masked only when read.

LCS positions -- bit-parallel rows + a cheap backtrack (for union-LCS)
    ROUGE-Lsum needs *which* reference positions one particular LCS uses, and the choice among equally long LCSs
    changes the union (and the clipped hit count). We reproduce exactly the path of rouge-score 0.1.2
    ``rouge_scorer._backtrack_norec`` on ``_lcs_table(ref, can)``, which is also the path of ROUGE-1.5.5
    ``markLCS`` after ``lcs_inner`` (model = reference as rows, peer = candidate as columns; diagonal whenever the
    tokens are equal, otherwise "up" when ``t[i-1][j] >= t[i][j-1]`` else "left"). Instead of the O(m*n) table we keep
    the m+1 bit rows V_0..V_m of the algorithm above (O(m) ints) and walk back from (m, n) keeping T = t[i][j]:

    * tokens equal: record i-1, move diagonally, T -= 1;
    * bit j-1 of V_i is 0 (so t[i][j-1] = T-1 < t[i-1][j] = T): move up;
    * otherwise t[i][j-1] = T and we move left iff t[i-1][j] < T, where t[i-1][j] is one popcount of V_{i-1}.

    The walk has at most m+n steps, each O(1) big-int operations, and stops as soon as T reaches 0 (no further
    match can be recorded). Tested against rouge-score's DP table and backtrack with hypothesis on small alphabets
    (many ties).

Union-LCS (ROUGE-Lsum) -- packed columns + a per-element backtrack
    ROUGE-Lsum needs, for every reference sentence r and every candidate sentence c, the positions above.
    :func:`union_lcs_ref_positions` does them all at once with two observations:

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
      below the sentence (T = 0). Tested equal to :func:`lcs_ref_positions` and to rouge-score on random
      small-alphabet texts and on real long summaries.
    * *Contained sentences.* If a reference sentence is a subsequence of some candidate sentence (a verbatim copy,
      as in extractive summaries, is the common case), that pair's LCS uses every position of the sentence, so its
      union is the whole sentence whatever the other pairs add, and its backtracks are skipped. The test is read off
      the last DP column of each candidate sentence (LCS = sentence length <=> every row of the sentence increases
      there): adding the sentences' start bits to that column carries into a sentence's guard bit exactly when all
      its bits are set -- two big-int operations per candidate sentence for all reference sentences of a block.

Weighted LCS (ROUGE-W)
    Lin (2004), section 3.3, "ROUGE-W: Weighted Longest Common Subsequence": dynamic programming over c (weighted
    score) and w (length of the current consecutive run), with f(k) = k**weight. The run-length state is not
    bit-parallelisable, so this is a plain O(m*n) DP over two rows (only ROUGE-W, which is off by default, uses it).
"""

from __future__ import annotations

from typing import Dict, Hashable, List, Sequence, Tuple

__all__ = [
    "match_masks",
    "lcs_length",
    "lcs_length_masks",
    "lcs_length_pairs",
    "lcs_rows",
    "lcs_ref_positions",
    "union_lcs_ref_positions",
    "PackedReference",
    "union_lcs_tokens",
    "wlcs",
    "wlcs_ref_positions",
]

Token = Hashable


def match_masks(seq: Sequence[Token]) -> Dict[Token, int]:
    """Per-symbol match masks of ``seq``: ``{token: int}`` with bit j set iff ``seq[j] == token``.

    Build this once for a sequence that is compared with many others (e.g. the prediction against several
    references) and pass it to :func:`lcs_length_masks` / :func:`lcs_rows`.

    Args:
        seq: sequence of hashable tokens, length n >= 0.
    Returns:
        dict mapping each distinct token to a non-negative int bit mask of at most n bits.
    """
    masks: Dict[Token, int] = {}
    get = masks.get
    bit = 1
    for tok in seq:
        masks[tok] = get(tok, 0) | bit
        bit <<= 1
    return masks


def lcs_length_masks(masks: Dict[Token, int], n: int, rows_seq: Sequence[Token]) -> int:
    """LCS length between the column sequence behind ``masks`` (length ``n``) and ``rows_seq``.

    Bit-parallel (see module docstring); O(len(rows_seq)) Python steps.

    Args:
        masks: result of :func:`match_masks` for the column sequence.
        n: length of the column sequence.
        rows_seq: the other sequence.
    Returns:
        int in [0, min(n, len(rows_seq))].
    """
    if n == 0:
        return 0
    full = (1 << n) - 1
    v = full
    get = masks.get
    for tok in rows_seq:
        m = get(tok)
        if m:
            u = v & m
            v = (v + u) | (v - u)
    return n - (v & full).bit_count()


def lcs_length(a: Sequence[Token], b: Sequence[Token]) -> int:
    """Length of the longest common subsequence of ``a`` and ``b`` (bit-parallel, exact).

    Args:
        a, b: sequences of hashable tokens (any lengths, may be empty).
    Returns:
        int in [0, min(len(a), len(b))]. Symmetric in its arguments.
    """
    if not a or not b:
        return 0
    # Masks over the shorter sequence keep the big ints small.
    if len(a) < len(b):
        a, b = b, a
    return lcs_length_masks(match_masks(b), len(b), a)


def lcs_rows(masks: Dict[Token, int], n: int, rows_seq: Sequence[Token]) -> List[int]:
    """All bit rows V_0..V_m of the bit-parallel LCS (m = len(rows_seq)), for backtracking.

    ``t[i][j] = j - popcount(rows[i] & (2**j - 1))`` is the LCS length of ``rows_seq[:i]`` and the first j column
    tokens. V_0 = 2**n - 1.

    Returns:
        list of m+1 non-negative ints.
    """
    v = (1 << n) - 1
    rows = [v]
    append = rows.append
    get = masks.get
    for tok in rows_seq:
        m = get(tok)
        if m:
            u = v & m
            v = (v + u) | (v - u)
        append(v)
    return rows


def lcs_ref_positions(
    ref: Sequence[Token], can: Sequence[Token], can_masks: Dict[Token, int] | None = None
) -> List[int]:
    """Indices into ``ref`` of one LCS of ``ref`` and ``can``, the very one rouge-score 0.1.2 picks.

    Equals ``rouge_score.rouge_scorer.lcs_ind(ref, can)`` (and the positions ROUGE-1.5.5 ``markLCS`` marks in the
    model sentence when ``ref`` is the model sentence and ``can`` the peer sentence): see the module docstring
    for the tie-breaking rule and the algorithm.

    Args:
        ref: reference (row) sequence.
        can: candidate (column) sequence.
        can_masks: optional precomputed ``match_masks(can)``.
    Returns:
        strictly increasing list of indices into ``ref``; its length is the LCS length.
    """
    m = len(ref)
    n = len(can)
    if m == 0 or n == 0:
        return []
    if can_masks is None:
        can_masks = match_masks(can)
    rows = lcs_rows(can_masks, n, ref)
    t = n - (rows[m] & ((1 << n) - 1)).bit_count()
    out: List[int] = []
    i = m
    j = n
    while t > 0:
        # t > 0 implies i > 0 and j > 0.
        if ref[i - 1] == can[j - 1]:
            i -= 1
            j -= 1
            out.append(i)
            t -= 1
        elif (rows[i] >> (j - 1)) & 1:
            # t[i][j-1] == t; go left iff t[i-1][j] < t (rouge-score: t[i][j-1] > t[i-1][j]).
            up = j - (rows[i - 1] & ((1 << j) - 1)).bit_count()
            if up < t:
                j -= 1
            else:
                i -= 1
        else:
            # t[i][j-1] == t-1 < t[i-1][j] == t: go up.
            i -= 1
    out.reverse()
    return out


class PackedReference:
    """The reference sentences of ROUGE-Lsum packed into bit layouts, built once per distinct reference text and
    reused against every candidate (see "Union-LCS" in the module docstring).

    Reference sentence s occupies positions ``offsets[s] .. offsets[s] + len(s) - 1`` of the whole layout and is
    followed by one guard position; ``flat[p]`` is the token at position p (``None`` at guards) and ``masks`` maps a
    token to the int with the bits of its positions (used for the whole-text LCS). For the union-LCS the sentences
    are grouped into consecutive **blocks** of at most :data:`BLOCK_POSITIONS` positions (a longer sentence is a
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


#: Most packed positions per union-LCS block (see :class:`PackedReference`).
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
    """Core of :func:`union_lcs_ref_positions`: ``(positions, packed, text_lcs)``.

    ``positions`` is the set of positions (see :class:`PackedReference`) on the LCS path of some (reference
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
        single = wget is get  # one block: its masks are the whole layout's
        # only the first block's pass advances the whole-text DP (later blocks look tokens up in an empty dict)
        whole_get = wget if block_index == 0 else _NO_MASKS.get
        paths = []  # (stops, c) of the candidate sentences with a non-zero LCS against some sentence of the block
        full = 0  # guard bits e of the sentences [o, e) that are a subsequence of some candidate sentence
        # the stop masks wait for the backtrack (which then knows every contained sentence) up to a memory budget;
        # beyond it they are backtracked at once against the sentences not known to be contained yet (the union of
        # a contained sentence is all of it, so recording some of its positions early changes nothing)
        stop_bytes = (segments[-1][1] if segments else 0) // 8 + 40  # an int of the block's width, roughly
        held = 0
        for c in cands:
            # One pass over c gives the bit columns of c against every reference sentence of the block (guard bits
            # cleared) and advances the whole-text DP by the tokens of c. stops[j]: block positions (rows) where
            # column j increases or holds c[j-1] -- where rouge-score's path, climbing column j, stops.
            v = segment_bits
            z = 0
            stops = [0]
            push = stops.append
            if single:
                for tok in c:
                    m = get(tok)
                    if m:
                        u = v & m
                        v = ((v + u) | (v - u)) & segment_bits
                        z = segment_bits ^ v
                        push(z | m)
                        u = whole & m
                        whole = (whole + u) | (whole - u)
                    else:
                        push(z)
            else:
                for tok in c:
                    m = get(tok)
                    if m:
                        u = v & m
                        v = ((v + u) | (v - u)) & segment_bits
                        z = segment_bits ^ v
                        push(z | m)
                    else:
                        push(z)
                    wm = whole_get(tok)
                    if wm:
                        u = whole & wm
                        whole = (whole + u) | (whole - u)
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


#: Bytes of stop masks held for the backtrack of one block before they are backtracked (see _union_lcs_packed).
_HELD_STOPS_MAX = 1 << 26


def _backtrack_paths(paths, full: int, segments, flat_b, low, rec) -> None:
    """:func:`_backtrack` of every ``(stops, c)`` in ``paths`` against the sentences not marked contained in
    ``full`` (guard bits)."""
    open_segments = [(o, e) for o, e in segments if not (full >> e) & 1] if full else segments
    if open_segments:
        for stops, c in paths:
            _backtrack(stops, c, open_segments, flat_b, low, rec)


def _backtrack(stops: List[int], c: Sequence[Token], segments, flat_b: Sequence[Token], low: Sequence[int], rec) -> None:
    """rouge-score's LCS path of candidate sentence ``c`` against every reference sentence (``segments``) of a
    block, from the stop masks of :func:`_union_lcs_packed`; ``rec(a)`` is called with the block position of each
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


_NO_MASKS: Dict[Token, int] = {}  # never written: the empty mask table


class _LowMasks:
    """``low[k] == 2**k - 1`` without a table (for very long texts)."""

    __slots__ = ()

    def __getitem__(self, k: int) -> int:
        return (1 << k) - 1


_LOW_TABLE_MAX = 4096  # widest packed text (in tokens) for which the 2**k - 1 masks are tabulated
_LOW_MASKS = tuple((1 << k) - 1 for k in range(_LOW_TABLE_MAX + 1))  # a constant table (~1.2 MiB), built at import


def union_lcs_ref_positions(ref_sents: Sequence[Sequence[Token]], can_sents: Sequence[Sequence[Token]]) -> List[List[int]]:
    """Union-LCS positions of ROUGE-Lsum: for each reference sentence, the sorted union over every candidate
    sentence of :func:`lcs_ref_positions` (the LCS path rouge-score 0.1.2 ``_union_lcs`` / ``lcs_ind`` takes).

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
    """The reference tokens at the union-LCS positions of :func:`union_lcs_ref_positions` (one entry per distinct
    position; in no particular order) -- the multiset ROUGE-Lsum clips against the candidate -- and, from the same
    pass, the LCS length of the whole texts (ROUGE-L of the concatenated sentences).

    Args:
        ref_sents: reference sentences, or their :class:`PackedReference` (build it once to score one reference
            against many candidates).
        can_sents: candidate sentences.
    Returns:
        ``(tokens, text_lcs)``: a list of tokens of the reference (its length is the total size of the per-sentence
        unions) and ``lcs_length(concat(ref_sents), concat(can_sents))``, an int.
    """
    positions, packed, text_lcs = _union_lcs_packed(ref_sents, can_sents)
    return list(map(packed.flat.__getitem__, positions)), text_lcs


def _wlcs_tables(
    ref: Sequence[Token], can: Sequence[Token], weight: float
) -> Tuple[List[List[float]], List[float]]:
    """Full WLCS table c (m+1 rows of n+1 floats) and the weight table f(k) = k**weight."""
    m = len(ref)
    n = len(can)
    fw = [k**weight for k in range(min(m, n) + 2)]
    prev_c = [0.0] * (n + 1)
    prev_l = [0] * (n + 1)
    table = [prev_c]
    for i in range(m):
        x = ref[i]
        cur_c = [0.0] * (n + 1)
        cur_l = [0] * (n + 1)
        left = 0.0
        for j in range(n):
            if x == can[j]:
                k = prev_l[j]
                # Same operation order as Lin (2004) and ROUGE-1.5.5 wlcs_inner: c + f(k+1) - f(k).
                left = prev_c[j] + fw[k + 1] - fw[k]
                cur_l[j + 1] = k + 1
            else:
                up = prev_c[j + 1]
                if up >= left:
                    left = up
            cur_c[j + 1] = left
        table.append(cur_c)
        prev_c = cur_c
        prev_l = cur_l
    return table, fw


def wlcs(ref: Sequence[Token], can: Sequence[Token], weight: float = 1.2) -> float:
    """Weighted LCS score WLCS(ref, can) of Lin (2004), section 3.3, with f(k) = k**weight.

    DP (Lin 2004, Fig. in 3.3): for x_i == y_j, ``c[i][j] = c[i-1][j-1] + f(k+1) - f(k)`` with k the length of
    the consecutive match ending at (i-1, j-1); otherwise ``c[i][j] = max(c[i-1][j], c[i][j-1])`` and the run
    length resets to 0. Returns c[m][n]. With weight 1 this is the LCS length.

    Each cell keeps ``c = base + f(k)`` (base: the weight of the runs completed before the current one) instead of
    accumulating ``f(k+1) - f(k)`` increments, so the value is the same sum Lin's DP computes but without the
    rounding of the telescoping increments: one run of length n gives exactly f(n), so identical texts get
    ROUGE-W = 1.0 exactly (the increment form gives 1 ± 1e-15). :func:`wlcs_ref_positions` keeps ROUGE-1.5.5's
    operation order, which its path rule needs.

    Args:
        ref, can: token sequences.
        weight: w > 0 in f(k) = k**w (ROUGE-1.5.5 ``-w``; 1.2 is customary).
    Returns:
        float in [0, f(min(m, n))]; 0.0 if either sequence is empty.
    """
    m = len(ref)
    n = len(can)
    if m == 0 or n == 0:
        return 0.0
    fw = [k**weight for k in range(min(m, n) + 2)]
    prev_b = [0.0] * (n + 1)  # base of each cell of the previous row
    prev_l = [0] * (n + 1)  # run length of each cell of the previous row
    for i in range(m):
        x = ref[i]
        cur_b = [0.0] * (n + 1)
        cur_l = [0] * (n + 1)
        left_b = 0.0
        left_l = 0
        left_v = 0.0
        for j in range(n):
            if x == can[j]:
                k = prev_l[j]
                left_b = prev_b[j]
                left_l = k + 1
                left_v = left_b + fw[k + 1]
            else:
                up_v = prev_b[j + 1] + fw[prev_l[j + 1]]
                if up_v >= left_v:
                    left_v = up_v
                left_b = left_v  # the run is broken: what was matched so far becomes the base
                left_l = 0
            cur_b[j + 1] = left_b
            cur_l[j + 1] = left_l
        prev_b = cur_b
        prev_l = cur_l
    return prev_b[n] + fw[prev_l[n]]


def wlcs_ref_positions(ref: Sequence[Token], can: Sequence[Token], weight: float = 1.2) -> List[int]:
    """Reference positions on the WLCS path that ROUGE-1.5.5 ``markLCS`` marks after ``wlcs_inner``.

    Path rule (ROUGE-1.5.5 ``wlcs_inner``/``markLCS``, model = ``ref`` rows, peer = ``can`` columns): from (m, n),
    go diagonally when the tokens are equal (recording i-1), else up when ``c[i-1][j] >= c[i][j-1]``, else left.

    Returns:
        increasing list of indices into ``ref``.
    """
    m = len(ref)
    n = len(can)
    if m == 0 or n == 0:
        return []
    c, _ = _wlcs_tables(ref, can, weight)
    out: List[int] = []
    i = m
    j = n
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            i -= 1
            j -= 1
            out.append(i)
        elif c[i - 1][j] >= c[i][j - 1]:
            i -= 1
        else:
            j -= 1
    out.reverse()
    return out


def lcs_length_pairs(tokens, offsets, col, row, max_words: int = 4):
    """LCS lengths of many pairs of integer-id texts at once: the bit-parallel recurrence of the module docstring,
    vectorised across pairs with numpy (one ``uint64`` row of ``ceil(n / 64)`` words per pair).

    Same recurrence, same result as :func:`lcs_length_masks` pair by pair (``V - U == V & ~U`` because
    ``U = V & mask`` is a subset of V; the addition propagates carries between 64-bit words; bits above n only
    receive carries and are masked off when the length is read). Pairs are ordered by row length, so step i of the
    recurrence updates a prefix of the pairs. Columns longer than ``64 * max_words`` tokens use
    :func:`lcs_length_masks` (Python ints), where the per-step numpy overhead would no longer pay.

    Args:
        tokens, offsets: all texts' int token ids (``>= 0``) concatenated, and ``(n_texts + 1,)`` start offsets
            (:func:`zheval.ngrams.flatten_texts`).
        col, row: ``(P,)`` int arrays: pair p is (column text ``col[p]``, row text ``row[p]``).
        max_words: widest column (in 64-bit words) handled with numpy.
    Returns:
        ``(P,)`` int64 LCS lengths.
    """
    import numpy as np

    col = np.asarray(col, dtype=np.int64)
    row = np.asarray(row, dtype=np.int64)
    out = np.zeros(len(col), dtype=np.int64)
    if len(col) == 0:
        return out
    lengths = np.diff(offsets)
    ncol, nrow = lengths[col], lengths[row]
    words = (ncol + 63) // 64
    live = (ncol > 0) & (nrow > 0)
    for p in np.flatnonzero(live & (words > max_words)).tolist():
        c = tokens[offsets[col[p]]:offsets[col[p] + 1]].tolist()
        out[p] = lcs_length_masks(match_masks(c), len(c), tokens[offsets[row[p]]:offsets[row[p] + 1]].tolist())
    for w in range(1, max_words + 1):
        sel = np.flatnonzero(live & (words == w))
        if len(sel):
            out[sel] = _lcs_words(tokens, offsets, col[sel], row[sel], w)
    return out


def _ragged(offsets, which):
    """Concatenated index ranges ``offsets[k]:offsets[k + 1]`` for k in ``which``, and each entry's position."""
    import numpy as np

    starts = offsets[which]
    lens = offsets[which + 1] - starts
    ends = np.cumsum(lens)
    pos = np.arange(int(ends[-1]) if len(ends) else 0, dtype=np.int64) - np.repeat(ends - lens, lens)
    return np.repeat(starts, lens) + pos, pos, lens


_DENSE_LOOKUP_MAX = 1 << 24  # entries (64 MiB of int32) of the optional direct lookup table


def _lcs_words(tokens, offsets, col, row, w: int):
    """:func:`lcs_length_pairs` for pairs whose column fits in ``w`` 64-bit words (all lengths > 0)."""
    import numpy as np

    lengths = np.diff(offsets)
    vocab = int(tokens.max()) + 1
    # Match masks of the distinct column texts: one (w,) uint64 row per (column text, token) present in it.
    ucol, col_rank = np.unique(col, return_inverse=True)
    idx, pos, clen = _ragged(offsets, ucol)
    keys = np.repeat(np.arange(len(ucol), dtype=np.int64), clen) * vocab + tokens[idx]
    table = np.unique(keys)
    masks = np.zeros((len(table) + 1, w), dtype=np.uint64)  # last row: no match
    np.bitwise_or.at(masks, (np.searchsorted(table, keys), pos // 64),
                     np.left_shift(np.uint64(1), (pos % 64).astype(np.uint64)))
    # Pairs by decreasing row length: at step i the pairs with a row token i are a prefix.
    order = np.argsort(-lengths[row], kind="stable")
    col_rank, row = col_rank[order], row[order]
    rlen = lengths[row]
    steps = int(rlen[0])
    active = np.searchsorted(-rlen, -np.arange(steps, dtype=np.int64), side="left")  # pairs with rlen > i
    step_off = np.zeros(steps + 1, dtype=np.int64)
    np.cumsum(active, out=step_off[1:])
    ridx, i_of, _ = _ragged(offsets, row)
    k_of = np.repeat(np.arange(len(row), dtype=np.int64), rlen)
    query = np.empty(len(ridx), dtype=np.int64)
    query[step_off[i_of] + k_of] = col_rank[k_of] * vocab + tokens[ridx]
    if len(ucol) * vocab <= _DENSE_LOOKUP_MAX:  # direct lookup table over (column text, token)
        lut = np.full(len(ucol) * vocab, len(table), dtype=np.int32)
        lut[table] = np.arange(len(table), dtype=np.int32)
        mask_row = lut[query]
    else:
        hit = np.searchsorted(table, query)
        np.minimum(hit, len(table) - 1, out=hit)
        mask_row = np.where(table[hit] == query, hit, len(table))
    v = np.full((len(row), w), np.iinfo(np.uint64).max, dtype=np.uint64)
    one = np.uint64(1)
    for i in range(steps):
        a = int(active[i])
        vv = v[:a]
        u = vv & masks[mask_row[step_off[i]:step_off[i + 1]]]
        rest = vv & ~u
        if w == 1:
            vv += u
        else:
            carry = np.zeros(a, dtype=np.uint64)
            for k in range(w):
                t = vv[:, k] + u[:, k]
                c1 = t < u[:, k]
                s = t + carry
                carry = (c1 | (s < t)).astype(np.uint64)
                vv[:, k] = s
        vv |= rest
    # LCS = n - popcount(V restricted to the n column bits)
    n = lengths[col[order]]
    low = np.zeros((len(row), w), dtype=np.uint64)
    for k in range(w):
        bits = np.clip(n - 64 * k, 0, 64)
        low[:, k] = np.where(bits == 64, np.iinfo(np.uint64).max,
                             np.left_shift(one, np.minimum(bits, 63).astype(np.uint64)) - one)
    zeros = np.bitwise_count(v & low).sum(axis=1).astype(np.int64)
    res = np.empty(len(row), dtype=np.int64)
    res[order] = n - zeros
    return res
