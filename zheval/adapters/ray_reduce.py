"""The Ray door's reduction where the data lives (`reduce_dataset`): ``Dataset.map_batches`` turns each block
into one sums record on the workers (`zheval.adapters.engine_sums.sums_record`), and ``Dataset.aggregate``
with an ``AggregateFnV2`` (ray.data.aggregate, Ray 2.60) merges them -- Ray's own aggregation, no shuffle of ours --
so only the merged record (O(groups x metrics)) reaches the driver. Each record carries its groups' first rows
(task index, batch, row: `_batch_position`), so the groups come back in order of first appearance."""

from __future__ import annotations

import contextlib
from typing import Any, Dict, Optional

from .engine_batches import PackedRequest
from .engine_sums import EMPTY_SUMS_RECORD, merge_sums_records, result_from_sums_record, sums_record

__all__ = ["SUMS_COLUMN", "reduce_dataset", "preserving_order"]

SUMS_COLUMN = "zheval_sums"


def _batch_position() -> tuple:
    """``(task index, batch number in the task)`` of the batch a worker is scoring: Ray Data's ``TaskContext``
    (``ray.data._internal.execution.interfaces.task_context``, Ray 2.50-2.60) numbers the map tasks in the order of
    their input blocks when the Dataset preserves order (`preserving_order`), and a task's batches come in its
    blocks' order; the batch count is kept on the task's own context (no state outside the task)."""
    try:
        from ray.data._internal.execution.interfaces.task_context import TaskContext

        ctx = TaskContext.get_current()
    except ImportError:  # pragma: no cover - a Ray without it: every batch at (0, 0), groups then in merge order
        ctx = None
    if ctx is None:
        return (0, 0)
    seq = getattr(ctx, "_zheval_batches", 0)
    ctx._zheval_batches = seq + 1
    return (ctx.task_idx, seq)


def _sums_block(table, packed: PackedRequest):
    import pyarrow as pa

    record = sums_record(table, packed.unpack(), _batch_position())
    return pa.table({SUMS_COLUMN: pa.array([record], type=pa.binary())})


@contextlib.contextmanager
def preserving_order(dataset: Any):
    """Run what uses ``dataset`` (and the Datasets made from it) with Ray's ``preserve_order`` execution option:
    tasks then take their blocks in the Dataset's order (set on the Dataset's context, restored after)."""
    options = dataset.context.execution_options
    kept = options.preserve_order
    options.preserve_order = True
    try:
        yield
    finally:
        options.preserve_order = kept


def _merger():
    from ray.data.aggregate import AggregateFnV2

    class MergeSums(AggregateFnV2):
        """Merges zheval sums records (bytes): exact, associative, commutative."""

        def __init__(self):
            super().__init__(SUMS_COLUMN, zero_factory=lambda: EMPTY_SUMS_RECORD, on=SUMS_COLUMN, ignore_nulls=True)

        def aggregate_block(self, block):
            acc = EMPTY_SUMS_RECORD
            for blob in block.column(SUMS_COLUMN).to_pylist():
                acc = merge_sums_records(acc, blob)
            return acc

        def combine(self, current_accumulator, new):
            return merge_sums_records(current_accumulator, new)

    return MergeSums()


def reduce_dataset(dataset: Any, packed: PackedRequest, *, batch_size: Optional[int] = 10_000,
                   stats: Optional[dict] = None) -> Optional[Dict[str, Any]]:
    """The result of [`zheval.score`][zheval.compute.joint.score] on ``dataset`` (already restricted to the request's columns) by Ray's
    aggregation, or ``None`` when a batch had a bad row (the caller names it with the ordered pass).

    Args:
        dataset: a ``ray.data.Dataset``. packed: the pickled request. batch_size: rows per ``map_batches`` batch (``None``: one per block).
        stats: optional dict that receives ``bytes_to_driver`` (the merged record's size).

    Raises:
        ValueError: no rows (``no items to score``).
    """
    sums = dataset.map_batches(_sums_block, batch_size=batch_size, batch_format="pyarrow",
                               fn_kwargs={"packed": packed}, zero_copy_batch=True)
    with preserving_order(sums):  # the task indices follow the blocks' order: groups by first appearance
        merged = sums.aggregate(_merger())
    blob = merged.get(SUMS_COLUMN) if merged is not None else None  # None too: a schema but no row
    blob = EMPTY_SUMS_RECORD if blob is None else blob
    if stats is not None:
        stats["bytes_to_driver"] = len(blob)
    return result_from_sums_record(blob, packed.unpack())
