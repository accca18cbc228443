"""Corpus-at-once tokenisation for the ``char`` tokenizer with protected terms: the plain ``char`` tokens of every
text (`zheval.tokenizers.char_ids.char_token_spans`), then each protected-term match merged into one token.

Why it is exact
    The tokenizer scans ``<terms>|<char token>`` left to right (`zheval.tokenizers.char.term_pattern`). One
    left-to-right search of the term expression over the texts (joined by line breaks, which no term of this path
    holds) finds the leftmost term match ``[q, e)`` after the previous one, as the scanner would, provided the
    scanner stands at ``q``. Before the first term match the scanner makes the plain tokens; it stands at ``q``
    iff ``q`` is the start of a plain token; if then ``e`` does not fall strictly inside a plain token, the scan
    resumed at ``e`` makes the plain tokens again (a scan that resumes at a token end or in the gap after it finds
    the next token where the plain scan does). By induction a text whose every match starts a plain token and
    ends outside one is: its plain tokens, the ones inside each match replaced by the match. Any other text (a
    match inside a word run, ``No.`` before ``5``) is tokenised by the tokenizer itself. Token ids are then made
    dense again (a plain token that only ever stood inside terms has no id), so the vocabulary holds exactly the
    tokens present, as the reference path's does.
"""

from __future__ import annotations

import re

import numpy as np

from .char import HAN_OR_WORD_RE, HAN_TOKEN_RE, is_punct_or_symbol, term_pattern
from .char_ids import MO, MS, W, char_token_spans, class_table, compact_dtype

__all__ = ["term_token_spans"]


def term_token_spans(cp: np.ndarray, offsets: np.ndarray, tokenizer, vocab, compiled: bool = False,
                     with_starts: bool = False):
    """The tokens of ``tokenizer`` (a `zheval.tokenizers.CharTokenizer` with terms, none holding a line break) of
    many normalised texts laid out in one code point array.

    Args:
        cp: ``(N,)`` code points of the normalised texts, concatenated.
        offsets: ``(n_texts + 1,)`` int64 text offsets into ``cp``.
        tokenizer: the tokenizer (its ``terms``, ``punct`` and ``tokenize_normalized`` for the texts the merge
            does not serve).
        vocab: an empty `zheval.tokenizers.corpus.TokenIds`; on return it holds exactly the tokens present.
        compiled: the plain tokens from the compiled passes (``char_token_spans(compiled=True)``).
        with_starts: also return each token's start in ``cp``.
    Returns:
        ``(ids, text_tokens)``: int64 arrays -- text i's tokens are ``ids[text_tokens[i]:text_tokens[i + 1]]``, the
        tokens of ``tokenizer.tokenize_normalized(text)`` in order; ``(ids, text_tokens, starts)`` with
        ``with_starts``.

    Raises:
        ValueError: a term holding a line break (this path does not serve it: `CharTokenizer.term_ids_twin`).
    """
    if any("\n" in t for t in tokenizer.terms):
        raise ValueError("term_token_spans: a protected term holds a line break; tokenise text by text")
    cp = np.asarray(cp, dtype=np.uint32)
    offsets = np.asarray(offsets, dtype=np.int64)
    n_texts = len(offsets) - 1
    table = class_table(cp) if len(cp) else None
    ids, starts, ends, text_tokens = char_token_spans(cp, offsets, vocab, False, compiled, table=table)
    marks = table is None or bool(((table == MO) | (table == MS)).any())
    used = None
    if compiled and not marks:
        ids, starts, used, text_tokens = _compiled_merge(cp, offsets, ids, starts, ends, text_tokens, table,
                                                         tokenizer, vocab)
        found = None
    else:
        found = _term_matches(cp, offsets, tokenizer.terms, table, marks)
    if found is not None:
        q, e, words, text_of, overlapped = found
        first = np.searchsorted(starts, q, side="left")  # the plain tokens inside [q, e)
        last = np.searchsorted(starts, e, side="left")
        at_start = np.append(starts, -1)[first] == q
        inside = np.insert(ends, 0, -1)[last] > e  # e strictly inside the last token that starts before it
        bad_texts = np.unique(np.concatenate([text_of[~at_start | inside], overlapped]))
        ok = ~np.isin(text_of, bad_texts)
        cover = np.zeros(len(starts) + 1, dtype=np.int32)
        np.add.at(cover, first[ok], 1)
        np.add.at(cover, last[ok], -1)
        keep = np.cumsum(cover[:-1], dtype=np.int32) == 0
        # a match becomes the first plain token it covers (same start), the others go
        term_ids = np.fromiter(map(vocab.__getitem__, [w for w, k in zip(words, ok.tolist()) if k]), dtype=np.int64,
                               count=int(ok.sum()))
        ids = ids.copy()
        ids[first[ok]] = term_ids
        keep[first[ok]] = True
        ids, starts = ids[keep], starts[keep]
        if len(bad_texts):
            ids, starts = _by_tokenizer(ids, starts, offsets, bad_texts, _decoded(cp), tokenizer, vocab)
            order = np.argsort(starts, kind="stable")
            ids, starts = ids[order], starts[order]
    if tokenizer.punct == "drop":
        words = list(vocab)
        drop = np.fromiter(map(is_punct_or_symbol, words), dtype=bool, count=len(words))
        kept = ~drop[ids] if len(ids) else np.zeros(0, dtype=bool)
        ids, starts, used, text_tokens = ids[kept], starts[kept], None, None
    ids = _dense(ids, vocab, used)
    if text_tokens is None or found is not None:
        text_tokens = np.searchsorted(starts, offsets, side="left").astype(np.int64)
    return (ids, text_tokens, starts) if with_starts else (ids, text_tokens)


