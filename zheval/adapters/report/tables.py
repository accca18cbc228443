"""Per-item statistics → grouped score tables with bootstrap intervals, and their rendering.

The unit of work is a per-item statistics table (one row per dataset item), produced by
`zheval.adapters.duck.statistics.item_statistics`. Everything here is a reduction of those rows:

* corpus BLEU of a group = BLEU scored from the **summed** BLEU statistics of its rows (Papineni 2002, 2.2);
  mean ROUGE F of a group = the mean of its rows' F values;
* a bootstrap interval resamples the group's rows and recomputes the same reduction
  (`zheval.results.reducers.bootstrap_interval`).

Rendering: `render_table` (plain text, aligned for CJK double-width characters), `render_markdown`,
`Report.to_dict` (JSON carries everything). The diagnostics a report carries (length ratio, truncation, empty
predictions, reference counts) are `zheval.results.diagnostics`; the plot is `zheval.adapters.report.plot`;
files are written by `zheval.adapters.files.atomic_write`.
"""

from __future__ import annotations


import unicodedata
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from ...results.diagnostics import Diagnostics, SystemDiagnostics, is_blank
from ...results.group_labels import NULL_LABEL, group_label, group_value
from ...results.reducers import MIN_INTERVAL_ITEMS, no_interval_reason
from ...text.terminal import escaped_text, markdown_text, terminal_text

__all__ = [
    "BERTSCORE_METRIC",
    "group_label",
    "group_value",
    "NULL_LABEL",
    "GroupScore",
    "MetricValue",
    "Report",
    "MetricSpec",
    "group_items",
    "score_groups",
    "display_width",
    "format_table",
    "render_table",
    "render_markdown",
    "MIN_INTERVAL_ITEMS",
    "no_interval_reason",
    "no_interval_label",
    "render_items",
    "breakdown_sections",
    "reference_limit_line",
    "most_repeated",
    "interval_note",
]


def no_interval_label(n: int) -> str:
    """What a table shows in place of the interval of a group of ``n`` items (< `MIN_INTERVAL_ITEMS`):
    ``"n=1, no interval"`` (every text door: the score report, ``zheval compare``, ``zheval bleu`` / ``chrf``)."""
    return f"n={n}, no interval"


# ---------------------------------------------------------------------------------------------------------------
# plain-text tables


def display_width(text: str) -> int:
    """Terminal column width of ``text``: East Asian wide/full-width characters count 2, combining marks 0."""
    w = 0
    for c in text:
        if unicodedata.combining(c):
            continue
        w += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return w


def _pad(text: str, width: int, right: bool = False) -> str:
    gap = " " * max(0, width - display_width(text))
    return gap + text if right else text + gap


