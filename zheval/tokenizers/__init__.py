"""Layer 2, tokens: every tokenizer name in one registry ([`get_tokenizer`][zheval.tokenizers.get_tokenizer]). Chinese tokenizers: ``char``, ``jieba``, ``char`` with protected terms, ``none`` (pre-tokenised) and user tokenizers.

Every tokenizer is

* a plain callable ``text -> list[str]``, and
* a rouge-score tokenizer object (``.tokenize(text) -> list[str]``, the interface of
  ``rouge_score.tokenizers.Tokenizer``, rouge-score 0.1.2),

and owns its configuration and its state (its normaliser, its term list, its private ``jieba.Tokenizer``).

What a tokenizer sees. The built-in ``char`` and ``jieba`` tokenizers receive the text after the default
normalisation `DEFAULT_STEPS` (``nfkc+zw+punct+space+lower``); ``none`` splits the text on
whitespace and normalises nothing unless asked. A **user tokenizer** (a callable ``str -> list[str]`` or an object
with ``.tokenize``) receives the text normalised with `USER_TOKENIZER_STEPS` = ``nfkc+zw+punct+lower`` -- the
default without ``space``, so the spaces of pre-segmented text (``今天 天气 很 好``, ``今日 は いい 天気 です``)
reach it and a whitespace-splitting callable gives the tokens rouge-score and the Hub ``rouge`` module give with the
same callable. ``normalize=`` overrides either default, and the signature's ``norm`` field names the steps that ran.

Caching. A tokenizer whose output is determined by content we can hash -- its name and options, normalisation
steps, term list, jieba version and dictionary *content* -- is `content_keyed`: its
`fingerprint` is derived from exactly that content and keys a bounded process-wide token cache
(`clear_cache`). A user tokenizer is not (its code can change, and its identity says nothing about its
output): it is run on every text of every call, and nothing is kept between calls (see ``docs/DESIGN.md``,
"Module-level state").

Build one with [`get_tokenizer`][zheval.tokenizers.get_tokenizer]; a user callable or an object with ``.tokenize`` is accepted wherever a
tokenizer name is.
"""


from __future__ import annotations


import os
import threading
from typing import Callable, Iterable, Sequence

from ..text.chars import HAN_CLASS_BODY, KANA_CLASS_BODY
from ..text.normalize import Normalizer, get_normalizer
from .base import PUNCT_MODES, USER_TOKENIZER_STEPS, BaseTokenizer, cache_info, check_punct, clear_cache
from .char import CharTokenizer
from .custom import CallableTokenizer
from .jieba_words import JiebaTokenizer, jieba_dict_key
from .harness_jieba import Glm4JiebaTokenizer, OpenCompassJiebaTokenizer
from .llamafactory import LlamaFactoryCharTokenizer, LlamaFactoryJiebaTokenizer
from .sacrebleu_zh import SacrebleuZhTokenizer
from .whitespace import WhitespaceTokenizer

__all__ = [
    "HAN_CLASS_BODY",
    "KANA_CLASS_BODY",
    "Normalizer",
    "get_normalizer",
    "BaseTokenizer",
    "CharTokenizer",
    "JiebaTokenizer",
    "WhitespaceTokenizer",
    "CallableTokenizer",
    "TOKENIZERS",
    "TOOL_TOKENIZERS",
    "USER_TOKENIZER_STEPS",
    "PUNCT_MODES",
    "get_tokenizer",
    "clear_cache",
    "cache_info",
]

#: Tokenizers that reproduce another tool's tokens exactly, for the presets (`zheval.presets`): they normalise
#: nothing and take no option.
TOOL_TOKENIZERS: dict[str, type[BaseTokenizer]] = {
    "sacrebleu-zh": SacrebleuZhTokenizer,
    "llamafactory-char": LlamaFactoryCharTokenizer,
    "llamafactory-jieba": LlamaFactoryJiebaTokenizer,
    "opencompass-jieba": OpenCompassJiebaTokenizer,
    "glm4-jieba": Glm4JiebaTokenizer,
}

