"""References that are lists written as text, counted while a file is read and said once per file
(`zheval.io.list_text` has the rule): the records door (whole file and ``--stream``) and the 小黄鸭 ``responses``;
and, by the same pattern, the records door's reference cells that hold a line break (`zheval.io.line_break`:
`LineBreaks`, one `LineBreakWarning` per file).

`ListTexts` also counts the texts of those rows (the references, and the prediction when given) that are themselves
JSON string literals (``json.dumps`` applied twice: with an escape, or without one when half of the field's texts
are literals; `zheval.adapters.json_texts.JsonFields`), said in one `zheval.adapters.json_texts.JsonStringWarning`
per file; `LineBreaks` does not (one count of them per file).

Such a reference is scored as written, one text with its brackets and quotes (a model trained on ``['北京', '上海']``
answers in that form); the reader counts them (`ListTexts`) and issues one `ListTextWarning` per file read, naming
the count, the rows, the first ``FILE:line`` and field, and the remedy when they are meant as several references.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import ClassVar, Optional

from ..compute.guards import ZhevalWarning
from ..io import LIST_TEXT_REMEDY, list_text, list_text_message
from ..io.line_break import LINE_BREAK_REMEDY, line_break, line_break_message
from .json_texts import JsonFields

__all__ = ["ListTextWarning", "ListTexts", "LineBreakWarning", "LineBreaks"]


class ListTextWarning(ZhevalWarning):
    """References of a file that are lists written as text (``"['北京', '上海']"``, pandas' ``to_csv`` of a list
    cell): each is scored as one text; one warning per file read (`ListTexts.warn`)."""

    #: Its message quotes the file's field names: the command line writes only its field arguments as options
    #: (`zheval.cli.option_names.in_field_options`: ``ref_field=["ref1", "ref2"]`` → ``--ref-field ref1 --ref-field
    #: ref2``), never a field name of the file.
    field_words = True


class LineBreakWarning(ZhevalWarning):
    """Reference cells of a file (a string of a reference field) that hold a line break: each is scored as ONE
    reference, its lines included; one warning per file read (`LineBreaks.warn`)."""

    field_words = True  # as `ListTextWarning`'s: its message quotes the file's field names


@dataclass
class ListTexts:
    """The references of one file that are lists written as text: ``count`` of them in ``rows`` rows, the first at
    line ``first[0]`` in the field ``first[1]`` (``None``: none yet)."""

    count: int = 0
    rows: int = 0
    first: Optional[tuple] = None
    #: The warning and the rule's words (`warn`).
    category: ClassVar[type] = ListTextWarning
    remedy: ClassVar[str] = LIST_TEXT_REMEDY

    @staticmethod
    def counted(reference) -> bool:
        """Whether ``reference`` is counted: a list written as text (`zheval.io.list_text.list_text`)."""
        return list_text(reference) is not None

    @staticmethod
    def message(count: int, rows: int, source: str, line: int, field: str, remedy: str) -> str:
        return list_text_message(count, rows, source, line, field, remedy=remedy)

    #: The JSON-encoded texts of the rows (`add`'s references and prediction); ``None``: not counted here.
    json: Optional[JsonFields] = field(default_factory=JsonFields)

    def add(self, line: int, references, names, prediction: Optional[tuple] = None) -> None:
        """Count the references of the row at ``line`` (``names``: each one's field, ``'references'``,
        ``references[1]``) that are lists written as text (`zheval.io.list_text.list_text`) — `counted` — and in
        `json` its texts that are JSON-encoded (the references, and ``prediction``, ``(field, text)``, when given)."""
        if self.json is not None:
            pred = [prediction] if prediction is not None else []
            self.json.add(line, [t for _, t in pred] + list(references), [f for f, _ in pred] + list(names))
        listed = [n for r, n in zip(references, names) if self.counted(r)]
        if listed:
            self.count += len(listed)
            self.rows += 1
            self.first = self.first or (line, listed[0])

    def merge(self, other: "ListTexts") -> None:
        """Add the counts of a later part of the same file (a chunk of ``--stream``)."""
        self.count += other.count
        self.rows += other.rows
        self.first = self.first or other.first
        if self.json is not None and other.json is not None:
            self.json.merge(other.json)

    def warn(self, source: str, remedy: Optional[str] = None, stacklevel: int = 3) -> None:
        """One `category` warning (`ListTextWarning`) for the file ``source`` when any reference was counted;
        nothing otherwise. ``remedy``: default the rule's (`LIST_TEXT_REMEDY`). ``stacklevel``: as
        `warnings.warn`'s, counted from the caller of this method (default: its caller's caller, the user of the
        reading function). The JSON-encoded texts counted (`json`): one
        `zheval.adapters.json_texts.JsonStringWarning`."""
        if self.json is not None:
            self.json.warn(source, stacklevel=stacklevel + 1)
        if self.count:
            warnings.warn(self.message(self.count, self.rows, source, *self.first, self.remedy if remedy is None
                                       else remedy), self.category, stacklevel=stacklevel)


@dataclass
class LineBreaks(ListTexts):
    """The reference cells of one file that hold a line break (`zheval.io.line_break`), counted as `ListTexts`
    counts lists written as text: only a reference read as one string of its field (a list's entries are
    references by the file's own structure: never passed to `add`); said in one `LineBreakWarning`."""

    category: ClassVar[type] = LineBreakWarning
    remedy: ClassVar[str] = LINE_BREAK_REMEDY
    json: Optional[JsonFields] = None  # the JSON-encoded texts are counted once, by the file's `ListTexts`

    @staticmethod
    def counted(reference) -> bool:
        """Whether ``reference`` holds a line break (`zheval.io.line_break.line_break`)."""
        return line_break(reference)

    @staticmethod
    def message(count: int, rows: int, source: str, line: int, field: str, remedy: str) -> str:
        return line_break_message(count, rows, source, line, field, remedy=remedy)
