"""Group values that are one value written differently -- NFC vs NFD (they print alike), full-width (NFKC), an
invisible character -- stay separate groups, and the report says so in its notes (table, JSON) and on stderr
(break-it 18 B: ``caf\\u00e9`` and ``cafe\\u0301`` were two rows ``g=café`` with no word)."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_cli as run
from helpers.cli import write_jsonl

VALUES = ["caf\u00e9", "cafe\u0301", "\uff43\uff41\uff46\uff45", "cafe", "x\u200by", "xy", "other"]


def _records(tmp_path):
    return write_jsonl(tmp_path / "gnf.jsonl", [
        {"id": str(i), "prediction": "今天天气很好", "references": ["今天天气不错"], "g": v}
        for i, v in enumerate(VALUES)])


@pytest.mark.parametrize("extra", [[], ["--stream"]])
def test_group_values_written_differently_are_noted_not_merged(tmp_path, extra):
    res = run("score", "-p", _records(tmp_path), "--group-field", "g", "-q", "--bootstrap", 0, "-f", "json", *extra)
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert sorted(g["value"] for g in report["groups"] if g["dimension"] == "g") == sorted(VALUES)  # not merged
    notes = [n for n in report["notes"] if n.startswith("group values written differently")]
    assert len(notes) == 1, report["notes"]
    note = notes[0]
    assert "'cafe\\u0301'" in note and "'caf\u00e9'" in note and "NFC vs NFD" in note
    assert "'\uff43\uff41\uff46\uff45'" in note and "NFKC" in note
    assert "'x\\u200by'" in note and "invisible characters" in note and "'other'" not in note
    err = " ".join(res.stderr.split())
    assert "group values written differently in 'g'" in err


def test_no_note_when_values_differ(tmp_path):
    rec = write_jsonl(tmp_path / "g.jsonl", [{"prediction": "好", "references": ["好的"], "g": v} for v in "ab"])
    res = run("score", "-p", rec, "--group-field", "g", "-q", "--bootstrap", 0, "-f", "json")
    assert not [n for n in json.loads(res.stdout)["notes"] if n.startswith("group values written")]


@pytest.mark.parametrize("extra", [[], ["--stream"]])
def test_an_integer_and_its_digits_as_a_string_are_one_group_and_noted(tmp_path, extra):
    """JSONL ``"g": 1`` on some rows and ``"g": "1"`` on others: one group value (as for ids, 1 ≡ "1"), pooled --
    now with a note counting each form (before: pooled without a word)."""
    import sacrebleu

    rows = [("今天天气很好", "今天天气很好", 1), ("明天下雨", "明天会下雨", "1"), ("快递到了", "快递已经到了", "1"),
            ("好", "不好", 2), ("请联系家人", "请马上联系家人", 2)]
    rec = write_jsonl(tmp_path / "gi.jsonl", [{"prediction": p, "reference": r, "g": g} for p, r, g in rows])
    res = run("score", "-p", rec, "--group-field", "g", "-q", "--bootstrap", 0, "-f", "json", "--metrics", "bleu",
              *extra)
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    one = next(g for g in report["groups"] if g["dimension"] == "g" and g["value"] == "1")
    assert one["n"] == 3
    want = sacrebleu.corpus_bleu([p for p, _, _ in rows[:3]], [[r for _, r, _ in rows[:3]]], tokenize="zh").score / 100
    assert one["scores"]["bleu"]["value"] == pytest.approx(want, abs=1e-12)
    notes = [n for n in report["notes"] if n.startswith("group values written differently")]
    assert notes == [f"group values written differently in 'g': 1 on 1 row(s) (first {rec}:1) and '1' on 2 row(s) "
                     f"(first {rec}:2): an integer and the string of its digits are one group value (as for ids, "
                     "1 ≡ '1'), so each pair is scored as one group; write the values in one form (all integers, or "
                     "all strings) if that is not meant"], report["notes"]
    assert "group values written differently in 'g': 1 on 1 row(s)" in " ".join(res.stderr.split())