def _decoded(cp: np.ndarray) -> str:
    """The code points as one ``str``."""
    return cp.tobytes().decode("utf-32-le", "surrogatepass")


def _compiled_merge(cp, offsets, ids, starts, ends, text_tokens, table, tokenizer, vocab):
    """``(ids, starts, used, text_tokens)`` of every text after the term merge, from the compiled kernel
    (`zheval.tokenizers.term_spans_kernel.merge_terms`, in place over the plain tokens; texts without attached
    marks); the texts it does not serve through the tokenizer (`_by_tokenizer`), and then ``used`` and
    ``text_tokens`` are None (`_dense` and the caller find them again). ``used``: per vocabulary id, whether a
    token has it."""
    from .term_spans_kernel import merge_terms

    terms = sorted(tokenizer.terms, key=lambda t: (-len(t), t))  # the expression's order: longest first
    codes = [np.frombuffer(t.encode("utf-32-le"), dtype=np.uint32) for t in terms]
    toff = np.zeros(len(terms) + 1, dtype=np.int64)
    np.cumsum([len(c) for c in codes], out=toff[1:])
    tcp = np.concatenate(codes).astype(np.uint32) if codes else np.zeros(0, dtype=np.uint32)
    tfree = np.array([bool(HAN_OR_WORD_RE.fullmatch(t[-1])) and not HAN_TOKEN_RE.fullmatch(t[-1]) for t in terms],
                     dtype=np.bool_)
    firsts = np.zeros(max(int(cp.max()), int(tcp.max()) if len(tcp) else 0) + 1, dtype=np.bool_)
    firsts[tcp[toff[:-1]]] = True
    tid = np.fromiter(map(vocab.__getitem__, terms), dtype=np.int64, count=len(terms))
    small = compact_dtype(max(len(cp), len(vocab)))  # the plain tokens' ids and positions as the char pass writes them
    offsets, text_tokens = (np.ascontiguousarray(a, dtype=np.int64) for a in (offsets, text_tokens))
    ids, starts, ends = (np.ascontiguousarray(a, dtype=small) for a in (ids, starts, ends))
    used = np.zeros(len(vocab), dtype=np.bool_)
    counts = np.zeros(len(offsets), dtype=np.int64)
    n, bad = merge_terms(cp, offsets, ids, starts, ends, text_tokens, np.ascontiguousarray(table, dtype=np.uint8),
                         firsts, tcp, toff, tfree, tid, used, counts)
    ids, starts = ids[:n], starts[:n]
    bad_texts = np.flatnonzero(bad)
    if len(bad_texts):
        ids, starts = _by_tokenizer(ids, starts, offsets, bad_texts, _decoded(cp), tokenizer, vocab)
        order = np.argsort(starts, kind="stable")
        return ids[order], starts[order], None, None
    return ids, starts, used, np.cumsum(counts)


