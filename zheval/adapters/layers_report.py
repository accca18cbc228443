"""The three-layer agreement table ([`zheval.compute.three_layers.three_layer_agreement`][]) as a terminal table,
JSON, Markdown and one self-contained HTML page.

Text from data -- group values, rating column names, the judge's answers of failed items, ids -- is data: the
terminal table passes it through `zheval.text.terminal.terminal_text` (via
`zheval.adapters.report.tables.format_table`), Markdown through `zheval.text.terminal.markdown_text`, JSON through
`zheval.text.terminal.terminal_json` (exact on parse), HTML through jinja2 with autoescape on (the ``html`` extra).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from ..text.terminal import markdown_text, terminal_json, terminal_text
from .report.tables import format_table
from .extras import require_extra

__all__ = ["render_table", "render_markdown", "render_json", "render_html"]

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
    for r in report["rows"]:
        if r["undefined"] and r["group"] == "overall":
            notes.append(f"{r['metric']} vs {r['rating']}: no correlation ({r['undefined']})")
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
    return notes


def _failures(report: Dict[str, Any], ids: Optional[List[str]]) -> List[str]:
    judge = report.get("judge") or {}
    lines = []
    for f in judge.get("failures", []):
        who = ids[f["item"]] if ids else f"item {f['item']}"
        answer = "" if f.get("answer") is None else f"; answer: {f['answer'][:200]}"
        lines.append(f"{who}: {f['kind']} ({f['detail']}, {f['attempts']} attempt(s)){answer}")
    return lines


def render_table(report: Dict[str, Any], *, params: Dict[str, Any], ids: Optional[List[str]] = None) -> str:
    """Aligned plain-text table (CJK-aware; data escaped), which metric agrees best, notes, judge failures."""
    lines = [f"zheval agree: three layers on {report['n']} items", "",
             format_table(_COLUMNS, _rows(report), right_from=3)]
    best = report["best"]
    if best:
        lines += ["", "which metric agrees best (overall, by Spearman ρ)"]
        by = {(r["rating"], r["metric"]): r for r in report["rows"] if r["group"] == "overall"}
        for rating, names in best.items():
            lines.append(terminal_text(f"  {rating}: " + " > ".join(
                f"{m} {_num(by[(rating, m)]['spearman'])}" for m in names), one_line=True))
    lines += ["", "notes"] + [terminal_text(f"  {n}", one_line=True) for n in _notes(report, params)]
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
    lines += [""] + [f"- {markdown_text(n)}" for n in _notes(report, params)]
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
{% for r in rows %}<tr>{% for c in r %}<td{% if loop.index > 3 %} class="n"{% endif %}>{{ c }}</td>{% endfor %}</tr>
{% endfor %}</tbody></table>
<h2>Which metric agrees best (overall, by Spearman ρ)</h2><ul>
{% for rating, names in best.items() %}<li>{{ rating }}: {{ names | join(" > ") }}</li>{% endfor %}</ul>
<h2>Notes</h2><ul>{% for x in notes %}<li>{{ x }}</li>{% endfor %}</ul>
{% if failures %}<h2>Judge failures ({{ failures | length }})</h2><ul>
{% for x in failures %}<li>{{ x }}</li>{% endfor %}</ul>{% endif %}
</body></html>
"""


def render_html(report: Dict[str, Any], *, params: Dict[str, Any], ids: Optional[List[str]] = None) -> str:
    """One self-contained HTML page (no script, no network), every text escaped by jinja2 (autoescape).

    Raises:
        MissingExtraError: jinja2 (the ``html`` extra) is not installed.
    """
    jinja2 = require_extra("jinja2", extra="html", purpose="the HTML agreement table (--html)")
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    return env.from_string(_TEMPLATE).render(n=report["n"], columns=_COLUMNS, rows=_rows(report),
                                             best=report["best"], notes=_notes(report, params),
                                             failures=_failures(report, ids))
