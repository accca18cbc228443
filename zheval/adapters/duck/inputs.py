"""The inputs of a 小黄鸭 evaluation: the dataset and its group columns checked (`check_dataset`,
`check_by`, `group_columns`), predictions in any accepted form read (`as_predictions`), and the
warnings for slips that give a wrong number without an error (`input_warnings`: a whitespace tokenizer on
unspaced Chinese, Traditional against Simplified; `label_mismatch_warning`: LLaMA-Factory labels that match
no reference; `reference_mismatch_warning`: stored references that are none of their item's;
`query_mismatch_warning`: stored queries that are not their item's query; all three: `stored_field_warnings`) and
the notes of predictions paired by line order and of stored fields on some lines only (`order_notes`,
`stored_field_notes`), the same for every command that joins predictions to a 小黄鸭 file; `prediction_checks`: the
diagnostics and every warning of one system's predictions, the same in ``score`` and in ``compare``.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from ...io.fields import group_spaces_problem
from ...io.lists import split_entries
from ...io.row_names import place_text, renamed_rows
from ...io.text_lists import check_text_list, is_table
from ...results.diagnostics import Diagnostics, compute_diagnostics
from ...tokenizers import BaseTokenizer
from .id_like import field_words, id_like_warning
from .row_index import row_index_warning
from .predictions import Predictions
from .stored import field_names

__all__ = [
    "check_dataset",
    "check_by",
    "group_columns",
    "as_predictions",
    "input_warnings",
    "data_control_warnings",
    "label_mismatch_warning",
    "query_mismatch_warning",
    "reference_mismatch_warning",
    "stored_field_warnings",
    "stored_field_notes",
    "order_notes",
    "prediction_checks",
    "rows_in_files",
]


def group_columns(ds, by: Sequence[str]) -> dict:
    """``{column: list of its values per row}`` of the group columns ``by`` of ``ds`` (for
    `group_items`).

    Raises:
        ValueError: a group value with spaces around it (`zheval.io.fields.group_spaces_problem`; a file read by
            `zheval.adapters.duck.load` refuses it at its line already), naming the column and the item index."""
    out = {dim: list(ds[dim]) for dim in by}
    for dim, values in out.items():
        for i, v in enumerate(values):
            spaced = group_spaces_problem(v, dim)
            if spaced:
                raise ValueError(f"item {i}: {spaced}")
    return out


def check_by(ds, by) -> tuple:
    """The group columns ``by`` (a sequence, or a comma list as one string) as a tuple, checked against ``ds``.

    Raises:
        ValueError: an empty entry in a comma list (``"domain,,difficulty"``: `zheval.io.lists.split_entries`); a
            column given twice; a column ``ds`` lacks, or one of ``id``/``query``/``responses`` (the
            message lists the group columns there are).
    """
    if isinstance(by, str):
        by = split_entries(by, "by")
    by = tuple(by or ())
    dup = sorted({b for b in by if by.count(b) > 1})
    if dup:
        raise ValueError(f"by lists {dup} more than once (each group would be reported twice); give each column once")
    bad = [b for b in by if b not in ds.column_names or b in ("id", "query", "responses")]
    if bad:
        raise ValueError(f"cannot group by {bad}; group columns: {[c for c in ds.column_names if c not in ('id', 'query', 'responses')]}")
    return by


def check_dataset(ds, what: str = "evaluate"):
    """Check that ``ds`` is a non-empty ``datasets.Dataset`` with ``id`` and ``responses``; ``what`` names the
    caller in the message.

    Raises:
        TypeError: not a ``Dataset`` (e.g. a ``DatasetDict``). ValueError: no rows, or a missing column.
    """
    from datasets import Dataset

    if not isinstance(ds, Dataset):
        hint = ("datasets.Dataset.from_pandas(df) makes one of a pandas DataFrame with the 小黄鸭 columns (id, "
                "responses ...)" if is_table(ds) else "pick a split of a DatasetDict")
        raise TypeError(f"{what} expects a datasets.Dataset, got {type(ds).__name__} ({hint})")
    if len(ds) == 0:
        raise ValueError(f"{what}: the dataset has no items")
    missing = {"id", "responses"} - set(ds.column_names)
    if missing:
        raise ValueError(f"{what}: dataset lacks column(s) {sorted(missing)}")


def as_predictions(predictions, predictions_format: str = "auto", name: str = "predictions"):
    """``(predictions ready for join_predictions, source name)``: a path is read
    (`read_predictions` with ``format=predictions_format``), a
    `Predictions` or a dict is kept, any other iterable becomes a list.

    Raises:
        what `read_predictions` raises for a file; TypeError: a table (a pandas DataFrame: iterating it gives its
            column names) or a set, naming ``name`` (the parameter) and the remedy (`zheval.io.text_lists`).
    """
    import os

    from .predictions import read_predictions

    if isinstance(predictions, Predictions):
        return predictions, predictions.source
    if isinstance(predictions, (str, os.PathLike)):
        p = read_predictions(predictions, format=predictions_format)
        return p, p.source
    if isinstance(predictions, dict):
        return predictions, "<memory>"
    check_text_list(predictions, name, "a list (one per item, in dataset order), a dict {id: text} or a path")
    return list(predictions), "<memory>"


def label_mismatch_warning(predictions, which: str = "") -> str | None:
    """The warning for LLaMA-Factory labels that match none of their item's references (below the error threshold,
    or with ``label_check="warn"``)."""
    if not isinstance(predictions, Predictions) or not predictions.label_mismatches:
        return None
    mm = predictions.label_mismatches
    where = [f"{predictions.source}:{ln}" if ln else rid for rid, ln in zip(mm, predictions.label_mismatch_lines or [None] * len(mm))]
    return (
        f"{which}{len(mm)} of {predictions.labelled} item(s) have a LLaMA-Factory 'label' that is none of their "
        f"references (first: {', '.join(f'{r} ({w})' for r, w in zip(mm[:5], where[:5]))}): is the predictions file "
        "from this split, in this order?"
    )


def _pairing_hint(predictions) -> str:
    if predictions.paired_by_order:
        return (f"the predictions {field_words(predictions)} and are paired by line order, so these lines are scored against another "
                "item's references; is the file in the data's order? (add an 'id' field to join by id)")
    return "the predictions are joined by id: are their ids those of this data file (same split, same items)?"


def _first_lines(predictions, mismatches) -> str:
    first = ", ".join(f"{predictions.source}:{line} (item {rid!r})" for line, rid, _ in mismatches[:5])
    return first + (", …" if len(mismatches) > 5 else "")


def query_mismatch_warning(predictions, which: str = "") -> str | None:
    """The warning for predictions (joined by id or paired by line order) whose stored query (every one of the file's
    ``query``, ``prompt`` and ``instruction`` fields present, named as in the file) is not their item's query on
    some lines (below the error threshold of `zheval.adapters.duck.predictions.join_predictions`): the count and
    the first five ``file:line``, or ``None``."""
    if not isinstance(predictions, Predictions) or not predictions.query_mismatches:
        return None
    mm = predictions.query_mismatches
    fields = field_names(f for _, _, f in mm)
    return (f"{which}{len(mm)} of {predictions.queries_checked} prediction line(s) store a {fields} that is not their "
            f"item's query (first: {_first_lines(predictions, mm)}): {_pairing_hint(predictions)}")


def reference_mismatch_warning(predictions, which: str = "") -> str | None:
    """The warning for predictions whose stored references (the file's ``references`` or ``reference`` field, named
    as in the file) hold a text that is none of their item's references on some lines (below the error threshold):
    the count and the first five ``file:line``, or ``None``. The item's references are the ones scored."""
    if not isinstance(predictions, Predictions) or not predictions.reference_mismatches:
        return None
    mm = predictions.reference_mismatches
    fields = field_names(f for _, _, f in mm)
    return (f"{which}{len(mm)} of {predictions.references_checked} prediction line(s) store a {fields} that is none "
            f"of their item's references (first: {_first_lines(predictions, mm)}); the data file's references are "
            f"the ones scored, not the file's: {_pairing_hint(predictions)}")


