"""Tables with a header row: CSV (RFC 4180 quoting, Python's ``csv`` with no field-size limit), TSV (no quoting at
all: a line is ``"\\t".join(cells)``, as sacrebleu and ``cut`` read it) and Parquet (pyarrow, imported when a
Parquet file is read). Each gives ``(line, {column: cell})`` rows: the physical line where the row starts (CSV,
TSV) or the 1-based row number (Parquet).

Rules shared by CSV and TSV: the first non-blank line is the header, with distinct non-empty names matched exactly
(a name with spaces around it, ``" output"``, is refused naming it: it is neither ``"output"`` nor silently
trimmed to it); every row has
as many cells as the header; blank lines are skipped, except in a one-column file, where a blank line could be an
empty value and is refused (write ``""``, as pandas does); a row equal to the header (files joined with ``cat``) or
a cell starting with a byte-order mark inside the file is refused naming its line.

CSV rows end where the line rule (`zheval.io.lines`) ends lines, at LF or CRLF: a lone CR is text, in a quoted cell
or not (Python's ``csv`` would end the row there, or refuse it when read line by line), and line numbers are those
lines. A quoted cell may span lines, but not rows: when the lines inside a multi-line quoted cell each read as a row
of the header's width, the cell is refused naming the line of its opening quote (`spanning_cell_problem`): a stray
``"`` at the start of a cell would otherwise merge the rows after it into that cell, silently. A quoted cell the
file never closes is refused at the line where it opens, and a ``"`` inside an unquoted cell (``ab"c``, which
Python's ``csv`` keeps as text) at its line, saying how to quote it (`csv_cells`).
"""

from __future__ import annotations

import contextlib
import csv
import re
import sys
import threading

from .lines import split_lines
from .problems import EMPTY_FILE, Problem

__all__ = ["csv_rows", "tsv_rows", "parquet_rows", "table_rows_stream", "csv_cells", "lifted_field_limit",
           "spanning_cell_problem", "tsv_quoting_checked"]

_FIELD_LIMIT_LOCK = threading.Lock()

_MARK = "\ufdd0"  # a Unicode noncharacter (kept for internal use): a lone CR travels through csv as _MARK + "r"
_LONE_CR_OR_MARK = re.compile("\ufdd0|\r(?!\n|\\Z)")
_MARKED = re.compile("\ufdd0(.)", re.S)


_DELIMITERS = ((";", "';'"), ("\t", "a tab"), (",", "','"), ("|", "'|'"))


def _layout_problem(header: list, name: str, line: int) -> Problem | None:
    """A first line that is no header: Excel's ``sep=X`` delimiter line, or one column whose name holds another
    delimiter between several names (a ';'-separated CSV, a CSV read as TSV)."""
    if (len(header) == 2 and header == ["sep=", ""]) or (len(header) == 1 and re.fullmatch("sep=.", header[0])):
        shown = repr(header[0]) if len(header) == 1 else "'sep=' and the delimiter"
        return Problem(name, line, None, f"this line is {shown}, a spreadsheet's delimiter line (Excel writes it), "
                                         "not a header: remove it, so that the header is the first line")
    if len(header) == 1:
        for d, said in _DELIMITERS:
            if len([part for part in header[0].split(d) if part.strip()]) > 1:
                return Problem(name, line, None, f"the header is one column, {header[0]!r}, whose name holds {said} "
                                                 f"between names: a file separated by {said}? CSV is read with ',' "
                                                 "between cells and TSV with tabs: save it with the delimiter of "
                                                 "its format (or as JSON Lines)")
    return None


def _header_problems(header: list, name: str, line: int) -> list:
    layout = _layout_problem(header, name, line)
    if layout is not None:
        return [layout]
    out = []
    empty = [i + 1 for i, h in enumerate(header) if not h.strip()]
    dup = sorted({h for h in header if header.count(h) > 1})
    if empty:
        hint = ("; pandas' DataFrame.to_csv writes its index there, unnamed: save with index=False (or name the "
                "index, df.rename_axis('idx').to_csv(...), to keep it as a column)" if empty == [1] else
                "; give every column a name")
        out.append(Problem(name, line, None, f"the header has an empty column name (column(s) {empty}){hint}"))
    if dup:
        out.append(Problem(name, line, None, f"the header names column(s) {dup} more than once"))
    out += [Problem(name, line, None, f"the column name {h!r} has spaces around it: column names are matched exactly, "
                                      f"so it is not {h.strip()!r}; remove the spaces in the header")
            for h in header if h.strip() and h != h.strip()]
    return out