def _term_matches(cp: np.ndarray, offsets: np.ndarray, terms, table, marks: bool):
    """``(q, e, words, text_of, overlapped)``: the term matches ``cp[q:e]`` (strings ``words``) in the order the
    term expression's left-to-right search finds them in each text, and the texts whose matches that order does
    not decide (two matches overlap: those texts go to the tokenizer); None without a match. ``table``: the class
    table of ``cp`` (None when empty), ``marks``: True when it holds attached marks (or ``cp`` is empty)."""
    n_texts = len(offsets) - 1
    if marks:  # attached marks: the expression itself
        big = _decoded(cp)
        joined = "\n".join([big[a:b] for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist())])
        matches = [(m.start(), m.end(), m.group()) for m in re.finditer(term_pattern(terms), joined)]
        if not matches:
            return None
        q_j, e_j, words = zip(*matches)
        q_j, e_j = np.asarray(q_j, dtype=np.int64), np.asarray(e_j, dtype=np.int64)
        text_of = np.searchsorted(offsets[:-1] + np.arange(n_texts), q_j, side="right") - 1
        return q_j - text_of, e_j - text_of, list(words), text_of, np.zeros(0, dtype=np.int64)
    # no attached mark: a term matches at p iff its code points are there, inside one text, and (a term ending in
    # a letter/digit) no letter/digit follows; the expression tries the terms longest first
    order = sorted(range(len(terms)), key=lambda i: (-len(terms[i]), terms[i]))
    firsts = np.array([ord(t[0]) for t in terms], dtype=np.int64)
    lut = np.zeros(max(int(cp.max()), int(firsts.max())) + 1, dtype=bool)
    lut[firsts] = True
    cand = np.flatnonzero(lut[cp])
    text_end = offsets[np.searchsorted(offsets, cand, side="right")] if len(cand) else cand
    best = np.full(len(cand), -1, dtype=np.int64)
    first_cp = cp[cand]
    n = len(cp)
    for i in order:
        t = terms[i]
        sel = np.flatnonzero((first_cp == ord(t[0])) & (best < 0) & (cand + len(t) <= text_end))
        pos = cand[sel]
        for k in range(1, len(t)):
            hit = cp[pos + k] == ord(t[k])
            sel, pos = sel[hit], pos[hit]
        core_last = t[-1]
        if HAN_OR_WORD_RE.fullmatch(core_last) and not HAN_TOKEN_RE.fullmatch(core_last):
            after = pos + len(t)
            free = (after >= text_end[sel]) | (table[cp[np.minimum(after, n - 1)]] != W)
            sel = sel[free]
        best[sel] = i
    got = np.flatnonzero(best >= 0)
    if not len(got):
        return None
    q = cand[got]
    lens = np.array([len(t) for t in terms], dtype=np.int64)[best[got]]
    e = q + lens
    text_of = np.searchsorted(offsets, q, side="right") - 1
    clash = np.flatnonzero(q[1:] < e[:-1])  # a match starting inside the one before it (same text)
    words = [terms[i] for i in best[got].tolist()]
    return q, e, words, text_of, text_of[clash]


def _by_tokenizer(ids, starts, offsets, bad_texts, big: str, tokenizer, vocab):
    """``(ids, starts)`` with the tokens of the texts ``bad_texts`` replaced by the tokenizer's own, each at its
    place in the text (a token is a piece of the normalised text, and between two tokens stand only characters no
    kept token holds: whitespace, invisible characters, dropped punctuation -- so the next place it is found is its
    own)."""
    text_of = np.searchsorted(offsets, starts, side="right") - 1
    keep = ~np.isin(text_of, bad_texts)
    new_ids, new_starts = [ids[keep]], [starts[keep]]
    getid = vocab.__getitem__
    for t in bad_texts.tolist():
        a, b = int(offsets[t]), int(offsets[t + 1])
        text = big[a:b]
        toks = tokenizer.tokenize_normalized(text)
        new_ids.append(np.fromiter(map(getid, toks), dtype=np.int64, count=len(toks)))
        places, pos = [], 0
        for tok in toks:
            pos = text.index(tok, pos)
            places.append(pos)
            pos += len(tok)
        new_starts.append(a + np.asarray(places, dtype=np.int64))
    return np.concatenate(new_ids), np.concatenate(new_starts)


def _dense(ids: np.ndarray, vocab, used=None) -> np.ndarray:
    """``ids`` renumbered so that the vocabulary holds only the tokens present (in their id order); ``vocab``
    rebuilt in place. ``used``: per id, whether a token has it (found here when None)."""
    if used is None:
        used = np.zeros(len(vocab), dtype=bool)
        used[ids] = True
    if used.all():
        return ids
    words = [w for w, u in zip(list(vocab), used.tolist()) if u]
    remap = np.cumsum(used) - 1
    vocab.clear()
    vocab.update(zip(words, range(len(words))))
    return remap[ids]
