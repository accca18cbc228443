"""sacrebleu's other short flags typed to a zheval command that lacks them (break-it 18 C): click misread them
(``zheval rouge … -ci`` → ``No such option: -c``; ``-pbs`` → ``-p``; ``-nc 6`` → ``-n``; ``-s floor`` → ``-s``;
``-ol zh`` at a command with ``-o`` → an output file ``l``); each is now answered in zheval's terms, its own option
where the command has one, and a command's own flags keep working. The flags are read from sacrebleu's own argparse
(``sacrebleu/sacrebleu.py``), not from zheval's table."""

from __future__ import annotations

import ast
import json

import pytest
import typer

from helpers.cli import run_cli as run


@pytest.fixture()
def texts(tmp_path):
    ref, hyp, hyp2 = tmp_path / "ref.txt", tmp_path / "hypA.txt", tmp_path / "hypB.txt"
    ref.write_text("今天天气很好\n我们去公园\n明天可能下雨\n", encoding="utf-8")
    hyp.write_text("今天天气好\n我们去公园玩\n明天也许下雨\n", encoding="utf-8")
    hyp2.write_text("今天天气不错\n我们去公园\n明天下雨\n", encoding="utf-8")
    return ref, hyp, hyp2


@pytest.mark.parametrize("command, args, said", [
    ("rouge", ["-ci"], "-ci is sacrebleu's --confidence; zheval rouge has no confidence interval option: its "
                       "intervals are zheval's percentile bootstrap, --bootstrap N resamples; sacrebleu's μ ± CI is "
                       "zheval bleu -ci and zheval chrf -ci"),
    ("rouge", ["-cin", "100"], "-cin is sacrebleu's --confidence-n; zheval rouge has no confidence interval option"),
    ("bertscore", ["-ci"], "-ci is sacrebleu's --confidence; zheval bertscore has no confidence interval option; "
                           "sacrebleu's μ ± CI is zheval bleu -ci and zheval chrf -ci"),
    ("rouge", ["-pbs"], "-pbs is sacrebleu's --paired-bs; zheval rouge has no such option: several -i systems are "
                        "tested against the first with a paired bootstrap (--bootstrap N resamples)"),
    ("rouge", ["-par"], "-par is sacrebleu's --paired-ar; zheval rouge has no such option: several -i systems are "
                        "tested against the first with a paired bootstrap (--bootstrap N resamples), never "
                        "approximate randomisation"),
    ("chrf", ["-nc", "6"], "-nc is sacrebleu's --no-color; zheval prints no colours. The nc:N of sacrebleu's chrF "
                           "signature is the character order: --chrf-char-order N (-cc)"),
    ("chrf", ["-nw", "2"], "-nw is no option of sacrebleu's; the nw:N of its chrF signature is the word order: use "
                           "--chrf-word-order N"),
    ("bleu", ["-nw", "2"], "zheval bleu has no such option: zheval chrf --chrf-word-order N"),
    ("bleu", ["-s", "floor"], "-s is sacrebleu's --smooth-method: zheval bleu's is --smooth METHOD"),
    ("bleu", ["--smooth-method=floor"], "--smooth-method is sacrebleu's option: zheval bleu's is --smooth METHOD"),
    ("bleu", ["-sv", "0.1"], "-sv is sacrebleu's --smooth-value: use --smooth-value V"),
    ("rouge", ["-s", "floor"], "zheval rouge has no BLEU smoothing option: zheval bleu --smooth METHOD"),
    ("bleu", ["-cw", "2"], "-cw is sacrebleu's --chrf-word-order; zheval bleu has no such option: zheval chrf "
                           "--chrf-word-order N"),
    ("bleu", ["-cc6"], "-cc is sacrebleu's --chrf-char-order; zheval bleu has no such option"),
    ("bleu", ["-sl"], "-sl is sacrebleu's --sentence-level (a score per line); zheval bleu prints no score per "
                      "line; --level sentence scores the mean of sentence BLEU"),
    ("bleu", ["-nr", "2"], "zheval bleu reads one reference per line of each reference file: give each set as its "
                           "own file (zheval bleu REF1.txt REF2.txt -i HYP.txt)"),
    ("chrf", ["-e", "gbk"], "-e is sacrebleu's --encoding; zheval reads UTF-8 files only"),
    ("bleu", ["-q"], "-q is sacrebleu's --quiet; zheval bleu has no such option"),
    ("bleu", ["-j", "4"], "-j is sacrebleu's --paired-jobs; zheval bleu has no such option"),
])
def test_a_sacrebleu_flag_the_text_command_lacks_is_answered(texts, command, args, said):
    ref, hyp, _ = texts
    res = run(command, ref, "-i", hyp, *args)
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith("zheval: error: ") and said in res.stderr, res.stderr
    assert "No such option" not in res.output


