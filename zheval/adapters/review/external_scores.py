"""External per-item scores for ``zheval agree`` (``--scores bertscore.csv``): any metric computed elsewhere
(BERTScore, COMET, an LLM judge's own number, ...), joined to a review key by item id and ranked beside zheval's own
metrics (`zheval.adapters.review.human_review.review_agreement`).

The file is a CSV (a TSV when its name ends ``.tsv`` or ``.tsv.gz``) read by `zheval.io` (the reader of every door: its encoding and line rules, ``.gz`` too, no
cell-size limit, every row as many cells as the header) with an ``id`` column and one or more
score columns (``id,bertscore_f1``, or ``id,bertscore_p,bertscore_r,bertscore_f1``). Every column other than ``id``
is a metric, named by its header. Nothing is dropped or guessed; every problem of the file is listed at once, each
naming ``file:line``: a column name with spaces around it (names are matched exactly), a header without ``id`` or without a score column, a column name given twice (`zheval.io`)
or equal to a metric of the key, a row without an id, an id twice (both lines), an id the key does not have, a cell that is not a
finite number (its column, id and value; an empty cell too: a score is not a rating a rater may skip), and -- naming
the file -- every item of the key the file lacks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...io import read_text
from ...io.fields import UniqueIds, keyed_rows, keyed_table

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


def read_scores(path, key: dict, taken=()) -> ExternalScores:
    """Read an external scores file against a review key (module docstring).

    Args:
        path: the CSV file. key: from `zheval.adapters.review.human_review.read_key`.
        taken: metric names already used (the key's, earlier ``--scores`` files' columns): a column of this file with
            such a name is an error.

    Raises:
        ReviewFileError (a ValueError): every problem of the file at once, each naming ``file:line``.
        OSError: the file cannot be read.
    """
    from ...io.numbers import number_cells
    from .human_review import ReviewFileError, listed, raise_problems

    path = Path(path)
    read_problems: list = []
    text = read_text(path, "scores file", read_problems)  # the reader of every door (zheval.io)
    rows = [] if text is None else keyed_table(text, path, read_problems)
    if read_problems:
        raise ReviewFileError(f"cannot read the scores file {path}", [str(p) for p in read_problems])
    if not rows:
        raise ReviewFileError(f"cannot read the scores file {path}", [f"{path}: the file has a header but no row"])
    header = list(rows[0][1])
    problems = []
    if "id" not in header:
        problems.append(f"{path}:1: the header has no id column (it has {', '.join(header) or 'nothing'}); "
                        "write id,<score name>,...")
    columns = [h for h in header if h != "id"]
    if not columns or any(not c for c in columns):
        problems.append(f"{path}:1: every column other than id must be a named score column (got "
                        f"{', '.join(repr(c) for c in columns) or 'none'})")
    clash = [c for c in columns if c in set(taken)]
    if clash:
        problems.append(f"{path}:1: column(s) {', '.join(clash)} already name a metric (of the key or of another "
                        "--scores file); rename them")
    if problems:
        raise ReviewFileError(f"cannot read the scores file {path}", problems)
    known = {it["id"] for it in key["items"]}
    scores: dict = {}
    lines: dict = {}
    values: list = []
    for line, rid, cell in keyed_rows(rows, path, problems, UniqueIds()):
        lines[rid] = line
        if rid not in known:
            problems.append(f"{path}:{line}: id {rid!r} is not an item of the key")
            continue
        scores[rid] = number_cells(cell, columns, f"{path}:{line}", rid, values)
    absent = [it["id"] for it in key["items"] if it["id"] not in lines]
    if absent:
        problems.append(f"{path}: {len(absent)} item(s) of the key have no score here: {listed(absent)}")
    raise_problems(f"the scores file {path}", "the key", values, problems)
    return ExternalScores(str(path), columns, scores)
