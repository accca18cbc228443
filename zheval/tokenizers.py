"""Chinese tokenizers: ``char``, ``jieba``, ``char`` with protected terms, ``none`` (pre-tokenised) and user tokenizers.

Every tokenizer is

* a plain callable ``text -> list[str]``, and
* a rouge-score tokenizer object (``.tokenize(text) -> list[str]``, the interface of
  ``rouge_score.tokenizers.Tokenizer``, rouge-score 0.1.2),

and owns its configuration and its state (its normaliser, its term list, its private ``jieba.Tokenizer``).

What a tokenizer sees. The built-in ``char`` and ``jieba`` tokenizers receive the text after the default
normalisation :data:`~zheval.normalize.DEFAULT_STEPS` (``nfkc+zw+punct+space+lower``); ``none`` splits the text on
whitespace and normalises nothing unless asked. A **user tokenizer** (a callable ``str -> list[str]`` or an object
with ``.tokenize``) receives the text normalised with :data:`USER_TOKENIZER_STEPS` = ``nfkc+zw+punct+lower`` -- the
default without ``space``, so the spaces of pre-segmented text (``今天 天气 很 好``, ``今日 は いい 天気 です``)
reach it and a whitespace-splitting callable gives the tokens rouge-score and the Hub ``rouge`` module give with the
same callable. ``normalize=`` overrides either default, and the signature's ``norm`` field names the steps that ran.

Caching. A tokenizer whose output is determined by content we can hash -- its name and options, normalisation
steps, term list, jieba version and dictionary *content* -- is :attr:`~BaseTokenizer.content_keyed`: its
:attr:`~BaseTokenizer.fingerprint` is derived from exactly that content and keys a bounded process-wide token cache
(:func:`clear_cache`). A user tokenizer is not (its code can change, and its identity says nothing about its
output): it is run on every text of every call, and nothing is kept between calls (see ``docs/DESIGN.md``,
"Module-level state").

Build one with :func:`get_tokenizer`; a user callable or an object with ``.tokenize`` is accepted wherever a
tokenizer name is.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
import os
import re
import threading
import uuid
from itertools import chain
from typing import Callable, Iterable, Sequence

from . import __version__
from .sentences import ATTACHED_MARK_RANGES, split_sentences, split_token_sentences
from .normalize import DEFAULT_STEPS, HAN_RANGES, INVISIBLE_RANGES, Normalizer, get_normalizer

__all__ = [
    "BaseTokenizer",
    "CharTokenizer",
    "JiebaTokenizer",
    "WhitespaceTokenizer",
    "CallableTokenizer",
    "TOKENIZERS",
    "jieba_cut",
    "attach_marks",
    "USER_TOKENIZER_STEPS",
    "CHAR_HAN",
    "CHAR_WORD",
    "CHAR_MARK",
    "CHAR_OTHER_START",
    "get_tokenizer",
    "clear_cache",
    "cache_info",
]

PUNCT_MODES = ("keep", "drop")

#: Default normalisation of a user tokenizer: :data:`~zheval.normalize.DEFAULT_STEPS` without ``space``, so that the
#: spaces of pre-segmented text reach it.
USER_TOKENIZER_STEPS: tuple[str, ...] = tuple(s for s in DEFAULT_STEPS if s != "space")

# ---------------------------------------------------------------------------------------------------------------
# Bounded token cache keyed by (fingerprint, text), used only by content-keyed tokenizers. Two tokenizers share
# entries only if their fingerprints are equal, i.e. only if their configurations (content) are equal.

_CACHE_MAX = 200_000
_cache: dict[tuple[str, str], tuple] = {}
_cache_lock = threading.Lock()
_cache_stats = {"hits": 0, "misses": 0}


def clear_cache() -> None:
    """Empty the token cache shared by all content-keyed tokenizers of this process."""
    with _cache_lock:
        _cache.clear()
        _cache_stats["hits"] = 0
        _cache_stats["misses"] = 0


def cache_info() -> dict:
    """Return ``{"size", "maxsize", "hits", "misses"}`` of the token cache."""
    return {"size": len(_cache), "maxsize": _CACHE_MAX, **_cache_stats}


def _cache_put(key: tuple[str, str], value) -> None:
    with _cache_lock:
        if len(_cache) >= _CACHE_MAX:
            # drop the oldest half (dicts keep insertion order)
            for k in list(_cache)[: _CACHE_MAX // 2]:
                del _cache[k]
        _cache[key] = value


def _sha(data: str | bytes, n: int = 8) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:n]


# ---------------------------------------------------------------------------------------------------------------
# Base class


class BaseTokenizer:
    """Base of zheval tokenizers: normalise, then split normalised text into tokens.

    Subclasses implement :meth:`tokenize_normalized` and :meth:`_config`. Public calls:

    * ``tok(text)`` / ``tok.tokenize(text)`` → ``list[str]`` (normalised, tokenised, cached if content-keyed);
    * ``tok.normalize(text)`` → ``str``; ``tok.tokenize_normalized(text)`` skips normalisation (used after sentence
      splitting, which happens on normalised text);
    * ``tok.fingerprint`` → short ``str``; ``tok.signature()`` → the ``tok`` signature field;
    * ``tok.content_keyed`` → ``bool`` (class attribute), see below.

    ``content_keyed``: True only for a class that declares ``content_keyed = True`` **in its own body** (it is not
    inherited: a subclass of :class:`CharTokenizer` that changes the rules is not content-keyed until it says so).
    Declaring it promises that :meth:`_config` (with the normalisation steps) covers everything that changes the
    output; the tokens are then kept in the process-wide token cache under :attr:`fingerprint`. Otherwise every
    call computes the tokens and the fingerprint is new on every access, so nothing keyed by it is ever reused.

    Raises (on calls):
        TypeError: the text is not a ``str`` (``None`` is never turned into ``"None"``).
    """

    name = "base"
    content_keyed = False

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls.content_keyed = cls.__dict__.get("content_keyed", False) is True  # never inherited

    def __init__(self, normalizer: Normalizer) -> None:
        self.normalizer = normalizer
        self._fingerprint: str | None = None

    # -- to implement ---------------------------------------------------------------------------------------
    def tokenize_normalized(self, text: str) -> list[str]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _config(self) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- public -----------------------------------------------------------------------------------------------
    def normalize(self, text: str) -> str:
        """Apply this tokenizer's normaliser. Raises TypeError for non-``str`` input."""
        if not isinstance(text, str):
            raise TypeError(f"{self.name} tokenizer expects str, got {type(text).__name__}")
        return self._normalize(text)

    def _normalize(self, text: str) -> str:
        """The normalisation step of this tokenizer (subclasses that split on whitespace override it)."""
        return self.normalizer(text)

    def _batch_char_ids(self) -> bool:
        """True if :func:`zheval.char_batch.char_token_ids` gives exactly this tokenizer's tokens (the plain char
        tokenizer), so a corpus can be tokenised to ids all at once (:func:`zheval.corpus.tokenize_corpus`)."""
        return False

    def tokenize(self, text: str) -> list[str]:
        """Normalise and tokenise ``text``; returns a new list of non-empty, non-whitespace tokens."""
        return list(self.tokenize_cached(text))

    __call__ = tokenize

    def tokenize_cached(self, text: str) -> tuple[str, ...]:
        """Like :meth:`tokenize` but returns a tuple, cached when the tokenizer is content-keyed (do not mutate).
        Raises TypeError for non-str."""
        if not isinstance(text, str):
            raise TypeError(f"{self.name} tokenizer expects str, got {type(text).__name__}")
        if not self.content_keyed:
            return tuple(self.tokenize_normalized(self._normalize(text)))
        key = (self.fingerprint, text)
        hit = _cache.get(key)
        if hit is not None:
            _cache_stats["hits"] += 1
            return hit
        _cache_stats["misses"] += 1
        tokens = tuple(self.tokenize_normalized(self._normalize(text)))
        _cache_put(key, tokens)
        return tokens

    def tokenize_sentences(self, text: str, sentence_split: str = "punct") -> tuple[tuple[str, ...], ...]:
        """Normalise ``text``, split it into sentences and tokenise them (:mod:`zheval.sentences`).

        ``"newline"``: each line of the normalised text is tokenised (rouge-score's rule). ``"punct"``: each line is
        tokenised and its tokens are cut after sentence-final marks
        (:func:`zheval.sentences.split_token_sentences`), so a cut never falls inside a token.

        Returns a tuple of token tuples, one per sentence (cached when content-keyed; do not mutate). Their
        concatenation is the token sequence used for every ROUGE type but Lsum and for BLEU; for the built-in
        tokenizers it equals :meth:`tokenize` (line breaks are whitespace, never inside a token).

        Raises:
            TypeError: non-``str`` text. ValueError: unknown ``sentence_split``.
        """
        if not isinstance(text, str):
            raise TypeError(f"{self.name} tokenizer expects str, got {type(text).__name__}")
        if not self.content_keyed:
            return self._sentences(text, sentence_split)
        fp = self.fingerprint
        key = (f"{fp}|{sentence_split}", text)
        hit = _cache.get(key)
        if hit is not None:
            _cache_stats["hits"] += 1
            return hit  # type: ignore[return-value]
        _cache_stats["misses"] += 1
        result = self._sentences(text, sentence_split)
        _cache_put(key, result)
        if sentence_split == "newline" and self._newline_concat_is_tokenize():
            # Share the tokenisation with tokenize_cached (BLEU after ROUGE tokenises nothing again).
            flat_key = (fp, text)
            if flat_key not in _cache:
                _cache_put(flat_key, result[0] if len(result) == 1 else tuple(chain.from_iterable(result)))
        return result

    def _sentences(self, text: str, sentence_split: str) -> tuple[tuple[str, ...], ...]:
        norm = self._normalize(text)
        if sentence_split == "punct":
            return tuple(s for line in norm.split("\n") for s in self._punct_sentences(line))
        return tuple(tuple(self.tokenize_normalized(s)) for s in split_sentences(norm, sentence_split))

    def _punct_sentences(self, line: str) -> list[tuple[str, ...]]:
        """One normalised line cut by the ``"punct"`` rule, tokenised. The text rule
        (:func:`zheval.sentences.split_sentences`) is used when its cuts fall between tokens -- always for the plain
        ``char`` tokenizer; otherwise (a term, word or pre-tokenised token spanning a sentence-final mark) the line's
        own tokens are cut (:func:`zheval.sentences.split_token_sentences`), so that the sentences' tokens always
        concatenate to the line's tokens."""
        texts = split_sentences(line, "punct")
        pieces = [tuple(self.tokenize_normalized(p)) for p in texts]
        if self._punct_cuts_between_tokens() or texts == [line]:  # no cut inside the line: nothing to check
            return pieces
        whole = tuple(self.tokenize_normalized(line))
        if tuple(chain.from_iterable(pieces)) == whole:
            return pieces
        return [tuple(s) for s in split_token_sentences(whole)]

    def _punct_cuts_between_tokens(self) -> bool:
        """Whether the ``"punct"`` text rule can never cut inside a token of this tokenizer (then the check in
        :meth:`_punct_sentences` is skipped). False unless a subclass knows it."""
        return False

    def _newline_concat_is_tokenize(self) -> bool:
        """Whether tokenising the lines of normalised text one by one and concatenating gives exactly
        ``tokenize_normalized`` of the whole text. False unless a subclass knows it (a token never spans a line
        break); the built-in ``char`` (a term never contains a line break) and ``none`` tokenizers do."""
        return False

    @property
    def fingerprint(self) -> str:
        """Short string (``<name>-<sha8>``) that changes whenever this tokenizer's output could change.

        For a content-keyed tokenizer it is derived from the tokenizer name and options, the normalisation steps,
        the term list (hash), and library versions and data that affect output (zheval; jieba and its dictionary's
        content hash; opencc when ``t2s`` is on) -- equal configurations give equal fingerprints, also across
        processes. For any other tokenizer it is ``<name>-uncached-<random>``, new on every access: nothing keyed
        by it can ever be reused.
        """
        if not self.content_keyed:
            return f"{self.name}-uncached-{uuid.uuid4().hex}"
        if self._fingerprint is None:
            cfg = dict(self._config())
            cfg["norm"] = list(self.normalizer.steps)
            cfg["zheval"] = __version__
            if "t2s" in self.normalizer.steps:
                cfg["opencc"] = _opencc_version()
            self._fingerprint = f"{self.name}-{_sha(json.dumps(cfg, sort_keys=True, ensure_ascii=False))}"
        return self._fingerprint + self._state_suffix()

    def _state_suffix(self) -> str:
        """Part of the fingerprint that follows process state outside this object which changes the output (jieba's
        global force-split words under HMM); '' unless a subclass has such state."""
        return ""

    def signature(self) -> str:
        """The ``tok`` field of the result signature, e.g. ``char``, ``char+terms.3f2a9c1b``, ``jieba-0.42.1+dict.<sha>``."""
        return self.name

    def __repr__(self) -> str:
        return f"{type(self).__name__}(fingerprint={self.fingerprint!r}, norm={self.normalizer.name!r})"

    # Tokenizers are sent to datasets.map workers; keep pickles small and rebuild heavy state lazily.
    def __getstate__(self) -> dict:
        return dict(self.__dict__)


