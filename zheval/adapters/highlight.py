"""Highlighting an explanation ([`zheval.explain`][zheval.compute.explain.explain]) on the original text: the runs of matched and unmatched
characters, for the terminal view (``zheval explain``) and the Space widget (HTML).

A character is *matched* when it lies in the ``[start, end)`` span of one of the highlighted tokens
(``explanation["highlight"]["prediction"]`` / ``["reference_tokens"]``, indices into the text entry's ``tokens``).
Characters between tokens (spaces dropped by the tokenizer) are never marked, so two matched tokens separated by a
space give two runs.
"""

from __future__ import annotations

from html import escape
from typing import Any, Dict, Iterable, List, Tuple

__all__ = ["MATCH_CLASS", "highlight_runs", "highlight_html", "bracketed"]

#: The CSS class of a matched run in `highlight_html` (``<mark class="zheval-match">``).
MATCH_CLASS = "zheval-match"


def highlight_runs(entry: Dict[str, Any], token_indices: Iterable[int]) -> List[Tuple[str, bool]]:
    """``[(text, matched)]`` runs covering ``entry["text"]`` exactly (their concatenation is the original text).

    Args:
        entry: a text entry of an explanation (``{"text", "tokens": [{"token", "start", "end"}], ...}``).
        token_indices: indices into ``entry["tokens"]`` of the tokens to mark.
    Raises:
        IndexError: an index outside the token list.
    """
    text = entry["text"]
    tokens = entry["tokens"]
    mark = [False] * len(text)
    for i in token_indices:
        t = tokens[i]
        for c in range(t["start"], t["end"]):
            mark[c] = True
    runs: List[Tuple[str, bool]] = []
    start = 0
    for c in range(1, len(text) + 1):
        if c == len(text) or mark[c] != mark[start]:
            runs.append((text[start:c], mark[start]))
            start = c
    return runs


def highlight_html(entry: Dict[str, Any], token_indices: Iterable[int], style: str = "") -> str:
    """The original text as HTML (escaped), each matched run in ``<mark class="zheval-match">`` (with the inline
    ``style`` when given: a page whose CSS cannot be set)."""
    attr = f' style="{escape(style)}"' if style else ""
    return "".join(f'<mark class="{MATCH_CLASS}"{attr}>{escape(s)}</mark>' if m else escape(s)
                   for s, m in highlight_runs(entry, token_indices))


def bracketed(entry: Dict[str, Any], token_indices: Iterable[int]) -> str:
    """The original text with each matched run in ``[...]`` (the terminal view without colours)."""
    return "".join(f"[{s}]" if m else s for s, m in highlight_runs(entry, token_indices))
