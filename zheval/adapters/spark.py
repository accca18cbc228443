"""Score a Spark DataFrame where it lives: :func:`score_dataframe` (the ``spark`` extra: ``pip install "zheval[spark]"``).

Results that need only sums (means, corpus statistics, the Poisson bootstrap: every option but those
:func:`zheval.compute.sums.needs_every_item` names) are reduced where the data lives: ``DataFrame.mapInArrow`` turns
each Arrow batch of each partition into one record of partial sums on the executors and ``RDD.treeAggregate`` merges
them (:mod:`zheval.adapters.spark_reduce`), so the driver receives O(groups x metrics) numbers whatever the number of
rows. The options that need every item are refused unless ``gather_items=True``: then each batch sends one record of
per-item statistics (never its texts) with its partition and batch number, and the driver reduces them in row order --
partition by partition, batch by batch, the DataFrame's own order -- with the library's reducers
(:func:`zheval.adapters.engine_batches.reduce_records`). Either way the numbers are ``==`` :func:`zheval.score` on the
same rows (with the Poisson bootstrap: :func:`zheval.score_batches`'s intervals).

The executors' Python must have zheval installed: Spark starts ``$PYSPARK_PYTHON`` (default ``python3``), not the
driver's interpreter; set ``PYSPARK_PYTHON`` before the session starts when zheval lives in a virtual environment (an
executor that cannot import zheval, pyarrow or numpy is one line naming it: :mod:`zheval.adapters.engine_env`).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

from ..compute.joint import score_config
from .engine_batches import (BatchRequest, PackedRequest, batch_record, batch_with_scores, check_columns,
                             check_config, pack_request, reduce_records, score_columns)
from .engine_sums import engine_errors, reducible
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
    bootstrap_method: str = "multinomial",
    gather_items: bool = False,
    **options,
):
    """Chinese BLEU and ROUGE of a Spark DataFrame, computed on its executors: the result of :func:`zheval.score`.

    Args:
        df: a ``pyspark.sql.DataFrame`` with one row per item (classic Spark; Spark Connect is not tested).
        prediction_column: the ``string`` column of predictions (a null is an error naming the row).
        references_column: an ``array<string>`` column (one or more references per row, ragged) or a ``string``
            column (one reference per row).
        group_column: optional column (any type; null is a group of its own): the result gains ``"groups"``,
            ``{value: {metric: result}}``, each equal to :func:`zheval.score` on that group's rows.
        id_column: optional column that names a row in error messages (else the row index in partition order).
        per_item: also return a DataFrame of the input rows with the per-item score columns appended
            (:func:`zheval.compute.joint.item_scores`: ``<rouge type>``, ``<type>_precision``, ``<type>_recall``,
            ``bleu``; double, 0-1), computed again on the executors when an action runs on it.
        metrics: ``"bleu"`` and/or ``"rouge"``, as :func:`zheval.score`.
        bootstrap_method: ``"multinomial"`` (needs every item: refused unless ``gather_items``) or ``"poisson"``
            (Poisson(1) weights keyed by each item's content and id: sums, reduced by ``treeAggregate``; the
            intervals of :func:`zheval.score_batches` on the same rows).
        gather_items: allow the options that need every item (:func:`zheval.compute.sums.needs_every_item`): the
            per-item statistics of every batch then come to the driver (about 0.2-0.7 KB a row of driver memory).
        options: every option of :func:`zheval.score` (tokenizer, preset, rouge_types, bootstrap, seed, ...),
            checked on the driver before any job; ``crosscheck`` is refused (its items cannot be merged).

    Returns:
        ``{metric: result}`` as :func:`zheval.score` (scores on 0-1, signature, bootstrap intervals), plus
        ``"groups"`` with ``group_column``; with ``per_item=True`` a tuple ``(result, per-item DataFrame)``.

    Raises:
        MissingExtraError: PySpark is not installed (one line naming the ``spark`` extra).
        ValueError: a column the DataFrame lacks, a per-item column name it already has, ``crosscheck``, no rows;
            the option errors of :func:`zheval.score`.
        TypeError: a tokenizer that cannot be pickled to the executors (named, with the fix); an option error.
        EmptyReferenceError, TypeError, ValueError: a row that cannot be scored, named by its row index (and id):
            ``references[1234][0]``, ``predictions[7]`` -- nothing is dropped.

    Follows :func:`zheval.score` (same numbers); PySpark's ``mapInArrow`` (pyspark 4.3, ``sql/pandas/map_ops.py``).
    """
    sql = require_extra("pyspark.sql", extra="spark", purpose=ENGINE)
    spark_cloudpickle = require_extra("pyspark.cloudpickle", extra="spark", purpose=ENGINE)
    if not isinstance(df, sql.DataFrame):
        raise TypeError(f"{ENGINE}: df must be a pyspark.sql.DataFrame, got {type(df).__name__}")
    config = score_config(metrics, **options)
    check_config(config, ENGINE)
    sums = reducible(config, bootstrap_method, gather_items, ENGINE)
    request = BatchRequest(config, prediction_column, references_column, group_column, id_column)
    check_columns(list(df.columns), request, ENGINE, per_item=per_item)
    packed = pack_request(request, spark_cloudpickle.dumps, ENGINE)
    with engine_errors(ENGINE, "spark"):
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


def _ordered_result(df, request: BatchRequest, packed: PackedRequest) -> Dict[str, Any]:
    """Every batch's record, collected and reduced in partition and batch order (items gathered; bad rows named)."""
    rows = df.select(*request.columns).mapInArrow(
        lambda batches: _partition_records(batches, packed), RECORD_SCHEMA).collect()
    rows.sort(key=lambda r: (r["zheval_partition"], r["zheval_batch"]), reverse=True)
    blobs = (bytes(rows.pop()["zheval_record"]) for _ in range(len(rows)))  # each record freed once it is read
    return reduce_records(blobs, request, ENGINE)
