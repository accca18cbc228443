"""sacrebleu's statistical options of the text-file commands, written once for ``zheval bleu`` and ``zheval chrf``:
``--confidence`` (``-ci``, ``--confidence-n``), ``--paired-bs`` / ``--paired-ar`` (``--paired-bs-n``,
``--paired-ar-n``, ``--seed``), and sacrebleu 2.6.0's output of a score with them (``sacrebleu/metrics/base.py``
``Score.format``, ``sacrebleu/utils.py`` ``print_results_table``).

The numbers are sacrebleu's on the same per-segment statistics: every system's ``μ ± CI`` is
`zheval.results.reducers.mean_and_halfwidth` of `zheval.results.reducers.resampled_scores` (sacrebleu's draws:
``numpy.random.default_rng(seed).choice(n, (resamples, n))``); under ``--paired-bs`` it is taken over the paired
test's own resamples (sacrebleu prints it there too); the p-values are
`zheval.results.reducers.paired_bootstrap` and
`zheval.results.significance.paired_approximate_randomization` (sacrebleu's tests and draws, seed ``--seed``,
default 12345 like ``SACREBLEU_SEED``).

One rule sacrebleu does not have: a file of fewer than two segments
(`zheval.adapters.report.tables.MIN_INTERVAL_ITEMS`) gets no interval and no p-value, shown as ``(n=1, no
interval)`` as ``zheval score`` shows it (`zheval.adapters.report.tables.no_interval_label`): resampling one segment
always returns it, so sacrebleu's ``μ = 40.0 ± 0.0`` (and a "significant" p = 1/(R + 1) for two systems that differ
on it) would read as certainty.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from ..adapters.report.tables import MIN_INTERVAL_ITEMS, no_interval_label, no_interval_reason
from ..text.terminal import terminal_json
from .options import UserError

__all__ = ["paired_test", "confidence_resamples", "confidence_option", "paired_resamples", "resample_systems",
           "resampled_signature", "score_text", "format_single", "format_systems", "rounded_perfect_notes"]


def paired_test(o, n_systems: Optional[int] = None) -> Optional[str]:
    """The paired test asked for by ``--paired-bs`` / ``--paired-ar`` of the options ``o``: ``"bs"``, ``"ar"`` or
    ``None`` (checked before the files are read; again with ``n_systems`` after).

    Raises:
        UserError: both flags (sacrebleu's rule), or a test with fewer than ``n_systems`` = 2 systems.
    """
    if o.paired_bs and o.paired_ar:
        raise UserError("--paired-bs and --paired-ar are mutually exclusive (sacrebleu's rule)")
    paired = "bs" if o.paired_bs else "ar" if o.paired_ar else None
    if paired and n_systems is not None and n_systems < 2:
        raise UserError(f"--paired-{paired} compares systems: give at least two -i files")
    return paired


def confidence_resamples(o, paired: Optional[str]) -> int:
    """Resamples of every system's ``μ ± CI`` as sacrebleu computes them: the paired bootstrap's own
    (``--paired-bs-n``) under ``--paired-bs``, else ``--confidence-n`` with ``--confidence``, else 0 (none)."""
    if paired == "bs":
        return o.paired_bs_n
    return o.confidence_n if o.confidence else 0


def confidence_option(paired: Optional[str]) -> str:
    """The option that gives the resamples of `confidence_resamples` as the command spells it: ``--paired-bs-n``
    under ``--paired-bs``, else ``--confidence-n``."""
    return "--paired-bs-n" if paired == "bs" else "--confidence-n"


def paired_resamples(o, paired: Optional[str]) -> int:
    """Resamples (``--paired-bs-n``) or trials (``--paired-ar-n``) of the paired test ``paired``."""
    return o.paired_bs_n if paired == "bs" else o.paired_ar_n


def resample_systems(names: Sequence[str], scores: Sequence[float], rows: Sequence, from_sums: Callable, *,
                     confidence_n: int = 0, paired: Optional[str] = None, paired_n: int = 1000,
                     seed: int = 12345) -> list:
    """Every system's ``μ ± CI`` and each later system's paired test against the first, as sacrebleu computes them.

    Args:
        names: the systems' names; scores: their scores (the library's, on the scale of ``from_sums``);
        rows: per system the ``(n_segments, k)`` per-segment statistics, segments in the same order;
        from_sums: the score of summed statistics, ``(m, k) -> (m,)``; confidence_n: resamples of the ``μ ± CI``
        (0: none); paired: ``"bs"``, ``"ar"`` or ``None``; paired_n: its resamples / trials; seed: the seed of all.

    Returns:
        Per system ``{"system", "n", "score", "mean", "ci", "p_value", "no_difference", "no_interval"}``, plus
        ``"delta"`` (``score`` − the first's) under a test and ``"delta_low"``, ``"delta_high"`` (the paired
        bootstrap's 95% percentile interval of the difference) under ``"bs"``. ``mean``/``ci`` are ``None`` without
        resampling, ``p_value`` for the first system and without a test; ``no_difference``: the score equals the
        first's exactly (whatever the test's minimal p says); below two segments every interval and p-value is
        ``None`` and ``no_interval`` says why (`zheval.adapters.report.tables.no_interval_reason`).

    Raises:
        ValueError: resamples or seed out of range (`zheval.results.reducers`).
    """
    from ..results.reducers import mean_and_halfwidth, paired_bootstrap, resampled_scores
    from ..results.significance import paired_approximate_randomization

    n = len(rows[0])
    small = n < MIN_INTERVAL_ITEMS
    out = []
    for k, (name, score, r) in enumerate(zip(names, scores, rows)):
        row = {"system": name, "n": n, "score": score, "mean": None, "ci": None, "p_value": None,
               "no_difference": False, "no_interval": None}
        if small and (confidence_n or (paired and k)):
            row["no_interval"] = no_interval_reason(n)
        elif confidence_n:
            row["mean"], row["ci"] = mean_and_halfwidth(resampled_scores(r, from_sums, confidence_n, seed))
        if paired and k:
            # an exact tie (delta 0) is "no difference"; only outputs identical line for line get the minimal p
            row.update(delta=score - scores[0], no_difference=score == scores[0])
            if paired == "bs":
                row.update(delta_low=None, delta_high=None)
            if not small and paired == "bs":
                res = paired_bootstrap(rows[0], r, from_sums, paired_n, 0.95, seed)
                row.update(p_value=res["p_value"], delta_low=res["delta_low"], delta_high=res["delta_high"])
            elif not small:
                row["p_value"] = paired_approximate_randomization(rows[0], r, from_sums, paired_n, seed)["p_value"]
        out.append(row)
    return out


def resampling_cautions(tests: dict, *, confidence_n: int = 0, paired: Optional[str] = None, paired_n: int = 0,
                        paired_option: str = "--paired-bs-n", confidence_option: str = "--confidence-n") -> list:
    """The cautions of `zheval.results.reducers.resample_cautions` (few resamples, an interval without its own
    value) about sacrebleu's ``μ ± CI`` (``confidence_n`` resamples, ``confidence_option``: ``--paired-bs-n`` where
    the paired bootstrap's resamples give it, `confidence_option`) and the paired bootstrap's interval of Δ
    (``paired="bs"``, ``paired_n`` resamples, ``paired_option``). ``tests``: ``{score label: the rows of
    `resample_systems`}``."""
    from ..results.reducers import resample_cautions

    rows = [(label, s) for label, systems in tests.items() for s in systems]
    out = []
    mus = [(f"{s['system']} {label}", s["score"], s["mean"] - s["ci"], s["mean"] + s["ci"]) for label, s in rows
           if s.get("mean") is not None and s.get("ci") is not None]
    if confidence_n and mus:
        out += resample_cautions(confidence_n, mus, what="μ ± 95% CI", option=confidence_option)
    deltas = [(f"{s['system']} {label}", s["delta"], s["delta_low"], s["delta_high"]) for label, s in rows
              if s.get("delta_low") is not None]
    if paired == "bs" and deltas:
        out += resample_cautions(paired_n, deltas, what="interval of Δ", option=paired_option)
    return out


def resampled_signature(signature: str, *, confidence_n: int = 0, paired: Optional[str] = None,
                        paired_n: int = 1000, seed: int = 12345) -> str:
    """``signature`` with the resampling behind its intervals and p-values, as sacrebleu's signature has it: ``bs:N``
    (the ``μ ± CI``'s resamples, the paired bootstrap's under ``--paired-bs``), ``ar:T`` (approximate randomisation
    trials) and ``seed:S``, before the trailing ``zheval:`` field (where the library puts ``bs``/``seed``,
    `zheval.results.signature.interval_fields`); a field the signature has already (the library's ``bs`` of
    ``--bootstrap``) is kept as it is."""
    fields = ([("bs", paired_n if paired == "bs" else confidence_n)] if paired == "bs" or confidence_n else [])
    fields += [("ar", paired_n)] if paired == "ar" else []
    fields += [("seed", seed)] if fields else []
    fields = [(k, v) for k, v in fields if f"|{k}:" not in f"|{signature}"]
    if not fields:
        return signature
    head, sep, version = signature.rpartition("|zheval:")
    extra = "|".join(f"{k}:{v}" for k, v in fields)
    return f"{head}|{extra}{sep}{version}" if sep else f"{signature}|{extra}"


def rounded_perfect_notes(scores: list, scale: float, width: int) -> list:
    """The notes for scores that print as the perfect score without being it: ``scores`` is ``[(system, metric
    label, value on 0-1), ...]``; a value below 1 whose ``width``-decimal form on ``scale`` reads as ``scale``
    (99.975 as ``100.0``) gets one note naming it, its value and the fewest decimals that tell it from perfect
    (``-w``); ``[]`` otherwise. The printed number stays sacrebleu's rounding. Raises nothing."""
    notes = []
    for system, label, value in scores:
        if value is None or not 0 <= value < 1 or float(f"{value * scale:.{width}f}") != scale:
            continue
        need = next((w for w in range(width + 1, 18) if float(f"{value * scale:.{w}f}") != scale), None)
        exact = f"{value * scale:.{need}f}" if need is not None else repr(value * scale)
        notes.append(f"{system}: {label} {exact} prints as {scale:.{width}f} at {width} decimal(s) but is not a perfect "
                     f"score{f'; -w {need} shows it' if need is not None else ''}")
    return notes


