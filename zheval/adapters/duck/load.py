"""小黄鸭 JSONL → ``datasets.Dataset``: strict line-by-line validation, then explicit ``Features``.

The 小黄鸭 format is JSONL, one query per line::

    {"id": str, "query": str, "responses": [str, ...], "domain": "生活咨询" | "售后支持" | "情感陪伴" | null,
     "difficulty": "易" | "中" | "难" | null}

Why validate before ``datasets`` sees a row (datasets 5.2.0, ``packaged_modules/json/json.py`` and
``load_dataset("json", ...)``, checked against the released package): a missing key silently becomes ``None``, an
int ``id`` is silently cast to ``"7"`` (here it is the id ``"7"`` by the one id rule of [`zheval.io.fields`][], so
``7`` and ``"7"`` on two lines are a duplicate), a string ``responses`` would be iterated character by character by anything downstream, and a malformed line raises an error whose row
number counts from the start of a 10 MB chunk. So every line is decoded and checked here first, with its real
``file:line``, and all problems (the first `MAX_REPORTED`) are reported together in one
`DuckFormatError`. Loading scripts no longer exist in datasets 5.x: `load_duck` is a plain function
around ``Dataset.from_list(rows, features=DUCK_FEATURES)``.

The file is read by `zheval.io` (the reader of every door: gzip undone, one encoding rule, one line rule).
Accepted on input: a UTF-8 BOM (removed), CRLF line ends, blank (whitespace-only) lines, a ``.gz`` file. Refused,
each with one message for the whole file: CR-only line ends, UTF-16/UTF-32 (with or without a BOM) and GB18030/GBK text, which are not UTF-8
(`encoding_problem`); so is a file that is one JSON document (an array of rows, as ``json.dump(rows, f,
indent=2)`` writes) instead of JSON Lines (`json_document_problem`), and a table, Parquet or CSV/TSV, without a
valid line (`table_problem`). A line with a key given twice is refused (JSON parsers keep the last value silently;
`parse_json_line`). Every item has `MIN_REFS`–`MAX_REFS` references unless the caller relaxes the
bounds (``min_refs``/``max_refs``; single-reference data needs ``min_refs=1``).
"""

from __future__ import annotations

import csv
import os
from pathlib import Path
from typing import Mapping, Sequence, Union

from ...io import (EMPTY_FILE, MAX_REPORTED, PREDICTION_FIELDS, REFERENCE_FIELDS, EmptyFileError, FileFormatError, Problem,
                   UniqueIds, duplicate_key_problem, encoding_problem, existing_file, format_suffix, given_path, group_spaces_problem, id_value, json_document_problem, json_error_message,
                   json_line_or_problem, lone_surrogate, parse_json_line, RESPONSES_REMEDY, read_bytes, read_text,
                   spaced_names, type_name)
from ...io.jsonl import wrapped_rows_hint
from ..list_texts import ListTexts

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

MIN_REFS = 2
"""Fewest references (``responses``) a 小黄鸭 item may have by default: multi-reference scoring and the human
ceiling need two. Relax with ``min_refs=1`` (CLI ``--min-refs 1``) for single-reference data."""

MAX_REFS = 5
"""Most references a 小黄鸭 item may have by default (the format has 2–5 replies per query). Relax with ``max_refs``
(CLI ``--max-refs``); ``None`` means no upper bound."""



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


DuckFormatError = FileFormatError
"""Invalid 小黄鸭 input: [`zheval.io.problems.FileFormatError`][] (``problems`` holds every
[`Problem`][zheval.io.problems.Problem]; the message lists the first `MAX_REPORTED` as ``file:line: id '…': what
is wrong``, and the total count)."""

EmptyDataError = EmptyFileError
"""A 小黄鸭 file without a single item: `zheval.io.problems.EmptyFileError` (``no items in FILE``)."""


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


#: How an unknown domain is accepted, said with its refusal (as the reference-count bounds say theirs).
_DOMAINS_HINT = (". For other domains: --domains any (or a comma list of the values) on the command line, "
                 "domains=None (or the values) in load_duck")