def _repeats_header(cells, header) -> bool:
    # every cell equal to its header cell but for case and surrounding spaces (ID,Prediction after id,prediction)
    return all(c.strip().casefold() == h.strip().casefold() for c, h in zip(cells, header))


def table_rows_stream(cell_lines, name: str, problems: list):
    """Rows from ``(line, cells)`` pairs, yielded as they come (the streaming reader,
    `zheval.io.chunks`, and `csv_rows`/`tsv_rows`): the header checked, blank lines skipped, cell
    counts checked; problems appended to ``problems``."""
    header, first = None, len(problems)
    for line, cells in cell_lines:
        if header is None:
            if not cells:
                continue
            header = cells
            bad = _header_problems(header, name, line)
            if bad:
                problems.extend(bad)
                return
            continue
        if not cells:
            if len(header) == 1:  # an empty value, or no row at all? (pandas writes "" for an empty value)
                problems.append(Problem(name, line, None, "a blank line in a one-column file: an empty value or no "
                                                          "row? write an empty value as \"\""))
            continue  # a blank line between rows
        if len(cells) != len(header):
            problems.append(Problem(name, line, None, f"{len(cells)} cell(s), but the header has {len(header)} "
                                                      "columns"))
            continue
        bad = spanning_cell_problem(header, cells, line, name)
        if bad is not None:
            problems.append(bad)
            continue
        if _repeats_header(cells, header):  # `cat a.csv b.csv`: the second file's header would be scored as an item
            but = "" if cells == header else f" but for case or spaces ({', '.join(cells)})"
            problems.append(Problem(name, line, None, f"this row repeats the header ({', '.join(header)}){but}: "
                                                      "files joined together (the second one's header is then read "
                                                      "as a row)? remove the line"))
            continue
        if any(c.startswith("\ufeff") for c in cells):  # the file's own BOM is removed before the header
            problems.append(Problem(name, line, None, "a cell starts with a byte-order mark (U+FEFF) inside the "
                                                      "file: files joined together (the second one's header is then "
                                                      "read as a row)? remove it"))
            continue
        yield line, dict(zip(header, cells))
    if header is None and len(problems) == first:
        problems.append(Problem(name, 0, None, f"no items in {name} ({EMPTY_FILE}; not even a header row)"))


def _table_rows(cell_lines, name: str, problems: list) -> list:
    """Rows from ``(line, cells)`` pairs (`table_rows_stream`), as a list."""
    return list(table_rows_stream(cell_lines, name, problems))


@contextlib.contextmanager
def lifted_field_limit():
    """The csv module's field-size limit lifted while the block runs (it is a process-wide setting: taken under a
    lock, restored after), so that a cell may be of any length."""
    with _FIELD_LIMIT_LOCK:
        old = csv.field_size_limit(sys.maxsize)
        try:
            yield
        finally:
            csv.field_size_limit(old)


def _lines_of(text: str):
    """The lines of ``text`` with their line ends, split at LF only (the line rule), without a copy of the text."""
    start, n = 0, len(text)
    while start < n:
        end = text.find("\n", start)
        end = n if end == -1 else end + 1
        yield text[start:end]
        start = end


def _marked(line: str) -> str:
    """``line`` with each lone CR written ``_MARK + "r"`` and each ``_MARK`` doubled (`_unmarked` undoes it)."""
    return _LONE_CR_OR_MARK.sub(lambda m: _MARK + ("r" if m.group() == "\r" else _MARK), line)


def _unmarked(cell: str) -> str:
    return _MARKED.sub(lambda m: "\r" if m.group(1) == "r" else _MARK, cell) if _MARK in cell else cell


