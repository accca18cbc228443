"""What a 小黄鸭 report is reduced with and says about itself: one
`MetricSpec` per reported metric from the per-item statistics
(`metric_specs`: corpus BLEU and chrF from summed statistics, mean ROUGE F; per item or per leave-one-out
unit), the
signatures (`report_signatures`) and the parameters (`report_params`) of the report.
"""

from __future__ import annotations

from dataclasses import replace

from typing import Optional, Sequence

import numpy as np

from ...compute import bleu as bleu_scores
from ...compute import chrf as chrf_scores
from ...compute.bertscore import BertScoreOptions, bertscore_config, bertscore_systems
from ...results.reducers import mean
from ...results.signature import interval_fields
from .config import ScoreConfig
from ..report.tables import BERTSCORE_METRIC, MetricSpec

__all__ = ["metric_specs", "mean_spec", "bertscore_config_of", "add_bertscore", "bertscore_spec",
           "bertscore_signature", "bertscore_notes", "report_signatures", "report_params", "rouge_label"]

_ROUGE_LABELS = {"rougeL": "ROUGE-L", "rougeLsum": "ROUGE-Lsum", "rougeW": "ROUGE-W"}


def rouge_label(rt: str) -> str:
    """The table label of a ROUGE type: ``rouge1`` -> ``ROUGE-1``, ``rougeL`` -> ``ROUGE-L``, ``rougeLsum`` ->
    ``ROUGE-Lsum``, ``rougeW`` -> ``ROUGE-W``."""
    if rt in _ROUGE_LABELS:
        return _ROUGE_LABELS[rt]
    return "ROUGE-" + rt[len("rouge"):]


# ---------------------------------------------------------------------------------------------------------------
# reductions


def metric_specs(table: dict, cfg: ScoreConfig, clusters: list | None = None) -> list[MetricSpec]:
    """`MetricSpec` per reported metric from per-item statistics columns.

    Args:
        table: columns of `item_statistics` (``bleu_stats`` and ``<type>_*``
            lists).
        cfg: the `ScoreConfig` used.
        clusters: for the human ceiling: ``clusters[u]`` = row indices of unit ``u`` (one unit = one query and its
            leave-one-out rows). Units are then what groups select and bootstrap resamples; BLEU rows are summed
            per unit (additive), ROUGE rows are ``(sum of F, number of rows)`` per unit, so every score still equals
            the score over all selected rows.
    """
    specs = []
    cl = None if clusters is None else [np.asarray(c, dtype=np.intp) for c in clusters]

    def rows_of(idx) -> np.ndarray:
        return np.concatenate([cl[u] for u in idx]) if cl is not None and len(idx) else (np.asarray(idx, dtype=np.intp) if cl is None else np.zeros(0, dtype=np.intp))

    if "bleu" in cfg.metrics:
        stats = np.asarray(table["bleu_stats"], dtype=np.int64)
        unit_rows = np.stack([stats[c].sum(axis=0) for c in cl]) if cl is not None else stats
        if unit_rows.size and unit_rows.max() < 2**31:
            # same values, half the memory traffic in the bootstrap gather (about 2x faster at 10k+ items); numpy
            # sums int32 into int64 and the sums are scored as Python ints, so the intervals are unchanged
            unit_rows = unit_rows.astype(np.int32)

        def bleu_point(idx, stats=stats):
            return bleu_scores.result_from_stats(stats[rows_of(idx)], cfg.bleu_config)["bleu"]

        def bleu_details(idx, stats=stats):
            s = bleu_scores.result_from_stats(stats[rows_of(idx)], cfg.bleu_config)
            return {k: s[k] for k in ("precisions", "brevity_penalty", "length_ratio", "translation_length",
                                      "reference_length")}

        specs.append(MetricSpec("bleu", "BLEU", unit_rows, bleu_scores.score_from_sums(cfg.bleu_config), bleu_point,
                                bleu_details))
    if "chrf" in cfg.metrics:
        specs.append(_chrf_spec(np.asarray(table["chrf_stats"], dtype=np.int64), cfg, cl, rows_of))
    if "rouge" in cfg.metrics:
        for rt in cfg.rouge_config.types:
            specs.append(mean_spec(rt, rouge_label(rt), table[f"{rt}_fmeasure"], table[f"{rt}_precision"],
                                   table[f"{rt}_recall"], cl, rows_of))
    return specs


