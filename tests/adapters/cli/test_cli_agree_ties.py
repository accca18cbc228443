"""Break-it: "which metric agrees best" showed exactly equal correlations as a strict order (``BLEU +0.200 >
ROUGE-2 +0.200 > …``, the order being table order), in both modes of ``zheval agree`` and in every form. Tied ρ
(within `zheval.results.agreement.TIE_TOLERANCE`) are joined by ``=`` and share a rank (``best_rank`` /
``ranking_rank`` in the JSON); the expected order, ties and values are SciPy's ``spearmanr`` on the columns, never
zheval's own output."""

from __future__ import annotations

import csv
import io
import json

import pytest
from scipy.stats import spearmanr

import zheval.cli.agree  # noqa: F401  (registers the command)
from helpers.cli import run_cli as run, sampled_sheet, write_jsonl

TIE_TOLERANCE = 1e-12  # zheval.results.agreement.TIE_TOLERANCE (imported in its own test: this file runs on old code)

REF = "一二三四五六七八九十"
# prefixes rank the items alike under every n-gram metric (so their ρ are equal); f puts ROUGE-1 and ROUGE-L
# (equal ranks again) above the rest
PREDS = [REF[:9], REF[:7], REF[:5], REF[:3], REF[:1], "一三五七九二"]
RATINGS = [4, 2, 5, 1, 3, 5]


def _expected(columns: dict, ratings) -> tuple:
    """(names best first, ranks, the line) from SciPy's ρ: equal ρ are tied, ties in table order."""
    rho = {m: float(spearmanr(v, ratings).statistic) for m, v in columns.items()}
    names = sorted(rho, key=lambda m: (-rho[m], list(rho).index(m)))
    ranks, seps = [], []
    for k, m in enumerate(names):
        tied = k and rho[m] == rho[names[k - 1]]
        ranks.append(ranks[-1] if tied else k + 1)
        seps.append("" if not k else " = " if tied else " > ")
    return names, ranks, "".join(f"{s}{m} {rho[m]:+.3f}" for s, m in zip(seps, names)), rho, seps


@pytest.fixture()
def layer_files(tmp_path):
    preds = write_jsonl(tmp_path / "tl.jsonl", [{"id": f"i{k}", "prediction": p, "references": [REF]}
                                                for k, p in enumerate(PREDS)])
    jr = tmp_path / "jr.csv"
    jr.write_text("id,overall\n" + "".join(f"i{k},{r}\n" for k, r in enumerate(RATINGS)), encoding="utf-8")
    return preds, jr


def test_three_layer_mode_shows_ties_in_every_form(tmp_path, layer_files):
    preds, jr = layer_files
    args = ["agree", "--predictions", preds, "--judge-ratings", jr, "--bootstrap", 0]
    res = run(*args, "-f", "json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    names, ranks, line, rho, seps = _expected(doc["metrics"], RATINGS)
    assert len(set(ranks)) < len(ranks) and len(set(ranks)) > 1  # some ties, some strict steps
    assert doc["best"]["rating:overall"] == names and doc["best_rank"]["rating:overall"] == ranks
    assert doc["tie_tolerance"] == TIE_TOLERANCE
    html = tmp_path / "ag.html"
    table = run(*args, "--html", html)
    assert table.exit_code == 0, table.output
    assert f"  rating:overall: {line}\n" in table.stdout
    md = run(*args, "-f", "markdown")
    assert f"- rating:overall: {line.replace('>', '&gt;')}\n" in md.stdout  # markdown_text: &gt;
    page = html.read_text(encoding="utf-8")
    want = "".join(f"{s.replace('>', '&gt;')}<bdi>{m}</bdi> {rho[m]:+.3f}"
                   for s, m in zip(seps, names))
    assert f"<li><bdi>rating:overall</bdi>: {want}</li>" in page


def test_best_first_ties_within_the_tolerance_and_keeps_table_order():
    from zheval.results.agreement import TIE_TOLERANCE, best_first, rank_separators

    got = best_first([0.2, 0.1, 0.2 - TIE_TOLERANCE / 2, None, 0.1 + 2 * TIE_TOLERANCE, -1.0])
    assert got == [(0, 1), (2, 1), (4, 3), (1, 4), (5, 5), (3, None)]
    assert rank_separators([r for _, r in got]) == ["", " = ", " > ", " > ", " > ", " > "]


@pytest.fixture()
def sheet_files(tmp_path, crosswoz_groups):
    sheet, key, rows = sampled_sheet(tmp_path, crosswoz_groups, 30, 12)
    col = rows[0].index("relevance")
    for r in rows[1:]:
        r[col] = str(1 + int(r[0][1:]) * 7 % 5)
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    sheet.write_text(buf.getvalue(), encoding="utf-8")
    return sheet, key, json.loads(key.read_text(encoding="utf-8")), {r[0]: float(r[col]) for r in rows[1:]}


def test_sheet_mode_shows_a_scores_column_equal_to_a_metric_as_tied(tmp_path, sheet_files):
    sheet, key, kd, rated = sheet_files
    ids = [it["id"] for it in kd["items"]]
    names = [m["name"] for m in kd["metrics"]]
    assert "rouge2" in names
    ext = tmp_path / "ext.csv"  # the key's rouge2, written exactly (repr round-trips)
    ext.write_text("id,ext\n" + "".join(f"{it['id']},{it['scores']['rouge2']!r}\n" for it in kd["items"]),
                   encoding="utf-8")
    args = ["agree", "--ratings", sheet, "--key", key, "--ratings-columns", "relevance", "--scores", ext,
            "--bootstrap", 0]
    res = run(*args, "-f", "json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    ratings = [rated[i] for i in ids]
    cols = {m: [it["scores"][m] for it in kd["items"]] for m in names}
    cols["ext"] = cols["rouge2"]
    want_names, want_ranks, _, rho, _ = _expected(cols, ratings)
    assert doc["ranking"]["relevance"] == want_names and doc["ranking_rank"]["relevance"] == want_ranks
    assert doc["tie_tolerance"] == TIE_TOLERANCE
    table = run(*args)
    assert table.exit_code == 0, table.output
    label = {m["name"]: m.get("label", m["name"]) for m in kd["metrics"]}
    line = next(x for x in table.stdout.splitlines() if x.startswith("  relevance: "))
    assert f"{label['rouge2']} {rho['rouge2']:+.3f} = ext {rho['ext']:+.3f}" in line
    assert line.count(" = ") == sum(1 for k in range(1, len(want_ranks)) if want_ranks[k] == want_ranks[k - 1])
    assert line.count(" > ") == len(want_ranks) - 1 - line.count(" = ")
