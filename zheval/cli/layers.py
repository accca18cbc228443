"""``zheval agree --predictions FILE``: the three evaluation layers on the same items and the table of how well each
metric agrees with the judge, in one command ([`zheval.compute.three_layers.three_layer_agreement`][]).

::

    zheval agree --predictions preds.jsonl [--pred-field F] [--ref-field F ...] [--id-field F] [--group-field F]
                 [--source-field F]
                 [--judge-url http://HOST:PORT/v1 --judge-model NAME [--api-key SECRET] [--rubric R.json] [--judge-cache-dir PATH]]
                 [--judge-ratings FILE.jsonl [--rubric R.json]]   # zheval judge --output, joined by id (docs/cli.md)
                 [--bertscore-model DIR [--bertscore-layer N] [--bertscore-idf] [--bertscore-batch-size N] [--bertscore-device D]]
                 [--bootstrap 1000] [--seed S] [--format table|json|markdown] [--output FILE] [--html FILE]

Columns: sentence BLEU, ROUGE-1/2/L F and sentence chrF (``--tokenizer``, default char), BERTScore-F1 (with
``--bertscore-model``), and the judge's criteria (``judge:<criterion>``, from ``--judge-url``/``--judge-model``,
or ``rating:<criterion>`` from ``--judge-ratings``). Rows: Spearman, Kendall and Pearson with bootstrap intervals,
overall and per ``--group-field`` value. Items the judge could not rate are left out of its columns and listed.
The table is printed through `zheval.cli.options.echo`; ``--html`` writes one page (jinja2 autoescape).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Optional

from .options import UserError, check_tokenizer, echo, refuse_metric_options
from .params import bertscore_flags, bertscore_options, option

__all__ = ["LAYER_OPTIONS", "JudgeRatings", "read_judge_ratings", "run_three_layers"]

#: The options of ``zheval agree``'s three-layer mode (``takes`` variants of the command).
LAYER_OPTIONS = {
    "layer_predictions": option(Optional[Path], "--predictions", "-p", help="three-layer mode: a records file "
                                "(JSONL, CSV, TSV, Parquet with predictions and references)", show_default=False),
    "pred_field": option(Optional[str], "--pred-field", help="the prediction's field", show_default=False),
    "ref_field": option(Optional[List[str]], "--ref-field", help="the reference field(s)", show_default=False),
    "id_field": option(Optional[str], "--id-field", help="the item id's field  [default: id when present]",
                       show_default=False),
    "group_field": option(Optional[str], "--group-field", help="a field to repeat the table per value of",
                          show_default=False),
    "source_field": option(Optional[str], "--source-field", help="a field with the source text or question the judge "
                           "also sees", show_default=False),
    "judge_url": option(Optional[str], "--judge-url", help="the judge's OpenAI-compatible endpoint (base URL)",
                        show_default=False),
    "judge_model": option(Optional[str], "--judge-model", help="the model name the endpoint serves",
                          show_default=False),
    "api_key": option(Optional[str], "--api-key", help="the endpoint's key  [default: $OPENAI_API_KEY]",
                      show_default=False),
    "rubric": option(Optional[Path], "--rubric", help="a rubric JSON file for the judge (with --judge-ratings: "
                    "the criteria the file may hold)", show_default=False),
    "judge_cache_dir": option(Optional[Path], "--judge-cache-dir", help="the judge's answer cache",
                              show_default=False),
    "judge_ratings": option(Optional[Path], "--judge-ratings", help="ratings already made (zheval judge --output), "
                            "joined by id", show_default=False),
    **bertscore_flags("bertscore-", required=False),
    "layer_tokenizer": option(str, "--tokenizer", "-t", default="char", help="tokenizer of the n-gram metrics"),
    "html": option(Optional[Path], "--html", help="three-layer mode: also write the table as one "
                   "HTML page (every text escaped, data in <bdi>)", show_default=False),
}


_DIGEST_FIELDS = ("prediction_sha256", "references_sha256", "source_sha256")
_INTEGER = re.compile(r"[+-]?[0-9]+\Z", re.ASCII)
_DIGEST = re.compile(r"[0-9a-f]{64}\Z")


class JudgeRatings(dict):
    """What [`read_judge_ratings`][zheval.cli.layers.read_judge_ratings] returns: ``{"rating:<criterion>": per-item
    values}``, with ``failures``: the file's failed items in item order, each as a live judge's failure
    ([`compute_judge`][zheval.compute.judge.compute_judge]'s ``failures``) -- ``{"item" (index into ``ids``),
    "id", "kind", "detail", "answer", "attempts"}`` (``None`` where the file does not say) -- so that they are listed
    by id as the live judge's are, not only counted; and ``notes``: what could not be checked (rows without a
    ``prediction_sha256``)."""

    failures: list
    notes: list

    def __init__(self, columns: dict, failures: list, notes: Optional[list] = None):
        super().__init__(columns)
        self.failures = failures
        self.notes = list(notes or [])  # what could not be checked (items without prediction_sha256)


def _scale_value(value):
    """A ratings file's value as `zheval.compute.judge_rubric.scale_problem` judges a judge's answer: a JSON value
    (an ``int`` for an integer literal, a `JsonNumber` for ``4.0``) as it is; a CSV/TSV cell's text an ``int`` when
    it is an integer literal (``4``), else the text (``4.0`` is not an integer literal)."""
    if isinstance(value, str):
        return int(value) if _INTEGER.match(value) else value
    return value


def _integer_as_written(rf, line: int, name: str, value, lines: dict):
    """A JSON line's integer ``value`` of ``name`` as the line wrote it (``-0``, which JSON reads as the int 0), its
    text read again from the file ``rf`` (``lines``: a cache of its lines); any other value as it is."""
    if type(value) is not int or rf.kind != "jsonl":
        return value
    import json

    from ..io.rows import read_text

    if "text" not in lines:
        text = read_text(rf.name, "judge ratings", [])
        lines["text"] = [] if text is None else text.split("\n")  # the lines jsonl_rows numbers from 1
    try:
        written = json.loads(lines["text"][line - 1], parse_int=str).get(name)
    except (IndexError, ValueError, AttributeError):
        return value
    return _Written(written) if isinstance(written, str) and int(written) == value else value


class _Written(str):
    """A number's text as written, shown without quotes."""

    def __repr__(self) -> str:
        return str(self)


