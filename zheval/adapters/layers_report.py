"""The three-layer agreement table ([`zheval.compute.three_layers.three_layer_agreement`][]) as a terminal table,
JSON, Markdown and one self-contained HTML page.

Text from data -- group values, rating column names, the judge's answers of failed items, ids -- is data: the
terminal table passes it through `zheval.text.terminal.terminal_text` (via
`zheval.adapters.report.tables.format_table`), Markdown through `zheval.text.terminal.markdown_text`, JSON through
`zheval.text.terminal.terminal_json` (exact on parse), HTML through the environment of every zheval page
(`zheval.adapters.report.html_page.page_environment`: control characters shown as the terminal shows them, then
autoescape; the ``html`` extra), each group, id, rating name and judge answer isolated in ``<bdi>``.

Groups are labelled as ``zheval score`` labels them: ``overall`` for every item, ``<field>=<value>`` for a group
(`zheval.results.group_labels.group_label`), so a group whose value is ``overall`` reads ``grp=overall``. Every
metric/rating pair without a correlation is named in the notes, with its group and the reason (n, or which column
is constant).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from ..results.agreement import NO_CORRELATION, TIE_TOLERANCE, rank_separators, unranked_groups
from ..text.terminal import markdown_text, terminal_json, terminal_text
from .report.tables import format_table
from .extras import require_extra

__all__ = ["render_table", "render_markdown", "render_json", "render_html"]

_TIE = format(TIE_TOLERANCE, "g")  # '1e-12': the tie tolerance as the reports print it

_COLUMNS = ["group", "metric", "rating", "n", "Spearman ρ [CI]", "Kendall τ [CI]", "Pearson r [CI]"]


def _num(v: Optional[float]) -> str:
    return "–" if v is None else format(v, "+.3f")


def _cell(row: Dict[str, Any], name: str) -> str:
    if row["undefined"]:
        return "–"
    text = _num(row[name])
    if row[f"{name}_low"] is not None:
        text += f" [{_num(row[f'{name}_low'])}, {_num(row[f'{name}_high'])}]"
    return text


def _rows(report: Dict[str, Any]) -> List[List[str]]:
    out = []
    for r in report["rows"]:
        n = str(r["n"]) + (f" (-{r['excluded']})" if r["excluded"] else "")
        out.append([r["group"], r["metric"], r["rating"], n, _cell(r, "spearman"), _cell(r, "kendall"),
                    _cell(r, "pearson")])
    return out


def _notes(report: Dict[str, Any], params: Dict[str, Any]) -> List[str]:
    notes = []
    bs = params.get("bootstrap")
    notes.append(f"[95% bootstrap intervals over items, {bs} resamples, seed {params.get('seed')}]" if bs else
                 "no bootstrap intervals (--bootstrap 0)")
    # the n-gram columns' signatures (tokenizer, options), as zheval score's report lists them
    notes += [f"{name} signature: {sig}" for name, sig in (report.get("signatures") or {}).items()]
    judge = report.get("judge")
    if judge:
        u = judge["usage"]
        notes.append(f"judge: {judge['judged']} items rated, {judge['failed']} without a valid rating (left out of "
                     f"its columns, listed below); {u['requests']} requests ({u['retries']} retried, "
                     f"{u['cached']} answers from the cache), {u['prompt_tokens']} prompt + "
                     f"{u['completion_tokens']} completion tokens, {u['seconds']:.1f} s")
        notes.append(f"judge signature: {judge['signature']}")
    bert = report.get("bertscore")
    if bert:
        notes.append(f"BERTScore: {bert['truncated_predictions']} predictions and {bert['truncated_references']} "
                     f"references truncated at {bert['max_length']} pieces; signature: {bert['signature']}")
    return notes + list(report.get("rating_notes", []))  # zheval.cli.layers.read_judge_ratings' notes


def _undefined(report: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The pairs without a correlation, one entry per (group, rating, reason) with its metrics, in row order."""
    out: Dict[tuple, Dict[str, Any]] = {}
    for r in report["rows"]:
        if r["undefined"]:
            k = (r["group"], r["rating"], r["undefined"])
            out.setdefault(k, {"group": r["group"], "rating": r["rating"], "reason": r["undefined"],
                               "metrics": []})["metrics"].append(r["metric"])
    return list(out.values())


def _undefined_lines(report: Dict[str, Any]) -> List[str]:
    return [f"{u['group']}: {', '.join(u['metrics'])} vs {u['rating']}: {NO_CORRELATION} ({u['reason']})"
            for u in _undefined(report)]


