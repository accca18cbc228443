"""Engines reduce where the data lives: what a worker makes of one batch (partial sums, never per-item rows), how two
of those merge, and the driver's result -- shared by the Ray and Spark doors, free of both.

::

    worker:  Arrow batch ─score_items─▶ ScoreItems ─batch_sums─▶ {group: PartialSums} ─pickle─▶ one sums record
    engine:  records ─merge_sums_records (Ray: Dataset.aggregate, Spark: RDD.treeAggregate)─▶ one record
    driver:  one record ─sums_result─▶ {metric: result} (+ "groups")

The merge is exact, associative and commutative (`zheval.results.partial_sums`), so the engine may combine the
records in any order and tree shape, and the driver receives O(groups x metrics x resamples) numbers whatever the
number of rows. The result is ``==`` [`zheval.score`][zheval.compute.joint.score] on the same rows (`zheval.compute.sums.sums_result`);
bootstrap intervals are the Poisson bootstrap's (`zheval.results.poisson`), keyed by each item's content and
its id column, so any partitioning gives the same intervals, and [`zheval.score_batches`][zheval.compute.batches.score_batches] on the same rows and
ids gives them too.

A batch that cannot be scored (a null, an empty reference) is flagged in its record (``bad``) and the merged record
says so; the door then runs the ordered pass of `zheval.adapters.engine_batches`, which names the row by its
index and id exactly as [`zheval.score`][zheval.compute.joint.score] would. A bad row costs a second pass; a good table never does.
"""

from __future__ import annotations

import contextlib
import pickle
from typing import Any, Dict, Optional

from ..compute.guards import input_slips
from ..compute.inputs import validate_inputs
from ..compute.joint import score_items
from ..compute.sums import batch_sums, needs_every_item, sums_result
from ..results.partial_sums import PartialSums, merge_groups
from ..results.poisson import item_keys
from .engine_batches import BatchRequest
from .engine_checks import first_id_kinds, group_kind, group_value_problem, id_problem
from .engine_env import worker_import_problem

__all__ = ["SUMS_DOOR_ARGS", "EMPTY_SUMS_RECORD", "sums_record", "merge_sums_records", "result_from_sums_record",
           "reducible", "engine_errors"]

_PROTOCOL = pickle.HIGHEST_PROTOCOL

#: The docstring lines of the door option this module serves (appended to each door's ``extra_args``).
SUMS_DOOR_ARGS = """
        gather_items: allow the options that need every item (`zheval.compute.sums.needs_every_item`: the
            multinomial bootstrap -- ``bootstrap_method``'s default; ``bootstrap_method="poisson"`` draws Poisson(1)
            weights keyed by each item's content and id, sums reduced by the engine, the intervals of
            [`zheval.score_batches`][zheval.compute.batches.score_batches] on the same rows and ids -- a preset's own
            numbers, ``level="sentence"``, ``use_aggregator=False``): every batch's per-item statistics then come to
            the driver (about 0.2-0.7 KB a row of driver memory). With options that need only sums it changes
            nothing: the sums path runs (same numbers, groups in the same order of first appearance)."""


def _record(n: int, groups: Dict[Any, PartialSums], bad: bool, slips: Dict[type, str],
            kinds: frozenset = frozenset(), first: Optional[Dict[Any, tuple]] = None,
            id_kinds: frozenset = frozenset()) -> bytes:
    return pickle.dumps({"n": n, "groups": groups, "bad": bad, "slips": slips, "kinds": kinds, "first": first or {},
                         "id_kinds": id_kinds}, protocol=_PROTOCOL)


EMPTY_SUMS_RECORD = _record(0, {}, False, {})
"""The record of no row (the zero of `merge_sums_records`)."""