def mean_spec(name: str, label: str, values, precision, recall, cl=None, rows_of=None) -> MetricSpec:
    """The `MetricSpec` of a score that is the mean of per-item values (ROUGE F, BERTScore F1): rows ``(value, 1)``
    (with ``cl``: ``(sum of the unit's values, its rows)``), the point an exact ``math.fsum`` mean, the bootstrap
    on the 1-D values with ``a.mean(axis=-1)`` (``compute_rouge``'s arithmetic); ``details`` the mean
    ``precision`` and ``recall`` (per-item lists of the same length).

    Args:
        name: the result key; label: the table header; values, precision, recall: per-item lists or arrays;
        cl, rows_of: the units of `metric_specs` (``None``: one unit per item).
    """
    f = np.asarray(values, dtype=np.float64)
    if rows_of is None:
        def rows_of(idx):
            return np.asarray(idx, dtype=np.intp)
    if cl is not None:
        unit_rows = np.array([[f[c].sum(), len(c)] for c in cl], dtype=np.float64)
    else:
        unit_rows = np.column_stack([f, np.ones_like(f)])

    def point(idx):
        return mean(f[rows_of(idx)].tolist())

    def details(idx):
        sel = rows_of(idx)
        return {"precision": mean([precision[i] for i in sel]), "recall": mean([recall[i] for i in sel])}

    spec = MetricSpec(name, label, unit_rows, lambda s: s[:, 0] / s[:, 1], point, details)
    if cl is None:  # intervals with compute_rouge's exact arithmetic (mean of the 1-D values)
        spec.boot_rows, spec.boot_statistic = f, lambda a: a.mean(axis=-1)
    return spec


def bertscore_config_of(options, where: str):
    """The loaded [`zheval.compute.bertscore.bertscore_config`][] of a report's ``bertscore=`` option, or ``None``
    without one (then nothing is imported: no torch).

    Raises:
        TypeError: ``options`` is not a ``BertScoreOptions`` (naming ``where``). FileNotFoundError: the model is not
            a local directory (compute_bertscore's message). ModuleNotFoundError: the ``bertscore`` extra is missing.
    """
    if options is None:
        return None
    if not isinstance(options, BertScoreOptions):
        raise TypeError(f"{where}: bertscore must be a zheval.compute.bertscore.BertScoreOptions, got "
                        f"{type(options).__name__}")
    return bertscore_config(options)


def add_bertscore(specs: list, config, systems: list, references: list) -> list:
    """Append the BERTScore-F1 column (`bertscore_spec`) to each system's ``specs`` list and return each system's
    result (one encoder, the idf of the shared ``references``: [`zheval.compute.bertscore.bertscore_systems`][]).

    Args:
        specs: per system its list of `MetricSpec`; config: `bertscore_config_of`; systems: per system its
        predictions (``list[str]``, one per item); references: ``list[list[str]]``.
    """
    results = bertscore_systems(systems, references, config)
    for spec_list, result in zip(specs, results):
        spec_list.append(bertscore_spec(result))
    return results


def bertscore_notes(result, prefix: str = "") -> list:
    """The report notes of a BERTScore result (``None``: none): the texts truncated at the model's maximum."""
    if result is None or not (result["truncated_predictions"] or result["truncated_references"]):
        return []
    return [f"{prefix}BERTScore: {result['truncated_predictions']} prediction(s) and {result['truncated_references']} "
            f"reference(s) truncated at {result['max_length']} word pieces (bert-score's rule)"]


def bertscore_spec(result: dict) -> MetricSpec:
    """The ``BERTScore-F1`` column (`zheval.adapters.report.tables.BERTSCORE_METRIC`) of a report from a
    [`zheval.compute.bertscore.compute_bertscore`][] result: the mean of the per-item F1 (``item_f1``) as
    `mean_spec`, so the overall value equals the result's ``f1`` and a group's is its items' mean; details the mean
    precision and recall."""
    return mean_spec(BERTSCORE_METRIC, "BERTScore-F1", result["item_f1"], result["item_precision"],
                     result["item_recall"])


