"""小黄鸭 JSONL → ``datasets.Dataset``: strict line-by-line validation, then explicit ``Features``.

The 小黄鸭 format is JSONL, one query per line::

    {"id": str, "query": str, "responses": [str, ...], "domain": "生活咨询" | "售后支持" | "情感陪伴" | null,
     "difficulty": "易" | "中" | "难" | null}

Why validate before ``datasets`` sees a row (datasets 5.2.0, ``packaged_modules/json/json.py`` and
``load_dataset("json", ...)``, checked against the released package): a missing key silently becomes ``None``, an int ``id`` is silently cast to ``"7"``, a string ``responses``
would be iterated character by character by anything downstream, and a malformed line raises an error whose row
number counts from the start of a 10 MB chunk. So every line is decoded and checked here first, with its real
``file:line``, and all problems (the first :data:`MAX_REPORTED`) are reported together in one
:class:`DuckFormatError`. Loading scripts no longer exist in datasets 5.x: :func:`load_duck` is a plain function
around ``Dataset.from_list(rows, features=DUCK_FEATURES)``.

Accepted on input: a UTF-8 BOM (removed), CRLF line ends, blank (whitespace-only) lines. Refused, each with one
message for the whole file: UTF-16/UTF-32 (with or without a BOM) and GB18030/GBK text, which are not UTF-8
(:func:`encoding_problem`); so is a file that is one JSON document (an array of rows, as ``json.dump(rows, f,
indent=2)`` writes) instead of JSON Lines (:func:`json_document_problem`). A line with a key given twice is refused (JSON parsers keep the last value silently;
:func:`parse_json_line`). Every item has :data:`MIN_REFS`–:data:`MAX_REFS` references unless the caller relaxes the
bounds (``min_refs``/``max_refs``; single-reference data needs ``min_refs=1``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence, Union

__all__ = [
    "existing_file",
    "list_feature",
    "json_line_or_problem",
    "DOMAINS",
    "DIFFICULTIES",
    "DUCK_KEYS",
    "DUCK_FEATURES",
    "duck_features",
    "MAX_REPORTED",
    "MIN_REFS",
    "MAX_REFS",
    "Problem",
    "DuckFormatError",
    "EmptyDataError",
    "lone_surrogate",
    "encoding_problem",
    "parse_json_line",
    "duplicate_key_problem",
    "json_error_message",
    "json_document_problem",
    "read_duck_rows",
    "load_duck",
]

DOMAINS: tuple[str, ...] = ("生活咨询", "售后支持", "情感陪伴")
"""Valid ``domain`` values (``null`` is also valid: unlabelled)."""

DIFFICULTIES: tuple[str, ...] = ("易", "中", "难")
"""Valid ``difficulty`` values (``null`` is also valid: unlabelled)."""

DUCK_KEYS: tuple[str, ...] = ("id", "query", "responses", "domain", "difficulty")
"""Exactly these keys on every line, no more, no fewer."""

MAX_REPORTED = 20
"""How many problems one :class:`DuckFormatError` lists (the total count is always given)."""

MIN_REFS = 2
"""Fewest references (``responses``) a 小黄鸭 item may have by default: multi-reference scoring and the human
ceiling need two. Relax with ``min_refs=1`` (CLI ``--min-refs 1``) for single-reference data."""

MAX_REFS = 5
"""Most references a 小黄鸭 item may have by default (the format has 2–5 replies per query). Relax with ``max_refs``
(CLI ``--max-refs``); ``None`` means no upper bound."""



def existing_file(path, what: str) -> "Path":
    """``path`` as a :class:`~pathlib.Path` when it names an existing file; ``what`` names it in the messages
    (e.g. ``"predictions"``).

    Raises:
        IsADirectoryError: ``path`` is a directory. FileNotFoundError: there is no such file.
    """
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{what} path {path} is a directory, not a file")
    if not path.is_file():
        raise FileNotFoundError(f"{what} file not found: {path}")
    return path

def list_feature(value):
    """The ``datasets`` feature of a list of ``value``: ``datasets.List(value)`` (datasets >= 4), else
    ``datasets.Sequence(value)`` (datasets 3, which has no ``List``; the same Arrow type, ``list<value>``).

    Args:
        value: a ``datasets`` feature (``Value("string")``).

    Returns:
        The list feature.
    """
    import datasets

    make = getattr(datasets, "List", None) or datasets.Sequence
    return make(value)


def _features():
    from datasets import Features, Value

    return Features(
        {
            "id": Value("string"),
            "query": Value("string"),
            "responses": list_feature(Value("string")),
            "domain": Value("string"),
            "difficulty": Value("string"),
        }
    )


_FEATURES = None


def duck_features():
    """The explicit ``datasets.Features`` of a 小黄鸭 dataset (built once; importing this module does not import
    datasets): ``id``/``query`` strings, ``responses`` a ``List(Value("string"))``, nullable string ``domain`` and
    ``difficulty``."""
    global _FEATURES  # a constant, built on first use
    if _FEATURES is None:
        _FEATURES = _features()
    return _FEATURES


def __getattr__(name):  # module-level lazy attribute (PEP 562): DUCK_FEATURES
    if name == "DUCK_FEATURES":
        return duck_features()
    raise AttributeError(name)


@dataclass(frozen=True)
class Problem:
    """One problem found in an input file.

    Attributes:
        path: file path as given; line: 1-based line number (0 for a whole-file problem); id: the row's id when it
            could be read (else ``None``); message: what is wrong.
    """

    path: str
    line: int
    id: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: " + (f"id {self.id!r}: " if self.id is not None else "") + self.message


class DuckFormatError(ValueError):
    """Invalid 小黄鸭 input. ``problems`` holds every :class:`Problem` found; the message lists the first
    :data:`MAX_REPORTED` (each as ``file:line: id '…': what is wrong``) and the total count."""

    def __init__(self, problems: Sequence[Problem], what: str = "invalid 小黄鸭 data"):
        self.problems = list(problems)
        shown = self.problems[:MAX_REPORTED]
        lines = [f"{what}: {len(self.problems)} problem(s)" + (f", first {MAX_REPORTED} shown" if len(self.problems) > MAX_REPORTED else "")]
        lines += [f"  {p}" for p in shown]
        if len(self.problems) > MAX_REPORTED:
            lines.append(f"  … and {len(self.problems) - MAX_REPORTED} more")
        super().__init__("\n".join(lines))


_EMPTY = "the file is empty or has only blank lines"


class EmptyDataError(DuckFormatError):
    """A 小黄鸭 file without a single item: ``no items in FILE``."""

    def __init__(self, path: str):
        self.problems = [Problem(path, 0, None, f"no items in {path} ({_EMPTY})")]
        ValueError.__init__(self, f"no items in {path} ({_EMPTY})")


def _type_name(x) -> str:
    if x is None:
        return "null"
    return {str: "string", int: "integer", float: "number", bool: "boolean", list: "array", dict: "object"}.get(
        type(x), type(x).__name__
    )


def lone_surrogate(text: str) -> str | None:
    """``None`` if ``text`` is valid Unicode text, else where its first lone surrogate is (a JSON ``\\ud800``-style
    escape without its pair decodes to one; Arrow, files and terminals cannot encode it)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return (f"contains a lone surrogate ({text[exc.start:exc.end]!r} at position {exc.start}), which is not valid "
                "Unicode text (a \\uD800-\\uDFFF escape without its pair)")
    return None


