"""What an engine's worker does with one batch of rows, and how the driver reduces the batches: shared by the Ray
([`zheval.adapters.ray`][]) and Spark ([`zheval.adapters.spark`][]) adapters, and free of both.

::

    worker:  Arrow batch ─columns─▶ texts ─score_items─▶ ScoreItems ─pickle─▶ one record (bytes) per batch
    driver:  records, in row order ─▶ errors named by row ─▶ ScoreItems.concat ─▶ score_result (+ per group)

* A worker never raises for bad input: it returns a record naming the batch-local rows (`batch_record`), and
  the driver, which knows each batch's row offset, raises the error of [`zheval.score`][zheval.compute.joint.score] with the dataset's row
  indices (``references[1234][0]``) and, with an id column, the row's id (`reduce_records`). Every row is
  scored or is an error; nothing is dropped.
* Texts stay on the workers; the driver receives the per-item statistics ([`ScoreItems`][zheval.compute.joint.ScoreItems]:
  P/R/F per ROUGE type and one integer BLEU row per item) and reduces them with the library's own
  [`concat`][zheval.compute.joint.ScoreItems.concat] and [`score_result`][zheval.compute.joint.score_result], so every number
  equals [`zheval.score`][zheval.compute.joint.score] on the same rows in the same order.
* The input guards (`zheval.compute.guards.input_slips`) run on each batch's own sample; the driver issues each
  kind of warning once.
"""

from __future__ import annotations

import hashlib
import pickle
import re
import threading
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

from ..compute.guards import input_slips
from ..compute.inputs import EmptyReferenceError, validate_inputs
from ..compute.joint import ScoreConfig, ScoreItems, item_scores, score_door_config, score_result, score_items
from ..results.reducers import group_indices
from .engine_checks import IdKinds, first_id_kinds, group_value_problem, id_problem, kind_change

__all__ = ["BatchRequest", "PackedRequest", "batch_record", "reduce_records", "batch_with_scores", "score_columns",
           "check_columns", "pack_request", "check_config", "prepare_request", "ENGINE_DOOR_DOC", "engine_door_doc"]

_INDEXED = re.compile(r"\b(predictions|references)\[(\d+)\]")

#: Requests unpickled in this worker process, by the sha256 of their pickled bytes (content: the options, the
#: tokenizer's name, options and dictionary hash), so that the batches of one call that a worker process runs share one
#: tokenizer -- a jieba tokenizer loads its dictionary once per process, not once per batch. Only requests whose
#: tokenizers are content-keyed are kept (never a user callable); at most 4, the oldest dropped.
_WORKER_REQUESTS: "OrderedDict[str, BatchRequest]" = OrderedDict()
_WORKER_REQUESTS_LOCK = threading.Lock()
_WORKER_REQUESTS_MAX = 4


@dataclass(frozen=True)
class BatchRequest:
    """What every worker needs: the checked options and the column names.

    Attributes:
        config: from [`zheval.compute.joint.score_config`][].
        prediction_column: ``str`` column of predictions. references_column: ``list<string>`` or ``string`` column.
        group_column: optional column whose values name each row's group. id_column: optional column naming each
            row in error messages.
    """

    config: ScoreConfig
    prediction_column: str
    references_column: str
    group_column: Optional[str] = None
    id_column: Optional[str] = None

    @property
    def columns(self) -> List[str]:
        """The input columns the workers read."""
        names = [self.prediction_column, self.references_column, self.group_column, self.id_column]
        return list(dict.fromkeys(c for c in names if c is not None))


def check_config(config: ScoreConfig, engine: str) -> None:
    """Refuse what cannot be computed batch by batch.

    Raises:
        ValueError: ``crosscheck=True`` (a cross-check compares one process's tokens with the reference tool; its
            items cannot be concatenated).
    """
    if config.crosscheck:
        raise ValueError(f"crosscheck is not available through {engine}: the cross-check compares one process's "
                         "tokens with the reference tool and its items cannot be merged; run zheval.score(..., "
                         "crosscheck=True) on a sample of the rows")


