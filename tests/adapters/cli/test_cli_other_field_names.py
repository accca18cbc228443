"""A predictions row that uses other field names (issue 35, break-it leftovers): a row with ``predict``/``label``
after a first row of ``prediction``/``reference`` was diagnosed as an "ambiguous pairing" ("this row also has
['predict', 'label'] beside 'prediction' and 'reference' ... the fields pair up in more than one way") although it
has none of the first row's fields; and at the ``--data`` door a row of ``output`` was "no prediction field;
expected ..." without the fields it has. Now both say which fields were expected and which the row has, and name
--pred-field (and --ref-field); a row with a second pairing beside the first row's is still ambiguous."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.cli import run_cli as run, write_jsonl

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "zheval" / "data" / "duck_sample.jsonl"
FIRST = {"id": "a", "prediction": "你好", "reference": "你好"}


@pytest.mark.parametrize("stream", [[], ["--stream"]])
@pytest.mark.parametrize("second, missing, has", [
    ({"id": "b", "predict": "再见", "label": "再见"}, ["prediction", "reference"], ["id", "label", "predict"]),
    ({"id": "b", "output": "再见", "gold": "再见"}, ["prediction", "reference"], ["gold", "id", "output"]),
    ({"id": "b", "predict": "再见", "reference": "再见"}, ["prediction"], ["id", "predict", "reference"]),
])
def test_a_row_with_other_names_is_missing_fields_not_ambiguous(tmp_path, stream, second, missing, has):
    f = write_jsonl(tmp_path / "p.jsonl", [FIRST, second])
    res = run("score", "-p", f, "-q", *stream)
    assert res.exit_code == 2, res.output
    assert "more than one way" not in res.stderr, res.stderr
    assert (f"{f}:2: id 'b': missing field(s) {missing} (this row has {has}); every row is read with the same "
            "fields, here 'prediction' and 'reference' (the first row's, or those named): write every row with "
            "them, or name the fields the rows use with --pred-field NAME --ref-field NAME") in res.stderr, res.stderr


def test_a_second_pairing_beside_the_first_rows_is_still_ambiguous(tmp_path):
    f = write_jsonl(tmp_path / "p.jsonl", [FIRST, {**FIRST, "id": "b", "predict": "再见", "label": "再见"}])
    res = run("score", "-p", f, "-q")
    assert res.exit_code == 2
    assert f"{f}:2: id 'b': this row also has ['predict', 'label'] beside 'prediction' and 'reference'" in res.stderr
    assert "missing field" not in res.stderr


def test_the_data_door_names_the_fields_the_row_has(tmp_path):
    items = [json.loads(x) for x in DATA.read_text("utf-8").splitlines() if x.strip()]
    rows = [{"id": it["id"], "prediction": it["responses"][0]} for it in items]
    rows[4] = {"id": items[4]["id"], "output": items[4]["responses"][0]}
    f = write_jsonl(tmp_path / "p.jsonl", rows)
    res = run("score", "-d", DATA, "-p", f, "-q", "--bootstrap", 0)
    assert res.exit_code == 2
    assert (f"{f}:5: id {items[4]['id']!r}: no prediction field; expected exactly one of ['predict', 'prediction'], "
            "and this row has ['id', 'output'] (or name the prediction field with --pred-field NAME)") in res.stderr
    t = tmp_path / "p.csv"
    t.write_text("id,output\n" + "".join(f"{it['id']},{it['responses'][0]}\n" for it in items), encoding="utf-8")
    res = run("score", "-d", DATA, "-p", t, "-q", "--bootstrap", 0)
    assert res.exit_code == 2
    assert f"{t}:1: no prediction field; expected exactly one of ['predict', 'prediction'], and the header has " \
           "the column(s) ['id', 'output']" in res.stderr, res.stderr  # the header's line (break-it 5 F18)
