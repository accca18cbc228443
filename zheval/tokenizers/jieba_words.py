"""The ``jieba`` tokenizer: words from a private ``jieba.Tokenizer`` (jieba 0.42.1), never the global ``jieba.dt``;
the dictionary identified by its content; the ``char`` tokenizer's rules for marks, invisible characters and
protected terms."""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
import os
import re
import threading
from typing import Iterable

from ..text.chars import ATTACHED_MARK_RANGES, INVISIBLE_RANGES
from ..text.normalize import DEFAULT_STEPS, Normalizer
from ..text.sentences import PIECE_END_CHARS
from .base import BaseTokenizer, check_punct, option_suffix, short_sha
from .char import HAN_OR_WORD_RE, HAN_TOKEN_RE, TRAILING_MARKS_RE, is_punct_or_symbol, normalize_terms
from .term_scan import TermScan

__all__ = ["JiebaTokenizer", "jieba_cut", "attach_marks", "addable_term", "dictionary_sha", "jieba_dict_key",
           "dictionary_entry_problem"]

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
# does not change under a running process); a jieba_dict file is read and hashed on every get_tokenizer call.
_BUNDLED_DICT_SHA: dict[tuple[str, str], str] = {}


def _read_dictionary(path: str, bundled: bool = False) -> bytes:
    """The bytes jieba reads of a dictionary file. jieba's bundled dictionary: as stored. A ``jieba_dict`` file:
    read by the one reader of every input file (`zheval.io.read_text`: gzip undone, a UTF-8 BOM removed, another
    encoding named with the ``iconv`` line that re-saves it, CR-only line ends refused) and handed to jieba as
    UTF-8; a valid UTF-8 file without a BOM is handed on byte for byte (same content hash, same tokens).

    Every line must be an entry jieba 0.42.1 reads (`dictionary_entry_problem`): a blank line, a line jieba
    refuses with its own ``invalid dictionary entry`` and a frequency that is not plain digits (which jieba's
    ``int()`` would read, or fail on later) are refused here, all at once, each named ``file:line``.

    Raises:
        FileFormatError (a ValueError): the file is not readable text, or lines that are no entry (each problem
            ``file:line``).
        EmptyFileError (a FileFormatError): the file is empty or has only blank lines (jieba would fail with
            ``math domain error``). FileFormatError: every entry's frequency is 0 (each line named; jieba takes the
            log of their sum and would fail with ``math domain error``). OSError: the file cannot be read."""
    if bundled:
        with open(path, "rb") as fh:
            return fh.read()
    from ..io import EmptyFileError, FileFormatError, read_text

    problems: list = []
    text = read_text(path, "jieba_dict", problems)
    if text is None:
        raise FileFormatError(problems, f"invalid jieba_dict file {path}")
    if not text.strip():
        raise EmptyFileError(path, "the jieba_dict file is empty or has only blank lines; a jieba dictionary has "
                                   "one 'word frequency [tag]' entry per line")
    from ..io import Problem

    lines = text.split("\n")  # jieba counts lines by b"\n" (CR-only line ends were refused by read_text)
    if lines[-1] == "":
        lines.pop()  # the final line break ends the last line; it starts no line
    problems = [Problem(path, k, None, why) for k, line in enumerate(lines, 1)
                if (why := dictionary_entry_problem(line)) is not None]
    if not problems and not any(int(line.strip().split(" ")[1]) for line in lines):  # jieba: log(total frequency)
        problems = [Problem(path, k, None, f"{line.strip()!r}: frequency 0, as every entry of the file has: jieba "
                            "divides by the sum of the frequencies (it would fail with 'math domain error'); give "
                            "the entries frequencies above 0 (e.g. 1)") for k, line in enumerate(lines, 1)]
    if problems:
        raise FileFormatError(problems, f"invalid jieba_dict file {path}")
    return text.encode("utf-8")


_FREQUENCY = re.compile(r"[0-9]+")


