"""``score -f json``'s ``breakdowns.diversity[].repetition`` says nothing repeated as the table does ("none
repeated"): ``most_frequent`` null and ``most_frequent_count`` 0, never an arbitrary prediction with count 1
(break-it 18 D); the records stream (chunks) and the group rows agree."""

from __future__ import annotations

import json

from helpers.cli import run_cli as run
from helpers.cli import write_jsonl


def test_json_repetition_is_null_when_no_prediction_repeats(tmp_path):
    rec = write_jsonl(tmp_path / "d.jsonl", [
        {"id": "1", "prediction": "今天天气很好", "references": ["今天天气不错"], "g": "a"},
        {"id": "2", "prediction": "明天下雨", "references": ["明天会下雨"], "g": "a"},
        {"id": "3", "prediction": "好的", "references": ["好"], "g": "b"},
        {"id": "4", "prediction": "好的", "references": ["好呀"], "g": "b"}])
    res = run("score", "-p", rec, "--group-field", "g", "-q", "--bootstrap", 0, "-f", "json")
    assert res.exit_code == 0, res.output
    rep = {(d["dimension"], d["value"]): d["repetition"] for d in json.loads(res.stdout)["breakdowns"]["diversity"]}
    assert rep[("g", "a")] == {"duplicate_share": 0.0, "duplicates": 0, "most_frequent": None,
                               "most_frequent_count": 0}
    assert rep[("g", "b")]["most_frequent"] == "好的" and rep[("g", "b")]["most_frequent_count"] == 2
    table = run("score", "-p", rec, "--group-field", "g", "-q", "--bootstrap", 0).stdout
    assert "none repeated" in table
