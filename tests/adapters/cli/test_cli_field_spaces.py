"""A JSONL key or a Parquet column with spaces around its name (issue 35, third break-it pass): field names are
matched exactly, as a CSV/TSV header's are, so ``" prediction"`` is not ``prediction`` — but the message said only
"missing field prediction". Now every door that reports a missing field names the spaced one beside it: the records
door (whole file and ``--stream``), the predictions joined to ``--data``, the 小黄鸭 data file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.cli import run_cli as run, write_jsonl
from zheval.io import pair_fields, prediction_field, spaced_names

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "zheval" / "data" / "duck_sample.jsonl"


def _note(spaced: str, name: str) -> str:
    return (f"the field {spaced!r} has spaces around it: field names are matched exactly, so it is not {name!r}; "
            "remove the spaces")


def test_spaced_names_names_both():
    assert spaced_names(["prediction"], ["id", " prediction", "references"]) == "; " + _note(" prediction",
                                                                                            "prediction")
    assert spaced_names(["prediction"], ["prediction", "id"]) == ""
    assert spaced_names(["label"], ["Label", "label\t"]) == "; " + _note("label\t", "label")
    assert _note(" prediction", "prediction") in prediction_field(["id", " prediction"])[1]


@pytest.mark.parametrize("stream", [[], ["--stream"]])
def test_records_door_names_the_spaced_field(tmp_path, stream):
    rows = [{"id": "a", "prediction": "你好", "references": ["您好"]},
            {"id": "b", " prediction": "再见", "references": ["再见"]}]
    p = write_jsonl(tmp_path / "r.jsonl", rows)
    res = run("score", "-p", p, "-q", *stream)
    assert res.exit_code == 2
    assert (f"{p}:2: id 'b': missing field(s) ['prediction'] (this row has [' prediction', 'id', 'references']); "
            + _note(" prediction", "prediction")) in res.output, res.output


@pytest.mark.parametrize("stream", [[], ["--stream"]])
def test_a_parquet_column_with_spaces_is_named(tmp_path, stream):
    import pyarrow as pa
    import pyarrow.parquet as pq

    p = tmp_path / "r.parquet"
    pq.write_table(pa.table({"id": ["a"], "prediction": ["你好"], "references ": [["您好"]]}), str(p))
    res = run("score", "-p", p, "-q", *stream)
    assert res.exit_code == 2
    assert (f"{p}:1: no reference field named: the first row has none of ['label', 'references', 'reference'] "
            f"(its fields: ['id', 'prediction', 'references ']); {_note('references ', 'references')}; or name it "
            "with --ref-field NAME") in res.output, res.output
    with pytest.raises(ValueError, match="the field 'references ' has spaces around it"):
        pair_fields(["id", "prediction", "references "])


def test_predictions_and_data_of_a_duck_file_name_the_spaced_field(tmp_path):
    items = [json.loads(x) for x in DATA.read_text("utf-8").splitlines() if x.strip()]
    p = write_jsonl(tmp_path / "p.jsonl", [{"id": it["id"], " prediction": it["responses"][0]} for it in items])
    res = run("score", "-d", DATA, "-p", p, "-q")
    assert res.exit_code == 2
    assert f"{p}:1: id {items[0]['id']!r}: no prediction field; {_note(' prediction', 'prediction')};" in res.output
    rows = [dict(it) for it in items]
    rows[1]["query "] = rows[1].pop("query")
    d = write_jsonl(tmp_path / "d.jsonl", rows)
    res = run("score", "-d", d, "-p", p, "-q")
    assert res.exit_code == 2
    assert f"{d}:2: id {items[1]['id']!r}: missing key(s) ['query']; {_note('query ', 'query')}" in res.output, \
        res.output
