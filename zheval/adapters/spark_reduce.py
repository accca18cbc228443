"""The Spark door's reduction where the data lives (`reduce_dataframe`): ``DataFrame.mapInArrow`` turns each
Arrow batch of each partition into one sums record on the executors
(`zheval.adapters.engine_sums.sums_record`), and ``RDD.treeAggregate`` merges them on the executors in a tree
-- Spark's own aggregation, no shuffle of ours -- so only the merged record (O(groups x metrics)) reaches the driver."""

from __future__ import annotations

from typing import Any, Dict, Optional

from .engine_batches import PackedRequest
from .engine_sums import EMPTY_SUMS_RECORD, merge_sums_records, result_from_sums_record, sums_record

__all__ = ["SUMS_SCHEMA", "reduce_dataframe"]

SUMS_SCHEMA = "zheval_sums binary"


def _partition_sums(batches, packed: PackedRequest):
    """One sums record per Arrow batch of a partition, positioned at ``(partition, batch number)`` (the DataFrame's
    row order: groups come back in order of first appearance)."""
    import pyarrow as pa
    from pyspark import TaskContext

    request = packed.unpack()
    ctx = TaskContext.get()
    part = ctx.partitionId() if ctx is not None else 0
    for seq, batch in enumerate(batches):
        yield pa.RecordBatch.from_arrays([pa.array([sums_record(batch, request, (part, seq))], type=pa.binary())],
                                         names=["zheval_sums"])


def reduce_dataframe(df: Any, packed: PackedRequest, *, depth: int = 2,
                     stats: Optional[dict] = None) -> Optional[Dict[str, Any]]:
    """The result of [`zheval.score`][zheval.compute.joint.score] on ``df`` (already restricted to the request's columns) by Spark's
    ``treeAggregate``, or ``None`` when a batch had a bad row (the caller names it with the ordered pass).

    Args:
        df: a ``pyspark.sql.DataFrame``. packed: the pickled request. depth: the tree depth of ``treeAggregate``.
        stats: optional dict that receives ``bytes_to_driver`` (the merged record's size).

    Raises:
        ValueError: no rows (``no items to score``).
    """
    records = df.mapInArrow(lambda batches: _partition_sums(batches, packed), SUMS_SCHEMA).rdd.map(
        lambda row: bytes(row[0]))
    blob = records.treeAggregate(EMPTY_SUMS_RECORD, merge_sums_records, merge_sums_records, depth=depth)
    if stats is not None:
        stats["bytes_to_driver"] = len(blob)
    return result_from_sums_record(blob, packed.unpack())
