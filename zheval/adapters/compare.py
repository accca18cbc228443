"""Paired comparison of systems on the same 小黄鸭 items ([`compare_predictions`][zheval.adapters.compare.compare_predictions]): each system against the
first (the baseline, A), as sacrebleu's ``--paired-bs`` / ``--paired-ar`` do: both scores, the difference with its
paired-bootstrap interval, and the p-value of the chosen test (sacrebleu's paired bootstrap, or paired approximate
randomisation), per group, with the notes that explain the p-value.

Every p-value follows sacrebleu's convention (a strict ``>`` and +1 smoothing), which gives p = 1/(resamples + 1),
its smallest value, to two systems whose outputs are identical line for line (every resampled difference is then 0
too, and none exceeds 0 strictly); a note says so plainly for those rows (`NO_DIFFERENCE_NOTE`), while ``p_value``
stays sacrebleu's number. A row whose scores are equal (``no_difference: True``, B − A = 0) from outputs that differ
gets the test's ordinary p (resampled differences are not 0; e.g. 0.42 under the paired bootstrap, as sacrebleu's
``--paired-bs``), and no such note. With three or more systems each is tested against A separately, with no correction for
multiple comparisons (a note says so, `MANY_SYSTEMS_NOTE`), as sacrebleu.

A group with fewer than 2 items gets no interval and no p-value (``delta_low``/``delta_high``/``p_value``
``None``, ``no_interval`` says why): resampling one item always gives the observed difference, and sacrebleu's
p would be its minimum, which would read as significant.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from ..compute.bertscore import BertScoreOptions
from ..compute.options import BleuOptions, ChrfOptions, RougeOptions
from ..results.reducers import paired_bootstrap
from ..results.significance import AR_DEFAULT_TRIALS, paired_approximate_randomization
from ..results.breakdowns import check_max_refs, reference_limit, reference_limit_notes
from .duck.config import DEFAULT_METRICS, make_config, report_options
from .duck.evaluate import first_references_of
from ..results.diagnostics import SystemDiagnostics
from .duck.inputs import as_predictions, check_by, check_dataset, group_columns, order_notes, prediction_checks
from .duck.predictions import PredictionMismatchError, join_predictions
from .report.tables import MIN_INTERVAL_ITEMS, Report, group_items, no_interval_reason
from .duck.reductions import (add_bertscore, bertscore_config_of, bertscore_notes, metric_specs, report_params,
                              report_signatures)
from .duck.statistics import item_statistics, raise_unscorable, unscorable_problems

__all__ = ["compare_predictions", "COMPARE_TESTS", "system_labels", "P_VALUE_NOTE", "AR_P_VALUE_NOTE",
           "NO_DIFFERENCE_NOTE", "MANY_SYSTEMS_NOTE", "SMALL_SAMPLE_NOTE", "SMALL_SAMPLE_ITEMS"]

#: The significance tests of `compare_predictions`: ``bootstrap`` (paired bootstrap, Koehn 2004) and ``ar``
#: (paired approximate randomisation, Riezler & Maxwell 2005), both with sacrebleu 2.6.0's p-value.
COMPARE_TESTS = ("bootstrap", "ar")

#: How ``compare`` explains its p-value (sacrebleu 2.6.0 ``_paired_bs_test``, kept exactly).
P_VALUE_NOTE = (
    "p: sacrebleu's paired-bootstrap p-value = (1 + number of resamples whose |B − A|, shifted to mean 0, is strictly "
    "larger than the observed |B − A|) / ({n} + 1): an estimate of the chance of a difference strictly larger "
    "than this one if A and B were equally good. The +1 makes {pmin:.4f} the smallest possible p, which is what two "
    "systems whose outputs are identical line for line get (every resampled difference is then 0)."
)
#: The same for ``--test ar`` (sacrebleu 2.6.0 ``_paired_ar_test``, kept exactly).
AR_P_VALUE_NOTE = (
    "p: sacrebleu's paired approximate-randomisation p-value = (1 + number of trials whose |A' − B'| is strictly "
    "larger than the observed |B − A|) / ({n} + 1), where each trial swaps every item's pair of outputs with "
    "probability 1/2 (seed {seed}): an estimate of the chance of a difference strictly larger than this one if "
    "the outputs' labels were exchangeable. The +1 makes {pmin:.4f} the smallest possible p, which is what two "
    "systems whose outputs are identical line for line get (every swap then leaves the difference at 0). "
    "The interval is the paired bootstrap's ({boot} resamples)."
)
#: Added when the two systems of some row have outputs identical line for line (in that row's group), where that
#: minimal p means nothing. Equal scores from outputs that differ get no such note: their p is the test's own.
NO_DIFFERENCE_NOTE = (
    "no difference: the systems' outputs are identical line for line for {where}, so B − A = 0 on every resample "
    "and p = {pmin:.4f}, the smallest possible, is an artefact of the convention above (no resample can exceed 0 "
    "strictly, and the +1 keeps p above 0), not evidence of a difference."
)
#: Below this many items in a group with a p-value, `SMALL_SAMPLE_NOTE` cautions about it.
SMALL_SAMPLE_ITEMS = 10
#: Added when a group with a p-value has fewer than `SMALL_SAMPLE_ITEMS` items ({distinct}: the test's distinct
#: draws, 2^N label swaps for ar, C(2N − 1, N) resamples for the bootstrap).
SMALL_SAMPLE_NOTE = (
    "with {n} items ({where}) the p-value is unreliable: the test can draw only {distinct} distinct {what}, so its "
    "{trials} {unit} repeat them and a p as small as {pmin:.4f} says little about A and B; compare on at least "
    "{min_items} items before reading the p-value."
)
#: Added when more than one system is compared with A.
MANY_SYSTEMS_NOTE = (
    "{m} systems are each compared with A separately (as sacrebleu does); the p-values are not corrected for "
    "multiple comparisons: with {m} tests at level 0.05, expect up to {m} × 0.05 = {fwer:.2f} false findings by "
    "chance (a Bonferroni threshold would be 0.05 / {m} = {bonf:.4f})."
)


def system_labels(n: int) -> list[str]:
    """Labels of ``n`` compared systems: ``A`` (the baseline), ``B``, ``C``, … ``Z``, then ``S27``, ``S28``, …"""
    return [chr(ord("A") + k) if k < 26 else f"S{k + 1}" for k in range(n)]


def compare_predictions(
    ds,
    predictions_a,
    predictions_b,
    *more_predictions,
    metrics: Sequence[str] = DEFAULT_METRICS,
    tokenizer: Any = "char",
    by: Sequence[str] = (),
    bootstrap: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
    test: str = "bootstrap",
    resamples: Optional[int] = None,
    num_proc: Optional[int] = None,
    progress: bool = False,
    locations: Optional[Mapping[str, tuple]] = None,
    label_check: str = "strict",
    predictions_format: str = "auto",
    max_refs: Optional[int] = None,
    rouge: Optional[RougeOptions] = None,
    bleu: Optional[BleuOptions] = None,
    chrf: Optional[ChrfOptions] = None,
    bertscore: Optional[BertScoreOptions] = None,
    **options: Any,
) -> Report:
    """Paired comparison of system B (and C, D, …) against system A (the baseline) on the same items.

    For each group (overall, then ``by``), metric and system X ≠ A: both systems' scores, ``delta = X − A``, the
    percentile interval of the paired-bootstrap resampled difference
    (`zheval.results.reducers.paired_bootstrap`; same resampled items for both systems, ``bootstrap``
    resamples, seeded), and the p-value of ``test``:

    * ``"bootstrap"`` (default): sacrebleu's paired-bootstrap p-value from those same resamples;
    * ``"ar"``: sacrebleu's paired approximate-randomisation p-value
      (`zheval.results.significance.paired_approximate_randomization`, ``resamples`` trials, default 10,000
      as sacrebleu, seeded with ``seed``). The p-value's convention, groups too small for one: the module's docstring.

    Args:
        ds: the dataset, as [`evaluate_predictions`][zheval.adapters.duck.evaluate.evaluate_predictions] (and so are the arguments without a text of their own).
        predictions_a: system A, the baseline: as ``predictions`` there, matched to the dataset's items.
        predictions_b: system B, as ``predictions_a``.
        more_predictions: systems C, D, …, as ``predictions_a``.
        metrics: any of ``"bleu"``, ``"rouge"``, ``"chrf"``.
        tokenizer: the scoring tokenizer of every metric.
        by: the group columns (default: overall only).
        bootstrap: the paired-bootstrap resamples (2 to `MAX_BOOTSTRAP_RESAMPLES`:
            `zheval.results.reducers.check_bootstrap` with ``zero=False``).
        seed: the seed of the resamples and of the AR trials.
        confidence: the level of the difference's interval.
        test: ``"bootstrap"`` or ``"ar"``.
        resamples: number of AR trials (``test="ar"``; 1 to `MAX_BOOTSTRAP_RESAMPLES`; ``None``: 10,000); with
            ``test="bootstrap"`` it must be ``None`` or equal ``bootstrap``.
        num_proc: ``map`` worker processes.
        progress: show a bar.
        locations: ``{item id: (path, line)}`` of the 小黄鸭 file.
        label_check: LLaMA-Factory label check (``strict``, ``warn``, ``off``).
        predictions_format: ``format`` of a predictions path.
        max_refs: the first K references of every item (``None``: all; ``maxrefs:K`` in the signatures).
        rouge: ROUGE's options as one [`RougeOptions`][zheval.compute.options.RougeOptions].
        bleu: BLEU's options as one [`BleuOptions`][zheval.compute.options.BleuOptions].
        chrf: chrF's options as one [`ChrfOptions`][zheval.compute.options.ChrfOptions].
        bertscore: adds BERTScore-F1 (``bertscore_f1``) with its paired test, as in ``evaluate_predictions`` (one
            model load; idf over the shared references); ``None``: none.
        options: the metric options by name.

    Returns:
        A `Report` with ``kind="compare"`` and ``comparison`` rows (``system``: the label of X, ``B`` … ; ``source``:
        its file; ``test``; ``ci_resamples`` / ``test_resamples``: of the interval / the p-value, `_paired_rows`); ``diagnostics``: every system's as ``evaluate_predictions`` gives one
        (`SystemDiagnostics`; ``reference_limit`` with ``max_refs``), its warnings and notes prefixed by its label.

    Raises:
        ValueError: ``bootstrap`` outside 2 … the maximum, an unknown ``test``, ``resamples`` outside 1 … it;
            `PredictionMismatchError` naming the system and its file when its predictions do not match the items
            (e.g. a different number of lines); errors of `evaluate_predictions` for any file.
    """
    scoring = report_options("compare_predictions", metrics, tokenizer, options,
                             {"rouge": rouge, "bleu": bleu, "chrf": chrf})
    check_dataset(ds, "compare_predictions")
    by = check_by(ds, by)
    test, trials = _check_test(test, resamples, bootstrap)
    whole, (ds, max_refs, limit) = ds, _first_references(ds, max_refs)  # whole: every reference, for stored ones
    cfg, bert = make_config(scoring, max_refs=max_refs), bertscore_config_of(bertscore, "compare_predictions")
    labels = system_labels(2 + len(more_predictions))
    names, tables, warnings, order, diags = _score_systems(ds, [predictions_a, predictions_b, *more_predictions],
                                                           labels, cfg, num_proc, locations, label_check,
                                                           predictions_format, limit, whole)
    specs, refs = [metric_specs(t, cfg) for t in tables], tables[0]["responses"]
    berts = [] if bert is None else add_bertscore(specs, bert, [t["prediction"] for t in tables], refs)
    groups = group_items(group_columns(ds, by), by, len(ds))
    rows = _paired_rows(specs, groups, labels, names, test, trials, int(bootstrap), confidence, seed, progress)
    bert = berts[0] if berts else None
    params = {**report_params(cfg, bootstrap, seed, confidence, num_proc, by, bert), "a": names[0], "b": names[1],
              "test": test, "systems": dict(zip(labels, names)), **({"resamples": trials} if test == "ar" else {})}
    notes = order + _compare_notes(rows, test, trials, int(bootstrap), seed, len(labels),
                                   _identical_outputs(tables, groups, labels), limit)
    return Report(kind="compare", title=f"zheval compare: {', '.join(f'{a} = {n}' for a, n in zip(labels, names))} "
                  f"({len(ds)} items)", metrics=[(s.name, s.label) for s in specs[0]], comparison=rows,
                  signatures=_test_signatures(cfg, [len(r) for r in refs], (bootstrap, seed, confidence, bert), test, trials),
                  params=params, warnings=warnings, diagnostics=SystemDiagnostics(diags),
                  notes=notes + [n for lbl, r in zip(labels, berts) for n in bertscore_notes(r, f"{lbl}: ")])


def _first_references(ds, max_refs) -> tuple:
    """``(ds, max_refs, limit)``: ``max_refs`` checked, and with it, as ``evaluate_predictions`` does, ``ds`` cut to
    the first K references of every item and ``limit`` its `reference_limit` counted before the cut (each
    system's diagnostics carry it); without it ``ds`` unchanged and ``limit`` ``None``."""
    max_refs = check_max_refs(max_refs, "max_refs")
    if max_refs is None:
        return ds, None, None
    return first_references_of(ds, max_refs), max_refs, reference_limit([len(r) for r in ds["responses"]], max_refs)


def _score_systems(ds, systems: list, labels: list, cfg, num_proc, locations, label_check: str,
                   predictions_format: str, limit: Optional[dict] = None, whole=None) -> tuple:
    """Every system's predictions joined to the items and scored: ``(names, statistics tables, warnings, notes,
    diagnostics)``: the warnings and the diagnostics of each system as ``zheval score`` gives them
    (`prediction_checks`: length ratio, truncation, empty predictions, input slips, stored fields; each warning
    prefixed with the system's label), the notes of `order_notes` (e.g. paired by line order), the diagnostics as
    ``{label: (file, Diagnostics)}`` (each with ``limit``, the `reference_limit` of ``max_refs``, or ``None``).
    ``whole``: the items before ``max_refs`` cut their references (``None``: ``ds``), which the predictions' stored
    references are compared with (a stored reference cut by ``max_refs`` is still its item's).

    Raises:
        PredictionMismatchError naming the system and its file; the unscorable references (checked once: the
        references are the same for every system)."""
    names, tables, warnings, notes, diags = [], [], [], [], {}
    for k, (which, p) in enumerate(zip(labels, systems)):
        param = ("predictions_a", "predictions_b")[k] if k < 2 else f"more_predictions[{k - 2}]"
        p, name = as_predictions(p, predictions_format, param)
        names.append(name)
        try:
            preds = join_predictions(ds if whole is None else whole, p, normalize=cfg.tokenizer.normalizer,
                                     label_check=label_check)
        except PredictionMismatchError as exc:
            raise PredictionMismatchError(f"system {which} ({name}): {exc}") from None
        table = item_statistics(ds, preds, cfg, num_proc=num_proc, desc=f"scoring {which}").to_dict()
        if not tables:
            raise_unscorable(unscorable_problems(table, table["responses"], cfg.tokenizer, table["id"], locations))
        tables.append(table)
        diag, more = prediction_checks(p, preds, table["responses"], table["id"], cfg.tokenizer, f"{which}: ",
                                       excluded_shown=False, reference_limit=limit, locations=locations)
        diags[which] = (name, diag)
        warnings += more
        notes += order_notes(p, f"{which}: ")
    return names, tables, warnings, notes, diags


def _paired_rows(specs: list, groups: list, labels: list, names: list, test: str, trials: int, bootstrap: int,
                 confidence: float, seed: int, progress: bool) -> list:
    """The comparison rows: per group, metric and system X != A, both scores, the paired-bootstrap interval of
    X - A and the p-value of ``test`` (a group below `MIN_INTERVAL_ITEMS` items gets neither); ``ci_resamples``:
    the interval's ``bootstrap`` resamples, ``test_resamples``: the p-value's resamples (bootstrap) or trials
    (ar)."""
    rows = []
    bar = None
    per_test = bootstrap + (trials if test == "ar" else 0)
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(groups) * len(specs[0]) * (len(specs) - 1) * per_test,
                   desc="paired " + ("bootstrap" if test == "bootstrap" else "bootstrap + randomisation"),
                   unit="resample", unit_scale=True, leave=False)
    for dim, label, idx in groups:
        gname = "overall" if dim == "overall" else f"{dim}={label}"
        for m, sa in enumerate(specs[0]):
            a = float(sa.point(idx))
            for k in range(1, len(specs)):
                sb = specs[k][m]
                b = float(sb.point(idx))
                if len(idx) >= MIN_INTERVAL_ITEMS:
                    res = paired_bootstrap(sa.rows[idx], sb.rows[idx], sa.from_sums, bootstrap, confidence, seed)
                    del res["n_resamples"]  # ci_resamples and test_resamples below say whose count it is
                    if test == "ar":
                        ar = paired_approximate_randomization(sa.rows[idx], sb.rows[idx], sa.from_sums, trials, seed)
                        res["p_value"] = ar["p_value"]
                else:
                    res = {"delta_low": None, "delta_high": None, "p_value": None, "seed": seed,
                           "no_interval": no_interval_reason(len(idx))}
                # the interval's paired-bootstrap resamples, and the resamples (bootstrap) or trials (ar) of the
                # p-value: "n_resamples": 100 beside "n_trials": 500 did not say which was whose
                res.update(ci_resamples=bootstrap, test_resamples=trials)
                if bar is not None:
                    bar.update(per_test)
                res.update({"score_a": a, "score_b": b, "delta": b - a, "no_difference": a == b, "test": test})
                rows.append({"group": gname, "n": int(len(idx)), "metric": sa.name, "label": sa.label,
                             "system": labels[k], "source": names[k], **res})
    if bar is not None:
        bar.close()
    return rows


