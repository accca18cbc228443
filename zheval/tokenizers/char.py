"""The ``char`` tokenizer (one token per Han/kana character, per letter/digit run, per other symbol; optional
protected terms), and its character classes as public constants.

The classes (`CHAR_HAN`, `CHAR_MARK`, `CHAR_WORD`, `CHAR_OTHER_START`) are built from the
shared ranges of `zheval.text.chars`; the regular expression here and its vectorised twin
(`zheval.tokenizers.char_ids`) both classify characters with exactly these classes, so a rule change is made
in one place. The protected-term rule (`term_pattern`, `normalize_terms`) is shared with the ``jieba``
tokenizer.
"""

from __future__ import annotations

import re
from typing import Iterable

from ..text.chars import ATTACHED_MARK_RANGES, HAN_RANGES, INVISIBLE_RANGES, KANA_CLASS_BODY
from ..text.normalize import DEFAULT_STEPS, Normalizer
from ..text.sentences import PIECE_END_CHARS
from .base import BaseTokenizer, check_punct, option_suffix, short_sha
from ..io.literals import instead_of_literal, literal_why, term_literal

__all__ = ["CharTokenizer", "CHAR_HAN", "CHAR_MARK", "CHAR_WORD", "CHAR_OTHER_START", "CHAR_FLAG_HALF", "HAN_OR_WORD_RE",
           "HAN_TOKEN_RE", "TRAILING_MARKS_RE", "char_token_pattern", "term_pattern", "normalize_terms",
           "is_bmp_text", "is_punct_or_symbol"]



def _body(ranges, bmp_only: bool) -> str:
    """Regex class body of inclusive code point ranges (only their part in the BMP when ``bmp_only``)."""
    parts = []
    for a, b in ranges:
        if bmp_only:
            if a > 0xFFFF:
                continue
            b = min(b, 0xFFFF)
        parts.append(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}")
    return "".join(parts)


def _char_classes(bmp_only: bool) -> tuple[str, str, str, str]:
    """``(han, mark, word, other_start)`` classes; the ``bmp_only`` ones equal the full ones on BMP characters and
    are faster (a class with ranges beyond U+FFFF tests them one by one after its BMP table)."""
    han = _body(HAN_RANGES, bmp_only) + KANA_CLASS_BODY  # kana and the CJK block's letters (々 〆 …)
    invisible = _body(INVISIBLE_RANGES, bmp_only)
    return (f"[{han}]", f"[{_body(ATTACHED_MARK_RANGES, bmp_only)}]", f"[^\\W_{han}{invisible}]",
            f"[^\\s\\x00-\\x1f\\x7f-\\x9f{invisible}]")


#: One Han or kana character (a token on its own, with the marks that follow it).
CHAR_HAN: str
#: One attached mark (`zheval.text.sentences.ATTACHED_MARKS`): joins the token of the character before it.
CHAR_MARK: str
#: One letter/digit that is not Han, kana or invisible: word runs (``iOS``, ``DUCK20240517001``, ``2024``, ``é``,
#: Cyrillic, Hangul words).
CHAR_WORD: str
#: One character that can start a token of its own (punctuation, symbols, emoji; a visible mark with no character
#: before it): anything but whitespace, C0/C1 controls and the invisible characters of
#: `zheval.text.normalize.INVISIBLE_RANGES` (which are never tokens: when one of them is an attached mark, such as a
#: variation selector, it joins the character before it, and is dropped when nothing precedes it).
CHAR_OTHER_START: str
CHAR_HAN, CHAR_MARK, CHAR_WORD, CHAR_OTHER_START = _char_classes(False)

#: One regional indicator symbol (U+1F1E6-U+1F1FF, 🇦-🇿): two in a row are one flag (🇨🇳), one token, as UAX #29's
#: grapheme clusters pair them (rules GB12/GB13: from the start of a run of regional indicators, two by two).
CHAR_FLAG_HALF = "[\U0001F1E6-\U0001F1FF]"


def char_token_pattern(bmp_only: bool) -> str:
    """``HAN | WORD | FLAG | OTHER``: a Han/kana character, a word run (with decimal/version continuations ".5", so
    that 3.5, 3.5GB, 192.168.1.1 stay one token), a flag (two regional indicators), or another character; each with
    the marks that follow it. (No regional indicator is in the BMP, so the ``bmp_only`` expression has no FLAG.)"""
    han, mark, word, other = _char_classes(bmp_only)
    flag = "" if bmp_only else f"{CHAR_FLAG_HALF}{CHAR_FLAG_HALF}{mark}*|"
    return (f"{han}{mark}*|{word}(?:{word}|{mark})*(?:\\.[0-9](?:{word}|{mark})*)*|{flag}{other}{mark}*")


HAN_OR_WORD_RE = re.compile(f"{CHAR_HAN}|{CHAR_WORD}")
HAN_TOKEN_RE = re.compile(CHAR_HAN)
TRAILING_MARKS_RE = re.compile(f"{CHAR_MARK}+$")


_ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")


def is_bmp_text(text: str) -> bool:
    """Whether every character of ``text`` is in the BMP (then the faster BMP-only expressions give the same tokens)."""
    return text.isascii() or _ASTRAL_RE.search(text) is None


def is_punct_or_symbol(token: str) -> bool:
    """A token with no Han character and no letter/digit (punctuation, symbols, emoji, lone marks)."""
    return HAN_OR_WORD_RE.search(token) is None


def term_pattern(terms: Iterable[str], bmp_only: bool = False) -> str:
    """The regular expression of protected terms, shared by the ``char`` and ``jieba`` tokenizers: the terms
    longest first (so the longest term that matches wins; equal lengths in code point order), a term ending in a
    letter/digit only where no letter/digit follows it (after attached marks), so ``app`` does not split ``apple``;
    the attached marks that follow a term join it. Scanned together with the ``char`` rules
    (``<terms>|<char token>``), a term is found only where a ``char`` token could start: never inside a word run."""
    _, mark, word, _ = _char_classes(bmp_only)
    alts = []
    for t in sorted(terms, key=lambda s: (-len(s), s)):
        alt = re.escape(t)
        core = TRAILING_MARKS_RE.sub("", t)
        if core and HAN_OR_WORD_RE.fullmatch(core[-1]) and not HAN_TOKEN_RE.fullmatch(core[-1]):
            alt += f"(?!{mark}*{word})"
        alts.append(alt)
    return f"(?:{'|'.join(alts)}){mark}*"


