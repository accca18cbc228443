"""The ``sacrebleu-zh`` tokenizer: exactly the tokens sacrebleu 2.6.0 ``BLEU(tokenize="zh")`` counts n-grams over.

sacrebleu ``tokenize="zh"`` (sacrebleu/tokenizers/tokenizer_zh.py, tokenizer_re.py; sacrebleu 2.6.0)
--------------------------------------------------------------------------------------------------
``BLEU._preprocess_segment`` calls ``TokenizerZh()(sent.rstrip())``, which

1. ``strip()``s the line (Unicode whitespace),
2. surrounds every character that ``TokenizerZh._is_chinese_char`` accepts with spaces,
3. runs ``TokenizerRegexp`` -- only the *regular-expression part* of 13a. The language-independent part of 13a
   (``Tokenizer13a.__call__``: removing ``<skipped>``, joining ``-\\n``, unescaping ``&quot; &amp; &lt; &gt;``)
   is **not** applied by ``zh``. The regular expressions:

   * pad with spaces each of ``{ | } ~ [ \\ ] ^ _ ` ! " # $ % & ( ) * + : ; < = > ? @ /`` (and the space);
     notably **not** ``-`` or ``'``;
   * split ``.`` and ``,`` off unless they sit between digits (``3.14`` and ``1,000`` stay one token, ``B.C`` and
     ``年,`` split);
   * split ``-`` off only after a digit (``2002-2005`` -> ``2002 - 2005``, but ``B-19`` stays one token);

4. collapses whitespace with ``str.split()`` (Unicode whitespace, so U+3000 and U+2002 disappear; U+200B does
   not count as whitespace and stays a token).

Which code points are "Chinese" -- the quirks. ``_is_chinese_char(c)`` tests ``start <= c <= end`` on *strings*
for each pair of ``_UCODE_RANGES``. Two pairs were meant for the supplementary planes but are written with
``\\uXXXXX`` escapes, which Python reads as a 4-hex-digit BMP character followed by a literal digit/letter:

* ``('\\u20000', '\\u2a6d6')`` (meant: CJK Extension B, U+20000-U+2A6D6) is the pair of 2-character strings
  ``'\\u2000' + '0'`` and ``'\\u2a6d' + '6'``; a single character ``c`` satisfies it iff U+2001 <= c <= U+2A6D.
  So **General Punctuation** (“ ” ‘ ’ — … ‰ ※), superscripts, currency signs, letterlike symbols (℃ №),
  number forms (Ⅻ), arrows, mathematical operators, technical symbols, enclosed alphanumerics (① ⑴ ⒈), box
  drawing, geometric shapes (■ ○), dingbats, Braille and Supplemental Arrows... up to U+2A6D are all split
  into single-character tokens, while **Extension B itself is not**.
* ``('\\u2f800', '\\u2fa1d')`` (meant: CJK Compatibility Supplement, U+2F800-U+2FA1D) accepts U+2F81-U+2FA1,
  a slice of the Kangxi radicals that another pair covers anyway.

Consequently no supplementary-plane character (CJK Extensions B-H, emoji U+1F300...) is Chinese for sacrebleu:
a run of them is one 13a "word", glued to adjacent non-Chinese characters. Also outside the ranges: the newest
BMP ideographs U+9FBC-U+9FFF (e.g. 鿏 U+9FCF, 鿬 U+9FEC), U+4DB6-U+4DBF, hiragana/katakana (U+3040-U+30FF: a
kana run is one token), Hangul syllables, the middle dot · (U+00B7), ASCII letters and digits. Fullwidth forms
U+FF00-U+FFEF (，！？（）０-９Ａ-Ｚ) *are* Chinese: fullwidth digits and letters become one token each, unlike their
ASCII counterparts. The complete effective set is `SACREBLEU_ZH_CODEPOINT_RANGES`; the tests compare it
with sacrebleu's predicate on every code point.
"""

from __future__ import annotations

import re
from typing import List, Sequence, Tuple

from .base import ToolTokenizer

__all__ = ["SACREBLEU_ZH_UCODE_RANGES_AS_WRITTEN", "SACREBLEU_ZH_CODEPOINT_RANGES", "effective_codepoint_ranges",
           "is_sacrebleu_zh_char", "sacrebleu_13a_regexp", "sacrebleu_zh_tokenize", "SacrebleuZhTokenizer"]