def _check_row(obj, domains, difficulties, min_refs=None, max_refs=None, empty_refs=False, path="FILE") -> list[str]:
    """Return the list of problems of one decoded JSON value (empty if it is a valid 小黄鸭 row); ``empty_refs``
    lets empty or whitespace-only references through (``zheval clean`` drops and counts them); ``path``: the file,
    named in the hint of rows wrapped in one object."""
    if not isinstance(obj, dict):
        return [f"expected a JSON object, got {type_name(obj)}"]
    errs = _check_text_fields(obj)
    missing = [k for k in DUCK_KEYS if k not in obj]
    extra = [k for k in obj if k not in DUCK_KEYS]
    if missing:
        hint = wrapped_rows_hint(obj, path) if "responses" in missing else None  # {"data": [{...}, ...]}: rows wrapped
        errs.append(f"missing key(s) {missing}{spaced_names(missing, obj)}" + (f"; {hint}" if hint else ""))
    if extra:
        errs.append(f"unexpected key(s) {extra} (allowed: {list(DUCK_KEYS)})")
    if "id" in obj:
        err = id_value(obj["id"], "id")[1]
        if err and lone_surrogate(str(obj["id"])) is None:  # a lone surrogate is reported by _check_text_fields
            errs.append(err)
    if "query" in obj and not isinstance(obj["query"], str):
        errs.append(f"'query' must be a string, got {type_name(obj['query'])}")
    if "responses" in obj:
        r = obj["responses"]
        if not isinstance(r, list):
            errs.append(f"'responses' must be a non-empty list of strings, got {type_name(r)}")
        elif not r:
            errs.append("'responses' is an empty list; at least one reference reply is needed")
        else:
            for j, s in enumerate(r):
                if not isinstance(s, str):
                    errs.append(f"responses[{j}] must be a string, got {type_name(s)}")
                elif not s.strip() and not empty_refs:
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
                errs.append(f"{key!r} must be a string or null, got {type_name(v)}")
            elif group_spaces_problem(v, key):
                errs.append(group_spaces_problem(v, key))
            elif valid is not None and v not in valid:
                hint = _DOMAINS_HINT if key == "domain" else ""
                errs.append(f"{key!r} {v!r} is not one of {list(valid)} or null{hint}")
    return errs


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
    empty_refs: bool = False,
) -> list[dict]:
    """Read and validate one 小黄鸭 JSONL file line by line.

    Args:
        path: the file. A UTF-8 BOM, CRLF line ends and blank lines are accepted.
        domains / difficulties: allowed values besides ``null`` (``None`` = any string).
        seen_ids: ``{id: "file:line"}`` shared across files to detect ids repeated between splits (updated).
        problems: a list to append problems to instead of raising (used to report several files together).
        min_refs / max_refs: allowed number of references per item (default `MIN_REFS`–`MAX_REFS`,
            the 小黄鸭 format's 2–5; ``None`` = no bound; ``min_refs=1`` for single-reference data).
        lines: a list to append the 1-based line number of each returned row to (for messages naming
            ``file:line`` later, e.g. a reference that is empty after normalisation).
        empty_refs: accept empty or whitespace-only references (refused by default; `zheval.adapters.duck.clean`
            drops and counts them as ``empty``).

    Returns:
        The rows as dicts with exactly the keys `DUCK_KEYS`, in file order.

    Raises:
        DuckFormatError (a ValueError): when ``problems`` is ``None`` and anything is wrong: undecodable UTF-8,
            malformed JSON, a key given twice on a line, a non-object line, missing/extra keys, wrong types,
            ``responses`` not a list of non-empty strings or outside ``min_refs``–``max_refs`` references, an
            unknown domain/difficulty, a duplicate id; a UTF-16/UTF-32/GB18030 file is one problem for the whole
            file saying so (`encoding_problem`), as is a JSON document or a Parquet/CSV/TSV table (`table_problem`).
            Each problem names ``file:line``
            and the id when known; up to `MAX_REPORTED` are listed.
            A file without any row raises `EmptyDataError` (``no items in FILE``; a problem when ``problems``
            is given).
        FileNotFoundError: the file does not exist. IsADirectoryError: ``path`` is a directory.
        ValueError: ``min_refs``/``max_refs`` not positive integers or ``min_refs > max_refs``.

    Warns:
        ListTextWarning: ``responses`` entries that are lists written as text (``"['a', 'b']"``), each scored as one
            text: once for a valid file, with their count and the first ``file:line`` (`zheval.adapters.list_texts`).
        JsonStringWarning: ``responses`` entries that are themselves JSON string literals (``json.dumps`` applied
            twice; without an escape when half the entries are so), each scored as written: the same way
            (`zheval.adapters.json_texts.JsonFields`).
    """
    _check_bounds(min_refs, max_refs)
    own = problems is None
    probs: list[Problem] = [] if own else problems
    ids = UniqueIds(seen_ids)
    path = existing_file(path, "小黄鸭 data")
    rows: list = []
    name = str(path)
    first_problem = len(probs)
    listed = ListTexts()  # responses that are lists written as text: scored as written, one warning for the file
    text = read_text(path, "小黄鸭 data", probs)
    if text is None:
        _one_table_problem(path, None, probs, first_problem)
        if own:
            raise DuckFormatError(probs, "invalid 小黄鸭 data")
        return rows
    for lineno, line in enumerate(text.split("\n"), start=1):
        parsed = json_line_or_problem(line, name, lineno, probs)
        if parsed is None:
            continue
        obj, dups = parsed
        rid = id_value(obj.get("id"))[0] if isinstance(obj, dict) else None
        errs = ([duplicate_key_problem(dups)] if dups else []) + _check_row(obj, domains, difficulties, min_refs, max_refs,
                                                                                   empty_refs, name)
        if rid is not None:
            dup = ids.add(rid, name, lineno)
            if dup:
                errs.append(dup)
        if errs:
            probs.extend(Problem(name, lineno, rid, e) for e in errs)
            continue
        rows.append({k: (rid if k == "id" else obj[k]) for k in DUCK_KEYS})
        listed.add(lineno, obj["responses"], [f"responses[{j}]" for j in range(len(obj["responses"]))])
        if lines is not None:
            lines.append(lineno)
    if len(probs) > first_problem:
        doc = json_document_problem(text, name)
        if doc is not None:
            del probs[first_problem:]
            probs.append(Problem(name, 0, None, doc))
            rows = []
        elif not rows and _one_table_problem(path, text, probs, first_problem):
            rows = []
    if not rows and not any(p.path == name for p in probs):
        if own:
            raise EmptyDataError(name)
        probs.append(Problem(name, 0, None, f"no items in {name} ({EMPTY_FILE})"))
    if own and probs:
        raise DuckFormatError(probs, "invalid 小黄鸭 data")
    if rows and len(probs) == first_problem:  # a valid file: its list texts said once
        listed.warn(name, RESPONSES_REMEDY)
    return rows