def dictionary_entry_problem(line: str) -> str | None:
    """What is wrong with one line of a ``jieba_dict`` file, or ``None`` for an entry.

    jieba 0.42.1 (``Tokenizer.gen_pfdict``) reads a line as ``line.strip().split(' ')[:2]`` = word and frequency and
    ``int(frequency)``; it fails on a blank line with an ``invalid dictionary entry ... at Line N:`` that does not
    say the line is blank, and its ``int()`` reads ``１０`` (full-width digits), ``1_0``, ``+3`` as numbers and
    takes ``-5``, which later fails as ``math domain error`` while segmenting. Here the frequency must be plain ASCII
    digits (``0`` to ``9``), so every entry means what it shows.

    Args:
        line: one line of the file (``str``, its line end removed; a trailing ``\r`` is stripped as jieba does).

    Returns:
        ``None`` or the message (``str``): a blank line, a line without ``word frequency`` separated by one space
        (jieba splits on single spaces: two spaces or a tab leave no frequency), a frequency that is not plain digits.
    """
    entry = line.strip()
    if not entry:
        return ("a blank line: a jieba dictionary has one 'word frequency [tag]' entry on every line (jieba refuses "
                "blank lines); remove it")
    parts = entry.split(" ")
    if len(parts) < 2 or not parts[1] or any(c.isspace() for c in parts[0]):
        return (f"{entry!r} is not a 'word frequency [tag]' entry: jieba reads the word and the frequency separated "
                "by one space (not a tab or two spaces)")
    if not _FREQUENCY.fullmatch(parts[1]):
        return (f"{entry!r}: the frequency {parts[1]!r} is not a whole number written with the digits 0-9 (jieba "
                "would read signs, underscores and other scripts' digits as a number, or fail on a negative one "
                "while segmenting)")
    return None


def dictionary_sha(path: str, bundled: bool, version: str) -> str:
    """sha256 (hex) of a jieba dictionary file's content (the bundled one read once per process and jieba version).

    Raises:
        OSError: the file cannot be read."""
    if bundled:
        key = (path, version)
        sha = _BUNDLED_DICT_SHA.get(key)
        if sha is None:
            sha = _BUNDLED_DICT_SHA[key] = hashlib.sha256(_read_dictionary(path, True)).hexdigest()
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
_FLAG_HALVES = frozenset(chr(c) for c in range(0x1F1E6, 0x1F1FF + 1))  # the regional indicators of CHAR_FLAG_HALF
_NEVER_CHARS = frozenset(
    [chr(c) for a, b in INVISIBLE_RANGES for c in range(a, b + 1)]
    + [chr(c) for c in range(0x3000 + 1) if chr(c).isspace() or c <= 0x1F or 0x7F <= c <= 0x9F]
)


#: Every character `attach_marks` acts on (an attached mark, an invisible or space character, a regional
#: indicator): a text without one has its words unchanged, the empty ones left out.
_SPECIAL_CHARS = _MARK_CHARS | _NEVER_CHARS | _FLAG_HALVES


def marks_attached(text: str, words: Iterable[str]) -> list[str]:
    """`attach_marks` of jieba's ``words`` of ``text``, skipped when ``text`` holds no character it acts on."""
    if _SPECIAL_CHARS.isdisjoint(text):
        return [w for w in words if w]
    return attach_marks(words)


def attach_marks(words: Iterable[str]) -> list[str]:
    """The ``char`` tokenizer's rules for marks and invisible characters, applied to words that concatenate to a
    text (jieba's output, whitespace words included): a word made only of attached marks
    (`CHAR_MARK`) joins the word before it, unless whitespace or an invisible character separates them; with
    nothing before it, its visible marks are a word of their own (invisible ones, such as variation selectors, are
    dropped); words made only of whitespace, C0/C1 controls or invisible characters
    (`zheval.text.normalize.INVISIBLE_RANGES`) are dropped; two regional indicators in a row are one flag word (🇨🇳),
    paired from the start of their run as the ``char`` tokenizer pairs them (`CHAR_FLAG_HALF`, UAX #29 GB12/GB13),
    whether jieba gave them as one word or two. Returns the list of words."""
    out: list[str] = []
    joinable = False
    half_flag = False  # the last word is a lone regional indicator waiting for its pair
    marks, never = _MARK_CHARS, _NEVER_CHARS
    for w in words:
        if not w:
            continue
        first = w[0]
        if first in marks and all(c in marks for c in w):
            if joinable:
                out[-1] += w
                half_flag = False
                continue
            w = "".join(c for c in w if c not in never)
            if not w:
                continue
        elif first in never and all(c in never for c in w):
            joinable = half_flag = False
            continue
        if all(c in _FLAG_HALVES for c in w):
            if half_flag and joinable:  # the pair of the lone indicator before it
                w, out = out[-1] + w, out[:-1]
            pairs = [w[k:k + 2] for k in range(0, len(w), 2)]
            out += pairs
            half_flag = len(pairs[-1]) == 1
            joinable = True
            continue
        out.append(w)
        joinable, half_flag = True, False
    return out


