"""Corpus-at-once tokenisation for the plain ``char`` tokenizer, with numpy: token ids of many normalised pieces of
text in one pass, the same tokens as `zheval.tokenizers.CharTokenizer`'s regular expression.

Why it exists
    `zheval.tokenizers.corpus.tokenize_corpus` needs integer token ids per sentence of every distinct text. The regular
    expression creates one ``str`` object per token and the ids then cost one dict lookup per token; on long texts
    that is ~40 % of a ROUGE computation. Here every character of the corpus is classified with one table lookup and
    the token boundaries follow from a few vectorised comparisons; a single-character token (nearly every token of
    Chinese text) gets its id from its code point, and only distinct characters and multi-character tokens (word
    runs like ``iOS``, ``3.5GB``; a symbol with attached marks) go through the vocabulary dict.

The rules (the regular expression ``HAN | WORD | OTHER`` of `zheval.tokenizers`, scanned left to right)
    Every distinct character of the call gets a class, computed from the very character classes the regular
    expression uses (one regular-expression pass over the distinct characters, no table kept): ``H`` (Han
    or kana: one token), ``W`` (a letter/digit that is not Han or kana: starts or continues a word run), ``M`` (an
    attached mark; ``MO`` if it may also start a token on its own, ``MS`` if not), ``D`` (``.``), ``R`` (a regional
    indicator: half a flag), ``O`` (any other character that may start a token) and ``S`` (whitespace, control, invisible format and tag characters: never
    in a token). Then, per character:

    * ``H`` and ``O`` start a token; ``S`` is skipped;
    * ``R`` starts a token, except the second, fourth, … ``R`` of a run of consecutive ``R`` (a flag: two regional
      indicators), which continues the token of the one before it;
    * ``W`` continues the previous token iff that token is a word run, else it starts one;
    * ``.`` continues a word run iff an ASCII digit follows it (``3.5``, ``192.168.1.1``), else it is a token;
    * a mark continues the token of the character before it, whatever its class (``H``, a word run, ``.`` or an
      ``O`` token, and a mark run after any of them) -- except after ``S`` or at the start of a piece, where
      nothing precedes it: there the first ``MO`` of the run starts a token that the following marks join, and
      ``MS`` marks (invisible ones: variation selectors) before it are skipped.

    Tested equal to the regular expression on every BMP character in several contexts, on random strings over
    the tricky classes (hypothesis) and on the shared real data.
"""

from __future__ import annotations

import re
from typing import List, Optional, Sequence, Tuple

import numpy as np

from .char import CHAR_FLAG_HALF, CHAR_HAN, CHAR_MARK, CHAR_OTHER_START, CHAR_WORD  # the expression's own classes

__all__ = ["char_token_ids", "INT32_MAX", "compact_dtype"]

#: Largest value an int32 holds. Token ids are below the vocabulary size and token positions below the number of
#: code points, so a tokenised corpus (`zheval.tokenizers.corpus.TokenizedCorpus`) and the compiled token pass keep
#: them as int32 while that bound holds (`compact_dtype`), as int64 beyond it; every reader that does key
#: arithmetic on ids widens them to int64 first (`zheval.fast.ngrams`, `zheval.fast.slots`, the compiled twins).
INT32_MAX = 2**31 - 1


def compact_dtype(bound: int):
    """``np.int32`` when every value is in ``[0, bound)`` with ``bound <= INT32_MAX + 1``, else ``np.int64``."""
    return np.int32 if bound <= INT32_MAX + 1 else np.int64

H, W, D, O, S, MO, MS, R = range(8)
#: CJK Unified Ideographs and Extension A: class ``H`` without asking the regular expression per character.
IDEOGRAPHS = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF))


