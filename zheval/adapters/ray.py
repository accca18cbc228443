"""Score a Ray Dataset where it lives: [`score_dataset`][zheval.adapters.ray.score_dataset] (the ``ray`` extra: ``pip install "zheval[ray]"``).

``Dataset.map_batches`` runs [`zheval.compute.joint.score_items`][] on each block on the workers (as Ray tasks, one
per block, ``batch_format="pyarrow"``); each block sends back one record of per-item statistics (never its texts),
and the driver reduces the records in row order with the library's reducers
(`zheval.adapters.engine_batches.reduce_records`): the numbers are ``==`` [`zheval.score`][zheval.compute.joint.score] on the same rows.
Row order is the Dataset's own order: the statistics pass runs with Ray's ``preserve_order`` execution option (set on
the Dataset's context for the pass and restored after), since bootstrap intervals depend on the item order.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

from ..compute.options import BleuOptions, ChrfOptions, RougeOptions
from .engine_batches import PackedRequest, batch_record, batch_with_scores, engine_door_doc, prepare_request, reduce_records
from .extras import require_extra

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
    batch_size: Optional[int] = None,
    rouge: Optional[RougeOptions] = None,
    bleu: Optional[BleuOptions] = None,
    chrf: Optional[ChrfOptions] = None,
    **options: Any,
):
    # the docstring is engine_batches.ENGINE_DOOR_DOC, shared with the Spark door (set below)
    ray_data = require_extra("ray.data", extra="ray", purpose="zheval.adapters.ray.score_dataset")
    ray_cloudpickle = require_extra("ray.cloudpickle", extra="ray", purpose=ENGINE)
    if not isinstance(dataset, ray_data.Dataset):
        raise TypeError(f"{ENGINE}: dataset must be a ray.data.Dataset, got {type(dataset).__name__}")
    request, packed = prepare_request(
        ENGINE, metrics, options, {"rouge": rouge, "bleu": bleu, "chrf": chrf},
        {"prediction_column": prediction_column, "references_column": references_column,
         "group_column": group_column, "id_column": id_column},
        lambda: dataset.schema().names, per_item, ray_cloudpickle.dumps)
    stats = dataset.select_columns(request.columns).map_batches(
        _records, batch_size=batch_size, batch_format="pyarrow", fn_kwargs={"packed": packed},
        zero_copy_batch=True)
    options_obj = stats.context.execution_options
    kept = options_obj.preserve_order
    options_obj.preserve_order = True
    try:  # records are reduced as they stream in (block order), never all held as bytes at once
        blobs = (blob for batch in stats.iter_batches(batch_size=None, batch_format="pyarrow")
                 for blob in batch.column(RECORD_COLUMN).to_pylist())
        result: Dict[str, Any] = reduce_records(blobs, request, ENGINE)
    finally:
        options_obj.preserve_order = kept
    if not per_item:
        return result
    scored = dataset.map_batches(_with_scores, batch_size=batch_size, batch_format="pyarrow",
                                 fn_kwargs={"packed": packed})
    return result, scored


score_dataset.__doc__ = engine_door_doc(dict(
    a_data="a Ray Dataset", workers="workers", data="dataset", data_type="a ``ray.data.Dataset``",
    list_type="a ``list<string>``", null="``None``", row_order="", per_item_data="a lazy Dataset", dtype="float64",
    when_used="when it is consumed",
    extra_args="\n        batch_size: rows per ``map_batches`` batch (``None``: one batch per block, Ray's default).",
    per_item_kind="Dataset", engine_name="Ray", extra="ray",
    follows="Ray Data's ``map_batches`` (ray 2.60, ``ray/data/dataset.py``)"))
