"""Per-item statistics → grouped score tables with bootstrap intervals, diagnostics, and their rendering.

The unit of work is a per-item statistics table (one row per dataset item), produced by
:func:`zheval.adapters.duck.evaluate.item_statistics`. Everything here is a reduction of those rows:

* corpus BLEU of a group = BLEU scored from the **summed** BLEU statistics of its rows (Papineni 2002, 2.2);
  mean ROUGE F of a group = the mean of its rows' F values;
* a bootstrap interval resamples the group's rows and recomputes the same reduction
  (:func:`zheval.results.reducers.bootstrap_interval`);
* diagnostics (length ratio, truncation, empty predictions, reference counts) are computed from the texts.

Rendering: :func:`render_table` (plain text, aligned for CJK double-width characters), :func:`render_markdown`,
:meth:`Report.to_dict` (JSON carries everything), and :func:`plot_report` (matplotlib). :func:`atomic_write`
writes an output file completely or not at all.
"""

from __future__ import annotations

import math
import os
import re
import tempfile
import threading
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

__all__ = [
    "NULL_LABEL",
    "GroupScore",
    "MetricValue",
    "Report",
    "Diagnostics",
    "MetricSpec",
    "group_items",
    "score_groups",
    "ending_kind",
    "compute_diagnostics",
    "display_width",
    "format_table",
    "render_table",
    "render_markdown",
    "plot_report",
    "atomic_write",
    "FINAL_PUNCT",
    "LENGTH_RATIO_WARN",
    "MIN_INTERVAL_ITEMS",
    "no_interval_reason",
    "plot_formats",
    "render_items",
]

NULL_LABEL = "null"
"""Label of the group of items whose domain/difficulty is ``null``."""

LENGTH_RATIO_WARN = 0.30
"""Warn when the mean prediction/reference length ratio is outside ``1 ± LENGTH_RATIO_WARN``."""

MIN_INTERVAL_ITEMS = 2
"""Fewest items a group needs for a bootstrap interval. Resampling a single item always returns that item, so its
"interval" would be the point value twice, which reads as certainty; such groups get no interval (``None``) and a
reason (:func:`no_interval_reason`) in every output."""