def _nul_pattern(data: bytes) -> str | None:
    """``"UTF-16 LE"``/``"UTF-16 BE"``/``"UTF-32 LE"``/``"UTF-32 BE"`` when the NUL bytes of ``data`` fall where
    those encodings put them for ASCII text (JSONL is mostly ASCII punctuation and keys; for text that is mostly
    Chinese, with few ASCII characters: NULs mostly on one byte parity, in a sample that is not UTF-8 but decodes as
    that UTF-16), else ``None``."""
    sample = data[:4096]
    n = len(sample)
    if n < 4 or b"\x00" not in sample:
        return None
    zeros = [sum(1 for i in range(r, n, 4) if sample[i] == 0) for r in range(4)]
    per = max(1, n // 4)
    frac = [z / per for z in zeros]
    if frac[1] > 0.4 and frac[2] > 0.4 and frac[3] > 0.4 and frac[0] < 0.2:
        return "UTF-32 LE"
    if frac[0] > 0.4 and frac[1] > 0.4 and frac[2] > 0.4 and frac[3] < 0.2:
        return "UTF-32 BE"
    odd, even = (frac[1] + frac[3]) / 2, (frac[0] + frac[2]) / 2
    if odd > 0.25 and even < 0.05:
        return "UTF-16 LE"
    if even > 0.25 and odd < 0.05:
        return "UTF-16 BE"
    # mostly-Chinese text has few ASCII characters, hence few NULs: NULs mostly on one parity (at least 3 to 1; the
    # other parity holds the characters U+xx00), in a sample that is not UTF-8 but decodes as that UTF-16 (cut to
    # whole code units), is UTF-16 too
    even_nul, odd_nul = zeros[0] + zeros[2], zeros[1] + zeros[3]
    cut = sample[:n - n % 2]
    for name, codec, here, there in (("UTF-16 LE", "utf-16-le", odd_nul, even_nul),
                                     ("UTF-16 BE", "utf-16-be", even_nul, odd_nul)):
        if here and here >= 3 * there and _decodes(cut, codec) and not _decodes(sample, "utf-8"):
            return name
    return None


def _decodes(data: bytes, codec: str) -> bool:
    try:
        data.decode(codec)
    except UnicodeDecodeError as exc:
        # a multi-byte sequence cut at the end of the sample is not an error
        return exc.start >= len(data) - 3 and codec == "utf-8"
    return True


_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32 LE", "FF FE 00 00"),
    (b"\x00\x00\xfe\xff", "UTF-32 BE", "00 00 FE FF"),
    (b"\xff\xfe", "UTF-16 LE", "FF FE"),
    (b"\xfe\xff", "UTF-16 BE", "FE FF"),
)


