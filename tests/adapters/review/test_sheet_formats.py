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
from zheval.cli.sample import default_key

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


SHEET_SAID = ("{s}:1: this is a review sheet written by zheval sample (its columns id, query, prediction, references, "
              "relevance, informativeness, naturalness): it is for rating, then zheval agree --ratings {s} --key {k} (its "
              "key, there unless zheval sample was given --key), not a scoring input")


@pytest.mark.parametrize("name", ["s.csv", "s.tsv", "s.jsonl", "s.parquet", "s.csv.gz"])
def test_a_review_sheet_given_to_the_scoring_records_door_is_refused_saying_what_it_is(tmp_path, name):
    # break-it: score -p sheet.csv scored each item's references, one per line in one cell, as ONE reference
    # (BLEU 0.005 instead of 0.328, "1 refs"); every reader of records or of --data's predictions refuses the
    # sheet at its header (JSONL: its first object)
    assert _sample(tmp_path, name).exit_code == 0
    sheet = tmp_path / name
    twin = tmp_path / ("b" + name)
    twin.write_bytes(sheet.read_bytes())
    for args in (["score", "-p", sheet], ["score", "-p", sheet, "--stream"], ["explain", "-p", sheet],
                 ["compare", "-p", sheet, twin], ["sample", "-p", sheet, "--k", "3", "-o", tmp_path / "again.csv"],
                 ["score", "--data", tmp_path / "data.jsonl", "-p", sheet, "--pred-field", "prediction"],
                 ["score", "--data", tmp_path / "data.jsonl", "-p", sheet]):  # every item sampled: k = n
        res = run_cli(*args, "--bootstrap", "0") if args[0] == "score" else run_cli(*args)
        said = SHEET_SAID.format(s=sheet, k=default_key(sheet))  # where zheval sample writes the key without --key
        assert res.exit_code == 2 and said in res.stderr, (args, res.output)
        assert "score the predictions file it was sampled from (the key's \"data\" names it)" in res.stderr


def test_read_records_refuses_a_review_sheet_and_scores_a_file_with_some_of_its_columns(tmp_path):
    from zheval.adapters.records import RecordsFormatError, read_records

    assert _sample(tmp_path, "s.csv").exit_code == 0
    with pytest.raises(RecordsFormatError, match="this is a review sheet written by zheval sample"):
        read_records(tmp_path / "s.csv")
    mine = write_jsonl(tmp_path / "mine.jsonl", [{"id": "q1", "query": "问", "prediction": "猫", "references": ["猫"],
                                                  "relevance": 3}])  # not a sheet: no other rating column
    assert read_records(mine).references == [["猫"]]