#: sacrebleu 2.6.0 ``tokenizer_zh._UCODE_RANGES``, copied literally (malformed escapes included on purpose).
SACREBLEU_ZH_UCODE_RANGES_AS_WRITTEN: Tuple[Tuple[str, str], ...] = (
    ("\u3400", "\u4db5"),  # CJK Unified Ideographs Extension A, release 3.0
    ("\u4e00", "\u9fa5"),  # CJK Unified Ideographs, release 1.1
    ("\u9fa6", "\u9fbb"),  # CJK Unified Ideographs, release 4.1
    ("\uf900", "\ufa2d"),  # CJK Compatibility Ideographs, release 1.1
    ("\ufa30", "\ufa6a"),  # CJK Compatibility Ideographs, release 3.2
    ("\ufa70", "\ufad9"),  # CJK Compatibility Ideographs, release 4.1
    ("\u20000", "\u2a6d6"),  # meant U+20000-U+2A6D6; really '\u2000'+'0' .. '\u2a6d'+'6'
    ("\u2f800", "\u2fa1d"),  # meant U+2F800-U+2FA1D; really '\u2f80'+'0' .. '\u2fa1'+'d'
    ("\uff00", "\uffef"),  # Full width ASCII, punctuation, half width kana, Hangul
    ("\u2e80", "\u2eff"),  # CJK Radicals Supplement
    ("\u3000", "\u303f"),  # CJK punctuation mark
    ("\u31c0", "\u31ef"),  # CJK stroke
    ("\u2f00", "\u2fdf"),  # Kangxi Radicals
    ("\u2ff0", "\u2fff"),  # Chinese character structure
    ("\u3100", "\u312f"),  # Phonetic symbols
    ("\u31a0", "\u31bf"),  # Phonetic symbols (Taiwanese and Hakka expansion)
    ("\ufe10", "\ufe1f"),
    ("\ufe30", "\ufe4f"),
    ("\u2600", "\u26ff"),
    ("\u2700", "\u27bf"),
    ("\u3200", "\u32ff"),
    ("\u3300", "\u33ff"),
)


def effective_codepoint_ranges(pairs: Sequence[Tuple[str, str]]) -> Tuple[Tuple[int, int], ...]:
    """Inclusive code-point intervals of the single characters ``c`` with ``start <= c <= end`` for some pair.

    Python compares strings code point by code point and a proper prefix sorts first, so for a one-character
    ``c``: ``c >= start`` iff ``ord(c) >= ord(start[0])`` when ``len(start) == 1`` and ``ord(c) > ord(start[0])``
    otherwise; ``c <= end`` iff ``ord(c) <= ord(end[0])`` (whatever the length of ``end``). The result is
    sorted and merged (overlapping or adjacent intervals joined).
    """
    spans = []
    for start, end in pairs:
        lo = ord(start[0]) + (1 if len(start) > 1 else 0)
        hi = ord(end[0])
        if lo <= hi:
            spans.append((lo, hi))
    spans.sort()
    merged: List[List[int]] = []
    for lo, hi in spans:
        if merged and lo <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return tuple((lo, hi) for lo, hi in merged)


#: The code points sacrebleu 2.6.0's ``zh`` tokenizer treats as Chinese, as merged inclusive intervals:
#: U+2001-U+2A6D, U+2E80-U+2FDF, U+2FF0-U+303F, U+3100-U+312F, U+31A0-U+31EF, U+3200-U+4DB5, U+4E00-U+9FBB,
#: U+F900-U+FA2D, U+FA30-U+FA6A, U+FA70-U+FAD9, U+FE10-U+FE1F, U+FE30-U+FE4F, U+FF00-U+FFEF.
SACREBLEU_ZH_CODEPOINT_RANGES: Tuple[Tuple[int, int], ...] = effective_codepoint_ranges(
    SACREBLEU_ZH_UCODE_RANGES_AS_WRITTEN
)

_ZH_CLASS = "".join(
    f"{re.escape(chr(lo))}-{re.escape(chr(hi))}" if hi > lo else re.escape(chr(lo))
    for lo, hi in SACREBLEU_ZH_CODEPOINT_RANGES
)
_ZH_CHAR_RE = re.compile(f"([{_ZH_CLASS}])")
_ZH_ONE_RE = re.compile(f"[{_ZH_CLASS}]")


