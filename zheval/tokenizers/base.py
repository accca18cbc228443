"""The tokenizer interface every zheval tokenizer implements, and the process-wide token cache.

A tokenizer normalises, then splits normalised text into tokens. It is

* a plain callable ``text -> list[str]``, and
* a rouge-score tokenizer object (``.tokenize(text) -> list[str]``, the interface of
  ``rouge_score.tokenizers.Tokenizer``, rouge-score 0.1.2),

and owns its configuration and its state (its normaliser, its term list, its private ``jieba.Tokenizer``).

Caching. A tokenizer whose output is determined by content we can hash -- its name and options, normalisation
steps, term list, jieba version and dictionary *content* -- is `content_keyed`: its
`fingerprint` is derived from exactly that content and keys a bounded process-wide token cache
(`clear_cache`). A user tokenizer is not (its code can change, and its identity says nothing about its
output): it is run on every text of every call, and nothing is kept between calls (``docs/DESIGN.md``,
"Module-level state").
"""

from __future__ import annotations

import hashlib
import json
import threading
import uuid
from itertools import chain

from ..text.normalize import DEFAULT_STEPS, Normalizer
from ..text.sentences import split_sentences, split_token_sentences
from ..version import __version__, code_digest

__all__ = ["BaseTokenizer", "ToolTokenizer", "option_suffix", "PUNCT_MODES", "USER_TOKENIZER_STEPS", "clear_cache", "cache_info", "short_sha",
           "check_punct"]

#: Valid ``punct`` values of the built-in tokenizers: keep punctuation/symbol tokens, or drop them.
PUNCT_MODES = ("keep", "drop")


def check_punct(punct) -> str:
    """``punct`` if it is one of `PUNCT_MODES`; ValueError (listing them) otherwise."""
    if punct not in PUNCT_MODES:
        raise ValueError(f"unknown punct mode {punct!r}; valid: {list(PUNCT_MODES)}")
    return punct


#: Default normalisation of a user tokenizer: `DEFAULT_STEPS` without ``space``, so that the
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


