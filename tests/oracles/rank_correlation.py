"""Spearman's rho and Kendall's tau-b written out by hand (average ranks for ties; tau-b's tie corrections), the
independent reference of the agreement tests (zheval.results.agreement and zheval agree)."""

from __future__ import annotations

import math

__all__ = ["hand_ranks", "hand_spearman", "hand_kendall_b"]


def hand_ranks(v):
    """Average ranks (1-based) by hand: equal values share the mean of the positions they occupy."""
    order = sorted(range(len(v)), key=lambda i: v[i])
    ranks = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for t in range(i, j + 1):
            ranks[order[t]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def hand_spearman(x, y):
    rx, ry = hand_ranks(x), hand_ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    return num / math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))


def hand_kendall_b(x, y):
    """tau-b = (P - Q) / sqrt((P + Q + T) (P + Q + U)); T: pairs tied in x only, U: tied in y only."""
    p = q = t = u = 0
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                t += 1
            elif dy == 0:
                u += 1
            elif (dx > 0) == (dy > 0):
                p += 1
            else:
                q += 1
    return (p - q) / math.sqrt((p + q + t) * (p + q + u))