def is_sacrebleu_zh_char(char: str) -> bool:
    """Whether sacrebleu 2.6.0's ``zh`` tokenizer splits ``char`` (one character) out as a Chinese character."""
    return len(char) == 1 and _ZH_ONE_RE.match(char) is not None


# sacrebleu 2.6.0 tokenizers/tokenizer_re.py TokenizerRegexp, same patterns in the same order
_13A_REGEXPS = (
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)


def sacrebleu_13a_regexp(line: str) -> str:
    """sacrebleu's ``TokenizerRegexp`` (the regular-expression part of 13a): returns a space-joined string."""
    for rx, repl in _13A_REGEXPS:
        line = rx.sub(repl, line)
    return " ".join(line.split())


# Fast path, same output. Python 3.11's re.sub expands a template such as r" \1 " in Python for every match, which
# dominated the run time; so (1) the per-character steps -- spacing Chinese characters and 13a's first rule (pad
# each of {|}~[\]^_`!"#$%&()*+:;<=>?@/ with spaces) -- become one str.translate table (the two character sets are
# disjoint, and the space itself, also in 13a's class, only gains padding that split() removes), and (2) the
# context rules for '.', ',' and '-' use replacement functions and run only when those characters occur.
_TABLE: dict = {}


def _translate_table() -> dict:
    if not _TABLE:
        table = {}
        for lo, hi in SACREBLEU_ZH_CODEPOINT_RANGES:
            for cp in range(lo, hi + 1):
                table[cp] = f" {chr(cp)} "
        for ch in "{|}~[\\]^_`!\"#$%&()*+:;<=>?@/":
            table[ord(ch)] = f" {ch} "
        _TABLE.update(table)
    return _TABLE


_RULE_DOT_AFTER = re.compile(r"([^0-9])([\.,])")
_RULE_DOT_BEFORE = re.compile(r"([\.,])([^0-9])")
_RULE_DASH = re.compile(r"([0-9])(-)")


def _rep_dot_after(m) -> str:
    return f"{m.group(1)} {m.group(2)} "


def _rep_dot_before(m) -> str:
    return f" {m.group(1)} {m.group(2)}"


def _rep_dash(m) -> str:
    return f"{m.group(1)} - "


def sacrebleu_zh_tokenize(text: str) -> List[str]:
    """Tokens exactly as ``sacrebleu.metrics.BLEU(tokenize="zh")`` (2.6.0) sees them: ``zh(text.rstrip()).split()``.

    ``lowercase`` is not applied (sacrebleu's default). Raises ``TypeError`` for non-``str`` input.
    """
    if not isinstance(text, str):
        raise TypeError(f"sacrebleu-zh tokenizer expects str, got {type(text).__name__}")
    line = text.strip().translate(_TABLE or _translate_table())
    if "." in line or "," in line:
        line = _RULE_DOT_AFTER.sub(_rep_dot_after, line)
        line = _RULE_DOT_BEFORE.sub(_rep_dot_before, line)
    if "-" in line:
        line = _RULE_DASH.sub(_rep_dash, line)
    return line.split()


def _sacrebleu_zh_tokenize_reference(text: str) -> List[str]:
    """Step-by-step transcription of sacrebleu's code (regex templates), kept for the tests."""
    line = _ZH_CHAR_RE.sub(r" \1 ", text.strip())
    for rx, repl in _13A_REGEXPS:
        line = rx.sub(repl, line)
    return line.split()


class SacrebleuZhTokenizer(ToolTokenizer):
    """`sacrebleu_zh_tokenize` as a zheval tokenizer (no normalisation; signature ``sacrebleu-zh``).

    Its output equals what sacrebleu 2.6.0 ``BLEU(tokenize="zh")`` counts n-grams over. Tokens never contain
    whitespace.
    """

    name = "sacrebleu-zh"
    #: The tool whose tokens this reproduces (named in option errors).
    TOOL = "sacrebleu 2.6.0 tokenize='zh'"
    CONFIG = {"reproduces": "sacrebleu-2.6.0"}
    sacrebleu_tokenize = "zh"
    content_keyed = True  # output fixed by the reproduced tool; _config names it

    def tokenize_normalized(self, text: str) -> List[str]:
        return sacrebleu_zh_tokenize(text)
