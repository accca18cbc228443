"""``zheval bertscore --items FILE`` never writes over an input (break-it: ``zheval bertscore ref1.txt -i hyp.txt
--items ref1.txt`` replaced the reference file with JSON Lines, exit code 0): --items naming a reference file, a
hypothesis file or the --baseline-path file (also through a symlink or ``..``) is refused with exit code 2 before
any scoring, the file left as it was; a new --items file is still written. The table of every other command is
test_cli_output_guard.py; this one needs the bertscore extra (a tiny BERT built in the test)."""

from __future__ import annotations

import json
import os

import pytest

import torch

from helpers.cli import run_cli
from helpers.tiny_bert import make_tiny_bert


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    torch.set_num_threads(1)
    return make_tiny_bert(tmp_path_factory.mktemp("model") / "tiny", layers=2, seed=2)


@pytest.fixture()
def files(tmp_path):
    ref1, ref2, hyp, base = (tmp_path / n for n in ("ref1.txt", "ref2.txt", "hyp.txt", "baseline.csv"))
    ref1.write_text("今天天气很好\n我们去公园\n", encoding="utf-8")
    ref2.write_text("天气不错\n一起去公园吧\n", encoding="utf-8")
    hyp.write_text("今天天气不错\n我们去公园吧\n", encoding="utf-8")
    base.write_text("LAYER,P,R,F\n0,0.1,0.1,0.1\n1,0.1,0.1,0.1\n2,0.1,0.1,0.1\n", encoding="utf-8")
    return ref1, ref2, hyp, base


def test_items_naming_an_input_is_refused(tiny, files, tmp_path):
    ref1, ref2, hyp, base = files
    before = {p: p.read_bytes() for p in files}
    (tmp_path / "sub").mkdir()
    link = tmp_path / "link.txt"
    os.symlink(hyp, link)
    common = ["--model", tiny, "--layer", "2", "--device", "cpu"]
    cases = [(ref1, "REF"), (ref2, "REF"), (hyp, "--input"), (link, "--input"),
             (tmp_path / "sub" / ".." / "ref1.txt", "REF")]
    for out, what in cases:
        res = run_cli("bertscore", ref1, ref2, "-i", hyp, *common, "--items", out)
        assert res.exit_code == 2, (out, res.output)
        assert "--items must differ from the input file" in res.output and f"is {what} " in res.output, res.output
    res = run_cli("bertscore", ref1, "-i", hyp, *common, "--rescale-with-baseline", "--baseline-path", base,
                  "--items", base)
    assert res.exit_code == 2 and "is --baseline-path " in res.output, res.output
    assert {p: p.read_bytes() for p in files} == before
    res = run_cli("bertscore", ref1, "-i", hyp, *common, "--items", tmp_path / "items.jsonl")
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in (tmp_path / "items.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["line"] for r in rows] == [1, 2]


def test_reference_files_holding_the_same_text_are_refused(tiny, files, tmp_path):
    # issue 35: a copy of a reference file was a second set of references (as the text commands: test_cli_repeated_inputs)
    ref1, _, hyp, _ = files
    copy = tmp_path / "copy.txt"
    copy.write_bytes(ref1.read_bytes())
    res = run_cli("bertscore", ref1, copy, "-i", hyp, "--model", tiny, "--layer", "2", "--device", "cpu")
    assert res.exit_code == 2, res.output
    assert f"reference {copy} holds the same text as reference {ref1} (every line equal)" in res.stderr, res.stderr


def test_items_inside_the_model_directory_is_refused(tiny, files, tmp_path):
    # issue 35 leftovers: --items MODEL/config.json replaced the model's config; any file inside --model is refused
    from pathlib import Path

    ref1, _, hyp, _ = files
    model = Path(tiny)
    before = {p.name: p.read_bytes() for p in model.iterdir()}
    for out in (model / "config.json", model / "items.jsonl"):
        res = run_cli("bertscore", ref1, "-i", hyp, "--model", tiny, "--layer", "2", "--device", "cpu", "--items", out)
        assert res.exit_code == 2, res.output
        assert f"--items must not be inside --model {tiny} (--items {out})" in res.output, res.output
    assert {p.name: p.read_bytes() for p in model.iterdir()} == before


def test_a_missing_baseline_path_is_named_as_typed(tiny, files, tmp_path, monkeypatch):
    # break-it: "[Errno 2] No such file or directory: 'nope.tsv'" for --baseline-path ./nope.tsv, after the model loaded
    ref1, _, hyp, _ = files
    monkeypatch.chdir(tmp_path)
    res = run_cli("bertscore", ref1, "-i", hyp, "--model", tiny, "--layer", "2", "--device", "cpu",
                  "--rescale-with-baseline", "--baseline-path", "./nope.tsv")
    assert res.exit_code == 2 and "--baseline-path file not found: ./nope.tsv" in res.output, res.output