def _row_failure(cell, has_failure: bool, where: str, rid: str, rated: list, problems: list):
    """The failure one ratings row records (``cell("failure")``), or ``None`` (null, an empty cell, no such column):
    a JSON object with a ``kind`` string as ``zheval judge --output`` writes it, or a CSV/TSV/Parquet cell's text
    (then the kind). A failure beside a rating (``rated``: the criteria with a value) is a contradiction, and a
    JSON failure that is no such object is malformed: problems appended, ``None`` returned."""
    value = cell("failure") if has_failure else None
    if value is None or value == "":
        return None
    if isinstance(value, dict):
        kind = value.get("kind")
        if not isinstance(kind, str) or not kind:
            problems.append(f"{where}: id {rid!r}: 'failure' must be null or an object with a 'kind' string (as "
                            f"zheval judge --output writes it), got {value!r}")
            return None
        failure = {k: value.get(k) for k in ("kind", "detail", "answer", "attempts")}
    elif isinstance(value, str):
        failure = {"kind": value, "detail": None, "answer": None, "attempts": None}
    else:
        problems.append(f"{where}: id {rid!r}: 'failure' must be null or an object with a 'kind' string (as "
                        f"zheval judge --output writes it), got {value!r}")
        return None
    if rated:
        problems.append(f"{where}: id {rid!r} records a failure ({failure['kind']}) and ratings too "
                        f"({', '.join(rated)}): a failed item has no rating (null), a rated one no failure (null)")
        return None
    return failure


