"""The zheval command's arguments, checked before any work: no command writes over one of its inputs (the same path,
a symlink, a hard link, a relative or dotted path to it; --output and --plot distinct), a directory given for a
file says so, and an unknown tokenizer lists exactly the values --help names. Small data files are written here."""

from __future__ import annotations

import json
import os

import pytest

from zheval.cli import CLI_TOKENIZERS

from helpers.cli import run_cli as run
from helpers.cli import twin, write_sample_files


@pytest.fixture()
def files(tmp_path):
    return write_sample_files(tmp_path)


def _snapshot(*paths):
    return {p: p.read_bytes() for p in paths}


# ---- no command writes over one of its inputs --------------------------------------------------------------------------


def test_score_refuses_outputs_that_are_inputs(files, tmp_path):
    data, preds, txt, terms = files
    before = _snapshot(data, preds, txt, terms)
    (tmp_path / "sub").mkdir()
    link = tmp_path / "link.jsonl"
    os.symlink(data, link)
    hard = tmp_path / "hard.txt"
    os.link(txt, hard)
    cases = [
        ("--output", data, "--data"),
        ("--output", preds, "--predictions"),
        ("--plot", data, "--data"),
        ("--plot", preds, "--predictions"),
        ("--output", terms, "--terms"),
        ("--output", link, "--data"),  # a symlink to the data file
        ("--output", tmp_path / "sub" / ".." / "data.jsonl", "--data"),
        ("--output", data.relative_to(tmp_path), "--data"),  # relative to the working directory below
    ]
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for flag, out, what in cases:
            res = run("score", "-d", data, "-p", preds, "--terms", terms, "--bootstrap", 0, "-q", flag, out)
            assert res.exit_code == 2, (flag, out, res.output)
            assert f"{flag} must differ from the input file" in res.output and f"is {what} " in res.output
        res = run("score", "-d", data, "-p", txt, "--bootstrap", 0, "-q", "-o", hard)  # a hard link
        assert res.exit_code == 2 and "--output must differ from the input file" in res.output
        res = run("score", "-d", data, "-p", txt, "--bootstrap", 0, "-q", "-o", txt)
        assert res.exit_code == 2 and "--output must differ from the input file" in res.output
        res = run("score", "-d", data, "-p", preds, "--bootstrap", 0, "-q", "-o", "same.png", "--plot", "same.png")
        assert res.exit_code == 2 and "--output and --plot must be different files" in res.output
    finally:
        os.chdir(cwd)
    assert _snapshot(data, preds, txt, terms) == before
    # a real output still works
    res = run("score", "-d", data, "-p", preds, "--bootstrap", 0, "-q", "-f", "json", "-o", tmp_path / "r.json")
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["groups"][0]["n"] == 3


def test_ceiling_compare_clean_refuse_outputs_that_are_inputs(files, tmp_path):
    data, preds, txt, terms = files
    before = _snapshot(data, preds, txt, terms)
    res = run("ceiling", "-d", data, "--bootstrap", 0, "-q", "-o", data)
    assert res.exit_code == 2 and "--output must differ from the input file" in res.output
    res = run("ceiling", "-d", data, "--bootstrap", 0, "-q", "--plot", terms, "--terms", terms)
    assert res.exit_code == 2 and "--plot must differ from the input file" in res.output
    for out in (preds, txt, data):
        res = run("compare", "-d", data, "-p", preds, txt, "--bootstrap", 10, "-q", "-o", out)
        assert res.exit_code == 2 and "--output must differ from the input file" in res.output, res.output
    res = run("clean", data, "-o", data, "-q")
    assert res.exit_code == 2 and "--output must differ from the input file" in res.output
    res = run("clean", data, "-o", tmp_path / "c.jsonl", "--report-json", data, "-q")
    assert res.exit_code == 2 and "--report-json must differ from the input file" in res.output
    res = run("clean", data, "-o", tmp_path / "c.jsonl", "--report-json", tmp_path / "c.jsonl", "-q")
    assert res.exit_code == 2 and "must be different files" in res.output
    assert _snapshot(data, preds, txt, terms) == before


# ---- tokenizer names, directories -------------------------------------------------------------------------------------


def test_unknown_tokenizer_lists_exactly_the_help_values(files):
    data, preds, _, _ = files
    help_text = " ".join(run("score", "--help").output.split())
    assert "char | jieba | none | sacrebleu-zh | llamafactory-char" in help_text
    assert CLI_TOKENIZERS == ("char", "jieba", "none", "sacrebleu-zh", "llamafactory-char")
    for cmd in (("score", "-d", data, "-p", preds), ("ceiling", "-d", data), ("compare", "-d", data, "-p", preds, twin(preds))):
        res = run(*cmd, "-t", "bogus", "--bootstrap", 2, "-q")
        assert res.exit_code == 2
        assert "unknown -t/--tokenizer 'bogus'; valid: char, jieba, none, sacrebleu-zh, llamafactory-char" in res.output


def test_predictions_directory_is_a_directory(files, tmp_path):
    data, _, _, _ = files
    res = run("score", "-d", data, "-p", tmp_path, "--bootstrap", 0, "-q")
    assert res.exit_code == 2 and "is a directory" in res.output and "not found" not in res.output
    res = run("score", "-d", tmp_path, "-p", files[1], "--bootstrap", 0, "-q")
    assert res.exit_code == 2 and "directory" in res.output


def test_a_single_valued_option_given_twice_is_an_error_not_the_last_value(capsys):
    """click keeps the last value of a repeated option: `compare -p A B -p C D` would silently compare C with D
    only, and `--seed 1 --seed 2` would use 2. The console script refuses it (exit 2, naming the option); options
    that repeat by design (`--ref-field`, `zheval bleu -i`) are not affected."""
    import pytest

    from zheval.cli import main, repeated_options

    with pytest.raises(SystemExit) as e:
        main(["compare", "--data", "d.jsonl", "-p", "a.jsonl", "b.jsonl", "-p", "c.jsonl", "d.jsonl"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "option -p given twice" in err and "-p A.jsonl B.jsonl C.jsonl" in err
    assert "option --seed given twice" in repeated_options(["score", "--seed", "1", "--seed=2", "-p", "x"])
    assert repeated_options(["score", "--ref-field", "a", "--ref-field", "b", "-p", "x"]) is None
    assert repeated_options(["score", "-p", "x", "--", "-p"]) is None
    assert repeated_options(["compare", "-p", "a.jsonl", "b.jsonl", "c.jsonl", "--data", "d"]) is None


def test_the_normalize_help_says_the_steps_run_in_a_fixed_order():
    # break-it 22 (minor): --normalize lower+nfkc runs nfkc first; the help listed the steps without saying so
    text = " ".join(run("score", "--help").stdout.split())
    assert "run in this order whatever order they are named in: nfkc, zw, t2s, punct, nopunct, space, lower" in text
