"""A byte-order mark that starts a later line of a text file (two files joined with ``cat``, the second one's BOM in
the middle) at the text-file doors (break-it 18 B: it was accepted silently, while the JSON Lines door refuses it):
refused at FILE:line in the JSON Lines door's words; under ``--preset sacrebleu-zh`` scored as sacrebleu's own
command line scores it (U+FEFF a character of the segment) and said with FILE:line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from helpers.cli import run_cli as run

BOM = "\ufeff".encode("utf-8")
REFS = ["今天天气很好", "我们去公园散步", "明天可能下雨"]
HYPS = ["今天天气不错", "我们去公园散步吧", "明天也许下雨"]


def _joined(path, lines, split=1):
    """``cat a.txt b.txt`` of two UTF-8 files written with a BOM each: ``lines[:split]`` and ``lines[split:]``."""
    first = "".join(x + "\n" for x in lines[:split]).encode("utf-8")
    second = "".join(x + "\n" for x in lines[split:]).encode("utf-8")
    path.write_bytes(BOM + first + BOM + second)
    return path


def _jsonl_words(tmp_path) -> str:
    """What the JSON Lines door says of such a line (its own reader, on a joined JSONL file)."""
    from zheval.io import FileFormatError, read_rows

    f = tmp_path / "joined.jsonl"
    f.write_bytes(BOM + b'{"a": 1}\n' + BOM + b'{"a": 2}\n')
    with pytest.raises(FileFormatError) as e:
        read_rows(f)
    line = next(x for x in str(e.value).splitlines() if f"{f}:2: " in x)
    return line.split(f"{f}:2: ", 1)[1]


def _sacrebleu(ref, hyp, *args) -> str:
    res = subprocess.run([sys.executable, "-m", "sacrebleu", str(ref), "-i", str(hyp), *args], capture_output=True,
                         text=True, check=True, env={**os.environ, "SACREBLEU_SEED": "12345"})
    return res.stdout.strip()


@pytest.mark.parametrize("command", [["bleu"], ["rouge"], ["chrf"], ["bleu", "--preset", "llamafactory"]])
def test_a_bom_inside_a_text_file_is_refused_in_the_jsonl_doors_words(tmp_path, command):
    words = _jsonl_words(tmp_path)
    assert words.startswith("a byte-order mark (U+FEFF) starts this line, inside the file: files joined together")
    ref = _joined(tmp_path / "ref.txt", REFS)
    hyp = _joined(tmp_path / "hyp.txt", HYPS, split=2)
    res = run(command[0], ref, "-i", hyp, *command[1:])
    assert res.exit_code == 2, res.output
    assert f"{ref}:2: {words}" in res.output and f"{hyp}:3: {words}" in res.output, res.output
    assert f"{ref}:1:" not in res.output  # the file's own BOM is removed (and noted), as before


def test_a_bom_inside_standard_input_is_named_there(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(x + "\n" for x in REFS), encoding="utf-8")
    data = ("".join(x + "\n" for x in HYPS[:1]).encode("utf-8") + BOM
            + "".join(x + "\n" for x in HYPS[1:]).encode("utf-8"))
    res = run("bleu", ref, input=data)
    assert res.exit_code == 2 and f"<stdin>:2: {_jsonl_words(tmp_path)}" in res.output, res.output


def test_under_sacrebleu_zh_a_bom_inside_a_file_is_scored_as_sacrebleu_scores_it_and_said(tmp_path):
    ref = _joined(tmp_path / "ref.txt", REFS)
    hyp = tmp_path / "hyp.txt"  # no BOM of its own: only the one inside it, which sacrebleu reads as a character
    hyp.write_bytes("".join(x + "\n" for x in HYPS[:2]).encode("utf-8") + BOM + (HYPS[2] + "\n").encode("utf-8"))
    ref_plain = tmp_path / "ref_plain.txt"  # the reference's own BOM (line 1) is removed by zheval, kept by sacrebleu
    ref_plain.write_bytes(ref.read_bytes()[len(BOM):])
    want = _sacrebleu(ref_plain, hyp, "--tokenize", "zh", "-b", "-w", "4")
    plain = tmp_path / "plain.txt"
    plain.write_text("".join(x + "\n" for x in HYPS), encoding="utf-8")
    without = _sacrebleu(ref_plain, plain, "--tokenize", "zh", "-b", "-w", "4")
    assert want != without  # the BOM counts in sacrebleu's score
    words = _jsonl_words(tmp_path)
    assert words.endswith("? remove it")
    said = (f"{ref}:2: {words[:-len(' remove it')]} --preset sacrebleu-zh scores it as sacrebleu reads it, a character "
            f"of the segment (also at {hyp}:3); remove it to score the text alone")
    res = run("bleu", ref, "-i", hyp, "--preset", "sacrebleu-zh", "-b", "-w", "4")
    assert res.exit_code == 0, res.output
    assert res.stdout.strip() == want
    assert f"zheval: warning: {said}" in res.stderr, res.stderr
    res = run("bleu", ref, "-i", hyp, "--preset", "sacrebleu-zh", "-f", "json", "-w", "4")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert said in doc["warnings"] and f"{doc['systems'][0]['scores']['bleu']:.4f}" == want
    res = run("bleu", ref, "-i", hyp, "--preset", "sacrebleu-zh", "-w", "4")
    assert res.exit_code == 0, res.output
    assert ("note: 2 line(s) starting with a byte-order mark (U+FEFF) inside a file, scored as sacrebleu reads them "
            "(see the warning)") in res.stdout
