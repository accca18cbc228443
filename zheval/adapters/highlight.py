"""Highlighting an explanation ([`zheval.explain`][zheval.compute.explain.explain]) on the original text: the runs of matched and unmatched
characters, for the terminal view (``zheval explain``) and the Space widget (HTML).

Text from a model is data: `highlight_html` writes it by the rule of every zheval HTML page
(`zheval.adapters.report.html_page.page_environment`): control characters shown by
`zheval.text.controls.visible_controls` (ESC as ``\\x1b``, NUL as ``\\x00``, U+202E as ``\\u202e``, CR as
``\\r``), then HTML-escaped, the whole text isolated in ``<bdi>``. `bracketed` is for the terminal without colours:
each run written by `zheval.text.controls.escaped_text` (the controls made visible by the same rule, every backslash
doubled) and its literal ``[`` and ``]`` written ``\\[`` and ``\\]``, so the only bare brackets are the marks and
the text can be read back exactly (its caller's `zheval.text.terminal.terminal_text` then changes nothing).

A character is *matched* when it lies in the ``[start, end)`` span of one of the highlighted tokens
(``explanation["highlight"]["prediction"]`` / ``["reference_tokens"]``, indices into the text entry's ``tokens``).
Characters between tokens (spaces dropped by the tokenizer) are never marked, so two matched tokens separated by a
space give two runs.
"""

from __future__ import annotations

from html import escape
from typing import Any, Dict, Iterable, List, Tuple

from ..text.terminal import escaped_text, visible_controls

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
    """The original text as HTML, each matched run in ``<mark class="zheval-match">`` (with the inline ``style``
    when given: a page whose CSS cannot be set), the whole in ``<bdi>``.

    Every run is written by the page rule (module docstring): `zheval.text.controls.visible_controls`, then
    ``html.escape``, so no raw C0/C1 control, bidi control or line separator reaches the page and a right-to-left
    text cannot reorder what is around it. ``\\n`` and ``\\t`` are kept (a panel with ``white-space:pre-wrap``).

    Args:
        entry: a text entry of an explanation (``{"text", "tokens", ...}``, see `highlight_runs`).
        token_indices: indices into ``entry["tokens"]`` of the tokens to mark.
        style: an inline CSS ``style`` for the marks (escaped as an attribute), or ``""``.
    Returns:
        ``str`` HTML; ``""`` for an empty text (so a caller can show its own placeholder).
    Raises:
        IndexError: an index outside the token list.
    """
    attr = f' style="{escape(style)}"' if style else ""
    body = "".join(f'<mark class="{MATCH_CLASS}"{attr}>{_shown(s)}</mark>' if m else _shown(s)
                   for s, m in highlight_runs(entry, token_indices))
    return f"<bdi>{body}</bdi>" if body else ""


def _shown(text: str) -> str:
    """One run of data as page text: control characters made visible, then HTML-escaped."""
    return escape(visible_controls(text))


def bracketed(entry: Dict[str, Any], token_indices: Iterable[int]) -> str:
    """The original text with each matched run in ``[...]`` (the terminal view without colours), unambiguous: in
    the text every backslash is written ``\\\\``, a literal ``[`` ``\\[`` and ``]`` ``\\]``, and a control
    character as `zheval.text.controls.escaped_text` writes it (``\\x1b``, ``\\n``), so every bare ``[``/``]`` is a
    mark and every backslash starts an escape: prediction ``[好]的[呀]`` with ``好``, ``的`` matched is written
    ``\\[[好]\\][的]\\[呀\\]``.

    Raises:
        IndexError: an index outside the token list.
    """
    return "".join(f"[{_plain(s)}]" if m else _plain(s) for s, m in highlight_runs(entry, token_indices))


def _plain(text: str) -> str:
    """One run of data for `bracketed`: `escaped_text`, then ``[`` and ``]`` escaped with a backslash."""
    return escaped_text(text).replace("[", "\\[").replace("]", "\\]")