def format_table(header: Sequence[str], rows: Sequence[Sequence[str]], right_from: int = 1) -> str:
    """Align a table of strings for a terminal (CJK-aware). Columns from ``right_from`` on are right-aligned. Every
    cell is shown through `zheval.text.terminal.terminal_text` (one line: control characters, newlines and
    tabs of the data escaped) before it is measured."""
    header = [terminal_text(c, one_line=True) for c in header]
    rows = [[terminal_text(c, one_line=True) for c in r] for r in rows]
    cols = len(header)
    widths = [max(display_width(str(r[i])) for r in [header, *rows]) for i in range(cols)]
    out = []
    for k, r in enumerate([header, *rows]):
        out.append("  ".join(_pad(str(r[i]), widths[i], right=i >= right_from) for i in range(cols)).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------------------------
# metric reductions

#: The report's key of the BERTScore-F1 column (``zheval score/compare --bertscore-model``): a model-based score,
#: with no n-gram explanation.
BERTSCORE_METRIC = "bertscore_f1"


@dataclass
class MetricSpec:
    """How one metric is reduced from per-item statistics.

    Attributes:
        name: result key (``"bleu"``, ``"rouge1"``, …); label: table header (``"BLEU"``, ``"ROUGE-1"``).
        rows: ``(n_items, k)`` per-item statistics; every score of a subset is a function of its column sums.
        from_sums: vectorised score from column sums, ``(m, k) -> (m,)`` (used for bootstrap and paired tests).
        point: exact score of a subset given its item indices (the same function the metric module uses, e.g.
            ``math.fsum`` means, so the overall value equals ``compute_rouge``/``compute_bleu`` bit for bit).
        details: optional ``indices -> dict`` of extra JSON values (BLEU precisions and brevity penalty, ROUGE P/R).
    """

    name: str
    label: str
    rows: np.ndarray
    from_sums: Callable[[np.ndarray], np.ndarray]
    point: Callable[[np.ndarray], float]
    details: Callable[[np.ndarray], dict] | None = None
    boot_rows: np.ndarray | None = None
    boot_statistic: Callable[[np.ndarray], np.ndarray] | None = None

    def statistic(self, r: np.ndarray) -> np.ndarray:
        """Vectorised statistic on resampled rows ``(..., n, k) -> (...)`` for `zheval.results.reducers.bootstrap_interval`.

        (``boot_rows``/``boot_statistic``, when set, replace ``rows``/``statistic`` for the bootstrap interval, so an
        interval can be computed with exactly the arithmetic of the metric module, e.g. ``a.mean(axis=-1)`` on the
        1-D per-item F values as ``compute_rouge`` does.)"""
        sums = r.sum(axis=-2)
        lead = sums.shape[:-1]
        return np.asarray(self.from_sums(sums.reshape(-1, sums.shape[-1]))).reshape(lead)


@dataclass
class MetricValue:
    """A score (0–1) with its bootstrap interval (``low``/``high`` are ``None`` without bootstrap, and for a group of
    fewer than `MIN_INTERVAL_ITEMS` items, where ``no_interval`` says why)."""

    value: float
    low: float | None = None
    high: float | None = None
    details: dict = field(default_factory=dict)
    no_interval: str | None = None
    """Why there is no interval although one was asked for (a group of fewer than `MIN_INTERVAL_ITEMS`)."""

    def to_dict(self) -> dict:
        d = {"value": self.value, "low": self.low, "high": self.high}
        if self.no_interval is not None:
            d["no_interval"] = self.no_interval
        d.update(self.details)
        return d


@dataclass
class GroupScore:
    """Scores of one group of items: ``dimension`` (``"overall"``, ``"domain"``, ``"difficulty"``, …), ``value``
    (the group label, `group_label`: ``null`` for unlabelled items, ``"null"`` for the string ``null``),
    ``n`` items, ``scores`` ``{metric name: MetricValue}``. In `to_dict` the value is the group's value:
    JSON ``null`` for unlabelled items, the exact string otherwise."""

    dimension: str
    value: str
    n: int
    scores: dict

    @property
    def label(self) -> str:
        return "overall" if self.dimension == "overall" else f"{self.dimension}={self.value}"

    def to_dict(self) -> dict:
        return {
            "dimension": self.dimension,
            "value": self.value if self.dimension == "overall" else group_value(self.value),
            "n": self.n,
            "scores": {k: v.to_dict() for k, v in self.scores.items()},
        }


def group_items(columns: dict, by: Sequence[str], n_items: int | None = None) -> list[tuple[str, str, np.ndarray]]:
    """``[(dimension, label, item indices)]``: ``overall`` first, then each dimension of ``by`` with its groups in
    sorted order and the ``null`` group last.

    Args:
        columns: ``{dimension: list of values per item}`` (must contain every name in ``by``).
        by: dimension names, e.g. ``("domain", "difficulty")``.
        n_items: number of items (needed when ``columns`` is empty; default: the length of a column).

    Raises:
        ValueError: a dimension that ``columns`` lacks (lists the available ones).
    """
    n = n_items if n_items is not None else (len(next(iter(columns.values()))) if columns else 0)
    out = [("overall", "all", np.arange(n))]
    for dim in by:
        if dim not in columns:
            raise ValueError(f"cannot group by {dim!r}; available: {sorted(columns)}")
        groups: dict = {}
        for i, v in enumerate(columns[dim]):
            groups.setdefault(v, []).append(i)
        keys = sorted((k for k in groups if k is not None), key=str) + ([None] if None in groups else [])
        for k in keys:
            out.append((dim, group_label(k), np.asarray(groups[k])))
    return out


def score_groups(
    specs: Sequence[MetricSpec],
    groups: Sequence[tuple[str, str, np.ndarray]],
    bootstrap: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
    progress: bool = False,
) -> list[GroupScore]:
    """Reduce per-item statistics to one `GroupScore` per group, with percentile bootstrap intervals
    (`zheval.results.reducers.bootstrap_interval`: ``bootstrap`` resamples of the group's items, seeded with ``seed``;
    0 = no interval). A group of fewer than `MIN_INTERVAL_ITEMS` items gets no interval (``low``/``high``
    ``None``, ``no_interval`` = `no_interval_reason`).

    ``progress``: a tqdm bar over all resamples (groups × metrics × ``bootstrap``, advanced after each interval);
    it only reports, the numbers are the same with or without it.
    """
    from ...results.reducers import bootstrap_interval

    out = []
    bar = None
    if progress and bootstrap:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(groups) * len(specs) * int(bootstrap), desc=f"bootstrap ({bootstrap} resamples)",
                   unit="resample", unit_scale=True, leave=False)
    try:
        for dim, label, idx in groups:
            scores = {}
            for spec in specs:
                value = float(spec.point(idx))
                low = high = None
                why = None
                if bootstrap and len(idx) >= MIN_INTERVAL_ITEMS:
                    if spec.boot_rows is not None:
                        low, high = bootstrap_interval(spec.boot_rows[idx], spec.boot_statistic, int(bootstrap), confidence, seed)
                    else:
                        low, high = bootstrap_interval(spec.rows[idx], spec.statistic, int(bootstrap), confidence, seed)
                elif bootstrap:
                    why = no_interval_reason(int(len(idx)))
                if bar is not None:
                    bar.update(int(bootstrap))
                details = spec.details(idx) if spec.details else {}
                scores[spec.name] = MetricValue(value, low, high, details, why)
            out.append(GroupScore(dim, label, int(len(idx)), scores))
    finally:
        if bar is not None:
            bar.close()
    return out


