"""A reference without tokens after the first 256-item batch of the report's Dataset.map is named by file:line like
one in the first batch (it crashed with datasets' "Couldn't cast array of type int64 to null": a batch without any
such reference typed its column list<null>)."""

from __future__ import annotations

import json

import pytest

from zheval.adapters.records import score_records


def test_late_unscorable_reference_is_named(tmp_path):
    rows = [{"id": str(i), "prediction": "今天天气很好", "reference": "今天天气不错"} for i in range(600)]
    rows[555]["reference"] = "……"
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    with pytest.raises(ValueError, match=r"rows\.jsonl:556: id '555': 'reference' has no tokens"):
        score_records(str(path), punct="drop", bootstrap=0)