def encoding_problem(data: bytes, path: str = "FILE") -> str | None:
    """One message for a whole file that is not UTF-8 but clearly another encoding, else ``None``.

    Recognised: UTF-16 and UTF-32 with a byte-order mark (``FF FE``, ``FE FF``, ``FF FE 00 00``, ``00 00 FE FF``)
    or without one (NUL bytes at every second / every fourth byte, as ASCII characters take in those encodings);
    and GB18030/GBK (the whole file decodes as GB18030, is not UTF-8, and most of its non-ASCII lines are not UTF-8).
    A UTF-8 BOM is not a problem (it is accepted and removed). The message says which encoding it looks like and
    how to re-save the file as UTF-8, instead of one "not valid UTF-8" problem per line.
    """
    for bom, name, hexes in _BOMS:
        if data.startswith(bom):
            return (f"looks like {name} (byte-order mark {hexes}), not UTF-8: re-save it as UTF-8 "
                    f"(e.g. iconv -f {name.split()[0]} -t UTF-8 {path} > {path}.utf8)")
    kind = _nul_pattern(data)
    if kind is not None:
        return (f"looks like {kind} without a byte-order mark (NUL bytes between the characters), not UTF-8: "
                f"re-save it as UTF-8 (e.g. iconv -f {kind.replace(' ', '')} -t UTF-8 {path} > {path}.utf8)")
    try:
        data.decode("utf-8")
        return None
    except UnicodeDecodeError:
        pass
    try:
        data.decode("gb18030")
    except UnicodeDecodeError:
        return None
    non_ascii = bad = 0
    for raw in data.split(b"\n"):
        if raw.isascii():
            continue
        non_ascii += 1
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            bad += 1
    if non_ascii and bad * 2 >= non_ascii:
        return (f"is not UTF-8 ({bad} of {non_ascii} lines with non-ASCII text are not); it looks like GB18030/GBK "
                f"(a common Chinese encoding): re-save it as UTF-8 (e.g. iconv -f GB18030 -t UTF-8 {path} > {path}.utf8)")
    return None


def json_document_problem(text: str, path: str = "FILE") -> str | None:
    """One message when a file that failed as JSON Lines is one JSON document instead (an array of objects, or an
    object spread over several lines, e.g. ``json.dump(rows, f, indent=2)``), else ``None``: then every line would
    otherwise be reported as malformed."""
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    stem = path[:-5] if path.endswith(".json") else path
    if isinstance(doc, list):
        return (f"is one JSON array of {len(doc)} item(s), not JSON Lines (one JSON object per line): convert it, "
                f"e.g. jq -c '.[]' {path} > {stem}.jsonl")
    if isinstance(doc, dict) and text.strip().count("\n"):
        return (f"is one JSON object spread over several lines, not JSON Lines (one JSON object per line); write "
                f"each object on its own line (e.g. jq -c . {path} > {stem}.jsonl)")
    return None


