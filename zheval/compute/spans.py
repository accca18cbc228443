"""Character spans of a text's tokens in the ORIGINAL text (before normalisation), so a renderer can highlight the
text the user wrote: `token_spans`, used by `zheval.compute.explain`.

Each normalisation step is mapped character by character; where a step depends on context (NFKC composing a
combining mark, OpenCC ``t2s`` phrases) the affected token gets the span of the whole original run and the entry
says ``"spans": "approximate"``.
"""

from __future__ import annotations

import difflib
from typing import Any, Dict, List, Optional, Tuple

__all__ = ["token_spans"]


def _char_map(text: str, normalized: str, normalizer, memo: Dict[str, str]) -> Tuple[List[Tuple[int, int]], List[bool]]:
    """For each character of ``normalized``: the ``[start, end)`` of the original characters it comes from, and
    whether that is exact (module docstring). ``memo`` caches one character's normalisation within one call."""
    if normalized == text:
        return [(i, i + 1) for i in range(len(text))], [True] * len(text)
    pieces = []
    src: List[int] = []
    for i, c in enumerate(text):
        p = memo.get(c)
        if p is None:
            p = memo[c] = normalizer(c)
        pieces.append(p)
        src.extend([i] * len(p))
    joined = "".join(pieces)
    if joined == normalized:
        return [(i, i + 1) for i in src], [True] * len(src)
    quick = _whitespace_removed(joined, normalized, src, len(text))
    if quick is not None:
        return quick
    return _diff_map(text, joined, normalized, src)


def _whitespace_removed(joined: str, normalized: str, src: List[int], text_len: int):
    """The map of `_char_map` when ``normalized`` and ``joined`` (the characters normalised one by one) differ only
    in whitespace -- what the whole-text steps do to most texts (a run of spaces collapsed, a lone space that
    the one-character step would strip kept): every other character is exact, found in one linear walk
    (difflib's alignment is quadratic in the worst case: 40 s on 100,000 characters); a whitespace character of
    ``normalized`` with none of ``joined`` facing it gets an empty, inexact span, as difflib's insertion does.
    None when anything else differs."""
    out: List[Tuple[int, int]] = []
    exact: List[bool] = []
    i, n = 0, len(joined)
    for ch in normalized:
        while i < n and joined[i] != ch and joined[i].isspace():
            i += 1
        if i < n and joined[i] == ch:
            out.append((src[i], src[i] + 1))
            exact.append(True)
            i += 1
        elif ch.isspace():
            pos = src[i] if i < n else text_len
            out.append((pos, pos))
            exact.append(False)
        else:
            return None
    if i < n and not joined[i:].isspace():
        return None
    return out, exact


def _diff_map(text: str, joined: str, normalized: str, src: List[int]):
    """`_char_map` through difflib's alignment of ``joined`` with ``normalized`` (any difference)."""
    out: List[Tuple[int, int]] = [(0, 0)] * len(normalized)
    exact = [False] * len(normalized)
    sm = difflib.SequenceMatcher(None, joined, normalized, autojunk=False)
    for tag, k1, k2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            for d in range(j2 - j1):
                i = src[k1 + d]
                out[j1 + d] = (i, i + 1)
                exact[j1 + d] = True
        elif j2 > j1:
            if k2 > k1:
                span = (src[k1], src[k2 - 1] + 1)
            else:
                pos = src[k1] if k1 < len(src) else len(text)
                span = (pos, pos)
            for j in range(j1, j2):
                out[j] = span
    return out, exact


def token_spans(text: str, tokenizer, memo: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
    """The text entry of an explanation: ``{"text", "normalized", "tokenizer", "tokens": [{"token", "start",
    "end"}], "spans"}`` with each token's ``[start, end)`` in the original ``text`` (module docstring).

    Args:
        text: the original text (str); tokenizer: a zheval `BaseTokenizer`; memo: an
            optional dict (character -> its normalisation) shared by the texts of one call.
    Returns:
        the dict above; ``spans`` is ``"exact"`` when every token's characters map exactly, else
        ``"approximate"`` (a token not found in the normalised text, e.g. from a user callable that rewrites
        tokens, gets an empty span at the current position).
    Raises:
        TypeError: ``text`` is not a str (from the tokenizer).
    """
    normalized = tokenizer.normalize(text)
    tokens = tokenizer.tokenize_cached(text)
    cmap, exact_at = _char_map(text, normalized, tokenizer.normalizer, {} if memo is None else memo)
    out = []
    cursor = 0
    exact = True
    for tok in tokens:
        tok = str(tok)
        pos = normalized.find(tok, cursor) if tok else -1
        if pos < 0:
            exact = False
            at = cmap[cursor][0] if cursor < len(cmap) else len(text)
            out.append({"token": tok, "start": at, "end": at})
            continue
        end = pos + len(tok)
        if end - pos == 1:
            start_o, end_o = cmap[pos]
            exact = exact and exact_at[pos]
        else:
            start_o = min(cmap[j][0] for j in range(pos, end))
            end_o = max(cmap[j][1] for j in range(pos, end))
            exact = exact and all(exact_at[pos:end])
        out.append({"token": tok, "start": start_o, "end": end_o})
        cursor = end
    return {"text": text, "normalized": normalized, "tokenizer": tokenizer.name, "tokens": out,
            "spans": "exact" if exact else "approximate"}


# ----------------------------------------------------------------------------------------------------------------
# ROUGE


