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
    from zheval.adapters.review.review_files import ReviewFileError

    key = {"rating_columns": ["relevance"], "items": [{"id": ESC_ID}]}
    sheet = tmp_path / "filled.jsonl"
    sheet.write_text('{"id": "k\\u001b", "relevance": 3}\n{"id": "k\\\\x1b", "relevance": 1}\n', encoding="utf-8")
    with pytest.raises(ReviewFileError) as e:
        read_ratings(sheet, key)
    assert f"{sheet}:2: key id 'k\\x1b' (written 'k\\\\x1b') is also line 1 (written 'k\\x1b')" in str(e.value)


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
