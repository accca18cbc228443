"""Options of the text-file commands that would change nothing are refused, and every door of a metric warns alike
(issue 35, break-it pass 5: F4, F7, F8, F9)."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_cli

# five unsegmented Chinese lines: tokenizer="none" sees one token per line
REFS = ["今天天气很好我们去公园", "明天会下雨记得带伞出门", "这家餐厅的菜非常好吃啊", "请在订单页面申请退货吧", "快递已经放在驿站了请取"]
HYPS = ["今天天气不错我们去公园", "明天下雨记得要带伞出门", "这家餐厅的菜很好吃的啊", "请在订单页申请退货谢谢", "快递已经到驿站了请去取"]


@pytest.fixture
def files(tmp_path):
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "hyp.txt"
    hyp2 = tmp_path / "hyp2.txt"
    ref.write_text("".join(t + "\n" for t in REFS), encoding="utf-8")
    hyp.write_text("".join(t + "\n" for t in HYPS), encoding="utf-8")
    hyp2.write_text("".join(t + "\n" for t in reversed(HYPS)), encoding="utf-8")
    return ref, hyp, hyp2


def test_chrf_command_warns_of_unsegmented_text_as_compute_chrf(files):
    """F9: chrF++ with --tokenizer none on unsegmented text warns at ``zheval chrf`` as compute_chrf does; chrF
    (no word n-grams) does not."""
    ref, hyp, _ = files
    res = run_cli("chrf", ref, "-i", hyp, "-cw", "2", "-t", "none", "-f", "text")
    assert res.exit_code == 0, res.output
    assert "zheval: warning: --tokenizer none splits on whitespace only" in res.stderr
    res = run_cli("chrf", ref, "-i", hyp, "-t", "none", "-f", "text")
    assert res.exit_code == 0, res.output
    assert "warning" not in res.stderr


@pytest.mark.parametrize("args, flag", [
    (["--punct", "drop"], "--punct drop"),
    (["-t", "jieba"], "--tokenizer jieba"),
    (["-t", "jieba", "--jieba-hmm"], "--jieba-hmm"),
    (["--terms", "TERMS"], "--terms"),
])
def test_chrf_command_refuses_word_options_without_word_order(files, tmp_path, args, flag):
    """F4: without --chrf-word-order these printed the very score of plain chrF."""
    ref, hyp, _ = files
    terms = tmp_path / "terms.txt"
    terms.write_text("天气\n", encoding="utf-8")
    args = [str(terms) if a == "TERMS" else a for a in args]
    res = run_cli("chrf", ref, "-i", hyp, *args, "-f", "text")
    assert res.exit_code == 2
    assert f"{flag} acts only on chrF++'s word n-grams" in res.stderr and "--chrf-word-order 2" in res.stderr
    res = run_cli("chrf", ref, "-i", hyp, *args, "-cw", "2", "-f", "text")
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("fmt", ["json", "table", "text"])
def test_bleu_paired_bs_signature_names_the_resamples_that_ran(files, fmt):
    """F8: with --paired-bs -pbsn 5 the JSON signature said bs:1000 (the interval's --bootstrap default) while the
    test ran 5 resamples; every format now says bs:5, the one count (sacrebleu's bs: under --paired-bs)."""
    ref, hyp, hyp2 = files
    res = run_cli("bleu", ref, "-i", hyp, hyp2, "--paired-bs", "-pbsn", "5", "-f", fmt)
    assert res.exit_code == 0, res.output
    assert "|bs:5|" in res.stdout and "bs:1000" not in res.stdout
    if fmt == "json":
        doc = json.loads(res.stdout)
        assert doc["paired"][0]["n_resamples"] == 5 and "|bs:5|" in doc["signature"]


def test_bleu_bootstrap_conflicting_with_paired_bs_is_refused(files):
    """F8: -f table --bootstrap 7 --paired-bs said bs:7 while the p-value used --paired-bs-n's 1000."""
    ref, hyp, hyp2 = files
    res = run_cli("bleu", ref, "-i", hyp, hyp2, "--paired-bs", "--bootstrap", "7", "-f", "table")
    assert res.exit_code == 2
    assert "--bootstrap 7 and --paired-bs-n 1000 disagree" in res.stderr
    res = run_cli("bleu", ref, "-i", hyp, hyp2, "--paired-bs", "--bootstrap", "7", "-pbsn", "7", "-f", "table")
    assert res.exit_code == 0, res.output
    assert "|bs:7|" in res.stdout


@pytest.mark.parametrize("command, args, count, why", [
    ("bleu", ["-f", "text"], "50", "-f text is sacrebleu's output, whose interval is --confidence (-ci) with "
                                   "--confidence-n resamples"),
    ("bleu", ["-f", "text", "-ci"], "50", "-f text is sacrebleu's output"),
    ("bleu", ["-f", "text", "--paired-bs"], "1000", "(--paired-bs-n under --paired-bs)"),
    ("bleu", ["-b"], "50", "which -b (the score only) does not print"),
    ("bleu", ["-b", "-ci"], "50", "which -b (the score only) does not print"),
    ("rouge", ["-b"], "77", "which -b (the score only) does not print: drop -b"),
])
def test_text_commands_refuse_a_bootstrap_nothing_uses(files, command, args, count, why):
    """Issue 35: --bootstrap is the resample count of zheval's percentile interval (-f table, -f json); -b prints
    the score only and -f text is sacrebleu's output, whose interval is --confidence with --confidence-n resamples
    (sacrebleu has no --bootstrap). ``bleu -f text --bootstrap 50`` and ``rouge -b --bootstrap 77`` printed what
    they print without it, and ``bleu -f text -ci --bootstrap 50`` said bs:1000 (-cin's default). Refused, naming the
    option as typed and pointing to --confidence-n; --bootstrap 0 (what runs there) passes."""
    ref, hyp, hyp2 = files
    hyps = [hyp, hyp2] if "--paired-bs" in args else [hyp]
    res = run_cli(command, ref, "-i", *hyps, *args, "--bootstrap", count)
    assert res.exit_code == 2, res.output
    assert "--bootstrap is the resample count of zheval's percentile interval" in res.stderr and why in res.stderr
    if command == "bleu":
        assert f"give --confidence --confidence-n {count}" in res.stderr
    if "--paired-bs" not in args:  # (under --paired-bs any other count than --paired-bs-n's is refused: F8)
        assert run_cli(command, ref, "-i", *hyps, *args, "--bootstrap", "0").exit_code == 0
    res = run_cli(command, ref, "-i", *hyps, *args)
    assert res.exit_code == 0, res.output


def test_bleu_text_confidence_n_is_the_count_that_runs(files):
    """What the error points to: -f text -ci -cin 50 runs 50 resamples, and the signature says bs:50."""
    ref, hyp, _ = files
    res = run_cli("bleu", ref, "-i", hyp, "-f", "text", "-ci", "-cin", "50")
    assert res.exit_code == 0, res.output
    assert "|bs:50|" in res.stdout and "bs:1000" not in res.stdout


def test_table_and_json_take_bootstrap(files):
    ref, hyp, _ = files
    for command in ("bleu", "rouge"):
        res = run_cli(command, ref, "-i", hyp, "--bootstrap", "50", "-f", "json")
        assert res.exit_code == 0, res.output
        assert "|bs:50|" in json.loads(res.stdout)["signature"]


@pytest.mark.parametrize("command, args, why", [
    ("bleu", ["--bootstrap", "0"], "--bootstrap 0"),
    ("rouge", ["--bootstrap", "0"], "--bootstrap 0"),
    ("bleu", ["-b"], "-b without --confidence"),
    # words13 F2: rouge has no --confidence, and its message named it
    ("rouge", ["-b"], "-b prints the scores alone: zheval rouge -b has no interval"),
    ("bleu", ["-f", "text"], "-f text without --confidence or a paired test"),
    ("chrf", [], "no --confidence, --paired-bs or --paired-ar"),
])
def test_text_commands_refuse_a_seed_nothing_uses(files, command, args, why):
    """F7: --seed with no resampling changed nothing and was accepted."""
    ref, hyp, _ = files
    res = run_cli(command, ref, "-i", hyp, "--seed", "5", *args)
    assert res.exit_code == 2
    assert f"--seed seeds the resampling, and none runs here ({why})" in res.stderr
    assert run_cli(command, ref, "-i", hyp, *args).exit_code == 0


def test_score_and_ceiling_refuse_a_seed_without_bootstrap(tmp_path):
    from helpers.cli import write_sample_files

    data, preds, _, _ = write_sample_files(tmp_path)
    for cmd, why in ((["score", "-d", data, "-p", preds], "--bootstrap 0, no --folds"),
                     (["ceiling", "-d", data], "--bootstrap 0")):
        res = run_cli(*cmd, "--seed", "5", "--bootstrap", "0")
        assert res.exit_code == 2, res.output
        assert f"--seed seeds the resampling, and none runs here ({why})" in res.stderr
        assert run_cli(*cmd, "--bootstrap", "0").exit_code == 0


def test_score_takes_a_seed_for_its_folds_without_bootstrap():
    """Break-it: ``score --folds 3 --seed 7 --bootstrap 0`` was refused ("none runs here"), yet --seed draws the
    folds (``default_rng(seed).permutation(n)``): it is accepted, and another seed gives other folds."""
    from zheval.adapters.duck import sample_files

    folds = {}
    with sample_files() as files:
        for seed in ("7", "8"):
            res = run_cli("score", "-d", files["data"], "-p", files["predictions"], "--folds", "3", "--seed", seed,
                          "--bootstrap", "0", "-q", "-f", "json")
            assert res.exit_code == 0, res.output
            folds[seed] = json.loads(res.stdout)["breakdowns"]["folds"]
    assert folds["7"]["seed"] == 7 and folds["8"]["seed"] == 8
    assert folds["7"]["sizes"] == [22, 22, 22]  # 66 items in 3 folds
    assert folds["7"]["metrics"]["bleu"]["folds"] != folds["8"]["metrics"]["bleu"]["folds"]


@pytest.mark.parametrize("command", ["bleu", "chrf"])
def test_resample_counts_without_their_flag_are_refused(files, command):
    """F7: --confidence-n without --confidence, --paired-bs-n / --paired-ar-n without their test."""
    ref, hyp, hyp2 = files
    for flag, needs in (("-cin", "--confidence-n is the resample count of --confidence; add --confidence"),
                        ("-pbsn", "--paired-bs-n is the resample count of --paired-bs; add --paired-bs"),
                        ("-parn", "--paired-ar-n is the trial count of --paired-ar; add --paired-ar")):
        res = run_cli(command, ref, "-i", hyp, hyp2, flag, "50", "-f", "json")
        assert res.exit_code == 2, (flag, res.output)
        assert needs in res.stderr


def test_rouge_sentence_split_without_rougelsum_is_refused(files):
    """F7: --sentence-split without rougeLsum in the ROUGE types (the command's default types have none)."""
    ref, hyp, _ = files
    res = run_cli("rouge", ref, "-i", hyp, "--sentence-split", "newline", "-b")
    assert res.exit_code == 2
    assert "--sentence-split splits the sentences of rougeLsum, which the ROUGE types computed do not name " \
           "(rouge1,rouge2,rougeL)" in res.stderr


def test_rouge_newline_split_on_text_files_says_lsum_is_rougel(files, tmp_path):
    """F7: a line of a text file holds no newline: with newline splitting each segment is one sentence, so
    ROUGE-Lsum = ROUGE-L (LCS of the whole segment), said in a note; punct splitting says nothing."""
    ref, hyp, _ = files
    res = run_cli("rouge", ref, "-i", hyp, "--rouge-types", "rougeL,rougeLsum", "--sentence-split", "newline", "-b")
    assert res.exit_code == 0, res.output
    assert "ROUGE-Lsum equals ROUGE-L here" in res.stderr
    low, lsum = res.stdout.split()
    assert low == lsum
    res = run_cli("rouge", ref, "-i", hyp, "--rouge-types", "rougeL,rougeLsum", "--sentence-split", "punct", "-b")
    assert res.exit_code == 0 and "ROUGE-Lsum equals" not in res.stderr


def test_warmup_refuses_markdown():
    """F7: zheval warmup -f markdown printed the table (its help says table | json)."""
    res = run_cli("warmup", "-f", "markdown")
    assert res.exit_code == 2 and "'markdown' is not one of 'table', 'json'" in res.output


@pytest.mark.parametrize("value", ["", " "])
def test_a_blank_by_is_refused(tmp_path, value):
    """F7: --by '' meant the overall row only without a word, while --by domain, was refused; 'none' says it."""
    from helpers.cli import write_sample_files

    data, preds, _, _ = write_sample_files(tmp_path)
    res = run_cli("score", "-d", data, "-p", preds, "--bootstrap", "0", "--by", value)
    assert res.exit_code == 2
    assert f"--by {value!r} names nothing; give a comma list, or 'none' for none" in res.stderr
    assert run_cli("score", "-d", data, "-p", preds, "--bootstrap", "0", "--by", "none").exit_code == 0


def test_agree_refuses_a_seed_without_bootstrap(tmp_path):
    """``agree --bootstrap 0 --seed 3`` was accepted in both modes while ``ceiling`` refused it; refused before any
    file is read. In the three-layer mode --seed is also sent with each live judge request, so with --judge-url it
    is in use (the error is then the missing file's, not the seed's)."""
    missing = tmp_path / "missing.csv"
    for args, why in ((["--ratings", missing, "--key", tmp_path / "key.json"], "--bootstrap 0"),
                      (["--predictions", tmp_path / "p.jsonl", "--judge-ratings", missing],
                       "--bootstrap 0, and no --judge-url to send it to")):
        res = run_cli("agree", *args, "--bootstrap", "0", "--seed", "3")
        assert res.exit_code == 2, res.output
        assert f"--seed seeds the resampling, and none runs here ({why}): leave --seed out" in res.stderr
        res = run_cli("agree", *args, "--bootstrap", "0")  # without --seed: on to the files (missing here)
        assert res.exit_code == 2 and "none runs here" not in res.stderr and "not found" in res.stderr, res.output
        res = run_cli("agree", *args, "--bootstrap", "10", "--seed", "3")  # the files again
        assert res.exit_code == 2 and "none runs here" not in res.stderr and "not found" in res.stderr, res.output


def test_agree_takes_a_seed_without_bootstrap_for_a_live_judge(tmp_path):
    """With --judge-url, --seed is sent with each judge request: in use without resampling (the error is then the
    missing file's, not the seed's). Needs the judge extra (openai), checked before the files."""
    pytest.importorskip("openai")
    res = run_cli("agree", "--predictions", tmp_path / "p.jsonl", "--judge-url", "http://127.0.0.1:9/v1",
                  "--judge-model", "m", "--bootstrap", "0", "--seed", "3")
    assert res.exit_code == 2 and "none runs here" not in res.stderr and "not found" in res.stderr, res.output
