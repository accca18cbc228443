"""Break-it: "which metric agrees best" ranked metrics without a correlation (an empty rating column, constant
ratings or a constant metric) with ``>`` between dashes, ``sentence BLEU – > ROUGE-1 – > …``, in both modes of
``zheval agree`` and in every form. They are never ranked: the ranked metrics come first (``=``/``>`` as before),
then ``; no correlation (<reason>): <metrics>``, in the words the table's notes use; in the JSON their rank is null.
Both modes' JSON has the same keys, ``ranking``/``ranking_rank``/``tie_tolerance``. The expected ρ and order are
SciPy's ``spearmanr`` on the columns, never zheval's own output; which pairs have no correlation is decided here
from the columns (fewer than 3 rated items, or a constant column)."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from scipy.stats import spearmanr

import zheval.cli.agree  # noqa: F401  (registers the command)
from helpers.cli import records_sheet, run_cli as run, write_jsonl

PAIRS = [("今天天气很好", "今天天气不错"), ("明天有雨", "明天下雨"), ("我们去公园", "我们去公园散步"), ("你好", "你好啊"),
         ("再见", "再见了"), ("谢谢你", "多谢")]
NATURALNESS = [1 + k * 7 % 5 for k in range(len(PAIRS))]  # varied: a correlation with every varied metric


def _reason(metric: list, rating: list):
    """Why a (metric, rating) pair has no correlation, in the table's words (or None): decided from the columns."""
    n = len(rating)
    if n < 3:
        return f"n={n}: a correlation needs at least 3 items"
    const = [name for name, v in (("metric", metric), ("ratings", rating)) if len(set(v)) == 1]
    return f"constant {' and '.join(const)} over the {n} items" if const else None


def _expected_line(columns: dict, labels: dict, rating: list) -> tuple:
    """(the ranking line, the same as the HTML page writes it, the metric names in order, their ranks) from SciPy's
    ρ: ties in table order, the pairs without a correlation last, grouped by reason."""
    reasons = {m: _reason(v, rating) for m, v in columns.items()}
    rho = {m: float(spearmanr(v, rating).statistic) for m, v in columns.items() if reasons[m] is None}
    names = sorted(rho, key=lambda m: (-rho[m], list(columns).index(m)))
    ranks, text, html = [], "", ""
    for k, m in enumerate(names):
        tied = k and rho[m] == rho[names[k - 1]]
        ranks.append(ranks[-1] if tied else k + 1)
        sep = "" if not k else " = " if tied else " > "
        text += f"{sep}{labels[m]} {rho[m]:+.3f}"
        html += f"{sep.replace('>', '&gt;')}<bdi>{labels[m]}</bdi> {rho[m]:+.3f}"
    groups: dict = {}
    for m in columns:
        if reasons[m] is not None:
            groups.setdefault(reasons[m], []).append(m)
    for j, (reason, ms) in enumerate(groups.items()):
        sep = ("; " if names or j else "") + f"no correlation ({reason}): "
        text += sep + ", ".join(labels[m] for m in ms)
        html += sep + ", ".join(f"<bdi>{labels[m]}</bdi>" for m in ms)
    unranked = [m for ms in groups.values() for m in ms]
    return text, html, names + unranked, ranks + [None] * len(unranked)


def test_sheet_mode_never_ranks_a_metric_without_a_correlation(tmp_path):
    sheet, key, rows = records_sheet(tmp_path, PAIRS)
    head = rows[0]
    for r in rows[1:]:  # relevance left empty, informativeness constant, naturalness varied
        r[head.index("relevance")], r[head.index("informativeness")] = "", "3"
        r[head.index("naturalness")] = str(NATURALNESS[int(r[0][1:])])
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    sheet.write_text(buf.getvalue(), encoding="utf-8")
    ext = tmp_path / "ext.csv"  # a constant external score: no correlation with anything
    ext.write_text("id,flat\n" + "".join(f"r{k},0.5\n" for k in range(len(PAIRS))), encoding="utf-8")
    kd = json.loads(key.read_text(encoding="utf-8"))
    labels = {m["name"]: m.get("label", m["name"]) for m in kd["metrics"]} | {"flat": "flat"}
    ids = [it["id"] for it in kd["items"]]
    columns = {m: [it["scores"][m] for it in kd["items"]] for m in labels if m != "flat"} | {"flat": [0.5] * len(ids)}
    ratings = {"relevance": [], "informativeness": [3] * len(ids),
               "naturalness": [NATURALNESS[int(i[1:])] for i in ids]}
    args = ["agree", "--ratings", sheet, "--key", key, "--scores", ext, "--bootstrap", 0]
    table = run(*args)
    assert table.exit_code == 0, table.output
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert {"ranking", "ranking_rank", "tie_tolerance"} <= set(doc)
    for rating, values in ratings.items():
        cols = {m: ([] if not values else v) for m, v in columns.items()}  # an empty column: no rated item
        line, _, names, ranks = _expected_line(cols, labels, values)
        assert f"  {rating}: {line}\n" in table.stdout, table.stdout
        assert doc["ranking"][rating] == names and doc["ranking_rank"][rating] == ranks
    ranked = table.stdout.split("which metric agrees best")[1].split("\nnotes")[0]
    assert not re.search(r"– [>=]|[>=] \S+ –", ranked), ranked  # no dash is ranked any more
    assert "no correlation for" in table.stdout  # the notes' words, which the ranking now uses


