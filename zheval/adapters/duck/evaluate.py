"""Batch evaluation of a 小黄鸭 dataset: per-item statistics with ``Dataset.map``, reduced to grouped reports.

Data flow (``../shared/DESIGN.md``)::

    Dataset + predictions ──map(batched, num_proc)──▶ per-item statistics ──▶ groups ──▶ scores + bootstrap intervals
                                                      (BLEU: additive n-gram statistics, zheval.definitions.bleu.corpus_stats;
                                                       ROUGE: per-item P/R/F, zheval.definitions.rouge.make_item_scorer)

* The per-item statistics are computed by the same core functions as ``compute_bleu``/``compute_rouge``
  (:mod:`zheval.compute.bleu`, :mod:`zheval.compute.rouge`) on the same tokens (the tokenizer's cached
  ``tokenize_cached`` for BLEU, ``tokenize_sentences`` for ROUGE), so the overall numbers are identical to calling
  those functions directly, and identical for any ``num_proc`` (statistics are per item; reductions run in the
  main process in item order).
* ``map`` gets an explicit ``new_fingerprint`` built from the dataset fingerprint, a hash of the predictions, the
  tokenizer fingerprint and every scoring option (``../shared/ECOSYSTEM.md`` §3: datasets' own hashing of a jieba
  tokenizer is slow and goes stale after dictionary changes). The tokenizer pickles without its jieba instance and
  rebuilds it lazily in each worker.
* Reductions (:mod:`zheval.adapters.duck.report`): corpus BLEU from summed statistics, mean ROUGE F, per group (overall, per
  domain, per difficulty; ``null`` is its own group), with percentile bootstrap intervals over items.

Public entry points: :func:`evaluate_predictions`, :func:`human_ceiling`, :func:`compare_predictions`, and the
lower-level :func:`make_config`, :func:`item_statistics`, :func:`metric_specs`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ...definitions.bleu import score_stats, sum_stats
from ...fast.bleu import corpus_stats
from ...results.diagnostics import compute_diagnostics
from .report import (
    MIN_INTERVAL_ITEMS,
    MetricSpec,
    Report,
    group_items,
    no_interval_reason,
    score_groups,
)
from ...definitions.rouge import make_item_scorer, parse_rouge_type
from ...results.signature import build_signature
from ...results.reducers import mean, paired_bootstrap
from ...tokenizers import BaseTokenizer
from .predictions import Predictions, join_predictions

__all__ = [
    "METRICS",
    "DEFAULT_ROUGE_TYPES",
    "ScoreConfig",
    "make_config",
    "item_statistics",
    "metric_specs",
    "evaluate_predictions",
    "human_ceiling",
    "compare_predictions",
    "unscorable_problems",
    "input_warnings",
]

METRICS = ("bleu", "rouge")
"""Metric families :func:`evaluate_predictions` computes."""

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")
"""ROUGE types reported by default (F-measure)."""

_ROUGE_LABELS = {"rougeL": "ROUGE-L", "rougeLsum": "ROUGE-Lsum", "rougeW": "ROUGE-W"}


def _rouge_label(rt: str) -> str:
    if rt in _ROUGE_LABELS:
        return _ROUGE_LABELS[rt]
    return "ROUGE-" + rt[len("rouge"):]


@dataclass(frozen=True)
class ScoreConfig:
    """Resolved scoring options shared by every item (pickled into ``map`` workers).

    Attributes:
        tokenizer: the zheval tokenizer; metrics: subset of :data:`METRICS`; rouge_types; multi_ref (ROUGE
            multi-reference rule); sentence_split (ROUGE-Lsum); bleu: resolved BLEU options
            (:func:`zheval.compute.bleu.resolve_options`); preset: BLEU preset name or ``None``.
    """

    tokenizer: BaseTokenizer
    metrics: tuple
    rouge_types: tuple
    multi_ref: str
    sentence_split: str
    bleu: dict = field(default_factory=dict)

    def fingerprint(self) -> str:
        """sha256 (16 hex) of the tokenizer fingerprint and every scoring option."""
        cfg = {
            "tok": self.tokenizer.fingerprint,
            "metrics": list(self.metrics),
            "rouge": [list(self.rouge_types), self.multi_ref, self.sentence_split],
            "bleu": {k: (list(v) if isinstance(v, tuple) else v) for k, v in sorted(self.bleu.items())},
        }
        return hashlib.sha256(json.dumps(cfg, sort_keys=True, default=str).encode()).hexdigest()[:16]

    @property
    def score_options(self) -> dict:
        """Keyword options of :func:`zheval.definitions.bleu.score_stats`."""
        return {k: self.bleu[k] for k in ("smooth_method", "smooth_value", "bp_ref_length", "effective_order", "weights")}


def make_config(
    tokenizer="char",
    metrics: Sequence[str] = METRICS,
    rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES,
    multi_ref: str = "max",
    sentence_split: str = "punct",
    bleu_options: dict | None = None,
    **tokenizer_options,
) -> ScoreConfig:
    """Validate options and build a :class:`ScoreConfig`.

    Args:
        tokenizer: a tokenizer name (``char``, ``jieba``, ``none``, or a BLEU preset tokenizer), a zheval tokenizer
            or a callable, as :func:`zheval.compute.bleu.build_bleu_tokenizer`.
        metrics: any of ``"bleu"``, ``"rouge"``.
        rouge_types: ROUGE types (:func:`zheval.definitions.rouge.parse_rouge_type`); multi_ref: ``max``/``mean``/``pool``/
            ``best_recall``; sentence_split: ``punct``/``newline`` (ROUGE-Lsum).
        bleu_options: BLEU options of :func:`zheval.compute.bleu.compute_bleu` (``max_order``, ``smooth_method``,
            ``smooth_value``, ``bp_ref_length``, ``effective_order``, ``weights``); corpus level only.
        tokenizer_options: ``terms``, ``punct``, ``jieba_hmm``, ``jieba_dict``, ``normalize``, ``t2s``.

    Raises:
        ValueError: unknown metric, ROUGE type, multi_ref, sentence split, BLEU option value, ``level`` other than
            corpus; TypeError: unknown option names.
    """
    from ...compute.bleu import build_bleu_tokenizer, resolve_options
    from ...definitions.rouge import MULTI_REF_MODES
    from ...compute.rouge import ROUGE_TOKENIZERS, build_rouge_tokenizer
    from ...text.sentences import SENTENCE_SPLITS

    if isinstance(metrics, str):
        metrics = [m.strip() for m in metrics.split(",") if m.strip()]
    bad = [m for m in metrics if m not in METRICS]
    if bad or not metrics:
        raise ValueError(f"unknown metric(s) {bad or metrics}; valid: {', '.join(METRICS)}")
    if isinstance(rouge_types, str):
        rouge_types = [t.strip() for t in rouge_types.split(",") if t.strip()]
    if "rouge" in metrics and not rouge_types:
        raise ValueError("rouge_types must name at least one ROUGE type")
    for rt in rouge_types:
        parse_rouge_type(rt)
    if len(set(rouge_types)) != len(rouge_types):
        raise ValueError(f"rouge_types has duplicates: {list(rouge_types)}")
    if multi_ref not in MULTI_REF_MODES:
        raise ValueError(f"unknown multi_ref {multi_ref!r}; valid: {', '.join(MULTI_REF_MODES)}")
    if sentence_split not in SENTENCE_SPLITS:
        raise ValueError(f"unknown sentence_split {sentence_split!r}; valid: {', '.join(SENTENCE_SPLITS)}")
    bopts = dict(bleu_options or {})
    preset = bopts.pop("preset", None)
    bleu = resolve_options(preset, **bopts)
    if bleu["level"] != "corpus":
        raise ValueError("the 小黄鸭 report uses corpus BLEU (level='corpus'); sentence-level BLEU is not supported here")
    if isinstance(tokenizer, str) and tokenizer in ROUGE_TOKENIZERS:
        tok = build_rouge_tokenizer(tokenizer, **tokenizer_options)
    else:
        tok = build_bleu_tokenizer(tokenizer if tokenizer is not None else bleu["tokenizer"], **tokenizer_options)
    return ScoreConfig(tok, tuple(m for m in METRICS if m in metrics), tuple(rouge_types), multi_ref, sentence_split, bleu)


# ---------------------------------------------------------------------------------------------------------------
# per-item statistics (runs inside map workers)


def _score_batch(batch: dict, cfg: ScoreConfig) -> dict:
    tok = cfg.tokenizer
    preds = batch["prediction"]
    refs = batch["responses"]
    out: dict = {}
    # references that cannot be scored: empty after normalisation, or without a token after tokenisation (e.g.
    # "……" with punct="drop"); every one is recorded here and reported together by the caller (a zero-token
    # reference would otherwise count as a length of 0 in BLEU's brevity penalty, or score 0 in ROUGE)
    bad_idx: list = [[] for _ in refs]
    bad_why: list = [[] for _ in refs]
    for i, rs in enumerate(refs):
        for j, r in enumerate(rs):
            if not tok.normalize(r).strip():
                bad_idx[i].append(j)
                bad_why[i].append("empty")
    if "bleu" in cfg.metrics:
        tc = tok.tokenize_cached
        ref_tokens = []
        for i, rs in enumerate(refs):
            toks = [tc(r) for r in rs]
            for j, t in enumerate(toks):
                if not t and j not in bad_idx[i]:
                    bad_idx[i].append(j)
                    bad_why[i].append("no_tokens")
            ref_tokens.append(toks)
        out["bleu_stats"] = corpus_stats([tc(p) for p in preds], ref_tokens, cfg.bleu["max_order"]).tolist()
    if "rouge" in cfg.metrics:
        scorer = make_item_scorer(list(cfg.rouge_types), cfg.multi_ref)
        ts = tok.tokenize_sentences
        split = cfg.sentence_split
        cols = {f"{rt}_{x}": [] for rt in cfg.rouge_types for x in ("precision", "recall", "fmeasure")}
        for i, (p, rs) in enumerate(zip(preds, refs)):
            ref_sents = [ts(r, split) for r in rs]
            for j, sents in enumerate(ref_sents):
                if not any(sents) and j not in bad_idx[i]:
                    bad_idx[i].append(j)
                    bad_why[i].append("no_tokens")
            scores = scorer(ts(p, split), ref_sents)
            for rt in cfg.rouge_types:
                s = scores[rt]
                cols[f"{rt}_precision"].append(s.precision)
                cols[f"{rt}_recall"].append(s.recall)
                cols[f"{rt}_fmeasure"].append(s.fmeasure)
        out.update(cols)
    out["unscorable_refs"] = bad_idx
    out["unscorable_why"] = bad_why
    return out


def _unscorable_message(text: str, why: str, tok: BaseTokenizer) -> str:
    if why == "empty":
        return (f"is empty after normalisation ({_short(text)}, normalisation {tok.normalizer.name}); remove it "
                "(zheval clean drops and counts such references)")
    return (f"has no tokens after tokenisation ({_short(text)} with tokenizer {tok.signature()}"
            + (", punct=drop" if getattr(tok, "punct", "keep") == "drop" else "")
            + "): a reference without tokens cannot be scored (BLEU would count it as length 0, ROUGE as 0); "
            "remove it, or keep punctuation (--punct keep)")


def _short(text: str, n: int = 30) -> str:
    return repr(text if len(text) <= n else text[:n] + "…")


def unscorable_problems(table: dict, references, tok: BaseTokenizer, ids, locations=None, origin=None) -> list:
    """Every reference :func:`item_statistics` found empty after normalisation or without tokens, as
    :class:`~zheval.adapters.duck.load.Problem` s (``file:line`` from ``locations``, else the dataset row).

    Args:
        table: columns of :func:`item_statistics` (``unscorable_refs``/``unscorable_why``).
        references: the ``responses`` of the scored rows. tok: the tokenizer used. ids: the item ids.
        locations: optional ``{item id: (path, line)}`` (the CLI passes the 小黄鸭 file's lines).
        origin: optional, for leave-one-out rows: ``origin[row] = (item id, [original index of each of the row's
            references], item row)``, so a problem names the item's own ``responses[j]`` (and is listed once).
    """
    from .load import Problem

    out, seen = [], set()
    for row, (idx, why) in enumerate(zip(table["unscorable_refs"], table["unscorable_why"])):
        for k, w in zip(idx, why):
            rid, j = (ids[row], k) if origin is None else (origin[row][0], origin[row][1][k])
            if (rid, j) in seen:
                continue
            seen.add((rid, j))
            path, line = (locations or {}).get(rid, (f"dataset row {row if origin is None else origin[row][2]}", 0))
            out.append(Problem(path, line, rid, f"responses[{j}] {_unscorable_message(references[row][k], w, tok)}"))
    return out


def _raise_unscorable(problems) -> None:
    from .load import DuckFormatError

    if problems:
        raise DuckFormatError(problems, "references that cannot be scored")


#: Version of the columns :func:`_score_batch` writes, part of the ``map`` fingerprint: a datasets cache file written
#: by an older layout (e.g. without ``unscorable_refs``) is never reused.
_STATS_LAYOUT = "stats-2"


def _hash_texts(texts: Sequence[str]) -> str:
    h = hashlib.sha256()
    for t in texts:
        b = t.encode("utf-8")
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()[:16]


def item_statistics(ds, predictions: Sequence[str], cfg: ScoreConfig, num_proc: int | None = None, desc: str = "scoring"):
    """Per-item statistics as a ``datasets.Dataset`` (``Dataset.map(batched=True, num_proc=num_proc)``).

    Args:
        ds: a ``Dataset`` with ``id`` and ``responses`` (and any other columns, kept).
        predictions: one string per row, in row order.
        cfg: a :class:`ScoreConfig`. num_proc: worker processes (``None``/1: in process).

    Returns:
        ``ds`` plus ``prediction``, ``bleu_stats`` (``List(int64)``, layout of :mod:`zheval.definitions.bleu`),
        ``<type>_precision``/``_recall``/``_fmeasure`` (float64, 0–1) per ROUGE type, and ``unscorable_refs`` /
        ``unscorable_why`` (per item: indices of references that are empty after normalisation, ``"empty"``, or
        have no tokens, ``"no_tokens"``; report them with :func:`unscorable_problems` — the public entry points
        refuse such data, listing every one). The map's fingerprint is ``duck-<sha>`` of the dataset fingerprint,
        the predictions and :meth:`ScoreConfig.fingerprint`.

    Raises:
        ValueError: a different number of predictions than rows.
    """
    if len(predictions) != len(ds):
        raise ValueError(f"{len(predictions)} predictions for {len(ds)} items")
    preds_hash = _hash_texts(predictions)
    base = getattr(ds, "_fingerprint", "") or ""
    with_pred = ds.add_column("prediction", list(predictions), new_fingerprint=f"pred-{hashlib.sha256((base + preds_hash).encode()).hexdigest()[:16]}")
    fp = hashlib.sha256(f"{base}|{preds_hash}|{cfg.fingerprint()}|{_STATS_LAYOUT}".encode()).hexdigest()[:16]
    return with_pred.map(
        _score_batch,
        fn_kwargs={"cfg": cfg},
        batched=True,
        batch_size=256,
        num_proc=num_proc if num_proc and num_proc > 1 else None,
        new_fingerprint=f"duck-{fp}",
        desc=desc,
    )


# ---------------------------------------------------------------------------------------------------------------
# reductions


def _bleu_from_sums(opts: dict):
    def from_sums(sums: np.ndarray) -> np.ndarray:
        return np.array([score_stats(row, **opts).score for row in np.asarray(sums).tolist()])

    return from_sums


def metric_specs(table: dict, cfg: ScoreConfig, clusters: list | None = None) -> list[MetricSpec]:
    """:class:`~zheval.adapters.duck.report.MetricSpec` per reported metric from per-item statistics columns.

    Args:
        table: columns of :func:`item_statistics` (``bleu_stats`` and ``<type>_*`` lists).
        cfg: the :class:`ScoreConfig` used.
        clusters: for the human ceiling: ``clusters[u]`` = row indices of unit ``u`` (one unit = one query and its
            leave-one-out rows). Units are then what groups select and bootstrap resamples; BLEU rows are summed
            per unit (additive), ROUGE rows are ``(sum of F, number of rows)`` per unit, so every score still equals
            the score over all selected rows.
    """
    specs = []
    opts = cfg.score_options
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
            return score_stats(sum_stats(stats[rows_of(idx)]), **opts).score

        def bleu_details(idx, stats=stats):
            s = score_stats(sum_stats(stats[rows_of(idx)]), **opts)
            return {"precisions": list(s.precisions), "brevity_penalty": s.brevity_penalty, "length_ratio": s.length_ratio,
                    "translation_length": s.hyp_len, "reference_length": s.ref_len}

        specs.append(MetricSpec("bleu", "BLEU", unit_rows, _bleu_from_sums(opts), bleu_point, bleu_details))
    if "rouge" in cfg.metrics:
        for rt in cfg.rouge_types:
            f = np.asarray(table[f"{rt}_fmeasure"], dtype=np.float64)
            p = table[f"{rt}_precision"]
            r = table[f"{rt}_recall"]
            if cl is not None:
                unit_rows = np.array([[f[c].sum(), len(c)] for c in cl], dtype=np.float64)
            else:
                unit_rows = np.column_stack([f, np.ones_like(f)])

            def point(idx, f=f):
                return mean(f[rows_of(idx)].tolist())

            def details(idx, p=p, r=r):
                sel = rows_of(idx)
                return {"precision": mean([p[i] for i in sel]), "recall": mean([r[i] for i in sel])}

            spec = MetricSpec(rt, _rouge_label(rt), unit_rows, lambda s: s[:, 0] / s[:, 1], point, details)
            if cl is None:  # intervals with compute_rouge's exact arithmetic (mean of the 1-D F values)
                spec.boot_rows, spec.boot_statistic = f, lambda a: a.mean(axis=-1)
            specs.append(spec)
    return specs


def _signatures(cfg: ScoreConfig, ref_counts: Sequence[int], bootstrap: int, seed: int, confidence: float) -> dict:
    tok = cfg.tokenizer
    sig = {}
    boot = [("bs", int(bootstrap)), ("seed", seed)] + ([("conf", float(confidence))] if confidence != 0.95 else []) if bootstrap else []
    if "bleu" in cfg.metrics:
        b = cfg.bleu
        sv = b["smooth_value"]
        smooth = b["smooth_method"] if sv is None else f"{b['smooth_method']}[{format(float(sv), 'g')}]"
        fields = [("level", "corpus"), ("order", b["max_order"]), ("smooth", smooth), ("bp", b["bp_ref_length"]),
                  ("eff", b["effective_order"])]
        if b["weights"] is not None:
            fields.append(("weights", "/".join(format(w, "g") for w in b["weights"])))
        sig["bleu"] = build_signature(tok, ref_counts, "bleu", fields + boot, preset=b.get("preset"))
    if "rouge" in cfg.metrics:
        # the fields of zheval.compute.rouge.compute_rouge, in its order
        fields = [("types", "+".join(cfg.rouge_types)), ("multi", cfg.multi_ref), ("beta", 1.0)]
        if "rougeLsum" in cfg.rouge_types:
            fields.append(("split", cfg.sentence_split))
        sig["rouge"] = build_signature(tok, ref_counts, "rouge", fields + boot)
    return sig


def _columns(ds, by: Sequence[str]) -> dict:
    return {dim: list(ds[dim]) for dim in by}


def _check_by(ds, by) -> tuple:
    if isinstance(by, str):
        by = [b.strip() for b in by.split(",") if b.strip()]
    by = tuple(by or ())
    dup = sorted({b for b in by if by.count(b) > 1})
    if dup:
        raise ValueError(f"by lists {dup} more than once (each group would be reported twice); give each column once")
    bad = [b for b in by if b not in ds.column_names or b in ("id", "query", "responses")]
    if bad:
        raise ValueError(f"cannot group by {bad}; group columns: {[c for c in ds.column_names if c not in ('id', 'query', 'responses')]}")
    return by


def _check_ds(ds, what: str = "evaluate"):
    from datasets import Dataset

    if not isinstance(ds, Dataset):
        raise TypeError(f"{what} expects a datasets.Dataset, got {type(ds).__name__} (pick a split of a DatasetDict)")
    if len(ds) == 0:
        raise ValueError(f"{what}: the dataset has no items")
    missing = {"id", "responses"} - set(ds.column_names)
    if missing:
        raise ValueError(f"{what}: dataset lacks column(s) {sorted(missing)}")


def _params(cfg: ScoreConfig, bootstrap, seed, confidence, num_proc, by) -> dict:
    return {
        "tokenizer": cfg.tokenizer.signature(),
        "normalize": cfg.tokenizer.normalizer.name,
        "metrics": list(cfg.metrics),
        "rouge_types": list(cfg.rouge_types) if "rouge" in cfg.metrics else [],
        "multi_ref": cfg.multi_ref,
        "bleu": {k: (list(v) if isinstance(v, tuple) else v) for k, v in cfg.bleu.items() if k != "tokenizer"},
        "bootstrap": int(bootstrap),
        "seed": seed,
        "confidence": confidence,
        "num_proc": num_proc,
        "by": list(by),
    }


def evaluate_predictions(
    ds,
    predictions,
    *,
    tokenizer="char",
    metrics: Sequence[str] = METRICS,
    by: Sequence[str] = ("domain", "difficulty"),
    bootstrap: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
    num_proc: int | None = None,
    rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES,
    multi_ref: str = "max",
    sentence_split: str = "punct",
    bleu_options: dict | None = None,
    keep_items: bool = False,
    progress: bool = False,
    locations: dict | None = None,
    label_check: str = "strict",
    predictions_format: str = "auto",
    **tokenizer_options,
) -> Report:
    """Score a model's predictions on a 小黄鸭 dataset: overall, per domain, per difficulty, with intervals.

    Args:
        ds: a 小黄鸭 ``Dataset`` (:func:`~zheval.adapters.duck.load.load_duck`, optionally cleaned).
        predictions: a path (JSONL with ``id``+``prediction``, LLaMA-Factory ``generated_predictions.jsonl``, or
            plain text in dataset order), a :class:`~zheval.adapters.duck.predictions.Predictions`, a list in dataset
            order, or an ``{id: prediction}`` dict (see :func:`~zheval.adapters.duck.predictions.join_predictions`).
        tokenizer / tokenizer_options / metrics / rouge_types / multi_ref / sentence_split / bleu_options: as
            :func:`make_config` (defaults: char tokenizer, corpus BLEU-4 with sacrebleu's exp smoothing, ROUGE-1/2/L
            F with the max-over-references rule).
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
    _check_ds(ds, "evaluate_predictions")
    by = _check_by(ds, by)
    cfg = make_config(tokenizer, metrics, rouge_types, multi_ref, sentence_split, bleu_options, **tokenizer_options)
    predictions, source = _as_predictions(predictions, predictions_format)
    preds = join_predictions(ds, predictions, normalize=cfg.tokenizer.normalizer, label_check=label_check)
    scored = item_statistics(ds, preds, cfg, num_proc=num_proc, desc="scoring")
    table = scored.to_dict()
    refs = table["responses"]
    _raise_unscorable(unscorable_problems(table, refs, cfg.tokenizer, table["id"], locations))
    specs = metric_specs(table, cfg)
    groups = score_groups(specs, group_items(_columns(ds, by), by, len(ds)), bootstrap, seed, confidence, progress)
    diag = compute_diagnostics(preds, refs, table["id"], normalize=cfg.tokenizer.normalizer)
    warnings = list(diag.warnings) + input_warnings(preds, refs, cfg.tokenizer)
    label_warning = _label_warning(predictions)
    if label_warning:
        warnings.append(label_warning)
    report = Report(
        kind="score",
        title=f"zheval score: {len(ds)} items, predictions {source}",
        metrics=[(s.name, s.label) for s in specs],
        groups=groups,
        diagnostics=diag,
        signatures=_signatures(cfg, [len(r) for r in refs], bootstrap, seed, confidence),
        params=_params(cfg, bootstrap, seed, confidence, num_proc, by),
        warnings=warnings,
    )
    if keep_items:
        report.items = _items(table, cfg, preds)
    return report


def _label_warning(predictions, which: str = "") -> str | None:
    """The warning for LLaMA-Factory labels that match none of their item's references (below the error threshold,
    or with ``label_check="warn"``)."""
    if not isinstance(predictions, Predictions) or not predictions.label_mismatches:
        return None
    mm = predictions.label_mismatches
    where = [f"{predictions.source}:{ln}" if ln else rid for rid, ln in zip(mm, predictions.label_mismatch_lines or [None] * len(mm))]
    return (
        f"{which}{len(mm)} of {predictions.labelled} item(s) have a LLaMA-Factory 'label' that is none of their "
        f"references (first: {', '.join(f'{r} ({w})' for r, w in zip(mm[:5], where[:5]))}): is the predictions file "
        "from this split, in this order?"
    )


#: Fraction of Han characters that OpenCC t2s changes above which a side counts as Traditional Chinese (Simplified
#: text changes ~0%; Traditional text ~20–30%), and below which the other side counts as Simplified.
_TRADITIONAL_MIN, _SIMPLIFIED_MAX = 0.05, 0.01


#: Han characters per side that the Traditional/Simplified check converts (a sample is enough for a share).
_T2S_SAMPLE_CHARS = 200_000


def _traditional_fraction(texts) -> float:
    """Share (0–1) of the Han characters of ``texts`` (the first :data:`_T2S_SAMPLE_CHARS`) that OpenCC t2s
    changes; converted in one call."""
    import re

    from ...text.normalize import t2s

    han = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
    parts, total = [], 0
    for t in texts:
        for run in han.findall(t):
            parts.append(run)
            total += len(run)
        if total >= _T2S_SAMPLE_CHARS:
            break
    if not total:
        return 0.0
    chars = "".join(parts)
    conv = t2s(chars)
    if len(conv) != len(chars):  # a phrase conversion changed the length: compare run by run
        changed = sum(sum(a != b for a, b in zip(r, t2s(r))) for r in parts)
    else:
        changed = sum(a != b for a, b in zip(chars, conv))
    return changed / total


def input_warnings(predictions, references, tok: BaseTokenizer) -> list:
    """Warnings for two user slips that give a wrong number without an error.

    * ``tokenizer="none"`` (whitespace split) on Chinese written without spaces: most texts with Han characters
      contain no space, so each reply is one token and BLEU/ROUGE compare whole replies.
    * Traditional predictions against Simplified references (or the reverse) without the ``t2s`` step: OpenCC t2s
      changes at least 5% of the Han characters of one side and at most 1% of the other's, so equal words count
      as different characters.

    TODO(issue 13, library guards): the library is getting the same checks in compute_bleu/compute_rouge (another
    helper); once merged, call them here instead of this local copy so that both paths warn with the same rule.
    """
    import re

    out = []
    han = re.compile(r"[\u3400-\u9fff]")
    if tok.name == "none":
        texts = [t for t in list(predictions) + [r for rs in references for r in rs] if han.search(t)]
        unspaced = sum(1 for t in texts if len(han.findall(t)) >= 2 and not re.search(r"\s", t.strip()))
        if texts and unspaced * 2 > len(texts):
            out.append(
                f"tokenizer 'none' splits on whitespace only, but {unspaced} of {len(texts)} Chinese texts have no "
                "space: each is a single token, so BLEU/ROUGE compare whole replies; use -t char or -t jieba "
                "unless the texts are pre-segmented"
            )
    if "t2s" not in tok.normalizer.steps:
        try:
            fp = _traditional_fraction(predictions)
            fr = _traditional_fraction(r for rs in references for r in rs)
        except ImportError:  # opencc missing: t2s is unavailable anyway
            fp = fr = 0.0
        if (fp >= _TRADITIONAL_MIN and fr <= _SIMPLIFIED_MAX) or (fr >= _TRADITIONAL_MIN and fp <= _SIMPLIFIED_MAX):
            trad, simp = ("predictions", "references") if fp > fr else ("references", "predictions")
            out.append(
                f"the {trad} look like Traditional Chinese ({max(fp, fr):.0%} of their Han characters change under "
                f"OpenCC t2s) and the {simp} like Simplified ({min(fp, fr):.0%}): the same words count as different "
                "characters; add --t2s (t2s=True) to convert both to Simplified first"
            )
    return out


def _as_predictions(predictions, predictions_format: str = "auto"):
    """``(predictions ready for join_predictions, source name)``: a path is read, an iterable becomes a list."""
    import os

    from .predictions import read_predictions

    if isinstance(predictions, Predictions):
        return predictions, predictions.source
    if isinstance(predictions, (str, os.PathLike)):
        p = read_predictions(predictions, format=predictions_format)
        return p, p.source
    if isinstance(predictions, dict):
        return predictions, "<memory>"
    return list(predictions), "<memory>"


def _items(table: dict, cfg: ScoreConfig, preds) -> list:
    opts = cfg.score_options
    out = []
    for i, rid in enumerate(table["id"]):
        row = {"id": rid, "prediction": preds[i]}
        if "bleu" in cfg.metrics:
            row["bleu_stats"] = list(table["bleu_stats"][i])
            row["sentence_bleu"] = score_stats(table["bleu_stats"][i], **{**opts, "effective_order": True}).score
        for rt in cfg.rouge_types if "rouge" in cfg.metrics else ():
            row[rt] = table[f"{rt}_fmeasure"][i]
        out.append(row)
    return out


def human_ceiling(
    ds,
    *,
    tokenizer="char",
    metrics: Sequence[str] = METRICS,
    by: Sequence[str] = ("domain", "difficulty"),
    bootstrap: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
    num_proc: int | None = None,
    rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES,
    multi_ref: str = "max",
    sentence_split: str = "punct",
    bleu_options: dict | None = None,
    progress: bool = False,
    locations: dict | None = None,
    **tokenizer_options,
) -> Report:
    """Human ceiling: each reference in turn scored as a prediction against the item's remaining references.

    A model-free upper reference point: how well one human reply matches the others under the same metric. For an
    item with ``k ≥ 2`` references there are ``k`` leave-one-out rows (prediction = reference ``j``, references =
    the other ``k − 1``); items with fewer than 2 references are skipped and counted in the notes. Scores are those
    of all leave-one-out rows taken as one corpus (corpus BLEU of their summed statistics; mean ROUGE F over rows),
    so they equal ``compute_bleu``/``compute_rouge`` called on the flattened rows. Groups select, and the bootstrap
    resamples, whole items (all of an item's rows together). Note that a held-out reference is matched against
    ``k − 1`` references while a model is matched against ``k``, so the ceiling is slightly conservative.

    Args: as :func:`evaluate_predictions` (no predictions, no label check).

    Returns:
        A :class:`~zheval.adapters.duck.report.Report` with ``kind="ceiling"``.

    Raises:
        ValueError: no item has 2 or more references; bad options.
        DuckFormatError (ValueError): references empty after normalisation or without tokens (every one listed).
    """
    from datasets import Dataset

    _check_ds(ds, "human_ceiling")
    by = _check_by(ds, by)
    cfg = make_config(tokenizer, metrics, rouge_types, multi_ref, sentence_split, bleu_options, **tokenizer_options)
    cols = ds.select_columns(["id", "responses", *by]).to_dict()
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
    if not rows:
        raise ValueError("human_ceiling needs items with at least 2 references; there are none")
    pairs = Dataset.from_list(rows)
    scored = item_statistics(pairs, preds, cfg, num_proc=num_proc, desc="ceiling")
    table = scored.to_dict()
    _raise_unscorable(unscorable_problems(table, table["responses"], cfg.tokenizer, table["id"], locations, origin))
    specs = metric_specs(table, cfg, clusters=clusters)
    unit_cols = {dim: [cols[dim][i] for i in kept] for dim in by}
    groups = score_groups(specs, group_items(unit_cols, by, len(kept)), bootstrap, seed, confidence, progress)
    notes = [
        f"{len(rows)} leave-one-out rows from {len(kept)} items: each reference scored against the item's other references",
        "a held-out reference has one reference fewer than a model prediction, so the ceiling is slightly conservative",
    ]
    if skipped:
        notes.append(f"{skipped} item(s) with fewer than 2 references skipped")
    return Report(
        kind="ceiling",
        title=f"zheval ceiling: human agreement on {len(kept)} items ({len(rows)} leave-one-out rows)",
        metrics=[(s.name, s.label) for s in specs],
        groups=groups,
        signatures=_signatures(cfg, [len(r["responses"]) for r in rows], bootstrap, seed, confidence),
        params=_params(cfg, bootstrap, seed, confidence, num_proc, by),
        notes=notes,
    )


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
    *,
    tokenizer="char",
    metrics: Sequence[str] = METRICS,
    by: Sequence[str] = (),
    bootstrap: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
    num_proc: int | None = None,
    rouge_types: Sequence[str] = DEFAULT_ROUGE_TYPES,
    multi_ref: str = "max",
    sentence_split: str = "punct",
    bleu_options: dict | None = None,
    progress: bool = False,
    locations: dict | None = None,
    label_check: str = "strict",
    predictions_format: str = "auto",
    **tokenizer_options,
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
        ds: the dataset; predictions_a / predictions_b: as ``predictions`` of :func:`evaluate_predictions`; other
            arguments as there (``bootstrap`` must be ≥ 1; ``progress`` shows a bar over the resamples).

    Returns:
        A :class:`~zheval.adapters.duck.report.Report` with ``kind="compare"`` and ``comparison`` rows.

    Raises:
        ValueError: ``bootstrap`` < 1; errors of :func:`evaluate_predictions` for either file.
    """
    _check_ds(ds, "compare_predictions")
    by = _check_by(ds, by)
    if not bootstrap or bootstrap < 1:
        raise ValueError("a paired comparison needs bootstrap ≥ 1 resamples")
    cfg = make_config(tokenizer, metrics, rouge_types, multi_ref, sentence_split, bleu_options, **tokenizer_options)
    names, tables, warnings = [], [], []
    for p in (predictions_a, predictions_b):
        which = "AB"[len(tables)]
        p, name = _as_predictions(p, predictions_format)
        names.append(name)
        preds = join_predictions(ds, p, normalize=cfg.tokenizer.normalizer, label_check=label_check)
        table = item_statistics(ds, preds, cfg, num_proc=num_proc, desc=f"scoring {which}").to_dict()
        if not tables:  # the references are the same for both systems: checked once
            _raise_unscorable(unscorable_problems(table, table["responses"], cfg.tokenizer, table["id"], locations))
        tables.append(table)
        lw = _label_warning(p, f"{which}: ")
        if lw:
            warnings.append(lw)
        warnings += [f"{which}: {w}" for w in input_warnings(preds, table["responses"], cfg.tokenizer)]
    specs_a, specs_b = metric_specs(tables[0], cfg), metric_specs(tables[1], cfg)
    rows = []
    groups = group_items(_columns(ds, by), by, len(ds))
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
        signatures=_signatures(cfg, [len(r) for r in refs], bootstrap, seed, confidence),
        params={**_params(cfg, bootstrap, seed, confidence, num_proc, by), "a": names[0], "b": names[1]},
        notes=notes,
        warnings=warnings,
    )
