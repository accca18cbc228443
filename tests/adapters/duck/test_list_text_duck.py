"""The 小黄鸭 doors and a list written as text (`zheval.io.list_text`): a ``responses`` entry that is itself a list's
repr is scored as written, one text, with one `ListTextWarning` for the file (count, rows, the first FILE:line and
entry; main said nothing); a prediction joined to ``--data`` is never checked, whatever it looks like."""

from __future__ import annotations

import json
import warnings

import pytest

from zheval.adapters.duck.load import load_duck
from zheval.adapters.duck.predictions import read_predictions

from tests.helpers.cli import PREDS, ROWS, run_cli, write_jsonl


def _listed(caught) -> list:
    return [str(w.message) for w in caught if w.category.__name__ == "ListTextWarning"]


def _data(tmp_path):
    rows = [dict(r) for r in ROWS]
    rows[1]["responses"] = [str(ROWS[1]["responses"]), "听起来你很难受"]
    rows[2]["responses"] = [json.dumps(ROWS[2]["responses"], ensure_ascii=False), "[图片]"]
    return rows, write_jsonl(tmp_path / "data.jsonl", rows)


def test_responses_entries_written_as_lists_are_scored_as_written_with_one_warning(tmp_path):
    rows, data = _data(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ds = load_duck(data)
    assert ds["responses"][1] == rows[1]["responses"] and ds["responses"][2] == rows[2]["responses"]
    assert _listed(caught) == [
        f"{data}: 2 reference(s) in 2 row(s) are a list written as text (first at {data}:2, responses[0]): each is "
        "scored as ONE text, brackets and quotes included; if they are meant as several references, write each "
        "reference as its own entry of the 'responses' list"]


def test_predictions_looking_like_lists_are_never_checked(tmp_path):
    _, data = _data(tmp_path)
    listed = [dict(p) for p in PREDS]
    listed[0]["prediction"] = "[图片]"
    listed[2]["prediction"] = json.dumps(["明天记得穿外套。", "穿外套"], ensure_ascii=False)
    preds = write_jsonl(tmp_path / "preds.jsonl", listed)
    pd = pytest.importorskip("pandas")
    csv = tmp_path / "preds.csv"
    pd.DataFrame([{**p, "prediction": str(["明天记得穿外套。"])} for p in PREDS]).to_csv(csv, index=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert read_predictions(preds).texts == [p["prediction"] for p in listed]
        assert read_predictions(csv).texts == [str(["明天记得穿外套。"])] * 3
    assert _listed(caught) == []
    for f in (preds, csv):  # the one warning is the data's, in the report's warnings
        res = run_cli("score", "--data", data, "-p", f, "--bootstrap", "0", "-f", "json")
        assert res.exit_code == 0, res.output
        said = [w for w in json.loads(res.stdout)["warnings"] if "list written as text" in w]
        assert len(said) == 1 and said[0].startswith(f"{data}: 2 reference(s) in 2 row(s)")
