"""The review sheet's escaping is injective (break-it F6): a backslash is written ``\\\\`` as well, so an id holding a
real ESC (``k\\x1b`` on the sheet) and an id of the literal four characters ``k\\x1b`` (``k\\\\x1b`` on the sheet) stay
two ids, and ``read_ratings`` maps each sheet id back to its key id. A line break inside one reference is written
``\\n``, so the real line breaks of the references cell separate references and nothing else. Expected texts are
written out by hand."""

from __future__ import annotations

import csv
import io

import pytest
from datasets import Dataset

from zheval.adapters.duck.load import duck_features
from zheval.adapters.review.human_review import read_ratings, review_sample, sheet_csv

ESC_ID = "k\x1b"  # k, ESC
LITERAL_ID = "k\\x1b"  # k, backslash, x, 1, b


def _row(rid, refs, rating=""):
    return {"id": rid, "query": "问", "prediction": "答", "references": refs, "relevance": rating}


def test_ids_that_differ_stay_different_on_the_sheet():
    text = sheet_csv([_row(ESC_ID, ["参考"]), _row(LITERAL_ID, ["参考"])])
    assert text == ("\ufeffid,query,prediction,references,relevance\r\n"
                    "k\\x1b,问,答,参考,\r\n"
                    "k\\\\x1b,问,答,参考,\r\n")


def test_a_backslash_in_a_text_is_doubled():
    text = sheet_csv([{"id": "a", "prediction": "路径 C:\\temp 与 \x1b"}])
    assert text == "\ufeffid,prediction\r\na,路径 C:\\\\temp 与 \\x1b\r\n"


def test_a_line_break_inside_a_reference_is_not_a_second_reference():
    text = sheet_csv([_row("a", ["第一行\n续行", "第二条"]), _row("b", ["第一行", "续行", "第二条"])])
    rows = list(csv.reader(io.StringIO(text[1:], newline="")))
    assert rows[1][3] == "第一行\\n续行\n第二条"
    assert rows[2][3] == "第一行\n续行\n第二条"


def test_both_ids_are_read_back_to_their_key_ids(tmp_path):
    key = {"rating_columns": ["relevance"], "items": [{"id": ESC_ID}, {"id": LITERAL_ID}]}
    sheet = tmp_path / "filled.csv"
    sheet.write_text(sheet_csv([_row(ESC_ID, ["参考"], "4"), _row(LITERAL_ID, ["参考"], "2")]), encoding="utf-8")
    ratings, info = read_ratings(sheet, key)
    assert ratings == {ESC_ID: {"relevance": 4.0}, LITERAL_ID: {"relevance": 2.0}}
    assert info["lines"] == {ESC_ID: 2, LITERAL_ID: 3}


def test_a_typed_sheet_with_the_exact_ids_is_read_too(tmp_path):
    key = {"rating_columns": ["relevance"], "items": [{"id": ESC_ID}, {"id": "plain"}]}
    sheet = tmp_path / "filled.jsonl"
    sheet.write_text('{"id": "k\\u001b", "relevance": 3}\n{"id": "plain", "relevance": 1}\n', encoding="utf-8")
    ratings, _ = read_ratings(sheet, key)
    assert ratings == {ESC_ID: {"relevance": 3.0}, "plain": {"relevance": 1.0}}


def test_one_key_id_given_twice_in_two_forms_is_a_duplicate(tmp_path):
    # a CSV sheet: the id as the sheet writes it (k\\x1b, escaped) and exactly (k<ESC>, a spreadsheet's raw text)
    from zheval.adapters.review.review_files import ReviewFileError

    key = {"rating_columns": ["relevance"], "items": [{"id": ESC_ID}]}
    sheet = tmp_path / "filled.csv"
    sheet.write_text("id,relevance\nk\x1b,3\nk\\x1b,1\n", encoding="utf-8")
    with pytest.raises(ReviewFileError) as e:
        read_ratings(sheet, key)
    assert f"{sheet}:3: key id 'k\\x1b' (written 'k\\\\x1b') is also line 2 (written 'k\\x1b')" in str(e.value)


