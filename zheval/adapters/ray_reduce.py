"""The Ray door's reduction where the data lives (`reduce_dataset`): ``Dataset.map_batches`` turns each block
into one sums record on the workers (`zheval.adapters.engine_sums.sums_record`), and ``Dataset.aggregate``
with an ``AggregateFnV2`` (ray.data.aggregate, Ray 2.60) merges them -- Ray's own aggregation, no shuffle of ours --
so only the merged record (O(groups x metrics)) reaches the driver."""

from __future__ import annotations

from typing import Any, Dict, Optional

from .engine_batches import PackedRequest
from .engine_sums import EMPTY_SUMS_RECORD, merge_sums_records, result_from_sums_record, sums_record

__all__ = ["SUMS_COLUMN", "reduce_dataset"]

SUMS_COLUMN = "zheval_sums"


def _sums_block(table, packed: PackedRequest):
    import pyarrow as pa

    return pa.table({SUMS_COLUMN: pa.array([sums_record(table, packed.unpack())], type=pa.binary())})


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
    merged = sums.aggregate(_merger())
    blob = merged.get(SUMS_COLUMN) if merged is not None else None  # None too: a schema but no row
    blob = EMPTY_SUMS_RECORD if blob is None else blob
    if stats is not None:
        stats["bytes_to_driver"] = len(blob)
    return result_from_sums_record(blob, packed.unpack())
