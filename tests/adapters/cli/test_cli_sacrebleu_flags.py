"""sacrebleu's flags typed to zheval (``-tok zh``, ``--tokenize``, ``-l``, ``-m``, ``-lc``): each answered with
zheval's spelling before any file is read, never misread as another option (click read ``-tok zh`` as ``-t ok``) and
never taken as an alias of zheval's tokenizer names."""

from __future__ import annotations

import pytest

from helpers.cli import run_cli as run


@pytest.fixture()
def texts(tmp_path):
    ref, hyp = tmp_path / "ref1.txt", tmp_path / "hypA.txt"
    ref.write_text("今天天气很好\n我们去公园\n", encoding="utf-8")
    hyp.write_text("今天天气好\n我们去公园玩\n", encoding="utf-8")
    return ref, hyp


@pytest.mark.parametrize("flag", [["-tok", "zh"], ["--tokenize", "zh"], ["-tokzh"], ["-tok=zh"], ["--tokenize=zh"]])
@pytest.mark.parametrize("command", ["bleu", "chrf", "rouge"])
def test_tok_zh_points_to_the_preset(texts, command, flag):
    ref, hyp = texts
    res = run(command, ref, "-i", hyp, *flag)
    assert res.exit_code == 2, res.output
    assert "'ok" not in res.output  # not read as -t ok
    assert "sacrebleu's tokenizer option" in res.stderr and "-t/--tokenizer (char | jieba" in res.stderr
    preset = "--preset sacrebleu-zh reproduces sacrebleu -tok zh exactly"
    assert (preset if command == "bleu" else f"zheval bleu {preset}") in res.stderr


def test_tok_other_values_list_the_choices(texts):
    ref, hyp = texts
    for value in ("13a", "char", "none", "intl"):  # sacrebleu's names, some spelled as zheval's: never an alias
        res = run("bleu", ref, "-i", hyp, "-tok", value)
        assert res.exit_code == 2, res.output
        assert f"-tok {value} is sacrebleu's tokenizer option" in res.stderr
        assert f"sacrebleu's {value!r} is none of them" in res.stderr
        assert "char | jieba | none | sacrebleu-zh | llamafactory-char" in res.stderr


def test_tok_on_other_commands(texts, tmp_path):
    ref, hyp = texts
    res = run("score", "-d", tmp_path / "data.jsonl", "-p", hyp, "-tok", "zh")
    assert res.exit_code == 2 and "-tok zh is sacrebleu's tokenizer option" in res.stderr
    res = run("bertscore", ref, "-i", hyp, "--model", tmp_path, "-tok", "zh")
    assert res.exit_code == 2 and "zheval bertscore has no tokenizer option" in res.stderr


def test_single_dash_tokenizer(texts):
    ref, hyp = texts
    res = run("bleu", ref, "-i", hyp, "-tokenizer", "char")
    assert res.exit_code == 2 and "-tokenizer: zheval's option is --tokenizer (two dashes) or -t" in res.stderr


@pytest.mark.parametrize("args, said", [
    (["-l", "en-zh"], "-l is sacrebleu's language pair; zheval takes none"),
    (["--language-pair", "en-zh"], "--language-pair is sacrebleu's language pair"),
    (["-m", "bleu", "chrf"], "-m is sacrebleu's metric choice; zheval scores one metric per text-file command"),
    (["--metrics", "chrf"], "--metrics is sacrebleu's metric choice"),
    (["-lc"], "-lc is sacrebleu's lowercase flag: zheval's char and jieba tokenizers lowercase by default"),
])
@pytest.mark.parametrize("command", ["bleu", "chrf"])
def test_other_sacrebleu_flags(texts, command, args, said):
    ref, hyp = texts
    res = run(command, ref, "-i", hyp, *args)
    assert res.exit_code == 2, res.output
    assert said in res.stderr


def test_zheval_own_options_untouched(texts, tmp_path):
    ref, hyp = texts
    # -t with an attached value, and a command's own -m / --metrics, are zheval's
    res = run("bleu", ref, "-i", hyp, "-tchar", "-b")
    assert res.exit_code == 0 and res.stdout.strip(), res.output
    res = run("score", "-d", tmp_path / "missing.jsonl", "-p", hyp, "-m", "bleu")
    assert "-m is sacrebleu's metric choice; zheval score's is --metrics" in res.stderr
    res = run("explain", "-p", hyp, "-mbleu")
    assert "sacrebleu" not in res.output
    # a file after -- is an argument
    res = run("bleu", "-i", hyp, "--", ref)
    assert "sacrebleu" not in res.output


def test_an_option_value_that_looks_like_a_flag_is_a_value(texts, tmp_path):
    ref, hyp = texts
    res = run("explain", "-p", tmp_path / "missing.jsonl", "--id", "-lc", "--id", "-tok")
    assert "sacrebleu" not in res.output