def sums_record(table, request: BatchRequest, position: tuple = (0, 0)) -> bytes:
    """The sums record of one batch (runs on a worker): ``{"n", "groups": {group: PartialSums}, "bad", "slips",
    "kinds", "first", "id_kinds"}`` pickled.

    Args:
        table: a ``pyarrow.Table`` or ``RecordBatch`` with the request's columns (references ``list<string>`` or
            ``string``). request: the `BatchRequest` (a reducible config).
        position: where the batch lies in the data's order, ``(partition or task index, batch number in it)``: each
            group's ``first`` row is ``position + (row in the batch,)``, the merge keeps the least, and the driver
            lists the groups in that order (first appearance, whatever the merge order).

    A batch with a row that cannot be scored, or a group value that cannot name a group, gives ``bad=True`` and no
    sums (the driver names the row in an ordered pass); ``kinds`` holds the kinds of its group values
    (`zheval.adapters.engine_checks.group_kind`: more than one after the merge is refused the same way), ``id_kinds``
    those of its ids (`zheval.compute.batch_checks.id_kind`: ids of two kinds are refused the same way). The Poisson
    keys read each id's text form (`zheval.results.poisson.item_keys`: ``7`` is keyed as ``"7"``, as the CLI and
    ``zheval.score_batches`` key it). A worker never raises for bad input.
    """
    preds = table.column(request.prediction_column).to_pylist()
    refs = table.column(request.references_column).to_pylist()
    if not preds:
        return EMPTY_SUMS_RECORD
    config = request.config
    try:
        items = score_items(preds, refs, config, warn=False)
        canon_preds, canon_refs = validate_inputs(preds, refs)
    except (TypeError, ValueError):
        return _record(len(preds), {}, True, {})
    groups = table.column(request.group_column).to_pylist() if request.group_column is not None else None
    if groups is not None and group_value_problem(groups, request.group_column) is not None:
        return _record(len(preds), {}, True, {})
    ids = table.column(request.id_column).to_pylist() if request.id_column is not None else None
    if ids is not None and id_problem(ids, request.id_column) is not None:
        return _record(len(preds), {}, True, {})
    kinds = frozenset(group_kind(g) for g in groups if g is not None) if groups is not None else frozenset()
    id_kinds = frozenset(first_id_kinds(ids)) if ids is not None else frozenset()
    keys = item_keys(canon_preds, canon_refs, ids) if config.first.bootstrap else None
    first = config.first
    slips = dict(input_slips(canon_preds, canon_refs, first.tokenizer, first.t2s_applies))
    first: Dict[Any, tuple] = {}
    for i, g in enumerate(groups or ()):
        first.setdefault(g, (*position, i))
    return _record(len(preds), batch_sums(items, config, keys=keys, groups=groups), False, slips, kinds, first,
                   id_kinds)


def merge_sums_records(a: bytes, b: bytes) -> bytes:
    """Two sums records merged (exact; any order, any tree)."""
    if a == EMPTY_SUMS_RECORD:
        return b
    if b == EMPTY_SUMS_RECORD:
        return a
    x, y = pickle.loads(a), pickle.loads(b)
    if x["bad"] or y["bad"]:
        return _record(x["n"] + y["n"], {}, True, {})
    slips = dict(y["slips"])
    slips.update(x["slips"])
    first = dict(x["first"])
    for g, at in y["first"].items():
        first[g] = at if g not in first else min(first[g], at)
    return _record(x["n"] + y["n"], merge_groups(x["groups"], y["groups"]), False, slips, x["kinds"] | y["kinds"],
                   first, x["id_kinds"] | y["id_kinds"])


def result_from_sums_record(blob: bytes, request: BatchRequest) -> Optional[Dict[str, Any]]:
    """The result from the merged record (runs on the driver): ``{metric: result}`` ``==`` [`zheval.score`][zheval.compute.joint.score] on
    the rows, plus ``"groups"`` (``{value: {metric: result}}``, in order of first appearance: each group's least
    ``first`` position) with a group column; ``None`` when a batch had a bad
    row, group values of more than one kind or ids of more than one kind (`zheval.adapters.engine_checks`; the
    caller names the row with the ordered pass). The input guards' warnings are issued once each.

    Raises:
        ValueError: no row at all (``no items to score``).
    """
    import warnings

    rec = pickle.loads(blob)
    if rec["bad"] or len(rec["kinds"]) > 1 or len(rec["id_kinds"]) > 1:  # two kinds: the ordered pass names the row
        return None
    if not rec["n"]:
        raise ValueError("no items to score: the data has no rows")
    for category, message in rec["slips"].items():
        warnings.warn(f"{message} (found in a batch's sample)", category, stacklevel=3)
    config = request.config
    total = None
    for s in rec["groups"].values():
        total = s if total is None else total.merge(s)
    out: Dict[str, Any] = dict(sums_result(total, config))
    if request.group_column is not None:
        out["groups"] = {g: sums_result(rec["groups"][g], config) for g in sorted(rec["groups"], key=rec["first"].get)}
    return out


def reducible(config, gather_items: bool, engine: str) -> bool:
    """Whether a door reduces ``config`` from sums (True) or gathers every item in row order (False, allowed by
    ``gather_items``).

    Raises:
        ValueError: an option that needs every item without ``gather_items`` (the message names the option, its
            alternative and ``gather_items=True``); the Poisson bootstrap with an option that needs every item (the
            gathered items carry no keys: the multinomial default then, or drop the option).
    """
    why = needs_every_item(config)
    if why is not None and not gather_items:
        raise ValueError(f"{engine}: {why}; or pass gather_items=True to gather every item's statistics on the "
                         "driver (its memory then grows with the rows)")
    if why is not None and config.poisson:
        raise ValueError(f"{engine}: bootstrap_method='poisson' reduces sums, but {why}; with gather_items=True "
                         "use the multinomial default (bootstrap_method='multinomial'), or drop that option")
    return why is None


@contextlib.contextmanager
def engine_errors(engine: str, kind: str):
    """A context that turns a worker's missing module (zheval, pyarrow, numpy ...) into one ``RuntimeError`` line
    naming the fix (`zheval.adapters.engine_env.worker_import_problem`; ``kind``: ``"ray"`` or ``"spark"``);
    other errors pass unchanged."""
    try:
        yield
    except Exception as exc:
        line = worker_import_problem(exc, kind)
        if line is None:
            raise
        raise RuntimeError(f"{engine}: {line}") from None
