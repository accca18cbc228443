"""References that are lists written as text, counted while a file is read and said once per file
(`zheval.io.list_text` has the rule): the records door (whole file and ``--stream``) and the 小黄鸭 ``responses``.

Such a reference is scored as written, one text with its brackets and quotes (a model trained on ``['北京', '上海']``
answers in that form); the reader counts them (`ListTexts`) and issues one `ListTextWarning` per file read, naming
the count, the rows, the first ``FILE:line`` and field, and the remedy when they are meant as several references.
The same counter counts the texts of those rows (the references, and the prediction when given) that are themselves
JSON string literals with an escape (``json.dumps`` applied twice: `zheval.adapters.json_texts.JsonFields`), said in
one `zheval.adapters.json_texts.JsonStringWarning` per file.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Optional

from ..compute.guards import ZhevalWarning
from ..io import LIST_TEXT_REMEDY, list_text, list_text_message
from .json_texts import JsonFields

__all__ = ["ListTextWarning", "ListTexts"]


class ListTextWarning(ZhevalWarning):
    """References of a file that are lists written as text (``"['北京', '上海']"``, pandas' ``to_csv`` of a list
    cell): each is scored as one text; one warning per file read (`ListTexts.warn`)."""

    #: Its message quotes the file's field names: the command line writes only its field arguments as options
    #: (`zheval.cli.option_names.in_field_options`: ``ref_field=["ref1", "ref2"]`` → ``--ref-field ref1 --ref-field
    #: ref2``), never a field name of the file.
    field_words = True


@dataclass
class ListTexts:
    """The references of one file that are lists written as text: ``count`` of them in ``rows`` rows, the first at
    line ``first[0]`` in the field ``first[1]`` (``None``: none yet)."""

    count: int = 0
    rows: int = 0
    first: Optional[tuple] = None
    json: JsonFields = field(default_factory=JsonFields)

    def add(self, line: int, references, names, prediction: Optional[tuple] = None) -> None:
        """Count the references of the row at ``line`` (``names``: each one's field, ``'references'``,
        ``references[1]``) that are lists written as text (`zheval.io.list_text.list_text`), and in `json` its
        texts that are JSON-encoded (the references, and ``prediction``, ``(field, text)``, when given)."""
        pred = [prediction] if prediction is not None else []
        self.json.add(line, [t for _, t in pred] + list(references), [f for f, _ in pred] + list(names))
        listed = [n for r, n in zip(references, names) if list_text(r) is not None]
        if listed:
            self.count += len(listed)
            self.rows += 1
            self.first = self.first or (line, listed[0])

    def merge(self, other: "ListTexts") -> None:
        """Add the counts of a later part of the same file (a chunk of ``--stream``)."""
        self.count += other.count
        self.rows += other.rows
        self.first = self.first or other.first
        self.json.merge(other.json)

    def warn(self, source: str, remedy: str = LIST_TEXT_REMEDY, stacklevel: int = 3) -> None:
        """One `ListTextWarning` for the file ``source`` when any reference was counted; nothing otherwise.
        ``stacklevel``: as `warnings.warn`'s, counted from the caller of this method (default: its caller's caller,
        the user of the reading function). The JSON-encoded texts counted: one
        `zheval.adapters.json_texts.JsonStringWarning`."""
        self.json.warn(source, stacklevel=stacklevel + 1)
        if self.count:
            warnings.warn(list_text_message(self.count, self.rows, source, *self.first, remedy=remedy),
                          ListTextWarning, stacklevel=stacklevel)