def interval_cautions(groups: Sequence[GroupScore], metrics: Sequence, bootstrap: int) -> list[str]:
    """The report notes of `zheval.results.reducers.resample_cautions` about the groups' intervals (``metrics``: the
    `MetricSpec` list, or the report's ``[(name, label)]``): fewer resamples than
    `zheval.results.reducers.SOUND_RESAMPLES`, and every interval that does not contain its score; ``[]`` when no
    interval was computed."""
    from ...results.reducers import resample_cautions

    labels = dict((m.name, m.label) if isinstance(m, MetricSpec) else m for m in metrics)
    intervals = [(f"{labels.get(name, name)} ({g.label})", v.value, v.low, v.high)
                 for g in groups for name, v in g.scores.items() if v.low is not None]
    return resample_cautions(int(bootstrap), intervals) if intervals else []


# ---------------------------------------------------------------------------------------------------------------
# the report


@dataclass
class Report:
    """Everything one ``zheval score``/``ceiling``/``compare`` run produces.

    Attributes:
        kind: ``"score"``, ``"ceiling"`` or ``"compare"``; title: one line saying what was scored.
        metrics: ``[(name, label)]`` in display order.
        groups: `GroupScore` list (``overall`` first) — for ``score`` and ``ceiling``.
        comparison: for ``compare``: ``[{"group", "n", "metric", "system", "source", "test", "score_a", "score_b",
            "delta", "delta_low", "delta_high", "p_value", "no_difference"}]`` (one row per group, metric and system
            compared with A) (``no_difference``: B − A is exactly 0; when the outputs are identical line for line,
            sacrebleu's p-value is its minimum 1/(resamples + 1) and means nothing).
        diagnostics: `Diagnostics` (score), `SystemDiagnostics` (compare: each system's) or ``None``;
            signatures: ``{"bleu": …, "rouge": …}``.
        params: options used (tokenizer, bootstrap, seed, num_proc, …); notes / warnings: messages for the reader.
    """

    kind: str
    title: str
    metrics: list
    groups: list = field(default_factory=list)
    comparison: list = field(default_factory=list)
    diagnostics: Diagnostics | SystemDiagnostics | None = None
    signatures: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    items: list | None = None
    breakdowns: dict = field(default_factory=dict)
    """The score report's diagnostics that split or filter the items (:func:`~zheval.adapters.duck.evaluate.
    evaluate_predictions`): ``reference_limit``, ``truncation_excluded``, ``diversity``, ``length_buckets``,
    ``folds`` (`zheval.adapters.report.breakdowns`); the ceiling's ``reference_limit`` with ``max_refs``
    ([`human_ceiling`][zheval.adapters.duck.ceiling.human_ceiling]); empty for the other reports."""

    def overall(self) -> GroupScore:
        """The ``overall`` group."""
        return self.groups[0]

    def score(self, metric: str, dimension: str = "overall", value: str = "all") -> MetricValue:
        """The `MetricValue` of ``metric`` for one group (``KeyError`` if there is no such group)."""
        for g in self.groups:
            if g.dimension == dimension and g.value == value:
                return g.scores[metric]
        raise KeyError(f"no group {dimension}={value}")

    def to_dict(self) -> dict:
        """JSON-ready dict with everything (scores on 0–1, intervals, diagnostics, signatures, parameters)."""
        d = {
            "kind": self.kind,
            "title": self.title,
            "metrics": [{"name": n, "label": lbl} for n, lbl in self.metrics],
            "scale": "0-1",
            "groups": [g.to_dict() for g in self.groups],
            "diagnostics": self.diagnostics.to_dict() if self.diagnostics else None,
            "signatures": dict(self.signatures),
            "params": dict(self.params),
            "notes": list(self.notes),
            "warnings": list(self.warnings),
        }
        if self.comparison:
            d["comparison"] = [dict(r) for r in self.comparison]
        if self.breakdowns:
            d["breakdowns"] = self.breakdowns
        if self.items is not None:
            d["items"] = self.items
        return d