def addable_term(term: str) -> bool:
    """Whether a term may be added to a private jieba's dictionary: not when it starts or ends with a letter/digit,
    because jieba would then cut it out of longer word runs (``app`` out of ``apple``), which the term rule forbids;
    every occurrence the rule allows is cut out before jieba runs anyway."""
    core = TRAILING_MARKS_RE.sub("", term)
    return bool(core) and not any(HAN_OR_WORD_RE.fullmatch(c) and not HAN_TOKEN_RE.fullmatch(c) for c in (core[0], core[-1]))


class JiebaTokenizer(BaseTokenizer):
    """Word-level tokenizer with a **private** ``jieba.Tokenizer`` instance (jieba 0.42.1).

    * Never uses the global ``jieba.dt`` (which other code mutates with ``jieba.add_word``): each instance loads its
      own dictionary (lazily, on first use, once even when several threads start at the same moment; about 1 s,
      cached by jieba as a marshal file in the temp directory whose name holds the dictionary's content hash).
    * The dictionary is identified by its **content** (sha256), read when the tokenizer is built: a dictionary file
      edited between two [`get_tokenizer`][zheval.tokenizers.get_tokenizer] calls gives a new tokenizer and the new tokens; a file edited between
      building a tokenizer and its first use is an error (never the old tokens under the new name).
    * HMM new-word discovery is **off by default** (``hmm=False``): it changes segmentation on a hidden flag and the
      maintainers advise it off for reproducible segmentation. With HMM on, jieba's process-wide force-split word set
      (``jieba.del_word`` anywhere in the process adds to it) is part of the fingerprint and the signature.
    * Marks and invisible characters follow the ``char`` tokenizer's rule (`attach_marks`): a combining mark,
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
            ``normalizer``: a `Normalizer`.

    Raises:
        ValueError/TypeError: as `CharTokenizer` for ``punct`` and ``terms``; FileNotFoundError for a missing
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

        check_punct(punct)
        if not isinstance(hmm, bool):
            raise TypeError(f"jieba_hmm must be a bool, got {type(hmm).__name__}")
        self.punct = punct
        self.hmm = hmm
        self.dictionary = os.path.abspath(dictionary) if dictionary else jieba.DEFAULT_DICT_NAME
        if dictionary and not os.path.isfile(self.dictionary):
            raise FileNotFoundError(f"jieba dictionary not found: {self.dictionary}")
        self.terms: tuple[str, ...] = normalize_terms(terms, self.normalizer)
        self.jieba_version = jieba.__version__
        self.dict_sha = dictionary_sha(self._dict_path(), not dictionary, self.jieba_version)
        self._jieba = None
        self._term_re = None
        #: whether a term holds a character a "punct" sentence piece can end with (a sentence-final mark, ".", a
        #: closer or an attached mark): then pieces are never tokenised alone
        self._terms_cross_cuts = any(not PIECE_END_CHARS.isdisjoint(t) for t in self.terms)
        self._jieba_rs = None  # the private jieba-rs twin (zheval.tokenizers.jieba_rs), built on first use

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
        return short_sha("\n".join(self.terms)) if self.terms else ""

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
        data = self.dictionary_content()
        tk = jieba.Tokenizer(path)
        tk.cache_file = f"jieba.zheval-{self.jieba_version}-{self.dict_sha[:32]}.cache"  # keyed by content

        def dict_file():  # jieba builds its prefix dictionary from the very bytes hashed above
            fh = io.BytesIO(data)
            fh.name = path
            return fh

        tk.get_dict_file = dict_file
        with _quiet_jieba():
            tk.initialize()
            for t in self.terms:
                if addable_term(t):
                    tk.add_word(t)
        return tk

    def dictionary_content(self) -> bytes:
        """The dictionary file's bytes, checked against the hash taken when the tokenizer was built.

        Raises:
            RuntimeError: the file changed since then (as on first use of the private jieba).
        """
        path = self._dict_path()
        data = _read_dictionary(path, not os.path.isabs(self.dictionary))
        sha = hashlib.sha256(data).hexdigest()
        if sha != self.dict_sha:
            raise RuntimeError(
                f"jieba dictionary {path} changed since this tokenizer was built (sha256 {self.dict_sha[:12]}... "
                f"then, {sha[:12]}... now); build it again with get_tokenizer (which reads the file on every call)"
            )
        return data

    def jieba_rs_cut(self):
        """``cut(piece) -> words`` from this tokenizer's private jieba-rs instance (built once, on first use, from
        `dictionary_content` and the addable terms: `zheval.tokenizers.jieba_rs.build_jieba_rs`), marks
        attached as `tokenize_normalized` attaches them. Only for HMM off (``usable_for("jieba_rs")``)."""
        jb = self._jieba_rs
        if jb is None:
            from .jieba_rs import build_jieba_rs

            with _JIEBA_INIT_LOCK:
                if self._jieba_rs is None:
                    self._jieba_rs = build_jieba_rs(self.dictionary_content(),
                                                    [t for t in self.terms if addable_term(t)])
                jb = self._jieba_rs
        cut = jb.cut
        return lambda text: marks_attached(text, cut(text, False))

    def pieces_tokenize_alone(self, pieces: list) -> bool:
        # jieba segments the blocks of its expression (_JIEBA_RE_HAN) one by one, and attached marks never start a
        # piece. A "punct" cut ends a piece with a sentence-final mark or a closer (and its marks); of those only
        # "." belongs to a block, so every cut separates two blocks unless a piece ending in "." is followed by a
        # block character: then the line's words are its pieces' words, in order. Terms: a term holding none of
        # the characters a piece can end with never spans a cut, and the term scan stands at every cut (the
        # character before it ends a one-character token with its marks), so it finds the same terms.
        if self._terms_cross_cuts:
            return False
        return not any(a.endswith(".") and _JIEBA_RE_HAN.match(b[:1]) for a, b in zip(pieces, pieces[1:]))

    def _cut(self, text: str) -> list[str]:
        return marks_attached(text, jieba_cut(self._instance(), text, self.hmm))

    def tokenize_normalized(self, text: str) -> list[str]:
        return self.tokenize_normalized_with(self._cut, text)

    def tokenize_normalized_with(self, cut, text: str) -> list[str]:
        """`tokenize_normalized` with ``cut(piece) -> words`` (jieba's words of a piece, marks attached) in
        place of this tokenizer's private jieba -- the terms, the mark rule and ``punct`` applied the same way."""
        if not text:
            return []
        if self._term_re is None and self.terms:
            self._term_re = TermScan(self.terms)
        found = self._term_re.matches(text) if self.terms else ()
        if not found:
            tokens = cut(text)
        else:
            tokens = []
            pos = 0
            for start, end, term in found:
                if start > pos:
                    tokens.extend(cut(text[pos:start]))
                tokens.append(term)
                pos = end
            if pos < len(text):
                tokens.extend(cut(text[pos:]))
        if self.punct == "drop":
            tokens = [t for t in tokens if not is_punct_or_symbol(t)]
        return tokens

    def _force_split_sha(self) -> str:
        """sha (8 hex) of jieba's process-wide force-split words when HMM is on and the set is not empty, else ''."""
        if not self.hmm:
            return ""
        from jieba import finalseg

        words = finalseg.Force_Split_Words
        return short_sha("\n".join(sorted(words))) if words else ""

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
        return sig + option_suffix(self.terms_hash, self.punct)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_jieba"] = None  # rebuilt lazily in the worker; never ship the 350k-entry FREQ dict
        state["_term_re"] = None
        state["_jieba_rs"] = None
        return state




def jieba_dict_key(jieba_dict: str | None) -> tuple:
    """``(absolute path or None, sha256 of the content)`` of a jieba dictionary (the bundled one for None).

    Raises:
        FileNotFoundError: a missing file."""
    import jieba

    if jieba_dict is None:
        path = os.path.join(os.path.dirname(jieba.__file__), jieba.DEFAULT_DICT_NAME)
        return (None, dictionary_sha(path, True, jieba.__version__))
    path = os.path.abspath(jieba_dict)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"jieba dictionary not found: {path}")
    return (path, dictionary_sha(path, False, jieba.__version__))