def no_interval_reason(n: int | None) -> str:
    """Why a group of ``n`` items (< :data:`MIN_INTERVAL_ITEMS`) has no interval (``n=None``: the general text)."""
    head = f"n={n}: " if n is not None else ""
    return f"{head}a bootstrap interval needs at least {MIN_INTERVAL_ITEMS} items (resampling one item always returns it)"


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
    """Align a table of strings for a terminal (CJK-aware). Columns from ``right_from`` on are right-aligned."""
    cols = len(header)
    widths = [max(display_width(str(r[i])) for r in [header, *rows]) for i in range(cols)]
    out = []
    for k, r in enumerate([header, *rows]):
        out.append("  ".join(_pad(str(r[i]), widths[i], right=i >= right_from) for i in range(cols)).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------------------------
# atomic output


_UMASK_LOCK = threading.Lock()


def _new_file_mode(path: Path) -> int:
    """The permission bits ``open(path, "w")`` would leave: an existing file keeps its mode; a new one gets
    ``0o666 & ~umask``."""
    import stat

    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        pass
    with _UMASK_LOCK:  # os.umask can only be read by setting it; restore at once, under a lock
        mask = os.umask(0o022)
        os.umask(mask)
    return 0o666 & ~mask


def atomic_write(path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file in the same directory, then ``os.replace``.

    A crash or an error leaves either the old file or nothing, never a partial file. The file gets the permissions
    a plain ``open(path, "w")`` would give it: an existing file keeps its mode, a new one gets ``0o666 & ~umask``
    (``tempfile.mkstemp`` alone would make every output ``0o600``).

    Raises:
        OSError: the directory does not exist or is not writable (nothing is written).
    """
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    mode = _new_file_mode(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            try:
                os.fchmod(fh.fileno(), mode)
            except (AttributeError, OSError):  # no fchmod (Windows): chmod after closing
                pass
        if not hasattr(os, "fchmod"):
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


# ---------------------------------------------------------------------------------------------------------------
# metric reductions


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
        """Vectorised statistic on resampled rows ``(..., n, k) -> (...)`` for :func:`zheval.results.reducers.bootstrap_interval`.

        (``boot_rows``/``boot_statistic``, when set, replace ``rows``/``statistic`` for the bootstrap interval, so an
        interval can be computed with exactly the arithmetic of the metric module, e.g. ``a.mean(axis=-1)`` on the
        1-D per-item F values as ``compute_rouge`` does.)"""
        sums = r.sum(axis=-2)
        lead = sums.shape[:-1]
        return np.asarray(self.from_sums(sums.reshape(-1, sums.shape[-1]))).reshape(lead)


@dataclass
class MetricValue:
    """A score (0–1) with its bootstrap interval (``low``/``high`` are ``None`` without bootstrap, and for a group of
    fewer than :data:`MIN_INTERVAL_ITEMS` items, where ``no_interval`` says why)."""

    value: float
    low: float | None = None
    high: float | None = None
    details: dict = field(default_factory=dict)
    no_interval: str | None = None
    """Why there is no interval although one was asked for (a group of fewer than :data:`MIN_INTERVAL_ITEMS`)."""

    def to_dict(self) -> dict:
        d = {"value": self.value, "low": self.low, "high": self.high}
        if self.no_interval is not None:
            d["no_interval"] = self.no_interval
        d.update(self.details)
        return d


@dataclass
class GroupScore:
    """Scores of one group of items: ``dimension`` (``"overall"``, ``"domain"``, ``"difficulty"``, …), ``value``
    (the group label; ``"null"`` for unlabelled items), ``n`` items, ``scores`` ``{metric name: MetricValue}``."""

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
            "value": self.value,
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
            out.append((dim, NULL_LABEL if k is None else str(k), np.asarray(groups[k])))
    return out


def score_groups(
    specs: Sequence[MetricSpec],
    groups: Sequence[tuple[str, str, np.ndarray]],
    bootstrap: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
    progress: bool = False,
) -> list[GroupScore]:
    """Reduce per-item statistics to one :class:`GroupScore` per group, with percentile bootstrap intervals
    (:func:`zheval.results.reducers.bootstrap_interval`: ``bootstrap`` resamples of the group's items, seeded with ``seed``;
    0 = no interval). A group of fewer than :data:`MIN_INTERVAL_ITEMS` items gets no interval (``low``/``high``
    ``None``, ``no_interval`` = :func:`no_interval_reason`).

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


# ---------------------------------------------------------------------------------------------------------------
# diagnostics

FINAL_PUNCT = "。！？!?…~～.；;"
"""Sentence-final marks: a prediction ending in one of these (optionally followed by closing quotes/brackets or an
emoji) is not counted as truncated."""
_CLOSERS = "\"'”’」』）)】》〉]"
_OPEN_ENDINGS = "，,、：:（(“‘「『《【-—"
_DANGLING = ("因为", "所以", "但是", "而且", "并且", "如果", "或者", "以及", "比如", "包括", "然后", "和", "与", "及", "或", "把", "被", "向", "从", "跟")


def _is_emoji(c: str) -> bool:
    return unicodedata.category(c) == "So"


def ending_kind(text: str) -> str:
    """Classify how a (normalised) prediction ends.

    Returns:
        ``"empty"``; ``"final"`` (ends in a sentence-final mark of :data:`FINAL_PUNCT`, optionally followed by
        closing quotes/brackets, or in an emoji); ``"mid_word"`` (ends in a comma/colon/opening bracket or a
        dangling connective such as ``因为``/``和``/``把`` — cut in the middle of a clause); or ``"no_final_punct"``
        (anything else: the text just stops).
    """
    t = text.rstrip()
    if not t:
        return "empty"
    core = t.rstrip(_CLOSERS) or t
    last = core[-1]
    if last in FINAL_PUNCT or _is_emoji(last):
        return "final"
    if last in _OPEN_ENDINGS or core.endswith(_DANGLING):
        return "mid_word"
    return "no_final_punct"


def _nchars(text: str) -> int:
    return sum(1 for c in text if not c.isspace())


@dataclass
class Diagnostics:
    """Output checks the 小黄鸭 seeds call for (lengths in normalised characters, whitespace excluded).

    Attributes:
        n_items: items checked.
        length_ratio: mean over items of ``len(prediction) / mean(len(reference))``; ``length_ratio_corpus``: the
            same with totals; a warning is raised when ``length_ratio`` is outside ``1 ± LENGTH_RATIO_WARN``.
        truncated / truncation_rate: non-empty predictions that do not end a sentence (``ending_kind`` is
            ``no_final_punct`` or ``mid_word``); ``endings``: counts per ending kind; ``reference_truncation_rate``:
            the same rate over all references, the data's own baseline.
        empty_predictions: count (empty after normalisation); ``empty_ids``: their ids (first 20).
        ref_count_distribution: ``{references per item: items}``.
        warnings: human-readable warnings.
    """

    n_items: int
    length_ratio: float
    length_ratio_corpus: float
    truncated: int
    truncation_rate: float
    endings: dict
    reference_truncation_rate: float
    empty_predictions: int
    empty_ids: list
    ref_count_distribution: dict
    warnings: list

    def to_dict(self) -> dict:
        return {k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v) for k, v in self.__dict__.items()}

    def lines(self) -> list[str]:
        """Human-readable summary lines."""
        dist = ", ".join(f"{k} refs: {v}" for k, v in sorted(self.ref_count_distribution.items()))
        return [
            f"length ratio (prediction / reference, chars): mean {self.length_ratio:.2f}, corpus {self.length_ratio_corpus:.2f}",
            f"truncation: {self.truncated}/{self.n_items} ({self.truncation_rate:.1%}) do not end a sentence "
            f"(no final punctuation {self.endings.get('no_final_punct', 0)}, mid-clause {self.endings.get('mid_word', 0)}); "
            f"references: {self.reference_truncation_rate:.1%}",
            f"empty predictions: {self.empty_predictions}"
            + (f" ({', '.join(self.empty_ids[:5])}{', …' if len(self.empty_ids) > 5 else ''})" if self.empty_ids else ""),
            f"references per item: {dist}",
        ]


def compute_diagnostics(predictions: Sequence[str], references: Sequence[Sequence[str]], ids: Sequence[str] | None = None,
                        normalize=True) -> Diagnostics:
    """Compute :class:`Diagnostics` for predictions against their (ragged) references.

    Args:
        predictions: one string per item; references: per item a non-empty list of strings; ids: item ids for the
            empty-prediction list (default: indices); normalize: normaliser spec applied first
            (:func:`zheval.text.normalize.get_normalizer`).

    Raises:
        ValueError: different lengths.
    """
    from ...text.normalize import get_normalizer

    if len(predictions) != len(references):
        raise ValueError(f"{len(predictions)} predictions but {len(references)} reference lists")
    norm = get_normalizer(normalize)
    ids = list(ids) if ids is not None else [str(i) for i in range(len(predictions))]
    ratios, pred_total, ref_total = [], 0, 0.0
    endings: dict = {"final": 0, "no_final_punct": 0, "mid_word": 0, "empty": 0}
    empty_ids = []
    ref_trunc = ref_n = 0
    dist: dict = {}
    for i, (p, rs) in enumerate(zip(predictions, references)):
        np_ = norm(p)
        lp = _nchars(np_)
        nrs = [norm(r) for r in rs]
        lr = sum(_nchars(r) for r in nrs) / len(nrs) if nrs else 0.0
        if lr > 0:
            ratios.append(lp / lr)
        pred_total += lp
        ref_total += lr
        kind = ending_kind(np_)
        endings[kind] += 1
        if kind == "empty":
            empty_ids.append(ids[i])
        for r in nrs:
            ref_n += 1
            ref_trunc += ending_kind(r) in ("no_final_punct", "mid_word")
        dist[len(rs)] = dist.get(len(rs), 0) + 1
    n = len(predictions)
    truncated = endings["no_final_punct"] + endings["mid_word"]
    ratio = float(np.mean(ratios)) if ratios else 0.0
    warnings = []
    if n and abs(ratio - 1) > LENGTH_RATIO_WARN:
        warnings.append(
            f"predictions are on average {abs(ratio - 1):.0%} {'shorter' if ratio < 1 else 'longer'} than the references "
            f"(ratio {ratio:.2f}, beyond ±{LENGTH_RATIO_WARN:.0%}): BLEU's brevity penalty and ROUGE precision/recall "
            "are affected"
        )
    rate = truncated / n if n else 0.0
    ref_rate = ref_trunc / ref_n if ref_n else 0.0
    if n and rate > max(0.1, 2 * ref_rate):
        warnings.append(f"{rate:.0%} of predictions do not end a sentence (references: {ref_rate:.0%}): check max_new_tokens / truncation")
    if endings["empty"]:
        warnings.append(f"{endings['empty']} empty prediction(s) (scored 0)")
    return Diagnostics(
        n_items=n,
        length_ratio=ratio,
        length_ratio_corpus=pred_total / ref_total if ref_total else 0.0,
        truncated=truncated,
        truncation_rate=rate,
        endings=endings,
        reference_truncation_rate=ref_rate,
        empty_predictions=endings["empty"],
        empty_ids=empty_ids[:20],
        ref_count_distribution=dict(sorted(dist.items())),
        warnings=warnings,
    )


# ---------------------------------------------------------------------------------------------------------------
# the report


@dataclass
class Report:
    """Everything one ``zheval score``/``ceiling``/``compare`` run produces.

    Attributes:
        kind: ``"score"``, ``"ceiling"`` or ``"compare"``; title: one line saying what was scored.
        metrics: ``[(name, label)]`` in display order.
        groups: :class:`GroupScore` list (``overall`` first) — for ``score`` and ``ceiling``.
        comparison: for ``compare``: ``[{"group", "n", "metric", "score_a", "score_b", "delta", "delta_low",
            "delta_high", "p_value", "no_difference"}]`` (``no_difference``: B − A is exactly 0, where sacrebleu's
            p-value is its minimum 1/(resamples + 1) and means nothing).
        diagnostics: :class:`Diagnostics` or ``None``; signatures: ``{"bleu": …, "rouge": …}``.
        params: options used (tokenizer, bootstrap, seed, num_proc, …); notes / warnings: messages for the reader.
    """

    kind: str
    title: str
    metrics: list
    groups: list = field(default_factory=list)
    comparison: list = field(default_factory=list)
    diagnostics: Diagnostics | None = None
    signatures: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    items: list | None = None

    def overall(self) -> GroupScore:
        """The ``overall`` group."""
        return self.groups[0]

    def score(self, metric: str, dimension: str = "overall", value: str = "all") -> MetricValue:
        """The :class:`MetricValue` of ``metric`` for one group (``KeyError`` if there is no such group)."""
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
        if self.items is not None:
            d["items"] = self.items
        return d


def _fmt(v: MetricValue, digits: int = 3, n: int | None = None) -> str:
    if v.no_interval is not None:
        return f"{v.value:.{digits}f} (n={n}, no interval)" if n is not None else f"{v.value:.{digits}f} (no interval)"
    if v.low is None:
        return f"{v.value:.{digits}f}"
    return f"{v.value:.{digits}f} [{v.low:.{digits}f}, {v.high:.{digits}f}]"


def _score_rows(report: Report) -> tuple[list, list]:
    header = ["group", "n", *[lbl for _, lbl in report.metrics]]
    rows = [[g.label, str(g.n), *[_fmt(g.scores[n], n=g.n) for n, _ in report.metrics]] for g in report.groups]
    return header, rows


def _compare_rows(report: Report) -> tuple[list, list]:
    header = ["group", "n", "metric", "A", "B", "B − A [95% CI]", "p"]
    rows = []
    for r in report.comparison:
        if r.get("delta_low") is None:  # a group too small for an interval
            delta, p = f"{r['delta']:+.3f} (n={r['n']}, no interval)", "–"
        else:
            delta = f"{r['delta']:+.3f} [{r['delta_low']:+.3f}, {r['delta_high']:+.3f}]"
            p = f"{r['p_value']:.4f}" + (" (no difference)" if r.get("no_difference") else "")
        rows.append([r["group"], str(r["n"]), r["label"], f"{r['score_a']:.3f}", f"{r['score_b']:.3f}", delta, p])
    return header, rows


def _footer(report: Report) -> list[str]:
    lines = []
    if report.diagnostics:
        lines += ["", "diagnostics"] + [f"  {s}" for s in report.diagnostics.lines()]
    if report.notes:
        lines += ["", "notes"] + [f"  {s}" for s in report.notes]
    if report.warnings:
        lines += ["", "warnings"] + [f"  ! {s}" for s in report.warnings]
    if report.signatures:
        lines += ["", "signature"] + [f"  {k}: {v}" for k, v in report.signatures.items()]
    return lines


def _interval_note(report: Report) -> str:
    bs = report.params.get("bootstrap")
    if report.kind == "compare":
        return f"paired bootstrap, {bs} resamples, seed {report.params.get('seed')}; p = sacrebleu's paired-bootstrap p-value"
    if bs:
        return f"scores on 0–1; [95% bootstrap interval, {bs} resamples of items, seed {report.params.get('seed')}]"
    return "scores on 0–1 (no bootstrap interval)"


def _item_rows(report: Report) -> tuple[list, list]:
    names = [n for n, _ in report.metrics]
    labels = dict(report.metrics)
    header = ["id"] + [("sentence BLEU" if n == "bleu" else labels[n]) for n in names]
    rows = []
    for it in report.items or []:
        rows.append([str(it["id"])] + [f"{it['sentence_bleu' if n == 'bleu' else n]:.3f}" for n in names])
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

    def esc(x: str) -> str:
        return x.replace("|", "\\|")

    lines = ["", f"**Items** ({len(rows)}): _{ITEMS_NOTE}_", ""]
    lines.append("| " + " | ".join(esc(h) for h in header) + " |")
    lines.append("|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|")
    lines += ["| " + " | ".join(esc(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def render_table(report: Report) -> str:
    """Plain-text report: title, metrics × groups with intervals, diagnostics, notes, warnings, signatures, and the
    per-item scores when the report has them (``--items``)."""
    header, rows = _compare_rows(report) if report.kind == "compare" else _score_rows(report)
    lines = [report.title, _interval_note(report), "", format_table(header, rows, right_from=1)]
    items = render_items(report)
    return "\n".join(lines + _footer(report) + ([items] if items else [])) + "\n"


def render_markdown(report: Report) -> str:
    """The same content as :func:`render_table` (per-item scores included) as GitHub-flavoured Markdown."""
    header, rows = _compare_rows(report) if report.kind == "compare" else _score_rows(report)

    def esc(s: str) -> str:
        return s.replace("|", "\\|")

    lines = [f"### {esc(report.title)}", "", f"_{_interval_note(report)}_", ""]
    lines.append("| " + " | ".join(esc(h) for h in header) + " |")
    lines.append("|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|")
    lines += ["| " + " | ".join(esc(c) for c in r) + " |" for r in rows]
    if report.diagnostics:
        lines += ["", "**Diagnostics**", ""] + [f"- {esc(s)}" for s in report.diagnostics.lines()]
    if report.notes:
        lines += ["", "**Notes**", ""] + [f"- {esc(s)}" for s in report.notes]
    if report.warnings:
        lines += ["", "**Warnings**", ""] + [f"- ⚠ {esc(s)}" for s in report.warnings]
    if report.signatures:
        lines += ["", "**Signature**", ""] + [f"- {k}: `{v}`" for k, v in report.signatures.items()]
    items = render_items(report, markdown=True)
    if items:
        lines.append(items)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------------------
# plot

_ENGLISH = {"生活咨询": "life advice", "售后支持": "after-sales", "情感陪伴": "companionship", "易": "easy", "中": "medium", "难": "hard"}
_CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei",
              "SimHei", "Microsoft YaHei", "PingFang SC", "Heiti SC", "Noto Sans CJK JP", "AR PL UMing CN")


def _cjk_font() -> str | None:
    from matplotlib import font_manager

    names = {f.name for f in font_manager.fontManager.ttflist}
    for n in _CJK_FONTS:
        if n in names:
            return n
    return None


def plot_formats() -> dict:
    """Image formats :func:`plot_report` can write: ``{extension without dot: description}``, matplotlib's
    ``FigureCanvasBase.get_supported_filetypes()`` minus ``pgf`` (it needs a LaTeX installation) and, when Pillow
    is not installed, minus the formats written through Pillow (``jpg``/``jpeg``, ``tif``/``tiff``, ``webp``,
    ``gif``, ``avif``). A format Pillow cannot write (e.g. AVIF without its plugin) fails as ``ValueError``."""
    from matplotlib.backend_bases import FigureCanvasBase

    types = dict(FigureCanvasBase.get_supported_filetypes())
    types.pop("pgf", None)
    try:
        import PIL  # noqa: F401
    except ImportError:
        for ext in ("jpg", "jpeg", "tif", "tiff", "webp", "gif", "avif"):
            types.pop(ext, None)
    return types


def plot_report(report: Report, dimension: str = "domain", fmt: str = "png") -> tuple[bytes, list[str]]:
    """Draw the groups of ``dimension`` (plus ``overall``) as grouped bars per metric with bootstrap-interval error
    bars (matplotlib, Agg backend). Returns ``(image bytes in format fmt, notes)``.

    Chinese group labels are drawn with a CJK font when one is installed (Noto Sans CJK, WenQuanYi, SimHei, …);
    otherwise the known domain/difficulty names are drawn in English (``售后支持`` → ``after-sales``) and a note
    says so — matplotlib's default font has no Han glyphs and would draw empty boxes. A group of fewer than
    :data:`MIN_INTERVAL_ITEMS` items is drawn without an error bar, labelled ``no interval``.

    Args:
        fmt: an image format of :func:`plot_formats` (``png`` default, ``svg``, ``pdf``, ``jpg``, …).

    Raises:
        ValueError: the report has no group of ``dimension`` (lists the available dimensions); an unknown ``fmt``.
    """
    import io

    formats = plot_formats()
    if fmt not in formats:
        raise ValueError(f"unknown plot format {fmt!r}; supported: {', '.join(sorted(formats))}")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = [g for g in report.groups if g.dimension in ("overall", dimension)]
    if len(groups) <= 1:
        dims = sorted({g.dimension for g in report.groups} - {"overall"})
        raise ValueError(f"nothing to plot by {dimension!r}; the report has groups by {dims or 'nothing'} (use --by)")
    notes = []
    font = _cjk_font()
    rc = {"font.family": ["sans-serif"], "font.sans-serif": ([font] if font else []) + ["DejaVu Sans"]}

    def label(g: GroupScore) -> str:
        if g.dimension == "overall":
            return "overall"
        if font or g.value.isascii():
            return g.value
        return _ENGLISH.get(g.value, f"group {groups.index(g)}")

    if not font and any(not g.value.isascii() for g in groups if g.dimension != "overall"):
        notes.append("no CJK font found (e.g. apt install fonts-noto-cjk): group labels drawn in English")
    with plt.rc_context(rc):
        fig, ax = plt.subplots(figsize=(max(6.5, 1.6 * len(groups) + 3), 4.2), dpi=120)
        k = len(report.metrics)
        width = 0.8 / k
        x = np.arange(len(groups))
        for j, (name, lbl) in enumerate(report.metrics):
            vals = np.array([g.scores[name].value for g in groups])
            lows = np.array([g.scores[name].low if g.scores[name].low is not None else g.scores[name].value for g in groups])
            highs = np.array([g.scores[name].high if g.scores[name].high is not None else g.scores[name].value for g in groups])
            yerr = np.vstack([np.clip(vals - lows, 0, None), np.clip(highs - vals, 0, None)])
            ax.bar(x + (j - (k - 1) / 2) * width, vals, width, yerr=yerr, capsize=3, label=lbl, error_kw={"elinewidth": 1})
        ax.set_xticks(x)
        small = [g for g in groups if any(v.no_interval for v in g.scores.values())]
        ax.set_xticklabels([f"{label(g)}\n(n={g.n}" + (", no interval)" if g in small else ")") for g in groups])
        if small:
            notes.append(f"{len(small)} group(s) drawn without an error bar: {no_interval_reason(None)}")
        ax.set_ylabel("score (0–1)")
        ax.set_ylim(0, min(1.0, max(0.05, max(g.scores[n].high or g.scores[n].value for g in groups for n, _ in report.metrics) * 1.15)))
        bs = report.params.get("bootstrap")
        ax.set_title(f"{report.kind} by {dimension}" + (f" — 95% bootstrap intervals ({bs} resamples)" if bs else ""), fontsize=10)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        ax.grid(axis="y", alpha=0.3)
        fig.tight_layout()
        buf = io.BytesIO()
        try:
            fig.savefig(buf, format=fmt)
        except (KeyError, OSError) as exc:  # Pillow without a writer for this format
            raise ValueError(f"cannot write a {fmt} image here ({exc}); use png, svg or pdf") from None
        finally:
            plt.close(fig)
    return buf.getvalue(), notes
