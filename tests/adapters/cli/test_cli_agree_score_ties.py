"""Break-it: ``zheval agree`` ranked zheval's own per-item scores that are mathematically equal but differ in the
last bit as distinct (ROUGE-L F = 28/51 of duck-test-0048 and duck-test-0035, stored as 0.5490196078431372 and
0.5490196078431373), so ρ and τ were wrong. The key's scores (sheet mode) and the metric columns (three-layer mode)
are now tied within `zheval.results.agreement.SCORE_TIE_TOLERANCE` before ranking; ``--scores`` columns and ratings
are ranked as written. Expected values: SciPy on the exact fractions (computed by hand), never zheval's output."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path

from scipy.stats import kendalltau, spearmanr

import zheval
import zheval.cli.agree  # noqa: F401  (registers the command)
from helpers.cli import run_cli as run, write_jsonl

DATA = Path(zheval.__file__).parent / "data"
TIED = ("duck-test-0048", "duck-test-0035")
# ROUGE-L F (β = 1) = 2·LCS / (prediction tokens + reference tokens), by hand from the best reference of each:
# 0048: 14 hits over 20 + 31 tokens; 0035: 14 hits over 21 + 30 tokens -- the same fraction.
EXACT = {"duck-test-0048": Fraction(2 * 14, 20 + 31), "duck-test-0035": Fraction(2 * 14, 21 + 30)}


def _rating(item_id: str) -> int:
    return int(item_id[-4:]) * 7 % 5 + 1  # 0048 -> 2, 0035 -> 1: the two tied items are rated apart


def _scipy(x, y) -> tuple:
    return float(spearmanr(x, y).statistic), float(kendalltau(x, y, variant="b").statistic)


def test_exact_fractions_tie():
    assert EXACT["duck-test-0048"] == EXACT["duck-test-0035"] == Fraction(28, 51)


def test_sheet_mode_ties_the_keys_scores_not_external_ones(tmp_path):
    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.json"
    res = run("sample", "--data", DATA / "duck_sample.jsonl", "-p", DATA / "duck_sample_predictions.jsonl",
              "--k", 30, "--seed", 7, "-o", sheet, "--key", key, "-q")
    assert res.exit_code == 0, res.output
    items = json.loads(key.read_text(encoding="utf-8"))["items"]
    raw = {it["id"]: it["scores"]["rougeL"] for it in items}
    assert raw[TIED[0]] != raw[TIED[1]]  # the premise: one fraction, two floats
    assert all(abs(raw[i] - float(EXACT[i])) <= 1e-15 for i in TIED)
    others = sorted(v for i, v in raw.items() if i not in TIED)
    assert all(b == a or b - a > 1e-9 for a, b in zip(others, others[1:]))  # no other near-tie: floats are exact ranks
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8-sig"), newline="")))
    head, body = rows[0], rows[1:]
    col = head.index("relevance")
    for r in body:
        r[col] = str(_rating(r[0]))
    rated = tmp_path / "rated.csv"
    with rated.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([head] + body)
    ext = tmp_path / "ext.csv"
    ext.write_text("id,copyL\n" + "".join(f"{i},{raw[i]!r}\n" for i in raw), encoding="utf-8")
    res = run("agree", "--ratings", rated, "--key", key, "--scores", ext, "--bootstrap", 0, "-f", "json")
    assert res.exit_code == 0, res.output
    got = {r["metric"]: r for r in json.loads(res.stdout)["rows"]
           if r["group"] == "overall" and r["rating"] == "relevance"}
    ids = [r[0] for r in body]
    ratings = [_rating(i) for i in ids]
    exact = [float(EXACT[i]) if i in EXACT else raw[i] for i in ids]  # the two: one float, exactly tied
    rho, tau = _scipy(exact, ratings)
    raw_rho, raw_tau = _scipy([raw[i] for i in ids], ratings)
    assert abs(rho - raw_rho) > 1e-3  # the tie matters
    assert abs(got["rougeL"]["spearman"] - rho) <= 1e-12 and abs(got["rougeL"]["kendall"] - tau) <= 1e-12
    # --scores are the user's numbers, ranked exactly as written: two different numbers, two ranks
    assert abs(got["copyL"]["spearman"] - raw_rho) <= 1e-12 and abs(got["copyL"]["kendall"] - raw_tau) <= 1e-12


REF = "一二三四五六七八九十"


def test_three_layer_mode_ties_the_metric_columns(tmp_path):
    data = {json.loads(l)["id"]: json.loads(l) for l in (DATA / "duck_sample.jsonl").read_text("utf-8").splitlines()}
    preds = {json.loads(l)["id"]: json.loads(l)["prediction"]
             for l in (DATA / "duck_sample_predictions.jsonl").read_text("utf-8").splitlines()}
    recs = [{"id": i, "prediction": preds[i], "references": data[i]["responses"]} for i in TIED]
    # REF[:k] against REF: LCS k over k + 10 tokens, F = 2k / (k + 10)
    for k in (2, 5, 8):
        recs.append({"id": f"p{k}", "prediction": REF[:k], "references": [REF]})
    exact = dict(EXACT, **{f"p{k}": Fraction(2 * k, k + 10) for k in (2, 5, 8)})
    ratings = {"duck-test-0048": 3, "duck-test-0035": 1, "p2": 2, "p5": 2, "p8": 4}
    path = write_jsonl(tmp_path / "tl.jsonl", recs)
    jr = tmp_path / "jr.csv"
    jr.write_text("id,overall\n" + "".join(f"{i},{ratings[i]}\n" for i in ratings), encoding="utf-8")
    res = run("agree", "--predictions", path, "--judge-ratings", jr, "--bootstrap", 0, "-f", "json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    col = doc["metrics"]["ROUGE-L"]
    assert col[0] != col[1] and all(abs(v - float(exact[r["id"]])) <= 1e-15 for v, r in zip(col, recs))
    ids = [r["id"] for r in recs]
    rho, tau = _scipy([float(exact[i]) for i in ids], [ratings[i] for i in ids])
    raw_rho, _ = _scipy(col, [ratings[i] for i in ids])
    assert abs(rho - raw_rho) > 1e-3  # the tie matters
    row = next(r for r in doc["rows"] if r["group"] == "overall" and r["metric"] == "ROUGE-L")
    assert abs(row["spearman"] - rho) <= 1e-12 and abs(row["kendall"] - tau) <= 1e-12


def test_tied_scores_rule():
    from zheval.results.agreement import SCORE_TIE_TOLERANCE, tied_scores

    a = float(Fraction(28, 51))
    t = SCORE_TIE_TOLERANCE
    got = tied_scores([a + 2e-16, 0.1, a, 5.0, 5.0 + 4 * t, 7.0, 7.0 + 8 * t, 0.0, 0.5 * t, 0.3, 0.3 + 2 * t])
    # relative to max(1, |x|): 4t from 5.0 ties, 8t from 7.0 does not; below 1 the tolerance is t itself
    assert list(got) == [a, 0.1, a, 5.0, 5.0, 7.0, 7.0 + 8 * t, 0.0, 0.0, 0.3, 0.3 + 2 * t]