def _test_signatures(cfg, ref_counts: list, interval: tuple, test: str, trials: int) -> dict:
    """The report's signatures (`report_signatures` of ``cfg``, ``ref_counts`` and ``interval`` = ``(bootstrap,
    seed, confidence, BERTScore result)``) with the paired test behind the p-values, as ``zheval bleu --paired-ar`` and
    sacrebleu's ``PairedTest`` write it: ``ar:T`` (the approximate randomisation's trials) before ``seed``, beside
    the interval's ``bs:N``; the bootstrap test's p-values come from the interval's own resamples, already ``bs:N``.
    (``--test ar`` signatures read ``bs:N|seed:S`` alone, as a bootstrap run's, though the p-values differ.)"""
    signatures = report_signatures(cfg, ref_counts, *interval)
    if test != "ar":
        return signatures
    out = {}
    for metric, sig in signatures.items():
        head, sep, tail = sig.partition("|seed:")
        out[metric] = f"{head}|ar:{trials}{sep}{tail}" if sep else f"{sig}|ar:{trials}"
    return out


def _identical_outputs(tables: list, groups: list, labels: list) -> set:
    """``{(group name, label)}`` of the systems X whose predictions equal A's line for line on that group's items
    (the rows whose p is the convention's minimum for no reason but the +1, `NO_DIFFERENCE_NOTE`)."""
    preds = [list(t["prediction"]) for t in tables]
    out = set()
    for dim, label, idx in groups:
        gname = "overall" if dim == "overall" else f"{dim}={label}"
        for k in range(1, len(tables)):
            if all(preds[k][int(i)] == preds[0][int(i)] for i in idx):
                out.add((gname, labels[k]))
    return out


