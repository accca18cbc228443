"""Score a model's predictions on a 小黄鸭 dataset ([`evaluate_predictions`][zheval.adapters.duck.evaluate.evaluate_predictions]): overall, per domain, per
difficulty, with bootstrap intervals.

Data flow:

    Dataset + predictions ──map(batched, num_proc)──▶ per-item statistics ──▶ groups ──▶ scores + bootstrap intervals
                            (duck.statistics)                                (duck.reductions, report.tables)

The options are resolved once (`config`), the per-item statistics computed with
``Dataset.map`` (`statistics`), reduced per group (overall, per domain, per difficulty;
``null`` is its own group) with percentile bootstrap intervals over items (`reductions`,
`zheval.adapters.report.tables`). The other entry points on the same statistics:
[`zheval.adapters.duck.ceiling.human_ceiling`][], [`zheval.adapters.compare.compare_predictions`][].
"""

from __future__ import annotations


import hashlib
from dataclasses import replace
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from ...compute.bleu import score_from_sums as bleu_from_sums
from ...compute.chrf import score_from_sums as chrf_from_sums
from ...results.breakdowns import (check_buckets, check_folds, check_max_refs, reference_limit,
                                   reference_limit_notes)
from ..report.breakdowns import fold_scores, group_diversity, length_buckets, truncated_mask, truncation_excluded
from ...compute.bertscore import BertScoreOptions
from ...compute.options import BleuOptions, ChrfOptions, RougeOptions
from .config import DEFAULT_METRICS, ScoreConfig, make_config, report_options
from .mismatch import group_form_notes
from .inputs import as_predictions, check_by, check_dataset, group_columns, order_notes, prediction_checks
from .predictions import join_predictions
from ..report.tables import BERTSCORE_METRIC, Report, group_items, interval_cautions, score_groups
from .reductions import (add_bertscore, bertscore_config_of, bertscore_notes, metric_specs, report_params,
                         report_signatures)
from .statistics import item_statistics, raise_unscorable, unscorable_problems

__all__ = ["evaluate_predictions", "report_config", "first_references_of"]

