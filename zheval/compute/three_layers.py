"""The three evaluation layers on the same items, and how well each metric agrees with the judge
([`three_layer_agreement`][zheval.compute.three_layers.three_layer_agreement]): the n-gram layer (sentence BLEU, ROUGE-1/2/L F, sentence chrF: one tokenisation,
[`zheval.compute.joint.score_items`][] and ``item_scores``), the semantic layer (BERTScore-F1 with a local model,
[`zheval.compute.bertscore.compute_bertscore`][]'s chain) and the judge layer (an LLM judge's criteria through an
OpenAI-compatible endpoint, [`zheval.compute.judge`][]; or ratings given as columns, e.g. from a file), then the
agreement table ([`zheval.results.layer_agreement.agreement_table`][]: Spearman, Kendall, Pearson with bootstrap
intervals, overall and per group).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, Optional, Sequence

import numpy as np

from ..results.agreement import TIE_TOLERANCE
from ..results.layer_agreement import agreement_table, best_metrics, best_ranks
from .bertscore import BertScoreOptions, bertscore_config, bertscore_systems
from ..io.text_lists import check_text_list
from .inputs import validate_inputs
from .judge import JudgeOptions, judge_config, judge_items, judge_result

__all__ = ["NGRAM_COLUMNS", "ngram_columns", "ngram_signatures", "three_layer_agreement"]

#: The n-gram layer's columns: label -> ``item_scores`` key.
NGRAM_COLUMNS = {"BLEU": "sentence_bleu", "ROUGE-1": "rouge1", "ROUGE-2": "rouge2", "ROUGE-L": "rougeL", "chrF": "chrf"}


def _ngram_config(tokenizer: Any):
    from .joint import score_config

    return score_config(("bleu", "rouge", "chrf"), tokenizer=tokenizer, rouge_types=["rouge1", "rouge2", "rougeL"])


def ngram_columns(predictions: Sequence[str], references: Sequence[Sequence[str]], *,
                  tokenizer: Any = "char") -> Dict[str, np.ndarray]:
    """Per-item sentence BLEU, ROUGE-1/2/L F and sentence chrF (0-1) of validated texts, one tokenisation
    (``tokenizer`` as [`zheval.score`][zheval.compute.joint.score])."""
    from .joint import item_scores, score_items

    config = _ngram_config(tokenizer)
    columns = item_scores(score_items(predictions, references, config), config)
    return {label: columns[key] for label, key in NGRAM_COLUMNS.items()}


def ngram_signatures(references: Sequence[Sequence[str]], *, tokenizer: Any = "char") -> Dict[str, str]:
    """``{"bleu", "rouge", "chrf"}``: the signatures of `ngram_columns`' per-item scores (validated ``references``
    give ``nrefs``): sentence BLEU with effective order (``level:sentence|…|eff:yes``, as
    [`item_scores`][zheval.compute.joint.item_scores] computes it), ROUGE's F, sentence chrF -- each naming the
    tokenizer, as ``zheval score -f json`` writes them under ``signatures``."""
    from .bleu import bleu_config
    from .chrf import chrf_config

    config = _ngram_config(tokenizer)
    counts = [len(r) for r in references]
    bleu = bleu_config(dataclasses.replace(config.bleu_options, level=None, bootstrap=0, crosscheck=False),
                       caller_level="sentence")  # as item_scores' sentence_bleu column
    chrf = chrf_config(dataclasses.replace(config.chrf_options, level="sentence", bootstrap=0))
    return {"bleu": bleu.signature(counts), "rouge": config.rouge.signature(counts),
            "chrf": chrf.signature(counts)}


def _summary(result: Dict[str, Any], drop: Sequence[str]) -> Dict[str, Any]:
    return {k: v for k, v in result.items() if k not in drop}


def three_layer_agreement(
    predictions: Sequence[str],
    references: Sequence[Any],
    *,
    bertscore: Optional[BertScoreOptions] = None,
    judge: Optional[JudgeOptions] = None,
    ratings: Optional[Dict[str, Sequence[float]]] = None,
    sources: Optional[Sequence[Optional[str]]] = None,
    groups: Optional[Sequence[Optional[str]]] = None,
    group_name: str = "group",
    tokenizer: Any = "char",
    bootstrap: int = 1000,
    confidence: float = 0.95,
    seed: int = 12345,
) -> Dict[str, Any]:
    """Every layer's per-item columns on the same items and the agreement of each metric with each rating column.

    Args:
        predictions: ``list[str]``.
        references: per item a ``str`` or a non-empty ``list[str]``.
        bertscore: [`BertScoreOptions`][zheval.compute.bertscore.BertScoreOptions] (adds ``BERTScore-F1``), or ``None``.
        judge: [`JudgeOptions`][zheval.compute.judge.JudgeOptions] (adds ``judge:<criterion>`` rating columns), or ``None``.
        ratings: rating columns given directly (``{name: per-item numbers, NaN = none}``), e.g. human ratings or
            a judge's earlier run. At least one of ``judge`` / ``ratings``.
        sources: per item the source or question the judge sees (or ``None``).
        groups: per item a group (or ``None``): the table is repeated per group.
        group_name: the groups' field name: a group's rows are labelled ``<group_name>=<value>``.
        tokenizer: the tokenizer of the n-gram layer.
        bootstrap: resamples for the intervals (0 = none).
        confidence: the intervals' level in (0, 1).
        seed: the bootstrap's seed.

    Returns:
        ``{"metrics", "ratings", "rows", "ranking", "ranking_rank", "best", "best_rank", "tie_tolerance",
        "signatures", "bertscore", "judge", "n"}``: ``metrics``
        ``{label: [per item]}``; ``signatures`` the n-gram columns' (`ngram_signatures`: tokenizer, options);
        ``ratings`` ``{name: [per item, None = no rating]}``; ``rows`` the agreement rows
        ([`agreement_table`][zheval.results.layer_agreement.agreement_table]); ``ranking`` ``{rating: [metric labels,
        best ρ first]}`` and ``ranking_rank`` ``{rating: [their competition ranks]}`` (1, 1, 1, 4, ...: equal ranks
        are tied ρ, within ``tie_tolerance``, `zheval.results.agreement.TIE_TOLERANCE`, listed in table order;
        ``None``: no correlation, never ranked, listed last), the keys of the review sheet's report
        (`zheval.adapters.review.agreement_report.AgreementReport.to_dict`); ``best`` and ``best_rank``: the same
        lists under their earlier names; ``bertscore`` BERTScore's result without per-item lists (or None);
        ``judge`` the judge's result without per-item lists (failures, usage, signature; or None); ``n`` the number
        of items.

    Raises:
        ValueError / TypeError: inputs (naming the item), options, no rating column, ratings or groups of another
            length.
    """
    if judge is None and not ratings:
        raise ValueError("three_layer_agreement needs rating columns: a judge (JudgeOptions) or ratings")
    preds, refs = validate_inputs(predictions, references)
    for name, column in (("sources", sources), ("groups", groups)):  # a DataFrame would give its column names
        check_text_list(column, name, "a list with one value per item")
    metrics: Dict[str, np.ndarray] = ngram_columns(preds, refs, tokenizer=tokenizer)
    bert_summary = judge_summary = None
    if bertscore is not None:
        res = bertscore_systems([preds], refs, bertscore_config(bertscore))[0]
        metrics["BERTScore-F1"] = np.asarray(res["item_f1"], dtype=np.float64)
        bert_summary = _summary(res, ("item_precision", "item_recall", "item_f1"))
    rating_cols: Dict[str, np.ndarray] = {}
    for name, values in (ratings or {}).items():
        if len(values) != len(preds):
            raise ValueError(f"ratings column {name!r} has {len(values)} values for {len(preds)} items")
        rating_cols[name] = np.asarray([np.nan if v is None else v for v in values], dtype=np.float64)
    if judge is not None:
        config = judge_config(judge)
        try:
            res = judge_result(judge_items(preds, refs, config, sources), config)
        finally:
            config.close()
        for criterion in res["criteria"]:
            values = res["item_scores"][criterion]
            rating_cols[f"judge:{criterion}"] = np.asarray([np.nan if v is None else v for v in values], dtype=float)
        judge_summary = _summary(res, ("item_scores",))
    rows = agreement_table(metrics, rating_cols, groups=groups, group_name=group_name, n_resamples=bootstrap,
                           confidence=confidence, seed=seed)
    ranking = {c: [r["metric"] for r in rs] for c, rs in best_metrics(rows).items()}
    ranks = best_ranks(rows)
    return {"n": len(preds),
            "metrics": {k: v.tolist() for k, v in metrics.items()},
            "ratings": {k: [None if np.isnan(x) else float(x) for x in v] for k, v in rating_cols.items()},
            "rows": rows,
            # the sheet mode's keys (AgreementReport.to_dict), and best/best_rank, their earlier names here
            "ranking": ranking, "ranking_rank": ranks, "best": {c: list(v) for c, v in ranking.items()},
            "best_rank": {c: list(v) for c, v in ranks.items()},
            "tie_tolerance": TIE_TOLERANCE,
            "signatures": ngram_signatures(refs, tokenizer=tokenizer),
            "bertscore": bert_summary, "judge": judge_summary}
