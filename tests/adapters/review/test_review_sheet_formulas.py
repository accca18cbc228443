"""The review sheet's CSV and TSV are opened by spreadsheet programs, which evaluate a cell starting with ``=``,
``+``, ``-`` or ``@`` (and tab, CR) as a formula (OWASP "CSV Injection"; issue 35, break-it 6): ``zheval sample``
wrote such ids and model texts as they were, so Excel showed ``=1+1`` as ``2`` and a re-saved id ``=cmd`` no longer
matched its key. Each such text cell now starts with OWASP's ``'``, a text that starts with ``'`` itself has it
written ``\\x27`` (one-to-one, also once a spreadsheet dropped the guards: test_review_sheet_guard_dropped.py), and
``zheval agree`` reads the ids and predictions back exactly. Expected cells are written out by hand."""

from __future__ import annotations

import csv
import io
import json

import pytest

from helpers.cli import run_cli, write_jsonl
from zheval.adapters.review.human_review import read_key, read_ratings
from zheval.text.controls import sheet_plain, sheet_text

#: (id, prediction, reference) -> (id cell, prediction cell, reference cell) as the sheet must write them
CASES = [
    (("f1", "=1+1", "今天天气"), ("f1", "'=1+1", "今天天气")),
    (("=cmd", "@SUM(A1)", "-3"), ("'=cmd", "'@SUM(A1)", "'-3")),
    (("+86", "-负数开头", "+加号"), ("'+86", "'-负数开头", "'+加号")),
    (("@x", "'=x", "=参考"), ("'@x", "\\x27=x", "'=参考")),
    (("'q", "'普通的撇号", "@引用"), ("\\x27q", "\\x27普通的撇号", "'@引用")),
    (("-7", "\t制表开头", "'撇号"), ("'-7", "'\t制表开头", "\\x27撇号")),
]


def test_sheet_text_guards_and_sheet_plain_reads_back():
    for text, cell in [("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@a", "'@a"), ("'=x", "\\x27=x"),
                       ("'a", "\\x27a"), ("\tx", "'\tx"), ("\rx", "\\rx"), ("a=b", "a=b"), ("", ""), ("今天", "今天")]:
        assert sheet_text(text) == cell and sheet_plain(cell) == text
    assert sheet_text("\tx", one_line=True) == "\\tx"  # escaped on one line: no tab starts the cell
    assert sheet_plain("'abc") == "'abc"  # no guard before a, so the ' is text (a sheet written before the guard)


@pytest.mark.parametrize("name", ["sheet.csv", "sheet.tsv"])
def test_formula_cells_are_guarded_and_round_trip_through_sample_and_agree(tmp_path, name):
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": i, "predict": p, "label": r} for (i, p, r), _ in CASES])
    sheet, key = tmp_path / name, tmp_path / "k.json"
    res = run_cli("sample", "-p", preds, "--id-field", "id", "-k", str(len(CASES)), "-o", sheet, "--key", key)
    assert res.exit_code == 0, res.output
    text = sheet.read_text(encoding="utf-8-sig")
    delimiter = "," if name.endswith(".csv") else "\t"
    if delimiter == ",":
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
    else:  # TSV: one row per line, no quoting
        head, *body = text.rstrip("\n").split("\n")
        rows = [dict(zip(head.split("\t"), line.split("\t"))) for line in body]
    written = {r["id"]: (r["id"], r["prediction"]) for r in rows}
    want = {cells[0]: cells[:2] for _, cells in CASES}
    if delimiter == "\t":  # TSV: one line per row, a tab escaped (no tab starts the cell, so no guard for it)
        want["'-7"] = ("'-7", "\\t制表开头")
    assert written == want
    if delimiter == ",":
        assert {r["id"]: r["references"] for r in rows} == {cells[0]: cells[2] for _, cells in CASES}
    # every cell that would start a formula starts with '
    assert all(not c or c[0] not in "=+-@\t" for r in rows for c in r.values())
    # fill the ratings, write the sheet back as a spreadsheet would (same cells), read it against the key
    for k, r in enumerate(rows):
        r.update(relevance=str(1 + k), informativeness="3", naturalness="4")
    if delimiter == ",":
        buf = io.StringIO(newline="")
        w = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        out = buf.getvalue()
    else:
        out = "".join("\t".join(r) + "\n" for r in [list(rows[0]), *[list(r.values()) for r in rows]])
    filled = tmp_path / f"filled{sheet.suffix}"
    filled.write_text(out, encoding="utf-8")
    ratings, info = read_ratings(filled, read_key(key))
    assert sorted(ratings) == sorted(i for (i, _, _), _ in CASES)  # the key's ids, exactly
    assert {i: ratings[i]["relevance"] for i in ratings} == {r_id: float(1 + k) for k, r_id in enumerate(
        sheet_plain(r["id"]) for r in rows)}
    assert not any("prediction" in n for n in info["notes"])  # predictions checked against the key's digests
    back = run_cli("agree", "--ratings", filled, "--key", key, "--bootstrap", "0", "--format", "json")
    assert back.exit_code == 0, back.output
    assert json.loads(back.stdout)["params"]["items"] == len(CASES)


def test_an_edited_guarded_prediction_is_still_refused(tmp_path):
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": i, "predict": p, "label": r} for (i, p, r), _ in CASES])
    sheet, key = tmp_path / "s.csv", tmp_path / "k.json"
    assert run_cli("sample", "-p", preds, "--id-field", "id", "-k", str(len(CASES)), "-o", sheet,
                   "--key", key).exit_code == 0
    # the guard read as text would make '=1+1 of f1 the text "'=1+1", not the key's "=1+1": a guarded cell is "=1+1",
    # and a cell ''=1+1 (the text '=1+1) is another text, refused
    text = sheet.read_text(encoding="utf-8-sig").replace("f1,,'=1+1,", "f1,,''=1+1,")
    (tmp_path / "e.csv").write_text(text, encoding="utf-8")
    back = run_cli("agree", "--ratings", tmp_path / "e.csv", "--key", key, "--bootstrap", "0", "--format", "json")
    assert back.exit_code == 2 and "the prediction of 1 of" in back.stderr and "'f1'" in back.stderr


def test_a_sheet_resaved_without_the_guard_still_matches_the_key(tmp_path):
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": "=cmd", "predict": "=1+1", "label": "今天天气"},
                                               {"id": "f2", "predict": "今天", "label": "今天天气"},
                                               {"id": "f3", "predict": "天气", "label": "今天天气"}])
    sheet, key = tmp_path / "s.csv", tmp_path / "k.json"
    assert run_cli("sample", "-p", preds, "--id-field", "id", "-k", "3", "-o", sheet, "--key", key).exit_code == 0
    text = sheet.read_text(encoding="utf-8-sig")
    assert "'=cmd,,'=1+1," in text
    (tmp_path / "r.csv").write_text(text.replace("'=cmd,,'=1+1,", "=cmd,,=1+1,"), encoding="utf-8")
    ratings, info = read_ratings(tmp_path / "r.csv", read_key(key))
    assert sorted(ratings) == ["=cmd", "f2", "f3"] and info["lines"]["=cmd"] in (2, 3, 4)