def evaluate_predictions(
    ds, predictions, *, metrics: Sequence[str] = DEFAULT_METRICS, tokenizer: Any = "char",
    by: Sequence[str] = ("domain", "difficulty"), bootstrap: int = 1000, seed: int = 12345, confidence: float = 0.95,
    num_proc: Optional[int] = None, progress: bool = False, locations: Optional[Mapping[str, tuple]] = None,
    keep_items: bool = False, label_check: str = "strict", predictions_format: str = "auto",
    max_refs: Optional[int] = None, buckets: Any = None, folds: Optional[int] = None,
    rouge: Optional[RougeOptions] = None, bleu: Optional[BleuOptions] = None, chrf: Optional[ChrfOptions] = None,
    bertscore: Optional[BertScoreOptions] = None, **options: Any,
) -> Report:
    """Score a model's predictions on a 小黄鸭 dataset: overall, per domain, per difficulty, with intervals.

    Args:
        ds: a 小黄鸭 ``Dataset`` (`load_duck`, optionally cleaned).
        predictions: a path (JSONL with ``id``+``prediction``, LLaMA-Factory ``generated_predictions.jsonl``, or
            plain text in dataset order), a `Predictions`, a list in dataset order, or an ``{id: prediction}`` dict.
        metrics: any of ``"bleu"``, ``"rouge"``, ``"chrf"`` (default BLEU and ROUGE).
        tokenizer: the scoring tokenizer of every metric (default ``"char"``; ``None``: the BLEU preset's).
        rouge: ROUGE's options as one [`RougeOptions`][zheval.compute.options.RougeOptions] (taken as ``options``).
        bleu: BLEU's options as one [`BleuOptions`][zheval.compute.options.BleuOptions], as ``rouge``.
        chrf: chrF's options as one [`ChrfOptions`][zheval.compute.options.ChrfOptions], as ``rouge``.
        bertscore: adds the ``bertscore_f1`` column ("BERTScore-F1": the mean of per-item F1 with a local model,
            [`zheval.compute.bertscore.compute_bertscore`][] on the scored texts, idf over their references; its
            interval a bootstrap over items, its signature ``signatures["bertscore"]``) when given as a
            [`BertScoreOptions`][zheval.compute.bertscore.BertScoreOptions]; ``None`` (default): no model, no torch.
        options: the same options by name, each defined once in `zheval.compute.options` and split by
            `report_options`: the report takes ROUGE's ``rouge_types``, ``multi_ref``, ``sentence_split``, BLEU's
            ``preset``, ``max_order``, smoothing, ``bp_ref_length``, ``effective_order``, ``weights``, chrF's orders,
            ``beta``, ``eps_smoothing`` and the tokenizer options (`REPORT_FIELDS`); defaults: corpus BLEU-4 with
            sacrebleu's exp smoothing, ROUGE-1/2/L F with the max-over-references rule.
        by: group columns (default domain and difficulty; ``null`` values form their own group).
        bootstrap: resamples for the percentile intervals (default 1000; 0 = none).
        seed: the bootstrap's seed.
        confidence: the intervals' confidence level (default 0.95, 95%).
        num_proc: ``map`` worker processes; results are identical for any value.
        keep_items: put per-item scores into the report (``Report.items``).
        progress: show a progress bar over the bootstrap resamples (``map`` shows its own).
        locations: optional ``{item id: (path, line)}`` of the 小黄鸭 file, so problems name ``file:line``.
        label_check: LLaMA-Factory label check of `join_predictions` (``strict``, ``warn``, ``off``).
        predictions_format: ``format`` of `read_predictions` for a path (``auto``, ``jsonl``, ``text``).
        max_refs: score with the first ``max_refs`` references of every item (items with fewer keep theirs; the
            report's ``breakdowns["reference_limit"]`` counts the items with fewer and the items cut; the
            signatures carry ``maxrefs:K``). Default ``None``: every reference.
        buckets: scores per reference-length bucket (``breakdowns["length_buckets"]``): ``True`` for the default
            edges `zheval.results.breakdowns.DEFAULT_BUCKETS`, or increasing edges in tokens (``(10, 20,
            50)`` or ``"10,20,50"``). Default ``None``: none.
        folds: ``k`` >= 2: the scores of ``k`` random folds (seeded with ``seed``) with their mean, standard
            deviation, largest deviation and the folds outside the overall interval (``breakdowns["folds"]``).

    Always in the report (``Report.breakdowns``): ``truncation_excluded`` (the scores per group without the
    truncated predictions, with the number excluded, next to -- never instead of -- the scores on all items) and
    ``diversity`` (Distinct-1/2 of predictions and references and the repeated predictions, per group). See
    `zheval.adapters.report.breakdowns` and ``docs/diagnostics.md``.

    Returns:
        A `Report` (``kind="score"``); scores on 0–1. A group with fewer than 2 items has no interval
        (``low``/``high`` ``None`` and a ``no_interval`` reason).

    Raises:
        PredictionMismatchError (ValueError): predictions do not match the dataset (counts, first missing/extra ids;
            LLaMA-Factory labels that mostly match no reference).
        DuckFormatError (ValueError): a malformed predictions file (file:line); references that are empty after
            normalisation or have no tokens (every one listed, by file:line with ``locations``).
        ValueError/TypeError: bad options, naming the option and the value as given: ``bootstrap``, ``seed``,
            ``confidence``, ``max_refs`` checked as by ``compute_*`` (``bootstrap=10.7`` refused), ``buckets`` not
            increasing, ``folds`` < 2 or above the items, an option the report does not take or no metric uses, or
            that would change nothing (`report_options`); ``bertscore`` not a ``BertScoreOptions``, its model not a
            local directory (FileNotFoundError).
    """
    scoring = report_options("evaluate_predictions", metrics, tokenizer, options,
                             {"rouge": rouge, "bleu": bleu, "chrf": chrf},
                             interval=dict(bootstrap=bootstrap, seed=seed, confidence=confidence, folds=folds,
                                           max_refs=max_refs))
    check_dataset(ds, "evaluate_predictions")
    by, max_refs, whole = check_by(ds, by), _check_breakdowns(ds, max_refs, buckets, folds), ds
    cfg = make_config(scoring, max_refs=max_refs)
    bert, breakdowns = bertscore_config_of(bertscore, "evaluate_predictions"), {}
    if max_refs is not None:
        breakdowns["reference_limit"] = reference_limit([len(r) for r in ds["responses"]], max_refs)
        ds = first_references_of(ds, max_refs)
    predictions, source = as_predictions(predictions, predictions_format)
    preds = join_predictions(whole, predictions, normalize=cfg.tokenizer.normalizer, label_check=label_check)
    table = item_statistics(ds, preds, cfg, num_proc=num_proc, desc="scoring").to_dict()
    refs = table["responses"]
    raise_unscorable(unscorable_problems(table, refs, cfg.tokenizer, table["id"], locations))
    specs = metric_specs(table, cfg)
    bert = None if bert is None else add_bertscore([specs], bert, [preds], refs)[0]
    item_groups = group_items(group_columns(ds, by), by, len(ds))
    groups = score_groups(specs, item_groups, bootstrap, seed, confidence, progress)
    diag, warnings = prediction_checks(predictions, preds, refs, table["id"], cfg.tokenizer, locations=locations)
    breakdowns.update(_breakdowns(specs, item_groups, groups, preds, refs, cfg, buckets, folds, bootstrap, seed,
                                  confidence))
    report = Report(kind="score", title=f"zheval score: {len(ds)} items, predictions {source}",
                    metrics=[(s.name, s.label) for s in specs], groups=groups, diagnostics=diag,
                    signatures=report_signatures(cfg, [len(r) for r in refs], bootstrap, seed, confidence, bert),
                    params=report_params(cfg, bootstrap, seed, confidence, num_proc, by, bert), warnings=warnings,
                    breakdowns=breakdowns, notes=order_notes(predictions) + bertscore_notes(bert) + group_form_notes(groups)
                    + reference_limit_notes(breakdowns.get("reference_limit")) + interval_cautions(groups, specs, bootstrap))
    if keep_items:
        report.items = _items(table, cfg, preds, bert)
    return report


