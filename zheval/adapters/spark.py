"""Score a Spark DataFrame where it lives: [`score_dataframe`][zheval.adapters.spark.score_dataframe] (the ``spark`` extra: ``pip install "zheval[spark]"``).

Results that need only sums (means, corpus statistics, the Poisson bootstrap: every option but those
`zheval.compute.sums.needs_every_item` names) are reduced where the data lives: ``DataFrame.mapInArrow`` turns
each Arrow batch of each partition into one record of partial sums on the executors and ``RDD.treeAggregate`` merges
them (`zheval.adapters.spark_reduce`), so the driver receives O(groups x metrics) numbers whatever the number of
rows. The options that need every item are refused unless ``gather_items=True``: then each batch sends one record of
per-item statistics (never its texts) with its partition and batch number, and the driver reduces them in row order --
partition by partition, batch by batch, the DataFrame's own order -- with the library's reducers
(`zheval.adapters.engine_batches.reduce_records`). Either way the numbers are ``==`` [`zheval.score`][zheval.compute.joint.score] on the
same rows (with the Poisson bootstrap: [`zheval.score_batches`][zheval.compute.batches.score_batches]'s intervals).

The executors' Python must have zheval installed: Spark starts ``$PYSPARK_PYTHON`` (default ``python3``), not the
driver's interpreter; set ``PYSPARK_PYTHON`` before the session starts when zheval lives in a virtual environment (an
executor that cannot import zheval, pyarrow or numpy is one line naming it: `zheval.adapters.engine_env`).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

from ..compute.options import BleuOptions, ChrfOptions, RougeOptions
from .engine_batches import (BatchRequest, PackedRequest, batch_record, batch_with_scores, engine_door_doc,
                             prepare_request, reduce_records, score_columns)
from .engine_checks import check_door_args, duplicate_id_message, refuse_nested_group
from .engine_sums import SUMS_DOOR_ARGS, engine_errors, reducible
from .extras import require_extra
from .spark_reduce import reduce_dataframe

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
    gather_items: bool = False,
    rouge: Optional[RougeOptions] = None,
    bleu: Optional[BleuOptions] = None,
    chrf: Optional[ChrfOptions] = None,
    **options: Any,
):
    # the docstring is engine_batches.ENGINE_DOOR_DOC, shared with the Ray door (set below)
    check_door_args(ENGINE, per_item=per_item, gather_items=gather_items)
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
    if group_column is not None:
        kind = df.schema[group_column].dataType
        refuse_nested_group(ENGINE, group_column,
                            kind.simpleString() if kind.typeName() in ("array", "struct", "map") else None)
    sums = reducible(config, gather_items, ENGINE)
    with engine_errors(ENGINE, "spark"):
        if id_column is not None:
            _refuse_duplicate_ids(df, id_column)
        result = reduce_dataframe(df.select(*request.columns), packed) if sums else None
        if result is None:  # items gathered, or a bad row to name by its index: the ordered pass
            result = _ordered_result(df, request, packed)
    if not per_item:
        return result
    types = require_extra("pyspark.sql.types", extra="spark", purpose=ENGINE)
    schema = types.StructType(list(df.schema.fields) + [types.StructField(c, types.DoubleType(), True)
                                                         for c in score_columns(config)])
    scored = df.mapInArrow(lambda batches: _partition_with_scores(batches, packed), schema)
    return result, scored


def _refuse_duplicate_ids(df, column: str) -> None:
    """Raise ``ValueError`` naming a duplicated id: Spark's ``groupBy(id).count()`` finds them where the data lives
    (a few rows reach the driver); on a duplicate its first two rows are found by ``zipWithIndex`` (row order). A
    Spark column holds one type, so the raw values are the CLI's rule here (`zheval.adapters.engine_checks.id_text`):
    integers are equal exactly when their decimal texts are, and ``7`` beside ``"7"`` cannot occur (the Ray door,
    whose column may hold Python objects of both kinds, groups the text forms)."""
    col = df[column]
    dups = df.where(col.isNotNull()).groupBy(col.alias("id")).count().where("count > 1").limit(4).collect()
    if not dups:
        return
    value, count = dups[0]["id"], dups[0]["count"]
    rows = (df.select(column).rdd.zipWithIndex().filter(lambda t: t[0][0] == value).map(lambda t: t[1]).take(2))
    raise ValueError(f"{ENGINE}: {duplicate_id_message(column, value, count, rows, len(dups) - 1)}")


def _ordered_result(df, request: BatchRequest, packed: PackedRequest) -> Dict[str, Any]:
    """Every batch's record, collected and reduced in partition and batch order (items gathered; bad rows named)."""
    rows = df.select(*request.columns).mapInArrow(
        lambda batches: _partition_records(batches, packed), RECORD_SCHEMA).collect()
    rows.sort(key=lambda r: (r["zheval_partition"], r["zheval_batch"]), reverse=True)
    blobs = (bytes(rows.pop()["zheval_record"]) for _ in range(len(rows)))  # each record freed once it is read
    return reduce_records(blobs, request, ENGINE)


score_dataframe.__doc__ = engine_door_doc(dict(
    a_data="a Spark DataFrame", workers="executors", data="df",
    data_type="a ``pyspark.sql.DataFrame`` (classic Spark; Spark Connect is not tested)",
    list_type="an ``array<string>``", null="null", row_order=" in partition order", per_item_data="a DataFrame",
    dtype="double", when_used="when an action runs on it", extra_args=SUMS_DOOR_ARGS, per_item_kind="DataFrame",
    engine_name="PySpark", extra="spark", follows="PySpark's ``mapInArrow`` and ``RDD.treeAggregate`` (pyspark 4.3, ``sql/pandas/map_ops.py``, ``rdd.py``)"))
