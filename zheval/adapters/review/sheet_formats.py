"""The review sheet in the format its file's name says (issue 35 F5: ``zheval sample -o t.tsv`` wrote CSV under that
name, and ``zheval agree --ratings t.tsv`` then read it as TSV and found no ``id`` column).

A sheet is written in each format the ratings sheet is read back in (`zheval.adapters.review.review_files`), chosen
by the name as there (``.gz`` after any of them: gzip-compressed):

* ``.csv``: `zheval.adapters.review.human_review.sheet_csv` (UTF-8 with a BOM; cells escaped, line breaks of the
  query and the prediction kept in quoted cells, one reference per line).
* ``.tsv``: UTF-8 with a BOM, one row per line, cells separated by tabs (TSV is read without quoting: no cell may
  hold a tab or a line break): every text cell escaped on one line (`zheval.text.terminal.escaped_text`,
  ``one_line=True``: a line break is ``\\n``, a tab ``\\t``), the references cell a JSON list of the references on
  one line (``["参考一", "参考二"]``, control characters as JSON escapes), rating cells empty.
* CSV and TSV are opened by spreadsheet programs: a text cell that would start a formula (``=``, ``+``, ``-``,
  ``@``, tab, CR) is written with OWASP's ``'`` in front, and a text's own leading ``'`` as ``\\x27``
  (`zheval.text.controls.sheet_text`, one-to-one; ``zheval agree`` reads it back exactly, whether the spreadsheet
  kept the guard or dropped it).
* ``.jsonl``, ``.json``, ``.ndjson``: one JSON object per line with every text exact (`terminal_json`: control
  characters as JSON escapes, so the file is safe to print), ``references`` a list, ratings ``null``.
* ``.parquet``, ``.pq``: string columns, ``references`` a list of strings, rating columns float64, all null.

Any other name (``sheet.xlsx``, ``sheet.txt``, ``sheet``) is refused by `sheet_format` before anything is computed,
naming the accepted extensions.
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path

from ...io import given_path
from ...text.terminal import sheet_text, terminal_json
from .review_files import REVIEW_FORMATS

__all__ = ["sheet_format", "sheet_bytes", "SHEET_NAMES"]

SHEET_NAMES = (".csv, .tsv, .jsonl, .json, .ndjson, .parquet or .pq, each also with .gz after it "
               "(sheet.csv, sheet.tsv.gz)")
"""The accepted endings of a review sheet's name, as messages list them."""


def sheet_format(path) -> str:
    """The format of a review sheet written to ``path`` (``csv``, ``tsv``, ``jsonl`` or ``parquet``), by its name.

    Raises:
        ValueError: a name that says no format the ratings sheet is read back in, naming the accepted endings.
    """
    p = given_path(path)  # said as given
    base = p.with_suffix("") if p.suffix.lower() == ".gz" else p
    kind = REVIEW_FORMATS.get(base.suffix.lower())
    if kind is None:
        raise ValueError(f"the review sheet's name {str(p)!r} does not say a format it is read back in: name it "
                         f"{SHEET_NAMES}")
    return kind


def _tsv(sheet: list, columns: list) -> str:
    def cell(column, value):
        if isinstance(value, (list, tuple)):
            return terminal_json([str(v) for v in value])
        return sheet_text(value, one_line=True) if isinstance(value, str) else ("" if value is None else str(value))

    lines = ["\t".join(columns)] + ["\t".join(cell(c, row.get(c)) for c in columns) for row in sheet]
    return "\ufeff" + "\n".join(lines) + "\n"


def _jsonl(sheet: list, columns: list, texts: tuple) -> str:
    def value(column, v):
        if isinstance(v, (list, tuple)):
            return [str(x) for x in v]
        return v if column in texts else None  # a rating: null until rated

    return "".join(terminal_json({c: value(c, row.get(c)) for c in columns}) + "\n" for row in sheet)


def _parquet(sheet: list, columns: list, texts: tuple) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    arrays, fields = [], []
    for c in columns:
        values = [row.get(c) for row in sheet]
        if c == "references":
            typ, data = pa.list_(pa.string()), [list(v) for v in values]
        elif c in texts:
            typ, data = pa.string(), values
        else:
            typ, data = pa.float64(), [None for _ in values]
        arrays.append(pa.array(data, type=typ))
        fields.append(pa.field(c, typ))
    buf = io.BytesIO()
    pq.write_table(pa.Table.from_arrays(arrays, schema=pa.schema(fields)), buf)
    return buf.getvalue()


def sheet_bytes(sheet: list, path) -> bytes:
    """The bytes of the review sheet ``sheet`` (`zheval.adapters.review.human_review.ReviewSample.sheet`: rows of
    ``{column: text}``, ``references`` a list, rating cells empty) in the format ``path``'s name says (module
    docstring), gzip-compressed (``mtime`` 0: the same sheet gives the same bytes) when it ends in ``.gz``.

    Raises:
        ValueError: the name says no accepted format (`sheet_format`).
    """
    from .human_review import sheet_csv

    kind = sheet_format(path)
    columns = list(sheet[0].keys()) if sheet else []
    if kind == "csv":
        data = sheet_csv(sheet).encode("utf-8")
    elif kind == "tsv":
        data = _tsv(sheet, columns).encode("utf-8")
    elif kind == "jsonl":
        data = _jsonl(sheet, columns, ("id", "query", "prediction")).encode("utf-8")
    else:
        data = _parquet(sheet, columns, ("id", "query", "prediction"))
    return gzip.compress(data, mtime=0) if Path(path).suffix.lower() == ".gz" else data
