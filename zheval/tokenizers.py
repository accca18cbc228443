"""Chinese tokenizers: ``char``, ``jieba``, ``char`` with protected terms, and ``none`` (pre-tokenised).

Every tokenizer is

* a plain callable ``text -> list[str]``, and
* a rouge-score tokenizer object (``.tokenize(text) -> list[str]``, the interface of
  ``rouge_score.tokenizers.Tokenizer``, rouge-score 0.1.2),

and owns its configuration and its state (its normaliser, its term list, its private ``jieba.Tokenizer``). Its
:attr:`~BaseTokenizer.fingerprint` changes whenever its output could change, and keys the bounded token cache
(:func:`clear_cache`) and the ``tok`` field of the result signature.

Build one with :func:`get_tokenizer`; a user callable ``str -> list[str]`` or an object with ``.tokenize`` is
accepted wherever a tokenizer name is.
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
from itertools import chain
from typing import Callable, Iterable, Sequence

from . import __version__
from .sentences import ATTACHED_MARKS, split_sentences, split_token_sentences
from .normalize import HAN_CLASS_BODY, INVISIBLE_CLASS_BODY, DEFAULT_STEPS, Normalizer, get_normalizer

__all__ = [
    "BaseTokenizer",
    "CharTokenizer",
    "JiebaTokenizer",
    "WhitespaceTokenizer",
    "CallableTokenizer",
    "TOKENIZERS",
    "get_tokenizer",
    "clear_cache",
    "cache_info",
]

PUNCT_MODES = ("keep", "drop")

# ---------------------------------------------------------------------------------------------------------------
# Bounded token cache keyed by (fingerprint, text). Two tokenizers share entries only if their fingerprints are
# equal, i.e. only if they are guaranteed to produce the same output.

_CACHE_MAX = 200_000
_cache: dict[tuple[str, str], tuple] = {}
_cache_lock = threading.Lock()
_cache_stats = {"hits": 0, "misses": 0}


def clear_cache() -> None:
    """Empty the token cache shared by all tokenizers of this process."""
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

    * ``tok(text)`` / ``tok.tokenize(text)`` → ``list[str]`` (normalised, tokenised, cached);
    * ``tok.normalize(text)`` → ``str``; ``tok.tokenize_normalized(text)`` skips normalisation (used after sentence
      splitting, which happens on normalised text);
    * ``tok.fingerprint`` → short stable ``str``; ``tok.signature()`` → the ``tok`` signature field.

    Raises (on calls):
        TypeError: the text is not a ``str`` (``None`` is never turned into ``"None"``).
    """

    name = "base"

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
        """Like :meth:`tokenize` but returns the cached tuple (do not mutate). Raises TypeError for non-str."""
        if not isinstance(text, str):
            raise TypeError(f"{self.name} tokenizer expects str, got {type(text).__name__}")
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

        Returns a tuple of token tuples, one per sentence (cached; do not mutate). Their concatenation is the
        token sequence used for every ROUGE type but Lsum and for BLEU; for the built-in tokenizers it equals
        :meth:`tokenize` (line breaks are whitespace, never inside a token).

        Raises:
            TypeError: non-``str`` text. ValueError: unknown ``sentence_split``.
        """
        if not isinstance(text, str):
            raise TypeError(f"{self.name} tokenizer expects str, got {type(text).__name__}")
        key = (f"{self.fingerprint}|{sentence_split}", text)
        hit = _cache.get(key)
        if hit is not None:
            _cache_stats["hits"] += 1
            return hit  # type: ignore[return-value]
        _cache_stats["misses"] += 1
        norm = self._normalize(text)
        if sentence_split == "punct":
            result = tuple(s for line in norm.split("\n") for s in self._punct_sentences(line))
        else:
            result = tuple(tuple(self.tokenize_normalized(s)) for s in split_sentences(norm, sentence_split))
        _cache_put(key, result)
        if sentence_split == "newline" and self._newline_concat_is_tokenize():
            # Share the tokenisation with tokenize_cached (BLEU after ROUGE tokenises nothing again).
            flat_key = (self.fingerprint, text)
            if flat_key not in _cache:
                _cache_put(flat_key, result[0] if len(result) == 1 else tuple(chain.from_iterable(result)))
        return result

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
        """Short stable string (``<name>-<sha8>``) that changes whenever this tokenizer's output could change.

        It covers the tokenizer name and options, the normalisation steps, the term list (hash), and library
        versions that affect output (zheval; jieba and its dictionary hash; opencc when ``t2s`` is on).
        """
        if self._fingerprint is None:
            cfg = dict(self._config())
            cfg["norm"] = list(self.normalizer.steps)
            cfg["zheval"] = __version__
            if "t2s" in self.normalizer.steps:
                cfg["opencc"] = _opencc_version()
            self._fingerprint = f"{self.name}-{_sha(json.dumps(cfg, sort_keys=True, ensure_ascii=False))}"
        return self._fingerprint

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
# char


_MARKS = ATTACHED_MARKS
# A word run: letters/digits that are not Han (ASCII runs like iOS, DUCK20240517001, 2024; also é, Cyrillic, kana),
# with decimal/version continuations ".5" so that 3.5, 3.5GB, 192.168.1.1 stay one token.
_KANA = "\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9d"
_WORD_CHAR = f"[^\\W_{HAN_CLASS_BODY}{_KANA}]"
_WORD = f"{_WORD_CHAR}(?:{_WORD_CHAR}|[{_MARKS}])*(?:\\.[0-9](?:{_WORD_CHAR}|[{_MARKS}])*)*"
_HAN = f"[{HAN_CLASS_BODY}{_KANA}]"
# Anything else that is not whitespace nor an invisible format character: one token (a mark or emoji modifier
# that follows stays attached to it).
_OTHER_START = f"[^\\s\\x00-\\x1f\\x7f-\\x9f{INVISIBLE_CLASS_BODY}\\U000e0000-\\U000e007f]"
_OTHER = f"{_OTHER_START}[{_MARKS}]*"
_CHAR_BASE = f"{_HAN}|{_WORD}|{_OTHER}"
_IS_WORD_RE = re.compile(f"(?:{_HAN}|{_WORD_CHAR})")


def _is_punct_or_symbol(token: str) -> bool:
    """A token with no Han character and no letter/digit (punctuation, symbols, emoji)."""
    return _IS_WORD_RE.search(token) is None


class CharTokenizer(BaseTokenizer):
    """Character-level Chinese tokenizer, optionally with a protected-term lexicon ("three-level" tokenizer).

    Rules, applied left to right on normalised text with one compiled regular expression:

    1. if ``terms`` are given: a protected term at the current position is one token, the **longest** term wins
       (terms ending in a letter/digit only match at a word boundary, so ``APP`` does not split ``APPLE``);
    2. every Han character is one token: CJK Unified Ideographs including Extension A through the newest extension
       this Python's ``unicodedata`` knows, Compatibility Ideographs (and Supplement), and 〇 (U+3007);
       characters outside the BMP (𠮷 U+20BB7) are one token; so is every kana character (Japanese, like Chinese,
       does not separate words with spaces);
    3. each run of letters/digits that are not Han or kana is one token (Latin, Cyrillic, Hangul words, …) (``DUCK20240517001``, ``iOS``, ``2024``), and a
       ``.`` followed by a digit continues the run (``3.5``, ``3.5GB``, ``192.168.1.1``);
    4. any other character (punctuation, symbols, emoji) is one token — with ``punct="keep"`` (**default**,
       as sacrebleu's ``zh`` tokenizer and the 小黄鸭 three-level tokenizer) — or dropped with ``punct="drop"``;
       combining marks and emoji modifiers stay attached to the character before them.

    Whitespace, control characters (C0/C1) and invisible format characters are never tokens.

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

    def __init__(self, terms: Iterable[str] | None = None, punct: str = "keep", normalizer: Normalizer | None = None):
        super().__init__(normalizer if normalizer is not None else Normalizer(DEFAULT_STEPS))
        if punct not in PUNCT_MODES:
            raise ValueError(f"unknown punct mode {punct!r}; valid: {list(PUNCT_MODES)}")
        self.punct = punct
        self.terms: tuple[str, ...] = _normalize_terms(terms, self.normalizer)
        if self.terms:
            alts = []
            for t in sorted(self.terms, key=lambda s: (-len(s), s)):
                alt = re.escape(t)
                if _IS_WORD_RE.fullmatch(t[-1]) and not re.fullmatch(_HAN, t[-1]):
                    alt += f"(?!{_WORD_CHAR})"
                alts.append(alt)
            pattern = f"(?:{'|'.join(alts)})|{_CHAR_BASE}"
        else:
            pattern = _CHAR_BASE
        self._re = re.compile(pattern)

    @property
    def terms_hash(self) -> str:
        """sha256 (8 hex) of the sorted, normalised term list ('' when there are no terms)."""
        return _sha("\n".join(sorted(self.terms))) if self.terms else ""

    def tokenize_normalized(self, text: str) -> list[str]:
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
        state.pop("_re")
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._re = CharTokenizer(self.terms, self.punct, Normalizer(()))._re


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


@contextlib.contextmanager
def _quiet_jieba():
    """Silence jieba's start-up log lines while a private dictionary loads (the logger level is restored)."""
    import jieba

    logger = jieba.default_logger
    old = logger.level
    logger.setLevel(logging.ERROR)
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            yield
    finally:
        logger.setLevel(old)


_JIEBA_DICT_HASHES: dict[str, str] = {}


def _file_sha(path: str) -> str:
    if path not in _JIEBA_DICT_HASHES:
        with open(path, "rb") as fh:
            _JIEBA_DICT_HASHES[path] = _sha(fh.read())
    return _JIEBA_DICT_HASHES[path]


class JiebaTokenizer(BaseTokenizer):
    """Word-level tokenizer with a **private** ``jieba.Tokenizer`` instance (jieba 0.42.1).

    * Never uses the global ``jieba.dt`` (which other code mutates with ``jieba.add_word``): each instance loads its
      own dictionary (lazily, on first use; about 1 s, cached by jieba as a marshal file in the temp directory).
    * HMM new-word discovery is **off by default** (``hmm=False``): it changes segmentation on a hidden flag and the
      maintainers advise it off for reproducible segmentation.
    * Whitespace tokens are removed; no start-up messages are printed; output is deterministic across processes.
    * ``terms`` are added as words of the private instance (``add_word``), so they are never split.
    * ``punct="drop"`` removes tokens made only of punctuation/symbols.

    Args:
        terms: protected words; ``hmm``: jieba's HMM flag; ``dictionary``: path of a jieba dictionary file
            (default: jieba's bundled ``dict.txt``); ``punct``: ``"keep"`` (default) or ``"drop"``;
            ``normalizer``: a :class:`~zheval.normalize.Normalizer`.

    Raises:
        ValueError/TypeError: as :class:`CharTokenizer` for ``punct`` and ``terms``; FileNotFoundError for a missing
        dictionary.
    """

    name = "jieba"

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
        self._jieba = None

    def _dict_path(self) -> str:
        import jieba

        if os.path.isabs(self.dictionary):
            return self.dictionary
        return os.path.join(os.path.dirname(jieba.__file__), self.dictionary)

    @property
    def dict_hash(self) -> str:
        """sha256 (8 hex) of the dictionary file."""
        return _file_sha(self._dict_path())

    @property
    def terms_hash(self) -> str:
        return _sha("\n".join(self.terms)) if self.terms else ""

    def _instance(self):
        if self._jieba is None:
            import jieba

            tk = jieba.Tokenizer(self._dict_path())
            with _quiet_jieba():
                tk.initialize()
                for t in self.terms:
                    tk.add_word(t)
            self._jieba = tk
        return self._jieba

    def tokenize_normalized(self, text: str) -> list[str]:
        if not text:
            return []
        tokens = [t for t in self._instance().cut(text, HMM=self.hmm) if t.strip()]
        if self.punct == "drop":
            tokens = [t for t in tokens if not _is_punct_or_symbol(t)]
        return tokens

    def _config(self) -> dict:
        return {
            "name": self.name,
            "jieba": self.jieba_version,
            "dict": self.dict_hash,
            "hmm": self.hmm,
            "terms": self.terms_hash,
            "punct": self.punct,
        }

    def signature(self) -> str:
        sig = f"jieba-{self.jieba_version}+dict.{self.dict_hash[:6]}"
        sig += "+hmm" if self.hmm else "+nohmm"
        if self.terms:
            sig += f"+terms.{self.terms_hash[:6]}"
        if self.punct == "drop":
            sig += "+nopunct"
        return sig

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_jieba"] = None  # rebuilt lazily in the worker; never ship the 350k-entry FREQ dict
        return state


# ---------------------------------------------------------------------------------------------------------------
# none (pre-tokenised)


class WhitespaceTokenizer(BaseTokenizer):
    """Already-tokenised text: split on whitespace (``str.split()``).

    Its default normaliser is **empty** (the user's tokens are taken as they are); with ``normalize=`` each token is
    normalised on its own, so no step (``space`` removes spaces next to CJK characters) can merge two tokens.
    """

    name = "none"

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

    The user's tokenizer receives normalised text (default normalisation unless ``normalize=`` says otherwise).
    Empty and whitespace-only tokens it returns are removed. Its fingerprint is derived from the object's
    qualified name and ``repr`` — an opaque object cannot promise stable output, so the signature names it
    ``custom:<name>``.

    Raises:
        TypeError: the object is neither callable nor has ``.tokenize``; on calls, when it returns something other
            than a list/tuple of ``str``.
    """

    name = "custom"

    def __init__(self, obj, normalizer: Normalizer | None = None):
        super().__init__(normalizer if normalizer is not None else Normalizer(DEFAULT_STEPS))
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
        return {"name": self.name, "obj": self.obj_name, "id": repr(self.obj) if not callable(self.obj) else ""}

    @property
    def fingerprint(self) -> str:
        # identity-based: two different user objects never share cached output
        if self._fingerprint is None:
            cfg = self._config()
            cfg["norm"] = list(self.normalizer.steps)
            self._fingerprint = f"custom-{_sha(json.dumps(cfg, sort_keys=True))}-{id(self.obj):x}"
        return self._fingerprint

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

_instances: dict[tuple, BaseTokenizer] = {}


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
            must then be left at their defaults), a callable ``str -> list[str]`` or an object with ``.tokenize``.
        terms: protected terms (``char`` and ``jieba``).
        punct: ``"keep"`` (default) or ``"drop"`` punctuation/symbol tokens.
        jieba_hmm: jieba's HMM new-word discovery (default off); ``jieba_dict``: a jieba dictionary path.
        normalize: ``None`` → the tokenizer's default (:data:`~zheval.normalize.DEFAULT_STEPS`; none for ``"none"``);
            ``True``/``False``/step names as :func:`zheval.normalize.get_normalizer`.
        t2s: add Traditional → Simplified conversion (off by default; never silent).

    Returns:
        A :class:`BaseTokenizer`. Equal arguments return the same instance (one private jieba per configuration).

    Raises:
        ValueError: unknown tokenizer name (lists the valid ones), an option that does not apply to the chosen
            tokenizer, or an invalid option value.
        TypeError: an argument of the wrong type.
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
        norm = get_normalizer(True if normalize is None else normalize, t2s=t2s)
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
    key = (tokenizer, terms_key, punct, jieba_hmm, jieba_dict, norm.steps)
    inst = _instances.get(key)
    if inst is None:
        if tokenizer == "char":
            inst = CharTokenizer(terms=terms_key, punct=punct, normalizer=norm)
        elif tokenizer == "jieba":
            inst = JiebaTokenizer(terms=terms_key, hmm=jieba_hmm, dictionary=jieba_dict, punct=punct, normalizer=norm)
        else:
            inst = WhitespaceTokenizer(punct=punct, normalizer=norm)
        if len(_instances) > 64:
            _instances.clear()
        _instances[key] = inst
    return inst