def check_columns(available: Sequence[str], request: BatchRequest, engine: str, *, per_item: bool) -> None:
    """Raise ``ValueError`` naming a requested column the data lacks (listing the available ones), or, with
    ``per_item``, an input column whose name a per-item score column would take."""
    missing = [c for c in request.columns if c not in available]
    if missing:
        raise ValueError(f"{engine}: no column {', '.join(map(repr, missing))}; the columns are "
                         f"{', '.join(map(repr, available))}")
    if per_item:
        taken = [c for c in score_columns(request.config) if c in available]
        if taken:
            raise ValueError(f"{engine}: per_item adds the score columns {', '.join(map(repr, taken))}, which the "
                             "data already has; rename or drop them first")


@dataclass(frozen=True)
class PackedRequest:
    """A `BatchRequest` pickled once on the driver (``payload``) with the sha256 of those bytes (``key``);
    `unpack` on a worker reuses the request already unpickled there for the same bytes."""

    key: str
    payload: bytes

    def unpack(self) -> BatchRequest:
        """The request (runs on a worker)."""
        with _WORKER_REQUESTS_LOCK:
            request = _WORKER_REQUESTS.get(self.key)
        if request is not None:
            return request
        request = pickle.loads(self.payload)
        tokenizers = [c.tokenizer for c in (request.config.rouge, request.config.bleu) if c is not None]
        if all(t.content_keyed for t in tokenizers):
            with _WORKER_REQUESTS_LOCK:
                while len(_WORKER_REQUESTS) >= _WORKER_REQUESTS_MAX:
                    _WORKER_REQUESTS.popitem(last=False)
                _WORKER_REQUESTS[self.key] = request
        return request


def pack_request(request: BatchRequest, dumps: Callable[[Any], bytes], engine: str) -> PackedRequest:
    """Pickle ``request`` with the engine's own pickler (``dumps``: cloudpickle) before any work is sent.

    Raises:
        TypeError: it cannot be pickled: names the tokenizer (the only user object in it) and how to fix it.
    """
    try:
        payload = dumps(request)
    except Exception as exc:  # cloudpickle raises TypeError, PicklingError, AttributeError ...
        tok = request.config.first.tokenizer
        raise TypeError(
            f"{engine}: the tokenizer {tok.signature()!r} cannot be sent to the workers: pickling it failed "
            f"({type(exc).__name__}: {exc}). Every worker receives the options by pickle (cloudpickle); build what "
            "cannot be pickled (a jieba.Tokenizer, a lock, an open file, a model) inside the callable on first use, "
            "or pass a tokenizer name (\"char\", \"jieba\", ...)") from exc
    return PackedRequest(hashlib.sha256(payload).hexdigest(), payload)


def _texts(table, request: BatchRequest):
    preds = table.column(request.prediction_column).to_pylist()
    refs = table.column(request.references_column).to_pylist()
    return preds, refs


def _located_error(preds: list, refs: list, exc: Exception) -> dict:
    """The first row of a batch that fails on its own, as a record's error (the batch's error if none does)."""
    for i in range(len(preds)):
        try:
            validate_inputs([preds[i]], [refs[i]])
        except (TypeError, ValueError) as row_exc:
            return {"kind": "input", "type": type(row_exc).__name__, "row": i,
                    "message": _INDEXED.sub(lambda m: f"{m[1]}[{i}]", str(row_exc))}
    return {"kind": "input", "type": type(exc).__name__, "row": None, "message": str(exc)}