def _classify(chars: str) -> np.ndarray:
    """Class codes (uint8) of each character of ``chars`` (a string of distinct code points)."""
    n = len(chars)
    out = np.full(n, S, dtype=np.uint8)

    def member(cls: str) -> np.ndarray:
        mask = np.zeros(n, dtype=bool)
        idx = [m.start() for m in re.finditer(cls, chars, flags=re.DOTALL)]
        mask[idx] = True
        return mask

    han, word, mark, other = member(CHAR_HAN), member(CHAR_WORD), member(CHAR_MARK), member(CHAR_OTHER_START)
    flag_half = member(CHAR_FLAG_HALF)
    if (mark & (han | word)).any():  # the rules below assume it (true of the expression's classes)
        raise RuntimeError("zheval.tokenizers.char_ids: a character is both an attached mark and a Han/word character; the "
                           "char tokenizer's classes changed and this module must follow")
    out[mark & other] = MO
    out[mark & ~other] = MS
    out[other & ~mark] = O
    out[flag_half & other & ~mark] = R
    out[word] = W  # the alternatives in the expression's order: a Han/kana or word character starts HAN/WORD
    out[han] = H
    dot = chars.find(".")
    if dot >= 0:
        out[dot] = D
    return out


def _class_table(cp: np.ndarray) -> np.ndarray:
    """A lookup table ``code point -> class code`` covering ``cp``: each distinct character classified once."""
    present = np.zeros(max(int(cp.max()), 10) + 2, dtype=bool)  # the separator (10) is always in the table
    present[cp] = True
    present[10] = True  # the separator
    u = np.flatnonzero(present)
    lut = np.zeros(len(present), dtype=np.uint8)
    ideograph = np.zeros(len(u), dtype=bool)
    for lo, hi in IDEOGRAPHS:
        ideograph |= (u >= lo) & (u <= hi)
    lut[u[ideograph]] = H  # the expression's HAN class holds these ranges whole (tests/fast/test_normalize_ranges.py)
    rest = u[~ideograph]
    lut[rest] = _classify("".join(map(chr, rest.tolist())))
    return lut


def class_table(cp: np.ndarray) -> np.ndarray:
    """``(max(cp) + 2,)`` uint8 class codes (``H``, ``W``, ``D``, ``O``, ``S``, ``MO``, ``MS``, ``R``) of the code points
    present in the non-empty array ``cp`` (the others read 0): `_class_table`, for `zheval.tokenizers.term_ids`."""
    return _class_table(cp)


