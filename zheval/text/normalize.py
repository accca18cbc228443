"""Text normalisation: named, composable steps applied before tokenisation.

Published Chinese BLEU/ROUGE numbers differ mostly through two hidden choices, normalisation and tokenisation.
This module makes the first one explicit: every step has a name, the names of the steps applied go into the
tokenizer fingerprint and into the result signature (``norm:nfkc+zw+punct+space+lower``).

Steps (each documented with an example on its function):

========== ======================================================================= ==============================
name       what it does                                                            example
========== ======================================================================= ==============================
``nfkc``   Unicode NFKC (compatibility forms → canonical), keeping ``…`` and ``‥``  ``２０２４ＡＩ`` → ``2024AI``
``zw``     remove default-ignorable characters (zero-width, bidi, variation         ``今\u200b天`` → ``今天``
           selectors, fillers, tags), U+2800 and U+FFF9–U+FFFB
``punct``  unify full-/half-width variants and curly/straight quotes of one mark   ``“好”！`` → ``"好"!``
``space``  collapse whitespace; drop spaces next to CJK characters (full-width      ``今 天 天 气`` → ``今天天气``
           ASCII forms count as ASCII: ``３ ５`` keeps its space)
``lower``  lower-case Latin letters                                                ``iPhone`` → ``iphone``
``t2s``    Traditional → Simplified Chinese with OpenCC ``t2s`` (opt-in only)       ``頭髮`` → ``头发``
``nopunct`` remove punctuation (opt-in only), keeping a ``.`` the ``char`` tokenizer  ``好的，谢谢！`` → ``好的谢谢``,
           joins into a number (``3.5``); a mark removed between two letters/digits  ``3-5天`` → ``3 5天``,
           leaves a space (never glues); signs go too (``-3`` → ``3``)              ``1,000`` → ``1 000``
========== ======================================================================= ==============================

The conservative default is `DEFAULT_STEPS` = ``("nfkc", "zw", "punct", "space", "lower")``: it only merges
forms that every reader considers the same text. ``t2s`` is never applied unless asked for, because the conversion
is ambiguous (一對多) and must not happen silently; ``nopunct`` changes what is scored and is opt-in too.

Canonical punctuation forms (``punct`` step). NFKC already maps the full-width ASCII block (U+FF01–U+FF5E) to ASCII,
so ``，！？：；（）`` become ``,!?:;()``. The ``punct`` step applies the same mapping itself (so it also works
without ``nfkc``) and unifies what NFKC leaves apart:

* double quotes ``“ ” „ ‟ 〝 〞 〟 ＂`` → ``"``; single quotes ``‘ ’ ‚ ‛ ＇`` → ``'``
* hyphens and dashes ``‐ ‑ ‒ – − －`` → ``-``; the long dash ``― ⸺`` → ``—`` (U+2014)
* wave dashes ``〜 ～`` → ``~``; middle dots ``・ ･ ‧ ∙ •`` → ``·`` (U+00B7)
* the half-width ideographic full stop ``｡`` → ``。`` and half-width comma ``､`` → ``、``

Marks that are distinct Chinese punctuation (``。 、 《 》 「 」 【 】``) are kept as they are: they have no
half-width twin, and mapping ``。`` to ``.`` would confuse it with the decimal point.

Sources: Unicode Standard Annex #15 (normalisation forms); the ``space`` rule follows the W3C *Requirements for
Chinese Text Layout* (no inter-word spaces in Han text).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Callable

from .chars import (
    ATTACHED_MARKS,
    CJK_SIDE_CLASS_BODY,
    DEFAULT_IGNORABLE_RANGES,
    HAN_CLASS_BODY,
    INVISIBLE_CLASS_BODY,
    INVISIBLE_RANGES,
    KANA_CLASS_BODY,
)

__all__ = [
    "opencc_version",
    "DEFAULT_STEPS",
    "STEPS",
    "Normalizer",
    "get_normalizer",
    "normalize",
    "nfkc",
    "remove_invisible",
    "is_blank",
    "describe_blank",
    "BLANK_SCORED",
    "DEFAULT_IGNORABLE_RANGES",
    "INVISIBLE_RANGES",
    "ELLIPSES",
    "unify_punctuation",
    "normalize_space",
    "lower_latin",
    "remove_punctuation",
    "NOPUNCT_WORD",
    "NOPUNCT_MARK",
    "LATIN_UPPER_CLASS_BODY",
]

# ---------------------------------------------------------------------------------------------------------------
# Steps. Each is a pure function str -> str.


#: Characters the ``nfkc`` step keeps as they are (or maps to), instead of NFKC's compatibility decomposition into
#: full stops: ``…`` (U+2026) and ``‥`` (U+2025) are one mark each in Chinese and Japanese text (``……`` is one
#: ellipsis of two characters, not six full stops); their vertical presentation forms ``︙`` (U+FE19) and ``︰``
#: (U+FE30) become them.
ELLIPSES: dict[str, str] = {"\u2026": "\u2026", "\u2025": "\u2025", "\ufe19": "\u2026", "\ufe30": "\u2025"}
_ELLIPSIS_RE = re.compile(f"([{''.join(ELLIPSES)}])")


def nfkc(text: str) -> str:
    """Unicode NFKC normalisation (UAX #15), keeping the ellipses ``…`` and ``‥`` (`ELLIPSES`).

    Example: ``nfkc("２０２４ＡＩ，ｉＯＳ")`` → ``"2024AI,iOS"``; ``nfkc("嗯……")`` → ``"嗯……"`` (plain NFKC gives
    ``"嗯......"``: six ``.`` tokens). NFKC also maps ``①`` to ``1`` and ``㎡`` to ``m2``; the ideographic space
    U+3000 becomes an ordinary space. The text is normalised piecewise between ellipses; an ellipsis is a starter
    that composes with nothing, so this equals NFKC with each ellipsis treated as one unchangeable character.
    """
    if text.isascii():
        return text
    if "\u2026" not in text and "\u2025" not in text and "\ufe19" not in text and "\ufe30" not in text:
        return unicodedata.normalize("NFKC", text)
    parts = _ELLIPSIS_RE.split(text)  # text pieces at even indices, ellipses at odd ones
    return "".join(ELLIPSES[p] if i % 2 else unicodedata.normalize("NFKC", p) for i, p in enumerate(parts))


_INVISIBLE_RE = re.compile(f"[{INVISIBLE_CLASS_BODY}]+")


def remove_invisible(text: str) -> str:
    """Remove the invisible characters of `INVISIBLE_RANGES`: every Unicode default-ignorable code point,
    U+2800 and U+FFF9-U+FFFB.

    That is U+00AD soft hyphen; U+034F combining grapheme joiner; every bidi control (U+061C Arabic letter mark,
    U+200E/U+200F LRM/RLM, U+202A-U+202E embeddings and overrides, U+2066-U+2069 isolates); U+200B-U+200D zero width
    space, non-joiner, joiner; U+2060-U+206F word joiner, invisible operators and deprecated format characters;
    the Hangul fillers U+115F, U+1160, U+3164, U+FFA0; U+17B4-U+17B5; U+180B-U+180F Mongolian free variation
    selectors and vowel separator; the variation selectors U+FE00-U+FE0F and U+E0100-U+E01EF (they choose a glyph,
    not a character: ``葛\\U000e0100城`` → ``葛城``); U+FEFF (BOM); U+FFF0-U+FFF8; U+1BCA0-U+1BCA3; U+1D173-U+1D17A;
    the tag characters and the rest of U+E0000-U+E0FFF; U+2800 braille pattern blank; U+FFF9-U+FFFB interlinear
    annotation anchor, separator and terminator (the annotation text itself is kept).

    Example: ``remove_invisible("\\ufeff今\\u200b天")`` → ``"今天"``. Removing U+200D splits emoji ZWJ sequences
    into their parts, and removing U+FE0F turns ``❤️`` into ``❤``.
    """
    if text.isascii():
        return text
    return _INVISIBLE_RE.sub("", text)


_BLANK_RE = re.compile(f"[\\s{INVISIBLE_CLASS_BODY}]*")


#: What every door says a blank text (`is_blank`) is and how it is scored: as the tokenizer reads it, which is no
#: token under every normalising tokenizer, but a tokenizer that keeps U+200B (``--preset sacrebleu-zh``,
#: ``-t none``, chrF ``--normalize none``) scores ``"\u200b"`` as a token, as sacrebleu does.
BLANK_SCORED = ("blank: empty or only whitespace/invisible characters; scored as the tokenizer reads it: 0 unless "
                "it keeps an invisible character as a token")


def is_blank(text: str) -> bool:
    """**The emptiness rule of a text** (one definition for every door): ``text`` is *blank* -- an empty
    prediction -- when it holds nothing but whitespace and the invisible characters of `INVISIBLE_RANGES` (those
    `remove_invisible`, the ``zw`` step, removes: ``"\u200b"``, ``"\ufeff"``, ``" \u200e "``), so that no
    normalising tokenizer finds a token in it. ``""`` and ``"  "`` are blank; ``"。"`` is not (a punctuation token).

    Who applies it: the text-file commands (``zheval bleu`` / ``rouge`` / ``chrf`` / ``bertscore``: a blank
    hypothesis line is refused unless ``--allow-empty-hypotheses``, then counted and scored as `BLANK_SCORED` says), the
    report's diagnostics of every records and 小黄鸭 door (``empty_predictions``, on the normalised text), the
    Trainer hook's ``empty_predictions`` count. A *reference* is empty by the empty-reference rule
    (`zheval.compute.inputs.check_references`: no token under the tokenizer used), which every blank text meets
    under every normalising tokenizer.
    """
    return text.isspace() or text == "" or (not text.isascii() and _BLANK_RE.fullmatch(text) is not None)


def describe_blank(text: str) -> str:
    """What a blank ``text`` (`is_blank`) holds, for the message that calls it empty: ``""`` for ``""`` and ASCII
    whitespace (nothing to show), else what its characters are and every one of them but the ASCII space (the one
    that prints as itself) in order, escaped with ``ascii``: ``"only invisible characters: '\\u200b'"`` (`` \u200b``),
    ``"only whitespace and invisible characters: '\\xa0\\u200b'"`` (``\xa0\u200b``: NBSP is whitespace, not one of
    `INVISIBLE_RANGES`, and is listed), ``"only whitespace: '\\u3000'"``. One wording for every door."""
    if text.isascii():
        return ""
    shown = text.replace(" ", "")
    spaces = any(c.isspace() for c in shown)
    marks = any(not c.isspace() for c in shown)  # a blank text's other characters are the invisible ones
    kind = ("whitespace and invisible characters" if spaces and marks else "whitespace" if spaces
            else "invisible characters")
    return f"only {kind}: {ascii(shown)}"


def _punct_table() -> dict[int, str]:
    table: dict[int, str] = {}
    # Full-width ASCII punctuation → ASCII (the same mapping NFKC applies), so the step works without nfkc.
    for cp in range(0xFF01, 0xFF5F):
        if not chr(cp - 0xFEE0).isalnum():  # punctuation and symbols only; letters/digits are nfkc's job
            table[cp] = chr(cp - 0xFEE0)
    for target, variants in (('"', "“”„‟〝〞〟＂"), ("'", "‘’‚‛＇"), ("-", "‐‑‒–−－"), ("—", "―⸺"), ("~", "〜～"),
                             ("·", "・･‧∙•")):
        table.update({ord(ch): target for ch in variants})
    table[ord("｡")] = "。"
    table[ord("､")] = "、"
    table[0x3000] = " "  # ideographic space
    return table


PUNCT_TABLE: dict[int, str] = _punct_table()
"""``str.translate`` table of the ``punct`` step (documented in the module docstring)."""


def unify_punctuation(text: str) -> str:
    """Map full-/half-width variants and curly/straight quotes of one mark to one canonical form.

    Canonical forms are listed in the module docstring. Example: ``unify_punctuation("“好”！（对）")`` →
    ``'"好"!(对)'``.
    """
    if text.isascii():
        return text
    return text.translate(PUNCT_TABLE)


_HSPACE_RE = re.compile(r"[^\S\n]+")
_NL_RE = re.compile(r" ?\n[\s]*")


def normalize_space(text: str) -> str:
    """Collapse whitespace and remove spaces next to CJK characters.

    * Runs of horizontal whitespace (including U+3000, tabs) become one space; runs of line breaks (and blank
      lines) become one ``"\\n"`` — line breaks are kept because ROUGE-Lsum splits sentences on them;
      leading/trailing whitespace is stripped.
    * A space with a CJK character (`zheval.text.chars.CJK_SIDE_CLASS_BODY`: Han, kana, CJK punctuation and
      symbols) on either side and a non-space on the other is removed (not next to Hangul: Korean separates words
      with spaces): ``"2024 年"`` → ``"2024年"``, ``"今 天 天 气"`` → ``"今天天气"``, ``"用 iPhone 15 拍"`` →
      ``"用iPhone 15拍"``. Spaces between two Latin words or numbers are kept.
    * The full-width ASCII forms U+FF01-U+FF5E count as their ASCII twins, not as CJK characters (the step works
      the same with or without ``nfkc``): ``"３ ５"`` stays ``"３ ５"`` as ``"3 5"`` does, ``"iPhone １５"`` stays
      ``"iPhone １５"``, ``"a ， b"`` stays ``"a ， b"`` as ``"a , b"`` does; ``"１５ 年"`` → ``"１５年"``.
    * A space is never removed where it separates two word runs of the ``char`` tokenizer: when the last
      character before it that is not an attached mark is a word character and a word character follows it (after
      attached marks; `NOPUNCT_WORD`, `NOPUNCT_MARK`), even when they are CJK-side -- bopomofo, enclosed numbers:
      ``"ㄋㄧˇ ㄏㄠˇ"`` and ``"㈠ ㈡"`` keep their space (removing it made one token of two).
    """
    if text.isascii():
        if "\n" not in text and "\r" not in text:
            return " ".join(text.split())
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _HSPACE_RE.sub(" ", text)
    text = _NL_RE.sub("\n", text).strip()
    if not text.isascii():
        text = _CJK_SPACE_RE.sub(_cjk_space, text)
    return text


#: Regex class body of the Latin letters the ``lower`` step lower-cases (ASCII, Latin-1, Latin Extended-A/B, Latin
#: Extended Additional; each becomes its ``str.lower()``).
LATIN_UPPER_CLASS_BODY = "A-Z\u00c0-\u00de\u0100-\u024f\u1e00-\u1eff"
_LATIN_UPPER_RE = re.compile(f"[{LATIN_UPPER_CLASS_BODY}]+")


def lower_latin(text: str) -> str:
    """Lower-case Latin letters (ASCII, Latin-1, Latin Extended-A/B, Latin Extended Additional).

    Other scripts are left as they are. Example: ``lower_latin("iPhone ÉCOLE")`` → ``"iphone école"``.
    """
    if text.isascii():
        return text.lower()
    return _LATIN_UPPER_RE.sub(lambda m: m.group().lower(), text)


#: Regex class of one *word* character, as the ``char`` tokenizer's `zheval.tokenizers.char.CHAR_WORD` (a letter or
#: digit that is not Han, kana or invisible): two of them in a row are one token (``iOS``, ``2024``, Hangul words).
NOPUNCT_WORD = f"[^\\W_{HAN_CLASS_BODY}{KANA_CLASS_BODY}{INVISIBLE_CLASS_BODY}]"
#: Regex class of one attached mark (`zheval.text.chars.ATTACHED_MARKS`): it joins the token of the character
#: before it, so a word character followed by marks still continues a word run.
NOPUNCT_MARK = f"[{ATTACHED_MARKS}]"
_PUNCT_CHARS_RE = None
_WORD_RE, _MARK_RE = re.compile(NOPUNCT_WORD), re.compile(NOPUNCT_MARK)
#: A single space with a CJK-side character on one side and a non-space on the other (`normalize_space` removes it
#: unless `_cjk_space` finds a word run on both sides); group 1: the marks and word character after it, if any.
_CJK_SPACE_RE = re.compile(f"(?:(?<=[{CJK_SIDE_CLASS_BODY}]) (?=\\S)|(?<=\\S) (?=[{CJK_SIDE_CLASS_BODY}]))"
                           f"(?=({NOPUNCT_MARK}*{NOPUNCT_WORD})?)")


def _cjk_space(m: re.Match) -> str:
    """What a space next to a CJK-side character becomes (`normalize_space`): kept when a word character (after
    attached marks) follows it and the text before it ends in a word run (`_ends_a_word`), else removed."""
    return " " if m.group(1) is not None and _ends_a_word(m.string, m.start()) else ""


def _punct_re() -> tuple:
    """``(punctuation run, left side, right side)`` expressions of the ``nopunct`` step."""
    global _PUNCT_CHARS_RE  # compiled constants, built once on first use
    if _PUNCT_CHARS_RE is None:
        chars = [chr(cp) for cp in range(0x110000) if unicodedata.category(chr(cp)).startswith("P")]
        _PUNCT_CHARS_RE = (re.compile("[" + "".join(re.escape(c) for c in chars) + "]+"),
                           re.compile(f"{NOPUNCT_WORD}|{NOPUNCT_MARK}"), re.compile(f"{NOPUNCT_MARK}*{NOPUNCT_WORD}"))
    return _PUNCT_CHARS_RE


def _punct_run(m: re.Match) -> str:
    """What a maximal run of punctuation becomes (`remove_punctuation`): itself, one space or nothing."""
    text, a, b = m.string, m.start(), m.end()
    if a == 0 or b == len(text):
        return ""
    left = text[a - 1]
    _, left_re, right_re = _punct_re()
    if b - a == 1 and text[a] == "." and "0" <= text[b] <= "9" and _ends_a_word(text, a):
        return "."
    return " " if left_re.match(left) and right_re.match(text, b) else ""


def _ends_a_word(text: str, a: int) -> bool:
    """Whether ``text[:a]`` ends in a word run of the ``char`` tokenizer: its last character that is not an attached
    mark is a word character (`NOPUNCT_WORD`)."""
    i = a - 1
    while i >= 0 and _MARK_RE.match(text, i):
        i -= 1
    return i >= 0 and _WORD_RE.match(text, i) is not None


def remove_punctuation(text: str) -> str:
    """Remove punctuation characters (Unicode general category P*), never joining two tokens that were apart.

    The rule, per maximal run of punctuation characters:

    * a single ``.`` followed by an ASCII digit, where the text before it ends in a word run (its last character
      that is not an attached mark is a `NOPUNCT_WORD`), is kept: the ``char`` tokenizer joins it into the number
      (``3.5``, ``v1.2``, ``a.5``, ``３.5`` are one token each);
    * any other run is removed. It leaves one space when it stood between two characters that would otherwise
      become one word run (`NOPUNCT_WORD`, the ``char`` tokenizer's letters/digits, on the left possibly followed by
      attached marks, on the right possibly after them), so the two words stay two tokens, as with
      ``punct="drop"``: ``3-5`` → ``3 5``, ``10:30`` → ``10 30``, ``2024-05-17`` → ``2024 05 17``, ``1/2`` →
      ``1 2``, ``hello,world`` → ``hello world``, ``1..2`` → ``1 2``. Next to Han/kana, whitespace, symbols or a
      text end it leaves nothing: Han characters are one token each anyway (``好的，谢谢！`` → ``好的谢谢``).

    The digit-group comma is removed too: the ``char`` tokenizer splits ``1,000`` into ``1``, ``,``, ``000``, so
    keeping it left a ``,`` token under "no punctuation"; now ``1,000`` → ``1 000``, the two tokens of
    ``punct="drop"``. A full-width ``．`` or ``，`` is not the ASCII mark (the tokenizer splits ``３．５`` into three
    tokens): ``３．５`` → ``３ ５``, ``１，０００`` → ``１ ０００``; with ``nfkc`` first they are ``3.5`` and ``1 000``.
    ``-``, ``:`` and ``/`` between digits are removed like any other mark (they separate two numbers -- a range, a
    time, a date, a fraction -- unlike the decimal point inside one number), so ``3-5`` and ``3 5`` read alike, and
    ``2024-05-17`` and ``2024/05/17`` too. The ``space`` step then treats the space as any other (kept between
    Latin words or digits).

    **Signs are punctuation too.** A ``-`` or ``.`` at the start of a number is removed with no trace: ``-3度`` →
    ``3度`` (minus three degrees reads as three degrees), ``.5`` → ``5``, ``零下-3`` → ``零下3``; U+2212 ``−`` is a
    symbol (Sm) and is kept by ``nopunct`` alone (``−3`` stays), but the ``punct`` step first makes it ``-``, so
    ``punct+nopunct`` gives ``3``. Use ``nopunct`` only where signs do not matter for the score.

    Example: ``remove_punctuation("好的，谢谢！共3.5元")`` → ``"好的谢谢共3.5元"``; ``remove_punctuation("预计3-5天")``
    → ``"预计3 5天"``. Symbols (categories S*: ``¥``, ``+``, ``~``, emoji) are kept; note that Unicode classes
    ``%`` as punctuation (Po), so it is removed. Opt-in only.
    """
    return _punct_re()[0].sub(_punct_run, text)


class _T2S:
    """Traditional → Simplified conversion with OpenCC's ``t2s`` configuration (the ``opencc`` package)."""

    _converter = None

    @classmethod
    def convert(cls, text: str) -> str:
        if cls._converter is None:
            try:
                import opencc
            except ImportError as exc:  # pragma: no cover - depends on the install
                raise ImportError("the 't2s' normalisation step needs the 'opencc' package: pip install opencc") from exc
            cls._converter = opencc.OpenCC("t2s")
        return cls._converter.convert(text)


def t2s(text: str) -> str:
    """Traditional → Simplified Chinese with OpenCC's ``t2s`` configuration (``opencc`` package).

    Example: ``t2s("頭髮發展")`` → ``"头发发展"``. Opt-in only: the conversion is ambiguous in places, so it is never
    applied unless asked for, and it is named in the signature when it is.

    Raises:
        ImportError: if the ``opencc`` package is not installed.
    """
    if text.isascii():
        return text
    return _T2S.convert(text)


def opencc_version() -> str:
    """The installed OpenCC (``opencc`` distribution) version, e.g. ``"1.4.2"``: its dictionaries decide the
    ``t2s`` step's output, so every signature with ``t2s`` names it (field ``opencc``); ``"unknown"`` when the
    package metadata cannot be read."""
    try:
        from importlib.metadata import version

        return version("opencc")
    except Exception:  # pragma: no cover - depends on the install
        return "unknown"


STEPS: dict[str, Callable[[str], str]] = {
    "nfkc": nfkc,
    "zw": remove_invisible,
    "t2s": t2s,
    "punct": unify_punctuation,
    "nopunct": remove_punctuation,
    "space": normalize_space,
    "lower": lower_latin,
}
"""Registry of normalisation steps by name."""

DEFAULT_STEPS: tuple[str, ...] = ("nfkc", "zw", "punct", "space", "lower")
"""The conservative default: merges only forms that read as the same text. No t2s, no punctuation removal."""

_CANONICAL_ORDER = ("nfkc", "zw", "t2s", "punct", "nopunct", "space", "lower")


@dataclass(frozen=True)
class Normalizer:
    """An ordered, named sequence of normalisation steps; callable ``str -> str``.

    Steps are applied in the canonical order ``nfkc, zw, t2s, punct, nopunct, space, lower`` whatever order they
    are given in, so equal step sets always give equal output and equal fingerprints.

    Args:
        steps: step names from `STEPS`.

    Raises:
        ValueError: an unknown step name (the message lists the valid ones; ``default`` or ``none`` among steps is
            told to stand alone), a step named twice.
        TypeError: ``steps`` a ``str`` (a ``+``-joined string is `get_normalizer`'s) or not a list/tuple of ``str``.
    """

    steps: tuple[str, ...] = DEFAULT_STEPS

    def __post_init__(self) -> None:
        if isinstance(self.steps, str) or not isinstance(self.steps, (list, tuple)) or not all(
                isinstance(s, str) for s in self.steps):
            raise TypeError(f"Normalizer steps must be a tuple of step names, got {self.steps!r} (a '+'-joined "
                            "string: get_normalizer)")
        unknown = [s for s in self.steps if s not in STEPS]
        if unknown:
            alone = [s for s in unknown if s in ("default", "none")]
            hint = (f"; {alone[0]!r} stands alone, it is no step to join with others (the default steps are "
                    f"{'+'.join(DEFAULT_STEPS)})" if alone else "")
            raise ValueError(f"unknown normalisation step(s) {unknown}; valid steps: {list(_CANONICAL_ORDER)}{hint}")
        twice = [s for s in dict.fromkeys(self.steps) if self.steps.count(s) > 1]
        if twice:
            raise ValueError(f"normalize {'+'.join(self.steps)!r} names the step{'s' if len(twice) > 1 else ''} "
                             f"{', '.join(repr(s) for s in twice)} more than once")
        ordered = tuple(s for s in _CANONICAL_ORDER if s in self.steps)
        object.__setattr__(self, "steps", ordered)
        object.__setattr__(self, "_funcs", tuple(STEPS[s] for s in ordered))

    def __call__(self, text: str) -> str:
        if not isinstance(text, str):
            raise TypeError(f"normalisation expects str, got {type(text).__name__}")
        for func in self._funcs:  # type: ignore[attr-defined]
            text = func(text)
        return text

    @property
    def name(self) -> str:
        """``+``-joined step names (``"nfkc+zw+punct+space+lower"``), or ``"none"`` for no step."""
        return "+".join(self.steps) if self.steps else "none"


def get_normalizer(spec=True, *, t2s: bool = False, remove_punct: bool = False) -> Normalizer:
    """Build a `Normalizer` from a user-facing specification.

    Args:
        spec: ``True``/``"default"`` → `DEFAULT_STEPS`; ``False``/``None``/``"none"`` → no step; a
            ``+``-joined string (``"nfkc+space"``) or a sequence of step names; or a `Normalizer`.
        t2s: add the ``t2s`` step (Traditional → Simplified).
        remove_punct: add the ``nopunct`` step.

    Raises:
        ValueError: an empty or blank string, unknown step names, an empty step (``"nfkc++zw"``, ``"nfkc+"``) or a
            step named twice
            (``"nfkc+nfkc"``; break-it F11: they were repaired silently), or an unsupported ``spec`` value.
        TypeError: ``spec`` of an unsupported type.
    """
    if isinstance(spec, Normalizer):
        steps = spec.steps
    elif spec is True or spec == "default":
        steps = DEFAULT_STEPS
    elif spec is False or spec is None or spec == "none":
        steps = ()
    elif isinstance(spec, str):
        if not spec.strip():  # not "an empty step": there is no '+' to blame
            raise ValueError(f"normalize {spec!r} is empty: give a '+'-joined step list such as 'nfkc+space', "
                             "'default', or 'none' for no normalisation")
        steps = tuple(spec.split("+"))
        if "" in steps:
            raise ValueError(f"normalize {spec!r} has an empty step (a '+' at an end or two '+' together)")
    elif isinstance(spec, (list, tuple)):
        if not all(isinstance(s, str) for s in spec):
            raise TypeError(f"normalize steps must be strings, got {spec!r}")
        steps = tuple(spec)
        if "" in steps:
            raise ValueError(f"normalize {spec!r} has an empty step name")
    else:
        raise TypeError(
            f"normalize must be True, False, None, 'default', a '+'-joined string or a list of step names; "
            f"got {type(spec).__name__}"
        )
    twice = [s for s in dict.fromkeys(steps) if steps.count(s) > 1]
    if twice and not isinstance(spec, Normalizer):
        raise ValueError(f"normalize {spec!r} names the step{'s' if len(twice) > 1 else ''} "
                         f"{', '.join(repr(s) for s in twice)} more than once")
    if t2s:  # the flags add their step once, also beside a spec that names it
        steps = steps + ("t2s",)
    if remove_punct:
        steps = steps + ("nopunct",)
    return Normalizer(tuple(dict.fromkeys(steps)))


def normalize(text: str, steps=True) -> str:
    """Normalise ``text`` with the given steps (default `DEFAULT_STEPS`); see `get_normalizer`.

    Raises:
        TypeError: ``text`` is not a ``str`` (``None`` is never turned into ``"None"``).
    """
    if not isinstance(text, str):
        raise TypeError(f"normalize expects str, got {type(text).__name__}")
    return get_normalizer(steps)(text)