def _fmt(v: MetricValue, digits: int = 3, n: int | None = None) -> str:
    if v.no_interval is not None:
        return f"{v.value:.{digits}f} ({no_interval_label(n)})" if n is not None else f"{v.value:.{digits}f} (no interval)"
    if v.low is None:
        return f"{v.value:.{digits}f}"
    return f"{v.value:.{digits}f} [{v.low:.{digits}f}, {v.high:.{digits}f}]"


def _score_rows(report: Report) -> tuple[list, list]:
    header = ["group", "n", *[lbl for _, lbl in report.metrics]]
    rows = [[_shown_label(g.dimension, g.value), str(g.n),
             *[_fmt(g.scores[n], n=g.n) for n, _ in report.metrics]] for g in report.groups]
    return header, rows


def _compare_rows(report: Report) -> tuple[list, list]:
    many = len({r.get("system", "B") for r in report.comparison}) > 1
    p_head = "p (AR)" if report.params.get("test") == "ar" else "p"
    if many:  # each system against A: one row per system, its label in its own column
        header = ["group", "n", "metric", "system X", "A", "X", "X − A [95% CI]", p_head]
    else:
        header = ["group", "n", "metric", "A", "B", "B − A [95% CI]", p_head]
    rows = []
    for r in report.comparison:
        if r.get("delta_low") is None:  # a group too small for an interval
            delta, p = f"{r['delta']:+.3f} ({no_interval_label(r['n'])})", "–"
        else:
            delta = f"{r['delta']:+.3f} [{r['delta_low']:+.3f}, {r['delta_high']:+.3f}]"
            p = f"{r['p_value']:.4f}" + (" (no difference)" if r.get("no_difference") else "")
        system = [r.get("system", "B")] if many else []
        # the group as data (`_shown_label`'s rule: escaping is per character, so field=value escapes as a whole)
        rows.append([escaped_text(r["group"], one_line=True), str(r["n"]), r["label"], *system,
                     f"{r['score_a']:.3f}", f"{r['score_b']:.3f}", delta, p])
    return header, rows


