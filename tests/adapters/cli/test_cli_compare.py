"""zheval compare on identical and on different systems: identical outputs give delta 0 on every metric, flagged as
"no difference" (sacrebleu's p-value (0 + 1) / (R + 1) kept, with a note saying why), in JSON and in the table;
different systems carry no such flag or note. Small data files are written here; expected values are worked out in
comments."""

from __future__ import annotations

import json

import pytest


from helpers.cli import PREDS, write_sample_files
from helpers.cli import run_cli as run
from helpers.cli import write_jsonl as _jsonl


@pytest.fixture()
def files(tmp_path):
    return write_sample_files(tmp_path)


def test_compare_identical_systems_says_no_difference(files, tmp_path):
    data, preds, txt, _ = files
    out = tmp_path / "cmp.json"
    # --by none: the overall rows (the default groups by domain,difficulty, whose small groups get no p-value)
    res = run("compare", "-d", data, "-p", preds, txt, "--bootstrap", 199, "-q", "-f", "json", "-o", out, "--by", "none")
    assert res.exit_code == 0, res.output
    rep = json.loads(out.read_text(encoding="utf-8"))
    # the same texts (by id and in order): every resample ties too, so no |B - A| exceeds 0 strictly and
    # sacrebleu's p = (0 + 1) / (199 + 1) = 0.005 -- kept as sacrebleu's number, but flagged
    for row in rep["comparison"]:
        assert row["delta"] == 0.0 and row["no_difference"] is True
        assert row["p_value"] == 1 / 200
    assert any(n.startswith("no difference: the systems' outputs are identical line for line") for n in rep["notes"])
    assert any("strictly" in n and "+ 1" in n for n in rep["notes"])
    table = run("compare", "-d", data, "-p", preds, txt, "--bootstrap", 199, "-q").output
    assert "0.0050 (no difference)" in table and "no difference: the systems' outputs are identical line for line" in table


def test_compare_different_systems_has_no_no_difference_note(files, tmp_path):
    data, preds, _, _ = files
    other = _jsonl(tmp_path / "other.jsonl", [{**p, "prediction": p["prediction"][:3]} for p in PREDS])
    out = tmp_path / "cmp.json"
    res = run("compare", "-d", data, "-p", preds, other, "--bootstrap", 50, "-q", "-f", "json", "-o", out)
    assert res.exit_code == 0, res.output
    rep = json.loads(out.read_text(encoding="utf-8"))
    assert all(r["delta"] < 0 and r["no_difference"] is False for r in rep["comparison"])
    assert not any(n.startswith("no difference") for n in rep["notes"])
