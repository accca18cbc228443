"""LCS oracles: the plain O(m·n) dynamic programmes that the bit-parallel kernels of
:mod:`zheval.definitions.lcs` and :mod:`zheval.definitions.union_lcs` must equal."""

from __future__ import annotations


def dp_table(a, b):
    """The full LCS length table of ``a`` and ``b`` (the textbook O(m·n) dynamic programme, as rouge-score 0.1.2's
    ``_lcs_table``): ``t[i][j]`` is the LCS length of ``a[:i]`` and ``b[:j]``; ``t[-1][-1]`` that of the whole."""
    t = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            t[i][j] = t[i - 1][j - 1] + 1 if a[i - 1] == b[j - 1] else max(t[i - 1][j], t[i][j - 1])
    return t


def wlcs_dp_perl_style(model, peer, w):
    """ROUGE-1.5.5 wlcs_inner + markLCS written out independently (full c, l and b tables): the weighted LCS of
    ``model`` and ``peer`` with weight function ``f(k) = k ** w``, and the sorted ``model`` positions of its
    backtracked path."""
    m, n = len(model), len(peer)
    c = [[0.0] * (n + 1) for _ in range(m + 1)]
    ln = [[0] * (n + 1) for _ in range(m + 1)]
    b = [[None] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if model[i - 1] == peer[j - 1]:
                k = ln[i - 1][j - 1]
                c[i][j] = c[i - 1][j - 1] + (k + 1) ** w - k**w
                b[i][j] = "d"
                ln[i][j] = k + 1
            elif c[i - 1][j] >= c[i][j - 1]:
                c[i][j] = c[i - 1][j]
                b[i][j] = "u"
            else:
                c[i][j] = c[i][j - 1]
                b[i][j] = "l"
    marks = []
    i, j = m, n
    while i and j:
        if b[i][j] == "d":
            i, j = i - 1, j - 1
            marks.append(i)
        elif b[i][j] == "u":
            i -= 1
        else:
            j -= 1
    return c[m][n], sorted(marks)