def batch_record(table, request: BatchRequest) -> bytes:
    """The record of one batch (runs on a worker): its row count and per-item statistics, or the error of its
    first bad row, pickled.

    Args:
        table: a ``pyarrow.Table`` or ``RecordBatch`` with the request's columns (references as ``list<string>`` or
            ``string``; nulls are errors, never dropped).
        request: a `BatchRequest`.

    Returns:
        ``bytes``: a pickled dict ``{"n", "items", "groups", "slips", "error", "ids", "id_kinds"}`` read by
        `reduce_records` (``ids``: the batch's ids when it has a bad row, to name it; ``id_kinds``: the first id of
        each kind, `zheval.adapters.engine_checks.first_id_kinds`).
    """
    preds, refs = _texts(table, request)
    n = len(preds)
    record: Dict[str, Any] = {"n": n, "items": None, "groups": None, "slips": [], "error": None, "ids": None,
                              "id_kinds": {}}
    if not n:
        return pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)
    config = request.config
    try:
        record["items"] = score_items(preds, refs, config, warn=False)
    except EmptyReferenceError as exc:
        record["error"] = {"kind": "empty", "positions": exc.positions, "texts": exc.texts, "reasons": exc.reasons,
                           "context": exc.context}
    except (TypeError, ValueError) as exc:
        record["error"] = _located_error(preds, refs, exc)
    if record["error"] is None and request.group_column is not None:
        record["groups"] = table.column(request.group_column).to_pylist()
        bad = group_value_problem(record["groups"], request.group_column)
        if bad is not None:
            record["error"] = {"kind": "input", "type": bad[1], "row": bad[0], "message": bad[2]}
    if record["error"] is None and request.id_column is not None:
        ids = table.column(request.id_column).to_pylist()
        bad = id_problem(ids, request.id_column)
        if bad is not None:
            record["error"] = {"kind": "input", "type": bad[1], "row": bad[0], "message": bad[2]}
        record["id_kinds"] = first_id_kinds(ids)
    if record["error"] is not None:
        if request.id_column is not None:
            record["ids"] = table.column(request.id_column).to_pylist()
        record["groups"] = None
        return pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)
    canon_preds, canon_refs = validate_inputs(preds, refs)
    first = config.first
    record["slips"] = input_slips(canon_preds, canon_refs, first.tokenizer, first.t2s_applies)
    return pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)


_INDEXED_CELL = re.compile(r"\b(predictions|references)\[\d+\](\[\d+\])?")


def _user_columns(message: str, request: BatchRequest) -> str:
    """A row's error in the user's own words: the library's ``predictions[i]`` / ``references[i][j]`` become the
    column the user named (``column 'model_output'``, ``gold[0]``); the row itself is named before the message."""
    columns = {"predictions": request.prediction_column, "references": request.references_column}
    return _INDEXED_CELL.sub(lambda m: f"{columns[m[1]]}{m[2]}" if m[2] else f"column {columns[m[1]]!r}", message)


def _row_name(row: int, ids: Optional[dict], id_column: Optional[str]) -> str:
    if ids is not None and ids.get(row) is not None:
        return f"row {row} ({id_column} {ids[row]!r})"
    return f"row {row}"


def reduce_records(records: Iterable[bytes], request: BatchRequest, engine: str) -> Dict[str, Any]:
    """The result of [`zheval.score`][zheval.compute.joint.score] from the batches' records, in row order (runs on the driver).

    Returns:
        ``{metric: result}`` exactly as [`zheval.score`][zheval.compute.joint.score] on the same rows in the same order; with a group column
        also ``"groups"``: ``{group value: {metric: result}}`` in order of first appearance (``None`` is a group of
        its own), each equal to [`zheval.score`][zheval.compute.joint.score] on that group's rows.

    Raises:
        EmptyReferenceError: references without a token, every one named as ``references[row][j]`` with the dataset's
            row index (and its id).
        TypeError, ValueError: the first row that is not scorable (``predictions[row]``/``references[row][j]``, its
            id; a group value that cannot name a group), or no row at all; a group value of another kind than the
            first (``"0"`` after ``0``: `zheval.adapters.engine_checks.kind_change`) or an id of another kind than
            the first (``7`` after ``"q0"``: `zheval.adapters.engine_checks.IdKinds`), named by its row.
    """
    offset, parts, groups = 0, [], []
    empty_pos, empty_texts, empty_reasons, empty_context, id_of = [], [], [], "", {}
    first_input, slips = None, {}
    id_kinds = IdKinds(request.id_column)
    for blob in records:
        rec = pickle.loads(blob)
        err = rec["error"]
        if err is not None:
            if rec["ids"] is not None:
                id_of.update({offset + i: v for i, v in enumerate(rec["ids"])})
            if err["kind"] == "empty":
                empty_pos += [(offset + i, j) for i, j in err["positions"]]
                empty_texts += err["texts"]
                empty_reasons += err["reasons"]
                empty_context = err["context"]
            elif first_input is None:
                first_input = (err, offset)
        elif rec["n"]:
            parts.append(rec["items"])
            if rec["groups"] is not None:
                groups += rec["groups"]
            for category, message in rec["slips"]:
                slips.setdefault(category, message)
        id_kinds.add(offset, rec["id_kinds"])
        offset += rec["n"]
    ids = id_of if request.id_column is not None else None
    if first_input is not None:
        err, base = first_input
        exc_type = TypeError if err["type"] == "TypeError" else ValueError
        if err["row"] is None:
            raise exc_type(f"{engine}: {err['message']} (in the batch of rows {base}...)")
        row = base + err["row"]
        message = _user_columns(err["message"], request)
        raise exc_type(f"{engine}: {_row_name(row, ids, request.id_column)}: {message}")
    if empty_pos:
        locate = (lambda i: f"{request.id_column} {ids[i]!r}") if ids else None
        raise EmptyReferenceError(empty_pos, empty_texts, empty_reasons, empty_context, locate=locate)
    if not parts:
        raise ValueError(f"{engine}: no items to score: the data has no rows")
    change = kind_change(groups, request.group_column) if request.group_column is not None else None
    for change in (change, id_kinds.change):
        if change is not None:
            raise ValueError(f"{engine}: row {change[0]}: {change[1]}")
    for category, message in slips.items():
        warnings.warn(f"{message} (found in a batch's sample)", category, stacklevel=3)
    items = ScoreItems.concat(parts)
    parts.clear()  # the driver keeps one copy of the items
    out: Dict[str, Any] = score_result(items, request.config)
    if request.group_column is not None:
        out["groups"] = {g: score_result(items.select(idx), request.config) for g, idx in group_indices(groups).items()}
    return out


