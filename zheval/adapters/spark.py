"""Score a Spark DataFrame where it lives: [`score_dataframe`][zheval.adapters.spark.score_dataframe] (the ``spark`` extra: ``pip install "zheval[spark]"``).

``DataFrame.mapInArrow`` runs [`zheval.compute.joint.score_items`][] on each Arrow batch of each partition on the
executors; each batch sends back one record of per-item statistics (never its texts) with its partition and batch
number, and the driver reduces the records in row order -- partition by partition, batch by batch, which is the
DataFrame's own order -- with the library's reducers (`zheval.adapters.engine_batches.reduce_records`): the
numbers are ``==`` [`zheval.score`][zheval.compute.joint.score] on the same rows.

The executors' Python must have zheval installed: Spark starts ``$PYSPARK_PYTHON`` (default ``python3``), not the
driver's interpreter; set ``PYSPARK_PYTHON`` before the session starts when zheval lives in a virtual environment.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

from ..compute.options import BleuOptions, ChrfOptions, RougeOptions
from .engine_batches import (PackedRequest, batch_record, batch_with_scores, engine_door_doc, prepare_request,
                             reduce_records, score_columns)
from .extras import require_extra

__all__ = ["score_dataframe"]

ENGINE = "zheval.adapters.spark.score_dataframe"
RECORD_SCHEMA = "zheval_partition int, zheval_batch int, zheval_record binary"


def _partition_records(batches, packed: PackedRequest):
    """One record per Arrow batch of a partition (an empty partition gives none)."""
    import pyarrow as pa
    from pyspark import TaskContext

    request = packed.unpack()
    ctx = TaskContext.get()
    part = ctx.partitionId() if ctx is not None else 0
    seen = 0
    for batch in batches:
        yield _record_batch(pa, part, seen, batch_record(batch, request))
        seen += 1


def _record_batch(pa, part: int, seq: int, blob: bytes):
    return pa.RecordBatch.from_arrays(
        [pa.array([part], type=pa.int32()), pa.array([seq], type=pa.int32()), pa.array([blob], type=pa.binary())],
        names=["zheval_partition", "zheval_batch", "zheval_record"])


def _partition_with_scores(batches, packed: PackedRequest):
    request = packed.unpack()
    for batch in batches:
        yield from batch_with_scores(batch, request).to_batches()


def score_dataframe(
    df: Any,
    *,
    prediction_column: str = "prediction",
    references_column: str = "references",
    group_column: Optional[str] = None,
    id_column: Optional[str] = None,
    per_item: bool = False,
    metrics: Sequence[str] = ("bleu", "rouge"),
    rouge: Optional[RougeOptions] = None,
    bleu: Optional[BleuOptions] = None,
    chrf: Optional[ChrfOptions] = None,
    **options: Any,
):
    # the docstring is engine_batches.ENGINE_DOOR_DOC, shared with the Ray door (set below)
    sql = require_extra("pyspark.sql", extra="spark", purpose=ENGINE)
    spark_cloudpickle = require_extra("pyspark.cloudpickle", extra="spark", purpose=ENGINE)
    if not isinstance(df, sql.DataFrame):
        raise TypeError(f"{ENGINE}: df must be a pyspark.sql.DataFrame, got {type(df).__name__}")
    request, packed = prepare_request(
        ENGINE, metrics, options, {"rouge": rouge, "bleu": bleu, "chrf": chrf},
        {"prediction_column": prediction_column, "references_column": references_column,
         "group_column": group_column, "id_column": id_column},
        lambda: df.columns, per_item, spark_cloudpickle.dumps)
    config = request.config
    rows = df.select(*request.columns).mapInArrow(
        lambda batches: _partition_records(batches, packed), RECORD_SCHEMA).collect()
    rows.sort(key=lambda r: (r["zheval_partition"], r["zheval_batch"]), reverse=True)
    blobs = (bytes(rows.pop()["zheval_record"]) for _ in range(len(rows)))  # each record freed once it is read
    result: Dict[str, Any] = reduce_records(blobs, request, ENGINE)
    if not per_item:
        return result
    types = require_extra("pyspark.sql.types", extra="spark", purpose=ENGINE)
    schema = types.StructType(list(df.schema.fields) + [types.StructField(c, types.DoubleType(), True)
                                                         for c in score_columns(config)])
    scored = df.mapInArrow(lambda batches: _partition_with_scores(batches, packed), schema)
    return result, scored


score_dataframe.__doc__ = engine_door_doc(dict(
    a_data="a Spark DataFrame", workers="executors", data="df",
    data_type="a ``pyspark.sql.DataFrame`` (classic Spark; Spark Connect is not tested)",
    list_type="an ``array<string>``", null="null", row_order=" in partition order", per_item_data="a DataFrame",
    dtype="double", when_used="when an action runs on it", extra_args="", per_item_kind="DataFrame",
    engine_name="PySpark", extra="spark", follows="PySpark's ``mapInArrow`` (pyspark 4.3, ``sql/pandas/map_ops.py``)"))