class _QuoteState:
    """Where the quotes of the CSV row being read stand, line by line (`csv_cells`): whether a quoted cell is open
    at the end of the last line and on which line it opened, which cell the line ends in, and the lines that hold a
    ``"`` inside an unquoted cell. Only lines with a ``"`` are scanned (a line without one changes nothing)."""

    __slots__ = ("open", "opened", "cell", "row_start", "bad_row")

    def __init__(self) -> None:
        self.open, self.opened, self.cell, self.row_start, self.bad_row = False, 0, 0, 1, False

    def scan(self, line: str, k: int, name: str, problems: list) -> None:
        """Advance over line ``k`` (with its line end); a ``"`` in an unquoted cell is a problem at ``k``."""
        if k == self.row_start:
            self.open, self.cell = False, 0
        if '"' not in line:
            return
        text = line[:-2] if line.endswith("\r\n") else line[:-1] if line.endswith("\n") else line
        i, n = 0, len(text)
        while True:
            if self.open:
                i = _QUOTED_TEXT.match(text, i).end()
                if i == n:
                    return
                self.open = False
                j = text.find(",", i + 1)  # text after the closing quote: csv's strict mode refuses it
            elif text.startswith('"', i):
                self.open, self.opened, i = True, k, i + 1
                continue
            else:
                j = text.find(",", i)
                cell = text[i:] if j < 0 else text[i:j]
                if '"' in cell:
                    self.bad_row = True
                    problems.append(Problem(name, k, None, f"a \" inside the unquoted cell {self.cell + 1} "
                                                           f"({cell!r}): CSV reads a \" as text only inside a quoted "
                                                           f"cell; quote the cell and double the \" "
                                                           f"(\"{cell.replace(chr(34), chr(34) * 2)}\"), or write the "
                                                           "file as TSV or JSONL"))
            if j < 0:
                return
            i, self.cell = j + 1, self.cell + 1


_QUOTED_TEXT = re.compile(r'(?:[^"]|"")*')


def csv_cells(lines, name: str, problems: list):
    """``(line, cells)`` of CSV text given as an iterable of lines with their line ends (a str is split at LF):
    rows end at LF or CRLF only, a lone CR is text (the line rule); a malformed row is a problem and ends the
    reading (a quoted cell the file never closes: at the line where it opens). A row with a ``"`` inside an
    unquoted cell (which Python's ``csv`` keeps as text) is a problem at that line and is not given. The caller
    lifts the field-size limit."""
    marked, quotes = [False], _QuoteState()

    def source():
        for k, ln in enumerate(_lines_of(lines) if isinstance(lines, str) else lines, start=1):
            quotes.scan(ln, k, name, problems)
            if ("\r" in ln or _MARK in ln) and _LONE_CR_OR_MARK.search(ln):
                marked[0] = True
                ln = _marked(ln)
            yield ln

    reader = csv.reader(source(), strict=True)
    try:
        for cells in reader:
            line, quotes.row_start = quotes.row_start, reader.line_num + 1
            if quotes.bad_row:
                quotes.bad_row = False
                continue
            yield line, ([_unmarked(c) for c in cells] if marked[0] else cells)
    except csv.Error as exc:
        if quotes.open:
            problems.append(Problem(name, quotes.opened, None, "malformed CSV: the quoted cell that opens on this "
                                                               "line is never closed (the file ends inside it): close "
                                                               "it with a \", or if the \" is text, quote the cell "
                                                               "and double the \" (\"\"\"…\")"))
        else:
            problems.append(Problem(name, reader.line_num, None, f"malformed CSV: {exc}"))


def spanning_cell_problem(header: list, cells: list, line: int, name: str) -> Problem | None:
    """The problem of a CSV row whose quoted cell spans lines that each read as a row of ``len(header)`` cells
    (blank lines aside; at least one line strictly inside the cell), else ``None``. That is the mark of a stray
    ``"`` at the start of an unquoted cell (``1,"好的,参考`` …): RFC 4180 reads it as a quoted cell running to the
    next ``"`` before a comma or line end, so the rows between become text of one cell. ``line`` is the row's first
    line; the problem names the line of the opening quote, the column and the lines that read as rows."""
    opening = line
    for column, cell in zip(header, cells):
        if "\n" not in cell:
            continue
        parts = cell.split("\n")
        inner = [p[:-1] if p.endswith("\r") else p for p in parts[1:-1]]
        inner = [p for p in inner if p.strip()]
        if inner and all(_width(p) == len(header) for p in inner):
            first, last = opening + 1, opening + len(parts) - 2
            where = f"line {first} inside it reads as a row" if first == last else \
                f"lines {first}-{last} inside it read as rows"
            return Problem(name, opening, None, f"the quoted cell of column {column!r} opens here and runs to line "
                                                f"{opening + len(parts) - 1}, and {where} of {len(header)} "
                                                f"cells: a stray \" at the start of the cell would merge "
                                                f"those rows into it; if the \" is text, quote the cell and double the "
                                                f"\" (\"\"\"…\"), or write the file as TSV or JSONL")
        opening += len(parts) - 1
    return None