def score_columns(config: ScoreConfig) -> List[str]:
    """The names of the per-item score columns ([`zheval.compute.joint.item_scores`][]), in order."""
    names: List[str] = []
    if config.rouge is not None:
        for t in config.rouge.types:
            names += [t, f"{t}_precision", f"{t}_recall"]
    if config.bleu is not None:
        names.append("sentence_bleu")
    if config.chrf is not None:
        names.append("chrf")
    return names


def batch_with_scores(table, request: BatchRequest):
    """The batch with its per-item score columns appended (runs on a worker): a ``pyarrow.Table`` of the input rows
    (every column kept) plus `score_columns` (float64, 0-1).

    Raises:
        the input errors of [`zheval.compute.joint.score_items`][] (batch-local indices); the result pass, which
        runs first, names the row.
    """
    import pyarrow as pa

    if not isinstance(table, pa.Table):
        table = pa.Table.from_batches([table])
    preds, refs = _texts(table, request)
    names = score_columns(request.config)
    if not preds:
        cols = {c: pa.array([], type=pa.float64()) for c in names}
    else:
        cols = {c: pa.array(v, type=pa.float64())
                for c, v in item_scores(score_items(preds, refs, request.config, warn=False), request.config).items()}
    for c in names:
        table = table.append_column(c, cols[c])
    return table


def prepare_request(engine: str, metrics: Sequence[str], options: Dict[str, Any], typed: Dict[str, Any],
                    columns: Dict[str, Optional[str]], available: Callable[[], Sequence[str]], per_item: bool,
                    dumps: Callable[[Any], bytes]) -> tuple:
    """What an engine door does before any work is sent, in order: the metrics and options checked and split
    ([`options_for_metrics`][zheval.compute.options.options_for_metrics], errors named by ``engine``), the config built
    through the door configs ([`score_door_config`][zheval.compute.joint.score_door_config]: an option that would
    change nothing is refused, as by ``zheval.score``) and checked (`check_config`), the columns checked against
    ``available()`` (`check_columns`) and the request pickled once (`pack_request`).

    Args:
        engine: the door's name; metrics, options, typed: its ``metrics``, options by name and
            ``{"rouge": ..., "bleu": ..., "chrf": ...}`` options objects; columns: ``prediction_column``,
            ``references_column``, ``group_column``, ``id_column``; available: the data's column names (called after
            the options are checked); per_item: whether score columns will be added; dumps: the engine's pickler.

    Returns:
        ``(BatchRequest, PackedRequest)``.

    Raises:
        the errors of the functions above, in that order.
    """
    config = score_door_config(engine, metrics, typed, options)
    check_config(config, engine)
    request = BatchRequest(config, columns["prediction_column"], columns["references_column"],
                           columns.get("group_column"), columns.get("id_column"))
    check_columns(list(available()), request, engine, per_item=per_item)
    return request, pack_request(request, dumps, engine)