def _cell(d: dict | None, digits: int = 3) -> str:
    """A score dict of ``GroupScore.to_dict()["scores"]`` as text (``–`` when there is none)."""
    if not d:
        return "–"
    return _fmt(MetricValue(d["value"], d.get("low"), d.get("high"), no_interval=d.get("no_interval")), digits)


def _label(g: dict) -> str:
    return "overall" if g["dimension"] == "overall" else _shown_label(g["dimension"], group_label(g["value"]))


def _shown_label(dimension: str, label: str) -> str:
    """A group's row label in a table, ``field=value``: both as data (`escaped_text`: backslashes doubled, so a
    value ``x\\x1b`` never reads as one holding ESC: shown ``x\\\\x1b``, the ESC ``x\\x1b``)."""
    return "overall" if dimension == "overall" else \
        f"{escaped_text(dimension, one_line=True)}={escaped_text(label, one_line=True)}"


def breakdown_sections(report: Report) -> list[tuple[str, list, list]]:
    """The report's `Report.breakdowns` as ``[(title, header, rows)]`` tables (strings), in this order:
    scores without truncated predictions, diversity, length buckets, folds. Empty for a report without them."""
    b = report.breakdowns or {}
    names = [n for n, _ in report.metrics]
    labels = [lbl for _, lbl in report.metrics]
    out = []
    t = b.get("truncation_excluded")
    if t and t["groups"]:
        alls = {(g.dimension, g.value): g for g in report.groups}
        rows = []
        for g in t["groups"]:
            full = alls.get((g["dimension"], g["value"] if g["dimension"] == "overall" else group_label(g["value"])))
            rows.append([_label(g), str(g["n"]), str(g["excluded"])]
                        + [f"{_cell(g['scores'].get(n))} (all: {full.scores[n].value:.3f})" if full else
                           _cell(g["scores"].get(n)) for n in names])
        out.append((f"scores without the {t['excluded']} truncated prediction(s) ({t['rate']:.1%}), next to the "
                    "scores on all items", ["group", "n", "excluded", *labels], rows))
    div = b.get("diversity")
    if div:
        rows = []
        for g in div:
            rows.append([_label(g), str(g["n"]),
                         *[f"{_ratio(g['distinct'][k])} / {_ratio(g['reference_distinct'][k])}" for k in g["distinct"]],
                         f"{g['repetition']['duplicate_share']:.1%}", most_repeated(g["repetition"])])
        keys = list(div[0]["distinct"]) if div else []
        out.append(("diversity: Distinct-n of predictions / of references (Li et al. 2016, the metrics' tokens; – "
                    "when there is no n-gram at all: 0/0 is undefined); duplicates: predictions equal to another one",
                    ["group", "n", *[k.replace("distinct_", "Distinct-") for k in keys], "duplicates",
                     "most repeated (count)"], rows))
    lb = b.get("length_buckets")
    if lb:
        rows = [[g["value"], str(g["n"]), *[_cell(g["scores"].get(n)) for n in names]] for g in lb["buckets"]]
        out.append((f"scores by reference length ({lb['length']})", ["bucket", "n", *labels], rows))
    f = b.get("folds")
    if f:
        rows = []
        for n, lbl in report.metrics:
            m = f["metrics"][n]
            flagged = "–" if m["flagged"] is None else (", ".join(map(str, m["flagged"])) or "none")
            rows.append([lbl, " ".join(f"{v:.3f}" for v in m["folds"]), f"{m['mean']:.3f}", f"{m['std']:.3f}",
                         f"{m['max_deviation']:.3f}", flagged])
        out.append((f"{f['folds']} random folds (seed {f['seed']}, sizes {', '.join(map(str, f['sizes']))}); "
                    "flagged: folds farther from the score on all items than a random fold of n/K items is at "
                    "the 95% level (its interval × √(K − 1)); about 5% of the folds by chance",
                    ["metric", "folds", "mean", "std", "max dev", "flagged"], rows))
    return out


