"""A predictions file whose lines mix prediction fields (issue 35: nothing reinterpreted silently). At the
``--data`` door (the 小黄鸭 predictions reader) a JSONL file with ``predict`` on some lines and ``prediction`` on
others was accepted, each line read by its own field, while the records door refuses the same file ("every row is
read with the same fields"). Now the ``--data`` door refuses it too, at the first line whose field differs from
the first line's, naming both fields and ``--pred-field``."""

from __future__ import annotations

import pytest

from helpers.cli import PREDS, ROWS, run_cli as run, write_jsonl
from zheval.adapters.duck import DuckFormatError, read_predictions


def _mixed(rows: list, at: int, other: str = "prediction", first: str = "predict") -> list:
    """``rows`` (``{..., "prediction": text}``) with the prediction under ``first``, except line ``at`` (1-based)
    under ``other``."""
    out = []
    for k, r in enumerate(rows, 1):
        r = {key: v for key, v in r.items() if key != "prediction"}
        out.append({**r, (other if k == at else first): rows[k - 1]["prediction"]})
    return out


@pytest.mark.parametrize("with_ids", [True, False])
@pytest.mark.parametrize("first, other", [("predict", "prediction"), ("prediction", "predict")])
def test_the_data_door_refuses_a_line_with_another_prediction_field(tmp_path, with_ids, first, other):
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    preds = PREDS if with_ids else [{"prediction": p["prediction"]} for p in PREDS]
    f = write_jsonl(tmp_path / "p.jsonl", _mixed(preds, 2, other, first))
    res = run("score", "-d", data, "-p", f, "--bootstrap", 0, "-q")
    assert res.exit_code == 2, res.output  # was 0: line 2 read by its own field
    rid = "id 'q2': " if with_ids else ""
    assert (f"{f}:2: {rid}this line's prediction field is {other!r}, the first line's ({f}:1) is {first!r}: every "
            f"line is read with the same fields, here {first!r}; write every line with one prediction field, or "
            "name the field the lines use with --pred-field NAME") in res.stderr, res.stderr
    assert f"{f}:3" not in res.stderr  # line 3 uses the first line's field


def test_every_differing_line_is_named_and_the_library_raises_alike(tmp_path):
    rows = [{"prediction": p["prediction"]} for p in PREDS] * 3  # 9 lines; lines 4 and 8 use 'prediction'
    rows = [{("prediction" if k in (4, 8) else "predict"): r["prediction"]} for k, r in enumerate(rows, 1)]
    f = write_jsonl(tmp_path / "p.jsonl", rows)
    with pytest.raises(DuckFormatError) as exc:
        read_predictions(f)
    assert [p.line for p in exc.value.problems] == [4, 8]
    assert all("'prediction'" in p.message and "'predict'" in p.message and p.message.endswith(
        'read_records(FILE, pred_field="NAME", with_references=False) and predictions_from_records')
        and "--" not in p.message for p in exc.value.problems)  # the library's words, not the command line's


def test_the_records_door_and_pred_field_refuse_the_same_file(tmp_path):
    """The sibling doors the --data door now agrees with: without --data (the records door) and with --pred-field
    (the records reader at the --data door) the file is refused at the same line."""
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    f = write_jsonl(tmp_path / "p.jsonl", _mixed([{**p, "label": r["responses"][0]} for p, r in zip(PREDS, ROWS)], 2))
    for args in (("score", "-p", f), ("score", "-d", data, "-p", f, "--pred-field", "predict")):
        res = run(*args, "--bootstrap", 0, "-q")
        assert res.exit_code == 2 and f"{f}:2: id 'q2': missing field(s) ['predict']" in res.stderr, res.stderr


def test_one_field_on_every_line_still_scores(tmp_path):
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    for field in ("predict", "prediction"):
        f = write_jsonl(tmp_path / f"{field}.jsonl", [{"id": p["id"], field: p["prediction"]} for p in PREDS])
        res = run("score", "-d", data, "-p", f, "--bootstrap", 0, "-q")
        assert res.exit_code == 0, res.output