def _digest_check(path, rows: list, ids: list, predictions: Optional[list], records: str) -> tuple:
    """``(problems, notes)`` of the ratings rows' ``prediction_sha256`` (``rows``: ``(line, id, {digest field:
    value})`` of the rows matched to items) against `zheval.text.controls.text_digest` of each item's prediction
    (issue 35 F3: ratings ``zheval judge`` made of other predictions, joined by id, were taken for these). A value
    that is not 64 lower-case hex digits is a problem; a mismatch is one problem naming the count and the first ids;
    rows without a digest (a file written before zheval judge recorded them, or by hand) are one note."""
    from ..adapters.review.review_files import listed
    from ..text.terminal import text_digest

    if predictions is None:
        return [], []
    index = {i: k for k, i in enumerate(ids)}
    problems, differ, lacking = [], [], []
    for line, rid, cells in rows:
        value = cells["prediction_sha256"]
        if value is _ABSENT or value is None or value == "":
            lacking.append(rid)
        elif not isinstance(value, str) or _DIGEST.match(value) is None:
            problems.append(f"{path}:{line}: prediction_sha256 of id {rid!r} is {value!r}, not a SHA-256 hex digest "
                            "(64 lower-case hex digits, as zheval judge --output writes it)")
        elif value != text_digest(predictions[index[rid]]):
            differ.append((rid, line))
    if differ:
        problems.append(f"{path}: the prediction_sha256 of {len(differ)} of {len(rows)} item(s) is not that of the "
                        f"prediction in {records}: {listed(differ, lambda d: f'{d[0]!r} (line {d[1]})', limit=5)}; "
                        f"these ratings are of other texts (zheval judge run on another predictions file?): rate "
                        f"{records} with zheval judge --output")
    notes = [f"{len(lacking)} of {len(rows)} row(s) of the judge ratings file {path} have no prediction_sha256 "
             f"(written by hand or before zheval judge recorded it): those ratings could not be checked to be of the "
             f"predictions in {records}"] if lacking else []
    return problems, notes


#: A digest field a ratings row does not have (an older file, a table without the column), unlike null.
_ABSENT = object()


def _item_check(path, rows: list, ids: list, references: Optional[list], sources: Optional[list],
                records: str) -> tuple:
    """``(problems, notes)`` of the rows' ``references_sha256`` and ``source_sha256`` (``rows`` as `_digest_check`)
    against the items' references (`zheval.text.controls.texts_digest`) and, with ``--source-field``
    (``sources``), their source texts (``text_digest``): a row rated on other references, or with another source,
    or with a source where none is given (``source_sha256`` set without ``--source-field``) or without one
    (null with ``--source-field``), is a problem naming ``file:line`` and what differs -- the same ids are not the
    same items (issue 35). Rows without the field (files written before zheval judge recorded it, or by hand) are
    scored, counted in one note per field."""
    from ..text.terminal import text_digest, texts_digest

    if references is None:
        return [], []
    index = {i: k for k, i in enumerate(ids)}
    problems, lacking = [], {"references_sha256": 0, "source_sha256": 0}
    rerun = f"; rate {records} again with zheval judge --output"
    for line, rid, cells in rows:
        where, k = f"{path}:{line}: id {rid!r}", index[rid]
        for name in lacking:
            value = cells[name]
            if value is _ABSENT or (value in (None, "") and name == "references_sha256"):
                lacking[name] += name == "references_sha256" or sources is not None
            elif value in (None, ""):
                if sources is not None:
                    problems.append(f"{where} was rated without a source text (source_sha256 is null) but "
                                    f"--source-field gives it one{rerun}")
            elif not isinstance(value, str) or _DIGEST.match(value) is None:
                problems.append(f"{where}: {name} is {value!r}, not a SHA-256 hex digest (64 lower-case hex digits, "
                                "as zheval judge --output writes it)")
            elif name == "references_sha256" and value != texts_digest(references[k]):
                problems.append(f"{where} was rated on other references than its references in {records} "
                                f"(references_sha256 differs: edited references, or another item?){rerun}")
            elif name == "source_sha256" and sources is None:
                problems.append(f"{where} was rated with a source text (source_sha256): give --source-field with "
                                "the field zheval judge read, so that it is checked")
            elif name == "source_sha256" and value != text_digest(sources[k]):
                problems.append(f"{where} was rated with another source text than --source-field gives in "
                                f"{records} (source_sha256 differs){rerun}")
    notes = [f"{n} of {len(rows)} row(s) of the judge ratings file {path} have no {name} (written by hand or before "
             f"zheval judge recorded it): those ratings could not be checked to be of the "
             f"{'references' if name == 'references_sha256' else 'source texts'} in {records}"
             for name, n in lacking.items() if n]
    return problems, notes


