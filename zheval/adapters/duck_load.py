"""小黄鸭 JSONL → ``datasets.Dataset``: strict line-by-line validation, then explicit ``Features``.

The 小黄鸭 format is JSONL, one query per line::

    {"id": str, "query": str, "responses": [str, ...], "domain": "生活咨询" | "售后支持" | "情感陪伴" | null,
     "difficulty": "易" | "中" | "难" | null}

Why validate before ``datasets`` sees a row (datasets 5.2.0, ``packaged_modules/json``; ``../shared/ECOSYSTEM.md``
§3): a missing key silently becomes ``None``, an int ``id`` is silently cast to ``"7"``, a string ``responses``
would be iterated character by character by anything downstream, and a malformed line raises an error whose row
number counts from the start of a 10 MB chunk. So every line is decoded and checked here first, with its real
``file:line``, and all problems (the first :data:`MAX_REPORTED`) are reported together in one
:class:`DuckFormatError`. Loading scripts no longer exist in datasets 5.x: :func:`load_duck` is a plain function
around ``Dataset.from_list(rows, features=DUCK_FEATURES)``.

Accepted on input: a UTF-8 BOM, CRLF line ends, blank (whitespace-only) lines.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence, Union

__all__ = [
    "DOMAINS",
    "DIFFICULTIES",
    "DUCK_KEYS",
    "DUCK_FEATURES",
    "duck_features",
    "MAX_REPORTED",
    "Problem",
    "DuckFormatError",
    "EmptyDataError",
    "lone_surrogate",
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


def _features():
    from datasets import Features, List, Value

    return Features(
        {
            "id": Value("string"),
            "query": Value("string"),
            "responses": List(Value("string")),
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


def _check_row(obj, domains, difficulties) -> list[str]:
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


def _iter_lines(path: Path) -> Iterable[tuple[int, bytes]]:
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for i, raw in enumerate(data.split(b"\n"), start=1):
        yield i, raw


def read_duck_rows(
    path: Union[str, os.PathLike],
    *,
    domains: Sequence[str] | None = DOMAINS,
    difficulties: Sequence[str] | None = DIFFICULTIES,
    seen_ids: dict | None = None,
    problems: list | None = None,
) -> list[dict]:
    """Read and validate one 小黄鸭 JSONL file line by line.

    Args:
        path: the file. A UTF-8 BOM, CRLF line ends and blank lines are accepted.
        domains / difficulties: allowed values besides ``null`` (``None`` = any string).
        seen_ids: ``{id: "file:line"}`` shared across files to detect ids repeated between splits (updated).
        problems: a list to append problems to instead of raising (used to report several files together).

    Returns:
        The rows as dicts with exactly the keys :data:`DUCK_KEYS`, in file order.

    Raises:
        DuckFormatError (a ValueError): when ``problems`` is ``None`` and anything is wrong: undecodable UTF-8,
            malformed JSON, a non-object line, missing/extra keys, wrong types, ``responses`` not a non-empty list
            of non-empty strings, an unknown domain/difficulty, a duplicate id. Each problem names ``file:line``
            and the id when known; up to :data:`MAX_REPORTED` are listed.
            A file without any row raises :class:`EmptyDataError` (``no items in FILE``; a problem when ``problems``
            is given).
        FileNotFoundError: the file does not exist. IsADirectoryError: ``path`` is a directory.
    """
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
    for lineno, raw in _iter_lines(path):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            probs.append(Problem(name, lineno, None, f"not valid UTF-8 (byte {exc.start}: {raw[exc.start:exc.start + 4]!r})"))
            continue
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            probs.append(Problem(name, lineno, None, f"malformed JSON: {exc.msg} at column {exc.colno}"))
            continue
        rid = obj.get("id") if isinstance(obj, dict) and isinstance(obj.get("id"), str) else None
        errs = _check_row(obj, domains, difficulties)
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
    if not rows and not any(p.path == name for p in probs):
        if own:
            raise EmptyDataError(name)
        probs.append(Problem(name, 0, None, f"no items in {name} ({_EMPTY})"))
    if own and probs:
        raise DuckFormatError(probs)
    return rows


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
):
    """Load 小黄鸭 JSONL into ``datasets`` objects with explicit features.

    Args:
        source: a ``.jsonl`` file → ``datasets.Dataset``; a directory → ``datasets.DatasetDict`` with one split per
            ``*.jsonl`` file named by its stem (``train.jsonl`` → ``"train"``); or a ``{split: path}`` mapping →
            ``DatasetDict``.
        domains / difficulties: allowed values besides ``null``; ``None`` accepts any string.

    Returns:
        ``Dataset``/``DatasetDict`` with features ``id: string, query: string, responses: List(string),
        domain: string (nullable), difficulty: string (nullable)``, rows in file order.

    Raises:
        DuckFormatError (ValueError): any invalid line in any file (all files are checked, problems listed together;
            an id repeated across splits is a problem too: it would leak test data into training).
        FileNotFoundError: a missing file or an empty directory. TypeError: an unsupported ``source``.
    """
    from datasets import Dataset, DatasetDict

    files = _split_files(source)
    features = duck_features()
    if isinstance(files, Path):
        rows = read_duck_rows(files, domains=domains, difficulties=difficulties)
        return Dataset.from_list(rows, features=features)
    problems: list[Problem] = []
    seen: dict = {}
    per_split = {}
    for split, path in files.items():
        per_split[split] = read_duck_rows(path, domains=domains, difficulties=difficulties, seen_ids=seen, problems=problems)
    if problems:
        raise DuckFormatError(problems)
    return DatasetDict({s: Dataset.from_list(r, features=features) for s, r in per_split.items()})