def _width(line: str) -> int:
    """The number of cells of one line read on its own as CSV (0 when it cannot be read)."""
    try:
        return len(next(csv.reader([line]), []))
    except csv.Error:
        return 0


def csv_rows(text: str, name: str, problems: list) -> list:
    """The rows of a CSV file's text (RFC 4180: ``,`` between cells, ``"`` quotes a cell, ``""`` inside is one
    ``"``, a quoted cell may span lines; rows end at LF or CRLF, a lone CR is text: the line rule). A cell may be
    of any length (Python's ``csv`` refuses cells over 131,072 characters by default; the limit is lifted while
    reading). Problems (malformed quoting, header, cell counts, a quoted cell over lines that read as rows:
    `spanning_cell_problem`) are appended to ``problems``, each ``file:line``. Quoting is strict: a quoted cell left
    open at the end of the file, or text after a closing quote, is malformed (not a silent merge of rows)."""
    with lifted_field_limit():
        return _table_rows(csv_cells(text, name, problems), name, problems)


def tsv_rows(text: str, name: str, problems: list) -> list:
    """The rows of a TSV file's text: one row per line (`split_lines`), cells split at every
    tab. There is no quoting: a ``"`` is text, and a cell cannot hold a tab or a line break. Problems (header, cell
    counts) are appended to ``problems``, each ``file:line``. When rows have the wrong number of cells and a cell
    opens with a ``"`` it does not close on its line (a spreadsheet's TSV quotes a cell with a line break, which then
    splits its row), those cell counts are one problem instead, at the line of that quote, saying so (break-it F4 of
    ``zheval agree``: 30 lines of "4 cell(s), but the header has 7 columns"); a cell written with CSV quoting
    around a ``"`` (``"a""b"``), a header name wrapped in ``"``, a column wrapped in ``"`` on every row are problems
    (`tsv_quoting_checked`)."""
    first = len(problems)
    lines = split_lines(text)
    rows = _table_rows(tsv_quoting_checked(((k, ln.split("\t") if ln else []) for k, ln in enumerate(lines, start=1)),
                                           name, problems), name, problems)
    counts = [p for p in problems[first:] if _COUNT_MARK in p.message]
    if counts:
        opened = next((k for k, ln in enumerate(lines, start=1)
                       if any(c.startswith('"') and c.count('"') % 2 for c in ln.split("\t"))), None)
        if opened is not None and opened <= counts[-1].line:
            problems[first:] = [p for p in problems[first:] if p not in counts]
            at = ", ".join(str(p.line) for p in counts[:10]) + (" …" if len(counts) > 10 else "")
            problems.append(Problem(name, opened, None, f"a cell opens with a \" on this line and is not closed on "
                                    f"it, and {len(counts)} line(s) have another number of cells than the header "
                                    f"({at}): a TSV written by a spreadsheet, which quotes a cell that holds a line "
                                    "break or a tab? TSV is read without quoting (one row per line, cells split at "
                                    "every tab, a \" is text); save the file as CSV or JSON Lines"))
    return rows


_COUNT_MARK = " cell(s), but the header has "  # the cell-count problem of table_rows_stream

_CSV_QUOTED_QUOTE = re.compile(r'"(?:[^"]|"")*""(?:[^"]|"")*"')
_WRAPPED = re.compile(r'"(?:[^"]|"")*"')  # a cell as CSV quoting writes it: wrapped in ", any " inside doubled

_QUOTING_ADVICE = ("TSV is read without quoting (a \" is text), so the quotes would stay in the text; save the file as "
                   "CSV (.csv) or JSON Lines, or write the TSV without quoting (pandas: quoting=csv.QUOTE_NONE)")