def test_a_jsonl_sheet_id_is_matched_exactly_never_unescaped(tmp_path):
    # issue 35: JSON Lines holds exact texts, but its ids got the CSV un-escaping: the literal id k\\x1b (four
    # characters after k) was read as the key id k<ESC>, and a sheet holding both ids was "a duplicate"
    from zheval.adapters.review.review_files import ReviewFileError

    both = {"rating_columns": ["relevance"], "items": [{"id": ESC_ID}, {"id": LITERAL_ID}]}
    sheet = tmp_path / "filled.jsonl"
    sheet.write_text('{"id": "k\\u001b", "relevance": 3}\n{"id": "k\\\\x1b", "relevance": 1}\n', encoding="utf-8")
    ratings, info = read_ratings(sheet, both)
    assert ratings == {ESC_ID: {"relevance": 3.0}, LITERAL_ID: {"relevance": 1.0}}
    assert info["lines"] == {ESC_ID: 1, LITERAL_ID: 2}
    only_esc = {"rating_columns": ["relevance"], "items": [{"id": ESC_ID}]}
    sheet.write_text('{"id": "k\\\\x1b", "relevance": 1}\n', encoding="utf-8")  # the escaped text, not the id
    with pytest.raises(ReviewFileError) as e:
        read_ratings(sheet, only_esc)
    assert f"{sheet}: 1 id(s) of the sheet are not in the key: 'k\\\\x1b' (line 1)" in str(e.value)
    assert f"{sheet}: 1 id(s) of the key are not in the sheet: 'k\\x1b'" in str(e.value)


def test_sample_then_read_back_with_both_ids(tmp_path):
    rows = [{"id": rid, "query": "问题", "responses": ["今天天气很好\n出门散步", "明天下雨"], "domain": "生活咨询",
             "difficulty": None} for rid in (ESC_ID, LITERAL_ID, "r3")]
    ds = Dataset.from_list(rows, features=duck_features())
    res = review_sample(ds, ["今天天气好", "明天下雨", "出门散步"], k=3, seed=1, by_metric="rougeL",
                        metrics=("rouge",), rouge_types=("rougeL",))
    text = sheet_csv(res.sheet)
    parsed = list(csv.reader(io.StringIO(text[1:], newline="")))
    assert sorted(r[0] for r in parsed[1:]) == ["k\\\\x1b", "k\\x1b", "r3"]
    assert {r[3] for r in parsed[1:]} == {"今天天气很好\\n出门散步\n明天下雨"}
    filled = tmp_path / "filled.csv"
    filled.write_text(text.replace(",,,\r\n", ",5,,\r\n"), encoding="utf-8")
    ratings, _ = read_ratings(filled, res.key)
    assert set(ratings) == {ESC_ID, LITERAL_ID, "r3"}


@pytest.mark.parametrize("name", ["s.csv", "s.tsv", "s.jsonl", "s.parquet", "s.csv.gz", "s.tsv.gz", "s.jsonl.gz",
                                  "s.parquet.gz"])
def test_both_ids_round_trip_in_every_sheet_format(tmp_path, name):
    # issue 35: written in each format zheval sample writes (CSV/TSV escaped, JSON Lines/Parquet exact) and read back:
    # each id its own key id, the predictions (ESC, a literal backslash) checked against the key's digests
    if "parquet" in name:
        pytest.importorskip("pyarrow")
    from zheval.adapters.review.sheet_formats import sheet_bytes

    rows = [{"id": rid, "query": "问题", "responses": ["今天天气很好", "明天下雨"], "domain": "生活咨询",
             "difficulty": None} for rid in (ESC_ID, LITERAL_ID, "r3")]
    ds = Dataset.from_list(rows, features=duck_features())
    res = review_sample(ds, ["今天\x1b天气好", "明天\\x1b下雨", "出门散步"], k=3, seed=1, by_metric="rougeL",
                        metrics=("rouge",), rouge_types=("rougeL",))
    sheet = tmp_path / name
    sheet.write_bytes(sheet_bytes(res.sheet, sheet))
    ratings, info = read_ratings(sheet, res.key)
    assert set(ratings) == {ESC_ID, LITERAL_ID, "r3"}
    lines = info["lines"]  # each key id read from its own row: the rows' lines in the sheet's order
    assert sorted(lines, key=lines.get) == [r["id"] for r in res.sheet] and len(set(lines.values())) == 3


def test_a_typed_sheets_prediction_is_compared_exactly(tmp_path):
    # issue 35: a JSON Lines prediction cell was also un-escaped: the text 今天\\x1b (a literal backslash) passed for
    # the key's prediction 今天<ESC>
    from zheval.adapters.review.review_files import ReviewFileError
    from zheval.text.controls import text_digest

    key = {"rating_columns": ["relevance"], "items": [{"id": "a", "prediction_sha256": text_digest("今天\x1b")}]}
    sheet = tmp_path / "filled.jsonl"
    sheet.write_text('{"id": "a", "prediction": "今天\\u001b", "relevance": 3}\n', encoding="utf-8")
    assert read_ratings(sheet, key)[0] == {"a": {"relevance": 3.0}}
    sheet.write_text('{"id": "a", "prediction": "今天\\\\x1b", "relevance": 3}\n', encoding="utf-8")
    with pytest.raises(ReviewFileError) as e:
        read_ratings(sheet, key)
    assert f"{sheet}: the prediction of 1 of 1 item(s) is not the prediction the key was scored on: 'a' (line 1)" \
        in str(e.value)
