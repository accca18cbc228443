"""``scripts/bench_impls.py``'s floors: what any implementation must at least do (tokenise, count n-grams, LCS lengths
by DP and bit-parallel)."""

from __future__ import annotations

from collections import Counter

from bench_impls_common import _char_tokenizer
from bench_impls_peers import _our_tokens


def floor_tokenize(w):
    """Normalise + char-tokenise every *distinct* text once (what a tokenise-once cache must pay at least)."""
    tok = _char_tokenizer()
    texts = list(dict.fromkeys(w["predictions"] + [r for rs in w["references"] for r in rs]))
    norm, split = tok.normalizer, tok.tokenize_normalized

    def run():
        return [split(norm(t)) for t in texts]

    return run, lambda out: {"distinct_texts": len(out), "tokens": sum(map(len, out))}, None


def floor_ngrams(w):
    """Counters of the n-grams of orders 1–4 of every text *occurrence* (prediction and each reference of each
    item), on token tuples: the counting that per-item n-gram scoring does."""
    hyps, refs = _our_tokens(w)
    seqs = [tuple(h) for h in hyps] + [tuple(r) for rs in refs for r in rs]

    def run():
        out = 0
        for s in seqs:
            out += len(Counter(s))
            for n in (2, 3, 4):
                out += len(Counter(zip(*[s[i:] for i in range(n)])))
        return out

    return run, lambda out: {"distinct_ngrams_summed": out}, None


def _pairs(w):
    hyps, refs = _our_tokens(w)
    return [(h, r) for h, rs in zip(hyps, refs) for r in rs]


def lcs_dp(w):
    """LCS length of every (prediction, reference) pair (whole texts), textbook O(m·n) DP in pure Python (the
    algorithm of rouge-score's ``_lcs_table``), two rows."""
    pairs = _pairs(w)

    def lcs(a, b):
        prev = [0] * (len(b) + 1)
        for x in a:
            cur = [0]
            for j, y in enumerate(b):
                if x == y:
                    cur.append(prev[j] + 1)
                else:
                    u, l = prev[j + 1], cur[j]
                    cur.append(u if u > l else l)
            prev = cur
        return prev[-1]

    def run():
        return [lcs(a, b) for a, b in pairs]

    return run, lambda out: {"lcs": out}, None


def lcs_bitparallel(w):
    """The same LCS lengths with zheval.definitions.lcs.lcs_length (bit-parallel on Python ints)."""
    from zheval.definitions.lcs import lcs_length

    pairs = _pairs(w)

    def run():
        return [lcs_length(a, b) for a, b in pairs]

    return run, lambda out: {"lcs": out}, None
