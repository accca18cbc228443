"""Sentence splitting for ROUGE-Lsum (summary-level LCS needs the texts cut into sentences).

Two modes:

* ``"newline"`` — split on ``"\\n"`` only, exactly as rouge-score 0.1.2 does for ``rougeLsum`` (``text.split("\\n")``,
  so a text with its sentences on separate lines scores identically to rouge-score). Note that normalisation (the
  ``space`` step, on by default) has already turned ``"\\r\\n"`` and a lone ``"\\r"`` into ``"\\n"``, so old Mac
  ``"\\r"`` line endings split too, where rouge-score (``"\\n"`` only) does not;
* ``"punct"`` (default for Chinese) — split on newlines **and** after sentence-final punctuation: ``。！？；…‥`` and
  their ASCII forms ``! ? ;``, and ``.`` when it ends a sentence (not followed by a letter or digit, so ``3.5`` and
  ``www.example.com`` are not cut). Closing quotes and brackets that follow the mark stay with the sentence
  (``他说："好。"然后`` → ``他说："好。"`` + ``然后``); a run of marks (``？！``, ``……``, ``...``) is one cut, and
  combining marks, variation selectors and emoji modifiers (`ATTACHED_MARKS`) stay with the character before
  them (``‼️``).

Splitting runs on **normalised** text (after NFKC, ``！`` is ``!``). A cut must never fall inside a token, so that
the sentences' tokens concatenate to the tokens of the whole text (ROUGE-N and ROUGE-L see the same tokens as BLEU
and as rouge-score fed the text). For the plain ``char`` tokenizer the text rule guarantees it; for other
tokenizers, a line whose text cuts would split a token (a protected term ``Yahoo!Japan``, a pre-tokenised
``好。好``) is cut on its own tokens instead (`split_token_sentences`: after a token whose last character,
ignoring attached marks, is a sentence-final mark; without the text, a "." followed by a token starting with a
letter or digit is not a cut even if a space separated them).
"""

from __future__ import annotations

import re
from typing import List, Sequence

from .chars import ATTACHED_MARK_RANGES, ATTACHED_MARKS

__all__ = ["SENTENCE_SPLITS", "ATTACHED_MARKS", "ATTACHED_MARK_RANGES", "TERMINATOR_CHARS", "CLOSER_CHARS",
           "PIECE_END_CHARS", "split_sentences", "split_token_sentences"]

SENTENCE_SPLITS = ("punct", "newline")

#: Sentence-final marks of the ``"punct"`` rule (``.`` is one too, when no ASCII letter or digit follows it).
TERMINATOR_CHARS = "。！？；!?;…‥"
#: Closing quotes and brackets that stay with the sentence they follow.
CLOSER_CHARS = "\"'”’」』）)]】》〉"
#: Every character a ``"punct"`` sentence piece can end with: the sentence-final marks, ``.``, the closers and the
#: attached marks. A token holding none of them is never cut by the text rule.
PIECE_END_CHARS = frozenset(TERMINATOR_CHARS + "." + CLOSER_CHARS) | frozenset(
    chr(c) for a, b in ATTACHED_MARK_RANGES for c in range(a, b + 1))
_TERMINATOR_CHARS = TERMINATOR_CHARS
_CLOSER_CHARS = CLOSER_CHARS
_TERMINATOR = f"(?:[{_TERMINATOR_CHARS}]|\\.(?![0-9A-Za-z]))[{ATTACHED_MARKS}]*"
_CLOSERS = f"[{re.escape(_CLOSER_CHARS)}][{ATTACHED_MARKS}]*"
_SENT_RE = re.compile(f"[^\\n]*?(?:{_TERMINATOR})+(?:{_CLOSERS})*|[^\\n]+")
_TRAILING_MARKS_RE = re.compile(f"[{ATTACHED_MARKS}]+$")
_ALNUM_START_RE = re.compile("[0-9A-Za-z]")


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


def _core(token: str) -> str:
    """The token without trailing attached marks."""
    return _TRAILING_MARKS_RE.sub("", token) if token else token


def _ends_with_terminator(core: str, next_token) -> bool:
    if not core:
        return False
    last = core[-1]
    if last in _TERMINATOR_CHARS:
        return True
    # "." ends a sentence unless a letter or digit follows it directly (3.5, www.example.com)
    return last == "." and not (next_token and _ALNUM_START_RE.match(next_token))


def split_token_sentences(tokens: Sequence[str]) -> List[List[str]]:
    """The ``"punct"`` rule on a line's tokens: cut after a run of tokens ending in a sentence-final mark and the
    closing quotes/brackets that follow it (see the module docstring).

    Args:
        tokens: the tokens of one line (strings).
    Returns:
        the non-empty sentences (lists of tokens), in order; their concatenation is ``list(tokens)``.
    """
    out: List[List[str]] = []
    cur: List[str] = []
    n = len(tokens)
    i = 0
    while i < n:
        tok = tokens[i]
        cur.append(tok)
        i += 1
        if not _ends_with_terminator(_core(tok), tokens[i] if i < n else None):
            continue
        # the rest of a run of marks, then the closers that follow it
        while i < n:
            core = _core(tokens[i])
            if core and all(ch in _TERMINATOR_CHARS or ch == "." for ch in core) and _ends_with_terminator(
                core, tokens[i + 1] if i + 1 < n else None
            ):
                cur.append(tokens[i])
                i += 1
            else:
                break
        while i < n:
            core = _core(tokens[i])
            if core and all(ch in _CLOSER_CHARS for ch in core):
                cur.append(tokens[i])
                i += 1
            else:
                break
        out.append(cur)
        cur = []
    if cur:
        out.append(cur)
    return out
