"""Glue between the zheval metric scripts and evaluate 0.4.6's ``EvaluationModule`` (shared by
``metrics/chinese_rouge`` and ``metrics/chinese_bleu``).

evaluate picks a feature set from the first item and coerces the rest, swallows unknown ``evaluate.load`` keyword
arguments, and loses every stored batch when ``_compute`` fails. These helpers make the metric modules check
everything before evaluate stores or consumes anything, hand evaluate only the canonical input form (every item a
list of reference strings), and put stored items back after a failure inside ``_compute``.
"""

from __future__ import annotations

import numbers
import os

from ..gcpause import no_cyclic_gc  # re-exported for the metric scripts
from ..inputs import validate_inputs

__all__ = [
    "EVALUATE_INIT_ARGS",
    "refuse_load_options",
    "check_seed_and_confidence",
    "canonical_inputs",
    "store_canonical",
    "compute_keeping_batches",
    "nothing_stored",
    "no_cyclic_gc",
]

#: evaluate 0.4.6's own constructor parameters (EvaluationModule.__init__; evaluate.load passes config_name,
#: process_id, num_process, cache_dir, keep_in_memory, experiment_id, hash, and forwards any other keyword).
EVALUATE_INIT_ARGS = (
    "config_name",
    "keep_in_memory",
    "cache_dir",
    "num_process",
    "process_id",
    "seed",
    "experiment_id",
    "hash",
    "max_concurrent_cache_files",
    "timeout",
)


def refuse_load_options(name, kwargs):
    """TypeError for keyword arguments of evaluate.load() that evaluate would silently swallow."""
    unknown = sorted(k for k in kwargs if k not in EVALUATE_INIT_ARGS)
    if unknown:
        raise TypeError(
            f"evaluate.load({name!r}, ...) got unknown argument(s) {unknown}, which evaluate would silently ignore. "
            f"Scoring options go to compute(), e.g. {name}.compute(predictions=..., references=..., "
            f"{unknown[0]}=...). evaluate.load takes only evaluate's own arguments: {', '.join(EVALUATE_INIT_ARGS)} "
            "(its seed seeds evaluate's global RNG around compute; the bootstrap seed is compute(seed=...))."
        )


def check_seed_and_confidence(opts):
    seed = opts.get("seed", 12345)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an int (it seeds the bootstrap), got {type(seed).__name__} {seed!r}")
    confidence = opts.get("confidence", 0.95)
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or not 0 < confidence < 1:
        raise ValueError(f"confidence must be a number in (0, 1), got {confidence!r}")


def canonical_inputs(predictions, references, single=False):
    """:func:`zheval.inputs.validate_inputs` (TypeError/ValueError naming the item; lone surrogates, which Arrow
    cannot store, included); returns predictions as list[str] and references as list[list[str]] -- the only form
    handed to evaluate, so its feature set is always the list one and string and list references mix freely across
    items and batches. ``single=True`` (``add()``) names the item ``prediction``/``reference``."""
    if not single:
        return validate_inputs(predictions, references)
    try:
        return validate_inputs(predictions, references)
    except (TypeError, ValueError) as exc:
        msg = str(exc).replace("predictions[0]", "prediction").replace("references[0]", "reference")
        raise type(exc)(msg) from None


def store_canonical(module, predictions, references):
    """Store a batch that :func:`canonical_inputs` returned, as evaluate 0.4.6's ``add_batch`` stores it.

    evaluate's ``add_batch`` picks the feature set from the first item, checks the first item's types, runs
    ``Features.encode_batch`` (a Python call per item and per reference) and writes the batch. For canonical inputs
    (``list[str]``, ``list[list[str]]``, checked in full) the feature set is the list one and ``encode_batch``
    returns the same strings and lists, so the batch is written as it is: the stored Arrow data are identical.
    """
    batch = {"predictions": predictions, "references": references}
    if module.writer is None:
        module.selected_feature_format = module._infer_feature_from_batch(batch)
        module._init_writer()
    module.writer.write_batch(batch)


def compute_keeping_batches(module, compute, predictions, references, kwargs):
    """Run evaluate's compute; if it fails inside _compute, put the items stored before this call back.

    ``predictions``/``references`` are this call's inputs in canonical form (:func:`canonical_inputs`) or both
    ``None``; they are stored with :func:`store_canonical` (not checked and encoded a second time by evaluate's
    ``add_batch``), then evaluate's ``compute`` runs on everything stored. When they are all the data (one process,
    nothing stored before), ``_compute`` gets them directly: the Arrow round trip would return the same lists.

    evaluate has already read (and, on disk, deleted the lock of) the stored items when _compute runs, so a failure
    there -- an error that depends on the data, e.g. a reference empty after normalisation -- would lose every
    batch. The items stored before the call are re-added; this call's own items are not (a failed compute leaves
    the state it found). Single process only: with num_process > 1 the shards of the other ranks are gone.
    """
    if predictions is None and references is None and len(module) == 0 and module.num_process == 1:
        raise ValueError(
            "no items to score: compute() got no predictions/references and none were stored with add()/add_batch()"
        )
    n_before = len(module)
    module._zheval_inputs = None
    if predictions is not None and _holds_nothing(module):
        # This call's inputs are all the data (one process, nothing stored): what evaluate's compute would write to
        # Arrow and read back is exactly these canonical lists, so _compute gets them directly -- under evaluate's
        # seed, with evaluate's per-call state reset as its compute resets it. Nothing is stored, so a failure
        # leaves the module as it was.
        from evaluate.module import temp_seed

        module.cache_file_name = None
        module.filelock = None
        module.selected_feature_format = None
        try:
            with temp_seed(module.seed):
                return module._compute(predictions=predictions, references=references, **kwargs)
        finally:
            module._zheval_inputs = None
    try:
        if predictions is not None or references is not None:
            store_canonical(module, predictions, references)
        return compute(predictions=None, references=None, **kwargs)
    except BaseException:
        stash = getattr(module, "_zheval_inputs", None)
        module._zheval_inputs = None
        if stash is not None and module.num_process == 1:
            _restore_items(module, stash, n_before)
        raise


def _holds_nothing(module) -> bool:
    """One process, no writer, no buffered or finalised data: evaluate 0.4.6 holds no item of this module."""
    return (module.num_process == 1 and module.writer is None and getattr(module, "buf_writer", None) is None
            and getattr(module, "data", None) is None)


def nothing_stored(module) -> bool:
    """True when a single-process module holds no stored item: this call's inputs are then all the data, and an
    error of the data raised inside ``_compute`` names the same item indices as a check of the inputs alone."""
    return module.num_process == 1 and len(module) == 0


def _restore_items(module, stash, n_keep):
    # undo what evaluate's compute did before _compute (finalise the writer, read the data, keep the file locks),
    # releasing and removing the cache file as evaluate does after a successful _compute, then store the items again
    module.data = None
    if module.buf_writer is not None:
        module.buf_writer = None
    else:
        for filelock, file_path in reversed(list(zip(module.filelocks or [], module.file_paths or []))):
            if os.path.exists(file_path):
                os.remove(file_path)
            filelock.release()
    module.file_paths = module.filelocks = None
    module.writer = None
    module.cache_file_name = None
    module.filelock = None
    module.selected_feature_format = None
    if n_keep:
        preds, refs = stash
        import evaluate

        evaluate.Metric.add_batch(
            module, predictions=list(preds[:n_keep]), references=[list(r) for r in refs[:n_keep]]
        )
