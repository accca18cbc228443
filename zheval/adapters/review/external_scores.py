"""External per-item scores for ``zheval agree`` (``--scores bertscore.csv``): any metric computed elsewhere
(BERTScore, COMET, an LLM judge's own number, ...), joined to a review key by item id and ranked beside zheval's own
metrics (`zheval.adapters.review.human_review.review_agreement`).

The file is a CSV, TSV, JSON Lines or Parquet file, each also gzip-compressed, chosen by its name (``.csv``,
``.tsv``, ``.jsonl``/``.json``/``.ndjson``, ``.parquet``/``.pq``, ``.gz`` after any; another name is refused naming
them: `zheval.adapters.review.review_files`), read by `zheval.io` (the reader of every door: its encoding and line
rules, no cell-size limit, every row as many cells as the header) with an ``id`` column and one or more score
columns (``id,bertscore_f1``, or ``id,bertscore_p,bertscore_r,bertscore_f1``; JSON Lines: ``{"id": "q1",
"bertscore_f1": 0.81}``). Every column other than ``id`` is a metric, named by its header. Nothing is dropped or
guessed; every problem of the file is listed at once, each naming ``file:line``: a column name with spaces around it
(names are matched exactly), a header without ``id`` or without a score column, a column name given twice
(`zheval.io`), a column named like a metric of the key (``rougeL``) or like its printed label (``ROUGE-L``,
``sentence BLEU``), like a rating column (``relevance``), like a column of an earlier ``--scores`` file or of this
one -- apart from case, spaces, ``_``/``-`` or width too (``Relevance``, ``rouge_l``, ``Sentence BLEU``:
`zheval.adapters.review.review_files.loose_name`) -- (the table would show two rows alike: break-it F2), a row
without an id, a row of empty cells, an id twice (both lines), an id
the key does not have, a cell that is not a finite number (its column, id and value; an empty cell or ``null`` too: a
score is not a rating a rater may skip; a JSON string ``"0.5"`` too), a JSON Lines row lacking a score column other
rows have, and -- naming the file -- every item of the key the file lacks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from ...io import given_path
from ...io.fields import UniqueIds, keyed_rows
from ..duck.mismatch import id_hints
from .review_files import (ReviewFileError, columns_of, lacking, listed, name_clashes, raise_problems,
                           read_review_file, reserved_names, typed)

__all__ = ["ExternalScores", "read_scores"]


@dataclass
class ExternalScores:
    """Per-item scores of one ``--scores`` file.

    Attributes:
        source: the file's path (``str``). columns: the score columns, in file order.
        scores: ``{id: {column: float}}`` for every item of the key.
    """

    source: str
    columns: list
    scores: dict


def read_scores(path, key: dict, taken=(), rating_columns: Sequence[str] = ()) -> ExternalScores:
    """Read an external scores file against a review key (module docstring).

    Args:
        path: the file: CSV, TSV, JSON Lines or Parquet, each also gzip-compressed, by its name
            (`zheval.adapters.review.review_files`). key: from `zheval.adapters.review.human_review.read_key`.
        taken: names already used by earlier ``--scores`` files' columns: ``{name: what it is}`` (``"a column of
            --scores a.csv"``), or a sequence of names. A column of this file with such a name is an error, and so
            is one named like a metric of the key (its name or printed label) or a rating column (the key's and
            ``rating_columns``): `zheval.adapters.review.review_files.reserved_names`.
        rating_columns: the rating columns read from the sheet (``--ratings-columns``).

    Raises:
        ReviewFileError (a ValueError): every problem of the file at once, each naming ``file:line`` (two different
            numbers of a column that read as the same float64: both lines, `zheval.io.numbers.SameFloat`).
        OSError: the file cannot be read.
    """
    from ...io.numbers import SameFloat, number_cells

    path = given_path(path)  # said as given
    # the reader of every door (zheval.io), the format by the name; {"data": [{...}, ...]}: the wrapped-rows hint
    rf = read_review_file(path, "scores file")
    header = columns_of(rf)
    problems = []
    if "id" not in header:
        problems.append(f"{path}:1: the header has no id column (it has {', '.join(header) or 'nothing'}); "
                        "write id,<score name>,...")
    columns = [h for h in header if h != "id"]
    if not columns or any(not isinstance(c, str) or not c.strip() for c in columns):
        problems.append(f"{path}:1: every column other than id must be a named score column (got "
                        f"{', '.join(repr(c) for c in columns) or 'none'})")
    earlier = dict(taken) if isinstance(taken, Mapping) else {t: "the name of another metric" for t in taken}
    problems += name_clashes(path, columns, {**earlier, **reserved_names(key, rating_columns)})
    problems += lacking(rf, path, columns, "a score is never missing")
    if problems:
        raise ReviewFileError(f"cannot read the scores file {path}", problems)
    known = {it["id"] for it in key["items"]}
    scores: dict = {}
    lines: dict = {}
    values: list = []
    blank_rows: list = []
    is_typed = typed(rf)
    same = SameFloat()  # two different numbers of a column that read as one float64: refused
    for line, rid, cell in keyed_rows(rf.rows, path, problems, UniqueIds(), typed=is_typed, blank_rows=blank_rows):
        lines[rid] = line
        if rid not in known:
            problems.append(f"{path}:{line}: id {rid!r} is not an item of the key")
            continue
        scores[rid] = number_cells(cell, columns, f"{path}:{line}", rid, values, typed=is_typed, same=same)
    problems += [f"{path}:{line}: the row is empty (no id, no score)" for line in blank_rows]
    absent = [it["id"] for it in key["items"] if it["id"] not in lines]
    if absent:
        problems.append(f"{path}: {len(absent)} item(s) of the key have no score here: {listed(absent)}")
    problems += [f"{path}: {hint}" for hint in id_hints(absent, [r for r in lines if r not in known], "the key",
                                                        "the scores file")]
    raise_problems(f"the scores file {path}", "the key", values, problems, same.problems)
    return ExternalScores(str(path), columns, scores)
