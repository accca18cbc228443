"""chrF / chrF++ sufficient statistics of one item, on normalised text (character n-grams) and tokens (word n-grams).

Pure functions: nothing here normalises or tokenises text or reads global state. The character n-grams are taken
from a text that is already normalised; the word n-grams from a token sequence a zheval tokenizer produced.

Sources followed
----------------
* Popović (2015, 2017): chrF (character n-grams, orders 1..6) and chrF++ (plus word unigrams and bigrams).
* sacrebleu 2.6.0 ``sacrebleu/metrics/helpers.py`` ``extract_all_char_ngrams``: unless ``whitespace=True``,
  ``"".join(line.split())`` removes every whitespace character (Python's ``str.split``: spaces, tabs, line breaks,
  U+3000 ...), then every substring of 1..char_order **code points** is an n-gram. `char_ngram_counts` does the
  same (zheval has no ``whitespace=True``).
* sacrebleu 2.6.0 ``CHRF._remove_punctuation`` (chrF++'s words): the line is split on whitespace, and from every
  word longer than one character **one** ASCII punctuation character (``string.punctuation``) is split off -- the
  last one if it is punctuation, else the first one (``"hello,"`` -> ``hello`` ``,``; ``"(hi)"`` -> ``(hi`` ``)``,
  sacrebleu issue #124). `split_word_punctuation` applies exactly this rule to each zheval token, so the words
  equal sacrebleu's on the tokens joined by spaces whenever no token contains whitespace (a zheval token never does,
  except a protected term containing a space, which stays one word here). Full-width/CJK punctuation is never split
  off (it is not in sacrebleu's set), but the char and jieba tokenizers make it a token of its own anyway.
* sacrebleu 2.6.0 ``CHRF._get_match_statistics``: per order ``[hyp, ref, match]`` where ``match`` is the clipped
  count ``sum(min(h[g], r[g]))`` and ``hyp`` is **0 when the reference has no n-gram of that order** (so that order
  does not count against the precision); ``CHRF._compute_segment_statistics``: with several references, the
  statistics of the reference whose chrF (`zheval.definitions.chrf_score.f_score`, same options) is highest,
  the first one on a tie (strict ``>``).

Statistics layout
-----------------
One item is summarised by an integer row of width ``3 * (char_order + word_order)``, character orders first::

    [hyp_c1, ref_c1, match_c1, ..., hyp_cN, ref_cN, match_cN, hyp_w1, ref_w1, match_w1, ..., match_wM]

exactly sacrebleu's layout. Every column is additive: a corpus, shard, subset or bootstrap resample is scored from
the column sums of its rows (`zheval.definitions.chrf_score.score_stats`), never from a mean of item scores.
"""

from __future__ import annotations

from collections import Counter
from typing import Hashable, List, Sequence

from .chrf_score import f_score

__all__ = ["SACREBLEU_PUNCTUATION", "strip_whitespace", "char_ngram_counts", "split_word_punctuation",
           "word_ngram_counts", "item_ngrams", "match_stats", "item_stats", "best_reference_stats"]

#: The punctuation chrF++ splits off words (sacrebleu's ``CHRF._PUNCTS``: Python's ``string.punctuation``).
SACREBLEU_PUNCTUATION = frozenset('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')


def strip_whitespace(text: str) -> str:
    """``text`` without any whitespace character (``"".join(text.split())``, as sacrebleu's chrF)."""
    return "".join(text.split())


def char_ngram_counts(text: str, char_order: int) -> List[Counter]:
    """Counters of the character n-grams of orders 1..``char_order`` of ``text`` with its whitespace removed.

    Keys are strings of n code points. A text shorter than n has an empty Counter for that order.
    """
    line = strip_whitespace(text)
    return [Counter([line[i:i + n] for i in range(len(line) - n + 1)]) for n in range(1, char_order + 1)]