def stored_field_warnings(predictions, which: str = "") -> list:
    """The warnings of `zheval.adapters.duck.id_like.id_like_warning` (predictions paired by line order whose field
    ``qid`` holds the items' ids), `zheval.adapters.duck.row_index.row_index_warning` (a field not named as an index
    that looks like a numbering of the lines out of place), `label_mismatch_warning`, `reference_mismatch_warning`
    and `query_mismatch_warning` that apply, in that order (``which``: a prefix, ``"B: "`` in compare)."""
    return [w for w in (id_like_warning(predictions, which), row_index_warning(predictions, which),
                        label_mismatch_warning(predictions, which),
                        reference_mismatch_warning(predictions, which), query_mismatch_warning(predictions, which))
            if w]


def stored_field_notes(predictions, which: str = "") -> list:
    """One note per kind of stored field (LLaMA-Factory's ``label``, stored references, stored query:
    `zheval.adapters.duck.stored`) that some but not all prediction lines store: how many lines were compared with
    their item and how many store none (the first such ``file:line``), so that a check covering part of the file
    is never taken for one covering all of it; ``[]`` when every line or none stores it, or the check was off. Then
    the note of stored queries compared with nothing because their item has no query (`_uncompared_query_note`)."""
    if not isinstance(predictions, Predictions):
        return []
    kinds = ((predictions.labels, predictions.labelled, "'label'"),
             (predictions.references, predictions.references_checked,
              field_names(f for f in predictions.reference_fields or () if f)),
             (predictions.queries, predictions.queries_checked,
              field_names(f for f in predictions.query_fields or () if f)))
    notes = []
    for stored, compared, name in kinds:
        none = [j for j, v in enumerate(stored or ()) if v is None]
        if not compared or not none:
            continue
        line = predictions.lines[none[0]] if none[0] < len(predictions.lines) else None
        first = f"{predictions.source}:{line}" if line else predictions.source
        notes.append(f"{which}{compared} of {len(predictions)} prediction line(s) store a {name} and were compared with "
                     f"their item; {len(none)} store none and were not compared (first: {first})")
    return notes + _uncompared_query_note(predictions, which)


