"""Diversity of the outputs: Distinct-n and repeated predictions ([`distinct_n`][zheval.results.distinct.distinct_n], `repetition`,
[`diversity`][zheval.results.distinct.diversity]).

A system that answers every query with the same safe sentence ("好的，我明白了。") can score well on n-gram
overlap; Chinese dialogue papers report Distinct-1/2 next to BLEU for exactly this.

* **Distinct-n** (Li et al. 2016, "A Diversity-Promoting Objective Function for Neural Conversation Models",
  section 4.3): the number of *distinct* n-grams divided by the *total* number of n-grams, over all texts of the
  corpus at once (a corpus-level ratio, not a mean of per-text ratios). In [0, 1]; **undefined** (``None``, ``–`` in
  the tables, JSON ``null``) when there is no n-gram at all: 0/0 says nothing about diversity (three different
  one-character replies have no bigram, and they are not "not diverse").
  The n-grams are of the **same tokens the metrics use** (the tokenizer of the config, after its normalisation).
* For the **references** (the human baseline) every reference of every item counts as one text.
* **Duplicates**: the share of predictions whose normalised text is exactly the normalised text of another
  prediction (``["a", "a", "b"]`` → 2/3), and the most frequent prediction with its count (ties: the one that
  comes first).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from ..io.text_lists import check_text_list
from ..tokenizers import BaseTokenizer, get_tokenizer
from .sorted_keys import SortedKeys, unique_rows, widened

__all__ = ["DISTINCT_ORDERS", "NgramCounter", "distinct_n", "check_token_lists", "repetition", "Diversity", "diversity",
           "StreamingDistinct", "StreamingRepetition"]

DISTINCT_ORDERS = (1, 2)
"""The n of the Distinct-n a report gives (Distinct-1 and Distinct-2, as the dialogue papers do)."""


class NgramCounter:
    """The n-grams of a corpus as integer ids, counted for any subset of its items (the Distinct-n of a group
    without counting the corpus again).

    Args:
        items: per item a list of token sequences (its texts: one prediction, or its references); n-grams never
            cross two texts.
        orders: the n-gram orders to index (ints >= 1).

    Two n-grams get the same id exactly when they are the same tokens (ids are positions in a base-``V`` number over
    a vocabulary of the corpus' ``V`` tokens, or rows compared whole when ``V ** n`` does not fit in 62 bits).

    Raises:
        ValueError: an order that is not an int >= 1.
    """

    def __init__(self, items: Sequence[Sequence[Sequence[str]]], orders: Sequence[int] = DISTINCT_ORDERS) -> None:
        for n in orders:
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise ValueError(f"n must be an int >= 1, got {n!r}")
        vocab: dict = {}
        ids = [[np.fromiter((vocab.setdefault(t, len(vocab)) for t in toks), dtype=np.int64, count=len(toks))
                for toks in texts] for texts in items]
        v = max(len(vocab), 1)
        self.n_items = len(items)
        self._keys: dict = {}
        for n in orders:
            flat = v ** n < 2 ** 62
            per_item = []
            for texts in ids:
                parts = []
                for a in texts:
                    k = len(a) - n + 1
                    if k <= 0:
                        continue
                    if flat:
                        key = np.zeros(k, dtype=np.int64)
                        for j in range(n):
                            key = key * v + a[j:j + k]
                    else:
                        key = np.stack([a[j:j + k] for j in range(n)], axis=1)
                    parts.append(key)
                if parts:
                    per_item.append(np.concatenate(parts))
                else:
                    per_item.append(np.zeros((0,) if flat else (0, n), dtype=np.int64))
            self._keys[n] = per_item

    def distinct(self, n: int, indices=None) -> tuple[float | None, int, int]:
        """Distinct-n of the items at ``indices`` (default: all): ``(distinct / total, distinct, total)``, the
        ratio ``None`` without any n-gram (0/0 is undefined).

        Raises:
            KeyError: an order that was not indexed.
        """
        keys = self._keys[n]
        sel = [keys[i] for i in (range(self.n_items) if indices is None else indices)]
        allk = np.concatenate(sel) if sel else np.zeros(0, dtype=np.int64)
        total = int(allk.shape[0])
        if not total:
            return None, 0, 0
        distinct = int(np.unique(allk, axis=0 if allk.ndim == 2 else None).shape[0])
        return distinct / total, distinct, total


def distinct_n(token_lists: Sequence[Sequence[str]], n: int) -> tuple[float | None, int, int]:
    """Distinct-n of a corpus (Li et al. 2016): ``(distinct / total, distinct, total)``.

    Args:
        token_lists: one token sequence per text; n-grams never cross two texts.
        n: the n-gram order, an int >= 1.

    Returns:
        ``(ratio in [0, 1], number of distinct n-grams, number of n-grams)``; the ratio is ``None`` (undefined,
        0/0) when there is no n-gram (no text, or every text shorter than ``n``).

    Raises:
        ValueError: ``n`` not an int >= 1.
        TypeError: ``token_lists`` or one of its entries is a ``str`` or not a sequence, or a token is not a ``str``
            (naming ``token_lists[i]`` / ``token_lists[i][j]``): a text is not a token list -- tokenise it first,
            e.g. ``zheval.get_tokenizer("char")(text)`` (counting a string's characters would make spaces tokens).
    """
    check_token_lists(token_lists)
    return NgramCounter([[t] for t in token_lists], (n,)).distinct(n)


def check_token_lists(token_lists, name: str = "token_lists") -> None:
    """Refuse anything but a sequence of token sequences of ``str``, naming the first bad entry.

    Raises:
        TypeError: ``token_lists`` is a ``str`` or not a list/tuple; ``token_lists[i]`` is a ``str`` (an
            untokenised text) or not a list/tuple; ``token_lists[i][j]`` is not a ``str``.
    """
    hint = 'tokenise texts first, e.g. zheval.get_tokenizer("char")(text)'
    if isinstance(token_lists, str) or not isinstance(token_lists, (list, tuple, np.ndarray)):
        raise TypeError(f"{name} must be a list of token lists, got {type(token_lists).__name__}; {hint}")
    for i, toks in enumerate(token_lists):
        if isinstance(toks, str):
            raise TypeError(f"{name}[{i}] is a str ({toks[:30]!r}), not a list of tokens; {hint}")
        if not isinstance(toks, (list, tuple, np.ndarray)):
            raise TypeError(f"{name}[{i}] must be a list of str tokens, got {type(toks).__name__}")
        for j, t in enumerate(toks):
            if not isinstance(t, str):
                raise TypeError(f"{name}[{i}][{j}] must be a str token, got {type(t).__name__}")


def repetition(texts: Sequence[str], shown: Optional[Sequence[str]] = None) -> dict:
    """Repeated texts: ``{"duplicate_share", "duplicates", "most_frequent", "most_frequent_count"}``.

    ``duplicates``: how many texts equal another text of the list (every copy counts, the first included);
    ``duplicate_share``: that over ``len(texts)`` (0.0 for no text); ``most_frequent`` / ``most_frequent_count``: the
    most frequent repeated text and how often it occurs (ties: the text seen first); ``None``/0 when no text occurs
    twice (no text, or all distinct: the reports' "none repeated", never an arbitrary first text).

    Args:
        texts: the texts compared (e.g. normalised predictions).
        shown: optional, one string per text: ``most_frequent`` is then ``shown`` at the first occurrence of the
            most frequent text (e.g. the prediction as the model wrote it, where ``texts`` are normalised: two
            forms that normalise alike count as one text, and the one shown is the first as written).

    Raises:
        ValueError: ``shown`` of another length than ``texts``.
    """
    if shown is not None and len(shown) != len(texts):
        raise ValueError(f"shown has {len(shown)} strings for {len(texts)} texts")
    counts = Counter(texts)
    dup = sum(c for c in counts.values() if c > 1)
    top, top_n = None, 1  # a text seen once is no "most frequent" one
    for i, t in enumerate(texts):  # first-seen order breaks ties
        if counts[t] > top_n:
            top, top_n = (t if shown is None else shown[i]), counts[t]
    return {"duplicate_share": dup / len(texts) if texts else 0.0, "duplicates": dup, "most_frequent": top,
            "most_frequent_count": top_n if top is not None else 0}


@dataclass
class Diversity:
    """Distinct-n of the predictions and of the references, and the repeated predictions, of one group of items.

    Attributes:
        n_items: items; distinct: ``{"distinct_1": ratio or None (no n-gram), ...}`` of the predictions; distinct_counts:
            ``{"distinct_1": [distinct, total], ...}``; reference_distinct / reference_distinct_counts: the same over
            every reference (the human baseline); repetition: `repetition` of the normalised predictions (the most
            frequent shown as written at its first occurrence).
    """

    n_items: int
    distinct: dict
    distinct_counts: dict
    reference_distinct: dict
    reference_distinct_counts: dict
    repetition: dict

    def to_dict(self) -> dict:
        return {"n_items": self.n_items, "distinct": dict(self.distinct),
                "distinct_counts": {k: list(v) for k, v in self.distinct_counts.items()},
                "reference_distinct": dict(self.reference_distinct),
                "reference_distinct_counts": {k: list(v) for k, v in self.reference_distinct_counts.items()},
                "repetition": dict(self.repetition)}


def diversity(predictions: Sequence[str], references: Sequence[Sequence[str]], tokenizer,
              orders: Sequence[int] = DISTINCT_ORDERS, groups=None):
    """`Diversity` of predictions and their references with the metrics' tokenizer.

    Args:
        predictions: one string per item.
        references: per item a list of strings.
        tokenizer: a `zheval.tokenizers.BaseTokenizer` (the config's: ``tokenize_cached`` gives the tokens
            and ``normalize`` the text compared for duplicates), or anything
            [`zheval.tokenizers.get_tokenizer`][] takes (a name such as ``"char"``, a callable).
        orders: the n of Distinct-n (default `DISTINCT_ORDERS`).
        groups: optional list (or tuple) of groups, each a list, tuple, range or 1-D integer numpy array of item
            indices ``0 <= i < len(predictions)``; then a list with one `Diversity` per group, in order, is
            returned (the corpus is tokenised and indexed once). Refused, naming ``groups[g]`` / ``groups[g][k]``:
            a bool (a mask is not a list of indices: pass ``numpy.flatnonzero(mask)``), a negative index (no
            wrapping around from the end), an index out of range, anything but an int.

    Raises:
        ValueError: different lengths; an order < 1 (or an unknown tokenizer name); a negative or out-of-range index
            in ``groups``.
        TypeError: ``predictions`` or ``references`` a table (a pandas DataFrame: iterating it gives its column
            names), a mapping or a set, naming the remedy (`zheval.io.text_lists`; a pandas Series is a sequence and
            is taken by position); ``predictions[i]`` not a ``str``; ``references[i]`` a ``str`` or not a list/tuple;
            ``references[i][j]`` not a ``str``; ``groups`` or one of its groups not of the form above, an index that
            is a bool or not an int.
    """
    check_text_list(predictions, "predictions")  # a DataFrame would give its column names (`zheval.io.text_lists`)
    check_text_list(references, "references", "a list with one list of references per item")
    predictions, references = list(predictions), list(references)  # a Series: by position, not by index label
    if not isinstance(tokenizer, BaseTokenizer):
        tokenizer = get_tokenizer(tokenizer)
    for i, p in enumerate(predictions):
        if not isinstance(p, str):
            raise TypeError(f"predictions[{i}] must be str, got {type(p).__name__}")
    for i, rs in enumerate(references):
        if isinstance(rs, str) or not isinstance(rs, (list, tuple)):
            raise TypeError(f"references[{i}] must be a list of str, got {type(rs).__name__}")
        for j, r in enumerate(rs):
            if not isinstance(r, str):
                raise TypeError(f"references[{i}][{j}] must be str, got {type(r).__name__}")
    if len(predictions) != len(references):
        raise ValueError(f"{len(predictions)} predictions but {len(references)} reference lists")
    if groups is not None:
        groups = _check_groups(groups, len(predictions))
    hyp = NgramCounter([[tokenizer.tokenize_cached(p)] for p in predictions], orders)
    ref = NgramCounter([[tokenizer.tokenize_cached(r) for r in rs] for rs in references], orders)
    normalized = [tokenizer.normalize(p) for p in predictions]

    def one(idx) -> Diversity:
        d, dc, rd, rdc = {}, {}, {}, {}
        for n in orders:
            key = f"distinct_{n}"
            d[key], a, b = hyp.distinct(n, idx)
            dc[key] = [a, b]
            rd[key], a, b = ref.distinct(n, idx)
            rdc[key] = [a, b]
        return Diversity(len(idx), d, dc, rd, rdc, repetition([normalized[i] for i in idx], [predictions[i] for i in idx]))

    if groups is None:
        return one(range(len(predictions)))
    return [one(idx) for idx in groups]


def _check_groups(groups, n_items: int) -> list:
    """``groups`` of `diversity` checked: a list of lists of item indices ``0 <= i < n_items``.

    Raises:
        TypeError: ``groups`` not a list/tuple; ``groups[g]`` not a list, tuple, range or 1-D numpy array; a bool
            (mask) or non-int ``groups[g][k]``. ValueError: ``groups[g][k]`` negative or ``>= n_items``.
    """
    mask_hint = "a mask is not a list of indices: pass numpy.flatnonzero(mask)"
    if not isinstance(groups, (list, tuple)):
        raise TypeError(f"groups must be a list of item-index lists, got {type(groups).__name__}")
    out = []
    for g, idx in enumerate(groups):
        if isinstance(idx, np.ndarray):
            if idx.ndim != 1 or idx.dtype.kind not in "biu":
                raise TypeError(f"groups[{g}] must be a 1-D array of int item indices, got a {idx.ndim}-D "
                                f"{idx.dtype} array")
            in_range = idx.dtype.kind in "iu" and not ((idx < 0) | (idx >= n_items)).any()
            idx = idx.tolist()
            if in_range:  # integers in range, checked at once; otherwise the first bad one is named below
                out.append(idx)
                continue
        elif not isinstance(idx, (list, tuple, range)):
            raise TypeError(f"groups[{g}] must be a list of item indices, got {type(idx).__name__}")
        for k, i in enumerate(idx):
            if isinstance(i, (bool, np.bool_)):
                raise TypeError(f"groups[{g}][{k}] is a bool ({i!r}); {mask_hint}")
            if not isinstance(i, (int, np.integer)):
                raise TypeError(f"groups[{g}][{k}] must be an int item index, got {type(i).__name__} {i!r}")
            if not 0 <= i < n_items:
                raise ValueError(f"groups[{g}][{k}] = {i} is not an item index: 0 to {n_items - 1} for {n_items} "
                                 f"items{' (a negative index does not count from the end)' if i < 0 else ''}")
        out.append([int(i) for i in idx])
    return out


class _SortedKeys:
    """A growing set of integer keys (int64 scalars, or int32 rows for long n-grams) kept as one sorted unique
    array plus sorted unique pending chunks, merged when the pending keys reach a quarter of the main array
    (amortised; 8 bytes a packed key). Packed keys merge by inserting the new ones in place, so a merge holds the
    main array twice at most, not the concatenation and its sort."""

    def __init__(self) -> None:
        self.main: Optional[np.ndarray] = None
        self.pending: list = []
        self.pending_size = 0

    _MIN_PENDING = 1 << 16

    def add(self, keys: np.ndarray) -> None:
        if keys.shape[0] == 0:
            return
        self.pending.append(np.unique(keys, axis=0 if keys.ndim == 2 else None))
        self.pending_size += self.pending[-1].shape[0]
        if self.main is None or self.pending_size >= max(self.main.shape[0] // 4, self._MIN_PENDING):
            self._merge()

    def _merge(self) -> None:
        if not self.pending:
            return
        if self.main is None or self.main.ndim == 2:
            parts = ([self.main] if self.main is not None else []) + self.pending
            both = np.concatenate(parts)
            self.main = np.unique(both, axis=0 if both.ndim == 2 else None)
        else:  # packed keys: the pending keys not yet held, inserted in place (main and the result, no re-sort)
            new = np.unique(np.concatenate(self.pending)) if len(self.pending) > 1 else self.pending[0]
            main = self.main
            pos = np.searchsorted(main, new)
            held = (pos < main.shape[0]) & (main[np.minimum(pos, max(main.shape[0] - 1, 0))] == new) \
                if main.shape[0] else np.zeros(new.shape[0], dtype=bool)
            self.main = np.insert(main, pos[~held], new[~held])
        self.pending, self.pending_size = [], 0

    def __len__(self) -> int:
        self._merge()
        return 0 if self.main is None else int(self.main.shape[0])


class StreamingDistinct:
    """Distinct-n of a corpus that streams by in chunks (`add`), with exact counts in compact structures: the
    same numbers as [`distinct_n`][zheval.results.distinct.distinct_n] on the whole list.

    Tokens get integer ids from one vocabulary (a dict of the distinct tokens seen); an n-gram of order ``n <= 2``
    is one int64 key (ids of 31 bits packed side by side), a longer one an int32 row; each order keeps its distinct
    keys as a sorted unique numpy array (`_SortedKeys`), never Python sets of tuples. Memory: 8 bytes per
    distinct n-gram (n <= 2) plus the vocabulary.

    Args:
        orders: the n-gram orders (ints >= 1; default `DISTINCT_ORDERS`).
        vocab: the token -> id dict to use (default: a new one); the counts of a corpus' groups share the corpus'
            so its ids are computed once (`token_ids`, `add_ids`).

    Raises:
        ValueError: an order that is not an int >= 1.
    """

    _BITS = 31

    def __init__(self, orders: Sequence[int] = DISTINCT_ORDERS, vocab: Optional[dict] = None) -> None:
        for n in orders:
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise ValueError(f"n must be an int >= 1, got {n!r}")
        self.orders = tuple(orders)
        self.vocab: dict = {} if vocab is None else vocab  # shared by the counts of a corpus' groups
        self.totals = {n: 0 for n in self.orders}
        self.keys = {n: _SortedKeys() for n in self.orders}

    def add(self, token_lists: Sequence[Sequence[str]]) -> None:
        """Count the n-grams of one chunk of texts (one token sequence per text; n-grams never cross texts).

        Raises:
            ValueError: more than 2**31 distinct tokens.
        """
        self.add_ids(*self.token_ids(token_lists))

    def token_ids(self, token_lists: Sequence[Sequence[str]]) -> tuple:
        """``(flat, lens)``: the texts' token ids in the vocabulary (new tokens added) as one int64 array, and each
        text's length. Raises ValueError: more than 2**31 distinct tokens."""
        vocab = self.vocab
        lens = np.fromiter((len(t) for t in token_lists), dtype=np.int64, count=len(token_lists))
        flat = np.fromiter((vocab.setdefault(t, len(vocab)) for toks in token_lists for t in toks), dtype=np.int64,
                           count=int(lens.sum()))
        if len(vocab) >= 1 << self._BITS:
            raise ValueError("StreamingDistinct: more than 2**31 distinct tokens")
        return flat, lens

    def add_ids(self, flat: np.ndarray, lens: np.ndarray) -> None:
        """Count the n-grams of texts given as `token_ids` of this vocabulary: ``flat`` (int64 ids, every text's
        tokens in turn) and ``lens`` (each text's length)."""
        starts = np.concatenate([[0], np.cumsum(lens)])
        pos = np.arange(flat.shape[0])
        text_of = np.repeat(np.arange(len(lens)), lens)
        for n in self.orders:
            ok = pos + n <= starts[text_of + 1] if flat.shape[0] else np.zeros(0, dtype=bool)
            first = pos[ok]
            self.totals[n] += int(first.shape[0])
            if n <= 2:
                key = flat[first]
                for j in range(1, n):
                    key = (key << self._BITS) | flat[first + j]
            else:
                key = np.stack([flat[first + j] for j in range(n)], axis=1).astype(np.int32)
            self.keys[n].add(key)

    def distinct(self, n: int) -> tuple[float | None, int, int]:
        """``(distinct / total, distinct, total)`` of order ``n`` over every chunk added (ratio ``None`` without an
        n-gram), as [`distinct_n`][zheval.results.distinct.distinct_n]. Raises KeyError: an order not counted."""
        total = self.totals[n]
        count = len(self.keys[n])
        return (count / total if total else None), count, total


class StreamingRepetition:
    """`repetition` of texts that stream by in chunks (`add`), with exact counts in compact structures:
    each distinct text is a 96-bit BLAKE2b key (a uint64 and a uint32 word: two distinct texts of 10**9 share one with
    probability below 10**-11) with its count (uint8, widened a byte at a time when a text repeats more often) and
    its first position (uint32, widened past 2**32 texts), kept sorted (`zheval.results.sorted_keys.SortedKeys`: new
    keys inserted in place, never a re-sort of all); only texts seen twice or more keep their text (the candidates for
    ``most_frequent``). Memory: 17 bytes per distinct text plus the repeated texts themselves.

    With ``dimensions`` > 0 it also gives `repetition` per group (`group_result`) for ``add``'s ``groups`` (one
    group id per text and dimension) from the same table: 1 more byte per distinct text and dimension (the group
    of its first occurrence; uint8, widened past 255 groups), and per group a count per text seen twice or more
    overall.

    With ``add``'s ``shown`` (the texts as written, where ``texts`` are normalised), ``most_frequent`` is the text as
    written at the first occurrence, as `repetition`'s ``shown``. A first occurrence in an earlier chunk that was
    not yet repeated there has not kept its text: `missing` names those positions (only the most frequent texts'),
    `fill` takes their texts (read again by the caller), before `result` / `group_result`.
    """

    def __init__(self, dimensions: int = 0) -> None:
        self.dimensions = dimensions
        self.table = SortedKeys(2, {"count": np.uint8, "first": np.uint32,
                                    **{f"group{j}": np.uint8 for j in range(dimensions)}}, last_word=np.uint32)
        self.repeated: dict = {}  # key -> [text, first position]
        self.shown: dict = {}  # position -> the text as written there (first occurrences of repeated texts)
        self.as_written = False  # some chunk came with ``shown``
        self.n = 0
        # per group: (dimension, group id) -> [texts, first text, {key: [count, first position]}], the last only for
        # texts seen twice or more overall (a text seen once overall is seen once in its groups)
        self.groups: dict = {}

    @staticmethod
    def _key(text: str) -> tuple:
        d = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).digest()
        return int.from_bytes(d[:8], "little"), int.from_bytes(d[8:], "little")

    def add(self, texts: Sequence[str], groups: Optional[np.ndarray] = None,
            shown: Optional[Sequence[str]] = None) -> None:
        """Count one chunk of (normalised) texts, in order; with ``dimensions``, ``groups`` is ``(len(texts),
        dimensions)`` ints: each text's group id in each dimension (`group_result` reads them back); ``shown``: the
        chunk's texts as written (one per text; default ``texts``). Raises ValueError: ``shown`` of another
        length."""
        if not len(texts):
            return
        if shown is None:
            shown = texts
        else:
            if len(shown) != len(texts):
                raise ValueError(f"shown has {len(shown)} strings for {len(texts)} texts")
            self.as_written = True
        chunk = np.array([self._key(t) for t in texts], dtype=np.uint64).reshape(-1, 2)
        keys, first, counts = unique_rows(chunk)
        table = self.table
        pos, found = table.locate(keys)
        if self.dimensions:
            self._add_groups(shown, chunk, groups, keys, first, counts, pos, found)
        if found.any():
            old = table.payload["count"]
            table.payload["count"] = widened(old, int(old[pos[found]].max()) + int(counts.max()))
            table.payload["count"][pos[found]] += counts[found].astype(table.payload["count"].dtype)
        table.insert(pos[~found], keys[~found], {"count": counts[~found], "first": first[~found] + self.n,
                                                 **{f"group{j}": np.asarray(groups)[first[~found], j]
                                                    for j in range(self.dimensions)}})
        pos, _ = table.locate(keys)
        now = table.payload["count"][pos]
        for i in np.flatnonzero(now >= 2):
            k = (int(keys[i, 0]), int(keys[i, 1]))
            if k not in self.repeated:
                self.repeated[k] = [texts[int(first[i])], int(table.payload["first"][pos[i]])]
                self.shown[self.n + int(first[i])] = shown[int(first[i])]
        self.n += len(texts)

    def _add_groups(self, shown, chunk, groups, keys, first, counts, pos, found) -> None:
        """Count the chunk per group (before its keys enter the table): every text's group size and first text;
        a text seen twice or more overall (earlier chunks included) is counted per group, its earlier single
        occurrence taken from the table's ``group<j>`` and ``first`` columns."""
        groups = np.asarray(groups)
        for j in range(self.dimensions):
            for i, g in enumerate(groups[:, j].tolist()):
                entry = self.groups.get((j, g))
                if entry is None:
                    entry = self.groups[(j, g)] = [0, shown[i], {}]
                entry[0] += 1
        before = np.zeros(len(keys), dtype=np.int64)
        if found.any():
            before[found] = self.table.payload["count"][pos[found]]
        many = np.flatnonzero(before + counts >= 2)
        if not len(many):
            return
        index = {(int(keys[u, 0]), int(keys[u, 1])): u for u in many.tolist()}
        for i, (a, b) in enumerate(chunk.tolist()):
            u = index.get((a, b))
            if u is None:
                continue
            if before[u] == 1 and i == first[u]:  # its one earlier occurrence, now that it repeats
                at = pos[u]
                for j in range(self.dimensions):
                    self._group_count(j, int(self.table.payload[f"group{j}"][at]), (a, b),
                                      int(self.table.payload["first"][at]))
            for j in range(self.dimensions):
                if self._group_count(j, int(groups[i, j]), (a, b), self.n + i):
                    self.shown[self.n + i] = shown[i]

    def _group_count(self, j: int, g: int, key: tuple, position: int) -> bool:
        """Count ``key`` at ``position`` in group ``g`` of dimension ``j``; True when it is the group's first."""
        counted = self.groups[(j, g)][2]
        if key in counted:
            counted[key][0] += 1
            return False
        counted[key] = [1, position]
        return True

    def _group_top(self, dimension: int, group: int) -> Optional[tuple]:
        """``(count, first position in the group, key)`` of the group's most frequent repeated text, or None."""
        best = [(c, -p, k) for k, (c, p) in self.groups[(dimension, group)][2].items() if c > 1]
        if not best:
            return None
        c, p, k = max(best)
        return c, -p, k

    def _top(self) -> Optional[tuple]:
        """``(count, first position, key)`` of the most frequent repeated text overall, or None."""
        if not self.repeated:
            return None
        counts = self.table.payload["count"]
        many = counts >= 2
        count_of = {(int(a), int(b)): int(c) for a, b, c in zip(self.table.words[0][many].tolist(),
                                                               self.table.words[1][many].tolist(),
                                                               counts[many].tolist())}
        k, (_, p) = max(self.repeated.items(), key=lambda kv: (count_of[kv[0]], -kv[1][1]))
        return count_of[k], p, k

    def _text_at(self, position: int, key: tuple) -> str:
        return self.shown.get(position, self.repeated[key][0])

    def missing(self) -> list:
        """Sorted positions whose text as written `result` and `group_result` need but were not kept (empty when no
        chunk came with ``shown``): give their texts to `fill`."""
        if not self.as_written:
            return []
        tops = [self._top()] + [self._group_top(j, g) for j, g in self.groups]
        return sorted({t[1] for t in tops if t is not None and t[1] not in self.shown})

    def fill(self, texts: dict) -> None:
        """``{position: text as written}`` for the positions of `missing`."""
        self.shown.update(texts)

    def group_result(self, dimension: int, group: int) -> dict:
        """The dict of `repetition` on the texts of one group (``dimension``'s group id ``group``, as given to
        `add`), in order. Raises KeyError: a group never added."""
        n, _, counted = self.groups[(dimension, group)]
        dup = sum(c for c, _ in counted.values() if c > 1)
        top, top_n = None, 0  # no text repeated (`repetition`)
        best = self._group_top(dimension, group)
        if best is not None:
            top, top_n = self._text_at(best[1], best[2]), best[0]
        return {"duplicate_share": dup / n, "duplicates": dup, "most_frequent": top, "most_frequent_count": top_n}

    def result(self) -> dict:
        """The dict of `repetition` on every text added, in order."""
        counts = self.table.payload["count"]
        dup = int(counts[counts > 1].sum(dtype=np.int64))
        top, top_n = None, 0  # no text repeated (`repetition`)
        best = self._top()
        if best is not None:
            top, top_n = self._text_at(best[1], best[2]), best[0]
        return {"duplicate_share": dup / self.n if self.n else 0.0, "duplicates": dup, "most_frequent": top,
                "most_frequent_count": top_n}