def _compare_notes(rows: list, test: str, trials: int, bootstrap: int, seed: int, n_systems: int,
                   identical: set = frozenset(), limit: Optional[dict] = None) -> list:
    """The notes that explain the p-values of the rows (the test's convention, several systems, small groups, the
    rows whose systems' outputs are identical line for line: ``identical``, `_identical_outputs`), then the
    `reference_limit_notes` of ``limit`` (``max_refs`` that cut nothing, as ``evaluate_predictions`` says it) and the
    cautions about the intervals (`_interval_cautions`)."""
    n_p = trials if test == "ar" else bootstrap
    pmin = 1 / (n_p + 1)
    if test == "ar":
        notes = [AR_P_VALUE_NOTE.format(n=n_p, pmin=pmin, seed=seed, boot=bootstrap)]
    else:
        notes = [P_VALUE_NOTE.format(n=n_p, pmin=pmin)]
    if n_systems > 2:
        m = n_systems - 1
        notes.append(MANY_SYSTEMS_NOTE.format(m=m, fwer=min(1.0, m * 0.05), bonf=0.05 / m))
    small = sorted({r["group"] for r in rows if r.get("no_interval")})
    if small:
        notes.append(f"no interval and no p-value for {', '.join(small)}: {no_interval_reason(None)}")
    notes += _small_sample_notes(rows, test, n_p, pmin)
    two = n_systems == 2
    ties = [f"{r['label']} ({r['group']}{'' if two else ', ' + r['system']})" for r in rows
            if (r["group"], r["system"]) in identical and r.get("p_value") is not None]
    if ties:
        notes.append(NO_DIFFERENCE_NOTE.format(where=", ".join(ties), pmin=pmin))
    return notes + reference_limit_notes(limit) + _interval_cautions(rows, bootstrap, n_systems)


