"""A row the library refuses, read from a file, is named ``FILE:line`` with the row's id and the user's field name at
every command that scores it -- never the library's 0-based ``references[i][j]`` / ``predictions[i]`` (issue 35).

The refused row is a reference that is empty once normalised (``'\\u200b'``, a zero-width space, which the
normalisation removes) or once tokenised (``'。。。'`` with ``--punct drop``), on line 3 of its file (item index 2). The
BERTScore doors are in ``test_cli_bertscore_column.py`` (bertscore extra)."""

from __future__ import annotations

import json

import pytest

import zheval.cli.explain  # noqa: F401  (registers the command)
from helpers.cli import run_cli, write_jsonl
from zheval.compute.inputs import EmptyReferenceError

ZW = "\u200b"
RECORDS = [{"id": "a", "model_output": "你好世界", "label": "你好世界"},
           {"id": "b", "model_output": "今天天气", "label": "今天天气好"},
           {"id": "c", "model_output": "今天", "label": ZW}]
DUCK = [{"id": "q1", "query": "一", "responses": ["你好世界", "你好"], "domain": "售后支持", "difficulty": "易"},
        {"id": "q2", "query": "二", "responses": ["今天天气好", "今天"], "domain": "售后支持", "difficulty": "易"},
        {"id": "q3", "query": "三", "responses": ["明天", "。。。"], "domain": "售后支持", "difficulty": "易"}]


def _records(tmp_path):
    return write_jsonl(tmp_path / "file.jsonl", RECORDS)


def _says_line_3(res, path, field="'label'", rid="c"):
    assert res.exit_code == 2, res.output
    assert f"{path}:3: id '{rid}': {field} is empty after normalisation and tokenisation" in res.stderr, res.stderr
    assert "references[" not in res.stderr and "Traceback" not in res.output


@pytest.mark.parametrize("selection", [[], ["--worst", "1"], ["--best", "2"], ["--id", "c"], ["--sample", "1"],
                                       ["--preset", "rouge155"], ["--preset", "rouge155", "--id", "c"],
                                       ["--metrics", "chrf"]])
def test_explain_on_a_records_file_names_the_line(tmp_path, selection):
    # before: "references[2][0] is empty ...", and with --id c "references[0][0]" (the index in the one-item call)
    path = _records(tmp_path)
    res = run_cli("explain", "-p", path, "--pred-field", "model_output", *selection)
    _says_line_3(res, path)


def test_explain_with_data_names_the_data_files_line(tmp_path):
    data = write_jsonl(tmp_path / "data.jsonl", DUCK)
    preds = tmp_path / "preds.txt"
    preds.write_text("你好\n今天\n明天\n", encoding="utf-8")
    for sel in ([], ["--id", "q3"], ["--worst", "2"]):
        res = run_cli("explain", "-d", data, "-p", preds, "--punct", "drop", *sel)
        _says_line_3(res, data, "responses[1]", "q3")


def test_chrf_text_files_name_the_line(tmp_path):
    # before: "references[2][0] is empty ..." (zheval bleu and rouge already said ref.txt:3)
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text(f"你好\n我们\n{ZW}\n", encoding="utf-8")
    hyp.write_text("你好\n我们\n看\n", encoding="utf-8")
    res = run_cli("chrf", ref, "-i", hyp)
    assert res.exit_code == 2, res.output
    assert f"{ref}:3: empty after normalisation and tokenisation" in res.stderr, res.stderr
    assert "references[" not in res.stderr


def test_agree_three_layers_names_the_line(tmp_path):
    # before: "references[2][0] is empty ..." (the metrics layer of zheval agree --predictions)
    path = _records(tmp_path)
    ratings = tmp_path / "ratings.jsonl"
    ratings.write_text("".join(json.dumps({"id": r["id"], "overall": 3}) + "\n" for r in RECORDS), encoding="utf-8")
    res = run_cli("agree", "--predictions", path, "--pred-field", "model_output", "--judge-ratings", ratings,
                  "--format", "json", "--bootstrap", "0")
    _says_line_3(res, path)


def test_located_error_names_predictions_and_every_empty_reference():
    from zheval.cli.located import RowPlaces, located_error

    places = RowPlaces(["a", "b", "c"], {"a": ("f.jsonl", 1, ["'label'"]), "b": ("f.jsonl", 2, ["'label'"]),
                                         "c": ("f.jsonl", 5, ["refs[0]", "refs[1]"])}, "model_output")
    glm4 = ValueError("preset 'glm4': 2 prediction(s) are empty after .strip(): predictions[0], predictions[2].")
    got = located_error(glm4, places)
    assert type(got) is ValueError
    assert str(got) == ("preset 'glm4': 2 prediction(s) are empty after .strip(): f.jsonl:1 (id 'a', "
                        "'model_output'), f.jsonl:5 (id 'c', 'model_output').")
    # a call on items [2, 0]: its item 0 is item 2 of the file
    sub = located_error(ValueError("references[0][1] must not be blank"), places, index=[2, 0])
    assert str(sub) == "f.jsonl:5 (id 'c', refs[1]) must not be blank"
    # every empty reference is a problem, not only those the library's message lists
    many = EmptyReferenceError([(0, 0), (2, 1)], ["", " "], ["is blank", None])
    err = located_error(many, places)
    assert [(p.path, p.line, p.id) for p in err.problems] == [("f.jsonl", 1, "a"), ("f.jsonl", 5, "c")]
    assert err.problems[1].message.startswith("refs[1] is empty: ' '")
    # an index the places do not know, or a prediction in another file unknown: the error as it is
    assert located_error(ValueError("predictions[7] is odd"), places) is not None
    assert str(located_error(ValueError("predictions[7] is odd"), places)) == "predictions[7] is odd"
    no_preds = RowPlaces(["a"], {"a": ("d.jsonl", 1)}, None, {})
    assert str(located_error(ValueError("predictions[0] is odd"), no_preds)) == "predictions[0] is odd"
    other = KeyError("predictions[0]")
    assert located_error(other, places) is other