def char_token_ids(pieces: Sequence[str], vocab) -> Tuple[List[int], np.ndarray]:
    """Token ids of normalised pieces of text under the plain ``char`` tokenizer (no terms, ``punct="keep"``).

    Args:
        pieces: normalised strings without line breaks (sentences or lines).
        vocab: a `zheval.tokenizers.corpus.TokenIds` (token ``str`` -> id); new tokens get new ids.
    Returns:
        ``(ids, offsets)``: all token ids as a Python ``list`` of ints, and ``(len(pieces) + 1,)`` int64 offsets --
        piece k's tokens are ``ids[offsets[k]:offsets[k + 1]]``; their strings are exactly
        ``CharTokenizer().tokenize_normalized(piece)``.
    """
    lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
    offsets = np.zeros(len(pieces) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    big = "".join(pieces)
    cp = np.frombuffer(big.encode("utf-32-le", "surrogatepass"), dtype=np.uint32) if big else np.zeros(0, np.uint32)
    ids, starts, _, text_tokens = char_token_spans(cp, offsets, vocab)
    return ids.tolist(), text_tokens


#: Characters per numpy pass of `char_token_spans`.
CHUNK_CHARS = 1 << 18


def char_token_spans(cp: np.ndarray, offsets: np.ndarray, vocab, punct_drop: bool = False, compiled: bool = False,
                     *, table: Optional[np.ndarray] = None):
    """The plain ``char`` tokenizer's tokens of many normalised texts laid out in one code point array.

    Args:
        cp: ``(N,)`` code points of the texts, concatenated (line breaks inside a text are whitespace, as for the
            tokenizer).
        offsets: ``(n_texts + 1,)`` int64 text offsets into ``cp`` (a token never crosses a text boundary).
        vocab: a `zheval.tokenizers.corpus.TokenIds`; new tokens get new ids.
        punct_drop: drop the tokens made only of punctuation, symbols and marks (``punct="drop"``: the tokens that
            start with a character that is not Han, kana or a letter/digit).
        compiled: when no text holds an attached mark or a regional indicator, the tokens and their ids from the
            compiled passes (`zheval.tokenizers.char_spans_kernel`, numba; the caller asked
            `zheval.fast.usable_for` ``"compiled_tokens"``): the same tokens, their ids by code point rank
            (`_compiled_spans`).
        table: `class_table` of ``cp`` when the caller has it (found here when None).
    Returns:
        ``(ids, starts, ends, text_tokens)``: int64 arrays (``ids``, ``starts``, ``ends`` int32 from the compiled
        passes while ``len(cp)`` fits) -- token k is ``cp[starts[k]:ends[k]]`` with id
        ``ids[k]``; text i owns tokens ``text_tokens[i]:text_tokens[i + 1]`` -- the tokens of
        ``CharTokenizer(punct=...).tokenize_normalized(text)``, in order.
    """
    cp = np.asarray(cp, dtype=np.uint32)
    offsets = np.asarray(offsets, dtype=np.int64)
    n_texts = len(offsets) - 1
    if table is None and len(cp):
        table = _class_table(cp)
    if compiled and table is not None and not np.isin(table, (MO, MS, R)).any():
        return _compiled_spans(cp, offsets, vocab, punct_drop, table)
    lut = np.full(len(table) if table is not None else 0, -1, dtype=np.int64)  # code point -> single-char token id
    parts = []
    lo = 0
    while lo < n_texts:
        hi = int(np.searchsorted(offsets, offsets[lo] + CHUNK_CHARS, side="right")) - 1
        hi = min(max(hi, lo + 1), n_texts)
        a, b = int(offsets[lo]), int(offsets[hi])
        parts.append(_spans(cp[a:b], offsets[lo:hi + 1] - a, vocab, punct_drop, a, table, lut))
        lo = hi
    if not parts:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z, np.zeros(n_texts + 1, dtype=np.int64)
    ids = np.concatenate([p[0] for p in parts])
    starts = np.concatenate([p[1] for p in parts])
    ends = np.concatenate([p[2] for p in parts])
    text_tokens = np.searchsorted(starts, offsets, side="left").astype(np.int64)
    return ids, starts, ends, text_tokens


def _compiled_spans(cp: np.ndarray, offsets: np.ndarray, vocab, punct_drop: bool, table: np.ndarray):
    """`char_token_spans` of texts without attached marks and regional indicators, from the compiled passes: the
    token boundaries (`zheval.tokenizers.char_spans_kernel.token_bounds`), then dense ids
    (`zheval.tokenizers.char_spans_kernel.token_ids`: a one-character token by the rank of its code point, a
    longer one by its first occurrence) mapped through ``vocab`` once per distinct token -- no ``str`` per token."""
    from .char_spans_kernel import token_bounds, token_ids

    small = compact_dtype(len(cp))  # positions, token counts and the dense ids below are all < len(cp)
    starts, ends, text_tokens = token_bounds(cp, np.ascontiguousarray(offsets, dtype=np.int64), table,
                                             bool(punct_drop), np.empty(len(cp), dtype=small),
                                             np.empty(len(cp), dtype=small))
    ids, chars, firsts = token_ids(cp, starts, ends, np.empty(len(starts), dtype=small))
    words = list(map(chr, chars.tolist()))
    if len(firsts):  # the longer tokens' strings: their code points gathered, decoded once, sliced
        lens = ends[firsts] - starts[firsts]
        pos = np.repeat(starts[firsts] - np.cumsum(lens) + lens, lens) + np.arange(int(lens.sum()))
        big = cp[pos].tobytes().decode("utf-32-le", "surrogatepass")
        cut = np.concatenate(([0], np.cumsum(lens))).tolist()
        words += [big[a:b] for a, b in zip(cut[:-1], cut[1:])]
    held = len(vocab)
    remap = np.fromiter(map(vocab.__getitem__, words), dtype=compact_dtype(len(vocab) + len(words)),
                        count=len(words))
    if held:  # a vocabulary that held tokens before (else its ids are these)
        ids = remap[ids]
    return ids, starts, ends, text_tokens


def _multi_ids(cp: np.ndarray, starts: np.ndarray, ends: np.ndarray, getid) -> np.ndarray:
    """Ids of tokens of two or more characters: those of at most three characters are packed into one int64 key
    (no code point is 0 inside a token) and looked up once per distinct key; longer ones by their string."""
    out = np.empty(len(starts), dtype=np.int64)
    lens = ends - starts
    short = np.flatnonzero(lens <= 3)
    if len(short):
        s0 = starts[short]
        c = cp.astype(np.int64)
        key = (c[s0] << 42) | (c[s0 + 1] << 21)
        three = lens[short] == 3
        key[three] |= c[s0[three] + 2]
        uniq, inv = np.unique(key, return_inverse=True)
        words = ["".join(chr(x) for x in (k >> 42, (k >> 21) & 0x1FFFFF, k & 0x1FFFFF) if x) for k in uniq.tolist()]
        out[short] = np.fromiter(map(getid, words), dtype=np.int64, count=len(words))[inv]
    long_ = np.flatnonzero(lens > 3)
    if len(long_):
        big = cp.tobytes().decode("utf-32-le", "surrogatepass")
        out[long_] = [getid(big[a:b]) for a, b in zip(starts[long_].tolist(), ends[long_].tolist())]
    return out


def _starts_with_marks(cls, is_m, is_w, digit_next):
    """``(start, in_token)`` per position when the chunk holds attached marks (the general rules)."""
    n = len(cls)
    pos = np.arange(n, dtype=np.int64)
    # anchor: the last non-mark position <= i (-1 if none)
    anchor = np.maximum.accumulate(np.where(is_m, -1, pos))
    prev_anchor = np.empty(n, dtype=np.int64)
    prev_anchor[0] = -1
    prev_anchor[1:] = anchor[:-1]
    # "." continues a word run iff a digit follows and the token before it is a word run (then its anchor is W)
    joined_dot = (cls == D) & digit_next & (prev_anchor >= 0) & is_w[np.maximum(prev_anchor, 0)]
    wordish_base = is_w | joined_dot
    safe_anchor = np.maximum(anchor, 0)
    anchor_cls = np.where(anchor >= 0, cls[safe_anchor], S)
    wordish = np.where(is_m, (anchor >= 0) & wordish_base[safe_anchor], wordish_base)
    prev_wordish = np.zeros(n, dtype=bool)
    prev_wordish[1:] = wordish[:-1]
    # marks after S or the start ("orphans"): the first MO of the run starts a token, MS before it are skipped
    orphan = is_m & (anchor_cls == S)
    last_mo = np.maximum.accumulate(np.where(orphan & (cls == MO), pos, -1))
    prev_last_mo = np.empty(n, dtype=np.int64)
    prev_last_mo[0] = -1
    prev_last_mo[1:] = last_mo[:-1]
    is_o = (cls == O) | (cls == R)  # a regional indicator starts a token as O does (flags: _flag_seconds)
    in_token = (cls == H) | is_w | is_o | (cls == D) | (is_m & ~orphan) | (orphan & (last_mo > anchor))
    start = ((cls == H) | is_o | ((cls == D) & ~joined_dot) | (is_w & ~prev_wordish)
             | (orphan & (cls == MO) & ~(prev_last_mo > anchor)))
    return start, in_token


def _flag_seconds(is_r: np.ndarray, text_starts: np.ndarray) -> np.ndarray:
    """Per position: a regional indicator that is the 2nd, 4th, … of its run of consecutive regional indicators (a
    run never continues across ``text_starts``), which joins the one before it into a flag."""
    n = len(is_r)
    if not is_r.any():
        return np.zeros(n, dtype=bool)
    pos = np.arange(n, dtype=np.int64)
    prev_r = np.zeros(n, dtype=bool)
    prev_r[1:] = is_r[:-1]
    prev_r[text_starts] = False
    run_start = np.maximum.accumulate(np.where(is_r & ~prev_r, pos, -1))
    return is_r & ((pos - run_start) % 2 == 1)


def _spans(cp_texts: np.ndarray, offsets: np.ndarray, vocab, punct_drop: bool, base: int, table: np.ndarray,
           lut: np.ndarray):
    """Tokens of one chunk of texts: ``(ids, starts, ends)`` (positions + ``base``)."""
    n_texts = len(offsets) - 1
    m = len(cp_texts)
    if m == 0:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z
    has_marks = bool(((table == MO) | (table == MS))[cp_texts].any())
    if has_marks:  # the general rules, on the texts with one separator (a line break: never in a token) after each
        cp = np.insert(cp_texts, offsets[1:], np.uint32(10)) if n_texts else cp_texts
    else:
        cp = cp_texts
    n = len(cp)
    cls = table[cp]
    is_w = cls == W
    digit_next = np.zeros(n, dtype=bool)
    digit_next[:-1] = (cp[1:] >= 48) & (cp[1:] <= 57)
    if not has_marks:
        # no attached mark: every token is a run of consecutive positions of one text, none of them S
        first = offsets[:-1][np.diff(offsets) > 0]
        digit_next[offsets[1:][np.diff(offsets) > 0] - 1] = False  # a text's last character has no next
        prev_w = np.zeros(n, dtype=bool)
        prev_w[1:] = is_w[:-1]
        prev_w[first] = False
        joined_dot = (cls == D) & digit_next & prev_w
        prev_wordish = prev_w
        prev_wordish[1:] |= joined_dot[:-1]
        prev_wordish[first] = False
        in_token = cls != S
        start = in_token & ~(joined_dot | (is_w & prev_wordish) | _flag_seconds(cls == R, first))
        bounds = np.flatnonzero(start | ~in_token)
    else:
        start, in_token = _starts_with_marks(cls, (cls == MO) | (cls == MS), is_w, digit_next)
        start &= ~_flag_seconds(cls == R, np.zeros(0, dtype=np.int64))  # separators end every run of R
        bounds = np.flatnonzero(start | ~in_token)
    # a token ends at the next position that starts a token or is in none
    at = np.flatnonzero(start[bounds])
    tok_start = bounds[at]
    tok_end = np.append(bounds, n)[at + 1]
    if has_marks:
        ids, tok_start, tok_end = _ids_of(cp, cls, tok_start, tok_end, vocab, punct_drop, 0, lut)
        # back to positions without the separators: the one after text t shifts later texts by t + 1
        shift = np.searchsorted(offsets[1:] + np.arange(1, n_texts + 1), tok_start, side="right")
        return ids, tok_start - shift + base, tok_end - shift + base
    return _ids_of(cp, cls, tok_start, tok_end, vocab, punct_drop, base, lut)


def _ids_of(cp, cls, tok_start, tok_end, vocab, punct_drop: bool, base: int, lut):
    """``(ids, starts + base, ends + base)`` of the tokens ``cp[tok_start:tok_end]`` (``punct_drop``: without the
    tokens that start with a character that is not Han/kana nor a letter/digit); ``lut``: code point -> id of its
    one-character token (-1: not looked up yet), shared by the chunks of a call."""
    if punct_drop:  # a token is punctuation/symbols iff its first character is not Han/kana nor a letter/digit
        first = cls[tok_start]
        keep = (first == H) | (first == W)
        tok_start, tok_end = tok_start[keep], tok_end[keep]
    # ids: single characters by code point, longer tokens by their string
    ids = np.empty(len(tok_start), dtype=np.int64)
    single = (tok_end - tok_start) == 1
    getid = vocab.__getitem__
    if single.any():
        chars = cp[tok_start[single]]
        present = np.zeros(int(chars.max()) + 1, dtype=bool)
        present[chars] = True
        u = np.flatnonzero(present)
        new = u[lut[u] < 0]  # not seen in an earlier chunk: ids in increasing code point order, as the vocabulary gives
        lut[new] = np.fromiter(map(getid, map(chr, new.tolist())), dtype=np.int64, count=len(new))
        ids[single] = lut[chars]
    multi = np.flatnonzero(~single)
    if len(multi):
        ids[multi] = _multi_ids(cp, tok_start[multi], tok_end[multi], getid)
    return ids, tok_start + base, tok_end + base
