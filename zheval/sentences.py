"""Sentence splitting for ROUGE-Lsum (summary-level LCS needs the texts cut into sentences).

Two modes:

* ``"newline"`` — split on ``"\\n"`` only, exactly as rouge-score 0.1.2 does for ``rougeLsum`` (``text.split("\\n")``,
  so a text with its sentences on separate lines scores identically to rouge-score);
* ``"punct"`` (default for Chinese) — split on newlines **and** after sentence-final punctuation: ``。！？；…`` and
  their ASCII forms ``! ? ;``, and ``.`` when it ends a sentence (not followed by a letter or digit, so ``3.5`` and
  ``www.example.com`` are not cut). Closing quotes and brackets that follow the mark stay with the sentence
  (``他说："好。"然后`` → ``他说："好。"`` + ``然后``); a run of marks (``？！``, ``……``, ``...``) is one cut.

Splitting runs on **normalised** text (after NFKC, ``！`` is ``!``), before tokenisation.
"""

from __future__ import annotations

import re

__all__ = ["SENTENCE_SPLITS", "split_sentences"]

SENTENCE_SPLITS = ("punct", "newline")

_TERMINATOR = r"(?:[。！？；!?;…]|\.(?![0-9A-Za-z]))"
_CLOSERS = r"[\"'”’」』）)\]】》〉]"
_SENT_RE = re.compile(f"[^\\n]*?{_TERMINATOR}+{_CLOSERS}*|[^\\n]+")


def split_sentences(text: str, mode: str = "punct") -> list[str]:
    """Split ``text`` into sentences.

    Args:
        text: normalised text.
        mode: ``"punct"`` or ``"newline"`` (see the module docstring).

    Returns:
        The sentences, in order. ``"newline"`` returns ``text.split("\\n")`` (empty lines included, as rouge-score);
        ``"punct"`` drops pieces that are empty or whitespace only. Concatenating the sentences gives back ``text``
        without its line breaks and whitespace-only pieces.

    Raises:
        TypeError: ``text`` is not a ``str``. ValueError: unknown ``mode`` (lists the valid ones).
    """
    if not isinstance(text, str):
        raise TypeError(f"split_sentences expects str, got {type(text).__name__}")
    if mode == "newline":
        return text.split("\n")
    if mode != "punct":
        raise ValueError(f"unknown sentence split {mode!r}; valid: {list(SENTENCE_SPLITS)}")
    return [s for s in _SENT_RE.findall(text) if s.strip()]
