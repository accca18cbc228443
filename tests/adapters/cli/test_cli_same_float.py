"""Break-it: two different numbers of a column that read as the same float64 are refused at every door of
``zheval agree`` -- ``--scores`` (CSV, JSON Lines, Parquet int64), ``--ratings`` and ``--judge-ratings`` -- naming both
``file:line`` places and the column as written (they were silently tied: ρ −0.384 where the exact ranks give
−0.392). The premise is checked with the standard library and SciPy, never zheval's output."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from scipy.stats import spearmanr

import zheval.cli.agree  # noqa: F401  (registers the command)
from helpers.cli import run_cli as run, sampled_sheet, write_jsonl

WHY = "round to the same float64"


def test_the_tie_changes_the_correlation():
    # the premise: scores written exactly, two of which differ only past float64's precision, correlate otherwise
    # than their floats (SciPy on the exact ranks vs on the floats)
    exact = [Decimal("0.1"), Decimal("1.00000000000000000001"), Decimal("0.5"), Decimal("1"), Decimal("0.7")]
    ratings = [3, 1, 4, 5, 2]
    assert float(exact[1]) == float(exact[3]) and exact[1] != exact[3]
    tied = spearmanr([float(x) for x in exact], ratings).statistic
    true = spearmanr([sorted(exact).index(x) + 1 for x in exact], ratings).statistic  # exact ranks, all distinct
    assert abs(tied - true) > 0.01


@pytest.fixture()
def sheet(tmp_path, crosswoz_groups):
    _, key, rows = sampled_sheet(tmp_path, crosswoz_groups, 20, 6)
    return rows, key, [r[0] for r in rows[1:]]


def _write_sheet(path, rows, cells):
    col = rows[0].index("relevance")
    out = [rows[0]] + [r[:col] + [c] + r[col + 1:] for r, c in zip(rows[1:], cells)]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(out)
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


def test_ratings_sheet(tmp_path, sheet):
    rows, key, ids = sheet
    cells = ["1", "1.00000000000000000001", "3", "4", "5", "2"]
    path = _write_sheet(tmp_path / "rated.csv", rows, cells)
    assert float(cells[0]) == float(cells[1]) and Decimal(cells[0]) != Decimal(cells[1])
    res = run("agree", "--ratings", path, "--key", key, "--ratings-columns", "relevance", "--bootstrap", 0)
    assert res.exit_code == 2, res.output
    text = path.read_text(encoding="utf-8")
    lines = {rid: next(k + 1 for k, x in enumerate(text.split("\n")) if x.startswith(rid + ",")) for rid in ids[:2]}
    assert (f"{path}:{lines[ids[1]]}: relevance of id '{ids[1]}' is '1.00000000000000000001' and "
            f"{path}:{lines[ids[0]]}: relevance of id '{ids[0]}' is '1': ") in res.output, res.output
    assert WHY in res.output and "cell(s) that read as the same float64" in res.output


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_scores_file(tmp_path, sheet, fmt):
    rows, key, ids = sheet
    good = _write_sheet(tmp_path / "rated.csv", rows, ["1", "2", "3", "4", "5", "2"])
    if fmt == "csv":
        vals, shown = ["0.1", "0.30000000000000001", "0.2", "0.3", "0.5", "0.6"], ("'0.3'", "'0.30000000000000001'")
        path = tmp_path / "s.csv"
        path.write_text("id,My Score\n" + "".join(f"{i},{v}\n" for i, v in zip(ids, vals)), encoding="utf-8")
    elif fmt == "jsonl":
        path = tmp_path / "s.jsonl"
        path.write_text("".join(f'{{"id": "{i}", "My Score": {v}}}\n' for i, v in
                                zip(ids, ["0.1", "1.00000000000000000001", "0.2", "1", "0.5", "0.6"])), encoding="utf-8")
        shown = ("1", "1.00000000000000000001")
    else:
        pa = pytest.importorskip("pyarrow")
        import pyarrow.parquet as pq

        vals = [1, 9007199254740993, 2, 9007199254740992, 5, 6]
        assert float(vals[1]) == float(vals[3])
        path = tmp_path / "s.parquet"
        pq.write_table(pa.table({"id": ids, "My Score": pa.array(vals, pa.int64())}), path)
        shown = ("9007199254740992", "9007199254740993")
    res = run("agree", "--ratings", good, "--key", key, "--ratings-columns", "relevance", "--scores", path,
              "--bootstrap", 0)
    assert res.exit_code == 2, res.output
    first, second = (3, 5) if fmt == "csv" else (2, 4)  # a header line; JSON Lines, Parquet: one line per row
    assert (f"{path}:{second}: My Score of id '{ids[3]}' is {shown[0]} and {path}:{first}: My Score of id "
            f"'{ids[1]}' is {shown[1]}: two different numbers that both {WHY}") in res.output, res.output


def test_judge_ratings(tmp_path):
    preds = write_jsonl(tmp_path / "tl.jsonl", [{"id": f"i{k}", "prediction": p, "references": ["今天天气不错"]}
                                                for k, p in enumerate(["今天天气很好", "今天不错", "天气", "今天"])])
    jr = tmp_path / "jr.jsonl"
    jr.write_text("".join(f'{{"id": "i{k}", "overall": {v}}}\n' for k, v in
                          enumerate([9007199254740993, 2, 9007199254740992, 3])), encoding="utf-8")
    res = run("agree", "--predictions", preds, "--judge-ratings", jr, "--bootstrap", 0)
    assert res.exit_code == 2, res.output
    assert (f"{jr}:3: overall of id 'i2' is 9007199254740992 and {jr}:1: overall of id 'i0' is 9007199254740993: "
            f"two different numbers that both {WHY}") in res.output, res.output
