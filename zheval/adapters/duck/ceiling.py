"""The human ceiling of a 小黄鸭 dataset ([`human_ceiling`][zheval.adapters.duck.ceiling.human_ceiling]): each reference scored as a prediction against
the item's other references (leave-one-out), grouped and resampled by whole items.
"""

from __future__ import annotations


from typing import Any, Mapping, Optional, Sequence

from ...compute.options import BleuOptions, ChrfOptions, RougeOptions
from ...results.breakdowns import check_max_refs, reference_limit, reference_limit_notes
from .config import DEFAULT_METRICS, make_config, report_options
from .inputs import check_by, check_dataset, data_control_warnings, input_warnings
from ..report.tables import Report, group_items, interval_cautions, score_groups
from .reductions import metric_specs, report_params, report_signatures
from .evaluate import first_references_of
from .statistics import item_statistics, raise_unscorable, unscorable_problems

__all__ = ["human_ceiling", "DUPLICATE_REFERENCES"]

#: The start of the warning about items whose references repeat one another (`duplicate_reference_warning`);
#: ``zheval ceiling`` prints it on stderr too.
DUPLICATE_REFERENCES = "duplicate references inflate the ceiling: "

def human_ceiling(
    ds,
    *,
    metrics: Sequence[str] = DEFAULT_METRICS,
    tokenizer: Any = "char",
    by: Sequence[str] = ("domain", "difficulty"),
    bootstrap: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
    num_proc: Optional[int] = None,
    progress: bool = False,
    locations: Optional[Mapping[str, tuple]] = None,
    max_refs: Optional[int] = None,
    rouge: Optional[RougeOptions] = None,
    bleu: Optional[BleuOptions] = None,
    chrf: Optional[ChrfOptions] = None,
    **options: Any,
) -> Report:
    """Human ceiling: each reference in turn scored as a prediction against the item's remaining references.

    A model-free upper reference point: how well one human reply matches the others under the same metric. For an
    item with ``k ≥ 2`` references there are ``k`` leave-one-out rows (prediction = reference ``j``, references =
    the other ``k − 1``); items with fewer than 2 references are skipped and counted in the notes. Scores are those
    of all leave-one-out rows taken as one corpus (corpus BLEU of their summed statistics; mean ROUGE F over rows),
    so they equal ``compute_bleu``/``compute_rouge`` called on the flattened rows. Groups select, and the bootstrap
    resamples, whole items (all of an item's rows together). Note that a held-out reference is matched against
    ``k − 1`` references while a model is matched against ``k``, so the ceiling is slightly conservative.

    Args: as [`evaluate_predictions`][zheval.adapters.duck.evaluate.evaluate_predictions] (no predictions, no label check).

    ``max_refs`` is as there: the first ``max_refs`` references of every item are kept (then each is held out against
    the other ``max_refs − 1``), cut and counted as `evaluate_predictions` does (the report's
    ``breakdowns["reference_limit"]``, the signatures' ``maxrefs:K``).

    Returns:
        A `Report` with ``kind="ceiling"``.

    Raises:
        ValueError: no item has 2 or more references (after ``max_refs``); bad options (``max_refs`` < 1).
        DuckFormatError (ValueError): references empty after normalisation or without tokens (every one listed).
    """
    from datasets import Dataset

    scoring = report_options("human_ceiling", metrics, tokenizer, options, {"rouge": rouge, "bleu": bleu, "chrf": chrf},
                             interval=dict(bootstrap=bootstrap, seed=seed, confidence=confidence,
                                           max_refs=max_refs))
    check_dataset(ds, "human_ceiling")
    by = check_by(ds, by)
    max_refs = check_max_refs(max_refs, "max_refs")
    cfg = make_config(scoring, max_refs=max_refs)
    breakdowns = {}
    if max_refs is not None:  # as evaluate_predictions: counted before the cut, then the first max_refs kept
        breakdowns["reference_limit"] = reference_limit([len(r) for r in ds["responses"]], max_refs)
        ds = first_references_of(ds, max_refs)
    cols = ds.select_columns(["id", "responses", *by]).to_dict()
    rows, preds, clusters, kept, origin, skipped = _leave_one_out(cols)
    if not rows:
        raise ValueError("human_ceiling needs items with at least 2 references; there are none"
                         + ("; max_refs 1 keeps one reference of every item: give max_refs 2 or more, or leave it out"
                            if max_refs == 1 else ""))
    pairs = Dataset.from_list(rows)
    scored = item_statistics(pairs, preds, cfg, num_proc=num_proc, desc="ceiling")
    table = scored.to_dict()
    raise_unscorable(unscorable_problems(table, table["responses"], cfg.tokenizer, table["id"], locations, origin))
    specs = metric_specs(table, cfg, clusters=clusters)
    unit_cols = {dim: [cols[dim][i] for i in kept] for dim in by}
    groups = score_groups(specs, group_items(unit_cols, by, len(kept)), bootstrap, seed, confidence, progress)
    notes = [
        f"{len(rows)} leave-one-out rows from {len(kept)} items: each reference scored against the item's other references",
        "a held-out reference has one reference fewer than a model prediction, so the ceiling is slightly conservative",
    ]
    if skipped:
        notes.append(f"{skipped} item(s) with fewer than 2 references skipped")
    notes += reference_limit_notes(breakdowns.get("reference_limit"))  # max_refs that cut nothing, as score says it
    notes += interval_cautions(groups, specs, bootstrap)  # few resamples (as score)
    duplicates = duplicate_reference_warning(cols, kept, cfg.tokenizer.normalizer, locations)
    return Report(
        kind="ceiling",
        title=f"zheval ceiling: human agreement on {len(kept)} items ({len(rows)} leave-one-out rows)",
        metrics=[(s.name, s.label) for s in specs],
        groups=groups,
        signatures=report_signatures(cfg, [len(r["responses"]) for r in rows], bootstrap, seed, confidence),
        params=report_params(cfg, bootstrap, seed, confidence, num_proc, by),
        notes=notes,
        breakdowns=breakdowns,
        # the slips that give a wrong number without an error (a tokenizer that does not split Chinese, ...), as
        # evaluate_predictions reports them: here every held-out reference is the prediction; control characters
        # counted once per text of the data (each reference is in k leave-one-out rows), named by its file line
        warnings=input_warnings(preds, [r["responses"] for r in rows], cfg.tokenizer, controls=False)
        + data_control_warnings(_scored_references(cols, kept), cols["id"], cfg.tokenizer, locations) + duplicates,
    )