def score_text(row: dict, width: int, scale: float = 1) -> str:
    """``37.4``, ``37.4 (μ = 37.3 ± 2.2)`` (sacrebleu's) or ``40.0 (n=1, no interval)``: a row of
    `resample_systems` times ``scale`` with ``width`` decimals."""
    sc = f"{row['score'] * scale:.{width}f}"
    if row["no_interval"]:
        sc += f" ({no_interval_label(row['n'])})"
    elif row["mean"] is not None:
        sc += f" (μ = {row['mean'] * scale:.{width}f} ± {row['ci'] * scale:.{width}f})"
    return sc


def format_single(name: str, signature: str, row: dict, *, width: int, fmt: str, score_only: bool,
                  scale: float = 1, verbose: Optional[str] = None, warnings: Optional[list] = None) -> str:
    """One system as sacrebleu's ``Score.format``: ``-b`` the score (`score_text`); ``text``:
    ``<name>|<signature> = <score_text>[ <verbose>]``; ``json``: ``{"name", "score", "signature",
    ["confidence_mean", "confidence_var", "confidence" | "no_interval"], ["verbose_score"], every signature
    field, ["warnings"]}`` indented by one space (`zheval.text.terminal.terminal_json`); ``"warnings"`` (the key of
    ``zheval bleu -f json``) when ``warnings`` is given, ``[]`` included."""
    if score_only:
        return score_text(row, width, scale) + "\n"
    if fmt == "text":
        return f"{name}|{signature} = {score_text(row, width, scale)}" + (f" {verbose}" if verbose else "") + "\n"
    d = {"name": name, "score": float(f"{row['score'] * scale:.{width}f}"), "signature": signature}
    if row["no_interval"]:
        d["no_interval"] = row["no_interval"]
    elif row["mean"] is not None:
        m, ci = f"{row['mean'] * scale:.{width}f}", f"{row['ci'] * scale:.{width}f}"
        d.update(confidence_mean=float(m), confidence_var=float(ci), confidence=f"μ = {m} ± {ci}")
    if verbose:
        d["verbose_score"] = verbose
    for field in signature.split("|"):
        key, value = field.split(":", 1)
        d[key] = value
    if warnings is not None:
        d["warnings"] = list(warnings)
    return terminal_json(d, indent=1) + "\n"