def json_error_message(exc: json.JSONDecodeError) -> str:
    """``malformed JSON: <what> at column N`` for a :class:`json.JSONDecodeError` (json's own messages that end in
    "at", such as ``Unterminated string starting at``, get the column directly)."""
    msg = exc.msg
    return f"malformed JSON: {msg} column {exc.colno}" if msg.endswith(" at") else f"malformed JSON: {msg} at column {exc.colno}"


def json_line_or_problem(text: str, name: str, lineno: int, problems: list):
    """:func:`parse_json_line` of one line of a JSONL file, the way every JSONL reader here treats it: ``None`` for a
    blank line (skipped) and for malformed JSON (a :class:`Problem` ``name:lineno`` appended to ``problems``), else
    ``(value, duplicate keys)``."""
    if not text.strip():
        return None
    try:
        return parse_json_line(text)
    except json.JSONDecodeError as exc:
        problems.append(Problem(name, lineno, None, json_error_message(exc)))
        return None


def parse_json_line(text: str) -> tuple[object, list[str]]:
    """Decode one JSON line and report keys given twice in any object of it.

    ``json.loads`` keeps the last value of a repeated key silently (RFC 8259 leaves the behaviour open); a
    repeated ``"prediction"`` or ``"responses"`` would score a value the user did not see. The line is decoded
    with an ``object_pairs_hook`` that records every repeated key.

    Returns:
        ``(value, duplicate keys in order of repetition)``; the value is what ``json.loads`` gives.

    Raises:
        json.JSONDecodeError: malformed JSON.
    """
    dups: list[str] = []

    def hook(pairs):
        obj = {}
        for k, v in pairs:
            if k in obj and k not in dups:
                dups.append(k)
            obj[k] = v
        return obj

    return json.loads(text, object_pairs_hook=hook), dups


def duplicate_key_problem(dups: Sequence[str]) -> str:
    """The problem text for keys given twice on one line."""
    keys = ", ".join(repr(k) for k in dups)
    return (f"key {keys} given more than once on this line (a JSON reader would silently keep the last value); "
            "give each key once")


def _check_text_fields(obj) -> list[str]:
    errs = []
    for key in ("id", "query", "domain", "difficulty"):
        v = obj.get(key)
        if isinstance(v, str):
            bad = lone_surrogate(v)
            if bad:
                errs.append(f"{key!r} {bad}")
    r = obj.get("responses")
    if isinstance(r, list):
        for j, s in enumerate(r):
            if isinstance(s, str):
                bad = lone_surrogate(s)
                if bad:
                    errs.append(f"responses[{j}] {bad}")
    return errs


def _refs_bounds_text(min_refs, max_refs) -> str:
    if min_refs is not None and max_refs is not None:
        return f"{min_refs}–{max_refs}" if min_refs != max_refs else f"exactly {min_refs}"
    if min_refs is not None:
        return f"at least {min_refs}"
    return f"at most {max_refs}"


def _check_row(obj, domains, difficulties, min_refs=None, max_refs=None) -> list[str]:
    """Return the list of problems of one decoded JSON value (empty if it is a valid 小黄鸭 row)."""
    if not isinstance(obj, dict):
        return [f"expected a JSON object, got {_type_name(obj)}"]
    errs = _check_text_fields(obj)
    missing = [k for k in DUCK_KEYS if k not in obj]
    extra = [k for k in obj if k not in DUCK_KEYS]
    if missing:
        errs.append(f"missing key(s) {missing}")
    if extra:
        errs.append(f"unexpected key(s) {extra} (allowed: {list(DUCK_KEYS)})")
    if "id" in obj and not (isinstance(obj["id"], str) and obj["id"].strip()):
        errs.append(f"'id' must be a non-empty string, got {_type_name(obj['id'])} {obj['id']!r}")
    if "query" in obj and not isinstance(obj["query"], str):
        errs.append(f"'query' must be a string, got {_type_name(obj['query'])}")
    if "responses" in obj:
        r = obj["responses"]
        if not isinstance(r, list):
            errs.append(f"'responses' must be a non-empty list of strings, got {_type_name(r)}")
        elif not r:
            errs.append("'responses' is an empty list; at least one reference reply is needed")
        else:
            for j, s in enumerate(r):
                if not isinstance(s, str):
                    errs.append(f"responses[{j}] must be a string, got {_type_name(s)}")
                elif not s.strip():
                    errs.append(f"responses[{j}] is empty or whitespace only")
            n = len(r)
            if (min_refs is not None and n < min_refs) or (max_refs is not None and n > max_refs):
                want = _refs_bounds_text(min_refs, max_refs)
                relax = "--min-refs" if min_refs is not None and n < min_refs else "--max-refs"
                errs.append(
                    f"'responses' has {n} reference(s); expected {want} per item (the 小黄鸭 format has "
                    f"{MIN_REFS}–{MAX_REFS}). For other data relax the bound: {relax} {n} on the command line, "
                    f"{'min_refs' if relax == '--min-refs' else 'max_refs'}={n} in load_duck"
                )
    for key, valid in (("domain", domains), ("difficulty", difficulties)):
        if key in obj:
            v = obj[key]
            if v is None:
                continue
            if not isinstance(v, str):
                errs.append(f"{key!r} must be a string or null, got {_type_name(v)}")
            elif valid is not None and v not in valid:
                errs.append(f"{key!r} {v!r} is not one of {list(valid)} or null")
    return errs