def _key_problems(path, rf, criteria: list, present: list, accepted: str) -> list:
    """The keys of a ratings file that are neither a row field (`zheval.compute.judge_rubric.ROW_FIELDS`) nor a
    criterion, and the rows lacking a criterion other rows have: JSON Lines every row's keys, a table its header
    (line 1)."""
    from ..compute.judge_rubric import ROW_FIELDS

    problems = []
    heads = [(line, row) for line, row in rf.rows] if rf.kind == "jsonl" else [(1, dict.fromkeys(rf.fields))]
    for line, row in heads:
        where = f"{path}:{line}" if rf.kind != "parquet" else str(path)
        problems += [f"{where}: unknown key {k!r}; a rating row has {accepted}" for k in row
                     if k not in ROW_FIELDS and k not in criteria]
        problems += [f"{where}: no {c!r} (the other rows have it; null is no rating)" for c in present if c not in row]
    return problems


def _ratings_rows(path: Path, criteria: list):
    """The rows of a judge ratings file (`zheval.io.rows.read_rows`; a JSON number keeps its text: 1e-400 is no
    0.0). Raises `ReviewFileError` for one object wrapping the rows (``{"data": [...]}``:
    `zheval.io.jsonl.wrapped_rows_problem`), not a row whose key ``data`` is unknown."""
    from ..adapters.review.human_review import ReviewFileError
    from ..io.jsonl import wrapped_rows_problem
    from ..io.rows import read_rows

    rf = read_rows(path, what="judge ratings", numbers=True)
    wrapper = wrapped_rows_problem(rf.kind, rf.rows, ["id", *criteria], str(path))
    if wrapper is not None:
        raise ReviewFileError(f"the judge ratings file {path}", [str(wrapper)])
    return rf