def _uncompared_query_note(predictions, which: str) -> list:
    """The note of stored queries compared with nothing because their item has no query (no ``query`` in the data,
    or a null or blank one: `zheval.adapters.duck.stored.has_query`), naming the file's own fields and the first
    ``file:line``; ``[]`` without any."""
    skipped = getattr(predictions, "queries_uncompared", None) or []
    if not skipped:
        return []
    fields = predictions.query_fields or [("query",)] * len(predictions)
    name = field_names(fields[j] for j in skipped if fields[j])
    line = predictions.lines[skipped[0]] if skipped[0] < len(predictions.lines) else None
    first = f"{predictions.source}:{line}" if line else predictions.source
    return [f"{which}{len(skipped)} of {len(predictions)} prediction line(s) store a {name} that was not compared "
            f"with anything: their item has no query in the data (no 'query', or an empty one; first: {first})"]


def order_notes(predictions, which: str = "") -> list:
    """The note of predictions without ids, paired with the items by line order (set by
    `zheval.adapters.duck.predictions.join_predictions`), then the notes of stored fields on some lines only
    (`stored_field_notes`), then the predictions' own ``notes`` (e.g. compare's group values that differ from the
    first file's); ``[]`` without any. ``which``: a prefix (``"B: "`` in compare)."""
    own = stored_field_notes(predictions, which) + [f"{which}{n}" for n in getattr(predictions, "notes", None) or []]
    if not getattr(predictions, "paired_by_order", False):
        return own
    return [f"{which}{_order_note(predictions)}"] + own


def _order_note(predictions) -> str:
    """The note of predictions paired by line order: that they have no ids (a file with no other field, a list),
    or no ``id`` field — with the field that numbers the lines in their order, or holds the items' ids in it
    (`zheval.adapters.duck.id_like.row_index_check`, `id_like_check`), named; one that numbers them loosely with
    lines not on their number's place, named with the first of them (``row_index_loose``)."""
    head = f"the predictions ({predictions.source}) {field_words(predictions)}: they were paired with the items by line order"
    index, ids = getattr(predictions, "row_index_field", None), getattr(predictions, "id_like_field", None)
    if ids:
        return f"{head}, which their field {ids!r} agrees with (it holds the items' ids in the data's order)"
    if index:
        field, start = index
        return (f"{head}, which their field {field!r} agrees with (it numbers the lines from {start} in their order); "
                "add an 'id' field to join them by id")
    loose = getattr(predictions, "row_index_loose", None)
    if loose:
        return f"{head}; {loose}"
    return f"{head} (add an 'id' field to join them by id)"


def input_warnings(predictions, references, tok: BaseTokenizer, controls: bool = True) -> list:
    """The library's warnings for user slips that give a wrong number without an error
    (`zheval.compute.guards.input_slips`: a whitespace tokenizer on unsegmented Chinese, Traditional against
    Simplified without ``t2s``, control characters no token holds), as report lines (``--t2s`` is the command-line
    form of ``t2s=True``). ``controls``: False leaves the control characters to the caller (the human ceiling
    counts them in the data's own texts, `data_control_warnings`)."""
    from ...compute.guards import ScriptMismatchWarning, input_slips

    refs = [list(r) for r in references]
    slips = input_slips(list(predictions), refs, tok, t2s_option=not tok.is_tool, controls=controls)
    return [msg + (" On the command line: --t2s." if cat is ScriptMismatchWarning else "") for cat, msg in slips]


