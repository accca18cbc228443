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

Weighted LCS (ROUGE-W)
    Lin (2004), section 3.3, "ROUGE-W: Weighted Longest Common Subsequence": dynamic programming over c (weighted
    score) and w (length of the current consecutive run), with f(k) = k**weight. The run-length state is not
    bit-parallelisable, so this is a plain O(m*n) DP over two rows (only ROUGE-W, which is off by default, uses it).

The union-LCS of ROUGE-Lsum is `zheval.definitions.union_lcs`; the corpus-at-once twin of `lcs_length`
is `zheval.fast.lcs.lcs_length_pairs`.
"""

from __future__ import annotations

import math
import sys
from functools import reduce
from itertools import accumulate
from typing import Dict, Hashable, List, Optional, Sequence, Tuple

__all__ = [
    "match_masks",
    "lcs_length",
    "lcs_step",
    "lcs_length_masks",
    "lcs_rows",
    "lcs_ref_positions",
    "ROWS_BITS_LIMIT",
    "wlcs",
    "wlcs_ref_positions",
    "wlcs_f",
    "wlcs_f_table",
]

Token = Hashable


def match_masks(seq: Sequence[Token]) -> Dict[Token, int]:
    """Per-symbol match masks of ``seq``: ``{token: int}`` with bit j set iff ``seq[j] == token``.

    Build this once for a sequence that is compared with many others (e.g. the prediction against several
    references) and pass it to `lcs_length_masks` / `lcs_rows`.

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


def lcs_step(v: int, m: Optional[int]) -> int:
    """One row of the bit-parallel LCS (module docstring): ``V' = (V + U) | (V - U)`` with ``U = V & M``, ``M`` the
    match mask of the row's token over the columns (``None`` or 0: it matches none, V stays).

    Args:
        v: the bit row before (non-negative int); m: the token's mask from `match_masks`, or None.
    Returns:
        the next bit row (non-negative int).
    """
    if m:
        u = v & m
        return (v + u) | (v - u)
    return v


def lcs_length_masks(masks: Dict[Token, int], n: int, rows_seq: Sequence[Token]) -> int:
    """LCS length between the column sequence behind ``masks`` (length ``n``) and ``rows_seq``.

    Bit-parallel (see module docstring); O(len(rows_seq)) Python steps.

    Args:
        masks: result of `match_masks` for the column sequence.
        n: length of the column sequence.
        rows_seq: the other sequence.
    Returns:
        int in [0, min(n, len(rows_seq))].
    """
    if n == 0:
        return 0
    full = (1 << n) - 1
    return n - (reduce(lcs_step, map(masks.get, rows_seq), full) & full).bit_count()


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
    return list(accumulate(map(masks.get, rows_seq), lcs_step, initial=(1 << n) - 1))


ROWS_BITS_LIMIT = 1 << 28
"""Above this many bits of bit rows ((m + 1) * n, 32 MB) `lcs_ref_positions` keeps every ⌈√m⌉-th row only and
recomputes one block of rows at a time while it walks back (same rows, same path; memory O(√m · n) bits instead of
O(m · n): 100,000 × 100,000 tokens need 8 MB instead of 1.25 GB, for one more pass over the rows)."""