REF = "一二三四五六七八九十"
PREDS = [REF[:9], REF[:7], REF[:5], REF[:3], REF[:1], "一三五七九二"]
OVERALL = [4, 2, 5, 1, 3, 5]


def test_three_layer_mode_never_ranks_a_metric_without_a_correlation(tmp_path):
    pytest.importorskip("jinja2")  # --html
    preds = write_jsonl(tmp_path / "tl.jsonl", [{"id": f"i{k}", "prediction": p, "references": [REF]}
                                                for k, p in enumerate(PREDS)])
    jr = tmp_path / "jr.csv"  # faithful constant, fluent never rated
    jr.write_text("id,overall,faithful,fluent\n" + "".join(f"i{k},{r},3,\n" for k, r in enumerate(OVERALL)),
                  encoding="utf-8")
    args = ["agree", "--predictions", preds, "--judge-ratings", jr, "--bootstrap", 0]
    html = tmp_path / "ag.html"
    table = run(*args, "--html", html)
    assert table.exit_code == 0, table.output
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert {"ranking", "ranking_rank", "tie_tolerance", "best", "best_rank"} <= set(doc)
    assert doc["best"] == doc["ranking"] and doc["best_rank"] == doc["ranking_rank"]  # the earlier names, kept
    md = run(*args, "-f", "markdown").stdout
    page = html.read_text(encoding="utf-8")
    metrics = doc["metrics"]  # the metric columns (checked against SciPy below, not zheval's ρ)
    labels = {m: m for m in metrics}
    for rating, values in {"rating:overall": OVERALL, "rating:faithful": [3] * len(PREDS),
                           "rating:fluent": []}.items():
        cols = {m: ([] if not values else v) for m, v in metrics.items()}
        line, html_line, names, ranks = _expected_line(cols, labels, values)
        assert f"  {rating}: {line}\n" in table.stdout, table.stdout
        assert f"- {rating}: {line.replace('>', '&gt;')}\n" in md
        assert f"<li><bdi>{rating}</bdi>: {html_line}</li>" in page, page
        assert doc["ranking"][rating] == names and doc["ranking_rank"][rating] == ranks
    assert "– &gt;" not in page and "– >" not in table.stdout and "– &gt;" not in md
    assert "no correlation (constant ratings over the 6 items)" in table.stdout.split("\nnotes")[1]  # the notes' words


def test_the_ranking_parts_of_a_mixed_ranking_and_the_html():
    """A ranked metric, a tie and two reasons in one line, in the three-layer page (its renderer on a report
    whose rows are written here)."""
    from zheval.adapters.layers_report import render_html, render_table
    from zheval.results.agreement import unranked_groups

    assert unranked_groups([1, 1, 3, None, None, None], [None, None, None, "a", "b", "a"]) == [
        ("; ", "a", [3, 5]), ("; ", "b", [4])]
    assert unranked_groups([None, None], ["a", "b"]) == [("", "a", [0]), ("; ", "b", [1])]
    assert unranked_groups([1, 2], [None, None]) == []

    def row(metric, rho, undefined=None):
        return {"group": "overall", "metric": metric, "rating": "r", "n": 6, "excluded": 0, "undefined": undefined,
                **{f"{k}{s}": (rho if not s else None) for k in ("spearman", "kendall", "pearson")
                   for s in ("", "_low", "_high")}}

    report = {"n": 6, "rows": [row("A", 0.5), row("B", 0.5), row("C", None, "constant metric over the 6 items"),
                               row("D", 0.1)],
              "ranking": {"r": ["A", "B", "D", "C"]}, "ranking_rank": {"r": [1, 1, 3, None]}}
    text = render_table(report, params={"bootstrap": 0})
    assert "  r: A +0.500 = B +0.500 > D +0.100; no correlation (constant metric over the 6 items): C\n" in text
    pytest.importorskip("jinja2")
    page = render_html(report, params={"bootstrap": 0})
    assert ("<li><bdi>r</bdi>: <bdi>A</bdi> +0.500 = <bdi>B</bdi> +0.500 &gt; <bdi>D</bdi> +0.100; no correlation "
            "(constant metric over the 6 items): <bdi>C</bdi></li>") in page
