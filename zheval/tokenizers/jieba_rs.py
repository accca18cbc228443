"""The ``jieba`` tokenizer's words from jieba-rs (the ``rjieba`` binding): the corpus-path twin of
`zheval.tokenizers.jieba_words.JiebaTokenizer.tokenize_normalized` for HMM off.

Why it exists
    jieba 0.42.1's pure-Python DAG segmentation costs about 6 microseconds per character; jieba-rs 0.2.2 segments
    the same text with the same algorithm (prefix dictionary, DAG, maximum log-probability route with ties to the
    longest word, consecutive single ASCII letters/digits joined) about 13 times faster.

Exactly the same words
    The private ``rjieba.Jieba`` instance of a tokenizer is built from the very dictionary bytes the tokenizer hashed
    (``Jieba.empty()`` and one ``add_word(word, freq)`` per line, in file order, parsed as jieba's ``gen_pfdict``
    parses it), never from rjieba's bundled dictionary; the tokenizer's addable terms are then added with the
    frequency jieba 0.42.1's ``add_word`` gives them (``suggest_freq(term, tune=False)`` over the running frequency
    table and total). Every other rule (protected terms cut out first, attached marks, ``punct``) is the tokenizer's
    own `tokenize_normalized_with`. The tests compare the words
    with jieba 0.42.1 (HMM off) on every text of the shared data and on random texts over every character class
    (hypothesis), with and without terms; `zheval.fast.usable_for` (``"jieba_rs"``) allows it only for
    jieba 0.42.1, rjieba 0.2.2 and HMM off. The signature keeps naming jieba 0.42.1 and its dictionary: the tokens
    are jieba 0.42.1's.
"""

from __future__ import annotations

import functools
from typing import Callable, List

__all__ = ["RJIEBA_VERSION", "JIEBA_DICT_SHA", "build_jieba_rs", "jieba_rs_segmenter", "rjieba_version"]

#: The rjieba release whose words are proven equal to jieba 0.42.1's (HMM off).
RJIEBA_VERSION = "0.2.2"
#: sha256 of jieba 0.42.1's bundled ``dict.txt``: the dictionary content the equality was proven on (a user
#: dictionary with other content -- frequency-0 entries, say -- is segmented by jieba itself).
JIEBA_DICT_SHA = "7197c3211ddd98962b036cdf40324d1ea2bfaa12bd028e68faa70111a88e12a8"


def rjieba_version() -> str | None:
    """The installed rjieba version, or None when it is not installed."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("rjieba")
    except PackageNotFoundError:
        return None


def build_jieba_rs(dictionary: bytes, terms) -> "object":
    """A private ``rjieba.Jieba`` holding exactly the prefix dictionary jieba 0.42.1 builds from ``dictionary`` and
    then ``add_word(term)`` for each of ``terms`` in order (see the module docstring).

    Raises:
        ValueError: a dictionary line jieba would refuse (as jieba: ``invalid dictionary entry``).
    """
    import rjieba

    jb = rjieba.Jieba.empty()
    add = jb.add_word
    freq: dict = {}
    total = 0
    # jieba 0.42.1 adds every frequency to its total, also when a word is given again (a repeated dictionary line,
    # a term already in the dictionary); jieba-rs replaces the old frequency in its total. The difference is
    # carried by one word that jieba never looks up (a control character is in no block jieba segments).
    extra = 0

    def put(word: str, f: int) -> None:
        nonlocal total, extra
        old = freq.get(word)
        freq[word] = f
        total += f
        add(word, f, None)
        if old is not None:
            extra += old
            add(_TOTAL_CARRIER, extra, None)

    lines = dictionary.splitlines()
    try:
        # the common case at C speed: every line "word freq[ tag]" (the same parse as below, checked below)
        pairs = [ln.strip().decode("utf-8").split(" ")[:2] for ln in lines]
        words = [w for w, _ in pairs]
        freqs = [int(f) for _, f in pairs]
    except ValueError:
        words = None  # a bad line: the line-by-line parse names it
    if words is not None and _TOTAL_CARRIER not in words and len(set(words)) == len(words):
        for w, f in zip(words, freqs):
            add(w, f, None)
        freq.update(zip(words, freqs))
        total = sum(freqs)
        lines = []
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip().decode("utf-8")
        try:
            word, f = line.split(" ")[:2]
            f = int(f)
        except ValueError:
            raise ValueError(f"invalid dictionary entry at line {lineno}: {line}") from None
        if word == _TOTAL_CARRIER:
            raise ValueError(f"dictionary entry at line {lineno} is a control character")
        put(word, f)
    for term in terms:
        # jieba 0.42.1 add_word(term): freq = suggest_freq(term, tune=False), then FREQ[term] = freq, total += freq
        p = 1.0
        ftotal = float(total)
        for seg in jb.cut(term, False):
            p *= freq.get(seg, 1) / ftotal
        put(term, max(int(p * total) + 1, freq.get(term, 1)))
    return jb


#: The word that carries jieba's extra total (see build_jieba_rs): a NUL never occurs in the text jieba segments.
_TOTAL_CARRIER = "\x00"


def jieba_rs_segmenter(tokenizer) -> Callable[[str], List[str]]:
    """``tokenizer.tokenize_normalized`` of a `JiebaTokenizer` (HMM off) with
    jieba-rs segmenting the pieces between protected terms: the same tokens (module docstring)."""
    return functools.partial(tokenizer.tokenize_normalized_with, tokenizer.jieba_rs_cut())