def _interval_cautions(rows: list, bootstrap: int, n_systems: int) -> list:
    """`resample_cautions` of the rows' paired-bootstrap intervals of X − A (few resamples; an interval without its
    difference), as ``zheval score`` gives them of its intervals."""
    from ..results.reducers import resample_cautions

    many = n_systems > 2
    intervals = [(f"{r['label']} ({r['group']}{', ' + r['system'] if many else ''})", r["delta"], r["delta_low"],
                  r["delta_high"]) for r in rows if r.get("delta_low") is not None]
    return resample_cautions(bootstrap, intervals, what="interval of X − A") if intervals else []


def _small_sample_notes(rows: list, test: str, n_p: int, pmin: float) -> list:
    """`SMALL_SAMPLE_NOTE` for each item count below `SMALL_SAMPLE_ITEMS` among the rows with a p-value."""
    from math import comb

    by_n: dict = {}
    for r in rows:
        if r.get("p_value") is not None and r["n"] < SMALL_SAMPLE_ITEMS and r["group"] not in by_n.get(r["n"], []):
            by_n.setdefault(r["n"], []).append(r["group"])
    what, unit = ("label swaps", "trials") if test == "ar" else ("resamples", "resamples")
    return [SMALL_SAMPLE_NOTE.format(n=n, where=", ".join(by_n[n]), what=what, unit=unit, trials=n_p, pmin=pmin,
                                     distinct=2 ** n if test == "ar" else comb(2 * n - 1, n),
                                     min_items=SMALL_SAMPLE_ITEMS) for n in sorted(by_n)]


def _check_test(test, resamples, bootstrap) -> tuple[str, int]:
    """``(test, number of resamples of its p-value)``, or ``ValueError`` naming the option."""
    from ..results.reducers import check_bootstrap, check_trials

    bootstrap = check_bootstrap(bootstrap, "bootstrap", zero=False)  # a paired comparison needs resamples
    if test not in COMPARE_TESTS:
        raise ValueError(f"unknown test {test!r}; valid: {', '.join(COMPARE_TESTS)} (paired bootstrap, paired "
                         "approximate randomisation)")
    if resamples is not None:
        resamples = check_trials(resamples, "resamples")
    if test == "bootstrap":
        if resamples is not None and resamples != bootstrap:
            raise ValueError(f"resamples={resamples} with test='bootstrap': the paired bootstrap's p-value and "
                             f"interval come from the same {bootstrap} resamples (bootstrap); set bootstrap instead, "
                             "or use test='ar' for approximate randomisation with resamples trials")
        return test, bootstrap
    return test, AR_DEFAULT_TRIALS if resamples is None else int(resamples)
