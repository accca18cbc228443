"""Predictions that copy their references (`zheval.results.copies`): every door warns, none refuses (scoring the
references is a legitimate sanity check). Break-it pass: ``zheval score`` on records (with or without ``--data``,
``--stream``) scored predictions equal to their references 1.000 without a word, while the text doors warned; a
hypothesis file that differs from the reference file only by trailing spaces scored 100.0 without a word at the
text doors. The copy is judged after scoring's whitespace handling (`copy_key`), so that copy is one too."""

from __future__ import annotations

import json

import pytest

from helpers.cli import ROWS, run_cli as run, write_jsonl

PAIRS = [("猫坐在垫子上", "猫坐在垫子上"), ("今天天气很好", "今天天气很好"), ("我们去公园", "我们去公园")]
WORDS = "equal their references"


def _records(path, pairs):
    return write_jsonl(path, [{"id": str(i), "prediction": p, "reference": r} for i, (p, r) in enumerate(pairs)])


def _warnings(res) -> list:
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)["warnings"]


@pytest.mark.parametrize("stream", [False, True], ids=["score", "score --stream"])
def test_the_records_door_warns_of_predictions_equal_to_their_references(tmp_path, stream):
    path = _records(tmp_path / "pairs.jsonl", PAIRS)
    res = run("score", "-p", path, "--bootstrap", 0, "-f", "json", "-q", *(["--stream"] if stream else []))
    got = [w for w in _warnings(res) if WORDS in w]
    assert got == [f"all 3 prediction(s) of {path} equal their references; if that is not the point (a sanity "
                   "check), check that the predictions are the system's output and not a copy of the references"]
    # was: 1.000, no word
    assert json.loads(res.stdout)["groups"][0]["scores"]["bleu"]["value"] == pytest.approx(1.0)


def test_a_copy_up_to_trailing_spaces_and_zero_width_spaces_is_a_copy(tmp_path):
    pairs = [(p + "  ", r) for p, r in PAIRS[:2]] + [("我们 去\u200b公园", "我们去公园")]
    path = _records(tmp_path / "pairs.jsonl", pairs)
    got = [w for w in _warnings(run("score", "-p", path, "--bootstrap", 0, "-f", "json", "-q")) if WORDS in w]
    assert len(got) == 1 and f"all 3 prediction(s) of {path} equal their references (up to whitespace and " \
                               "invisible characters); if that is not the point" in got[0]


def test_one_prediction_that_is_no_copy_means_no_warning(tmp_path):
    path = _records(tmp_path / "pairs.jsonl", PAIRS[:2] + [("我们去公园吧", "我们去公园")])
    assert not [w for w in _warnings(run("score", "-p", path, "--bootstrap", 0, "-f", "json", "-q")) if WORDS in w]


def test_predictions_joined_to_a_data_file_that_copy_one_reference_each(tmp_path):
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    preds = write_jsonl(tmp_path / "preds.jsonl", [{"id": r["id"], "prediction": r["responses"][i % 2]}
                                                   for i, r in enumerate(ROWS)])
    res = run("score", "-p", preds, "--data", data, "--bootstrap", 0, "-f", "json", "-q")
    assert [w for w in _warnings(res) if WORDS in w] == [
        f"all 3 prediction(s) of {preds} equal their references; if that is not the point (a sanity check), check "
        "that the predictions are the system's output and not a copy of the references"]


def test_compare_names_the_system_that_copies(tmp_path):
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    a = write_jsonl(tmp_path / "a.jsonl", [{"id": r["id"], "prediction": r["responses"][0][:4]} for r in ROWS])
    b = write_jsonl(tmp_path / "b.jsonl", [{"id": r["id"], "prediction": r["responses"][0]} for r in ROWS])
    res = run("compare", "-d", data, "-p", a, b, "--bootstrap", 2, "-f", "json", "-q")
    got = [w for w in _warnings(res) if WORDS in w]
    assert got == [f"B: all 3 prediction(s) of {b} equal their references; if that is not the point (a sanity "
                   "check), check that the predictions are the system's output and not a copy of the references"]


@pytest.mark.parametrize("command", ["bleu", "rouge", "chrf"])
def test_the_text_doors_catch_a_copy_up_to_trailing_spaces(tmp_path, command):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("今天天气不错\n我们去公园\n", encoding="utf-8")
    hyp.write_text("今天天气不错  \n我们去公园\u200b\n", encoding="utf-8")
    res = run(command, ref, "-i", hyp, "-b")
    assert res.exit_code == 0 and "100.0" in res.stdout, res.output
    assert (f"zheval: warning: -i {hyp} holds the same text as reference {ref} (every line equal up to whitespace "
            "and invisible characters): if that is not the point (a sanity check)") in res.stderr  # was: none