def _scored_references(cols: dict, kept: Sequence[int]) -> list:
    """Per item of the data (its index kept, so a warning names ``references[i][j]`` of the data), its references
    when the ceiling scores it (``kept``), else none."""
    scored = set(kept)
    return [refs if i in scored else [] for i, refs in enumerate(cols["responses"])]


def duplicate_reference_warning(cols: dict, kept: Sequence[int], normalize, locations=None) -> list:
    """``[message]`` when some of the ``kept`` items (indices into ``cols``, the dataset's ``id`` and ``responses``)
    have references that repeat one another, exactly or after ``normalize`` (the tokenizer's normaliser), also
    issued as a `DuplicateReferenceWarning`; else ``[]``. A held-out copy is scored against its twin (1.0), so the
    ceiling is that of the references given, copies included: counted and said, the numbers unchanged."""
    import warnings

    from ...compute.guards import DuplicateReferenceWarning

    exact, normal = [], []
    for i in kept:
        refs = cols["responses"][i]
        if len(set(refs)) < len(refs):
            exact.append(i)
        elif len({normalize(r) for r in refs}) < len(refs):
            normal.append(i)
    if not exact and not normal:
        return []
    first = min(exact + normal)
    rid = cols["id"][first]
    loc = (locations or {}).get(rid)
    where = f"{loc[0]}:{loc[1]}" if loc else f"dataset row {first}"
    message = (f"{DUPLICATE_REFERENCES}{len(exact) + len(normal)} item(s) have a reference twice ({len(exact)} "
               f"exactly, {len(normal)} equal after the tokenizer's normalisation), the first {rid!r} at {where}: "
               "each copy, held out, is scored against its twin; the scores are those of the references as given "
               "(zheval clean, clean_duck in Python, drops near duplicates)")
    warnings.warn(DuplicateReferenceWarning(message), stacklevel=3)
    return [message]


def _leave_one_out(cols: dict) -> tuple:
    """The leave-one-out rows of ``cols`` (the dataset's ``id`` and ``responses`` columns): ``(rows, predictions,
    clusters, kept, origin, skipped)`` -- for every item with ``k >= 2`` references, ``k`` rows (reference ``j``
    as the prediction, the other ``k - 1`` as its references) with their item's row indices as one cluster, the
    kept items' indices, each row's ``(item id, reference indices, item index)``, and the number of items with fewer
    than 2 references (skipped)."""
    rows, preds, clusters, kept, origin = [], [], [], [], []
    skipped = 0
    for i, rid in enumerate(cols["id"]):
        refs = cols["responses"][i]
        if len(refs) < 2:
            skipped += 1
            continue
        kept.append(i)
        start = len(rows)
        for j, r in enumerate(refs):
            rows.append({"id": f"{rid}#{j}", "responses": refs[:j] + refs[j + 1:]})
            preds.append(r)
            origin.append((rid, [k for k in range(len(refs)) if k != j], i))
        clusters.append(list(range(start, len(rows))))
    return rows, preds, clusters, kept, origin, skipped
