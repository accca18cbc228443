"""The 小黄鸭 doors (``--data`` and the predictions joined to it) refuse a list written as text, as the records door
does (`zheval.io.list_text`): a ``responses`` entry that is itself a list's repr, a prediction that is a JSON list or
pandas' repr of one — each named FILE:line and field, never scored as one text."""

from __future__ import annotations

import json

import pytest

from zheval.adapters.duck.load import DuckFormatError, load_duck
from zheval.adapters.duck.predictions import read_predictions

from tests.helpers.cli import PREDS, ROWS, run_cli, write_jsonl


def _problems(exc) -> list:
    return [str(p) for p in exc.value.problems]


def test_a_responses_entry_written_as_a_list_is_refused(tmp_path):
    rows = [dict(r) for r in ROWS]
    rows[1]["responses"] = [str(ROWS[1]["responses"]), "听起来你很难受"]
    data = write_jsonl(tmp_path / "data.jsonl", rows)
    with pytest.raises(DuckFormatError) as e:
        load_duck(data)
    got = _problems(e)
    assert len(got) == 1 and got[0].startswith(f"{data}:2: id 'q2': responses[0] is a list written as text (")
    assert "write each reference as its own entry of the 'responses' list" in got[0]
    preds = write_jsonl(tmp_path / "preds.jsonl", PREDS)
    res = run_cli("score", "--data", str(data), "-p", str(preds), "--bootstrap", "0")
    assert res.exit_code != 0 and f"{data}:2: id 'q2': responses[0] is a list written as text" in res.output


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_a_prediction_written_as_a_list_is_refused(tmp_path, suffix):
    listed = [dict(p) for p in PREDS]
    listed[2]["prediction"] = json.dumps(["明天记得穿外套。", "穿外套"], ensure_ascii=False) if suffix == ".jsonl" \
        else str(["明天记得穿外套。", "穿外套"])
    if suffix == ".jsonl":
        f = write_jsonl(tmp_path / "preds.jsonl", listed)
    else:
        pd = pytest.importorskip("pandas")
        f = tmp_path / "preds.csv"
        pd.DataFrame(listed).to_csv(f, index=False)
    with pytest.raises(DuckFormatError) as e:
        read_predictions(f)
    got = _problems(e)
    line = 3 if suffix == ".jsonl" else 4  # the CSV header is line 1
    assert len(got) == 1 and got[0].startswith(f"{f}:{line}: id 'q3': 'prediction' is a list written as text (")
    assert "a prediction is one text" in got[0]


def test_bracketed_texts_stay_texts(tmp_path):
    rows = [dict(r) for r in ROWS]
    rows[0]["responses"] = ["[图片] 请在订单页申请退货。", "[1]"]
    data = write_jsonl(tmp_path / "data.jsonl", rows)
    assert load_duck(data)["responses"][0] == ["[图片] 请在订单页申请退货。", "[1]"]
    preds = write_jsonl(tmp_path / "preds.jsonl", [{**PREDS[0], "prediction": "[图片]"}] + PREDS[1:])
    assert read_predictions(preds).texts[0] == "[图片]"