#: The docstring of the engine doors (`zheval.adapters.ray.score_dataset`,
#: `zheval.adapters.spark.score_dataframe`), written once; `engine_door_doc` fills in each engine's words.
ENGINE_DOOR_DOC = """Chinese BLEU, ROUGE and/or chrF of {a_data}, computed on its {workers}: the result of [`zheval.score`][zheval.compute.joint.score].

    Args:
        {data}: {data_type} with one row per item.
        prediction_column: the ``string`` column of predictions (a null is an error naming the row).
        references_column: {list_type} column (one or more references per row, ragged) or a ``string``
            column (one reference per row).
        group_column: optional column (any scalar type; {null} is a group of its own): the result gains ``"groups"``,
            ``{{value: {{metric: result}}}}``, each equal to [`zheval.score`][zheval.compute.joint.score] on that group's rows,
            in order of first appearance{row_order} (reduced from sums or gathered alike).
            The values are kept as they are (an integer column gives integer keys, where the CLI's ``--group-field``
            reads ``0`` as ``"0"``); a nested column (a list, a struct, a map) is refused on the driver, and a value
            that cannot name a group (not hashable, NaN) or of another kind than the column's first (``"0"`` beside
            ``0``, ``True`` beside ``1``) is refused naming its row (`zheval.adapters.engine_checks`).
        id_column: optional column that names a row in error messages (else the row index{row_order}); each id must
            pass the CLI's id rule (`zheval.io.fields.id_value`: not null, not blank, no spaces around it; a string or
            an integer), else an error naming its row, and be unique (a duplicate is found by the engine's own
            group-by count of the id column and named with its first rows).
        per_item: also return {per_item_data} of the input rows with the per-item score columns appended
            ([`zheval.compute.joint.item_scores`][], {dtype}, 0-1: for ROUGE ``<type>``, ``<type>_precision`` and
            ``<type>_recall`` of every type; for BLEU ``bleu``, the item's sentence BLEU; for chrF ``chrf``, the
            item's sentence chrF; only the metrics asked for), computed again on the {workers} {when_used}.
        metrics: any of ``"bleu"``, ``"rouge"``, ``"chrf"`` (default BLEU and ROUGE), as [`zheval.score`][zheval.compute.joint.score].{extra_args}
        rouge, bleu, chrf: a metric's options as one object ([`RougeOptions`][zheval.compute.options.RougeOptions],
            [`BleuOptions`][zheval.compute.options.BleuOptions], [`ChrfOptions`][zheval.compute.options.ChrfOptions]).
        options: the same options by name, as [`zheval.score`][zheval.compute.joint.score] (each defined once in
            `zheval.compute.options`; one that no requested metric uses is an error), checked on the driver
            before any work; ``crosscheck`` is refused (its items cannot be merged).

    Returns:
        ``{{metric: result}}`` as [`zheval.score`][zheval.compute.joint.score] (scores on 0-1, signature, bootstrap intervals), plus
        ``"groups"`` with ``group_column``; with ``per_item=True`` a tuple ``(result, per-item {per_item_kind})``.

    Raises:
        MissingExtraError: {engine_name} is not installed (one line naming the ``{extra}`` extra).
        TypeError, ValueError: a door argument of the wrong kind, before any work (``per_item``/``gather_items`` not
            a bool{batch_size_check}; `zheval.adapters.engine_checks.check_door_args`).
        ValueError: a column the data lacks, a per-item column name it already has, ``crosscheck``, no rows;
            the option errors of [`zheval.score`][zheval.compute.joint.score].
        TypeError: a tokenizer that cannot be pickled to the {workers} (named, with the fix); an option error.
        EmptyReferenceError, TypeError, ValueError: a row that cannot be scored, named by its row index (and id):
            ``references[1234][0]``, ``predictions[7]`` -- nothing is dropped.

    Follows [`zheval.score`][zheval.compute.joint.score] (same numbers); {follows}.
    """


def engine_door_doc(words: Dict[str, str]) -> str:
    """`ENGINE_DOOR_DOC` with one engine's words (``a_data``, ``workers``, ``data``, ``data_type``,
    ``list_type``, ``null``, ``row_order``, ``per_item_data``, ``dtype``, ``when_used``, ``extra_args``,
    ``per_item_kind``, ``engine_name``, ``extra``, ``follows``; optional ``batch_size_check``)."""
    return ENGINE_DOOR_DOC.format(**{"batch_size_check": "", **words})
