"""The review sheet's formula guard ``'`` may be kept or dropped by the spreadsheet the sheet is opened in (its own
"this is text" prefix), and reading back must give every text, one-to-one, either way (issue 35: ``'=x`` was written
``''=x``, which a spreadsheet dropping one ``'`` turned into ``'=x``, the guarded cell of ``=x``: read back as
``=x``). Now only the guard starts a cell with ``'`` -- a text's own leading ``'`` is written ``\\x27`` -- and a
text a TSV reader refuses as CSV-quoted (``"a""b"``) has its first ``"`` written ``\\x22``. Expected cells are written
out by hand; the round trip is checked exhaustively over short texts of the characters that matter."""

from __future__ import annotations

import csv
import io
import itertools

import pytest

from helpers.cli import run_cli, write_jsonl
from zheval.adapters.review.human_review import read_key, read_ratings
from zheval.text.controls import sheet_plain, sheet_text

TEXTS = ["'=x", "''=x", "=x", "'", "'abc", "''", "'-1", "-'", "@", '"a""b"', '"abc"', "abc"]
#: the cells written by hand (one_line=True): the guard only before a formula start; a text's own ' as \x27
CELLS = ["\\x27=x", "\\x27'=x", "'=x", "\\x27", "\\x27abc", "\\x27'", "\\x27-1", "'-'", "'@", '\\x22a""b"', '"abc"',
         "abc"]


def _dropped(cell: str) -> str:
    """The cell once a spreadsheet dropped a leading ' (its "this is text" prefix)."""
    return cell[1:] if cell.startswith("'") else cell


def test_the_cells_written_by_hand_read_back_with_the_guard_kept_or_dropped():
    for text, cell in zip(TEXTS, CELLS):
        assert sheet_text(text, one_line=True) == cell, text
        assert sheet_plain(cell) == text and sheet_plain(_dropped(cell)) == text, (text, cell)


@pytest.mark.parametrize("one_line", [False, True])
def test_one_to_one_over_every_short_text_kept_or_dropped(one_line):
    alphabet = "'=-@\t\"a\\"
    seen: dict = {}
    for n in range(5):
        for chars in itertools.product(alphabet, repeat=n):
            text = "".join(chars)
            cell = sheet_text(text, one_line=one_line)
            assert cell[:1] not in ("=", "+", "-", "@", "\t"), (text, cell)  # never a formula
            for form in {cell, _dropped(cell)}:
                assert seen.setdefault(form, text) == text, (form, text, seen[form])  # no cell of two texts
                assert sheet_plain(form) == text, (text, form)


@pytest.mark.parametrize("name", ["sheet.csv", "sheet.tsv"])
def test_sample_then_agree_with_every_guard_dropped_by_the_spreadsheet(tmp_path, name):
    items = [{"id": t, "predict": t, "label": "参考"} for t in TEXTS]
    preds = write_jsonl(tmp_path / "p.jsonl", items)
    sheet, key = tmp_path / name, tmp_path / "k.json"
    res = run_cli("sample", "-p", preds, "--id-field", "id", "-k", str(len(items)), "-o", sheet, "--key", key)
    assert res.exit_code == 0, res.output
    text = sheet.read_text(encoding="utf-8-sig")
    if name.endswith(".csv"):
        rows = [list(r) for r in csv.reader(io.StringIO(text, newline=""))]
    else:
        rows = [line.split("\t") for line in text.rstrip("\n").split("\n")]
    head = rows[0]
    assert sorted(r[head.index("id")] for r in rows[1:]) == sorted(CELLS)
    for keep in (True, False):
        out_rows = [head] + [[c if keep else _dropped(c) for c in r] for r in rows[1:]]
        for k, r in enumerate(out_rows[1:]):
            for col in ("relevance", "informativeness", "naturalness"):
                r[head.index(col)] = str(1 + k % 5)
        filled = tmp_path / f"filled{sheet.suffix}"
        if name.endswith(".csv"):
            buf = io.StringIO(newline="")
            csv.writer(buf, lineterminator="\n").writerows(out_rows)
            filled.write_text(buf.getvalue(), encoding="utf-8")
        else:
            filled.write_text("".join("\t".join(r) + "\n" for r in out_rows), encoding="utf-8")
        ratings, info = read_ratings(filled, read_key(key))
        assert sorted(ratings) == sorted(TEXTS), keep  # the key's ids, exactly
        by_cell = {r[head.index("id")]: 1 + k % 5 for k, r in enumerate(rows[1:])}
        assert {t: ratings[t]["relevance"] for t in TEXTS} == {t: float(by_cell[c]) for t, c in zip(TEXTS, CELLS)}
        assert not any("prediction" in n for n in info["notes"])  # every prediction checked against its digest
