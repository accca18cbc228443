"""Break-it pass wording at the command line: a huge ``--chrf-beta`` is echoed as a number, not as its 101-digit
integer; an integer option refuses a word with an integer's syntax (not a float's); ``--normalize ''``, the ``--punct
drop`` cause of an empty reference and ``--output ./d.jsonl`` are said as typed."""

from __future__ import annotations

import pytest
import typer

from helpers.cli import run_cli
from zheval.cli.option_numbers import number_parser


def _files(tmp_path, refs=("我爱北京", "你好")):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("".join(r + "\n" for r in refs), encoding="utf-8")
    hyp.write_text("我爱北京\n你好呀\n", encoding="utf-8")
    return ref, hyp


def test_a_huge_chrf_beta_is_echoed_as_a_number_with_its_bound(tmp_path):
    ref, hyp = _files(tmp_path)
    res = run_cli("chrf", ref, "-i", hyp, "--chrf-beta", "1e101")
    assert res.exit_code != 0
    assert "--chrf-beta must be a finite number >= 0 and <= 1e+100" in res.output
    assert "got 1e+101" in res.output and "9999" not in res.output
    ok = run_cli("chrf", ref, "-i", hyp, "--chrf-beta", "2", "-f", "text")
    assert ok.exit_code == 0 and ok.stdout.startswith("chrF2|")  # a whole beta still names chrF2


def test_an_integer_option_gives_an_integers_hint():
    with pytest.raises(typer.BadParameter, match=r"^'abc' is not an integer \(digits 0-9 with an optional sign\)$"):
        number_parser(int, 1)("abc")
    with pytest.raises(typer.BadParameter, match=r"decimal point and exponent"):
        number_parser(float, 0)("abc")  # a float option keeps the float syntax


def test_max_refs_word_at_the_command_line(tmp_path):
    pred = tmp_path / "p.jsonl"
    pred.write_text('{"predict": "我爱北京", "label": "我爱北京天安门"}\n', encoding="utf-8")
    res = run_cli("score", "-p", pred, "--max-refs", "abc")
    assert res.exit_code != 0
    assert "'abc' is not an integer (digits 0-9 with an optional sign)" in res.output
    assert "decimal point" not in res.output


@pytest.mark.parametrize("command", ["bleu", "rouge", "chrf"])
def test_normalize_empty_is_named_as_the_option(tmp_path, command):
    ref, hyp = _files(tmp_path)
    res = run_cli(command, ref, "-i", hyp, "--normalize", "")
    assert res.exit_code != 0
    assert "--normalize '' is empty: give a '+'-joined step list such as 'nfkc+space'" in res.output
    assert "has an empty step" not in res.output and "'+' at an end" not in res.output


@pytest.mark.parametrize("command", ["bleu", "rouge"])
def test_punct_drop_cause_is_said_as_the_option(tmp_path, command):
    ref, hyp = _files(tmp_path, refs=("我爱北京", "……"))
    res = run_cli(command, ref, "-i", hyp, "--punct", "drop")
    assert res.exit_code != 0
    assert "which --punct drop removes" in res.output and 'punct="drop"' not in res.output


def test_punct_drop_cause_in_zheval_score(tmp_path):
    pred = tmp_path / "p.jsonl"
    pred.write_text('{"predict": "我爱北京", "label": "……"}\n', encoding="utf-8")
    res = run_cli("score", "-p", pred, "--punct", "drop")
    assert res.exit_code != 0
    assert "--punct drop" in res.output and "punct=drop" not in res.output


def test_output_path_is_echoed_as_typed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pred = tmp_path / "p.jsonl"
    pred.write_text('{"predict": "我爱北京", "label": "我爱北京天安门"}\n'
                    '{"predict": "你好呀", "label": "你好"}\n', encoding="utf-8")
    res = run_cli("score", "-p", "p.jsonl", "--output", "./d.json", "-f", "json", "-q")
    assert res.exit_code == 0, res.output
    assert "wrote ./d.json" in res.stderr
    assert (tmp_path / "d.json").is_file()
