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


ZH_LC = "sacrebleu -tok zh -lc cannot be reproduced: tokenizer 'sacrebleu-zh' (--preset sacrebleu-zh, -t sacrebleu-zh)"
OFFERED = "zheval offers -t char --normalize lower instead"


@pytest.mark.parametrize("command, args", [
    ("bleu", ["-tok", "zh", "-lc"]), ("bleu", ["-lc", "-tok", "zh"]), ("bleu", ["--tokenize=zh", "--lowercase"]),
    ("bleu", ["-tokzh", "-lc"]), ("bleu", ["--preset", "sacrebleu-zh", "-lc"]),
    ("bleu", ["-lc", "--preset=sacrebleu-zh"]),
    ("bleu", ["-t", "sacrebleu-zh", "-lc"]), ("bleu", ["-l", "en-zh", "-lc"]), ("rouge", ["-t", "sacrebleu-zh", "-lc"]),
    ("chrf", ["-t", "sacrebleu-zh", "-lc"]),
])
def test_lowercase_with_the_zh_tokenizer_is_said_to_be_impossible(texts, command, args):
    """Break-it pass (wording): ``-lc`` beside sacrebleu's zh tokenizer got the general lowercase answer, which
    never said that ``sacrebleu -tok zh -lc`` has no zheval equivalent (``--normalize lower`` is refused with the
    sacrebleu-zh tokenizer), nor what to use instead."""
    ref, hyp = texts
    res = run(command, ref, "-i", hyp, *args)
    assert res.exit_code == 2, res.output
    said = " ".join(res.stderr.split())
    assert ZH_LC in said and OFFERED in said, said
    assert "(one token per Han character, lowercased; tok:zh-char|norm:lower|case:lc in the signature)" in said


@pytest.mark.parametrize("command, args", [("bleu", ["-lc"]), ("bleu", ["-t", "char", "-lc"]),
                                           ("chrf", ["-tok", "zh", "-lc"]), ("bleu", ["-tok", "zh"]),
                                           ("bertscore", ["-tok", "zh", "-lc"])])
def test_no_zh_lowercase_sentence_elsewhere(texts, tmp_path, command, args):
    ref, hyp = texts
    res = run(command, ref, "-i", hyp, *args, *(("--model", tmp_path) if command == "bertscore" else ()))
    assert res.exit_code == 2 and "sacrebleu's" in res.stderr
    assert "cannot be reproduced" not in res.stderr and OFFERED not in res.stderr


def test_the_sentence_says_what_the_commands_do(texts):
    """What the sentence states holds: the refusal of --normalize lower with --preset sacrebleu-zh uses the same
    words, and the command offered runs and lowercases (the same score on mixed-case and on lowercased input; the
    signature as quoted)."""
    import re

    ref, hyp = texts
    res = run("bleu", ref, "-i", hyp, "--preset", "sacrebleu-zh", "--normalize", "lower")
    assert res.exit_code == 2
    said = run("bleu", ref, "-i", hyp, "--preset", "sacrebleu-zh", "-lc").stderr
    refusal = re.search(r"reproduces (.*? exactly and takes no options, whatever their value)", res.stderr).group(1)
    assert refusal in " ".join(said.split())
    mixed, lower = ref.parent / "mixed.txt", ref.parent / "lower.txt"
    mixed.write_text("今天AI很好 Hello\n我们去Park\n", encoding="utf-8")
    lower.write_text("今天ai很好 hello\n我们去park\n", encoding="utf-8")
    a = run("bleu", ref, "-i", mixed, "-t", "char", "--normalize", "lower", "-b", "-w", 6)
    b = run("bleu", ref, "-i", lower, "-t", "char", "--normalize", "lower", "-b", "-w", 6)
    assert a.exit_code == 0 and a.stdout == b.stdout, (a.output, b.output)
    res = run("bleu", ref, "-i", mixed, "-t", "char", "--normalize", "lower", "-f", "json")
    assert "tok:zh-char|norm:lower|case:lc" in res.stdout

