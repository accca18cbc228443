"""``zheval sample -o NAME`` writes the review sheet in the format NAME says, each one ``zheval agree --ratings``
reads back (issue 35 F5: ``-o t.tsv`` wrote CSV, and agree then found no ``id`` column in its one TSV cell), and
refuses any other name before computing anything, naming the accepted endings. Expected texts are written by
hand."""

from __future__ import annotations

import gzip
import json

import pyarrow.parquet as pq
import pytest

from helpers.cli import ROWS, run_cli, write_jsonl
from zheval.adapters.review.sheet_formats import sheet_bytes

ODD = [{"id": "q1", "prediction": "路径 C:\\temp\r\n第二行"}, {"id": "q2", "prediction": "我陪着你\x1b[2J\t好吗"},
       {"id": "q3", "prediction": "明天\n记得\u202e穿外套。"}]
ROW = {"id": "k\x1b", "query": "问\t题", "prediction": "第一行\n第二行\\", "references": ["参\n考", "另一条"],
       "relevance": ""}


def _sample(tmp_path, name):
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    p = write_jsonl(tmp_path / "p.jsonl", ODD)
    return run_cli("sample", "--data", data, "-p", p, "--k", "3", "-o", tmp_path / name, "--key", tmp_path / "k.json")


@pytest.mark.parametrize("name", ["s.tsv", "s.jsonl", "s.json", "s.ndjson", "s.parquet", "s.pq", "s.tsv.gz",
                                  "s.csv.gz", "s.jsonl.gz", "s.CSV"])
def test_every_name_agree_reads_is_written_in_its_format_and_read_back(tmp_path, name):
    res = _sample(tmp_path, name)
    assert res.exit_code == 0, res.output
    back = run_cli("agree", "--ratings", tmp_path / name, "--key", tmp_path / "k.json", "--bootstrap", "0",
                   "--format", "json")
    # ids matched, predictions checked against the key's digests; the report is written, and then, nothing being
    # rated yet, exit code 1 (issue 35)
    assert back.exit_code == 1 and "zheval: error: nothing to correlate" in back.stderr, back.output
    report = json.loads(back.stdout)
    assert report["params"]["items"] == 3 and report["empty"]["relevance"] != []


def test_the_tsv_sheet_is_one_row_per_line_with_escaped_cells():
    text = sheet_bytes([ROW], "s.tsv").decode("utf-8")
    assert text == ("\ufeffid\tquery\tprediction\treferences\trelevance\n"
                    "k\\x1b\t问\\t题\t第一行\\n第二行\\\\\t[\"参\\n考\", \"另一条\"]\t\n")


def test_the_jsonl_and_parquet_sheets_hold_the_texts_exactly():
    lines = gzip.decompress(sheet_bytes([ROW], "s.jsonl.gz")).decode("utf-8").splitlines()
    assert [json.loads(x) for x in lines] == [{"id": "k\x1b", "query": "问\t题", "prediction": "第一行\n第二行\\",
                                               "references": ["参\n考", "另一条"], "relevance": None}]
    assert "\x1b" not in lines[0]  # safe to print: ESC as a JSON escape
    import io

    table = pq.read_table(io.BytesIO(sheet_bytes([ROW], "s.parquet")))
    assert table.to_pylist() == [{"id": "k\x1b", "query": "问\t题", "prediction": "第一行\n第二行\\",
                                  "references": ["参\n考", "另一条"], "relevance": None}]
    assert str(table.schema.field("relevance").type) == "double"


@pytest.mark.parametrize("name", ["s.xlsx", "s.txt", "sheet", "s.gz"])
def test_other_names_are_refused_before_any_work(tmp_path, name):
    res = _sample(tmp_path, name)
    assert res.exit_code == 2
    assert ("does not say a format it is read back in: name it .csv, .tsv, .jsonl, .json, .ndjson, .parquet or .pq, "
            "each also with .gz after it") in res.stderr
    assert not (tmp_path / name).exists() and not (tmp_path / "k.json").exists()
