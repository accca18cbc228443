"""The numba kernels of the compiled token pass of the ``char`` tokenizer (`zheval.tokenizers.char_ids.char_token_spans`
with ``compiled=True``): the rules of `zheval.tokenizers.char_ids` for text without attached marks and regional
indicators, one left-to-right pass over the code points (classes looked up in the pass), then one pass that gives
every token its id -- a one-character token by the rank of its code point, a longer one through a hash table of
code point sequences -- instead of a dozen whole-array numpy passes and a vocabulary dict. Imported only when asked
(``compiled=True``, decided by `zheval.fast.usable_for` ``"compiled_tokens"``, or `zheval.fast.warmup`);
``cache=True`` as every compiled kernel (`zheval.fast.compiled`)."""

from __future__ import annotations

import numpy as np
from numba import njit

#: Class codes of `zheval.tokenizers.char_ids` (H, W, D, S; no marks, no regional indicators here).
_H, _W, _D, _S = 0, 1, 2, 4
_GOLD = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def token_bounds(cp, offsets, table, punct_drop, starts, ends):
    """``(starts, ends, text_tokens)`` of the tokens of every text ``cp[offsets[t]:offsets[t + 1]]`` whose
    characters have the classes ``table[cp]`` (no attached mark, no regional indicator): ``S`` is skipped; ``W``
    continues a word run, else starts one; ``.`` continues a word run iff a ``W`` is right before it and an ASCII
    digit right after it in the same text; ``H``, ``O`` and any other ``.`` are one-character tokens, dropped with
    ``punct_drop`` unless ``H`` (a word run starts with ``W``: always kept). Text t owns tokens
    ``text_tokens[t]:text_tokens[t + 1]`` (int64). ``starts``, ``ends``: ``(len(cp),)`` buffers the positions are
    written to (int32 when ``len(cp)`` fits, `zheval.tokenizers.char_ids.compact_dtype`), returned cut to the
    tokens."""
    text_tokens = np.empty(len(offsets), dtype=np.int64)
    k = 0
    for t in range(len(offsets) - 1):
        text_tokens[t] = k
        a, b = offsets[t], offsets[t + 1]
        prev_w = False  # the character before is W
        wordish = False  # the last token is a word run that reaches the character before
        for i in range(a, b):
            c = table[cp[i]]
            if c == _W:
                if wordish:
                    ends[k - 1] = i + 1
                else:
                    starts[k] = i
                    ends[k] = i + 1
                    k += 1
                prev_w = True
                wordish = True
            elif c == _D and prev_w and i + 1 < b and 48 <= cp[i + 1] <= 57:
                ends[k - 1] = i + 1  # a joined "." (3.5): the run goes on
                prev_w = False
            else:
                prev_w = False
                wordish = False
                if c != _S and (c == _H or not punct_drop):
                    starts[k] = i
                    ends[k] = i + 1
                    k += 1
    text_tokens[len(offsets) - 1] = k
    return starts[:k], ends[:k], text_tokens


@njit(cache=True)
def _same(cp, s1, e1, s2, e2):
    if e1 - s1 != e2 - s2:
        return False
    for x in range(e1 - s1):
        if cp[s1 + x] != cp[s2 + x]:
            return False
    return True


@njit(cache=True)
def token_ids(cp, starts, ends, ids):
    """``(ids, chars, firsts)``: dense ids (written to ``ids``, ``(len(starts),)``, int32 when the count of tokens
    fits) of the tokens ``cp[starts[k]:ends[k]]`` -- the one-character
    tokens first, by the rank of their code point among those of one-character tokens (``chars``, increasing);
    then the longer tokens in order of first occurrence (``firsts``: the token index of each one's first
    occurrence), equal code point sequences one id."""
    K = len(starts)
    top = 1
    multi = 0
    for k in range(K):
        if ends[k] - starts[k] == 1:
            if cp[starts[k]] >= top:
                top = cp[starts[k]] + 1
        else:
            multi += 1
    rank = np.full(top, -1, dtype=np.int64)
    for k in range(K):
        if ends[k] - starts[k] == 1:
            rank[cp[starts[k]]] = 0
    chars = np.empty(top, dtype=np.int64)
    n_chars = 0
    for c in range(top):
        if rank[c] == 0:
            rank[c] = n_chars
            chars[n_chars] = c
            n_chars += 1
    lg = 4
    while (1 << lg) < 2 * multi + 2:
        lg += 1
    mask = (1 << lg) - 1
    slot_token = np.full(1 << lg, -1, dtype=np.int64)
    slot_id = np.empty(1 << lg, dtype=np.int64)
    firsts = np.empty(multi, dtype=np.int64)
    m = 0
    for k in range(K):
        s, e = starts[k], ends[k]
        if e - s == 1:
            ids[k] = rank[cp[s]]
            continue
        h = np.uint64(e - s)
        for x in range(s, e):
            h = (h ^ np.uint64(cp[x])) * _GOLD
        slot = np.int64(h >> np.uint64(64 - lg))
        while True:
            j = slot_token[slot]
            if j == -1:
                slot_token[slot] = k
                slot_id[slot] = n_chars + m
                firsts[m] = k
                ids[k] = n_chars + m
                m += 1
                break
            if _same(cp, starts[j], ends[j], s, e):
                ids[k] = slot_id[slot]
                break
            slot = (slot + 1) & mask
    return ids, chars[:n_chars].copy(), firsts[:m].copy()