TOKENIZERS: dict[str, type[BaseTokenizer]] = {
    "char": CharTokenizer,
    "jieba": JiebaTokenizer,
    "none": WhitespaceTokenizer,
    **TOOL_TOKENIZERS,
}
"""The one registry of tokenizer names (the presets' tokenizers included). ``char`` with ``terms`` is the
three-level tokenizer."""

_OPTIONS = {
    "char": {"terms", "punct"},
    "jieba": {"terms", "jieba_hmm", "jieba_dict", "punct"},
    "none": {"punct"},
}

# Built tokenizers by everything that changes their output (name, terms, punct, HMM, normalisation steps, and for
# jieba the dictionary's path and content hash), so equal requests share one private jieba; the oldest is dropped
# beyond _INSTANCES_MAX (a jieba instance holds its dictionary, tens of MB). A tool tokenizer has one key: its name.
_INSTANCES_MAX = 16
_instances: dict[tuple, BaseTokenizer] = {}
_instances_lock = threading.Lock()


def get_tokenizer(
    tokenizer: str | BaseTokenizer | Callable[[str], Sequence[str]] = "char",
    *,
    terms: Iterable[str] | None = None,
    punct: str = "keep",
    jieba_hmm: bool | None = None,
    jieba_dict: str | None = None,
    normalize=None,
    t2s: bool = False,
) -> BaseTokenizer:
    """Return a tokenizer for a name, a zheval tokenizer, or a user callable/object.

    Args:
        tokenizer: a name of `TOKENIZERS` -- ``"char"``, ``"jieba"``, ``"none"``, or a tool tokenizer of the
            presets (`TOOL_TOKENIZERS`: ``"sacrebleu-zh"``, ``"llamafactory-char"``, ``"llamafactory-jieba"``,
            ``"opencompass-jieba"``, ``"glm4-jieba"``, which take no option) --, a `BaseTokenizer` (returned as is; other options must then be left at
            their defaults), a callable ``str -> list[str]`` or an object with ``.tokenize`` (wrapped in a new
            `CallableTokenizer` on every call; it receives the text normalised with
            `USER_TOKENIZER_STEPS` = ``nfkc+zw+punct+lower`` -- no ``space`` step, so the spaces of
            pre-segmented text reach it -- and is never cached across calls).
        terms: protected terms (``char`` and ``jieba``).
        punct: ``"keep"`` (default) or ``"drop"`` punctuation/symbol tokens.
        jieba_hmm: jieba's HMM new-word discovery (``None``: the tokenizer's own setting -- off for ``jieba``).
        jieba_dict: a jieba dictionary path that **replaces** jieba's main dictionary (as ``jieba.set_dictionary``;
            it does not add words as ``jieba.load_userdict`` does -- ``terms`` adds protected words). Read by
            `zheval.io.read_text` (BOM removed, gzip undone) and hashed on every call, so an edited file gives a
            new tokenizer.
        normalize: ``None`` → the tokenizer's default (`DEFAULT_STEPS`; none for
            ``"none"`` and the tool tokenizers; `USER_TOKENIZER_STEPS` for a user tokenizer);
            ``True``/``False``/step names as `zheval.text.normalize.get_normalizer` (``True`` is
            `DEFAULT_STEPS`).
        t2s: add Traditional → Simplified conversion (off by default; never silent).

    Returns:
        A `BaseTokenizer`. Equal arguments naming a built-in tokenizer return the same instance (one private
        jieba per configuration and dictionary content).

    Raises:
        ValueError: unknown tokenizer name (lists the valid ones), an option that does not apply to the chosen
            tokenizer (a tool tokenizer accepts only values that change nothing), or an invalid option value.
        TypeError: an argument of the wrong type. FileNotFoundError: a missing ``jieba_dict``.
            FileFormatError (a ValueError): a ``jieba_dict`` in another encoding or a bad gzip file;
            EmptyFileError: an empty or blank-only ``jieba_dict``.
    """
    if isinstance(tokenizer, BaseTokenizer):
        if terms or punct != "keep" or jieba_hmm or jieba_dict or normalize is not None or t2s:
            raise ValueError("tokenizer options cannot be combined with an already-built tokenizer instance")
        return tokenizer
    if tokenizer is None:
        raise TypeError("tokenizer must be a name, a callable or an object with .tokenize, not None")
    for flag_name, flag in (("t2s", t2s), ("jieba_hmm", False if jieba_hmm is None else jieba_hmm)):
        if not isinstance(flag, bool):
            raise TypeError(f"{flag_name} must be True or False, got {flag!r}")
    if not isinstance(tokenizer, str):
        norm = get_normalizer(USER_TOKENIZER_STEPS if normalize is None else normalize, t2s=t2s)
        if terms or jieba_hmm or jieba_dict or punct != "keep":
            raise ValueError("terms/punct/jieba options apply to built-in tokenizers, not to a custom tokenizer")
        return CallableTokenizer(tokenizer, norm)
    if tokenizer not in TOKENIZERS:
        raise ValueError(f"unknown tokenizer {tokenizer!r}; valid: {sorted(TOKENIZERS)} or a callable")
    if tokenizer in TOOL_TOKENIZERS:
        return _tool_tokenizer(tokenizer, terms=terms, punct=punct, jieba_hmm=jieba_hmm, jieba_dict=jieba_dict,
                               normalize=normalize, t2s=t2s)
    given = {
        "terms": bool(terms),
        "jieba_hmm": bool(jieba_hmm),
        "jieba_dict": jieba_dict is not None,
        "punct": punct != "keep",
    }
    bad = [k for k, v in given.items() if v and k not in _OPTIONS[tokenizer]]
    if bad:
        raise ValueError(f"option(s) {bad} do not apply to tokenizer {tokenizer!r} (it takes {sorted(_OPTIONS[tokenizer])})")
    check_punct(punct)
    if terms is not None and isinstance(terms, (str, bytes, os.PathLike)):
        raise TypeError(f"terms must be a list of strings, not a single string or path ({terms!r}; a file is "
                        "not read here: pass the list of its terms, one per line of the file)")
    default_norm = False if tokenizer == "none" else True
    norm = get_normalizer(default_norm if normalize is None else normalize, t2s=t2s)
    terms_key = tuple(terms) if terms else ()
    hmm = bool(jieba_hmm)
    dict_key: tuple = ()
    if tokenizer == "jieba":
        dict_key = jieba_dict_key(jieba_dict)
    key = (tokenizer, terms_key, punct, hmm, dict_key, norm.steps)
    inst = _instances.get(key)
    if inst is None:
        if tokenizer == "char":
            inst = CharTokenizer(terms=terms_key, punct=punct, normalizer=norm)
        elif tokenizer == "jieba":
            inst = JiebaTokenizer(terms=terms_key, hmm=hmm, dictionary=jieba_dict, punct=punct, normalizer=norm)
            # the key of what was actually read (the file may have changed since dict_key was computed)
            key = (tokenizer, terms_key, punct, hmm, (dict_key[0], inst.dict_sha), norm.steps)
        else:
            inst = WhitespaceTokenizer(punct=punct, normalizer=norm)
        _remember(key, inst)
    return inst


def _tool_tokenizer(name: str, **options) -> BaseTokenizer:
    """The shared instance of a tool tokenizer; ``options`` may only hold values that change nothing."""
    cls = TOOL_TOKENIZERS[name]
    own_hmm = getattr(cls, "HMM", None)
    bad = {
        k: v
        for k, v in options.items()
        if not (
            (k == "normalize" and (v is None or v is False or v == "none"))
            or (k == "t2s" and v is False)
            or (k == "jieba_hmm" and (v is None or v == own_hmm or (own_hmm is None and v is False)))
            or (k == "terms" and not v)
            or (k == "punct" and v == "keep")
            or (k == "jieba_dict" and v is None)
        )
    }
    if bad:
        raise ValueError(f"tokenizer {name!r} reproduces {cls.TOOL} exactly and takes no options; got {bad}")
    key = (name,)
    inst = _instances.get(key)
    if inst is None:
        inst = cls()
        _remember(key, inst)
    return inst


def _remember(key: tuple, inst: BaseTokenizer) -> None:
    with _instances_lock:
        while len(_instances) >= _INSTANCES_MAX:
            del _instances[next(iter(_instances))]
        _instances[key] = inst
