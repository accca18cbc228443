"""The library's row errors (``predictions[i]``, ``references[i][j]``: 0-based indices of the lists the library was
given) in the words of a command that read those rows from a file: ``FILE:line``, the row's id and the user's field
name (``'label'``, ``--pred-field model_output``'s ``'model_output'``, a 小黄鸭 file's ``responses[1]``).

The text-file commands (`zheval.cli.textfiles`, ``zheval chrf``, ``zheval bertscore``) use `TextFilePlaces`: segment
*i* is line *i* + 1 of every file; the records doors (``-p`` without ``--data``) and the 小黄鸭 doors (``--data``) use `rows_named` around every library
call that scores their items: an [`EmptyReferenceError`][zheval.compute.inputs.EmptyReferenceError] becomes a
[`FileFormatError`][zheval.io.problems.FileFormatError] with one problem per reference (all of them, not only those
the library's message lists), any other ``ValueError`` / ``TypeError`` naming ``predictions[i]`` or
``references[i][j]`` the same error with each index written as ``FILE:line (id 'x', 'field')``.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Mapping, Optional, Sequence

from ..io.row_names import ROW_NAME, place_text, renamed_rows

__all__ = ["RowPlaces", "TextFilePlaces", "rows_named", "located_error", "located_text", "warning_located", "ROWS"]



class RowPlaces:
    """Where each item of a library call stands in the user's files.

    Args:
        ids: the item ids in the order of the full item list (a dataset's ``id`` column).
        where: ``{id: (path, line[, reference names])}`` -- `zheval.adapters.records.Records.locations` (its
            reference names are the user's fields, ``'label'``, ``references[1]``) or the 小黄鸭 file's
            ``{id: (path, line)}`` of `zheval.cli.files.load_data` (references named ``responses[j]``).
        prediction: the prediction's name in the user's words (``'model_output'``); ``None``: "the prediction".
        prediction_where: optional ``{id: (path, line)}`` of the predictions when they come from another file than
            ``where`` (``--data``: the predictions file); ``None``: the prediction is on the row of ``where``.
    """

    def __init__(self, ids: Sequence, where: Mapping, prediction: Optional[str] = None,
                 prediction_where: Optional[Mapping] = None):
        self.ids = list(ids)
        self.where = where
        self.prediction = prediction
        self.prediction_where = prediction_where

    def _row(self, i: int, table: Mapping):
        rid = self.ids[i] if 0 <= i < len(self.ids) else None
        loc = table.get(rid) if rid is not None else None
        return rid, loc

    def reference(self, i: int, j: int) -> tuple:
        """``(path, line, id, field)`` of reference ``j`` of item ``i`` (``(None, 0, None, None)``: unknown)."""
        rid, loc = self._row(i, self.where)
        if loc is None:
            return None, 0, rid, None
        names = loc[2] if len(loc) > 2 else None  # the records door's, already in the user's words ('label')
        return loc[0], loc[1], rid, names[j] if names and j < len(names) else f"responses[{j}]"

    def prediction_of(self, i: int) -> tuple:
        """``(path, line, id, field)`` of the prediction of item ``i``."""
        rid, loc = self._row(i, self.prediction_where if self.prediction_where is not None else self.where)
        field = repr(self.prediction) if self.prediction else "the prediction"
        if loc is None:
            return None, 0, rid, field
        return loc[0], loc[1], rid, field


class TextFilePlaces(RowPlaces):
    """Where each segment of the text-file commands stands: segment *i* is line *i* + 1 of every file.

    Args:
        references: the names of the reference files (reference *j* of a segment is in ``references[j]``).
        hypothesis: the name of the hypothesis file of the call; ``None``: not known (several systems).
    """

    def __init__(self, references: Sequence[str], hypothesis: Optional[str] = None):
        super().__init__([], {})
        self.references = list(references)
        self.hypothesis = hypothesis

    def reference(self, i: int, j: int) -> tuple:
        return (self.references[j], i + 1, None, None) if 0 <= j < len(self.references) else (None, 0, None, None)

    def prediction_of(self, i: int) -> tuple:
        return (self.hypothesis, i + 1, None, None) if self.hypothesis is not None else (None, 0, None, None)


def located_error(exc: BaseException, places: RowPlaces, index: Optional[Sequence[int]] = None) -> BaseException:
    """``exc`` with its items named in the user's words, or ``exc`` itself when it names none (or one that
    ``places`` does not know).

    Args:
        exc: an error of a library call. places: where the items stand (`RowPlaces`).
        index: the position in ``places.ids`` of each item of the call (a call on some items only, e.g. the items
            ``zheval explain`` shows); ``None``: the call had every item, in order.

    Returns:
        A [`FileFormatError`][zheval.io.problems.FileFormatError] (``references that cannot be scored``) for an
        ``EmptyReferenceError``: one problem ``file:line: id 'x': 'label' is empty ...`` per empty reference; an
        error of the same type with each ``predictions[i]`` / ``references[i][j]`` replaced by ``FILE:line (id 'x',
        'field')`` for any other ``ValueError`` / ``TypeError``; else ``exc``.
    """
    from ..compute.inputs import EmptyReferenceError
    from ..io import FileFormatError, Problem

    def full(i: int) -> int:
        return index[i] if index is not None and 0 <= i < len(index) else i

    if isinstance(exc, EmptyReferenceError):
        from .option_names import COMMAND, in_option_names

        how = f"empty after normalisation and tokenisation ({exc.context})" if exc.context else "empty"
        drop = 'punct="drop"'  # the cause in the words of the command line (--punct drop), the data left as it is
        problems = []
        reasons = exc.reasons + [None] * len(exc.positions)
        for (i, j), text, why in zip(exc.positions, exc.texts, reasons):
            path, line, rid, field = places.reference(full(i), j)
            if path is None:
                return exc
            why = (why or "").replace(f"which {drop} removes", f"which {in_option_names(drop, COMMAND.get())} removes")
            problems.append(Problem(path, line, rid, (f"{field} is " if field else "")
                                    + f"{how}: {text!r} {why}".rstrip()
                                    + "; an empty reference cannot be scored: remove it or give a real reference"))
        return FileFormatError(problems, "references that cannot be scored")
    if type(exc) not in (ValueError, TypeError) or not ROW_NAME.search(str(exc)):
        return exc
    message = located_text(str(exc), places, index)
    return exc if message is None else type(exc)(message)


def located_text(message: str, places: RowPlaces, index: Optional[Sequence[int]] = None) -> Optional[str]:
    """``message`` (a library error's or warning's text) with each ``predictions[i]`` / ``references[i][j]`` written
    as ``FILE:line (id 'x', 'field')``; ``None`` when one of them is not known to ``places`` (the message is then
    best left as the library wrote it). ``index``: as `located_error`."""
    def name(kind: str, i: int, j: int) -> Optional[str]:
        i = index[i] if index is not None and 0 <= i < len(index) else i
        path, line, rid, field = places.prediction_of(i) if kind == "predictions" else places.reference(i, j)
        return place_text(path, line, rid if field else None, field)

    return renamed_rows(message, name)


#: The rows of the library calls running in a `rows_named` block: ``(places, index)``, ``places`` a callable
#: returning the `RowPlaces` (called at most once, when a warning names a row), for `warning_located`.
ROWS: ContextVar[Optional[list]] = ContextVar("zheval_rows_named", default=None)


def warning_located(message: str) -> str:
    """A library warning's text (``ControlCharacterWarning``'s ``predictions[1]``) in the words of the `rows_named`
    block it was raised in (``FILE:line (id 'x', 'field')``, `located_text`); ``message`` itself outside one, or
    when it names no row or one the block's places do not know."""
    rows = ROWS.get()
    if rows is None or not ROW_NAME.search(message):
        return message
    if not isinstance(rows[0], RowPlaces):
        rows[0] = rows[0]()
    return located_text(message, rows[0], rows[1]) or message


@contextmanager
def rows_named(places: Callable[[], RowPlaces], index: Optional[Sequence[int]] = None):
    """Run a block of library calls; a row error it raises is re-raised in the user's words (`located_error`), and
    a library warning raised in it names its rows in them too (`warning_located`, through `ROWS`).

    Args:
        places: returns the `RowPlaces` (called only when an error is raised).
        index: as `located_error`.
    """
    token = ROWS.set([places, index])
    try:
        yield
    except (ValueError, TypeError) as exc:
        named = located_error(exc, places(), index)
        if named is exc:
            raise
        raise named from None
    finally:
        ROWS.reset(token)