class CharTokenizer(BaseTokenizer):
    """Character-level Chinese tokenizer, optionally with a protected-term lexicon ("three-level" tokenizer).

    Rules, applied left to right on normalised text with one compiled regular expression:

    1. if ``terms`` are given: a protected term at the current position is one token, the **longest** term wins
       (terms ending in a letter/digit only match at a word boundary, so ``APP`` does not split ``APPLE``);
    2. every Han character is one token: CJK Unified Ideographs including Extension A through the newest extension
       this Python's ``unicodedata`` knows, Compatibility Ideographs (and Supplement), and 〇 (U+3007);
       characters outside the BMP (𠮷 U+20BB7) are one token; so is every kana character (Japanese, like Chinese,
       does not separate words with spaces), and every letter or number of the CJK Symbols and Punctuation block
       (`zheval.text.chars.CJK_LETTER_CLASS_BODY`: the iteration marks 々 U+3005 and 〻 U+303B, 〆 U+3006, the
       Hangzhou numerals): ``人々abc`` is ``人``, ``々``, ``abc``, as sacrebleu's ``zh`` tokenizer splits it;
    3. each run of letters/digits that are not Han or kana is one token (Latin, Cyrillic, Hangul words, …)
       (``DUCK20240517001``, ``iOS``, ``2024``), and a ``.`` followed by a digit continues the run (``3.5``,
       ``3.5GB``, ``192.168.1.1``);
    4. any other character (punctuation, symbols, emoji) is one token — with ``punct="keep"`` (**default**,
       as sacrebleu's ``zh`` tokenizer and the 小黄鸭 three-level tokenizer) — or dropped with ``punct="drop"``
       (a token made only of punctuation, symbols and marks).

    **Graphemes.** A token never splits a user-perceived character of symbols: UAX #29's extended grapheme cluster
    (what the ``regex`` module's ``\\X`` matches) of an emoji with its skin-tone modifier (👍🏽), of a character with
    its combining marks (``e\\u0301``, ``1\\u20e3``), and of a flag: two regional indicators are one token (🇨🇳;
    ``🇨🇳🇺`` → ``🇨🇳``, ``🇺``: paired from the start of the run, as GB12/GB13), so a token that starts with a
    symbol is exactly one grapheme cluster. Han, kana and word runs are one grapheme cluster or more (``iOS``).
    The one exception: a zero-width joiner (U+200D) is invisible, so it never joins two emoji (``👨\\u200d👩`` is
    two tokens, where ``\\X`` sees one cluster); the default ``zw`` step removes it before tokenisation anyway.
    ``tests/tokenizers/test_char_graphemes.py`` checks this against ``regex``'s ``\\X``.

    One rule for marks: a combining mark, variation selector or emoji modifier
    (`zheval.text.sentences.ATTACHED_MARKS`) always stays in the token of the character before it, whatever that
    character is (Han, kana, a letter, a digit, punctuation, an emoji, a protected term): ``e\\u0301`` and, with
    normalisation off, ``葛\\U000e0100`` are one token each. A visible mark with no character before it (at the start
    of the text, after whitespace) is a token of its own.

    Whitespace, control characters (C0/C1) and the invisible characters of
    `zheval.text.normalize.INVISIBLE_RANGES` (default-ignorable code points, U+2800, U+FFF9–U+FFFB) are never
    tokens, even with normalisation off; the default ``zw`` step removes them before tokenisation anyway.

    Args:
        terms: protected terms (strings); normalised with the same normaliser as the text.
        punct: ``"keep"`` or ``"drop"``.
        normalizer: a `Normalizer` (default `DEFAULT_STEPS`).

    Example: with terms ``[小黄鸭, APP, 快递柜]`` and no lower-casing, ``请打开小黄鸭APP查快递柜取件码！`` →
    ``[请, 打, 开, 小黄鸭, APP, 查, 快递柜, 取, 件, 码, ！]``.

    Raises:
        ValueError: ``punct`` not in ``("keep", "drop")``; an empty or whitespace-only term; a term written as a
            JSON or Python literal (``'"快递柜"'``, ``"['快递柜']"``: `zheval.io.literals`).
        TypeError: a term that is not a ``str``.
    """

    name = "char"
    content_keyed = True

    def __init__(self, terms: Iterable[str] | None = None, punct: str = "keep", normalizer: Normalizer | None = None):
        super().__init__(normalizer if normalizer is not None else Normalizer(DEFAULT_STEPS))
        self.punct = check_punct(punct)
        self.terms: tuple[str, ...] = normalize_terms(terms, self.normalizer)
        self._re_bmp = _compile_char_re(self.terms, True)
        self._re: re.Pattern | None = None  # the full expression, compiled when a text needs it
        #: whether a term holds a character a "punct" sentence piece can end with (then the text rule may cut one)
        self._terms_cross_cuts = any(not PIECE_END_CHARS.isdisjoint(t) for t in self.terms)

    @property
    def terms_hash(self) -> str:
        """sha256 (8 hex) of the sorted, normalised term list ('' when there are no terms)."""
        return short_sha("\n".join(sorted(self.terms))) if self.terms else ""

    def tokenize_normalized(self, text: str) -> list[str]:
        if is_bmp_text(text):
            tokens = self._re_bmp.findall(text)
        else:
            if self._re is None:
                self._re = _compile_char_re(self.terms, False)
            tokens = self._re.findall(text)
        if self.punct == "drop":
            tokens = [t for t in tokens if not is_punct_or_symbol(t)]
        return tokens

    def char_ids_twin(self) -> bool:
        return type(self) is CharTokenizer and not self.terms

    def term_ids_twin(self) -> bool:
        return type(self) is CharTokenizer and bool(self.terms) and not any("\n" in t for t in self.terms)

    def lines_concatenate(self) -> bool:
        # Han, word runs and other tokens never contain whitespace; only a term could contain a line break.
        return type(self) is CharTokenizer and not any("\n" in t for t in self.terms)

    def punct_cuts_between_tokens(self) -> bool:
        # The text rule cuts after a sentence-final mark and its attached marks, or after closers; a char token
        # holding such a mark is that mark (plus attached marks), and "." inside a word run is always followed by a
        # digit, where the rule does not cut. A term token is cut only if the term holds such a character (the
        # marks a term token gathers after it follow a term character, never a sentence-final mark).
        return type(self) is CharTokenizer and not self._terms_cross_cuts

    def _config(self) -> dict:
        return {"name": self.name, "punct": self.punct, "terms": self.terms_hash}

    def signature(self) -> str:
        return "zh-char" + option_suffix(self.terms_hash, self.punct)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_re"] = None
        state.pop("_re_bmp")
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._re_bmp = _compile_char_re(self.terms, True)


def _compile_char_re(terms: tuple[str, ...], bmp_only: bool) -> re.Pattern:
    """The ``char`` tokenizer's expression ``<terms>|HAN|WORD|OTHER`` (findall gives the tokens); with ``bmp_only``
    its twin with BMP-only classes, for texts without characters beyond U+FFFF (the same tokens there)."""
    base = char_token_pattern(bmp_only)
    return re.compile(f"{term_pattern(terms, bmp_only)}|{base}" if terms else base)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def normalize_terms(terms, normalizer: Normalizer) -> tuple[str, ...]:
    if terms is None:
        return ()
    if isinstance(terms, str):
        raise TypeError("terms must be a list of strings, not a single string")
    out = []
    for i, t in enumerate(terms):
        if not isinstance(t, str):
            raise TypeError(f"terms[{i}] must be str, got {type(t).__name__}")
        bad = _LONE_SURROGATE.search(t)
        if bad:
            raise ValueError(f"terms[{i}] is not valid text: {bad.group()!r} at position {bad.start()} is a lone "
                             "surrogate (half of a UTF-16 pair, usually from a broken decode)")
        literal = term_literal(t)
        if literal:
            kind, value = literal
            raise ValueError(f"terms[{i}] {t!r} is {kind}: {literal_why(kind, t)}; {instead_of_literal(value, False)}")
        nt = normalizer(t)
        if not nt.strip():
            raise ValueError(f"terms[{i}] {t!r} is empty or whitespace after normalisation")
        out.append(nt)
    return tuple(sorted(set(out)))