#: Field names whose presence in a first line read as a CSV/TSV header says the file is a table (`table_problem`).
_TABLE_FIELDS = frozenset(DUCK_KEYS) | set(PREDICTION_FIELDS) | set(REFERENCE_FIELDS)
_TABLE_SUFFIXES = ((".parquet", "Parquet"), (".pq", "Parquet"), (".csv", "CSV"), (".tsv", "TSV"))


def table_problem(path, text: str | None) -> str | None:
    """One message when a file that failed as 小黄鸭 JSONL is a table instead, else ``None`` (then every line would
    otherwise be reported, as undecodable UTF-8 or malformed JSON): Parquet when its bytes start with ``PAR1``,
    CSV/TSV when its first non-blank line read as a CSV (TSV) header has two cells or more, one of them a known
    field name (`DUCK_KEYS`, the prediction and reference fields), or any of them by its extension
    (``.parquet``/``.pq``/``.csv``/``.tsv``, ``.gz`` removed)."""
    kind = why = None
    raw = read_bytes(path, "小黄鸭 data", [])  # only on a file that already failed
    if raw is not None and raw[:4] == b"PAR1":
        kind, why = "Parquet", "it starts with the Parquet magic bytes PAR1"
    elif text is not None:
        first = next((ln for ln in text.split("\n") if ln.strip()), "")
        for sep, name in (("\t", "TSV"), (",", "CSV")):
            cells = [c.strip() for c in next(csv.reader([first], delimiter=sep), [])]
            known = list(dict.fromkeys(c for c in cells if c in _TABLE_FIELDS))  # in the header's order
            if len(cells) > 1 and known:
                kind, why = name, f"its first line is a {name} header naming {known}"
                break
    suffix = format_suffix(path)
    if kind is None and suffix in dict(_TABLE_SUFFIXES):
        kind, why = dict(_TABLE_SUFFIXES)[suffix], f"its extension is {suffix}"
    if kind is None:
        return None
    return (f"looks like a {kind} file ({why}), not JSON Lines: --data (clean's SOURCE, load_duck) takes 小黄鸭 JSONL, one JSON "
            f"object per line with the keys {list(DUCK_KEYS)}; convert it (pandas: df.to_json(OUT, orient='records', "
            "lines=True, force_ascii=False)), or score a table of predictions and references without --data (-p FILE)")


def _one_table_problem(path, text: str | None, probs: list, first_problem: int) -> bool:
    """The problems of ``path`` from ``first_problem`` on replaced by its `table_problem` when it is one."""
    msg = table_problem(path, text) if len(probs) > first_problem else None
    if msg is None:
        return False
    del probs[first_problem:]
    probs.append(Problem(str(path), 0, None, msg))
    return True


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
            out[split] = given_path(p)
        return out
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"load_duck expects a path, a directory or a {{split: path}} dict, got {type(source).__name__}")
    p = given_path(source)  # said as given
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
        raise DuckFormatError(problems, "invalid 小黄鸭 data")
    return DatasetDict({s: Dataset.from_list(r, features=features) for s, r in per_split.items()})