def _json_systems(name: str, rows: list, width: int, paired: Optional[str], scale: float) -> str:
    def r(x):
        return None if x is None else round(x * scale, width)

    doc = []
    for s in rows:
        if paired or s["mean"] is not None or s["no_interval"]:
            value = {"score": r(s["score"]), "p_value": s["p_value"], "no_difference": s["no_difference"],
                     "mean": r(s["mean"]), "ci": r(s["ci"])}
            if s["no_interval"]:
                value["no_interval"] = s["no_interval"]
        else:
            value = f"{s['score'] * scale:.{width}f}"
        doc.append({"system": s["system"], name: value})
    return terminal_json(doc, indent=4) + "\n"


def format_systems(name: str, signature: str, rows: list, *, width: int, fmt: str, score_only: bool,
                   paired: Optional[str], paired_n: int, scale: float = 1) -> str:
    """Several systems (the first is the baseline) as sacrebleu's multi-system table: ``-b`` one score per line;
    ``json`` a list of ``{"system", "<name>": score}`` (with a test or an interval: ``{"score", "p_value",
    "no_difference", "mean", "ci"}``, what sacrebleu 2.6.0 prints for BLEU); ``text`` one row per system
    (``score (μ ± CI)``, ``(p = 0.0010)*`` under a test, ``*`` marking p <= 0.05, "no difference" for a delta of 0)
    with the test and the signature under it."""
    if score_only:
        return "".join(f"{s['score'] * scale:.{width}f}\n" for s in rows)
    if fmt == "json":
        return _json_systems(name, rows, width, paired, scale)
    cells = []
    for i, s in enumerate(rows):
        sc = f"{s['score'] * scale:.{width}f}"
        if s["no_interval"]:
            sc += f" ({no_interval_label(s['n'])})"
        elif s["mean"] is not None:
            sc += f" ({s['mean'] * scale:.{width}f} ± {s['ci'] * scale:.{width}f})"
        if s["p_value"] is not None:
            if s["no_difference"]:
                sc += f" (p = {s['p_value']:.4f}, no difference)"
            else:
                sc += f" (p = {s['p_value']:.4f})" + ("*" if s["p_value"] <= 0.05 else "")
        cells.append((("Baseline: " if paired and i == 0 else "") + s["system"], sc))
    head = ("System", name + (" (μ ± 95% CI)" if rows[0]["mean"] is not None else ""))
    table = [head] + cells
    w0, w1 = (max(len(r[c]) for r in table) for c in (0, 1))
    lines = [f"{a.rjust(w0)}  {b}".rstrip() for a, b in table]
    lines.insert(1, f"{'-' * w0}  {'-' * w1}")
    if paired:
        test = (f"paired bootstrap resampling test with {paired_n} resamples" if paired == "bs" else
                f"paired approximate randomization test with {paired_n} trials")
        lines += ["", f"{test} (seed and draws as sacrebleu's): each system against {rows[0]['system']}; "
                      "p <= 0.05 marked with *; a system that scores exactly as the baseline (delta 0) is 'no "
                      "difference', never starred"]
    if any(s["no_interval"] for s in rows):
        why = rows[0]["no_interval"] or rows[-1]["no_interval"]
        lines += ["", f"no interval{' and no p-value' if paired else ''}: {why}"]
    lines += ["", f"signature: {signature}"]
    return "\n".join(lines) + "\n"
