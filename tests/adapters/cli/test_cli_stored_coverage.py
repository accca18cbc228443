"""Stored fields on some prediction lines only (issue 35, break-it leftovers): in a CSV/TSV an empty ``query`` cell
stored nothing while an empty ``label`` cell was compared as a mismatch (the file was warned about lines that
store no label), and lines without a stored field were skipped without a word, so a check of a few lines read as a
check of the file. Now an empty cell stores nothing for every stored field, and the report's notes say how many
lines were compared and how many stored none. The counts are those the test builds (the cells it empties)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from helpers.cli import run_cli as run, write_jsonl

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "zheval" / "data" / "duck_sample.jsonl"
ITEMS = [json.loads(x) for x in DATA.read_text("utf-8").splitlines() if x.strip()]
EMPTY = (3, 10, 11, 40, 65)  # the items whose stored cell is left empty


def _table(path: Path, field: str, delimiter: str = ",") -> Path:
    """A table of ``id``, ``prediction`` and ``field`` (the item's query or first reference), the cells of the
    items `EMPTY` left empty."""
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, delimiter=delimiter, lineterminator="\n")
        w.writerow(["id", "prediction", field])
        for k, it in enumerate(ITEMS):
            value = it["query"] if field == "query" else it["responses"][0]
            w.writerow([it["id"], it["responses"][-1], "" if k in EMPTY else value])
    return path


def _score(p: Path) -> dict:
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_an_empty_label_cell_stores_nothing_as_an_empty_query_cell_does(tmp_path):
    for field, delimiter, suffix in (("label", ",", "csv"), ("label", "\t", "tsv"), ("query", ",", "csv"),
                                     ("reference", "\t", "tsv")):
        p = _table(tmp_path / f"{field}.{suffix}", field, delimiter)
        rep = _score(p)
        assert not [w for w in rep["warnings"] if repr(field) in w], rep["warnings"]  # no line disagrees
        (note,) = [n for n in rep["notes"] if repr(field) in n]
        assert note == (f"61 of 66 prediction line(s) store a {field!r} and were compared with their item; 5 store "
                        f"none and were not compared (first: {p}:5)"), note  # item 3 is on line 5 (header first)


def test_every_line_storing_the_field_gives_no_note(tmp_path):
    rows = [{"id": it["id"], "prediction": it["responses"][-1], "references": it["responses"][:1]} for it in ITEMS]
    rep = _score(write_jsonl(tmp_path / "all.jsonl", rows))
    assert not [n for n in rep["notes"] if "'references'" in n], rep["notes"]


def test_jsonl_lines_without_the_field_are_counted_in_the_notes_by_order_too(tmp_path):
    rows = [{"predict": it["responses"][-1], **({} if k in EMPTY else {"label": it["responses"][0]})}
            for k, it in enumerate(ITEMS)]
    p = write_jsonl(tmp_path / "lf.jsonl", rows)
    notes = _score(p)["notes"]
    assert any("paired with the items by line order" in n for n in notes), notes
    assert (f"61 of 66 prediction line(s) store a 'label' and were compared with their item; 5 store none and were "
            f"not compared (first: {p}:4)") in notes, notes
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q")
    assert res.exit_code == 0 and "5 store none and were not compared" in res.output, res.output
    res = run("score", "-d", DATA, "-p", p, "--bootstrap", 0, "-q", "-f", "json", "--label-check", "off")
    assert not [n for n in json.loads(res.stdout)["notes"] if "'label'" in n]  # nothing compared: no such note


def test_compare_and_explain_say_it_too(tmp_path):
    p, b = _table(tmp_path / "q.csv", "query"), _table(tmp_path / "b.csv", "label")
    res = run("compare", "-d", DATA, "-p", p, b, "--bootstrap", 20, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    notes = json.loads(res.stdout)["notes"]
    assert [n for n in notes if n.startswith("A: 61 of 66 prediction line(s) store a 'query'")], notes
    assert [n for n in notes if n.startswith("B: 61 of 66 prediction line(s) store a 'label'")], notes
    res = run("explain", "-d", DATA, "-p", p, "--worst", 1)
    assert res.exit_code == 0, res.output
    assert "note: 61 of 66 prediction line(s) store a 'query'" in res.stderr, res.stderr