def test_at_the_records_commands_too(texts, tmp_path):
    ref, hyp, _ = texts
    data = tmp_path / "pairs.jsonl"
    data.write_text(json.dumps({"prediction": "今天", "reference": "今天"}, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    for args, said in ((["-ci"], "-ci is sacrebleu's --confidence; zheval score has no confidence interval option: "
                                 "its intervals are zheval's percentile bootstrap, --bootstrap N resamples"),
                       (["-cw", "2"], "-cw is sacrebleu's --chrf-word-order: use --chrf-word-order N"),
                       (["-s", "floor"], "-s is sacrebleu's --smooth-method: zheval score's is --smooth METHOD"),
                       (["-sv", "0.1"], "zheval score has no smoothing value option (--smooth floor uses 0.1, add-k "
                                        "1: sacrebleu's defaults): zheval bleu --smooth-value V")):
        res = run("score", "-p", data, *args)
        assert res.exit_code == 2 and said in res.stderr, res.output
    # -ol was read as -o l: the report written to a file named 'l'
    res = run("score", "-p", data, "-ol", "zh")
    assert res.exit_code == 2 and "-ol is sacrebleu's --origlang (a subset of one of sacrebleu's test sets); zheval " \
                                  "has no test sets; scores per group of your items: --by FIELD" in res.stderr
    assert not (tmp_path / "l").exists()
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text(data.read_text(encoding="utf-8"), encoding="utf-8")
    b.write_text(data.read_text(encoding="utf-8"), encoding="utf-8")
    for args, said in ((["-pbs"], "-pbs is sacrebleu's --paired-bs: zheval compare's paired bootstrap is --test "
                                  "bootstrap (the default), with --bootstrap N resamples"),
                       (["-par"], "-par is sacrebleu's --paired-ar: zheval compare's is --test ar (--resamples N "
                                  "trials)"),
                       (["-parn", "100"], "-parn is sacrebleu's --paired-ar-n: zheval compare's is --test ar "
                                          "--resamples N")):
        res = run("compare", "-p", a, b, *args)
        assert res.exit_code == 2 and f"zheval: error: {said}" in res.stderr, res.output


def test_the_commands_own_flags_keep_working(texts):
    ref, hyp, hyp2 = texts
    res = run("chrf", ref, "-i", hyp, "-cc", "6", "-cw", "2", "-ci", "-cin", "20", "-b")
    assert res.exit_code == 0, res.output
    res = run("chrf", ref, "-i", hyp, hyp2, "-pbs", "-pbsn", "20", "-f", "text")
    assert res.exit_code == 0, res.output
    res = run("bleu", ref, "-i", hyp, hyp2, "-par", "-parn", "50", "-f", "text")
    assert res.exit_code == 0, res.output
    res = run("bleu", ref, "-i", hyp, "--smooth", "floor", "--smooth-value", "0.1", "-ci", "-cin", "20", "-b")
    assert res.exit_code == 0, res.output


def _sacrebleu_flags() -> set:
    """Every option string of sacrebleu's own command line: the ``add_argument`` calls of its ``parse_args``, read
    from its source, never imported (importing ``sacrebleu.sacrebleu`` sets SIGPIPE to SIG_DFL in the test process:
    a later test writing to a closed socket then kills pytest)."""
    from importlib.util import find_spec
    from pathlib import Path

    source = Path(find_spec("sacrebleu.sacrebleu").origin).read_text(encoding="utf-8")
    tree = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef) and n.name == "parse_args")
    return {a.value for node in ast.walk(tree) if isinstance(node, ast.Call)
            and getattr(node.func, "attr", "") == "add_argument"
            for a in node.args if isinstance(a, ast.Constant) and str(a.value).startswith("-")}


#: sacrebleu's flags with zheval's meaning where a command has them (-i, -b, -w, -f), its -t (test set: zheval's -t
#: is the tokenizer), -V, and the test-set and TER options (not flags click misreads).
LEFT = {"-i", "-b", "-w", "-f", "-t", "-V", "-h"}


def test_every_short_flag_of_sacrebleu_is_answered_where_a_command_lacks_it():
    from zheval.cli import app
    from zheval.cli.sacrebleu_flags import sacrebleu_flag_message

    short = {f for f in _sacrebleu_flags() if not f.startswith("--")} - LEFT
    assert {"-ci", "-cin", "-pbs", "-par", "-cc", "-cw", "-s", "-sv", "-nc", "-ol"} <= short
    group = typer.main.get_command(app)
    for name, cmd in group.commands.items():
        options = [p for p in cmd.params if getattr(p, "param_type_name", "") == "option"]
        own = [o for p in options for o in (*p.opts, *p.secondary_opts)]
        valued = [o for p in options if not p.is_flag and not p.count for o in p.opts]
        for flag in sorted(short - set(own)):
            assert sacrebleu_flag_message(name, [flag, "1"], own, valued) is not None, (name, flag)
        for flag in sorted(short & set(own)):  # the command's own: left to it
            assert sacrebleu_flag_message(name, [flag, "1"], own, valued) is None, (name, flag)


def test_bertscore_help_promises_no_paired_test():
    """``zheval bertscore --help`` said several -i systems were "each tested against the first (paired bootstrap)"
    (the text files' shared --input help), but bertscore scores each system on its own: no paired test is run."""
    res = run("bertscore", "--help")
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert "each scored on its own (no paired test)" in text and "paired bootstrap" not in text