def _opencc_version() -> str:
    try:
        from importlib.metadata import version

        return version("opencc")
    except Exception:  # pragma: no cover - depends on the install
        return "unknown"


# ---------------------------------------------------------------------------------------------------------------
# char: the character classes (each a regular expression matching one character), public so that the batch twin
# zheval.char_batch classifies characters with the very same classes.

_KANA = "\u3040-\u3098\u309b-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9d"  # the voicing marks U+3099/309A are marks


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
    han = _body(HAN_RANGES, bmp_only) + _KANA
    invisible = _body(INVISIBLE_RANGES, bmp_only)
    return (f"[{han}]", f"[{_body(ATTACHED_MARK_RANGES, bmp_only)}]", f"[^\\W_{han}{invisible}]",
            f"[^\\s\\x00-\\x1f\\x7f-\\x9f{invisible}]")


#: One Han or kana character (a token on its own, with the marks that follow it).
CHAR_HAN: str
#: One attached mark (:data:`zheval.sentences.ATTACHED_MARKS`): joins the token of the character before it.
CHAR_MARK: str
#: One letter/digit that is not Han, kana or invisible: word runs (``iOS``, ``DUCK20240517001``, ``2024``, ``é``,
#: Cyrillic, Hangul words).
CHAR_WORD: str
#: One character that can start a token of its own (punctuation, symbols, emoji; a visible mark with no character
#: before it): anything but whitespace, C0/C1 controls and the invisible characters of
#: :data:`zheval.normalize.INVISIBLE_RANGES` (which are never tokens: when one of them is an attached mark, such as a
#: variation selector, it joins the character before it, and is dropped when nothing precedes it).
CHAR_OTHER_START: str
CHAR_HAN, CHAR_MARK, CHAR_WORD, CHAR_OTHER_START = _char_classes(False)