def read_judge_ratings(path: Path, ids: list, *, rubric: Optional[Path] = None, records: str = "the records",
                       predictions: Optional[list] = None, references=None, sources=None) -> JudgeRatings:
    """``{"rating:<criterion>": per-item values}`` from a judge ratings file (``zheval judge --output``: one JSON
    object per line, ``{"id", <criterion>: integer | null, ..., "reason", "failure"}``), joined by id to ``ids``
    (``None``: no rating, a JSON null). Read by the doors of ``zheval agree --ratings/--scores``: `zheval.io.rows`
    (a CSV/TSV/Parquet file too: an empty CSV cell is no rating), the one id rule
    ([`keyed_rows`][zheval.io.fields.keyed_rows]) and the one number rule
    ([`number_cells`][zheval.io.numbers.number_cells]); then each rating is checked as the judge checks an answer
    (`zheval.compute.judge_rubric.scale_problem`): an integer on the rubric's scale, the JSON literal an integer
    (``4``; ``4.0``, ``4e0``, ``4.5``, ``6``, ``0`` refused), in a CSV/TSV cell an integer (``4``), in Parquet an
    integer column.

    Args:
        path: the file. ids: the items' ids, in order (``str``). rubric: the rubric file whose criteria and scale the
            ratings are (``--rubric``); ``None``: the default rubric's (overall, faithful, informative, fluent; 1-5).
        records: the records file, as messages name it. predictions: the items' predictions, in order: each row's
            ``prediction_sha256`` (when present) must be their `zheval.text.controls.text_digest` (``None``: not
            checked). references, sources: the items' references and source texts (``--source-field``; ``None``:
            none), checked against ``references_sha256`` and ``source_sha256`` (`_item_check`).

    Returns:
        A [`JudgeRatings`][zheval.cli.layers.JudgeRatings]: one list of ``len(ids)`` floats or ``None`` per criterion
        the file has, in the rubric's order; ``.failures``: the rows whose ``failure`` is not null, by item.

    Raises:
        ReviewFileError (a ValueError): every problem at once, each naming ``file:line``: a key that is neither
            ``id``, ``reason``, ``failure`` nor a criterion (listing them), a row lacking a criterion other rows
            have, a row without an id or an id that is not one (spaces around it, a boolean, ...), an id twice
            (both lines), an id that is no item of ``records``, a rating that is not a finite number or null (its
            id and the value as written; a boolean, a JSON string, a Parquet string column, NaN, Infinity, 1e400 and
            1e-400 -- which ``json.loads`` reads as 0.0 -- included), a number that is not a rating on the scale
            (its id, criterion, value as written and the scale), a ``failure`` beside ratings or one that is not an
            object with a ``kind``, no criterion at all, a digest that is none, the rows rated on other references
            or source texts (`_item_check`); and, naming the file, the items whose ``prediction_sha256`` is not that
            of their prediction (count and first ids), the items without a rating row; a CSV/TSV row of empty cells.
        FileFormatError: the file cannot be read (`zheval.io.rows.read_rows`). ValueError: a bad rubric file.
    """
    from ..adapters.review.human_review import ReviewFileError, listed, problems_heading
    from ..adapters.duck.mismatch import id_hints
    from ..compute.judge_rubric import ROW_FIELDS, default_rubric, read_rubric, scale_problem
    from ..io.fields import UniqueIds, keyed_rows
    from ..io.numbers import SameFloat, number_cells

    rules = default_rubric() if rubric is None else read_rubric(str(rubric))
    criteria, (low, high) = list(rules.criteria), rules.scale
    which = "the default rubric" if rubric is None else f"--rubric {rubric}"
    accepted = (f"{', '.join(map(repr, ROW_FIELDS))} and the rubric's criteria {', '.join(map(repr, criteria))} ("
                + ("the default rubric; --rubric FILE for another)" if rubric is None else f"--rubric {rubric})"))
    rf = _ratings_rows(path, criteria)
    problems: list = []
    present = [c for c in criteria if any(c in row for _, row in rf.rows)]
    problems += _key_problems(path, rf, criteria, present, accepted)
    if not present:
        problems.append(f"{path}: no rating: no row has any of the criteria {', '.join(map(repr, criteria))}")
    known, got, values, off, failures = set(ids), {}, [], [], {}
    typed = rf.kind if rf.kind in ("jsonl", "parquet") else ""
    has_failure = bool(typed) or "failure" in rf.fields
    blank: list = []  # a CSV/TSV row of empty cells holds no item: an error, as in a --scores file
    digests: list = []  # (line, id, {digest field: value or _ABSENT}) of the rows of items
    keys = dict(rf.rows) if rf.kind == "jsonl" else None  # a JSON line's keys; a table's: its columns
    unknown, same, lines = [], SameFloat(), {}  # same: two different numbers of a criterion that read as one float64
    for line, rid, cell in keyed_rows(rf.rows, path, problems, UniqueIds(), typed=bool(typed), blank_rows=blank):
        if rid not in known:
            problems.append(f"{path}:{line}: id {rid!r} is not an item of {records}")
            unknown.append(rid)
            continue
        where = f"{path}:{line}"
        digests.append((line, rid, {f: cell(f) if f in (rf.fields if keys is None else keys[line]) else _ABSENT
                                    for f in _DIGEST_FIELDS}))
        got[rid] = number_cells(cell, present, where, rid, values, kind="a number", blank=lambda c: None,
                                typed=typed, same=same)
        for c, v in got[rid].items():  # the judge's own check of an answer (scale_problem), on the value as written
            bad = None if v is None else scale_problem(_scale_value(cell(c)), (low, high))
            if bad is not None:  # the value as written: -0 (a JSON integer that reads as 0) too
                off.append(f"{where}: {c} of id {rid!r} is {_integer_as_written(rf, line, c, cell(c), lines)!r}, "
                           f"not a rating on the scale {low}-{high} of {which} ({bad[1]}; a rating is an integer "
                           f"from {low} to {high}, written without a fraction or an exponent)")
        rated = [c for c, v in got[rid].items() if v is not None]
        failure = _row_failure(cell, has_failure, where, rid, rated, problems)
        if failure is not None:
            failures[rid] = failure
    problems += [f"{path}:{line}: the row is empty (no id, no rating)" for line in blank]
    checked = [_digest_check(path, digests, ids, predictions, records),
               _item_check(path, digests, ids, references, sources, records)]
    problems += [p for found, _ in checked for p in found]
    absent = [i for i in ids if i not in got]
    if absent:
        problems.append(f"{path}: {len(absent)} item(s) of {records} have no rating row here: {listed(absent)}")
    problems += [f"{path}: {hint}" for hint in id_hints(absent, unknown, records, "the judge ratings file")]
    what = f"the judge ratings file {path}"
    lost = same.problems
    if problems or values or off or lost:  # raise_problems' heading, and the ratings off the scale
        heading = problems_heading(what, records, values, problems, lost) if problems or values or lost else what
        heading += ((" and" if problems or values or lost else "") + f" has {len(off)} rating(s) that are not "
                    f"integers on the scale {low}-{high}") if off else ""
        raise ReviewFileError(heading, problems + values + lost + off)
    listed_failures = [{"item": k, "id": i, **failures[i]} for k, i in enumerate(ids) if i in failures]
    return JudgeRatings({f"rating:{c}": [got[i][c] for i in ids] for c in present}, listed_failures,
                        [n for _, notes in checked for n in notes])


