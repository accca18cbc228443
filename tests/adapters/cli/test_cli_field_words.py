"""An error speaks the words of the door the user called (issue 35): the record readers' errors that name a field
name it as the library's argument (``pred_field="NAME"``, ``ref_field="NAME"``, ``id_field='ID'``,
``group_fields``), the command line shows the same error with its options (``--pred-field NAME`` …), and a field
name quoted from the file is never rewritten. The 小黄鸭 predictions reader (`read_predictions`) names no field, so
its errors give the library's way to name one (`zheval.io.predictions_arguments`); the engine doors speak of their
own ``id_column``, not of the command line's ``--id-field``. Each of these messages named the CLI's options in the
library before."""

from __future__ import annotations

import pytest

from helpers.cli import PREDS, ROWS, run_cli, write_jsonl
from zheval.adapters.duck import DuckFormatError, read_predictions
from zheval.adapters.records import RecordsFormatError, read_records
from zheval.adapters.records_compare import same_items

_RECIPE = 'read_records(FILE, {}, with_references=False) and predictions_from_records'


def _library(call) -> str:
    with pytest.raises(ValueError) as err:
        call()
    text = str(err.value)
    assert "--pred-field" not in text and "--ref-field" not in text and "--id-field" not in text, text
    assert "--group-field" not in text, text
    return text


def _cli(*args, quoted: str = "") -> str:
    """The error of ``zheval ARGS -q`` (``score`` without resampling), checked to name no argument of the library
    outside the field name ``quoted`` (from the file)."""
    res = run_cli(*args, *(["--bootstrap", "0"] if args[0] == "score" else []), "-q")
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    said = res.stderr.replace(quoted, "") if quoted else res.stderr
    for arg in ("pred_field", "ref_field", "id_field", "group_field", "read_records", "predictions_from_records"):
        assert arg not in said, res.stderr
    return res.stderr


def test_no_prediction_or_reference_field(tmp_path):
    f = write_jsonl(tmp_path / "o.jsonl", [{"output": "a", "answers": "a"}])
    assert _library(lambda: read_records(f)).endswith('name it with pred_field="NAME"')
    assert "; name it with --pred-field NAME" in _cli("score", "-p", f)
    assert _library(lambda: read_records(f, pred_field="output")).endswith('name it with ref_field="NAME"')
    assert "; name it with --ref-field NAME" in _cli("score", "-p", f, "--pred-field", "output")


def test_a_later_row_without_the_fields(tmp_path):
    f = write_jsonl(tmp_path / "m.jsonl", [{"prediction": "a", "reference": "a"}, {"output": "b", "reference": "b"}])
    tail = "write every row with them, or name the fields the rows use with {}"
    assert tail.format('pred_field="NAME", ref_field="NAME"') in _library(lambda: read_records(f))
    assert tail.format("--pred-field NAME --ref-field NAME") in _cli("score", "-p", f)