def tsv_quoting_checked(cell_lines, name: str, problems: list):
    """The ``(line, cells)`` pairs of a TSV file, but for what CSV quoting wrote. TSV has no quoting (a ``"`` is
    text), so a cell so written would be read with its quotes as text; reading it as CSV instead would change a
    plain TSV whose text really is in quotes: the file cannot say which it is, so it is refused (save it as CSV or
    JSON Lines, or write the TSV without quoting). Refused, each a problem naming its line:

    - a cell wrapped in ``"`` holding ``""`` inside, only doubled (pandas' ``to_csv(sep="\\t")`` and spreadsheets
      write a cell ``a"b`` as ``"a""b"``), at its line (a header so quoted is still given, as the header);
    - a header with a name wrapped in ``"`` (``"prediction"``: pandas' ``quoting=csv.QUOTE_ALL`` or
      ``QUOTE_NONNUMERIC``), at the header's line, and no row is given;
    - a column whose cells are each wrapped in ``"`` (no lone ``"`` inside) on every row, two rows or more, at the
      line of the first row, after the last row (a stream has given the rows before it).

    A cell wrapped in quotes without a ``""`` (``"abc"``) in a column whose other cells are not is read as it is:
    a quoted speech or title is common text, and a CSV-quoting writer quotes either every cell of a column or only a
    cell that holds a ``"`` (above), a tab or a line break (these split the row: `tsv_rows`)."""
    header, wrapped, rows, first = None, [], 0, None
    for line, cells in cell_lines:
        doubled = _doubled_quote_problem(cells, header, line, name, problems)
        if doubled and header is not None:
            continue
        if header is None and cells:
            header = cells
            names = [h for h in header if _WRAPPED.fullmatch(h)]
            if names and not doubled:
                problems.append(Problem(name, line, None, f"the header's name(s) {', '.join(names)} are wrapped in "
                                        "quotes: a TSV written with CSV quoting (pandas' to_csv(sep='\\t', "
                                        f"quoting=csv.QUOTE_ALL), a spreadsheet)? {_QUOTING_ADVICE}"))
                return
            wrapped = [True] * len(header)
        elif cells and len(cells) == len(header):
            rows, first = rows + 1, first or (line, cells)
            wrapped = [w and _WRAPPED.fullmatch(c) is not None for w, c in zip(wrapped, cells)]
        yield line, cells
    columns = [h for h, w in zip(header or [], wrapped) if w]
    if rows >= 2 and columns:
        problems.append(Problem(name, first[0], None, f"every cell of column(s) {', '.join(map(repr, columns))} is "
                                f"wrapped in quotes, on all {rows} rows (here: {first[1][wrapped.index(True)][:60]!r}): "
                                "a TSV written with CSV quoting (pandas' to_csv(sep='\\t', quoting=csv.QUOTE_ALL), a "
                                f"spreadsheet)? {_QUOTING_ADVICE}; texts that really are all in quotes: save them as "
                                "JSON Lines"))


def _doubled_quote_problem(cells, header, line: int, name: str, problems: list) -> bool:
    """Whether a cell of ``cells`` is wrapped in ``"`` with ``""`` inside (`tsv_quoting_checked`), appending the
    problem of the first such cell."""
    quoted = [j for j, c in enumerate(cells) if c.startswith('"') and _CSV_QUOTED_QUOTE.fullmatch(c)]
    if not quoted:
        return False
    j = quoted[0]
    column = f", column {header[j]!r}" if header is not None and j < len(header) else ""
    problems.append(Problem(name, line, None, f"cell {j + 1} ({cells[j][:60]!r}{column}) is written with CSV "
                            "quoting, a \" doubled inside quotes: a TSV written with CSV quoting (pandas' "
                            f"to_csv(sep='\\t'), a spreadsheet)? {_QUOTING_ADVICE}"))
    return True


def parquet_rows(data: bytes, name: str, problems: list) -> list:
    """The rows of a Parquet file's bytes as ``(row number, {column: value})`` (values as pyarrow's ``to_pylist``
    gives them: ``str``, ``int``, lists, ``None`` …). A file pyarrow cannot read is one problem."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        twice = parquet_columns_problem(pq.read_schema(pa.BufferReader(data)).names, name)
        if twice is not None:
            problems.append(twice)
            return []
        table = pq.read_table(pa.BufferReader(data))
    except Exception as exc:  # pyarrow raises ArrowInvalid / OSError subclasses for a file that is not Parquet
        problems.append(Problem(name, 0, None, f"cannot be read as Parquet ({type(exc).__name__}: {exc})"))
        return []
    return list(enumerate(table.to_pylist(), start=1))


def parquet_columns_problem(names: list, name: str):
    """The problem of a Parquet file whose schema names a column more than once (pyarrow's reader fails on it with
    its internals, and a row as a dict would keep one of the two silently), as a CSV header's (`_header_problems`);
    ``None`` when every name is given once."""
    dup = sorted({h for h in names if names.count(h) > 1})
    return Problem(name, 0, None, f"the Parquet file names column(s) {dup} more than once") if dup else None