def _ratio(v: float | None) -> str:
    return "–" if v is None else f"{v:.3f}"


def most_repeated(rep: dict, width: int = 20) -> str:
    """The most frequent prediction of `zheval.results.distinct.repetition` as a cell: ``"text" (count)``
    (cut to ``width`` characters, ``(empty)`` for the empty prediction, ``(blank: '\\xa0\\u200b')`` for another blank
    one, every character escaped: `zheval.results.diagnostics.is_blank`), or ``none repeated`` when no prediction
    occurs twice (then the "most frequent" one is merely the first)."""
    if rep["most_frequent_count"] < 2:
        return "none repeated"
    top = rep["most_frequent"]
    if is_blank(top):  # nothing to see in the cell: said, and what it holds listed
        top = "(empty)" if top == "" else f"(blank: {ascii(top)})"
    else:
        top = top if len(top) <= width else top[:width] + "…"
    return f"{top} ({rep['most_frequent_count']})"


def reference_limit_line(report: Report) -> str | None:
    """One line on ``max_refs`` (``None`` without it)."""
    r = (report.breakdowns or {}).get("reference_limit")
    if not r:
        return None
    from ...results.breakdowns import reference_limit_text

    return reference_limit_text(r)


def _footer(report: Report) -> list[str]:
    lines = []
    if report.diagnostics:
        lines += ["", "diagnostics"] + [f"  {s}" for s in report.diagnostics.lines()]
    limit = reference_limit_line(report)
    if limit:
        lines += ([] if report.diagnostics else ["", "diagnostics"]) + [f"  {limit}"]
    for title, header, rows in breakdown_sections(report):
        lines += ["", title] + ["  " + s for s in format_table(header, rows, right_from=1).splitlines()]
    if report.notes:
        lines += ["", "notes"] + [f"  {s}" for s in report.notes]
    if report.warnings:
        lines += ["", "warnings"] + [f"  ! {s}" for s in report.warnings]
    if report.signatures:
        lines += ["", "signature"] + [f"  {k}: {v}" for k, v in report.signatures.items()]
    return [terminal_text(s, one_line=True) for s in lines]


def interval_note(report: Report) -> str:
    """The line under a report's title: the scale and the interval (a compare report: the paired test, its p-value
    and its resamples or trials)."""
    bs = report.params.get("bootstrap")
    if report.kind == "compare":
        if report.params.get("test") == "ar":
            return (f"paired bootstrap interval, {bs} resamples; p = sacrebleu's paired approximate-randomisation "
                    f"p-value, {report.params.get('resamples')} trials; seed {report.params.get('seed')}")
        return f"paired bootstrap, {bs} resamples, seed {report.params.get('seed')}; p = sacrebleu's paired-bootstrap p-value"
    if bs and report.params.get("bootstrap_method") == "poisson":
        return (f"scores on 0–1; [95% Poisson bootstrap interval, {bs} resamples (a Poisson(1) weight per item), "
                f"seed {report.params.get('seed')}]")
    if bs:
        return f"scores on 0–1; [95% bootstrap interval, {bs} resamples of items, seed {report.params.get('seed')}]"
    return "scores on 0–1 (no bootstrap interval)"


def _item_rows(report: Report) -> tuple[list, list]:
    names = [n for n, _ in report.metrics]
    labels = dict(report.metrics)
    header = ["id"] + [("sentence BLEU" if n == "bleu" else labels[n]) for n in names]
    rows = []
    for it in report.items or []:
        rows.append([escaped_text(it["id"], one_line=True)] + [f"{it['sentence_bleu' if n == 'bleu' else n]:.3f}" for n in names])
    return header, rows