def test_a_text_file_read_as_records(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_text("猫坐在垫子上\n狗在跑\n", encoding="utf-8")
    assert _library(lambda: read_records(f)).endswith('a reference field (pred_field="NAME", ref_field="NAME")')
    assert "a reference field (--pred-field NAME --ref-field NAME)" in _cli("score", "-p", f)


@pytest.mark.parametrize("key", ["ID", " id"])
def test_an_id_under_another_spelling_at_both_doors(tmp_path, key):
    """The records door (``-p`` alone) and the 小黄鸭 predictions door (``--data``); the field's name, quoted from
    the file, is kept as it is."""
    recs = write_jsonl(tmp_path / "r.jsonl", [{key: "a", "prediction": "猫", "reference": "猫"}])
    assert _library(lambda: read_records(recs)).endswith(f"name it with id_field={key!r}")
    assert f"rename it 'id', or name it with --id-field {key!r}" in _cli("score", "-p", recs)
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    preds = write_jsonl(tmp_path / "p.jsonl", [{key: p["id"], "prediction": p["prediction"]} for p in PREDS])
    assert _library(lambda: read_predictions(preds)).endswith(
        "name it with " + _RECIPE.format(f"id_field={key!r}"))
    assert f"rename it 'id', or name it with --id-field {key!r}" in _cli("score", "-d", data, "-p", preds)


def test_the_predictions_door_without_a_prediction_field(tmp_path):
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": p["id"], "output": p["prediction"]} for p in PREDS])
    assert _library(lambda: read_predictions(preds)).endswith(
        "(or name the prediction field with " + _RECIPE.format('pred_field="NAME"') + ")")
    assert "(or name the prediction field with --pred-field NAME)" in _cli("score", "-d", data, "-p", preds)
    # the records reader behind --id-field without --pred-field: its own argument
    assert _library(lambda: read_records(preds, with_references=False)).endswith(
        '(or name the prediction field with pred_field="NAME")')
    assert "(or name the prediction field with --pred-field NAME)" in _cli("score", "-d", data, "-p", preds,
                                                                            "--id-field", "id")


def test_the_predictions_door_with_mixed_prediction_fields(tmp_path):
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    rows = [{"id": p["id"], ("prediction" if k == 1 else "predict"): p["prediction"]} for k, p in enumerate(PREDS)]
    preds = write_jsonl(tmp_path / "p.jsonl", rows)
    with pytest.raises(DuckFormatError):
        read_predictions(preds)
    assert _library(lambda: read_predictions(preds)).endswith(
        "name the field the lines use with " + _RECIPE.format('pred_field="NAME"'))
    assert "name the field the lines use with --pred-field NAME" in _cli("score", "-d", data, "-p", preds)


def test_compared_files_one_with_ids(tmp_path):
    a = write_jsonl(tmp_path / "a.jsonl", [{"id": "x", "prediction": "猫", "reference": "猫"}])
    b = write_jsonl(tmp_path / "b.jsonl", [{"prediction": "狗", "reference": "猫"}])
    with pytest.raises(RecordsFormatError):
        same_items(read_records(a), read_records(b))
    assert 'give both files an id field (id_field="NAME") or neither' in _library(
        lambda: same_items(read_records(a), read_records(b)))
    assert "give both files an id field (--id-field NAME) or neither" in _cli("compare", "-p", a, b)


def test_a_field_in_two_roles_or_twice(tmp_path):
    """The readers' argument errors: ``group_fields`` is the library's argument (it said ``group_field``); the
    command line's rewrite (it replaced every ``pred_field`` … of the message) leaves a quoted field name alone."""
    f = write_jsonl(tmp_path / "f.jsonl", [{"prediction": "a", "label": "a", "x pred_field y": "g"}])
    assert "field 'label' is named as both ref_field and group_fields" in _library(
        lambda: read_records(f, group_fields=["label"]))
    assert "field 'label' is named as both --ref-field and --group-field" in _cli("score", "-p", f,
                                                                                   "--group-field", "label")
    twice = ["x pred_field y"] * 2
    assert "group_fields names ['x pred_field y'] more than once" in _library(
        lambda: read_records(f, group_fields=twice))
    assert "--group-field names ['x pred_field y'] more than once" in _cli("score", "-p", f, "--group-field",
                                                                            twice[0], "--group-field", twice[1],
                                                                            quoted=repr(twice[0]))


def test_the_engine_and_batch_doors_name_no_cli_option():
    """Ray/Spark name the id column ``id_column``; the in-memory batches ``ids``: neither door has ``--id-field``."""
    from zheval.adapters.engine_checks import duplicate_id_message
    from zheval.compute.batch_checks import BatchRules

    text = duplicate_id_message("qid", 7, 2, [0, 3], 0, values=[7, "7"])
    assert "(id_column='qid') must be unique" in text and "zheval's id rule" in text and "CLI" not in text
    rules = BatchRules()
    rules.check(0, 0, 2, None, ["a", "b"])
    text = _library(lambda: rules.check(1, 2, 1, None, ["a"]))
    assert text.endswith("ids[2] repeats ids[0]; an id names one item (in messages, the per-item file and the "
                         "Poisson bootstrap's keys), so each must be unique") and "CLI" not in text
