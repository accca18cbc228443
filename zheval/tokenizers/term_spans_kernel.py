"""The numba kernel of the compiled term merge of `zheval.tokenizers.term_ids.term_token_spans` (``compiled=True``,
texts without attached marks): the term matches and their merge into the plain ``char`` tokens in one pass per
text, instead of a dozen whole-array numpy passes. The rules are the numpy path's (`zheval.tokenizers.term_ids`,
whose module docstring says why they are exact): at every position the first term of the longest-first order whose
code points stand there inside the text (and, for a term ending in a letter or digit, with no letter or digit right
after it); a text where one match starts inside the one before it, where a match does not start a plain token, or
where it ends strictly inside one goes to the tokenizer. Imported only when asked; ``cache=True`` as every compiled
kernel (`zheval.fast.compiled`)."""

from __future__ import annotations

import numpy as np
from numba import njit

#: The class code of a letter or digit in `zheval.tokenizers.char_ids` (a word-run character).
_W = 1


@njit(cache=True, inline="always")
def _term_at(cp, p, end, table, first, tcp, toff, tfree):
    """The index (in the longest-first order) of the term matching at ``p`` (``end``: its text's end), or -1."""
    for i in range(len(toff) - 1):
        if tcp[toff[i]] != first:
            continue
        n = toff[i + 1] - toff[i]
        if p + n > end:
            continue
        k = 1
        while k < n and cp[p + k] == tcp[toff[i] + k]:
            k += 1
        if k < n:
            continue
        if tfree[i] and p + n < end and table[cp[p + n]] == _W:
            continue
        return i
    return -1


@njit(cache=True, inline="always")
def _not_served(starts, ends, k0, k1, mq, me, nm):
    """True when a match of ``mq[:nm]``/``me[:nm]`` does not start a plain token of ``starts[k0:k1]`` or ends
    strictly inside one (the text then goes to the tokenizer); checked before any token is written over."""
    k = k0
    for m in range(nm):
        while k < k1 and starts[k] < mq[m]:
            k += 1
        if k == k1 or starts[k] != mq[m]:  # the match does not start a plain token
            return True
        while k < k1 and starts[k] < me[m]:
            k += 1
        if ends[k - 1] > me[m]:  # it ends strictly inside the last token it covers
            return True
    return False


@njit(cache=True)
def merge_terms(cp, offsets, ids, starts, ends, text_tokens, table, firsts, tcp, toff, tfree, tid, used, counts):
    """The plain tokens ``ids``/``starts``/``ends`` (text t's are ``text_tokens[t]:text_tokens[t + 1]``) of the
    texts ``cp[offsets[t]:offsets[t + 1]]`` with every match of the terms (code points ``tcp[toff[i]:toff[i + 1]]``
    in the longest-first order, ids ``tid``, ``tfree[i]``: no letter or digit may follow) merged into one token at
    the first plain token it covers, written over ``ids``/``starts`` in place (a merge only shortens: the write
    position never passes the read position). ``firsts[c]`` is True for a code point ``c`` that starts a term.
    Fills ``used[id]`` (False on entry, one per id of the vocabulary) for every token written and ``counts[t + 1]``
    with text t's token count (``counts[0]`` 0 on entry; 0 for a text not served). Returns ``(n, bad)``: the merged
    tokens of the texts served are ``ids[:n]``/``starts[:n]``, in order; ``bad``: the texts the merge does not serve
    (bool per text; their tokens are left out)."""
    n_texts = len(offsets) - 1
    bad = np.zeros(n_texts, dtype=np.bool_)
    mq = np.empty(64, dtype=np.int64)
    me = np.empty(64, dtype=np.int64)
    mi = np.empty(64, dtype=np.int64)
    o = 0
    for t in range(n_texts):
        a, b = offsets[t], offsets[t + 1]
        nm = 0
        last_end = a
        for p in range(a, b):
            c = cp[p]
            if c >= len(firsts) or not firsts[c]:
                continue
            i = _term_at(cp, p, b, table, c, tcp, toff, tfree)
            if i < 0:
                continue
            if p < last_end:  # starts inside the match before it: the order does not decide
                bad[t] = True
                break
            if nm == len(mq):
                mq, me, mi = np.concatenate((mq, mq)), np.concatenate((me, me)), np.concatenate((mi, mi))
            mq[nm], me[nm], mi[nm] = p, p + toff[i + 1] - toff[i], i
            last_end = me[nm]
            nm += 1
        k0, k1 = text_tokens[t], text_tokens[t + 1]
        if not bad[t]:
            bad[t] = _not_served(starts, ends, k0, k1, mq, me, nm)
        if bad[t]:
            continue
        o0 = o
        k = k0
        for m in range(nm):
            while starts[k] < mq[m]:
                ids[o], starts[o] = ids[k], starts[k]
                o += 1
                k += 1
            ids[o] = tid[mi[m]]  # starts[o] = starts[k] = mq[m], read before the write
            starts[o] = mq[m]
            o += 1
            while k < k1 and starts[k] < me[m]:
                k += 1
        while k < k1:
            ids[o], starts[o] = ids[k], starts[k]
            o += 1
            k += 1
        for j in range(o0, o):
            used[ids[j]] = True
        counts[t + 1] = o - o0
    return o, bad
