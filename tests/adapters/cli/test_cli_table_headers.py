"""A CSV/TSV file whose first line is no header of its format says what it is (issue 35, break-it pass 5, F18):
Excel's 'sep=,' line, a ';'-separated CSV (one column whose name holds ';'), a CSV read as TSV, and a plain text
file read as CSV, whose first line is then the header — named at line 1, as the header, not at line 2 as a row."""

from __future__ import annotations

import pytest

from helpers.cli import PREDS, ROWS, run_cli, write_jsonl

HEADER = ["id", "prediction"]


def _table(path, sep, first=None):
    lines = ([first] if first is not None else []) + [sep.join(HEADER)]
    lines += [sep.join([p["id"], p["prediction"]]) for p in PREDS]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("with_data", [True, False])
def test_excel_sep_line_is_named(tmp_path, with_data):
    data = ["--data", write_jsonl(tmp_path / "d.jsonl", ROWS)] if with_data else []
    for sep, name, first in ((",", "p.csv", "sep=,"), (";", "q.csv", "sep=;"), ("\t", "p.tsv", "sep=\t")):
        f = _table(tmp_path / name, sep, first)
        res = run_cli("score", *data, "-p", f, "-q")
        assert res.exit_code == 2, res.output
        assert f"{f}:1: this line is " in res.output
        assert "a spreadsheet's delimiter line (Excel writes it), not a header: remove it" in res.output


@pytest.mark.parametrize("with_data", [True, False])
def test_another_delimiter_is_named(tmp_path, with_data):
    data = ["--data", write_jsonl(tmp_path / "d.jsonl", ROWS)] if with_data else []
    semi = _table(tmp_path / "semi.csv", ";")
    res = run_cli("score", *data, "-p", semi, "-q")
    assert res.exit_code == 2
    assert (f"{semi}:1: the header is one column, 'id;prediction', whose name holds ';' between names: a file "
            "separated by ';'?") in res.output
    comma = _table(tmp_path / "comma.tsv", ",")
    res = run_cli("score", *data, "-p", comma, "-q")
    assert res.exit_code == 2 and "whose name holds ',' between names" in res.output
    tab = _table(tmp_path / "tab.csv", "\t")
    res = run_cli("score", *data, "-p", tab, "-q")
    assert res.exit_code == 2 and "whose name holds a tab between names: a file separated by a tab?" in res.output


def test_a_one_column_header_without_another_delimiter_is_read(tmp_path):
    """A one-column CSV named 'prediction' (a name with no delimiter in it) is read as before."""
    f = tmp_path / "one.csv"
    f.write_text("prediction\n" + "".join(p["prediction"] + "\n" for p in PREDS), encoding="utf-8")
    res = run_cli("score", "--data", write_jsonl(tmp_path / "d.jsonl", ROWS), "-p", f, "-q", "--bootstrap", 0)
    assert res.exit_code == 0, res.output


def test_text_read_as_csv_is_named_at_its_header_line(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("".join(p["prediction"] + "\n" for p in PREDS), encoding="utf-8")
    first = PREDS[0]["prediction"]
    res = run_cli("score", "--data", write_jsonl(tmp_path / "d.jsonl", ROWS), "-p", f, "--predictions-format", "csv",
                  "-q")
    assert res.exit_code == 2
    assert (f"{f}:1: no prediction field; expected exactly one of ['predict', 'prediction'], and the header has the "
            f"column(s) [{first!r}]") in res.output
    res = run_cli("score", "-p", f, "--predictions-format", "csv", "-q")  # the records door
    assert res.exit_code == 2
    assert f"{f}:1: no prediction field named: the header has none of ['predict', 'prediction']" in res.output
