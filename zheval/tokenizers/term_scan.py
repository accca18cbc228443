"""Where the protected terms stand in a normalised text, as the scan ``<terms>|<char token>`` of
`zheval.tokenizers.char.term_pattern` finds them (the ``jieba`` tokenizer cuts the text between them).

The scan visits every char token in Python. A text with no attached mark and no regional indicator is served
without that: the leftmost term match (the term expression alone, from the position after the last term) is the
scan's iff the scan stands at its start, i.e. the character there does not continue the token before it -- a letter
or digit after a letter or digit, a digit after a ``.`` that continues a word run, a ``.`` between a letter or digit
and an ASCII digit (`zheval.tokenizers.char_ids`'s rules, which are local once marks and flags are out); a match
that starts inside a token is passed over and the search resumes one character later. Tested equal to the scan on
random texts over the tricky classes (tests/tokenizers/test_term_scan.py)."""

from __future__ import annotations

import re
from typing import List, Tuple

from ..text.chars import ATTACHED_MARK_RANGES
from .char import CHAR_HAN, CHAR_WORD, char_token_pattern, is_bmp_text, term_pattern

__all__ = ["TermScan"]

#: The attached marks (`zheval.tokenizers.char.CHAR_MARK`'s ranges) and the regional indicators (``CHAR_FLAG_HALF``).
_MARKS_AND_FLAGS = frozenset(chr(c) for a, b in ATTACHED_MARK_RANGES + ((0x1F1E6, 0x1F1FF),) for c in range(a, b + 1))
_WORD_RE = re.compile(f"(?!{CHAR_HAN}){CHAR_WORD}")  # class W: a letter/digit that is not Han or kana
_ASCII_DIGITS = frozenset("0123456789")


class TermScan:
    """The term matches of texts for one term list (compiled once per tokenizer)."""

    def __init__(self, terms) -> None:
        terms = list(terms)
        self.any_term = re.compile("|".join(map(re.escape, terms)))
        self.scan = tuple(re.compile(f"({term_pattern(terms, bmp)})|{char_token_pattern(bmp)}") for bmp in (False, True))
        self.alone = tuple(re.compile(term_pattern(terms, bmp)) for bmp in (False, True))

    def matches(self, text: str, quick: bool = True) -> List[Tuple[int, int, str]]:
        """``[(start, end, term with its marks)]`` of ``text`` (normalised), left to right, as the scan finds them;
        ``quick=False`` always runs the scan itself."""
        if self.any_term.search(text) is None:
            return []
        bmp = is_bmp_text(text)
        if not quick or not _MARKS_AND_FLAGS.isdisjoint(text):
            return [(m.start(), m.end(), m.group(1)) for m in self.scan[bmp].finditer(text) if m.group(1) is not None]
        out = []
        pos = start = 0
        search = self.alone[bmp].search
        while True:
            m = search(text, pos)
            if m is None:
                return out
            q = m.start()
            if q > start and _continues(text, q, start):
                pos = q + 1
                continue
            out.append((q, m.end(), m.group()))
            pos = start = m.end()


def _continues(text: str, q: int, start: int) -> bool:
    """Whether the character at ``q`` continues the char token before it, the scan having resumed at ``start``
    (``start < q``; no attached mark or regional indicator in ``text``)."""
    c = text[q]
    if c == ".":
        return _WORD_RE.match(text[q - 1]) is not None and q + 1 < len(text) and text[q + 1] in _ASCII_DIGITS
    if _WORD_RE.match(c) is None:
        return False
    p = text[q - 1]
    if _WORD_RE.match(p) is not None:
        return True
    return p == "." and c in _ASCII_DIGITS and q - 2 >= start and _WORD_RE.match(text[q - 2]) is not None
