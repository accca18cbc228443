"""The numba kernel of the compiled token pass of the ``char`` tokenizer (`zheval.tokenizers.char_ids.char_token_spans`
with ``compiled=True``): the rules of `zheval.tokenizers.char_ids` for text without attached marks, one
left-to-right pass per text instead of a dozen whole-array numpy passes. Imported only when asked (``compiled=True``,
decided by `zheval.fast.usable_for` ``"compiled"``, or `zheval.fast.warmup`); ``cache=True`` as every
compiled kernel (`zheval.fast.compiled`)."""

from __future__ import annotations

import numpy as np
from numba import njit

#: Class codes of `zheval.tokenizers.char_ids` (H, W, D, O, S; no marks here).
_W, _D, _S = 1, 2, 4


@njit(cache=True, inline="always")
def _open_token(starts, ends, k, i, open_):
    """Ends the open token (if ``open_``) and starts token ``k`` at character ``i``; returns the new count ``k + 1``."""
    if open_:
        ends[k - 1] = i
    starts[k] = i
    return k + 1


@njit(cache=True)
def token_bounds(cls, cp, offsets):
    """``(starts, ends)`` int64 of the tokens of every text ``cp[offsets[t]:offsets[t + 1]]`` whose characters have
    the classes ``cls`` (no attached mark): ``S`` is skipped; ``W`` continues a word run, else starts one; ``.``
    continues a word run iff it follows a ``W`` and an ASCII digit follows it in the same text; ``H``, ``O`` and
    any other ``.`` are one-character tokens."""
    n = len(cls)
    starts = np.empty(n, dtype=np.int64)
    ends = np.empty(n, dtype=np.int64)
    k = 0
    for t in range(len(offsets) - 1):
        a, b = offsets[t], offsets[t + 1]
        prev_w = False
        wordish = False
        open_ = False
        for i in range(a, b):
            c = cls[i]
            if c == _S:
                if open_:
                    ends[k - 1] = i
                    open_ = False
                prev_w = False
                wordish = False
            elif c == _W:
                if not wordish:
                    k = _open_token(starts, ends, k, i, open_)
                    open_ = True
                prev_w = True
                wordish = True
            elif c == _D and prev_w and i + 1 < b and 48 <= cp[i + 1] <= 57:
                prev_w = False  # a joined "." (3.5): the run goes on
                wordish = True
            else:
                k = _open_token(starts, ends, k, i, open_)
                open_ = True
                prev_w = False
                wordish = False
        if open_:
            ends[k - 1] = b
    return starts[:k], ends[:k]