def split_word_punctuation(tokens: Sequence[str]) -> List[str]:
    """chrF++'s words from tokens: sacrebleu's ``_remove_punctuation`` applied to each token (module docstring): a
    token longer than one character loses one ASCII punctuation character into a word of its own, its last one if
    that is punctuation, else its first one; other tokens are kept as they are. Empty tokens are dropped (sacrebleu's
    whitespace split never yields one)."""
    words: List[str] = []
    puncts = SACREBLEU_PUNCTUATION
    for w in tokens:
        if len(w) > 1:
            if w[-1] in puncts:
                words += [w[:-1], w[-1]]
                continue
            if w[0] in puncts:
                words += [w[0], w[1:]]
                continue
        if w:
            words.append(w)
    return words


def word_ngram_counts(words: Sequence[Hashable], word_order: int) -> List[Counter]:
    """Counters of the word n-grams of orders 1..``word_order`` (keys: the word for n = 1, tuples of n words
    above; sacrebleu joins them with a space, which is the same n-gram identity for words without whitespace).
    Orders above ``len(words)`` are empty Counters, built without slicing (the cost stays linear in the order)."""
    out = []
    for n in range(1, word_order + 1):
        if n > len(words):
            out.append(Counter())
        elif n == 1:
            out.append(Counter(words))
        else:
            out.append(Counter(zip(*[words[i:] for i in range(n)])))
    return out


def item_ngrams(text: str, tokens: Sequence[str], char_order: int, word_order: int) -> List[Counter]:
    """All n-gram Counters of one text: character orders 1..``char_order`` of the normalised ``text``, then
    (``word_order`` > 0) word orders 1..``word_order`` of `split_word_punctuation` of its ``tokens``."""
    counts = char_ngram_counts(text, char_order)
    if word_order > 0:
        counts += word_ngram_counts(split_word_punctuation(tokens), word_order)
    return counts


def match_stats(hyp_ngrams: Sequence[Counter], ref_ngrams: Sequence[Counter]) -> List[int]:
    """``[hyp, ref, match]`` per order (sacrebleu's ``_get_match_statistics``, module docstring)."""
    row: List[int] = []
    for h, r in zip(hyp_ngrams, ref_ngrams):
        match = hyp_count = 0
        get = r.get
        for g, c in h.items():
            hyp_count += c
            rc = get(g)
            if rc:
                match += c if c < rc else rc
        row += [hyp_count if r else 0, sum(r.values()), match]
    return row


def best_reference_stats(hyp_ngrams: Sequence[Counter], refs_ngrams: Sequence[Sequence[Counter]], beta,
                         eps_smoothing: bool) -> List[int]:
    """The statistics of the reference with the highest chrF against the hypothesis (the first on a tie).

    Raises:
        ValueError: no reference.
    """
    if not refs_ngrams:
        raise ValueError("an item needs at least one reference")
    best: List[int] = []
    best_f = -1.0
    for r in refs_ngrams:
        row = match_stats(hyp_ngrams, r)
        f = f_score(row, beta, eps_smoothing) if len(refs_ngrams) > 1 else 0.0
        if f > best_f:
            best_f, best = f, row
    return best


def item_stats(hypothesis: str, hypothesis_tokens: Sequence[str], references: Sequence[str],
               references_tokens: Sequence[Sequence[str]], *, char_order: int = 6, word_order: int = 0, beta=2,
               eps_smoothing: bool = False) -> List[int]:
    """Sufficient chrF statistics of one item (layout in the module docstring).

    Args:
        hypothesis: the normalised hypothesis text (whitespace is ignored). hypothesis_tokens: its tokens (used for
            chrF++'s word n-grams only; ignored with ``word_order=0``).
        references: the normalised reference texts (at least one); references_tokens: their tokens, one list each.
        char_order, word_order, beta, eps_smoothing: as `zheval.definitions.chrf_score.score_stats` (beta and
            eps_smoothing decide which reference is kept).

    Returns:
        ``3 * (char_order + word_order)`` Python ints.

    Raises:
        ValueError: no reference, or references and their tokens of different lengths.
    """
    if len(references) != len(references_tokens):
        raise ValueError(f"{len(references)} references but {len(references_tokens)} token lists")
    hyp = item_ngrams(hypothesis, hypothesis_tokens, char_order, word_order)
    refs = [item_ngrams(r, t, char_order, word_order) for r, t in zip(references, references_tokens)]
    return best_reference_stats(hyp, refs, beta, eps_smoothing)
