"""Score a model's predictions on a 小黄鸭 dataset (:func:`evaluate_predictions`): overall, per domain, per
difficulty, with bootstrap intervals.

Data flow::

    Dataset + predictions ──map(batched, num_proc)──▶ per-item statistics ──▶ groups ──▶ scores + bootstrap intervals
                            (duck.statistics)                                (duck.specs, duck.report)

The options are resolved once (:mod:`~zheval.adapters.duck.config`), the per-item statistics computed with
``Dataset.map`` (:mod:`~zheval.adapters.duck.statistics`), reduced per group (overall, per domain, per difficulty;
``null`` is its own group) with percentile bootstrap intervals over items (:mod:`~zheval.adapters.duck.specs`,
:mod:`zheval.adapters.duck.report`). The other entry points on the same statistics:
:func:`zheval.adapters.duck.ceiling.human_ceiling`, :func:`zheval.adapters.duck.compare.compare_predictions`.
"""

from __future__ import annotations


from ...definitions.bleu_score import score_stats
from ...results.diagnostics import compute_diagnostics
from .config import ScoreConfig, make_config
from .inputs import run_options, as_predictions, check_by, check_dataset, group_columns, input_warnings, label_mismatch_warning
from .predictions import join_predictions
from .report import Report, group_items, score_groups
from .specs import metric_specs, report_params, report_signatures
from .statistics import item_statistics, raise_unscorable, unscorable_problems

__all__ = ["evaluate_predictions"]

def evaluate_predictions(
    ds,
    predictions,
    **options,
) -> Report:
    """Score a model's predictions on a 小黄鸭 dataset: overall, per domain, per difficulty, with intervals.

    Args:
        ds: a 小黄鸭 ``Dataset`` (:func:`~zheval.adapters.duck.load.load_duck`, optionally cleaned).
        predictions: a path (JSONL with ``id``+``prediction``, LLaMA-Factory ``generated_predictions.jsonl``, or
            plain text in dataset order), a :class:`~zheval.adapters.duck.predictions.Predictions`, a list in dataset
            order, or an ``{id: prediction}`` dict (see :func:`~zheval.adapters.duck.predictions.join_predictions`).
        scoring_options: the scoring options of :func:`~zheval.adapters.duck.config.make_config` (``tokenizer``,
            ``metrics``, ``rouge_types``, ``multi_ref``, ``sentence_split``, ``bleu_options`` and the tokenizer
            options; defaults: char tokenizer, corpus BLEU-4 with sacrebleu's exp smoothing, ROUGE-1/2/L F with the
            max-over-references rule).
        by: group columns (default domain and difficulty; ``null`` values form their own group).
        bootstrap: resamples for the 95% percentile intervals (default 1000; 0 = none); seed; confidence.
        num_proc: ``map`` worker processes; results are identical for any value.
        keep_items: put per-item scores into the report (``Report.items``).
        progress: show a progress bar over the bootstrap resamples (``map`` shows its own).
        locations: optional ``{item id: (path, line)}`` of the 小黄鸭 file, so problems name ``file:line``.
        label_check: LLaMA-Factory label check of
            :func:`~zheval.adapters.duck.predictions.join_predictions` (``strict``, ``warn``, ``off``).
        predictions_format: ``format`` of :func:`~zheval.adapters.duck.predictions.read_predictions` for a path
            (``auto``, ``jsonl``, ``text``).

    Returns:
        A :class:`~zheval.adapters.duck.report.Report` (``kind="score"``); scores on 0–1. A group with fewer than 2 items has
        no interval (``low``/``high`` ``None`` and a ``no_interval`` reason).

    Raises:
        PredictionMismatchError (ValueError): predictions do not match the dataset (counts, first missing/extra ids;
            LLaMA-Factory labels that mostly match no reference).
        DuckFormatError (ValueError): a malformed predictions file (file:line); references that are empty after
            normalisation or have no tokens (every one listed, by file:line with ``locations``).
        ValueError/TypeError: bad options.
    """
    o, scoring_options = run_options(options, keep_items=False, label_check="strict", predictions_format="auto")
    by, bootstrap, seed, confidence, num_proc, progress, locations, keep_items, label_check, predictions_format = (o.by, o.bootstrap, o.seed, o.confidence, o.num_proc, o.progress, o.locations, o.keep_items, o.label_check, o.predictions_format)
    check_dataset(ds, "evaluate_predictions")
    by = check_by(ds, by)
    cfg = make_config(**scoring_options)
    predictions, source = as_predictions(predictions, predictions_format)
    preds = join_predictions(ds, predictions, normalize=cfg.tokenizer.normalizer, label_check=label_check)
    scored = item_statistics(ds, preds, cfg, num_proc=num_proc, desc="scoring")
    table = scored.to_dict()
    refs = table["responses"]
    raise_unscorable(unscorable_problems(table, refs, cfg.tokenizer, table["id"], locations))
    specs = metric_specs(table, cfg)
    groups = score_groups(specs, group_items(group_columns(ds, by), by, len(ds)), bootstrap, seed, confidence, progress)
    diag = compute_diagnostics(preds, refs, table["id"], normalize=cfg.tokenizer.normalizer)
    warnings = list(diag.warnings) + input_warnings(preds, refs, cfg.tokenizer)
    label_warning = label_mismatch_warning(predictions)
    if label_warning:
        warnings.append(label_warning)
    report = Report(
        kind="score",
        title=f"zheval score: {len(ds)} items, predictions {source}",
        metrics=[(s.name, s.label) for s in specs],
        groups=groups,
        diagnostics=diag,
        signatures=report_signatures(cfg, [len(r) for r in refs], bootstrap, seed, confidence),
        params=report_params(cfg, bootstrap, seed, confidence, num_proc, by),
        warnings=warnings,
    )
    if keep_items:
        report.items = _items(table, cfg, preds)
    return report


def _items(table: dict, cfg: ScoreConfig, preds) -> list:
    opts = cfg.score_options
    out = []
    for i, rid in enumerate(table["id"]):
        row = {"id": rid, "prediction": preds[i]}
        if "bleu" in cfg.metrics:
            row["bleu_stats"] = list(table["bleu_stats"][i])
            row["sentence_bleu"] = score_stats(table["bleu_stats"][i], **{**opts, "effective_order": True}).score
        for rt in cfg.rouge_config.types if "rouge" in cfg.metrics else ():
            row[rt] = table[f"{rt}_fmeasure"][i]
        out.append(row)
    return out