def _char_base(bmp_only: bool) -> str:
    """``HAN | WORD | OTHER``: a Han/kana character, a word run (with decimal/version continuations ".5", so that
    3.5, 3.5GB, 192.168.1.1 stay one token), or another character; each with the marks that follow it."""
    han, mark, word, other = _char_classes(bmp_only)
    return (f"{han}{mark}*|{word}(?:{word}|{mark})*(?:\\.[0-9](?:{word}|{mark})*)*|{other}{mark}*")


_IS_WORD_RE = re.compile(f"{CHAR_HAN}|{CHAR_WORD}")
_HAN_RE = re.compile(CHAR_HAN)
_TRAILING_MARKS_RE = re.compile(f"{CHAR_MARK}+$")


_ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")


def _bmp_only(text: str) -> bool:
    """Whether every character of ``text`` is in the BMP (then the faster BMP-only expressions give the same tokens)."""
    return text.isascii() or _ASTRAL_RE.search(text) is None


def _is_punct_or_symbol(token: str) -> bool:
    """A token with no Han character and no letter/digit (punctuation, symbols, emoji, lone marks)."""
    return _IS_WORD_RE.search(token) is None


def _term_alternation(terms: Iterable[str], bmp_only: bool = False) -> str:
    """The regular expression of protected terms, shared by the ``char`` and ``jieba`` tokenizers: the terms
    longest first (so the longest term that matches wins; equal lengths in code point order), a term ending in a
    letter/digit only where no letter/digit follows it (after attached marks), so ``app`` does not split ``apple``;
    the attached marks that follow a term join it. Scanned together with the ``char`` rules
    (``<terms>|<char token>``), a term is found only where a ``char`` token could start: never inside a word run."""
    _, mark, word, _ = _char_classes(bmp_only)
    alts = []
    for t in sorted(terms, key=lambda s: (-len(s), s)):
        alt = re.escape(t)
        core = _TRAILING_MARKS_RE.sub("", t)
        if core and _IS_WORD_RE.fullmatch(core[-1]) and not _HAN_RE.fullmatch(core[-1]):
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
       does not separate words with spaces);
    3. each run of letters/digits that are not Han or kana is one token (Latin, Cyrillic, Hangul words, …)
       (``DUCK20240517001``, ``iOS``, ``2024``), and a ``.`` followed by a digit continues the run (``3.5``,
       ``3.5GB``, ``192.168.1.1``);
    4. any other character (punctuation, symbols, emoji) is one token — with ``punct="keep"`` (**default**,
       as sacrebleu's ``zh`` tokenizer and the 小黄鸭 three-level tokenizer) — or dropped with ``punct="drop"``
       (a token made only of punctuation, symbols and marks).

    One rule for marks: a combining mark, variation selector or emoji modifier
    (:data:`zheval.sentences.ATTACHED_MARKS`) always stays in the token of the character before it, whatever that
    character is (Han, kana, a letter, a digit, punctuation, an emoji, a protected term): ``e\\u0301`` and, with
    normalisation off, ``葛\\U000e0100`` are one token each. A visible mark with no character before it (at the start
    of the text, after whitespace) is a token of its own.

    Whitespace, control characters (C0/C1) and the invisible characters of
    :data:`zheval.normalize.INVISIBLE_RANGES` (default-ignorable code points, U+2800, U+FFF9–U+FFFB) are never
    tokens, even with normalisation off; the default ``zw`` step removes them before tokenisation anyway.

    Args:
        terms: protected terms (strings); normalised with the same normaliser as the text.
        punct: ``"keep"`` or ``"drop"``.
        normalizer: a :class:`~zheval.normalize.Normalizer` (default :data:`~zheval.normalize.DEFAULT_STEPS`).

    Example: with terms ``[小黄鸭, APP, 快递柜]`` and no lower-casing, ``请打开小黄鸭APP查快递柜取件码！`` →
    ``[请, 打, 开, 小黄鸭, APP, 查, 快递柜, 取, 件, 码, ！]``.

    Raises:
        ValueError: ``punct`` not in ``("keep", "drop")``; an empty or whitespace-only term.
        TypeError: a term that is not a ``str``.
    """

    name = "char"
    content_keyed = True

    def __init__(self, terms: Iterable[str] | None = None, punct: str = "keep", normalizer: Normalizer | None = None):
        super().__init__(normalizer if normalizer is not None else Normalizer(DEFAULT_STEPS))
        if punct not in PUNCT_MODES:
            raise ValueError(f"unknown punct mode {punct!r}; valid: {list(PUNCT_MODES)}")
        self.punct = punct
        self.terms: tuple[str, ...] = _normalize_terms(terms, self.normalizer)
        self._re_bmp = _compile_char_re(self.terms, True)
        self._re: re.Pattern | None = None  # the full expression, compiled when a text needs it

    @property
    def terms_hash(self) -> str:
        """sha256 (8 hex) of the sorted, normalised term list ('' when there are no terms)."""
        return _sha("\n".join(sorted(self.terms))) if self.terms else ""

    def tokenize_normalized(self, text: str) -> list[str]:
        if _bmp_only(text):
            tokens = self._re_bmp.findall(text)
        else:
            if self._re is None:
                self._re = _compile_char_re(self.terms, False)
            tokens = self._re.findall(text)
        if self.punct == "drop":
            tokens = [t for t in tokens if not _is_punct_or_symbol(t)]
        return tokens

    def _batch_char_ids(self) -> bool:
        return type(self) is CharTokenizer and not self.terms and self.punct == "keep"

    def _newline_concat_is_tokenize(self) -> bool:
        # Han, word runs and other tokens never contain whitespace; only a term could contain a line break.
        return type(self) is CharTokenizer and not any("\n" in t for t in self.terms)

    def _punct_cuts_between_tokens(self) -> bool:
        # The text rule cuts after a sentence-final mark and its attached marks, or after closers; without terms a
        # char token holding such a mark is that mark (plus attached marks), and "." inside a word run is always
        # followed by a digit, where the rule does not cut.
        return type(self) is CharTokenizer and not self.terms

    def _config(self) -> dict:
        return {"name": self.name, "punct": self.punct, "terms": self.terms_hash}

    def signature(self) -> str:
        sig = "char"
        if self.terms:
            sig += f"+terms.{self.terms_hash[:6]}"
        if self.punct == "drop":
            sig += "+nopunct"
        return sig

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
    base = _char_base(bmp_only)
    return re.compile(f"{_term_alternation(terms, bmp_only)}|{base}" if terms else base)


def _normalize_terms(terms, normalizer: Normalizer) -> tuple[str, ...]:
    if terms is None:
        return ()
    if isinstance(terms, str):
        raise TypeError("terms must be a list of strings, not a single string")
    out = []
    for i, t in enumerate(terms):
        if not isinstance(t, str):
            raise TypeError(f"terms[{i}] must be str, got {type(t).__name__}")
        nt = normalizer(t)
        if not nt.strip():
            raise ValueError(f"terms[{i}] {t!r} is empty or whitespace after normalisation")
        out.append(nt)
    return tuple(sorted(set(out)))


# ---------------------------------------------------------------------------------------------------------------
# jieba

# Private jieba instances are initialised one at a time (one initialisation per instance, whatever the number of
# threads), and jieba's start-up log lines are dropped for the initialising thread only, by a filter on jieba's
# logger (never by changing the logger's level, which other threads share).
_JIEBA_INIT_LOCK = threading.Lock()
_QUIET = threading.local()
_QUIET_FILTER: logging.Filter | None = None


class _QuietInitialisingThread(logging.Filter):
    """Drops jieba's log records made by a thread that is initialising a private zheval jieba instance."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(_QUIET, "on", False)


@contextlib.contextmanager
def _quiet_jieba():
    """Silence jieba's start-up log lines made by this thread while a private dictionary loads (call with
    ``_JIEBA_INIT_LOCK`` held)."""
    import jieba

    global _QUIET_FILTER
    if _QUIET_FILTER is None:
        _QUIET_FILTER = _QuietInitialisingThread()
        jieba.default_logger.addFilter(_QUIET_FILTER)
    _QUIET.on = True
    try:
        yield
    finally:
        _QUIET.on = False


# sha256 of jieba's bundled dictionary, per (path, jieba version): read once per process (the package's data file
# does not change under a running process); a user dictionary is read and hashed on every get_tokenizer call.
_BUNDLED_DICT_SHA: dict[tuple[str, str], str] = {}


def _read_dictionary(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def _dictionary_sha(path: str, bundled: bool, version: str) -> str:
    """sha256 (hex) of a jieba dictionary file's content."""
    if bundled:
        key = (path, version)
        sha = _BUNDLED_DICT_SHA.get(key)
        if sha is None:
            sha = _BUNDLED_DICT_SHA[key] = hashlib.sha256(_read_dictionary(path)).hexdigest()
        return sha
    return hashlib.sha256(_read_dictionary(path)).hexdigest()


# jieba 0.42.1's own block expressions (jieba/__init__.py re_han_default, re_skip_default), copied so that code which
# replaces jieba's module-level ones (a known way to keep spaces inside words) never changes our segmentation.
_JIEBA_RE_HAN = re.compile("([\u4E00-\u9FD5a-zA-Z0-9+#&\\._%\\-]+)", re.U)
_JIEBA_RE_SKIP = re.compile("(\r\n|\\s)", re.U)


def jieba_cut(tk, text: str, hmm: bool) -> Iterable[str]:
    """``tk.cut(text, cut_all=False, HMM=hmm)`` of jieba 0.42.1 (``tk`` a ``jieba.Tokenizer``), with its block
    expressions fixed: the same words, whitespace included, whatever other code did to jieba's module-level
    ``re_han_default``/``re_skip_default``. Yields ``str``."""
    cut_block = tk._Tokenizer__cut_DAG if hmm else tk._Tokenizer__cut_DAG_NO_HMM
    for blk in _JIEBA_RE_HAN.split(text):
        if not blk:
            continue
        if _JIEBA_RE_HAN.match(blk):
            yield from cut_block(blk)
        else:
            for x in _JIEBA_RE_SKIP.split(blk):
                if _JIEBA_RE_SKIP.match(x):
                    yield x
                else:
                    yield from x


_MARK_CHARS = frozenset(chr(c) for a, b in ATTACHED_MARK_RANGES for c in range(a, b + 1))
_NEVER_CHARS = frozenset(
    [chr(c) for a, b in INVISIBLE_RANGES for c in range(a, b + 1)]
    + [chr(c) for c in range(0x3000 + 1) if chr(c).isspace() or c <= 0x1F or 0x7F <= c <= 0x9F]
)


def attach_marks(words: Iterable[str]) -> list[str]:
    """The ``char`` tokenizer's rules for marks and invisible characters, applied to words that concatenate to a
    text (jieba's output, whitespace words included): a word made only of attached marks
    (:data:`CHAR_MARK`) joins the word before it, unless whitespace or an invisible character separates them; with
    nothing before it, its visible marks are a word of their own (invisible ones, such as variation selectors, are
    dropped); words made only of whitespace, C0/C1 controls or invisible characters
    (:data:`zheval.normalize.INVISIBLE_RANGES`) are dropped. Returns the list of words."""
    out: list[str] = []
    joinable = False
    marks, never = _MARK_CHARS, _NEVER_CHARS
    for w in words:
        if not w:
            continue
        first = w[0]
        if first in marks and all(c in marks for c in w):
            if joinable:
                out[-1] += w
                continue
            w = "".join(c for c in w if c not in never)
            if not w:
                continue
        elif first in never and all(c in never for c in w):
            joinable = False
            continue
        out.append(w)
        joinable = True
    return out


def _addable_term(term: str) -> bool:
    """Whether a term may be added to a private jieba's dictionary: not when it starts or ends with a letter/digit,
    because jieba would then cut it out of longer word runs (``app`` out of ``apple``), which the term rule forbids;
    every occurrence the rule allows is cut out before jieba runs anyway."""
    core = _TRAILING_MARKS_RE.sub("", term)
    return bool(core) and not any(_IS_WORD_RE.fullmatch(c) and not _HAN_RE.fullmatch(c) for c in (core[0], core[-1]))


class JiebaTokenizer(BaseTokenizer):
    """Word-level tokenizer with a **private** ``jieba.Tokenizer`` instance (jieba 0.42.1).

    * Never uses the global ``jieba.dt`` (which other code mutates with ``jieba.add_word``): each instance loads its
      own dictionary (lazily, on first use, once even when several threads start at the same moment; about 1 s,
      cached by jieba as a marshal file in the temp directory whose name holds the dictionary's content hash).
    * The dictionary is identified by its **content** (sha256), read when the tokenizer is built: a dictionary file
      edited between two :func:`get_tokenizer` calls gives a new tokenizer and the new tokens; a file edited between
      building a tokenizer and its first use is an error (never the old tokens under the new name).
    * HMM new-word discovery is **off by default** (``hmm=False``): it changes segmentation on a hidden flag and the
      maintainers advise it off for reproducible segmentation. With HMM on, jieba's process-wide force-split word set
      (``jieba.del_word`` anywhere in the process adds to it) is part of the fingerprint and the signature.
    * Marks and invisible characters follow the ``char`` tokenizer's rule (:func:`attach_marks`): a combining mark,
      variation selector or emoji modifier stays in the word before it; whitespace, controls and invisible
      characters are never tokens. No start-up messages are printed; output is deterministic across processes.
    * ``terms`` are protected by cutting the normalised text at each term occurrence first, with the ``char``
      tokenizer's term rule (longest term first; a term ending in a letter/digit only at a word boundary; never
      inside a word run): each occurrence is one token (``iOS 17``, ``C++ 20`` included, which jieba itself would
      split at the space or the ``+``), and jieba segments only the text between occurrences. Terms that neither
      start nor end with a letter/digit are also added as words of the private instance (``add_word``, as before
      terms were cut out); the others are not, since jieba would then cut them out of longer word runs
      (``app`` out of ``apple``).
    * ``punct="drop"`` removes tokens made only of punctuation/symbols.

    Args:
        terms: protected words; ``hmm``: jieba's HMM flag; ``dictionary``: path of a jieba dictionary file
            (default: jieba's bundled ``dict.txt``); ``punct``: ``"keep"`` (default) or ``"drop"``;
            ``normalizer``: a :class:`~zheval.normalize.Normalizer`.

    Raises:
        ValueError/TypeError: as :class:`CharTokenizer` for ``punct`` and ``terms``; FileNotFoundError for a missing
        dictionary; RuntimeError (on first use) when the dictionary file changed since the tokenizer was built.
    """

    name = "jieba"
    content_keyed = True

    def __init__(
        self,
        terms: Iterable[str] | None = None,
        hmm: bool = False,
        dictionary: str | None = None,
        punct: str = "keep",
        normalizer: Normalizer | None = None,
    ):
        super().__init__(normalizer if normalizer is not None else Normalizer(DEFAULT_STEPS))
        import jieba

        if punct not in PUNCT_MODES:
            raise ValueError(f"unknown punct mode {punct!r}; valid: {list(PUNCT_MODES)}")
        if not isinstance(hmm, bool):
            raise TypeError(f"jieba_hmm must be a bool, got {type(hmm).__name__}")
        self.punct = punct
        self.hmm = hmm
        self.dictionary = os.path.abspath(dictionary) if dictionary else jieba.DEFAULT_DICT_NAME
        if dictionary and not os.path.isfile(self.dictionary):
            raise FileNotFoundError(f"jieba dictionary not found: {self.dictionary}")
        self.terms: tuple[str, ...] = _normalize_terms(terms, self.normalizer)
        self.jieba_version = jieba.__version__
        self.dict_sha = _dictionary_sha(self._dict_path(), not dictionary, self.jieba_version)
        self._jieba = None
        self._term_re = None

    def _dict_path(self) -> str:
        import jieba

        if os.path.isabs(self.dictionary):
            return self.dictionary
        return os.path.join(os.path.dirname(jieba.__file__), self.dictionary)

    @property
    def dict_hash(self) -> str:
        """sha256 (8 hex) of the dictionary file's content when the tokenizer was built."""
        return self.dict_sha[:8]

    @property
    def terms_hash(self) -> str:
        return _sha("\n".join(self.terms)) if self.terms else ""

    def _instance(self):
        tk = self._jieba
        if tk is None:
            with _JIEBA_INIT_LOCK:
                if self._jieba is None:
                    self._jieba = self._load()
                tk = self._jieba
        return tk

    def _load(self):
        """A private ``jieba.Tokenizer`` of this dictionary content, with the terms added (lock held)."""
        import jieba

        path = self._dict_path()
        data = _read_dictionary(path)
        sha = hashlib.sha256(data).hexdigest()
        if sha != self.dict_sha:
            raise RuntimeError(
                f"jieba dictionary {path} changed since this tokenizer was built (sha256 {self.dict_sha[:12]}... "
                f"then, {sha[:12]}... now); build it again with get_tokenizer (which reads the file on every call)"
            )
        tk = jieba.Tokenizer(path)
        tk.cache_file = f"jieba.zheval-{self.jieba_version}-{sha[:32]}.cache"  # keyed by content, not path/mtime

        def dict_file():  # jieba builds its prefix dictionary from the very bytes hashed above
            fh = io.BytesIO(data)
            fh.name = path
            return fh

        tk.get_dict_file = dict_file
        with _quiet_jieba():
            tk.initialize()
            for t in self.terms:
                if _addable_term(t):
                    tk.add_word(t)
        return tk

    def _cut(self, text: str) -> list[str]:
        return attach_marks(jieba_cut(self._instance(), text, self.hmm))

    def tokenize_normalized(self, text: str) -> list[str]:
        if not text:
            return []
        if self._term_re is None and self.terms:
            # (a quick search for any term, then the scan that finds the occurrences the term rule allows)
            self._term_re = (re.compile("|".join(map(re.escape, self.terms))),) + tuple(
                re.compile(f"({_term_alternation(self.terms, bmp)})|{_char_base(bmp)}") for bmp in (False, True))
        if not self.terms or self._term_re[0].search(text) is None:
            tokens = self._cut(text)
        else:
            tokens = []
            pos = 0
            for m in self._term_re[1 + _bmp_only(text)].finditer(text):
                term = m.group(1)
                if term is None:
                    continue
                if m.start() > pos:
                    tokens.extend(self._cut(text[pos:m.start()]))
                tokens.append(term)
                pos = m.end()
            if pos < len(text):
                tokens.extend(self._cut(text[pos:]))
        if self.punct == "drop":
            tokens = [t for t in tokens if not _is_punct_or_symbol(t)]
        return tokens

    def _force_split_sha(self) -> str:
        """sha (8 hex) of jieba's process-wide force-split words when HMM is on and the set is not empty, else ''."""
        if not self.hmm:
            return ""
        from jieba import finalseg

        words = finalseg.Force_Split_Words
        return _sha("\n".join(sorted(words))) if words else ""

    def _state_suffix(self) -> str:
        fs = self._force_split_sha()
        return f"-fs{fs}" if fs else ""

    def _config(self) -> dict:
        return {
            "name": self.name,
            "jieba": self.jieba_version,
            "dict": self.dict_sha,
            "hmm": self.hmm,
            "terms": self.terms_hash,
            "punct": self.punct,
        }

    def signature(self) -> str:
        sig = f"jieba-{self.jieba_version}+dict.{self.dict_hash[:6]}"
        sig += "+hmm" if self.hmm else "+nohmm"
        fs = self._force_split_sha()
        if fs:
            sig += f"+forcesplit.{fs[:6]}"
        if self.terms:
            sig += f"+terms.{self.terms_hash[:6]}"
        if self.punct == "drop":
            sig += "+nopunct"
        return sig

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_jieba"] = None  # rebuilt lazily in the worker; never ship the 350k-entry FREQ dict
        state["_term_re"] = None
        return state


# ---------------------------------------------------------------------------------------------------------------
# none (pre-tokenised)


class WhitespaceTokenizer(BaseTokenizer):
    """Already-tokenised text: split on whitespace (``str.split()``).

    Its default normaliser is **empty** (the user's tokens are taken as they are); with ``normalize=`` each token is
    normalised on its own, so no step (``space`` removes spaces next to CJK characters) can merge two tokens.
    """

    name = "none"
    content_keyed = True

    def __init__(self, punct: str = "keep", normalizer: Normalizer | None = None):
        super().__init__(normalizer if normalizer is not None else Normalizer(()))
        if punct not in PUNCT_MODES:
            raise ValueError(f"unknown punct mode {punct!r}; valid: {list(PUNCT_MODES)}")
        self.punct = punct

    def _normalize(self, text: str) -> str:
        """Normalise each whitespace-separated token on its own, keeping line breaks: normalisation can never
        merge two of the user's tokens (the ``space`` step would otherwise join ``今天 天气`` into one token)."""
        if not self.normalizer.steps:
            return text
        norm = self.normalizer
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        return "\n".join(" ".join(x for t in line.split() for x in norm(t).split()) for line in lines)

    def tokenize_normalized(self, text: str) -> list[str]:
        tokens = text.split()
        if self.punct == "drop":
            tokens = [t for t in tokens if not _is_punct_or_symbol(t)]
        return tokens

    def _newline_concat_is_tokenize(self) -> bool:
        return type(self) is WhitespaceTokenizer  # str.split() treats a line break as any other whitespace

    def _config(self) -> dict:
        return {"name": self.name, "punct": self.punct}

    def signature(self) -> str:
        return "none" + ("+nopunct" if self.punct == "drop" else "")


# ---------------------------------------------------------------------------------------------------------------
# user callables


class CallableTokenizer(BaseTokenizer):
    """Wrap a user callable ``str -> list[str]`` or an object with ``.tokenize(str)``.

    The user's tokenizer receives the text normalised with :data:`USER_TOKENIZER_STEPS` (``nfkc+zw+punct+lower``:
    the default steps without ``space``, so spaces between pre-segmented words reach it; a whitespace-splitting
    callable gives the tokens it gives under rouge-score and the Hub ``rouge`` module wherever these steps do not
    change the words), unless ``normalizer`` says otherwise (``get_tokenizer(fn, normalize=...)``; ``normalize=True``
    is the full default, ``space`` included). Lines are then tokenised one by one for ROUGE-Lsum. Empty and
    whitespace-only tokens it returns are removed.

    It is **not** content-keyed: its tokens are computed afresh on every call (never taken from the process-wide
    cache, whose key could only be the object's identity), and its fingerprint is new on every access. Its
    signature ``custom:<qualified name>`` names it but cannot identify its code: such numbers are reproducible only
    with the same code.

    Raises:
        TypeError: the object is neither callable nor has ``.tokenize``; on calls, when it returns something other
            than a list/tuple of ``str``.
    """

    name = "custom"

    def __init__(self, obj, normalizer: Normalizer | None = None):
        super().__init__(normalizer if normalizer is not None else Normalizer(USER_TOKENIZER_STEPS))
        if hasattr(obj, "tokenize") and callable(obj.tokenize):
            self._fn = obj.tokenize
        elif callable(obj):
            self._fn = obj
        else:
            raise TypeError(f"a tokenizer must be a name, a callable or an object with .tokenize; got {type(obj).__name__}")
        self.obj = obj
        self.obj_name = getattr(obj, "__qualname__", None) or type(obj).__qualname__

    def tokenize_normalized(self, text: str) -> list[str]:
        out = self._fn(text)
        if not isinstance(out, (list, tuple)):
            raise TypeError(f"custom tokenizer {self.obj_name} returned {type(out).__name__}, expected list[str]")
        for j, t in enumerate(out):
            if not isinstance(t, str):
                raise TypeError(f"custom tokenizer {self.obj_name} returned a {type(t).__name__} at token {j}")
        return [t for t in out if t.strip()]

    def _config(self) -> dict:
        return {"name": self.name, "obj": self.obj_name}

    def signature(self) -> str:
        return f"custom:{self.obj_name}"


# ---------------------------------------------------------------------------------------------------------------
# registry

TOKENIZERS: dict[str, type[BaseTokenizer]] = {
    "char": CharTokenizer,
    "jieba": JiebaTokenizer,
    "none": WhitespaceTokenizer,
}
"""Registry of tokenizer names. ``char`` with ``terms`` is the three-level tokenizer."""

_OPTIONS = {
    "char": {"terms", "punct"},
    "jieba": {"terms", "jieba_hmm", "jieba_dict", "punct"},
    "none": {"punct"},
}

# Built tokenizers by everything that changes their output (name, terms, punct, HMM, normalisation steps, and for
# jieba the dictionary's path and content hash), so equal requests share one private jieba; the oldest is dropped
# beyond _INSTANCES_MAX (a jieba instance holds its dictionary, tens of MB).
_INSTANCES_MAX = 16
_instances: dict[tuple, BaseTokenizer] = {}
_instances_lock = threading.Lock()


def get_tokenizer(
    tokenizer: str | BaseTokenizer | Callable[[str], Sequence[str]] = "char",
    *,
    terms: Iterable[str] | None = None,
    punct: str = "keep",
    jieba_hmm: bool = False,
    jieba_dict: str | None = None,
    normalize=None,
    t2s: bool = False,
) -> BaseTokenizer:
    """Return a tokenizer for a name, a zheval tokenizer, or a user callable/object.

    Args:
        tokenizer: ``"char"``, ``"jieba"``, ``"none"``, a :class:`BaseTokenizer` (returned as is; other options
            must then be left at their defaults), a callable ``str -> list[str]`` or an object with ``.tokenize``
            (wrapped in a new :class:`CallableTokenizer` on every call; it receives the text normalised with
            :data:`USER_TOKENIZER_STEPS` = ``nfkc+zw+punct+lower`` -- no ``space`` step, so the spaces of
            pre-segmented text reach it -- and is never cached across calls).
        terms: protected terms (``char`` and ``jieba``).
        punct: ``"keep"`` (default) or ``"drop"`` punctuation/symbol tokens.
        jieba_hmm: jieba's HMM new-word discovery (default off); ``jieba_dict``: a jieba dictionary path (its content
            is read and hashed on every call, so an edited file gives a new tokenizer).
        normalize: ``None`` → the tokenizer's default (:data:`~zheval.normalize.DEFAULT_STEPS`; none for ``"none"``;
            :data:`USER_TOKENIZER_STEPS` for a user tokenizer); ``True``/``False``/step names as
            :func:`zheval.normalize.get_normalizer` (``True`` is :data:`~zheval.normalize.DEFAULT_STEPS`).
        t2s: add Traditional → Simplified conversion (off by default; never silent).

    Returns:
        A :class:`BaseTokenizer`. Equal arguments naming a built-in tokenizer return the same instance (one private
        jieba per configuration and dictionary content).

    Raises:
        ValueError: unknown tokenizer name (lists the valid ones), an option that does not apply to the chosen
            tokenizer, or an invalid option value.
        TypeError: an argument of the wrong type. FileNotFoundError: a missing ``jieba_dict``.
    """
    if isinstance(tokenizer, BaseTokenizer):
        if terms or punct != "keep" or jieba_hmm or jieba_dict or normalize is not None or t2s:
            raise ValueError("tokenizer options cannot be combined with an already-built tokenizer instance")
        return tokenizer
    if tokenizer is None:
        raise TypeError("tokenizer must be a name, a callable or an object with .tokenize, not None")
    for flag_name, flag in (("t2s", t2s), ("jieba_hmm", jieba_hmm)):
        if not isinstance(flag, bool):
            raise TypeError(f"{flag_name} must be True or False, got {flag!r}")
    if not isinstance(tokenizer, str):
        norm = get_normalizer(USER_TOKENIZER_STEPS if normalize is None else normalize, t2s=t2s)
        if terms or jieba_hmm or jieba_dict or punct != "keep":
            raise ValueError("terms/punct/jieba options apply to built-in tokenizers, not to a custom tokenizer")
        return CallableTokenizer(tokenizer, norm)
    if tokenizer not in TOKENIZERS:
        raise ValueError(f"unknown tokenizer {tokenizer!r}; valid: {sorted(TOKENIZERS)} or a callable")
    given = {
        "terms": bool(terms),
        "jieba_hmm": bool(jieba_hmm),
        "jieba_dict": jieba_dict is not None,
        "punct": punct != "keep",
    }
    bad = [k for k, v in given.items() if v and k not in _OPTIONS[tokenizer]]
    if bad:
        raise ValueError(f"option(s) {bad} do not apply to tokenizer {tokenizer!r} (it takes {sorted(_OPTIONS[tokenizer])})")
    if punct not in PUNCT_MODES:
        raise ValueError(f"unknown punct mode {punct!r}; valid: {list(PUNCT_MODES)}")
    if terms is not None and isinstance(terms, str):
        raise TypeError("terms must be a list of strings, not a single string")
    default_norm = False if tokenizer == "none" else True
    norm = get_normalizer(default_norm if normalize is None else normalize, t2s=t2s)
    terms_key = tuple(terms) if terms else ()
    dict_key: tuple = ()
    if tokenizer == "jieba":
        dict_key = _jieba_dict_key(jieba_dict)
    key = (tokenizer, terms_key, punct, jieba_hmm, dict_key, norm.steps)
    inst = _instances.get(key)
    if inst is None:
        if tokenizer == "char":
            inst = CharTokenizer(terms=terms_key, punct=punct, normalizer=norm)
        elif tokenizer == "jieba":
            inst = JiebaTokenizer(terms=terms_key, hmm=jieba_hmm, dictionary=jieba_dict, punct=punct, normalizer=norm)
            # the key of what was actually read (the file may have changed since dict_key was computed)
            key = (tokenizer, terms_key, punct, jieba_hmm, (dict_key[0], inst.dict_sha), norm.steps)
        else:
            inst = WhitespaceTokenizer(punct=punct, normalizer=norm)
        with _instances_lock:
            while len(_instances) >= _INSTANCES_MAX:
                del _instances[next(iter(_instances))]
            _instances[key] = inst
    return inst


def _jieba_dict_key(jieba_dict: str | None) -> tuple:
    """``(absolute path or None, sha256 of the content)`` of a jieba dictionary (the bundled one for None)."""
    import jieba

    if jieba_dict is None:
        path = os.path.join(os.path.dirname(jieba.__file__), jieba.DEFAULT_DICT_NAME)
        return (None, _dictionary_sha(path, True, jieba.__version__))
    path = os.path.abspath(jieba_dict)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"jieba dictionary not found: {path}")
    return (path, _dictionary_sha(path, False, jieba.__version__))
