"""The 小黄鸭 report as ONE self-contained HTML page (``zheval score ... --html report.html``).

What the page holds, all built from what the evaluation already produced:

* the overall and per-group score tables with their bootstrap intervals — the very values of
  `to_dict` (the JSON report), each cell carrying the exact value in
  ``data-value`` / ``data-low`` / ``data-high`` and showing it rounded to 3 decimals as the text table does;
* the diagnostics, notes and warnings of the report, its signatures and parameters;
* the breakdowns of the report (`breakdown_sections`, the very tables the terminal
  shows): the scores without the truncated predictions, Distinct-n and repeated predictions, length buckets, folds,
  and the ``max_refs`` line;
* the plots of `plot_report` as inline SVG with the text kept as text
  (``svg.fonttype: none``): the viewer's browser draws the Chinese group labels with its own fonts, so no font
  has to be embedded and no glyph is missing, whatever fonts matplotlib has;
* with many groups (a column with one value per row) less: `html_limits` says what is
  cut, on the page and in the terminal;
* for each group the lowest-, median- and highest-scoring items by one metric (`select_samples`), each with
  its explanation ([`zheval.explain_items`][zheval.compute.explain.explain_items]): the prediction against the winning reference with the matched
  tokens highlighted in the ORIGINAL texts (``[start, end)`` character spans of the explanation), every reference
  with its ROUGE P/R/F and which one the multi-reference rule selected, BLEU's per-order matches and the
  unmatched n-grams.

Nothing is fetched at view time: the CSS is inline, the SVG is inline, there is no script and no external
``src``/``href``. The page is rendered with jinja2 (autoescape on: every text of the data is escaped; only the
SVG that matplotlib wrote is inserted as markup). jinja2 comes with the ``html`` extra (``pip install
"zheval[html]"``).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Callable, Sequence

from ...text.terminal import terminal_json, visible_controls
from ...compute.guards import ZhevalWarning
from ...version import __version__
from ..extras import require_extra
from .html_limits import MAX_TABLE_GROUPS, page_limits
from .tables import (BERTSCORE_METRIC, Report, breakdown_sections, group_items, group_label, interval_note,
                     no_interval_reason, reference_limit_line)

__all__ = [
    "page_environment",
    "HTML_PURPOSE",
    "require_jinja2",
    "BANDS",
    "Sample",
    "GroupSamples",
    "default_sample_metric",
    "select_samples",
    "highlight_segments",
    "inline_svg",
    "render_html",
    "score_html",
    "check_sample_metric",
    "explain_options",
    "score_html_for_options",
    "explanation_mismatches",
]

#: What needs jinja2, for the one-line message of a missing ``html`` extra
HTML_PURPOSE = "the HTML report (--html)"


def require_jinja2() -> None:
    """Check that jinja2 (the ``html`` extra) is installed, before any scoring work (the command's early check).

    Raises:
        MissingExtraError: jinja2 is not installed; the message is one line naming the ``html`` extra.
    """
    require_extra("jinja2", extra="html", purpose=HTML_PURPOSE)


BANDS = ("lowest", "median", "highest")
"""The three items shown per group, by the chosen metric's per-item score."""


def default_sample_metric(report: Report) -> str:
    """The metric samples are chosen by when none is named: ``rougeL`` when reported, else the first ROUGE type,
    else ``bleu`` (sentence BLEU: on short replies it is 0 for most items, so it separates items poorly)."""
    names = [n for n, _ in report.metrics]
    if "rougeL" in names:
        return "rougeL"
    rouge = [n for n in names if n not in ("bleu", "chrf", BERTSCORE_METRIC)]
    return rouge[0] if rouge else names[0]


def _item_score(item: dict, metric: str) -> float:
    return item["sentence_bleu" if metric == "bleu" else metric]


@dataclass
class Sample:
    """One shown item: ``bands`` (the subset of `BANDS` it stands for; one item is all three in a group of
    one), ``index`` (dataset row), ``item`` (its entry of ``Report.items``: id, prediction, per-item scores)."""

    bands: list
    index: int
    item: dict
    explanation: dict | None = None


@dataclass
class GroupSamples:
    """The samples of one group: ``label`` (``overall``, ``domain=售后支持``, …), ``n`` items, ``samples``."""

    label: str
    n: int
    samples: list = field(default_factory=list)


def select_samples(report: Report, ds, metric: str | None = None) -> tuple[str, list[GroupSamples]]:
    """For every group of ``report`` the lowest-, median- and highest-scoring item by ``metric``.

    Rule: the group's items are sorted by the per-item score of ``metric`` (``Report.items``: sentence BLEU for
    ``bleu``, the F-measure for a ROUGE type), ties kept in dataset order (a stable sort); lowest = the first,
    median = position ``(n - 1) // 2`` (the lower median), highest = the last. An item that is several of these
    (a group of one or two items, or equal scores) is shown once with all its band names.

    Args:
        report: a ``score`` report made with ``keep_items=True`` (it has per-item scores).
        ds: the dataset it scored (its group columns give each group's items, by the same
            `group_items` the evaluation used).
        metric: a reported metric name (``bleu``, ``rouge1``, ``rougeL``, …); default
            `default_sample_metric`.

    Returns:
        ``(metric, [GroupSamples])`` in the report's group order.

    Raises:
        ValueError: the report has no per-item scores, ``metric`` is not reported, or the groups rebuilt from
            ``ds`` differ from the report's (another dataset than the one scored).
    """
    if report.items is None:
        raise ValueError("the report has no per-item scores: evaluate with keep_items=True")
    names = [n for n, _ in report.metrics]
    metric = default_sample_metric(report) if metric is None else metric
    if metric not in names:
        raise ValueError(f"cannot choose samples by {metric!r}: the report has {', '.join(names)}")
    if len(report.items) != len(ds):
        raise ValueError(f"the report has {len(report.items)} items, the dataset {len(ds)}: not the scored dataset")
    by = list(report.params.get("by", []))
    groups = group_items({dim: list(ds[dim]) for dim in by}, by, len(ds))
    if [(d, v, len(idx)) for d, v, idx in groups] != [(g.dimension, g.value, g.n) for g in report.groups]:
        raise ValueError("the groups of the dataset differ from the report's: not the scored dataset")
    scores = [_item_score(it, metric) for it in report.items]
    out = []
    for g, (_, _, idx) in zip(report.groups, groups):
        order = sorted((int(i) for i in idx), key=lambda i: scores[i])  # stable: dataset order breaks ties
        picks: dict = {}
        for band, pos in zip(BANDS, (0, (len(order) - 1) // 2, len(order) - 1)):
            picks.setdefault(order[pos], []).append(band)
        out.append(GroupSamples(g.label, g.n, [Sample(b, i, report.items[i]) for i, b in picks.items()]))
    return metric, out


def highlight_segments(text: str, tokens: Sequence[dict], matched: Sequence[int]) -> list[dict]:
    """``text`` cut into segments for display: ``{"text", "token", "tokens", "matched", "normalized"}`` where
    ``token`` is the first token index whose span covers the segment (``None`` between tokens), ``tokens`` every
    such index, and ``matched`` says whether a character of the segment lies in a matched token's span.

    Several tokens may share characters: a character whose NFKC form is several tokens (``‼`` → ``!`` ``!``,
    ``½`` → ``1`` ``⁄`` ``2``, ``㍿`` → ``株式会社``) gives them all its one-character span. Overlapping spans form
    one cluster, cut only where the matched state of the characters changes, so a shared span is shown (and
    highlighted) once; the segments still concatenate to ``text`` exactly.

    Args:
        text: the ORIGINAL text; tokens: the explanation's tokens (``start``/``end``: ``[start, end)`` character
            offsets into ``text``, ordered by ``start``); matched: indices of the matched tokens.

    Raises:
        ValueError: a span outside ``text``, empty, or starting before the previous token's start (an explanation
            of another text).
    """
    hits = set(int(m) for m in matched)
    bad = sorted(h for h in hits if not 0 <= h < len(tokens))
    if bad:
        raise ValueError(f"matched token index {bad[0]} is not a token (there are {len(tokens)})")
    clusters: list = []  # [start, end, [token indices]]
    prev_start = 0
    for k, t in enumerate(tokens):
        s, e = int(t["start"]), int(t["end"])
        if not prev_start <= s < e <= len(text):
            raise ValueError(f"token {k} span [{s}, {e}) does not fit the text (length {len(text)}, previous start "
                             f"{prev_start})")
        prev_start = s
        if clusters and s < clusters[-1][1]:
            clusters[-1][1] = max(clusters[-1][1], e)
            clusters[-1][2].append(k)
        else:
            clusters.append([s, e, [k]])
    out, pos = [], 0
    for s, e, members in clusters:
        if s > pos:
            out.append({"text": text[pos:s], "token": None, "tokens": [], "matched": False})
        mark = [False] * (e - s)
        for k in members:
            if k in hits:
                for c in range(int(tokens[k]["start"]), int(tokens[k]["end"])):
                    mark[c - s] = True
        a = s
        for c in range(s + 1, e + 1):
            if c == e or mark[c - s] != mark[a - s]:
                covering = [k for k in members if int(tokens[k]["start"]) < c and int(tokens[k]["end"]) > a]
                out.append({"text": text[a:c], "token": covering[0], "tokens": covering, "matched": mark[a - s],
                            "normalized": " ".join(str(tokens[k].get("token", "")) for k in covering)})
                a = c
        pos = e
    if pos < len(text):
        out.append({"text": text[pos:], "token": None, "tokens": [], "matched": False})
    return out


_XML_PROLOGUE = re.compile(r"\A\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.S)
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.S)


_SVG_ID = re.compile(r'((?<![\w:-])id="|url\(#|href="#)')


def inline_svg(svg: bytes | str, id_prefix: str = "") -> str:
    """An SVG document as markup for an HTML page: the XML declaration, DOCTYPE and RDF metadata removed (the
    metadata only names the RDF vocabularies by URL); with ``id_prefix`` every ``id`` and every reference to one
    (``url(#…)``, ``href="#…"``) gets that prefix, so that several plots on one page never repeat an id (matplotlib
    names each figure's parts ``figure_1``, ``axes_1``, … and its clip paths by a hash of their geometry)."""
    text = svg.decode("utf-8") if isinstance(svg, bytes) else svg
    text = _METADATA.sub("", _XML_PROLOGUE.sub("", text, count=1), count=1)
    if id_prefix:
        text = _SVG_ID.sub(lambda m: m.group(1) + id_prefix, text)
    return text.strip()


def _ngram_text(ngram) -> str:
    """An n-gram for display: tokens that are single characters other than ASCII letters and digits (Han, kana,
    punctuation) are joined as written, anything else with a space (``快递柜``, ``，也``, ``打开 App``)."""
    if isinstance(ngram, (list, tuple)):
        toks = [str(t) for t in ngram]
        joined = all(len(t) == 1 and not (t.isascii() and t.isalnum()) for t in toks)
        return "".join(toks) if joined else " ".join(toks)
    return str(ngram)


def _cell(v: dict | None) -> dict:
    if v is None:
        return {"value": None}
    return {"value": v["value"], "low": v.get("low"), "high": v.get("high"), "no_interval": v.get("no_interval")}


def _explanation_view(sample: Sample, references: Sequence[str]) -> dict:
    """What the template shows of one explained item (the numbers copied from the explanation, none recomputed);
    a ``ValueError`` of `highlight_segments` names the item."""
    try:
        return _view(sample, references)
    except ValueError as exc:
        raise ValueError(f"item {sample.item['id']!r} (row {sample.index}): {exc}") from None


def _view(sample: Sample, references: Sequence[str]) -> dict:
    ex = sample.explanation
    view = {"bands": sample.bands, "index": sample.index, "id": sample.item["id"], "item": sample.item,
            "references": list(references), "explanation": ex is not None, "rouge": [], "bleu": None,
            "reference_views": [], "winner": None}
    if ex is None:
        view["prediction_segments"] = [{"text": sample.item["prediction"], "token": None, "matched": False}]
        return view
    hl = ex["highlight"]
    win = hl.get("reference")
    view["prediction_segments"] = highlight_segments(ex["prediction"]["text"], ex["prediction"]["tokens"],
                                                     hl.get("prediction", []))
    view["winner"] = win
    view["reference_views"] = []
    for j, ref in enumerate(ex["references"]):
        matched = hl.get("reference_tokens", []) if j == win else []
        view["reference_views"].append({"index": j, "winner": j == win,
                                        "segments": highlight_segments(ref["text"], ref["tokens"], matched)})
    view["rouge"] = []
    for rt, r in ex.get("rouge", {}).items():
        view["rouge"].append({"type": rt, "per_reference": r.get("per_reference", []), "selected": r.get("selected"),
                              "rule": r.get("rule"), "why": r.get("why"), "score": r.get("score", {})})
    b = ex.get("bleu")
    if b:
        orders = []
        for o in b.get("orders", []):
            unmatched = [{"ngram": _ngram_text(g["ngram"]), "count": g["count"], "clipped": g["clipped"],
                          "missing": g["count"] - g["clipped"]} for g in o.get("ngrams", []) if g["clipped"] < g["count"]]
            orders.append({"n": o["n"], "matches": o["matches"], "total": o["total"], "unmatched": unmatched})
        view["bleu"] = {"orders": orders, "hyp_len": b.get("hyp_len"), "ref_len": b.get("ref_len"),
                        "ref_len_rule": b.get("ref_len_rule"), "why": b.get("why"),
                        "sentence_bleu": b.get("sentence_bleu")}
    return view


def page_environment(jinja2: Any) -> Any:
    """The jinja2 environment of every zheval HTML page (``zheval score --html``, ``zheval agree --html``): THE
    rule where data meets a browser. Every value written into a page goes through the control-character rule of
    the terminal (`zheval.text.controls.visible_controls`: NUL, ESC, C0/C1 and bidi controls shown as ``\\x1b``,
    ``\\u202e``), then autoescape (``<`` ``>`` ``&`` ``"``); markup a page builds itself (SVG, ``markupsafe.Markup``)
    passes as it is, and its ``tojson`` writes those characters as ``\\uXXXX`` escapes (`terminal_json`). The
    templates isolate every model text, id and group value in ``<bdi>``.

    Args:
        jinja2: the ``jinja2`` module (``require_extra("jinja2", extra="html", ...)``).

    Returns:
        A ``jinja2.Environment`` (autoescape, StrictUndefined, trimmed blocks, the ``visible`` filter). Raises
        nothing.
    """
    import markupsafe  # a dependency of jinja2

    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             finalize=lambda v: v if isinstance(v, markupsafe.Markup) or not isinstance(v, str)
                             else visible_controls(v))
    env.policies["json.dumps_function"] = lambda obj, **kw: terminal_json(obj, indent=kw.get("indent"))
    env.policies["json.dumps_kwargs"] = {}
    env.filters["visible"] = visible_controls
    return env


def render_html(report: Report, samples: Sequence[GroupSamples] = (), plots: Sequence[tuple[str, str]] = (),
                sample_metric: str | None = None, references: Sequence[Sequence[str]] | None = None,
                notes: Sequence[str] = ()) -> str:
    """The page (a complete HTML document, UTF-8) of ``report``.

    Args:
        report: a ``score``, ``ceiling`` or ``compare`` `Report`; its tables
            are built from `to_dict` (scores on 0–1).
        samples: `GroupSamples` of `select_samples` (with explanations, or ``None`` ones: then the
            prediction is shown without highlights); plots: ``[(dimension, SVG markup of inline_svg)]``.
        sample_metric: the metric the samples were chosen by (named on the page).
        references: ``references[i]`` the references of dataset row ``i`` (shown when an item has no
            explanation).
        notes: extra lines for the page's notes (e.g. what could not be drawn).

    Raises:
        MissingExtraError: jinja2 is not installed (one line naming the ``html`` extra). ValueError: an explanation whose spans
        do not fit its texts (`highlight_segments`).
    """
    jinja2 = require_extra("jinja2", extra="html", purpose=HTML_PURPOSE)
    import markupsafe  # a dependency of jinja2
    d = report.to_dict()
    labels = {m["name"]: m["label"] for m in d["metrics"]}
    limits = page_limits(report.groups, report.groups[0].n if report.groups else 0)
    shown: dict = {}
    rows = []
    for g in d["groups"]:
        dim = g["dimension"]
        shown[dim] = shown.get(dim, 0) + 1
        if dim in limits.table_cut and shown[dim] > MAX_TABLE_GROUPS:
            if shown[dim] == MAX_TABLE_GROUPS + 1:
                rows.append({"label": f"… {limits.table_cut[dim]:,} more groups of {dim} (in the JSON report)",
                             "dimension": dim, "value": None, "n": None, "cells": [], "details": {}, "more": True})
            continue
        rows.append({"label": "overall" if dim == "overall" else f"{dim}={group_label(g['value'])}",
                     "dimension": dim, "value": g["value"], "n": g["n"], "more": False,
                     "cells": [dict(_cell(g["scores"].get(m["name"])), metric=m["name"]) for m in d["metrics"]],
                     "details": {m["name"]: {k: v for k, v in g["scores"].get(m["name"], {}).items()
                                             if k not in ("value", "low", "high", "no_interval")}
                                 for m in d["metrics"]}})
    notes = [*limits.notes, *(n for n in notes if n not in limits.notes)]
    views = []
    for gs in samples:
        refs_of = (lambda i: references[i]) if references is not None else (lambda i: [])
        views.append({"label": gs.label, "n": gs.n,
                      "samples": [_explanation_view(s, refs_of(s.index)) for s in gs.samples]})
    env = page_environment(jinja2)
    env.filters["num"] = lambda v, digits=3: "–" if v is None else f"{v:.{digits}f}"
    env.filters["exact"] = lambda v: "" if v is None else repr(float(v))
    template = env.from_string(resources.files(__package__).joinpath("templates", "report.html.j2")
                               .read_text(encoding="utf-8"))
    return template.render(
        report=d, labels=labels, rows=rows, plots=[(dim, markupsafe.Markup(svg)) for dim, svg in plots],
        samples=views, sample_metric=sample_metric, sample_metric_label=labels.get(sample_metric, sample_metric),
        diagnostics=(report.diagnostics.lines() if report.diagnostics else [])
        + [x for x in [reference_limit_line(report)] if x],
        breakdowns=[{"title": t, "header": h, "rows": r} for t, h, r in breakdown_sections(report)],
        notes=list(d["notes"]) + list(notes),
        interval_note=interval_note(report) if report.kind == "compare" else _interval_note(d), version=__version__,
        bands=BANDS, many_systems=len({r.get("system", "B") for r in report.comparison}) > 1,
        p_label=("approximate-randomisation p-value" if d["params"].get("test") == "ar" else
                 "paired-bootstrap p-value"),
        no_interval_text=no_interval_reason(None),
    )


def _interval_note(d: dict) -> str:
    bs = d["params"].get("bootstrap")
    if bs:
        return (f"scores on 0–1; [{round(100 * d['params'].get('confidence', 0.95))}% bootstrap interval, {bs} "
                f"resamples of items, seed {d['params'].get('seed')}]")
    return "scores on 0–1 (no bootstrap interval)"


def score_html(report: Report, ds, metric: str | None = None, explain: Callable | None = None,
               explain_options: dict | None = None, plot_dimensions: Sequence[str] | None = None) -> str:
    """The HTML page of a ``score`` report: tables, plots (one per group column with at least two groups … in
    fact every group column of the report), samples with explanations.

    Args:
        report: made by [`evaluate_predictions`][zheval.adapters.duck.evaluate.evaluate_predictions] with ``keep_items=True``.
        ds: the dataset it scored. metric: the sample metric (`select_samples`).
        explain: ``explain_items(predictions, references, **explain_options)`` returning one explanation per item
            (the schema of [`zheval.explain`][zheval.compute.explain.explain]); default [`zheval.explain_items`][zheval.compute.explain.explain_items] — when that is not
            available the samples are shown without highlights and the page says so.
        explain_options: the scoring options for ``explain`` (the ones the report was scored with).
        plot_dimensions: group columns to plot (default: every one of the report's ``by``).

    Raises:
        ValueError: as `select_samples`; the explainer's own errors.
    """
    from .plot import plot_report

    metric, samples = select_samples(report, ds, metric)
    limits = page_limits(report.groups, len(report.items))
    samples = [gs for gs, g in zip(samples, report.groups) if g.dimension not in limits.unsampled]
    refs = [list(r) for r in ds["responses"]]
    notes = []
    if explain is None:
        explain = _library_explainer()
        if explain is None:
            notes.append("the items are shown without highlights: zheval.explain is not available in this "
                         "installation")
    if explain is not None:
        wanted = sorted({s.index for gs in samples for s in gs.samples})
        with warnings.catch_warnings():  # the input-slip warnings are in the report's warnings already
            warnings.simplefilter("ignore", ZhevalWarning)
            got = list(explain([report.items[i]["prediction"] for i in wanted], [refs[i] for i in wanted],
                               **dict(explain_options or {})))
        if len(got) != len(wanted):
            raise ValueError(f"the explainer returned {len(got)} explanations for {len(wanted)} items")
        by_index = dict(zip(wanted, got))
        for gs in samples:
            for s in gs.samples:
                s.explanation = by_index[s.index]
        notes.extend(explanation_mismatches(report, by_index))
    plots = []
    dims = list(report.params.get("by", [])) if plot_dimensions is None else list(plot_dimensions)
    for dim in dims:
        if sum(1 for g in report.groups if g.dimension == dim) == 0 or dim in limits.unplotted:
            continue
        svg, plot_notes = plot_report(report, dim, fmt="svg", svg_text=True)
        plots.append((dim, inline_svg(svg, id_prefix=f"plot{len(plots) + 1}-")))
        notes.extend(n for n in plot_notes if n not in notes)
    return render_html(report, samples, plots, sample_metric=metric, references=refs, notes=notes)


def explanation_mismatches(report: Report, explanations: dict) -> list[str]:
    """Lines naming every explained item whose explanation's numbers are not exactly the report's per-item scores
    (``Report.items``: sentence BLEU, ROUGE F per type) — an explanation of another scoring than the report's. The
    page shows them as notes; none is expected (the explanation is computed from the same statistics).

    Args:
        report: with ``items``; explanations: ``{dataset row: explanation}``.
    """
    out = []
    for i, ex in sorted(explanations.items()):
        item = report.items[i]
        for name, _ in report.metrics:
            if name == BERTSCORE_METRIC:  # a model's score: no n-gram explanation to compare with
                continue
            if name == "bleu":
                got = (ex.get("bleu") or {}).get("sentence_bleu")
                want = item["sentence_bleu"]
            elif name == "chrf":
                got = (ex.get("chrf") or {}).get("sentence_chrf")
                want = item["chrf"]
            else:
                got = ((ex.get("rouge") or {}).get(name) or {}).get("score", {}).get("fmeasure")
                want = item[name]
            if got != want:
                out.append(f"item {item['id']}: the explanation's {name} is {got!r}, the report's {want!r}: the "
                           "explanation does not describe the reported number")
    return out


def _library_explainer() -> Callable | None:
    try:
        from ...compute.explain import explain_items
    except ImportError:
        return None
    return explain_items


def check_sample_metric(metric: str | None, metrics: Sequence[str], rouge_types: Sequence[str],
                        flag: str = "metric") -> None:
    """Check, before any work, that the sample metric ``metric`` will be in the report scored with ``metrics``
    (``bleu``, ``rouge``) and ``rouge_types`` (``None`` is always fine: `default_sample_metric`).

    Raises:
        ValueError: ``metric`` is not one of the metrics the report will have (the message lists them).
    """
    if metric is None:
        return
    names = ((["bleu"] if "bleu" in metrics else []) + (list(rouge_types) if "rouge" in metrics else [])
             + (["chrf"] if "chrf" in metrics else []))
    if metric not in names:
        raise ValueError(f"{flag} {metric!r} is not reported by this run; choose one of: {', '.join(names)}")


def explain_options(cfg) -> dict:
    """The keyword options of [`zheval.explain_items`][zheval.compute.explain.explain_items] that reproduce the scoring of ``cfg`` (a
    `ScoreConfig`): its metrics, its tokenizer object itself (normalisation,
    terms, punct and jieba options included), the ROUGE types, multi-reference rule and sentence split, the
    resolved BLEU options (the BLEU preset's name too) — so each item is explained by the sentence BLEU the report's
    per-item scores use (the same smoothing, ``effective_order=True``) and by its ROUGE F."""
    b = cfg.bleu_config
    opts = {"metrics": list(cfg.metrics), "tokenizer": cfg.tokenizer}
    if "rouge" in cfg.metrics:
        opts.update(rouge_types=list(cfg.rouge_config.types), multi_ref=cfg.rouge_config.multi_ref,
                    sentence_split=cfg.rouge_config.sentence_split)
    if "bleu" in cfg.metrics:
        opts.update(max_order=b.max_order, smooth_method=b.smooth_method, smooth_value=b.smooth_value,
                    bp_ref_length=b.bp_ref_length, effective_order=True)
        if b.weights is not None:
            opts["weights"] = list(b.weights)
        if b.preset is not None:
            opts["preset"] = b.preset.name
    if "chrf" in cfg.metrics:
        opts.update(cfg.chrf)
    return opts


def score_html_for_options(report: Report, ds, metric: str | None, options: dict) -> str:
    """`score_html` for a report made by ``evaluate_predictions(ds, ..., keep_items=True, **options)``: the
    scoring options are resolved again from ``options`` by the same
    `report_config`, so the explanations use exactly the report's scoring."""
    from ..duck.evaluate import report_config

    return score_html(report, ds, metric=metric, explain_options=explain_options(report_config(dict(options))))