def bertscore_signature(result: dict, bootstrap: int, seed, confidence: float, max_refs: Optional[int] = None) -> str:
    """The BERTScore result's signature with this report's interval fields (``bs``, ``seed``; before ``zheval``)
    and, when the items were scored with their first ``max_refs`` references, ``maxrefs:K`` after ``nrefs`` (where
    `zheval.results.signature.build_signature` writes it in the n-gram metrics' signatures)."""
    head, _, version = result["signature"].rpartition("|zheval:")
    if max_refs is not None and "|maxrefs:" not in head:  # (compute_bertscore's max_refs writes it itself)
        nrefs, _, rest = head.partition("|")
        head = f"{nrefs}|maxrefs:{int(max_refs)}|{rest}"
    fields = [f"{k}:{v}" for k, v in interval_fields(bootstrap, seed, confidence)]
    return "|".join([head, *fields, f"zheval:{version}"])


def _chrf_spec(stats: np.ndarray, cfg: ScoreConfig, cl, rows_of) -> MetricSpec:
    """chrF from summed per-item statistics (`zheval.compute.chrf.result_from_stats`,
    [`zheval.compute.chrf.score_from_sums`][]), as BLEU."""
    unit_rows = np.stack([stats[c].sum(axis=0) for c in cl]) if cl is not None else stats

    def point(idx):
        return chrf_scores.result_from_stats(stats[rows_of(idx)], cfg.chrf_config)["chrf"]

    def details(idx):
        s = chrf_scores.result_from_stats(stats[rows_of(idx)], cfg.chrf_config)
        return {"precisions": s["precisions"], "recalls": s["recalls"]}

    return MetricSpec("chrf", cfg.chrf_config.name, unit_rows, chrf_scores.score_from_sums(cfg.chrf_config), point,
                      details)


def report_signatures(cfg: ScoreConfig, ref_counts: Sequence[int], bootstrap: int, seed: int,
                      confidence: float, bertscore: Optional[dict] = None) -> dict:
    """``{"bleu": signature, "rouge": signature}`` (those of the metrics in ``cfg``): the library configs' own
    signatures (`zheval.compute.bleu.BleuConfig.signature`, `zheval.compute.rouge.RougeConfig.signature`)
    with this report's bootstrap; ``ref_counts``: references per scored row; with a BERTScore result
    ``bertscore``, its signature as ``"bertscore"`` (`bertscore_signature`; ``maxrefs:K`` with ``cfg.max_refs``, as
    the n-gram ones)."""
    interval = dict(bootstrap=int(bootstrap), seed=seed, confidence=confidence)
    sig = {}
    if "bleu" in cfg.metrics:
        sig["bleu"] = replace(cfg.bleu_config, **interval).signature(ref_counts)
    if "rouge" in cfg.metrics:
        sig["rouge"] = replace(cfg.rouge_config, **interval).signature(ref_counts)
    if "chrf" in cfg.metrics:
        sig["chrf"] = replace(cfg.chrf_config, **interval).signature(ref_counts)
    if bertscore is not None:
        sig["bertscore"] = bertscore_signature(bertscore, bootstrap, seed, confidence, cfg.max_refs)
    return sig


def report_params(cfg: ScoreConfig, bootstrap, seed, confidence, num_proc, by,
                  bertscore: Optional[dict] = None) -> dict:
    """The JSON-ready ``params`` of a report: the tokenizer signature and normalisation, the metrics and their
    options, ``max_refs`` when the items were scored with their first K references (``maxrefs:K``), and the
    bootstrap, seed, confidence, ``num_proc`` and group columns used; with a BERTScore result ``bertscore``, its
    model, layer, idf, rule, maximum length and device."""
    bert = {} if bertscore is None else {"bertscore": {k: bertscore[k] for k in (
        "model", "layer", "idf", "multi_ref", "max_length", "device")}}
    return {
        "tokenizer": cfg.tokenizer.signature(),
        "normalize": cfg.tokenizer.normalizer.name,
        "metrics": list(cfg.metrics),
        "rouge_types": list(cfg.rouge_config.types) if "rouge" in cfg.metrics else [],
        "multi_ref": cfg.rouge_config.multi_ref,
        "bleu": {k: (list(v) if isinstance(v, tuple) else v) for k, v in cfg.bleu.items() if k != "tokenizer"},
        **({"chrf": cfg.chrf} if "chrf" in cfg.metrics else {}),
        **({"max_refs": cfg.max_refs} if cfg.max_refs is not None else {}),
        "bootstrap": int(bootstrap),
        "seed": seed,
        "confidence": confidence,
        "num_proc": num_proc,
        "by": list(by),
        **bert,
    }
