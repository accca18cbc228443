"""Score a Ray Dataset where it lives: :func:`score_dataset` (the ``ray`` extra: ``pip install "zheval[ray]"``).

Results that need only sums (means, corpus statistics, the Poisson bootstrap: every option but those
:func:`zheval.compute.sums.needs_every_item` names) are reduced where the data lives: ``Dataset.map_batches`` turns
each block into one record of partial sums on the workers and ``Dataset.aggregate`` merges them
(:mod:`zheval.adapters.ray_reduce`), so the driver receives O(groups x metrics) numbers whatever the number of rows.
The options that need every item (the multinomial bootstrap, presets' own numbers, per-item lists) are refused unless
``gather_items=True``: then each block sends one record of per-item statistics (never its texts) and the driver
reduces them in row order (:func:`zheval.adapters.engine_batches.reduce_records`), holding every item's statistics;
that pass runs with Ray's ``preserve_order`` execution option (set on the Dataset's context and restored after).
Either way the numbers are ``==`` :func:`zheval.score` on the same rows (with the Poisson bootstrap:
:func:`zheval.score_batches`'s intervals).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

from ..compute.joint import score_config
from .engine_batches import (BatchRequest, PackedRequest, batch_record, batch_with_scores, check_columns,
                             check_config, pack_request, reduce_records)
from .engine_sums import engine_errors, reducible
from .extras import require_extra
from .ray_reduce import reduce_dataset

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
    bootstrap_method: str = "multinomial",
    gather_items: bool = False,
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
        batch_size: rows per ``map_batches`` batch (default 10,000, as Spark's Arrow batches: a worker holds one
            batch's texts and statistics at a time; ``None``: one batch per block, whatever its size).
        bootstrap_method: ``"multinomial"`` (needs every item: refused unless ``gather_items``) or ``"poisson"``
            (Poisson(1) weights keyed by each item's content and id: sums, reduced by Ray; the intervals of
            :func:`zheval.score_batches` on the same rows).
        gather_items: allow the options that need every item (:func:`zheval.compute.sums.needs_every_item`: the
            multinomial bootstrap, a preset's own numbers, ``level="sentence"``, ``use_aggregator=False``): each
            block's per-item statistics then come to the driver (about 0.2-0.7 KB a row of driver memory).
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
    sums = reducible(config, bootstrap_method, gather_items, ENGINE)
    request = BatchRequest(config, prediction_column, references_column, group_column, id_column)
    schema = dataset.schema()
    if schema is None:  # a Dataset of no rows has no schema (ray.data.from_items([]))
        raise ValueError(f"{ENGINE}: no items to score: the Dataset has no rows")
    check_columns(list(schema.names), request, ENGINE, per_item=per_item)
    packed = pack_request(request, ray_cloudpickle.dumps, ENGINE)
    with engine_errors(ENGINE, "ray"):
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


def _ordered_result(dataset, request: BatchRequest, packed: PackedRequest, batch_size) -> Dict[str, Any]:
    """The records of every block in the Dataset's order, reduced on the driver (items gathered; bad rows named)."""
    stats = dataset.select_columns(request.columns).map_batches(
        _records, batch_size=batch_size, batch_format="pyarrow", fn_kwargs={"packed": packed},
        zero_copy_batch=True)
    options_obj = stats.context.execution_options
    kept = options_obj.preserve_order
    options_obj.preserve_order = True
    try:  # records are reduced as they stream in (block order), never all held as bytes at once
        blobs = (blob for batch in stats.iter_batches(batch_size=None, batch_format="pyarrow")
                 for blob in batch.column(RECORD_COLUMN).to_pylist())
        return reduce_records(blobs, request, ENGINE)
    finally:
        options_obj.preserve_order = kept