def _best(report: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Which metric agrees best with each rating: ``[{"rating", "entries": [{"metric", "value", "sep"}], "unranked":
    [{"sep", "reason", "metrics"}]}]``: ``entries`` the metrics with a correlation, best ρ first; ``sep`` (before
    the entry) is ``" = "`` between tied ρ (the same rank in ``ranking_rank``: within ``tie_tolerance``), ``" > "``
    otherwise, ``""`` before the first; ``unranked`` the metrics without a correlation (rank null), never ranked:
    one group per reason, said as the notes say it, ``no correlation (<reason>)``
    (`zheval.results.agreement.unranked_groups`)."""
    by = {(r["rating"], r["metric"]): r for r in report["rows"] if r["group"] == "overall"}
    out = []
    for rating, names in report["ranking"].items():
        ranks = (report.get("ranking_rank") or {}).get(rating) or list(range(1, len(names) + 1))
        shown = [(m, k) for m, k in zip(names, ranks) if k is not None]
        out.append({"rating": rating, "entries": [
            {"metric": m, "value": _num(by[(rating, m)]["spearman"]), "sep": sep}
            for (m, _), sep in zip(shown, rank_separators([k for _, k in shown]))], "unranked": [
            {"sep": sep, "reason": reason, "metrics": [names[i] for i in idx]}
            for sep, reason, idx in unranked_groups(ranks, [by[(rating, m)]["undefined"] for m in names])]})
    return out


def _best_lines(report: Dict[str, Any]) -> List[str]:
    return [f"{b['rating']}: " + "".join(f"{e['sep']}{e['metric']} {e['value']}" for e in b["entries"])
            + "".join(f"{u['sep']}{NO_CORRELATION} ({u['reason']}): {', '.join(u['metrics'])}" for u in b["unranked"])
            for b in _best(report)]


def _failure_views(report: Dict[str, Any], ids: Optional[List[str]]) -> List[Dict[str, Any]]:
    """The judge's failed items: a live judge's (``report["judge"]["failures"]``) and those a ratings file records
    (``report["rating_failures"]``, `zheval.cli.layers.read_judge_ratings`: ``detail`` and ``attempts`` may be
    ``None`` when the file gives only the kind)."""
    judge = report.get("judge") or {}
    views = []
    for f in list(judge.get("failures", [])) + list(report.get("rating_failures", [])):
        said = [x for x in (f.get("detail"), None if f.get("attempts") is None else f"{f['attempts']} attempt(s)")
                if x is not None]
        views.append({"who": ids[f["item"]] if ids else f"item {f['item']}",
                      "what": f"{f['kind']}" + (f" ({', '.join(map(str, said))})" if said else ""),
                      "answer": None if f.get("answer") is None else str(f["answer"])[:200]})
    return views


def _failures(report: Dict[str, Any], ids: Optional[List[str]]) -> List[str]:
    return [f"{f['who']}: {f['what']}" + ("" if f["answer"] is None else f"; answer: {f['answer']}")
            for f in _failure_views(report, ids)]


def render_table(report: Dict[str, Any], *, params: Dict[str, Any], ids: Optional[List[str]] = None) -> str:
    """Aligned plain-text table (CJK-aware; data escaped), which metric agrees best, notes, judge failures."""
    lines = [f"zheval agree: three layers on {report['n']} items", "",
             format_table(_COLUMNS, _rows(report), right_from=3)]
    best = _best_lines(report)
    if best:
        lines += ["", f"which metric agrees best (overall, by Spearman ρ; '=': tied, |Δρ| ≤ {_TIE})"]
        lines += [terminal_text(f"  {x}", one_line=True) for x in best]
    lines += ["", "notes"] + [terminal_text(f"  {n}", one_line=True)
                              for n in _notes(report, params) + _undefined_lines(report)]
    failures = _failures(report, ids)
    if failures:
        lines += ["", f"judge failures ({len(failures)})"] + [terminal_text(f"  {x}", one_line=True)
                                                                 for x in failures]
    return "\n".join(lines) + "\n"


def render_markdown(report: Dict[str, Any], *, params: Dict[str, Any], ids: Optional[List[str]] = None) -> str:
    """The same content as `render_table`, as GitHub-flavoured Markdown (data escaped by
    `zheval.text.terminal.markdown_text`: controls, ``&``, ``<``, ``>``, ``|``)."""

    lines = [f"### zheval agree: three layers on {report['n']} items", "",
             "| " + " | ".join(_COLUMNS) + " |", "|" + "|".join(["---"] * 3 + ["---:"] * 4) + "|"]
    lines += ["| " + " | ".join(markdown_text(c) for c in r) + " |" for r in _rows(report)]
    best = _best_lines(report)
    if best:
        lines += ["", f"**which metric agrees best (overall, by Spearman ρ; '=': tied, |Δρ| ≤ {_TIE})**", ""]
        lines += [f"- {markdown_text(x)}" for x in best]
    lines += [""] + [f"- {markdown_text(n)}" for n in _notes(report, params) + _undefined_lines(report)]
    failures = _failures(report, ids)
    if failures:
        lines += ["", f"**judge failures ({len(failures)})**", ""] + [f"- {markdown_text(x)}" for x in failures]
    return "\n".join(lines) + "\n"


def render_json(report: Dict[str, Any], *, params: Dict[str, Any], ids: Optional[List[str]] = None) -> str:
    """Everything, as JSON (text exact on parse; control characters escaped)."""
    return terminal_json({"kind": "three_layer_agreement", "params": params, "ids": ids, **report}, indent=2) + "\n"


_TEMPLATE = """<!doctype html>
<html lang="zh"><head><meta charset="utf-8"><title>zheval agree: three layers</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;
padding:.3em .6em}td.n{text-align:right;font-variant-numeric:tabular-nums}</style></head><body>
<h1>zheval agree: three layers on {{ n }} items</h1>
<table><thead><tr>{% for c in columns %}<th>{{ c }}</th>{% endfor %}</tr></thead><tbody>
{% for r in rows %}<tr>{% for c in r %}{% if loop.index > 3 %}<td class="n">{{ c }}</td>{% else %}<td><bdi>{{ c }}</bdi></td>{% endif %}{% endfor %}</tr>
{% endfor %}</tbody></table>
<h2>Which metric agrees best (overall, by Spearman ρ; '=': tied, |Δρ| ≤ {{ tie }})</h2><ul>
{% for b in best %}<li><bdi>{{ b.rating }}</bdi>: {% for e in b.entries %}{{ e.sep }}<bdi>{{ e.metric }}</bdi> {{ e.value }}{% endfor %}{% for u in b.unranked %}{{ u.sep }}{{ no_correlation }} ({{ u.reason }}): {% for m in u.metrics %}<bdi>{{ m }}</bdi>{% if not loop.last %}, {% endif %}{% endfor %}{% endfor %}</li>{% endfor %}</ul>
<h2>Notes</h2><ul>{% for x in notes %}<li><bdi>{{ x }}</bdi></li>{% endfor %}
{% for u in undefined %}<li><bdi>{{ u.group }}</bdi>: {% for m in u.metrics %}<bdi>{{ m }}</bdi>{% if not loop.last %}, {% endif %}{% endfor %} vs <bdi>{{ u.rating }}</bdi>: {{ no_correlation }} ({{ u.reason }})</li>{% endfor %}</ul>
{% if failures %}<h2>Judge failures ({{ failures | length }})</h2><ul>
{% for f in failures %}<li><bdi>{{ f.who }}</bdi>: {{ f.what }}{% if f.answer is not none %}; answer: <bdi>{{ f.answer }}</bdi>{% endif %}</li>{% endfor %}</ul>{% endif %}
</body></html>
"""


def render_html(report: Dict[str, Any], *, params: Dict[str, Any], ids: Optional[List[str]] = None) -> str:
    """One self-contained HTML page (no script, no network): the environment of every zheval page
    (`zheval.adapters.report.html_page.page_environment`: control characters shown as visible escapes, then
    autoescape), each group, metric, rating name, id and judge answer in ``<bdi>``.

    Raises:
        MissingExtraError: jinja2 (the ``html`` extra) is not installed.
    """
    from .report.html_page import page_environment

    jinja2 = require_extra("jinja2", extra="html", purpose="the HTML agreement table (--html)")
    env = page_environment(jinja2)
    return env.from_string(_TEMPLATE).render(n=report["n"], columns=_COLUMNS, rows=_rows(report),
                                             best=_best(report), tie=_TIE, notes=_notes(report, params),
                                             no_correlation=NO_CORRELATION,
                                             undefined=_undefined(report), failures=_failure_views(report, ids))
