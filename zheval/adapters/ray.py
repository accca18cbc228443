"""Score a Ray Dataset where it lives: :func:`score_dataset` (the ``ray`` extra: ``pip install "zheval[ray]"``).

``Dataset.map_batches`` runs :func:`zheval.compute.joint.score_items` on each block on the workers (as Ray tasks, one
per block, ``batch_format="pyarrow"``); each block sends back one record of per-item statistics (never its texts),
and the driver reduces the records in row order with the library's reducers
(:func:`zheval.adapters.engine_batches.reduce_records`): the numbers are ``==`` :func:`zheval.score` on the same rows.
Row order is the Dataset's own order: the statistics pass runs with Ray's ``preserve_order`` execution option (set on
the Dataset's context for the pass and restored after), since bootstrap intervals depend on the item order.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

from ..compute.joint import score_config
from .engine_batches import (BatchRequest, PackedRequest, batch_record, batch_with_scores, check_columns,
                             check_config, pack_request, reduce_records)
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
    **options,
):
    """Chinese BLEU and ROUGE of a Ray Dataset, computed on its workers: the result of :func:`zheval.score`.

    Args:
        dataset: a ``ray.data.Dataset`` with one row per item.
        prediction_column: the ``string`` column of predictions (a null is an error naming the row).
        references_column: a ``list<string>`` column (one or more references per row, ragged) or a ``string``
            column (one reference per row).
        group_column: optional column (any type; ``None`` is a group of its own): the result gains ``"groups"``,
            ``{value: {metric: result}}``, each equal to :func:`zheval.score` on that group's rows.
        id_column: optional column that names a row in error messages (else the row index).
        per_item: also return a lazy Dataset of the input rows with the per-item score columns appended
            (:func:`zheval.compute.joint.item_scores`: ``<rouge type>``, ``<type>_precision``, ``<type>_recall``,
            ``bleu``; float64, 0-1), computed again on the workers when it is consumed.
        metrics: ``"bleu"`` and/or ``"rouge"``, as :func:`zheval.score`.
        batch_size: rows per ``map_batches`` batch (``None``: one batch per block, Ray's default).
        options: every option of :func:`zheval.score` (tokenizer, preset, rouge_types, bootstrap, seed, ...),
            checked on the driver before any work; ``crosscheck`` is refused (its items cannot be merged).

    Returns:
        ``{metric: result}`` as :func:`zheval.score` (scores on 0-1, signature, bootstrap intervals), plus
        ``"groups"`` with ``group_column``; with ``per_item=True`` a tuple ``(result, per-item Dataset)``.

    Raises:
        MissingExtraError: Ray is not installed (one line naming the ``ray`` extra).
        ValueError: a column the Dataset lacks, a per-item column name it already has, ``crosscheck``, no rows;
            the option errors of :func:`zheval.score`.
        TypeError: a tokenizer that cannot be pickled to the workers (named, with the fix); an option error.
        EmptyReferenceError, TypeError, ValueError: a row that cannot be scored, named by its row index (and id):
            ``references[1234][0]``, ``predictions[7]`` -- nothing is dropped.

    Follows :func:`zheval.score` (same numbers); Ray Data's ``map_batches`` (ray 2.60, ``ray/data/dataset.py``).
    """
    ray_data = require_extra("ray.data", extra="ray", purpose="zheval.adapters.ray.score_dataset")
    ray_cloudpickle = require_extra("ray.cloudpickle", extra="ray", purpose=ENGINE)
    if not isinstance(dataset, ray_data.Dataset):
        raise TypeError(f"{ENGINE}: dataset must be a ray.data.Dataset, got {type(dataset).__name__}")
    config = score_config(metrics, **options)
    check_config(config, ENGINE)
    request = BatchRequest(config, prediction_column, references_column, group_column, id_column)
    check_columns(list(dataset.schema().names), request, ENGINE, per_item=per_item)
    packed = pack_request(request, ray_cloudpickle.dumps, ENGINE)
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