class _CheckpointRows:
    """``rows[i]`` of `lcs_rows` for ``i`` read in decreasing order (the backtrack), from every k-th row kept
    in the forward pass (k = ⌈√m⌉) and the block ``[s, s + k]`` holding ``i`` and ``i - 1`` recomputed from row s."""

    def __init__(self, masks: Dict[Token, int], n: int, rows_seq: Sequence[Token]) -> None:
        self.masks, self.seq, m = masks, rows_seq, len(rows_seq)
        self.k = k = max(1, math.isqrt(m - 1) + 1) if m > 1 else 1
        v = (1 << n) - 1
        self.marks = [v]
        for s in range(0, m, k):
            v = reduce(lcs_step, map(masks.get, rows_seq[s:s + k]), v)
            if s + k <= m:
                self.marks.append(v)
        self.last = v
        self.m = m
        self.start, self.block = -1, []

    def __getitem__(self, i: int) -> int:
        if i == self.m:
            return self.last
        s = (max(i, 1) - 1) // self.k * self.k
        if s != self.start:
            block = list(accumulate(map(self.masks.get, self.seq[s:min(s + self.k, self.m)]), lcs_step,
                                    initial=self.marks[s // self.k]))
            self.start, self.block = s, block
        return self.block[i - s]


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
    rows = lcs_rows(can_masks, n, ref) if (m + 1) * n <= ROWS_BITS_LIMIT else _CheckpointRows(can_masks, n, ref)
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


def wlcs_f(length: int, weight: float) -> float:
    """ROUGE-W's f(length) = ``length ** weight`` (Python's float power, as every WLCS table of zheval builds it).

    Raises:
        ValueError: the power exceeds the largest float (about 1.8e308; Python's ``OverflowError``), naming the
            weight, the length and the largest weight a text of that length allows -- never a bare overflow.
    """
    try:
        return length ** weight
    except OverflowError:
        top = math.log(sys.float_info.max) / math.log(length)
        raise ValueError(
            f"rouge_w_weight={weight!r} is too large for these texts: ROUGE-W's f(k) = k**w exceeds the largest float "
            f"({sys.float_info.max:.4g}) at k = {length:g}, where w can be at most {math.floor(top * 1000) / 1000:g}"
        ) from None


def wlcs_f_table(longest: int, weight: float) -> List[float]:
    """``[f(k) for k in 0 .. longest + 1]`` with f(k) = ``k ** weight``: the weights a WLCS table of pairs whose
    shorter side has at most ``longest`` tokens reads (a run is at most ``longest`` long; the last entry is slack
    that vectorised twins read but never use, ``inf`` where it alone overflows).

    Raises:
        ValueError: f(longest) overflows (`wlcs_f`).
    """
    wlcs_f(longest, weight)
    out = [k**weight for k in range(longest + 1)]
    try:
        out.append((longest + 1) ** weight)
    except OverflowError:
        out.append(math.inf)
    return out


def _wlcs_tables(
    ref: Sequence[Token], can: Sequence[Token], weight: float
) -> Tuple[List[List[float]], List[float]]:
    """Full WLCS table c (m+1 rows of n+1 floats) and the weight table f(k) = k**weight."""
    m = len(ref)
    n = len(can)
    fw = wlcs_f_table(min(m, n), weight)
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


def wlcs(ref: Sequence[Token], can: Sequence[Token], weight: float = 1.2, row_done=None) -> float:
    """Weighted LCS score WLCS(ref, can) of Lin (2004), section 3.3, with f(k) = k**weight.

    DP (Lin 2004, Fig. in 3.3): for x_i == y_j, ``c[i][j] = c[i-1][j-1] + f(k+1) - f(k)`` with k the length of
    the consecutive match ending at (i-1, j-1); otherwise ``c[i][j] = max(c[i-1][j], c[i][j-1])`` and the run
    length resets to 0. Returns c[m][n]. With weight 1 this is the LCS length.

    Each cell keeps ``c = base + f(k)`` (base: the weight of the runs completed before the current one) instead of
    accumulating ``f(k+1) - f(k)`` increments, so the value is the same sum Lin's DP computes but without the
    rounding of the telescoping increments: one run of length n gives exactly f(n), so identical texts get
    ROUGE-W = 1.0 exactly (the increment form gives 1 ± 1e-15). `wlcs_ref_positions` keeps ROUGE-1.5.5's
    operation order, which its path rule needs.

    Args:
        ref, can: token sequences.
        weight: w > 0 in f(k) = k**w (ROUGE-1.5.5 ``-w``; 1.2 is customary).
        row_done: optional callable, called with ``len(can)`` after each of the ``len(ref)`` rows (a progress
            bar's ``update``; it cannot change the value).
    Returns:
        float in [0, f(min(m, n))]; 0.0 if either sequence is empty.
    """
    m = len(ref)
    n = len(can)
    if m == 0 or n == 0:
        return 0.0
    fw = wlcs_f_table(min(m, n), weight)
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
        if row_done is not None:
            row_done(n)
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
