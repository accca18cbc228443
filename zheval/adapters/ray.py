"""Score a Ray Dataset where it lives: [`score_dataset`][zheval.adapters.ray.score_dataset] (the ``ray`` extra: ``pip install "zheval[ray]"``).

Results that need only sums (means, corpus statistics, the Poisson bootstrap: every option but those
`zheval.compute.sums.needs_every_item` names) are reduced where the data lives: ``Dataset.map_batches`` turns
each block into one record of partial sums on the workers and ``Dataset.aggregate`` merges them
(`zheval.adapters.ray_reduce`), so the driver receives O(groups x metrics) numbers whatever the number of rows.
The options that need every item (the multinomial bootstrap, presets' own numbers, per-item lists) are refused unless
``gather_items=True``: then each block sends one record of per-item statistics (never its texts) and the driver
reduces them in row order (`zheval.adapters.engine_batches.reduce_records`), holding every item's statistics;
that pass runs with Ray's ``preserve_order`` execution option (set on the Dataset's context and restored after).
Either way the numbers are ``==`` [`zheval.score`][zheval.compute.joint.score] on the same rows (with the Poisson bootstrap:
[`zheval.score_batches`][zheval.compute.batches.score_batches]'s intervals).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

from ..compute.options import BleuOptions, ChrfOptions, RougeOptions
from .engine_batches import (BatchRequest, PackedRequest, batch_record, batch_with_scores, engine_door_doc,
                             prepare_request, reduce_records)
from .engine_checks import check_door_args, duplicate_id_message, id_text, refuse_nested_group
from .engine_sums import SUMS_DOOR_ARGS, engine_errors, reducible
from .extras import require_extra
from .ray_reduce import preserving_order, reduce_dataset

__all__ = ["score_dataset"]

ENGINE = "zheval.adapters.ray.score_dataset"
RECORD_COLUMN = "zheval_record"


def _records(table, packed: PackedRequest):
    import pyarrow as pa

    return pa.table({RECORD_COLUMN: pa.array([batch_record(table, packed.unpack())], type=pa.binary())})


def _with_scores(table, packed: PackedRequest):
    return batch_with_scores(table, packed.unpack())


def score_dataset(
    dataset: Any,
    *,
    prediction_column: str = "prediction",
    references_column: str = "references",
    group_column: Optional[str] = None,
    id_column: Optional[str] = None,
    per_item: bool = False,
    metrics: Sequence[str] = ("bleu", "rouge"),
    batch_size: Optional[int] = 10_000,
    gather_items: bool = False,
    rouge: Optional[RougeOptions] = None,
    bleu: Optional[BleuOptions] = None,
    chrf: Optional[ChrfOptions] = None,
    **options: Any,
):
    # the docstring is engine_batches.ENGINE_DOOR_DOC, shared with the Spark door (set below)
    check_door_args(ENGINE, per_item=per_item, gather_items=gather_items, batch_size=batch_size)
    ray_data = require_extra("ray.data", extra="ray", purpose=ENGINE)
    ray_cloudpickle = require_extra("ray.cloudpickle", extra="ray", purpose=ENGINE)
    if not isinstance(dataset, ray_data.Dataset):
        raise TypeError(f"{ENGINE}: dataset must be a ray.data.Dataset, got {type(dataset).__name__}")
    schema = _schema(dataset)
    if schema is None:  # a Dataset of no rows has no schema (ray.data.from_items([]))
        raise ValueError(f"{ENGINE}: no items to score: the Dataset has no rows")
    request, packed = prepare_request(
        ENGINE, metrics, options, {"rouge": rouge, "bleu": bleu, "chrf": chrf},
        {"prediction_column": prediction_column, "references_column": references_column,
         "group_column": group_column, "id_column": id_column},
        lambda: schema.names, per_item, ray_cloudpickle.dumps)
    if group_column is not None:
        refuse_nested_group(ENGINE, group_column, _nested_type(schema, group_column))
    sums = reducible(request.config, gather_items, ENGINE)
    with engine_errors(ENGINE, "ray"):
        if id_column is not None:
            _refuse_duplicate_ids(dataset, id_column, batch_size)
        result = None
        if sums:
            result = reduce_dataset(dataset.select_columns(request.columns), packed, batch_size=batch_size)
        if result is None:  # items gathered, or a bad row to name by its index: the ordered pass
            result = _ordered_result(dataset, request, packed, batch_size)
    if not per_item:
        return result
    scored = dataset.map_batches(_with_scores, batch_size=batch_size, batch_format="pyarrow",
                                 fn_kwargs={"packed": packed})
    return result, scored


def _id_texts(table, column: str):
    """The id column as the ids' text forms (runs on a worker; `zheval.adapters.engine_checks.id_text`: ``7`` ->
    ``"7"``; ``None`` for a value the id rule refuses, named later by the scoring pass): an Arrow string column Ray
    can group, whatever the column held (a column of Python objects cannot be a group key)."""
    import pyarrow as pa

    return pa.table({column: pa.array([id_text(v) for v in table.column(column).to_pylist()], type=pa.string())})


def _refuse_duplicate_ids(dataset, column: str, batch_size) -> None:
    """Raise ``ValueError`` naming a duplicated id -- by the ids' text forms, the CLI's rule (``7`` and ``"7"`` are
    one id) -- found where the data lives: the workers map the column to its text forms (`_id_texts`) and Ray's
    ``groupby(id).count()`` counts them (a few rows reach the driver); on a duplicate its first two rows are found by
    streaming the id column in order."""
    texts = dataset.select_columns([column]).map_batches(_id_texts, batch_size=batch_size, batch_format="pyarrow",
                                                          fn_kwargs={"column": column})
    counts = texts.groupby(column).count()
    dups = counts.filter(lambda r: r[column] is not None and r["count()"] > 1).take(4)
    if not dups:
        return
    value, count = dups[0][column], dups[0]["count()"]
    ids = dataset.select_columns([column])
    rows, values, offset = [], [], 0
    with preserving_order(ids):
        for batch in ids.iter_batches(batch_size=batch_size, batch_format="pyarrow"):
            for i, v in enumerate(batch.column(column).to_pylist()):
                if len(rows) < 2 and id_text(v) == value:
                    rows.append(offset + i)
                    values.append(v)
            offset += batch.num_rows
            if len(rows) == 2:
                break
    raise ValueError(f"{ENGINE}: {duplicate_id_message(column, value, count, rows, len(dups) - 1, values)}")


def _schema(dataset):
    """The Dataset's schema (``None``: no rows), or one line when its blocks disagree on a column's type (Ray's
    ``schema()`` raises pyarrow's bare ``ArrowTypeError``)."""
    import pyarrow as pa

    try:
        return dataset.schema()
    except (pa.ArrowTypeError, pa.ArrowInvalid) as exc:
        raise TypeError(f"{ENGINE}: the Dataset's blocks do not agree on a column's type ({exc}); cast the column to "
                        "one type in every block first (map_batches): e.g. a group column with 0 in one block and '0' "
                        "in another would be two groups here and one group '0' at the CLI") from None


def _nested_type(schema, column: str):
    """The Arrow type of ``column`` when it is nested (a list, a struct, a map), else ``None`` (a Python-object
    column's values are checked on the workers)."""
    import pyarrow as pa

    kind = dict(zip(schema.names, schema.types)).get(column)
    return str(kind) if isinstance(kind, pa.DataType) and pa.types.is_nested(kind) else None


def _ordered_result(dataset, request: BatchRequest, packed: PackedRequest, batch_size) -> Dict[str, Any]:
    """The records of every block in the Dataset's order, reduced on the driver (items gathered; bad rows named)."""
    stats = dataset.select_columns(request.columns).map_batches(
        _records, batch_size=batch_size, batch_format="pyarrow", fn_kwargs={"packed": packed},
        zero_copy_batch=True)
    with preserving_order(stats):  # records are reduced as they stream in (block order), never all held at once
        blobs = (blob for batch in stats.iter_batches(batch_size=None, batch_format="pyarrow")
                 for blob in batch.column(RECORD_COLUMN).to_pylist())
        return reduce_records(blobs, request, ENGINE)


score_dataset.__doc__ = engine_door_doc(dict(
    a_data="a Ray Dataset", workers="workers", data="dataset", data_type="a ``ray.data.Dataset``",
    list_type="a ``list<string>``", null="``None``", row_order="", per_item_data="a lazy Dataset", dtype="float64",
    when_used="when it is consumed",
    extra_args=("\n        batch_size: rows per ``map_batches`` batch (default 10,000, as Spark's Arrow batches: a worker"
                " holds one\n            batch's texts and statistics at a time; ``None``: one batch per block, whatever"
                " its size)." + SUMS_DOOR_ARGS),
    per_item_kind="Dataset", engine_name="Ray", extra="ray",
    batch_size_check=", a ``batch_size`` that is not a positive int or ``None``: ``0``, negative, a float, a bool",
    follows="Ray Data's ``map_batches`` and ``Dataset.aggregate`` with an ``AggregateFnV2`` (ray 2.60, ``ray/data/dataset.py``, ``ray/data/aggregate.py``)"))