def data_control_warnings(references, ids: Sequence, tok: BaseTokenizer, locations: Mapping | None = None) -> list:
    """The control (and invisible) characters no token of ``tok`` holds in the data's own references (per item, a
    list of texts; ``ids`` the items'), each text counted once, as report lines naming ``FILE:line (id 'x',
    responses[j])`` with ``locations`` (`rows_in_files`), else ``references[i][j]``; ``[]`` when none."""
    from ...compute.guards import control_message, dropped_controls

    refs = [list(r) for r in references]
    count, where, chars = dropped_controls([""] * len(refs), refs, tok)
    if not count:
        return []
    return [rows_in_files(control_message(count, where, chars, tok), None, ids, locations)]


def prediction_checks(predictions, preds: Sequence[str], references, ids: Sequence[str], tok: BaseTokenizer,
                      which: str = "", excluded_shown: bool = True,
                      reference_limit: dict | None = None, locations: Mapping | None = None) -> tuple[Diagnostics, list]:
    """The diagnostics of one system's predictions and every warning a report gives of them, the same for
    ``score`` (`zheval.adapters.duck.evaluate.evaluate_predictions`) and for each system of ``compare``
    (`zheval.adapters.compare.compare_predictions`).

    Args:
        predictions: the predictions as given (a `Predictions` carries its stored-field mismatches).
        preds: their texts joined to the items, one per item (`join_predictions`).
        references: per item its list of references (the ones scored).
        ids: the items' ids (named in the list of empty predictions).
        tok: the scoring tokenizer (its normaliser is applied before the checks).
        which: a prefix of every warning (``"B: "`` in compare).
        excluded_shown: the report shows the scores without the truncated predictions (`DiagnosticCounts.result`).
        reference_limit: with ``max_refs``, `zheval.results.breakdowns.reference_limit` of the references before
            the cut: kept as the diagnostics' ``reference_limit`` (its line in `Diagnostics.lines`).
        locations: ``{item id: (path, line[, reference names])}`` of the items' rows (the 小黄鸭 file's, a records
            file's); with it, a warning naming ``predictions[i]`` / ``references[i][j]`` names them as ``FILE:line``
            instead (`rows_in_files`).

    Returns:
        ``(Diagnostics, warnings)``: the length ratio, truncation, empty predictions and reference counts
        (`zheval.results.diagnostics.compute_diagnostics`; its warnings unprefixed), then the warnings: those of the
        diagnostics, of `input_warnings` and of `stored_field_warnings`, in that order, each prefixed with ``which``.
    """
    diag = compute_diagnostics(preds, references, ids, normalize=tok.normalizer, excluded_shown=excluded_shown,
                               source=getattr(predictions, "source", None))
    diag.reference_limit = reference_limit
    said = [rows_in_files(w, predictions, ids, locations) for w in input_warnings(preds, references, tok)]
    warnings = [f"{which}{w}" for w in (*diag.warnings, *said)]
    return diag, warnings + stored_field_warnings(predictions, which)


def rows_in_files(message: str, predictions, ids: Sequence, locations: Mapping | None) -> str:
    """``message`` (a warning naming the rows of the items ``ids``: ``predictions[i]``, ``references[i][j]``) with
    each row written as ``FILE:line (id 'x')``: a prediction at its line of ``predictions``' file (joined by id, or
    the item's line when paired by line order), a reference at its item's row of ``locations`` (with its field,
    ``responses[j]`` or the records file's ``'label'``). ``message`` as it is when a row's place is not known
    (predictions given as a list, no ``locations``)."""
    source, lines = getattr(predictions, "source", "<memory>"), getattr(predictions, "lines", None) or []
    if source == "<memory>" or not lines:
        source = None
    by_id = ({str(k): ln for k, ln in zip(predictions.ids, lines)} if source and predictions.ids is not None else None)

    def name(kind: str, i: int, j: int):
        if not 0 <= i < len(ids):
            return None
        if kind == "predictions":
            line = by_id.get(str(ids[i])) if by_id is not None else lines[i] if source and i < len(lines) else None
            return place_text(source, line, ids[i]) if line is not None else None
        loc = (locations or {}).get(ids[i])
        if loc is None:
            return None
        names = loc[2] if len(loc) > 2 else None
        return place_text(loc[0], loc[1], ids[i], names[j] if names and j < len(names) else f"responses[{j}]")

    return renamed_rows(message, name) or message