def _read_data(path: Path) -> bytes:
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data


def read_duck_rows(
    path: Union[str, os.PathLike],
    *,
    domains: Sequence[str] | None = DOMAINS,
    difficulties: Sequence[str] | None = DIFFICULTIES,
    seen_ids: dict | None = None,
    problems: list | None = None,
    min_refs: int | None = MIN_REFS,
    max_refs: int | None = MAX_REFS,
    lines: list | None = None,
) -> list[dict]:
    """Read and validate one 小黄鸭 JSONL file line by line.

    Args:
        path: the file. A UTF-8 BOM, CRLF line ends and blank lines are accepted.
        domains / difficulties: allowed values besides ``null`` (``None`` = any string).
        seen_ids: ``{id: "file:line"}`` shared across files to detect ids repeated between splits (updated).
        problems: a list to append problems to instead of raising (used to report several files together).
        min_refs / max_refs: allowed number of references per item (default :data:`MIN_REFS`–:data:`MAX_REFS`,
            the 小黄鸭 format's 2–5; ``None`` = no bound; ``min_refs=1`` for single-reference data).
        lines: a list to append the 1-based line number of each returned row to (for messages naming
            ``file:line`` later, e.g. a reference that is empty after normalisation).

    Returns:
        The rows as dicts with exactly the keys :data:`DUCK_KEYS`, in file order.

    Raises:
        DuckFormatError (a ValueError): when ``problems`` is ``None`` and anything is wrong: undecodable UTF-8,
            malformed JSON, a key given twice on a line, a non-object line, missing/extra keys, wrong types,
            ``responses`` not a list of non-empty strings or outside ``min_refs``–``max_refs`` references, an
            unknown domain/difficulty, a duplicate id; a UTF-16/UTF-32/GB18030 file is one problem for the whole
            file saying so (:func:`encoding_problem`). Each problem names ``file:line``
            and the id when known; up to :data:`MAX_REPORTED` are listed.
            A file without any row raises :class:`EmptyDataError` (``no items in FILE``; a problem when ``problems``
            is given).
        FileNotFoundError: the file does not exist. IsADirectoryError: ``path`` is a directory.
        ValueError: ``min_refs``/``max_refs`` not positive integers or ``min_refs > max_refs``.
    """
    _check_bounds(min_refs, max_refs)
    path = Path(path)
    own = problems is None
    probs: list[Problem] = [] if own else problems
    ids = {} if seen_ids is None else seen_ids
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a directory, not a 小黄鸭 JSONL file")
    if not path.is_file():
        raise FileNotFoundError(f"小黄鸭 data file not found: {path}")
    rows = []
    name = str(path)
    data = _read_data(path)
    enc = encoding_problem(data, name)
    if enc is not None:
        probs.append(Problem(name, 0, None, enc))
        if own:
            raise DuckFormatError(probs)
        return rows
    first_problem = len(probs)
    for lineno, raw in enumerate(data.split(b"\n"), start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            probs.append(Problem(name, lineno, None, f"not valid UTF-8 (byte {exc.start}: {raw[exc.start:exc.start + 4]!r})"))
            continue
        parsed = json_line_or_problem(text, name, lineno, probs)
        if parsed is None:
            continue
        obj, dups = parsed
        rid = obj.get("id") if isinstance(obj, dict) and isinstance(obj.get("id"), str) else None
        errs = ([duplicate_key_problem(dups)] if dups else []) + _check_row(obj, domains, difficulties, min_refs, max_refs)
        if rid is not None:
            where = f"{name}:{lineno}"
            if rid in ids:
                errs.append(f"duplicate id (first seen at {ids[rid]})")
            else:
                ids[rid] = where
        if errs:
            probs.extend(Problem(name, lineno, rid, e) for e in errs)
            continue
        rows.append({k: obj[k] for k in DUCK_KEYS})
        if lines is not None:
            lines.append(lineno)
    if len(probs) > first_problem:
        try:
            doc = json_document_problem(data.decode("utf-8"), name)
        except UnicodeDecodeError:
            doc = None
        if doc is not None:
            del probs[first_problem:]
            probs.append(Problem(name, 0, None, doc))
            rows = []
    if not rows and not any(p.path == name for p in probs):
        if own:
            raise EmptyDataError(name)
        probs.append(Problem(name, 0, None, f"no items in {name} ({_EMPTY})"))
    if own and probs:
        raise DuckFormatError(probs)
    return rows


def _check_bounds(min_refs, max_refs) -> None:
    for name, v in (("min_refs", min_refs), ("max_refs", max_refs)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
            raise ValueError(f"{name} must be a positive integer or None, got {v!r}")
    if min_refs is not None and max_refs is not None and min_refs > max_refs:
        raise ValueError(f"min_refs ({min_refs}) must not be larger than max_refs ({max_refs})")


def _split_files(source) -> dict[str, Path] | Path:
    if isinstance(source, Mapping):
        if not source:
            raise ValueError("load_duck got an empty {split: path} mapping")
        out = {}
        for split, p in source.items():
            if not isinstance(split, str) or not split:
                raise ValueError(f"split names must be non-empty strings, got {split!r}")
            out[split] = Path(p)
        return out
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"load_duck expects a path, a directory or a {{split: path}} dict, got {type(source).__name__}")
    p = Path(source)
    if p.is_dir():
        files = sorted(p.glob("*.jsonl"))
        if not files:
            raise FileNotFoundError(f"no *.jsonl files in directory {p}")
        return {f.stem: f for f in files}
    if not p.exists():
        raise FileNotFoundError(f"小黄鸭 data not found: {p}")
    return p


def load_duck(
    source,
    *,
    domains: Sequence[str] | None = DOMAINS,
    difficulties: Sequence[str] | None = DIFFICULTIES,
    min_refs: int | None = MIN_REFS,
    max_refs: int | None = MAX_REFS,
):
    """Load 小黄鸭 JSONL into ``datasets`` objects with explicit features.

    Args:
        source: a ``.jsonl`` file → ``datasets.Dataset``; a directory → ``datasets.DatasetDict`` with one split per
            ``*.jsonl`` file named by its stem (``train.jsonl`` → ``"train"``); or a ``{split: path}`` mapping →
            ``DatasetDict``.
        domains / difficulties: allowed values besides ``null``; ``None`` accepts any string.
        min_refs / max_refs: references per item (default 2–5, the 小黄鸭 format; ``None`` = no bound). Data with one
            reference per item (e.g. single-turn dialogue logs) needs ``min_refs=1``.

    Returns:
        ``Dataset``/``DatasetDict`` with features ``id: string, query: string, responses: List(string),
        domain: string (nullable), difficulty: string (nullable)``, rows in file order.

    Raises:
        DuckFormatError (ValueError): any invalid line in any file (all files are checked, problems listed together;
            an id repeated across splits is a problem too: it would leak test data into training), including an
            item with fewer than ``min_refs`` or more than ``max_refs`` references.
        FileNotFoundError: a missing file or an empty directory. TypeError: an unsupported ``source``.
    """
    from datasets import Dataset, DatasetDict

    files = _split_files(source)
    features = duck_features()
    if isinstance(files, Path):
        rows = read_duck_rows(files, domains=domains, difficulties=difficulties, min_refs=min_refs, max_refs=max_refs)
        return Dataset.from_list(rows, features=features)
    problems: list[Problem] = []
    seen: dict = {}
    per_split = {}
    for split, path in files.items():
        per_split[split] = read_duck_rows(path, domains=domains, difficulties=difficulties, seen_ids=seen, problems=problems,
                                          min_refs=min_refs, max_refs=max_refs)
    if problems:
        raise DuckFormatError(problems)
    return DatasetDict({s: Dataset.from_list(r, features=features) for s, r in per_split.items()})