def short_sha(data: str | bytes, n: int = 8) -> str:
    """The first ``n`` hex digits of the sha256 of ``data`` (``str`` is UTF-8 encoded)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:n]



class BaseTokenizer:
    """Base of zheval tokenizers: normalise, then split normalised text into tokens.

    Subclasses implement `tokenize_normalized` and `_config`. Public calls:

    * ``tok(text)`` / ``tok.tokenize(text)`` → ``list[str]`` (normalised, tokenised, cached if content-keyed);
    * ``tok.normalize(text)`` → ``str``; ``tok.tokenize_normalized(text)`` skips normalisation (used after sentence
      splitting, which happens on normalised text);
    * ``tok.fingerprint`` → short ``str``; ``tok.signature()`` → the ``tok`` signature field;
    * ``tok.content_keyed`` → ``bool`` (class attribute), see below.

    ``content_keyed``: True only for a class that declares ``content_keyed = True`` **in its own body** (it is not
    inherited: a subclass of `CharTokenizer` that changes the rules is not content-keyed until it says so).
    Declaring it promises that `_config` (with the normalisation steps) covers everything that changes the
    output; the tokens are then kept in the process-wide token cache under `fingerprint`. Otherwise every
    call computes the tokens and the fingerprint is new on every access, so nothing keyed by it is ever reused.

    Raises (on calls):
        TypeError: the text is not a ``str`` (``None`` is never turned into ``"None"``).
    """

    name = "base"
    content_keyed = False
    #: Whether this tokenizer reproduces another tool's tokens for a preset (`zheval.tokenizers.TOOL_TOKENIZERS`):
    #: it normalises nothing, so options such as ``t2s`` cannot change it.
    is_tool = False
    #: The sacrebleu ``tokenize`` name whose tokens this tokenizer equals on raw text (``"zh"`` for ``sacrebleu-zh``;
    #: BLEU's cross-check then also runs sacrebleu with it on the raw text), or ``None``.
    sacrebleu_tokenize = None

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

    def char_ids_twin(self) -> bool:
        """True if `zheval.tokenizers.char_ids.char_token_spans` gives exactly this tokenizer's tokens (the
        char tokenizer without terms, either ``punct``), so a corpus can be tokenised to ids all at once (`zheval.tokenizers.corpus.tokenize_corpus`;
        the decision is `zheval.fast.usable_for`)."""
        return False

    def term_ids_twin(self) -> bool:
        """True if `zheval.tokenizers.term_ids.term_token_spans` gives exactly this tokenizer's tokens (the char
        tokenizer with terms, none holding a line break, either ``punct``): the plain char tokens with the term
        matches merged (`zheval.tokenizers.corpus.tokenize_corpus`; the decision is `zheval.fast.usable_for`)."""
        return False

    def batch_normalizable(self) -> bool:
        """True if this tokenizer's normalisation is its `Normalizer` applied to the
        whole text (then all texts can be normalised at once, `zheval.text.normalize_corpus.normalize_corpus`);
        False for a tokenizer that normalises otherwise (the ``none`` tokenizer normalises token by token)."""
        return type(self)._normalize is BaseTokenizer._normalize

    def tokenize(self, text: str) -> list[str]:
        """Normalise and tokenise ``text``; returns a new list of non-empty, non-whitespace tokens."""
        return list(self.tokenize_cached(text))

    __call__ = tokenize

    def tokenize_cached(self, text: str) -> tuple[str, ...]:
        """Like `tokenize` but returns a tuple, cached when the tokenizer is content-keyed (do not mutate).
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
        """Normalise ``text``, split it into sentences and tokenise them (`zheval.text.sentences`).

        ``"newline"``: each line of the normalised text is tokenised (rouge-score's rule). ``"punct"``: each line is
        tokenised and its tokens are cut after sentence-final marks
        (`zheval.text.sentences.split_token_sentences`), so a cut never falls inside a token.

        Returns a tuple of token tuples, one per sentence (cached when content-keyed; do not mutate). Their
        concatenation is the token sequence used for every ROUGE type but Lsum and for BLEU; for the built-in
        tokenizers it equals `tokenize` (line breaks are whitespace, never inside a token).

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
        if sentence_split == "newline" and self.lines_concatenate():
            # Share the tokenisation with tokenize_cached (BLEU after ROUGE tokenises nothing again).
            flat_key = (fp, text)
            if flat_key not in _cache:
                _cache_put(flat_key, result[0] if len(result) == 1 else tuple(chain.from_iterable(result)))
        return result

    def _sentences(self, text: str, sentence_split: str) -> tuple[tuple[str, ...], ...]:
        return self.sentences_of_normalized(self._normalize(text), sentence_split)

    def sentences_of_normalized(self, norm: str, sentence_split: str, tokenize=None) -> tuple[tuple[str, ...], ...]:
        """What `tokenize_sentences` returns, from the already normalised text ``norm`` (no cache).

        Args:
            norm: ``self.normalize(text)``; sentence_split: ``"punct"`` or ``"newline"``.
            tokenize: the function that tokenises a normalised piece (default `tokenize_normalized`; a twin
                of it, such as a faster word segmenter proven to give the same words, may be passed).
        """
        tok = self.tokenize_normalized if tokenize is None else tokenize
        if sentence_split == "punct":
            return tuple(s for line in norm.split("\n") for s in self._punct_sentences(line, tok))
        return tuple(tuple(tok(s)) for s in split_sentences(norm, sentence_split))

    def _punct_sentences(self, line: str, tok=None) -> list[tuple[str, ...]]:
        """One normalised line cut by the ``"punct"`` rule, tokenised. The text rule
        (`zheval.text.sentences.split_sentences`) is used when its cuts fall between tokens -- always for the plain
        ``char`` tokenizer; otherwise (a term, word or pre-tokenised token spanning a sentence-final mark) the line's
        own tokens are cut (`zheval.text.sentences.split_token_sentences`), so that the sentences' tokens always
        concatenate to the line's tokens."""
        tok = self.tokenize_normalized if tok is None else tok
        texts = split_sentences(line, "punct")
        pieces = [tuple(tok(p)) for p in texts]
        if self.punct_cuts_between_tokens() or texts == [line] or self.pieces_tokenize_alone(texts):
            return pieces  # no cut inside the line, or cuts this tokenizer never sees across: nothing to check
        whole = tuple(tok(line))
        if tuple(chain.from_iterable(pieces)) == whole:
            return pieces
        return [tuple(s) for s in split_token_sentences(whole)]

    def pieces_tokenize_alone(self, pieces: list) -> bool:
        """Whether these sentence pieces of one line (`zheval.text.sentences.split_sentences`) are known to be
        tokenised exactly as the whole line is (then the check in `_punct_sentences` is skipped). False unless
        a subclass knows it for these pieces."""
        return False

    def punct_cuts_between_tokens(self) -> bool:
        """Whether the ``"punct"`` text rule can never cut inside a token of this tokenizer (then the check in
        `_punct_sentences` is skipped). False unless a subclass knows it."""
        return False

    def lines_concatenate(self) -> bool:
        """Whether tokenising the lines of normalised text one by one and concatenating gives exactly
        ``tokenize_normalized`` of the whole text. False unless a subclass knows it (a token never spans a line
        break); the built-in ``char`` (a term never contains a line break) and ``none`` tokenizers do."""
        return False

    @property
    def fingerprint(self) -> str:
        """Short string (``<name>-<sha8>``) that changes whenever this tokenizer's output could change.

        For a content-keyed tokenizer it is derived from the tokenizer name and options, the normalisation steps,
        the term list (hash), and library versions and data that affect output (zheval's version and its source,
        `zheval.version.code_digest`; jieba and its dictionary's content hash; opencc when ``t2s`` is on) -- equal
        configurations of the same code give equal fingerprints, also across
        processes. For any other tokenizer it is ``<name>-uncached-<random>``, new on every access: nothing keyed
        by it can ever be reused.
        """
        if not self.content_keyed:
            return f"{self.name}-uncached-{uuid.uuid4().hex}"
        if self._fingerprint is None:
            cfg = dict(self._config())
            cfg["norm"] = list(self.normalizer.steps)
            cfg["zheval"] = __version__
            cfg["code"] = code_digest()  # the package's source: a persisted cache never outlives a code change
            if "t2s" in self.normalizer.steps:
                cfg["opencc"] = _opencc_version()
            self._fingerprint = f"{self.name}-{short_sha(json.dumps(cfg, sort_keys=True, ensure_ascii=False))}"
        return self._fingerprint + self._state_suffix()

    def _state_suffix(self) -> str:
        """Part of the fingerprint that follows process state outside this object which changes the output (jieba's
        global force-split words under HMM); '' unless a subclass has such state."""
        return ""

    def signature(self) -> str:
        """The ``tok`` field of the result signature, e.g. ``zh-char``, ``zh-char+terms.3f2a9c``, ``jieba-0.42.1+dict.<sha>``."""
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




def option_suffix(terms_hash: str = "", punct: str = "keep") -> str:
    """The options part of a ``tok`` signature field: ``+terms.<sha6>`` with protected terms, ``+nopunct`` with
    ``punct="drop"`` (empty when neither)."""
    return (f"+terms.{terms_hash[:6]}" if terms_hash else "") + ("+nopunct" if punct == "drop" else "")


class ToolTokenizer(BaseTokenizer):
    """A tokenizer that reproduces another tool's tokens exactly (the presets' ``sacrebleu-zh``,
    ``llamafactory-char``): no normalisation, no option; a subclass sets ``name``, ``TOOL`` (the tool, named in
    option errors), ``CONFIG`` (what identifies its output in the fingerprint) and `tokenize_normalized`."""

    TOOL = ""
    CONFIG: dict = {}
    is_tool = True

    def __init__(self) -> None:
        super().__init__(Normalizer(()))

    def _config(self) -> dict:
        return {"name": self.name, **self.CONFIG}
