"""scripts/option_matrix.py keeps working: every configuration can be built, a few of each kind run on a tiny data
directory made from the embedded 小黄鸭 sample (so the test needs no shared data), and ``compare`` finds a
changed float, a missing configuration and an error-message-only change."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO

SCRIPT = REPO / "scripts" / "option_matrix.py"

SUBSET = [
    "rouge/lib/woz_groups/tok=char/types=all/multi=pool/pr=yes",
    "rouge/lib/csl_lsum/tok=char/types=rougeLsum+rougeL/split=newline",
    "rouge/lib/errors/input=empty-reference",
    "bleu/lib/csl_next/level=sentence/smooth=floor/value=0.05",
    "bleu/lib/woz_groups/tok=jieba+dict/level=corpus",
    "score/csl_lsum/tok=char/split=newline/metrics=both",
    "duck/lib/human_ceiling/opt=metrics=bleu+bootstrap=0",
    "cli/error/tokenizer=bogus",
]


def run(*args, check=True):
    proc = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)
    if check and proc.returncode != 0:
        raise AssertionError(f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


@pytest.fixture(scope="module")
def sample_data_dir(tmp_path_factory) -> Path:
    """The three data files the script reads, in the shared data's format, made from the embedded sample: groups =
    the sample rows; single turns = each row's first reply; CSL = the replies joined as the abstract, the query as
    the title."""
    rows = [json.loads(x) for x in (REPO / "zheval" / "data" / "duck_sample.jsonl").read_text("utf-8").splitlines()
            if x.strip()]
    d = tmp_path_factory.mktemp("sample-data")

    def write(name, items):
        (d / name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in items), encoding="utf-8")

    write("crosswoz_same_query_groups.jsonl", rows)
    write("crosswoz_single_turn.jsonl", [{**r, "responses": r["responses"][:1]} for r in rows])
    write("csl_ts_test.jsonl", [{"id": r["id"], "document": "".join(r["responses"]), "summary": r["query"]}
                                for r in rows])
    return d


@pytest.fixture(scope="module")
def recording(sample_data_dir, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("matrix") / "out.json"
    only = [a for c in SUBSET for a in ("--only", c)]
    run("record", str(out), "--data-dir", str(sample_data_dir), "--quiet", *only)
    return out


def test_every_config_builds_with_unique_ids():
    ids = run("list").stdout.split()
    assert len(ids) == len(set(ids)) > 500
    for prefix in ("rouge/lib/", "bleu/lib/", "bleu/stats/", "score/", "evaluate/chinese_rouge/",
                   "evaluate/chinese_bleu/", "evaluate/combine/", "trainer/", "duck/lib/", "cli/"):
        assert any(i.startswith(prefix) for i in ids), prefix
    assert set(SUBSET) <= set(ids)


def test_record_subset(recording):
    data = json.loads(recording.read_text("utf-8"))
    assert sorted(data) == sorted(SUBSET)
    errors = {k for k, v in data.items() if "error" in v}
    assert errors == {"rouge/lib/errors/input=empty-reference"}
    assert data["rouge/lib/errors/input=empty-reference"]["error"] == "EmptyReferenceError"
    assert "references[3][0] is empty" in data["rouge/lib/errors/input=empty-reference"]["message"]
    r = data["rouge/lib/woz_groups/tok=char/types=all/multi=pool/pr=yes"]
    assert {"rouge1", "rougeSU*_recall", "rougeW_precision", "signature"} <= set(r)
    assert "multi:pool" in r["signature"]
    assert isinstance(r["rouge1"], float) and 0 < r["rouge1"] < 1
    assert set(data["score/csl_lsum/tok=char/split=newline/metrics=both"]) == {"bleu", "rouge"}
    cli = data["cli/error/tokenizer=bogus"]
    assert cli["exit_code"] == 2 and any("unknown -t/--tokenizer 'bogus'" in x for x in cli["stderr"])
    assert "zheval-option-matrix-" not in json.dumps(data, ensure_ascii=False)  # temp paths are normalised


def test_compare_identical_and_differences(recording, tmp_path):
    same = run("compare", str(recording), str(recording))
    assert f"identical: {len(SUBSET)} of {len(SUBSET)}" in same.stdout
    data = json.loads(recording.read_text("utf-8"))
    changed = json.loads(json.dumps(data))
    key = "rouge/lib/woz_groups/tok=char/types=all/multi=pool/pr=yes"
    changed[key]["rouge2"] = changed[key]["rouge2"] + 2 ** -50  # one ulp-sized change must be found
    changed["rouge/lib/errors/input=empty-reference"]["message"] += " (reworded)"
    del changed["cli/error/tokenizer=bogus"]
    new = tmp_path / "new.json"
    new.write_text(json.dumps(changed, ensure_ascii=False), encoding="utf-8")
    proc = run("compare", str(recording), str(new), check=False)
    assert proc.returncode == 1
    assert f"DIFF {key}\n  at rouge2" in proc.stdout
    assert "DIFF rouge/lib/errors/input=empty-reference (error message only)" in proc.stdout
    assert "MISSING in new: cli/error/tokenizer=bogus" in proc.stdout
    assert f"identical: {len(SUBSET) - 3} of {len(SUBSET) - 1}" in proc.stdout
    lenient = run("compare", str(recording), str(new), "--ignore-error-messages", check=False)
    assert lenient.returncode == 1  # the float and the missing config still count
    assert f"identical: {len(SUBSET) - 2} of {len(SUBSET) - 1}" in lenient.stdout


def test_refuses_without_data(tmp_path):
    proc = run("record", str(tmp_path / "out.json"), "--data-dir", str(tmp_path / "nowhere"), check=False)
    assert proc.returncode != 0
    assert "real test data is needed" in proc.stderr
    assert not (tmp_path / "out.json").exists()
