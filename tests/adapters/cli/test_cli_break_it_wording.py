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


# ---- every path option said as typed (break-it: pathlib wrote './p.jsonl' as 'p.jsonl', 'sub//x' as 'sub/x') ------

_DUCK = "".join('{"id": "q%d", "query": "问", "responses": ["%s", "%s呀"], "domain": null, "difficulty": null}\n'
                % (i, t, t) for i, t in enumerate(["我爱北京", "你好", "今天天气"]))
_TYPED = [
    (["score", "-p", "./nope.jsonl"], "predictions file not found: ./nope.jsonl"),
    (["score", "-p", "sub//nope.jsonl"], "predictions file not found: sub//nope.jsonl"),
    (["score", "-p", "./bad.jsonl"], "./bad.jsonl:1: this looks like a text file"),
    (["score", "-d", "./nope.jsonl", "-p", "./p.jsonl"], "小黄鸭 data file not found: ./nope.jsonl"),
    (["score", "-d", "./bad.jsonl", "-p", "./p.jsonl"], "./bad.jsonl:1: malformed JSON"),
    (["score", "-d", "./d.jsonl", "-p", "./two.txt"], "predictions (./two.txt) have no ids"),
    (["score", "-p", "./p.jsonl", "--terms", "./nope.txt"], "--terms file not found: ./nope.txt"),
    (["score", "-p", "./p.jsonl", "-o", "./nope/o.txt"], "output directory does not exist: ./nope"),
    (["score", "-p", "./p.jsonl", "--html", "./nope/o.html"], "output directory does not exist: ./nope"),
    (["score", "-p", "./p.jsonl", "--stream", "--items-out", "./nope/i.jsonl"], "output directory does not exist: ./nope"),
    (["ceiling", "-d", "./nope.jsonl"], "小黄鸭 data file not found: ./nope.jsonl"),
    (["compare", "-p", "./p.jsonl", "./nope.jsonl"], "predictions file not found: ./nope.jsonl"),
    (["compare", "-p", "./p.jsonl", "./p.jsonl"], "--predictions B ./p.jsonl is --predictions A ./p.jsonl"),
    (["clean", "./bad.jsonl", "-o", "./o.jsonl"], "./bad.jsonl:1: malformed JSON"),
    (["agree", "--ratings", "./r.csv", "--key", "./nope.json"], "review key file not found: ./nope.json"),
    (["agree", "--ratings", "./r.csv", "--key", "./k.json"], "./k.json is not a review key"),
    (["agree", "-p", "./p.jsonl", "--judge-ratings", "./nope.jsonl"], "judge ratings file not found: ./nope.jsonl"),
    (["sample", "-p", "./p.jsonl", "--k", "3", "-o", "./s.xlsx"], "the review sheet's name './s.xlsx'"),
    (["explain", "-d", "./nope.jsonl", "-p", "./p.jsonl", "--worst", "1"], "data file not found: ./nope.jsonl"),
    (["bleu", "./nope.txt", "-i", "./one.txt"], "reference file not found: ./nope.txt"),
    (["bleu", "./one.txt", "-i", "./nope.txt"], "hypothesis file not found: ./nope.txt"),
    (["rouge", "./one.txt", "-i", "./nope.txt"], "hypothesis file not found: ./nope.txt"),
    (["chrf", "./nope.txt", "-i", "./one.txt"], "reference file not found: ./nope.txt"),
]


def _typed_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.jsonl").write_text('{"predict": "我爱北京", "label": "我爱北京天安门"}\n'
                                      '{"predict": "你好呀", "label": "你好"}\n', encoding="utf-8")
    (tmp_path / "bad.jsonl").write_text("not json\n", encoding="utf-8")
    (tmp_path / "d.jsonl").write_text(_DUCK, encoding="utf-8")
    (tmp_path / "one.txt").write_text("我爱北京\n", encoding="utf-8")
    (tmp_path / "two.txt").write_text("我爱北京\n你好\n", encoding="utf-8")
    (tmp_path / "three.txt").write_text("我爱北京\n你好\n今天天气\n", encoding="utf-8")
    (tmp_path / "r.csv").write_text("id,overall\nq0,3\n", encoding="utf-8")
    (tmp_path / "k.json").write_text("{}\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()


@pytest.mark.parametrize("args, said", _TYPED, ids=[" ".join(a[:2]) + f"-{i}" for i, (a, _) in enumerate(_TYPED)])
def test_every_path_option_is_said_as_typed(tmp_path, monkeypatch, args, said):
    _typed_files(tmp_path, monkeypatch)
    res = run_cli(*args, *(["-q"] if args[0] in ("score", "ceiling", "compare", "sample", "explain") else []))
    assert res.exit_code != 0 and said in res.output, res.output


def test_sample_says_its_sheet_and_default_key_as_typed(tmp_path, monkeypatch):
    _typed_files(tmp_path, monkeypatch)
    res = run_cli("sample", "-d", "./d.jsonl", "-p", "./three.txt", "--k", "3", "-o", "./s.csv", "-q")
    assert res.exit_code == 0, res.output
    assert "the predictions (./three.txt) have no ids" in res.output
    assert "wrote ./s.csv (3 items" in res.output and res.output.rstrip().endswith("and ./s.key.json")
    assert (tmp_path / "s.key.json").is_file()


def test_judge_paths_are_said_as_typed(tmp_path, monkeypatch):
    pytest.importorskip("openai")
    _typed_files(tmp_path, monkeypatch)
    common = ["--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    res = run_cli("judge", "./nope.jsonl", *common)
    assert res.exit_code != 0 and "predictions file not found: ./nope.jsonl" in res.output, res.output
    res = run_cli("judge", "./p.jsonl", "--versus", "./nope.jsonl", *common)
    assert res.exit_code != 0 and "predictions file not found: ./nope.jsonl" in res.output, res.output