def _judge_options(o):
    from ..compute.judge import JudgeOptions

    if (o.judge_url is None) != (o.judge_model is None):
        raise UserError("--judge-url and --judge-model go together")
    if o.judge_url is None:
        idle = [flag for flag, v in (("--judge-cache-dir", o.judge_cache_dir), ("--api-key", o.api_key))
                if v is not None]  # --source-field: the sources --judge-ratings' source_sha256 are checked against
        if idle:  # they act only on a live judge's requests (issue 35: ignored beside --judge-ratings)
            raise UserError(f"{' and '.join(idle)} act(s) only on a live judge (--judge-url and --judge-model); "
                            "with ratings made earlier (--judge-ratings) it would change nothing: leave it out")
        return None
    from .judge import check_endpoint

    api_key = check_endpoint(o.judge_url, o.judge_model, o.api_key, ("--judge-url", "--judge-model", "--api-key"))
    return JudgeOptions(base_url=o.judge_url, model=o.judge_model, api_key=api_key,
                        rubric=None if o.rubric is None else str(o.rubric), seed=o.seed,
                        cache_dir=None if o.judge_cache_dir is None else str(o.judge_cache_dir))


def run_three_layers(o, fmt: str) -> None:
    """The three-layer mode of ``zheval agree`` (module docstring); ``fmt``: ``table``, ``json`` or ``markdown``."""
    from ..adapters.files import atomic_write
    from ..adapters.layers_report import render_html, render_json, render_markdown, render_table
    from ..adapters.records import read_records
    from ..compute.three_layers import three_layer_agreement
    from .files import check_output_dir, check_output_format, check_paths
    from .judge import check_rubric_source, judge_cache_dir, read_sources
    from .located import RowPlaces, rows_named

    check_output_dir(o.output, o.html)
    check_paths({"--predictions": o.layer_predictions, "--judge-ratings": o.judge_ratings, "--rubric": o.rubric},
                {"--output": o.output, "--html": o.html},
                {"--bertscore-model": o.bert_model,
                 "--judge-cache-dir": judge_cache_dir(o.judge_cache_dir, o.judge_url is not None)})
    check_output_format(o.output, fmt, html=True)
    from ..adapters.extras import require_extra

    check_tokenizer(o.layer_tokenizer)  # before any file is read or model loaded
    refuse_metric_options(o, ())  # --bertscore-layer/-idf/-batch-size/-device without --bertscore-model: no column
    judge = _judge_options(o)
    if judge is not None:
        require_extra("openai", extra="judge", purpose="zheval agree --judge-url")
    bert = bertscore_options(o, "zheval agree --bertscore-model")
    if judge is None and o.judge_ratings is None:
        raise UserError("three layers need the judge: --judge-url and --judge-model, or --judge-ratings FILE")
    groups = [o.group_field] if o.group_field else []
    records = read_records(o.layer_predictions, pred_field=o.pred_field, ref_field=o.ref_field, id_field=o.id_field,
                           group_fields=groups)
    ids = list(records.ids)
    if judge is not None:
        check_rubric_source(o.rubric, o.source_field)
    sources = read_sources(o.layer_predictions, o.source_field, len(records)) if o.source_field else None
    ratings = None if o.judge_ratings is None else read_judge_ratings(
        o.judge_ratings, ids, rubric=o.rubric, records=str(o.layer_predictions), predictions=list(records.predictions),
        references=list(records.references), sources=sources)
    with rows_named(lambda: RowPlaces(ids, records.locations(), records.fields.get("pred"))):
        report = three_layer_agreement(records.predictions, records.references, bertscore=bert, judge=judge,
                                       ratings=ratings, sources=sources,
                                       groups=records.groups[o.group_field] if o.group_field else None,
                                       group_name=o.group_field or "group",
                                       tokenizer=o.layer_tokenizer, bootstrap=o.bootstrap, seed=o.seed)
    if ratings is not None and ratings.failures:  # the failures the ratings file records, listed as a live judge's
        report["rating_failures"] = ratings.failures
    if ratings is not None and ratings.notes:  # ratings that could not be checked to be of these predictions
        report["rating_notes"] = ratings.notes
    params = {"bootstrap": o.bootstrap, "seed": o.seed, "tokenizer": o.layer_tokenizer,
              "predictions": str(o.layer_predictions),
              **({} if o.judge_ratings is None else {"judge_ratings": str(o.judge_ratings)})}
    render = {"table": render_table, "json": render_json, "markdown": render_markdown}[fmt]
    text = render(report, params=params, ids=ids)
    if o.html is not None:
        atomic_write(o.html, render_html(report, params=params, ids=ids))
        echo(f"wrote {o.html}", err=True)
    if o.output is not None:
        atomic_write(o.output, text)
        echo(f"wrote {o.output}", err=True)
    else:
        echo(text, nl=False)
    from .correlated import nothing_to_correlate

    advice = ([f"the judge (--judge-url) rated {report['judge']['judged']} of {len(ids)} item(s); its failures are "
               "listed in the report"] if report.get("judge") else []) + (
        [f"--judge-ratings {o.judge_ratings} has too few ratings"] if ratings is not None else [])
    nothing_to_correlate(report["rows"], len(ids), "; ".join(advice) or "rate more items")