def _check_breakdowns(ds, max_refs, buckets, folds) -> Optional[int]:
    """Check ``max_refs``, ``buckets`` and ``folds`` of `evaluate_predictions` (errors naming them); returns
    ``max_refs``."""
    max_refs = check_max_refs(max_refs, "max_refs")
    if buckets is not None and not isinstance(buckets, bool):
        check_buckets(buckets, "buckets")
    if folds is not None:
        check_folds(folds, len(ds), "folds")
    return max_refs


def _breakdowns(specs: list, item_groups: list, groups: list, preds: list, refs: list, cfg: ScoreConfig, buckets,
                folds, bootstrap: int, seed: int, confidence: float) -> dict:
    """The report's breakdowns beside its scores: always ``truncation_excluded`` and ``diversity``; with
    ``buckets`` the ``length_buckets``, with ``folds`` the ``folds`` (`zheval.adapters.duck.breakdowns`)."""
    out = {"truncation_excluded": truncation_excluded(specs, item_groups, truncated_mask(preds, cfg.tokenizer),
                                                      bootstrap, seed, confidence),
           "diversity": group_diversity(preds, refs, cfg.tokenizer, item_groups)}
    if buckets is not None and buckets is not False:
        out["length_buckets"] = length_buckets(specs, refs, cfg.tokenizer, buckets, bootstrap, seed, confidence)
    if folds is not None:
        out["folds"] = fold_scores(specs, len(refs), folds, seed, groups[0])
    return out


def report_config(options: Mapping[str, Any]) -> ScoreConfig:
    """The `ScoreConfig` that ``evaluate_predictions(ds, predictions, **options)``
    scores with (its arguments read from its own signature, so nothing can drift), e.g. to explain a report's items
    with exactly its scoring (`zheval.adapters.duck.html_report.score_html_for_options`).

    Raises:
        TypeError/ValueError: the option errors of [`evaluate_predictions`][zheval.adapters.duck.evaluate.evaluate_predictions].
    """
    import inspect

    bound = inspect.signature(evaluate_predictions).bind(None, None, **options)
    bound.apply_defaults()
    a = bound.arguments
    scoring = report_options("evaluate_predictions", a["metrics"], a["tokenizer"], a["options"],
                             {m: a[m] for m in ("rouge", "bleu", "chrf")},
                             interval={k: a[k] for k in ("bootstrap", "seed", "confidence", "folds", "max_refs")})
    return make_config(scoring, max_refs=check_max_refs(a["max_refs"], "max_refs"))


def first_references_of(ds, max_refs: int):
    """``ds`` with the first ``max_refs`` references of every item (``Dataset.map``; the new fingerprint is the old
    one and the limit)."""
    base = getattr(ds, "_fingerprint", "") or ""
    fp = hashlib.sha256(f"{base}|first-refs-{max_refs}".encode()).hexdigest()[:16]
    return ds.map(lambda b: {"responses": [list(r)[:max_refs] for r in b["responses"]]}, batched=True,
                  new_fingerprint=f"refs-{fp}", desc=f"first {max_refs} references")


def _items(table: dict, cfg: ScoreConfig, preds, bert: Optional[dict] = None) -> list:
    """Per-item scores of a report (``keep_items``): sentence BLEU (effective order, the report's smoothing) and
    sentence chrF from each item's own statistics (`zheval.compute.bleu.score_from_sums`,
    [`zheval.compute.chrf.score_from_sums`][]), each ROUGE type's F, and the BERTScore F1 of the result ``bert``."""
    n = len(table["id"])
    sentence_bleu = chrf = [None] * n
    if "bleu" in cfg.metrics and n:
        sentence_bleu = bleu_from_sums(replace(cfg.bleu_config, effective_order=True))(
            np.asarray(table["bleu_stats"], dtype=np.int64).reshape(n, -1)).tolist()
    if "chrf" in cfg.metrics and n:
        chrf = chrf_from_sums(cfg.chrf_config)(np.asarray(table["chrf_stats"], dtype=np.int64).reshape(n, -1)).tolist()
    out = []
    for i, rid in enumerate(table["id"]):
        row = {"id": rid, "prediction": preds[i]}
        if "bleu" in cfg.metrics:
            row["bleu_stats"] = list(table["bleu_stats"][i])
            row["sentence_bleu"] = sentence_bleu[i]
        for rt in cfg.rouge_config.types if "rouge" in cfg.metrics else ():
            row[rt] = table[f"{rt}_fmeasure"][i]
        if "chrf" in cfg.metrics:
            row["chrf"] = chrf[i]
        if bert is not None:
            row[BERTSCORE_METRIC] = bert["item_f1"][i]
        out.append(row)
    return out