#: What the per-item section of the table and Markdown reports shows.
ITEMS_NOTE = ("per item: sentence BLEU (effective order, the same smoothing) and ROUGE F; "
              "the corpus scores above are not their means for BLEU")


def render_items(report: Report, markdown: bool = False) -> str:
    """The per-item scores of ``report.items`` (``--items``) as an aligned table (or Markdown): id, sentence BLEU,
    ROUGE F per type. Empty string when the report has no items."""
    if not report.items:
        return ""
    header, rows = _item_rows(report)
    if not markdown:
        return "\n".join(["", f"items ({len(rows)})", f"  {ITEMS_NOTE}", format_table(header, rows, right_from=1)])

    lines = ["", f"**Items** ({len(rows)}): _{markdown_text(ITEMS_NOTE)}_", ""]
    lines.append("| " + " | ".join(markdown_text(h) for h in header) + " |")
    lines.append("|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|")
    lines += ["| " + " | ".join(markdown_text(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def render_table(report: Report) -> str:
    """Plain-text report: title, metrics × groups with intervals, diagnostics, notes, warnings, signatures, and the
    per-item scores when the report has them (``--items``)."""
    header, rows = _compare_rows(report) if report.kind == "compare" else _score_rows(report)
    lines = [terminal_text(report.title, one_line=True), interval_note(report), "",
             format_table(header, rows, right_from=1)]
    items = render_items(report)
    return "\n".join(lines + _footer(report) + ([items] if items else [])) + "\n"


def _markdown_diagnostics(diagnostics) -> list[str]:
    """The Markdown list of a report's diagnostics: one item per line of a score report's `Diagnostics`; for a
    compare report's ``SystemDiagnostics`` (its ``systems``), one item ``label (source):`` per system with its
    lines as a list nested inside it (indented by 4 spaces, past the item's ``- ``: CommonMark §5.2), so each line
    stays under its system when rendered."""
    systems = getattr(diagnostics, "systems", None)
    if systems is None:
        return [f"- {markdown_text(s)}" for s in diagnostics.lines()]
    out: list[str] = []
    for label, (source, d) in systems.items():
        out += [f"- {markdown_text(f'{label} ({source}):')}"] + [f"    - {markdown_text(s)}" for s in d.lines()]
    return out


def render_markdown(report: Report) -> str:
    """The same content as `render_table` (per-item scores included) as GitHub-flavoured Markdown."""
    header, rows = _compare_rows(report) if report.kind == "compare" else _score_rows(report)

    lines = [f"### {markdown_text(report.title)}", "", f"_{markdown_text(interval_note(report))}_", ""]
    lines.append("| " + " | ".join(markdown_text(h) for h in header) + " |")
    lines.append("|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|")
    lines += ["| " + " | ".join(markdown_text(c) for c in r) + " |" for r in rows]
    if report.diagnostics:
        lines += ["", "**Diagnostics**", ""] + _markdown_diagnostics(report.diagnostics)
    limit = reference_limit_line(report)
    if limit:
        lines.append(f"- {markdown_text(limit)}")
    for title, bheader, brows in breakdown_sections(report):
        lines += ["", f"**{markdown_text(title)}**", "",
                  "| " + " | ".join(markdown_text(h) for h in bheader) + " |",
                  "|" + "|".join(["---"] + ["---:"] * (len(bheader) - 1)) + "|"]
        lines += ["| " + " | ".join(markdown_text(c) for c in r) + " |" for r in brows]
    if report.notes:
        lines += ["", "**Notes**", ""] + [f"- {markdown_text(s)}" for s in report.notes]
    if report.warnings:
        lines += ["", "**Warnings**", ""] + [f"- ⚠ {markdown_text(s)}" for s in report.warnings]
    if report.signatures:
        lines += ["", "**Signature**", ""] + [f"- {k}: `{v}`" for k, v in report.signatures.items()]
    items = render_items(report, markdown=True)
    if items:
        lines.append(items)
    return "\n".join(lines) + "\n"
