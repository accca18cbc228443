"""The one rule for field names and ids of every door that reads rows (JSONL, CSV, TSV, Parquet).

**Field names.** Without names, the prediction field is the one of `PREDICTION_FIELDS` (``predict``,
``prediction``) and the reference field the one of `REFERENCE_FIELDS` (``label``, ``references``, ``reference``)
that the first row has: the known pairings (`FIELD_FAMILIES`: LLaMA-Factory's ``predict``↔``label``, evaluate's
``prediction``↔``references``, ``prediction``↔``reference``, and any other one candidate with one candidate, such
as ``prediction``↔``label``). A row with two candidates for a role (``prediction`` and ``predict``; ``label``
beside ``reference`` or ``references``) pairs up in more than one way and is refused naming every pairing and
``--pred-field``/``--ref-field`` ([`pair_fields`][zheval.io.fields.pair_fields]): nothing is picked silently (break-it
F2 of issue 35: a ``prediction`` beside ``predict``/``label`` was ignored). A file of predictions only (joined to a
小黄鸭 file) has exactly one of `PREDICTION_FIELDS` (`prediction_field`).

**Ids.** The id field is the one named (``--id-field``), else `ID_FIELD` when the file has it
(`id_field_of`): when a file has ids they are used, never line order. An id is a non-empty string or an
integer (its decimal string: ``7`` and ``"7"`` are the same id); booleans, numbers with a fraction, null and lists
are not ids ([`id_value`][zheval.io.fields.id_value]); ids are unique in a file, a repeat naming the first one's ``file:line``
([`UniqueIds`][zheval.io.fields.UniqueIds]).
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Optional

from .encoding import lone_surrogate
from .problems import FileFormatError, Problem, type_name

__all__ = ["PREDICTION_FIELDS", "REFERENCE_FIELDS", "FIELD_FAMILIES", "ID_FIELD", "near_id_problem", "pair_fields",
           "prediction_field",
           "id_field_of", "id_value", "group_spaces_problem", "UniqueIds", "keyed_rows", "spaced_names",
           "field_arguments", "predictions_arguments"]

FIELD_FAMILIES: tuple = (("predict", "label"), ("prediction", "references"), ("prediction", "reference"))
"""``(prediction field, reference field)`` pairs that belong together: LLaMA-Factory's
``generated_predictions.jsonl`` (``predict``/``label``), evaluate's ``compute(predictions=, references=)`` names in
the singular, and ``prediction``/``reference``."""

PREDICTION_FIELDS: tuple = ("predict", "prediction")
"""The prediction field names of `FIELD_FAMILIES`."""

REFERENCE_FIELDS: tuple = ("label", "references", "reference")
"""The reference field names of `FIELD_FAMILIES`."""

ID_FIELD = "id"
"""The id field used when none is named and the file has it."""

_CELL_SPACES = " \t"
"""What `keyed_rows` strips around a CSV/TSV cell: spaces and tabs, as the number rule allows
(`zheval.io.numbers.NUMBER_GRAMMAR`); ``str.strip()`` would also drop U+00A0, U+3000, ``\\x0c``, ``\\x1c``, ... and
read ``5\\xa0`` as 5 silently (break-it pass 19)."""


def spaced_names(wanted: Iterable[str], have: Iterable[str]) -> str:
    """What to add to a "missing field" message when the row has a wanted name with spaces around it (a JSONL key or
    a Parquet column ``" prediction"`` for ``prediction``: names are matched exactly, as a CSV/TSV header's are,
    `zheval.io.table`): ``""`` when it has none, else ``"; the field ' prediction' has spaces around it: …"``
    naming both, for each such field."""
    have = [h for h in have if isinstance(h, str)]
    notes = [f"; the field {h!r} has spaces around it: field names are matched exactly, so it is not {w!r}; remove "
             "the spaces" for w in dict.fromkeys(wanted) for h in have if h != w and h.strip() == w]
    return "".join(notes)


def _refuse(name: str, line: int, message: str):
    raise FileFormatError([Problem(name, line, None, message)], "cannot tell which fields to score")


def field_arguments(pred: bool, ref: bool) -> str:
    """The arguments that name the fields of a records file, in the library's words (``pred_field="NAME",
    ref_field="NAME"``; the command line writes them as its options, `zheval.cli.option_names.in_field_options`):
    ``pred_field`` when ``pred``, ``ref_field`` when ``ref``."""
    return ", ".join(f'{k}="NAME"' for k, want in (("pred_field", pred), ("ref_field", ref)) if want)


def predictions_arguments(argument: str) -> str:
    """How a library caller names a field of a predictions file read for a 小黄鸭 file (`read_predictions` names
    none: it reads ``prediction``/``predict`` and ``id``), ``argument`` being ``pred_field="NAME"`` or
    ``id_field='ID'``: ``read_records(FILE, pred_field="NAME", with_references=False) and
    predictions_from_records``; the command line writes it as the option alone
    (`zheval.cli.option_names.in_field_options`: ``--pred-field NAME``)."""
    return f"read_records(FILE, {argument}, with_references=False) and predictions_from_records"


def pair_fields(fields: Iterable[str], *, pred: Optional[str] = None, ref: Optional[str] = None,
                name: str = "FILE", line: int = 1, header: bool = False) -> tuple:
    """``(prediction field, reference field)`` of a file whose first row has ``fields``: the one candidate of each
    role (`PREDICTION_FIELDS`, `REFERENCE_FIELDS`) unless named.

    Args:
        fields: the first row's field names (JSONL keys, CSV/TSV header, Parquet columns).
        pred: the prediction field already named by the caller (``--pred-field``).
        ref: the reference field already named by the caller (``--ref-field``).
        name: the file named in a refusal.
        line: the line named in a refusal.
        header: ``fields`` is the header of a CSV/TSV file (``line`` its line): the refusal says so.

    Returns:
        ``(pred or the one candidate prediction field, ref or the one candidate reference field)``.

    Raises:
        FileFormatError: the fields pair up in more than one way (two candidates for a role not named: ``prediction``
            with ``references`` and ``reference``, ``predict`` beside ``prediction``, ``label`` beside
            ``reference``), listing every pairing and the arguments that settle it (`field_arguments`:
            ``pred_field="NAME", ref_field="NAME"``, the options at the command line); or no candidate for a role,
            naming the fields and the argument (``pred_field="NAME"`` or ``ref_field="NAME"``).
    """
    if pred and ref:
        return pred, ref
    have = set(fields)
    preds = [pred] if pred else [f for f in PREDICTION_FIELDS if f in have]
    refs = [ref] if ref else [f for f in REFERENCE_FIELDS if f in have]
    if preds and refs and len(preds) * len(refs) > 1:
        pairs = ", ".join(f"{p!r} with {r!r}" for p in preds for r in refs)
        _refuse(name, line, f"the fields pair up in more than one way ({pairs}): nothing is picked for you; name "
                            f"them with {field_arguments(not pred, not ref)}")
    for role, found, known, option in (("prediction", preds, PREDICTION_FIELDS, field_arguments(True, False)),
                                       ("reference", refs, REFERENCE_FIELDS, field_arguments(False, True))):
        if not found:
            spaced = spaced_names(known, have)
            where = "the header has none of" if header else "the first row has none of"
            _refuse(name, line, f"no {role} field named: {where} {list(known)} (its fields: "
                                f"{sorted(have)}){spaced}; {'or ' if spaced else ''}name it with {option}")
    return preds[0], refs[0]


def prediction_field(fields: Iterable[str], header: bool = False, named: str = 'pred_field="NAME"') -> tuple:
    """``(field, None)`` for the one of `PREDICTION_FIELDS` that ``fields`` has, else ``(None, problem
    text)`` (none of them, or two: the fields expected and those the row has — with ``header``, the columns the
    header of a CSV/TSV file has —, and ``named``, how the caller names the field: ``pred_field="NAME"``, or
    `predictions_arguments` for `read_predictions`)."""
    fields = list(fields)
    found = [f for f in PREDICTION_FIELDS if f in set(fields)]
    if len(found) == 1:
        return found[0], None
    what = "no prediction field" if not found else f"two prediction fields {found}"
    spaced = spaced_names(PREDICTION_FIELDS, fields) if not found else ""
    return None, (f"{what}{spaced}; expected exactly one of {list(PREDICTION_FIELDS)}, and "
                  f"{'the header has the column(s) ' if header else 'this row has '}"
                  f"{sorted(f for f in fields if isinstance(f, str))} (or name the prediction field with "
                  f"{named})")


def id_field_of(fields: Iterable[str], named: Optional[str] = None) -> Optional[str]:
    """The id field of a file whose first row has ``fields``: ``named`` when given, else `ID_FIELD` when
    present, else ``None`` (rows are then named by their line)."""
    if named:
        return named
    return ID_FIELD if ID_FIELD in set(fields) else None


def near_id_problem(keys: Iterable[str], named: Callable[[str], str] = str) -> Optional[tuple]:
    """``(field, message)`` when ``keys`` (field names of a file without `ID_FIELD`) hold the id under another
    spelling (``"ID"``, ``" id"``: case and spaces differ), else ``None``: such ids are never read as missing (rows
    would be named by their line, silently). The message names the argument ``id_field='ID'`` as ``named`` writes
    it (`predictions_arguments` for `read_predictions`)."""
    near = sorted({k for k in keys if isinstance(k, str) and k != ID_FIELD and k.strip().lower() == ID_FIELD})
    if not near:
        return None
    return near[0], (f"the field {near[0]!r} is not 'id' (field names are matched exactly, case and spaces included): "
                     f"rename it 'id', or name it with {named(f'id_field={near[0]!r}')}")


def id_value(v, field: str = ID_FIELD) -> tuple:
    """``(id string, None)`` or ``(None, problem text)`` for the value of an id field: a non-empty string, or an
    integer as its decimal string (``7`` → ``"7"``); anything else (null, a boolean, ``7.0``, a list, an empty or
    blank string, a lone surrogate) is a problem naming the field. A string with spaces around it (any Unicode
    whitespace, ``" 9 "``, ``"9\\t"``) is a problem too, saying so: ids are matched exactly, never trimmed, so it
    is not the id ``"9"`` — the one id rule of every door (records, 小黄鸭 data and predictions, the ratings sheet
    and the scores file of ``zheval agree``)."""
    if isinstance(v, int) and not isinstance(v, bool):
        return str(v), None
    if isinstance(v, str) and v.strip():
        bad = lone_surrogate(v)
        if bad:
            return None, f"{field!r} {bad}"
        if v != v.strip():
            return None, (f"id {v!r} has spaces around it: ids are matched exactly, so it is not the id "
                          f"{v.strip()!r} (the id field {field!r})")
        return v, None
    return None, f"the id field {field!r} must be a non-empty string or an integer, got {type_name(v)} {v!r}"


def group_spaces_problem(v, field: str) -> Optional[str]:
    """The problem text of a group value with spaces around it (any Unicode whitespace: ``"x "``, ``" 售后"``, or
    only spaces, ``" "``) or empty (``""``), else ``None`` (any other value, of any type). Group values are matched
    exactly, as ids are (`id_value`), never trimmed: ``"x "`` beside ``"x"`` would be two groups both shown ``x``,
    and ``""`` a group shown as nothing, so every door that reads groups refuses them, naming ``field`` (the group
    field or column). A CSV/TSV reader turns an empty cell into null before asking (a table cannot tell ``""``
    from a missing value)."""
    if not isinstance(v, str) or (v and v == v.strip()):
        return None
    if not v:
        return (f"the group value '' of {field!r} is empty: it would be a group shown as nothing; write "
                "null (an empty CSV/TSV cell) for no group, or a name")
    if not v.strip():
        return (f"the group value {v!r} of {field!r} is only spaces: it would be a group shown as nothing; write "
                "null (an empty CSV/TSV cell) for no group, or a name")
    return (f"the group value {v!r} of {field!r} has spaces around it: group values are matched exactly, so it is "
            f"not the group {v.strip()!r} (two groups shown alike); remove the spaces")


class UniqueIds:
    """Ids seen so far (in one file, or across the splits of a dataset), each with the ``file:line`` where it was
    first seen.

    Example: ``seen = UniqueIds(); seen.add("a", "f.jsonl", 3)`` → ``None``; again → ``"duplicate id (first seen at
    f.jsonl:3)"``.
    """

    def __init__(self, first: Optional[dict] = None):
        self.first: dict = {} if first is None else first

    def add(self, rid: str, name: str, line: int) -> Optional[str]:
        """``None`` for a new id (remembered), else the problem text naming where it was first seen."""
        if rid in self.first:
            return f"duplicate id (first seen at {self.first[rid]})"
        self.first[rid] = f"{name}:{line}" if line else name
        return None

    def __contains__(self, rid) -> bool:
        return rid in self.first


def keyed_rows(rows: Iterable[tuple], path, problems: list, seen: UniqueIds, *,
               typed: bool = False, blank_rows: Optional[list] = None) -> Iterator[tuple]:
    """The rows of an id-keyed file (a ratings sheet, a file of external scores, a judge ratings file), each once.

    Args:
        rows: ``(line number, {column: cell text})`` per data row (`zheval.io.csv_rows`); the table has an
            ``id`` column. With ``typed``: ``(line, {field: value})`` rows of a typed file (JSON Lines, Parquet:
            `zheval.io.rows.read_rows`), where a row may lack ``id`` and values keep their JSON types.
        path: the file, as messages name it. problems: the list a problem text (``"path:line: ..."``) is appended
            to. seen: the ids met so far, with the line of each ([`UniqueIds`][zheval.io.fields.UniqueIds]; the caller keeps it, e.g. to
            list the expected ids that never came).
        typed: the rows are typed (above; any true value, e.g. the file kind ``"jsonl"``): no row is skipped as
            blank, and ``cell`` gives the value as it is.
        blank_rows: a list the line of each blank row (below) is appended to, so that the caller counts or refuses
            them (``zheval agree``: a sheet's empty rows are counted in a note, a scores file's are errors).

    Yields:
        ``(line, id, cell)`` for each row that has cells, an id and an id not seen before; ``cell(column)`` is the
        row's text in that column with spaces and tabs around it stripped, and nothing else (a no-break space,
        U+3000 or a control character stays, for the number rule to refuse at ``path:line``: `number_reason`;
        column names are matched exactly, `zheval.io.table`); with ``typed``,
        the row's value (``None`` when the row lacks the field). The id is **not** stripped: ids are
        matched exactly by the one id rule of every door ([`id_value`][zheval.io.fields.id_value]), so an id with spaces
        around it is a problem (naming ``path:line`` and the id without them), never silently the key's id. A blank row
        (every cell empty or spaces and tabs; text rows only) is skipped; a row without an id, or with an id seen before, is a problem
        (naming ``path:line`` and, for a repeat, where the id was first seen) and is skipped.
    """
    for line, cells in rows:
        row = dict(cells)
        if not typed and all(not c.strip(_CELL_SPACES) for c in row.values()):
            if blank_rows is not None:
                blank_rows.append(line)
            continue
        cell: Callable[[str], object] = ((lambda name, row=row: row.get(name)) if typed
                                         else (lambda name, row=row: row[name].strip(_CELL_SPACES)))
        rid = row.get("id")
        if rid is None or (isinstance(rid, str) and not rid.strip()):
            problems.append(f"{path}:{line}: the row has no id")
            continue
        rid, bad = id_value(rid, "id")
        if bad:
            problems.append(f"{path}:{line}: {bad}")
            continue
        repeat = seen.add(rid, str(path), line)
        if repeat:
            problems.append(f"{path}:{line}: id {rid!r}: {repeat}")
            continue
        yield line, rid, cell
