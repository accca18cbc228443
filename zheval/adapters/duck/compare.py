"""Paired comparison of two systems on the same 小黄鸭 items (:func:`compare_predictions`): both scores, B − A with
its paired-bootstrap interval and sacrebleu's p-value, per group, with the notes that explain the p-value.
"""

from __future__ import annotations


from ...results.reducers import paired_bootstrap
from .config import make_config
from .inputs import run_options, as_predictions, check_by, check_dataset, group_columns, input_warnings, label_mismatch_warning
from .predictions import join_predictions
from .report import MIN_INTERVAL_ITEMS, Report, group_items, no_interval_reason
from .specs import metric_specs, report_params, report_signatures
from .statistics import item_statistics, raise_unscorable, unscorable_problems

__all__ = ["compare_predictions", "P_VALUE_NOTE", "NO_DIFFERENCE_NOTE"]

#: How ``compare`` explains its p-value (sacrebleu 2.6.0 ``_paired_bs_test``, kept exactly).
P_VALUE_NOTE = (
    "p: sacrebleu's paired-bootstrap p-value = (1 + number of resamples whose |B − A|, shifted to mean 0, is strictly "
    "larger than the observed |B − A|) / ({n} + 1): the chance of a difference at least this large if A and B were "
    "equally good. The +1 makes {pmin:.4f} the smallest possible p, which is also what a zero difference gets."
)
#: Added when the observed difference is exactly 0 in some row, where that minimal p means nothing.
NO_DIFFERENCE_NOTE = (
    "no difference: the systems' outputs score identically for {where} (B − A = 0). The p shown there "
    "({pmin:.4f} when every resample ties too) is an artefact of the convention above (no resample can exceed 0 "
    "strictly, and the +1 keeps p above 0), not evidence of a difference."
)


def compare_predictions(
    ds,
    predictions_a,
    predictions_b,
    **options,
) -> Report:
    """Paired bootstrap comparison of system B against system A (baseline) on the same items.

    For each group (overall, then ``by``) and metric: both systems' scores, ``delta = B − A``, the percentile
    interval of the resampled difference, and sacrebleu's paired-bootstrap p-value
    (:func:`zheval.results.reducers.paired_bootstrap`; same resampled items for both systems, ``bootstrap`` resamples, seeded).
    sacrebleu's convention (a strict ``>`` and +1 smoothing) gives p = 1/(bootstrap + 1), its smallest value, when
    the difference is exactly 0 (e.g. two identical systems); such rows get ``no_difference: True`` and a note
    saying so plainly (:data:`NO_DIFFERENCE_NOTE`), while ``p_value`` stays sacrebleu's number.

    A group with fewer than 2 items gets no interval and no p-value (``delta_low``/``delta_high``/``p_value``
    ``None``, ``no_interval`` says why): resampling one item always gives the observed difference, and sacrebleu's
    p would be its minimum, which would read as significant.

    Args:
        ds: the dataset; predictions_a / predictions_b: as ``predictions`` of
            :func:`~zheval.adapters.duck.evaluate.evaluate_predictions`; other arguments as there (``bootstrap`` must
            be ≥ 1; ``progress`` shows a bar over the resamples).

    Returns:
        A :class:`~zheval.adapters.duck.report.Report` with ``kind="compare"`` and ``comparison`` rows.

    Raises:
        ValueError: ``bootstrap`` < 1; errors of :func:`~zheval.adapters.duck.evaluate.evaluate_predictions` for
            either file.
    """
    o, scoring_options = run_options(options, by=(), label_check="strict", predictions_format="auto")
    by, bootstrap, seed, confidence, num_proc, progress, locations, label_check, predictions_format = (o.by, o.bootstrap, o.seed, o.confidence, o.num_proc, o.progress, o.locations, o.label_check, o.predictions_format)
    check_dataset(ds, "compare_predictions")
    by = check_by(ds, by)
    if not bootstrap or bootstrap < 1:
        raise ValueError("a paired comparison needs bootstrap ≥ 1 resamples")
    cfg = make_config(**scoring_options)
    names, tables, warnings = [], [], []
    for p in (predictions_a, predictions_b):
        which = "AB"[len(tables)]
        p, name = as_predictions(p, predictions_format)
        names.append(name)
        preds = join_predictions(ds, p, normalize=cfg.tokenizer.normalizer, label_check=label_check)
        table = item_statistics(ds, preds, cfg, num_proc=num_proc, desc=f"scoring {which}").to_dict()
        if not tables:  # the references are the same for both systems: checked once
            raise_unscorable(unscorable_problems(table, table["responses"], cfg.tokenizer, table["id"], locations))
        tables.append(table)
        lw = label_mismatch_warning(p, f"{which}: ")
        if lw:
            warnings.append(lw)
        warnings += [f"{which}: {w}" for w in input_warnings(preds, table["responses"], cfg.tokenizer)]
    specs_a, specs_b = metric_specs(tables[0], cfg), metric_specs(tables[1], cfg)
    rows = []
    groups = group_items(group_columns(ds, by), by, len(ds))
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(groups) * len(specs_a) * int(bootstrap), desc="paired bootstrap", unit="resample",
                   unit_scale=True, leave=False)
    for dim, label, idx in groups:
        gname = "overall" if dim == "overall" else f"{dim}={label}"
        for sa, sb in zip(specs_a, specs_b):
            a, b = float(sa.point(idx)), float(sb.point(idx))
            if len(idx) >= MIN_INTERVAL_ITEMS:
                res = paired_bootstrap(sa.rows[idx], sb.rows[idx], sa.from_sums, int(bootstrap), confidence, seed)
            else:
                res = {"delta_low": None, "delta_high": None, "p_value": None, "n_resamples": int(bootstrap),
                       "seed": seed, "no_interval": no_interval_reason(len(idx))}
            if bar is not None:
                bar.update(int(bootstrap))
            res.update({"score_a": a, "score_b": b, "delta": b - a, "no_difference": a == b})
            rows.append({"group": gname, "n": int(len(idx)), "metric": sa.name, "label": sa.label, **res})
    if bar is not None:
        bar.close()
    refs = tables[0]["responses"]
    notes = [P_VALUE_NOTE.format(n=int(bootstrap), pmin=1 / (int(bootstrap) + 1))]
    small = sorted({r["group"] for r in rows if r.get("no_interval")})
    if small:
        notes.append(f"no interval and no p-value for {', '.join(small)}: {no_interval_reason(None)}")
    ties = [f"{r['label']} ({r['group']})" for r in rows if r["no_difference"]]
    if ties:
        notes.append(NO_DIFFERENCE_NOTE.format(where=", ".join(ties), pmin=1 / (int(bootstrap) + 1)))
    return Report(
        kind="compare",
        title=f"zheval compare: A = {names[0]}, B = {names[1]} ({len(ds)} items)",
        metrics=[(s.name, s.label) for s in specs_a],
        comparison=rows,
        signatures=report_signatures(cfg, [len(r) for r in refs], bootstrap, seed, confidence),
        params={**report_params(cfg, bootstrap, seed, confidence, num_proc, by), "a": names[0], "b": names[1]},
        notes=notes,
        warnings=warnings,
    )
