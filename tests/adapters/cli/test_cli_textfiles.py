"""``zheval bleu`` / ``zheval rouge`` on text files, sacrebleu's conventions: numbers against sacrebleu's own command
line (``--tokenize zh``, ``--paired-bs``) and rouge-score fed the same tokens, on the shared real CSL and CrossWOZ
data; stdin, several systems, -b, -w, --scale, --format json; bad files named file:line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from helpers.cli import run_cli as run
from zheval.cli.textfiles import spread_inputs
from zheval.text.normalize import BLANK_SCORED


def sacrebleu_cli(*args, seed: int = 12345) -> str:
    """stdout of sacrebleu's own command line (``SACREBLEU_SEED=seed``, its default 12345)."""
    res = subprocess.run([sys.executable, "-m", "sacrebleu", *map(str, args)], capture_output=True, text=True,
                         check=True, env={**os.environ, "SACREBLEU_SEED": str(seed)})
    return res.stdout


def write_lines(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture()
def csl_files(tmp_path, csl_rows):
    """Real CSL rows: reference = the paper title; system A = the abstract's first len(title) characters, system B =
    its first clause (up to the first comma). 300 rows; texts have no line break (checked)."""
    rows = csl_rows[:300]
    titles = [r["summary"] for r in rows]
    a = [r["document"][:len(r["summary"])] for r in rows]
    b = [r["document"].replace("，", ",").split(",")[0][:60] for r in rows]
    for t in titles + a + b:
        assert "\n" not in t and t.strip()
    return (write_lines(tmp_path / "ref.txt", titles), write_lines(tmp_path / "a.txt", a),
            write_lines(tmp_path / "b.txt", b), titles, a, b)


def test_preset_sacrebleu_zh_equals_the_sacrebleu_command(csl_files):
    ref, a, _, *_ = csl_files
    for width in (1, 4):
        want = sacrebleu_cli(ref, "-i", a, "--tokenize", "zh", "-b", "-w", width)
        got = run("bleu", ref, "-i", a, "--preset", "sacrebleu-zh", "-b", "-w", width)
        assert got.exit_code == 0, got.output
        assert got.stdout == want  # the same text: "12.3\n"
    full = json.loads(sacrebleu_cli(ref, "-i", a, "--tokenize", "zh", "-w", 10))
    mine = json.loads(run("bleu", ref, "-i", a, "--preset", "sacrebleu-zh", "-f", "json", "-w", 10).stdout)
    assert abs(mine["systems"][0]["scores"]["bleu"] - full["score"]) < 1e-8
    assert "preset:sacrebleu-zh" in mine["signature"] or "sacrebleu-zh" in mine["signature"]


def test_several_reference_files_and_systems_equal_sacrebleu_paired_bs(tmp_path, crosswoz_groups):
    """Real CrossWOZ groups (3-5 replies each): system A = reply 1, system B = the query itself; references =
    replies 2 and 3 (two reference files)."""
    g = crosswoz_groups
    ref1 = write_lines(tmp_path / "ref1.txt", [r["responses"][1] for r in g])
    ref2 = write_lines(tmp_path / "ref2.txt", [r["responses"][2] for r in g])
    a = write_lines(tmp_path / "a.txt", [r["responses"][0] for r in g])
    b = write_lines(tmp_path / "b.txt", [r["query"] for r in g])
    sb = json.loads(sacrebleu_cli(ref1, ref2, "-i", a, b, "--tokenize", "zh", "--paired-bs", "-f", "json"))
    res = run("bleu", ref1, ref2, "-i", a, b, "--preset", "sacrebleu-zh", "-f", "json", "-w", 12)
    assert res.exit_code == 0, res.output
    mine = json.loads(res.stdout)
    assert mine["segments"] == 85 and mine["references"] == [str(ref1), str(ref2)]
    assert mine["signature"].startswith("nrefs:2|")
    sa, sb_ = mine["systems"]
    assert abs(sa["scores"]["bleu"] - sb[0]["BLEU"]["score"]) < 1e-9
    assert abs(sb_["scores"]["bleu"] - sb[1]["BLEU"]["score"]) < 1e-9
    (pair,) = mine["paired"]
    assert pair["system"] == str(b) and pair["baseline"] == str(a) and pair["metric"] == "bleu"
    assert pair["p_value"] == pytest.approx(sb[1]["BLEU"]["p_value"], abs=1e-15)
    assert abs(pair["delta"] - (sb[1]["BLEU"]["score"] - sb[0]["BLEU"]["score"])) < 1e-9
    assert pair["delta_low"] <= pair["delta"] <= pair["delta_high"]
    table = run("bleu", ref1, ref2, "-i", a, b, "--preset", "sacrebleu-zh")
    assert "(baseline)" in table.stdout and "signature: nrefs:2|" in table.stdout and "paired bootstrap" in table.stdout


def test_rouge_equals_rouge_score_fed_the_same_tokens(csl_files):
    from rouge_score import rouge_scorer

    import zheval

    ref, a, _, titles, hyps, _ = csl_files
    tok = zheval.get_tokenizer("char")

    class Tokens:
        def tokenize(self, text):
            return list(tok(text))

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=Tokens())
    scores = [scorer.score(t, h) for t, h in zip(titles, hyps)]  # target first
    res = run("rouge", ref, "-i", a, "--scale", "1", "-w", 15, "-f", "json", "--bootstrap", 0)
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)["systems"][0]["scores"]
    for t in ("rouge1", "rouge2", "rougeL"):
        want = sum(s[t].fmeasure for s in scores) / len(scores)
        assert abs(got[t] - want) < 1e-12, t
    assert json.loads(res.stdout)["scale"] == "0-1"


def test_rouge_types_multi_ref_and_the_100_scale(tmp_path):
    # by hand: hyp 猫坐在垫子上 (6 chars) vs 猫趴在垫子上面 (7): 5 shared unigrams → P 5/6, R 5/7, F 10/13
    ref = write_lines(tmp_path / "r.txt", ["猫趴在垫子上面"])
    ref2 = write_lines(tmp_path / "r2.txt", ["狗在门口"])
    hyp = write_lines(tmp_path / "h.txt", ["猫坐在垫子上"])
    res = run("rouge", ref, ref2, "-i", hyp, "--rouge-types", "rouge1", "-b", "-w", 6)
    assert res.stdout == f"{100 * 10 / 13:.6f}\n"
    # mean over the two references: 猫坐在垫子上 vs 狗在门口 shares 在 → P 1/6, R 1/4, F 2/10
    res = run("rouge", ref, ref2, "-i", hyp, "--rouge-types", "rouge1", "--multi-ref", "mean", "-b", "-w", 6)
    assert res.stdout == f"{100 * (10 / 13 + 2 / 10) / 2:.6f}\n"
    res = run("rouge", ref, "-i", hyp, "--rouge-types", "rouge1,rougeL", "-b", "--scale", "1")
    assert res.stdout == f"{10 / 13:.4f} {10 / 13:.4f}\n"  # one line per system, the types in order


def test_stdin_equals_dash_i(csl_files):
    ref, a, *_ = csl_files
    by_file = run("bleu", ref, "-i", a, "-b", "-w", 8)
    by_stdin = run("bleu", ref, "-b", "-w", 8, input=a.read_text(encoding="utf-8"))
    dash = run("bleu", ref, "-i", "-", "-b", "-w", 8, input=a.read_text(encoding="utf-8"))
    assert by_file.exit_code == by_stdin.exit_code == dash.exit_code == 0
    assert by_file.stdout == by_stdin.stdout == dash.stdout
    js = json.loads(run("bleu", ref, "-f", "json", "--bootstrap", 0, input=a.read_text(encoding="utf-8")).stdout)
    assert js["systems"][0]["system"] == "<stdin>"


def test_bleu_options_reach_the_library(csl_files):
    import zheval

    ref, a, _, titles, hyps, _ = csl_files
    res = json.loads(run("bleu", ref, "-i", a, "-t", "jieba", "--smooth", "floor", "--max-order", 2, "--scale", "1",
                         "-w", 15, "-f", "json", "--bootstrap", 0).stdout)
    want = zheval.compute_bleu(hyps, [[t] for t in titles], tokenizer="jieba", smooth_method="floor", max_order=2)
    assert abs(res["systems"][0]["scores"]["bleu"] - want["bleu"]) < 1e-12
    assert res["signature"] == want["signature"]
    with_ci = json.loads(run("bleu", ref, "-i", a, "--bootstrap", 300, "--scale", "1", "-w", 15, "-f", "json").stdout)
    ci = zheval.compute_bleu(hyps, [[t] for t in titles], bootstrap=300)
    lo, hi = with_ci["systems"][0]["intervals"]["bleu"]
    assert abs(lo - ci["bleu_ci_low"]) < 1e-12 and abs(hi - ci["bleu_ci_high"]) < 1e-12


def test_ragged_reference_files_name_file_and_line(tmp_path):
    ref = write_lines(tmp_path / "ref.txt", ["一", "二", "三"])
    short = write_lines(tmp_path / "short.txt", ["一", "二"])
    hyp = write_lines(tmp_path / "hyp.txt", ["一", "二", "三"])
    res = run("bleu", ref, short, "-i", hyp)
    assert res.exit_code == 2
    assert (f"{short}: has 2 line(s) but {ref} has 3: line 3 of {ref} has no counterpart in {short}") in res.output
    long = write_lines(tmp_path / "long.txt", ["一", "二", "三", "四"])
    res = run("rouge", ref, "-i", long)
    assert res.exit_code == 2 and f"line 4 of {long} has no counterpart in {ref}" in res.output


def test_empty_lines_are_errors_naming_each_line(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("一\n\n三\n  \n", encoding="utf-8")
    hyp = write_lines(tmp_path / "hyp.txt", ["一", "二", "", "四"])
    res = run("bleu", ref, "-i", hyp)
    assert res.exit_code == 2
    assert "invalid text files: 3 problem(s)" in res.output
    assert f"{ref}:2: empty line: an empty reference cannot be scored" in res.output
    assert f"{ref}:4: empty line" in res.output
    assert f"{hyp}:3: empty line: an empty hypothesis; pass --allow-empty-hypotheses" in res.output


def test_allow_empty_hypotheses_scores_and_counts_them(tmp_path):
    import zheval

    ref = write_lines(tmp_path / "ref.txt", ["今天天气很好", "我爱北京"])
    hyp = write_lines(tmp_path / "hyp.txt", ["今天天气不错", ""])
    res = run("rouge", ref, "-i", hyp, "--allow-empty-hypotheses", "--rouge-types", "rouge1", "--scale", "1", "-w", 12)
    assert res.exit_code == 0, res.output
    want = zheval.compute_rouge(["今天天气不错", ""], ["今天天气很好", "我爱北京"], rouge_types=["rouge1"])["rouge1"]
    assert abs(want - (2 * (4 / 6) * (4 / 6) / (8 / 6)) / 2) < 1e-12  # item 1: 4 of 6 chars shared; item 2: 0
    assert f"{want:.12f}" in res.stdout and f"1 empty hypothesis line(s) ({BLANK_SCORED})" in res.stdout


def test_preset_prediction_errors_name_the_hypothesis_file_and_line(tmp_path):
    # glm4 refuses a prediction with no token; the library says predictions[2] (0-based), the text door says which
    # file and line: the second system's third line (the first system has none empty)
    ref = write_lines(tmp_path / "ref.txt", ["今天天气很好", "我爱北京", "谢谢你"])
    a = write_lines(tmp_path / "a.txt", ["今天天气不错", "我爱上海", "谢谢"])
    b = write_lines(tmp_path / "b.txt", ["今天天气不错", "我爱上海", " "])
    res = run("rouge", ref, "-i", a, b, "--preset", "glm4", "--allow-empty-hypotheses")
    assert res.exit_code == 2, res.output
    assert f"1 prediction(s) are empty after .strip(): {b}:3." in res.stderr
    assert "predictions[" not in res.stderr and f"{a}:" not in res.stderr


@pytest.mark.parametrize("args, expected", [
    (["bleu", "--preset", "nope"], "unknown --preset 'nope' for zheval bleu; valid: sacrebleu-zh"),
    (["bleu", "--preset", "rouge155"], "rouge155 is a ROUGE preset: use zheval rouge --preset rouge155"),
    (["rouge", "--preset", "sacrebleu-zh"], "sacrebleu-zh is a BLEU preset: use zheval bleu --preset sacrebleu-zh"),
    (["bleu", "-t", "whitespace"], "unknown -t/--tokenizer 'whitespace'"),
    (["bleu", "--scale", "10"], "--scale must be 100"),
    (["rouge", "--rouge-types", "rouge9x"], "rouge9x"),
    (["bleu", "--smooth", "magic"], "unknown --smooth 'magic'"),
    (["rouge", "--multi-ref", "best"], "unknown --multi-ref 'best'"),
])
def test_bad_options_exit_2_naming_the_option(tmp_path, args, expected):
    ref = write_lines(tmp_path / "ref.txt", ["今天天气很好"])
    hyp = write_lines(tmp_path / "hyp.txt", ["今天天气不错"])
    res = run(args[0], ref, "-i", hyp, *args[1:])
    assert res.exit_code == 2, res.output
    assert expected in res.output and "Traceback" not in res.output


def test_missing_files_encodings_and_duplicate_systems(tmp_path):
    ref = write_lines(tmp_path / "ref.txt", ["今天天气很好"])
    hyp = write_lines(tmp_path / "hyp.txt", ["今天天气不错"])
    res = run("bleu", tmp_path / "nope.txt", "-i", hyp)
    assert res.exit_code == 2 and "nope.txt" in res.output
    gbk = tmp_path / "gbk.txt"
    gbk.write_bytes("今天天气很好\n我爱北京\n".encode("gb18030"))
    res = run("bleu", gbk, "-i", hyp)
    assert res.exit_code == 2 and "GB18030" in res.output
    res = run("bleu", ref, "-i", hyp, hyp)
    assert res.exit_code == 2 and "more than once" in res.output
    crlf = tmp_path / "crlf.txt"
    crlf.write_bytes("\ufeff今天天气很好\r\n".encode("utf-8"))
    assert run("bleu", crlf, "-i", hyp, "-b").stdout == run("bleu", ref, "-i", hyp, "-b").stdout


@pytest.mark.parametrize("command", ["bleu", "rouge", "chrf"])
def test_stdin_given_twice_is_named(tmp_path, command):
    """'-' twice would read standard input twice, the second time empty ('no items in <stdin>' before; issue 35,
    break-it 5 F15): refused before anything is read, saying what '-' is."""
    ref = write_lines(tmp_path / "ref.txt", ["今天天气很好"])
    res = run(command, ref, "-i", "-", "-", input="今天天气不错\n")
    assert res.exit_code == 2 and "-i names ['-'] more than once" in res.output, res.output
    assert "'-' is standard input, which can be read once" in res.output and "no items" not in res.output


def test_several_systems_need_resamples(tmp_path):
    ref = write_lines(tmp_path / "ref.txt", ["今天天气很好", "我爱北京"])
    a = write_lines(tmp_path / "a.txt", ["今天天气不错", "我爱北京"])
    b = write_lines(tmp_path / "b.txt", ["今天", "北京"])
    res = run("rouge", ref, "-i", a, b, "--bootstrap", 0)
    assert res.exit_code == 2 and "--bootstrap must be ≥ 1" in res.output
    res = run("rouge", ref, "-i", a, b, "-b", "--rouge-types", "rouge1", "--scale", "1")
    assert res.exit_code == 0 and len(res.stdout.splitlines()) == 2


def test_spread_inputs_follows_sacrebleus_i_list():
    assert spread_inputs(["r.txt", "-i", "a", "b", "-b"]) == ["r.txt", "-i", "a", "-i", "b", "-b"]
    assert spread_inputs(["r.txt", "--input", "a", "-", "-w", "2"]) == ["r.txt", "--input", "a", "-i", "-", "-w", "2"]
    assert spread_inputs(["r1", "r2", "-b"]) == ["r1", "r2", "-b"]
    assert spread_inputs(["r", "-i", "a", "--", "b"]) == ["r", "-i", "a", "--", "b"]


def test_sentence_level_equals_sacrebleus_sentence_bleu(csl_files):
    import sacrebleu

    ref, a, b, titles, hyps, hyps_b = csl_files
    res = run("bleu", ref, "-i", a, b, "--preset", "sacrebleu-zh", "--level", "sentence", "-f", "json", "-w", 12)
    assert res.exit_code == 0, res.output
    mine = json.loads(res.stdout)
    for system, texts in zip(mine["systems"], (hyps, hyps_b)):
        want = sum(sacrebleu.sentence_bleu(h, [t], tokenize="zh").score for h, t in zip(texts, titles)) / len(titles)
        assert abs(system["scores"]["bleu"] - want) < 1e-9
    assert "level:sentence" in mine["signature"] and "eff:yes" in mine["signature"]
    (pair,) = mine["paired"]
    assert abs(pair["delta"] - (mine["systems"][1]["scores"]["bleu"] - mine["systems"][0]["scores"]["bleu"])) < 1e-9


def test_other_module_options_reach_the_library(csl_files):
    import zheval

    ref, a, _, titles, hyps, _ = csl_files
    refs = [[t] for t in titles]
    res = json.loads(run("rouge", ref, "-i", a, "--rouge-types", "rougeW,rougeLsum", "--beta", 2, "--rouge-w-weight",
                         1.5, "--sentence-split", "newline", "--scale", 1, "-w", 15, "-f", "json",
                         "--bootstrap", 0).stdout)
    want = zheval.compute_rouge(hyps, refs, rouge_types=["rougeW", "rougeLsum"], beta=2, rouge_w_weight=1.5,
                                sentence_split="newline")
    assert res["systems"][0]["scores"] == {k: round(want[k], 15) for k in ("rougeW", "rougeLsum")}
    assert res["signature"] == want["signature"]
    res = json.loads(run("bleu", ref, "-i", a, "--smooth", "add-k", "--smooth-value", 0.5, "--bp-ref-length", "none",
                         "--effective-order", "--scale", 1, "-w", 15, "-f", "json", "--bootstrap", 0).stdout)
    want = zheval.compute_bleu(hyps, refs, smooth_method="add-k", smooth_value=0.5, bp_ref_length="none",
                               effective_order=True)
    assert res["systems"][0]["scores"]["bleu"] == round(want["bleu"], 15) and res["signature"] == want["signature"]
    bad = run("bleu", ref, "-i", a, "--level", "word")
    assert bad.exit_code == 2 and "unknown --level 'word'; valid values: corpus, sentence" in bad.output


def test_two_reference_files_rouge_equals_rouge_score_multi(tmp_path, crosswoz_groups):
    """Real CrossWOZ groups: hypothesis = reply 1, references = replies 2 and 3; --multi-ref max (the default) keeps
    the best F per type, as rouge-score's score_multi does, on the same char tokens."""
    from rouge_score import rouge_scorer

    import zheval

    g = crosswoz_groups
    hyps = [r["responses"][0] for r in g]
    refs = [r["responses"][1:3] for r in g]
    ref1 = write_lines(tmp_path / "ref1.txt", [r[0] for r in refs])
    ref2 = write_lines(tmp_path / "ref2.txt", [r[1] for r in refs])
    hyp = write_lines(tmp_path / "hyp.txt", hyps)
    tok = zheval.get_tokenizer("char")

    class Tokens:
        def tokenize(self, text):
            return list(tok(text))

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=Tokens())
    scores = [scorer.score_multi(r, h) for r, h in zip(refs, hyps)]
    res = run("rouge", ref1, ref2, "-i", hyp, "--scale", "1", "-w", 15, "-f", "json", "--bootstrap", 0)
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)["systems"][0]["scores"]
    for t in ("rouge1", "rouge2", "rougeL"):
        assert abs(got[t] - sum(s[t].fmeasure for s in scores) / len(scores)) < 1e-12, t


def test_sentence_level_details_say_the_bp_is_a_mean(tmp_path):
    # sentence 1: 6 hypothesis chars against 7, BP = exp(1 - 7/6); sentence 2: 8 against 7, BP = 1; mean 0.9232
    import math

    from helpers.cli import run_cli

    ref, hyp = tmp_path / "r.txt", tmp_path / "h.txt"
    ref.write_text("今天天气很好呀\n好的，马上处理\n", encoding="utf-8")
    hyp.write_text("今天天气很好\n好的我马上处理吧\n", encoding="utf-8")
    res = run_cli("bleu", ref, "-i", hyp, "--level", "sentence")
    assert res.exit_code == 0, res.output
    want = (math.exp(1 - 7 / 6) + 1) / 2
    assert f"(means of the sentences; mean BP = {want:.3f}; corpus ratio = 1.000" in res.stdout


def test_longbench_preset_takes_its_own_rouge_type_and_score_points_to_it(tmp_path):
    # LongBench's rouge_zh_score is ROUGE-L only: without --rouge-types the preset's type is used
    from helpers.cli import run_cli

    ref, hyp = tmp_path / "r.txt", tmp_path / "h.txt"
    ref.write_text("今天天气很好\n我们去公园散步吧\n", encoding="utf-8")
    hyp.write_text("今天天气不错\n我们去公园吧\n", encoding="utf-8")
    res = run_cli("rouge", ref, "-i", hyp, "--preset", "longbench", "-f", "json")
    assert res.exit_code == 0, res.output
    import json

    import zheval

    got = json.loads(res.stdout)["systems"][0]["scores"]
    lib = zheval.compute_rouge(["今天天气不错", "我们去公园吧"], [["今天天气很好"], ["我们去公园散步吧"]], preset="longbench")
    assert list(got) == ["rougeL"] and got["rougeL"] == round(lib["rougeL"] * 100, 1)
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"predict": "好", "label": "好的"}, ensure_ascii=False) + "\n", encoding="utf-8")
    res = run_cli("score", "-p", data, "--preset", "longbench", "-q")
    assert res.exit_code == 2 and "zheval rouge REF.txt -i HYP.txt --preset longbench" in res.output


# ---------------------------------------------------------------------------------------------------------------
# sacrebleu's statistical flags and -f text (zheval.cli.resampling, shared with zheval chrf)


def _signature_fields(signature: str) -> dict:
    """``{key: value}`` of a signature (``NAME|`` in front allowed)."""
    return dict(f.split(":", 1) for f in signature.strip().split("|") if ":" in f)


def _after_signature(line: str) -> str:
    """What follows ``NAME|signature = `` on a sacrebleu score line (the signatures differ by design)."""
    return line.strip().split(" = ", 1)[1]


@pytest.mark.parametrize("width", [1, 4])
def test_text_line_and_confidence_equal_sacrebleu(csl_files, width):
    """-f text is sacrebleu's score line: after ``BLEU|<signature> = `` (zheval's signature) the score, μ ± CI
    (--confidence: sacrebleu's draws, --seed = SACREBLEU_SEED) and the precisions / BP are sacrebleu's text; -b too."""
    ref, a, *_ = csl_files
    for extra, seed in (([], 12345), (["--confidence"], 12345), (["--confidence", "--confidence-n", "300"], 7)):
        want = sacrebleu_cli(ref, "-i", a, "--tokenize", "zh", "-f", "text", "-w", width, *extra, seed=seed)
        got = run("bleu", ref, "-i", a, "--preset", "sacrebleu-zh", "-f", "text", "-w", width, *extra,
                  *(["--seed", seed] if extra else []))  # --seed without resampling is refused (break-it 5 F7)
        assert got.exit_code == 0, got.output
        assert got.stdout.startswith("BLEU|nrefs:1|") and "|tok:sacrebleu-zh|" in got.stdout
        assert _after_signature(got.stdout) == _after_signature(want)  # score (μ ± CI) precisions (BP ...)
        ours, theirs = _signature_fields(got.stdout.split(" = ")[0]), _signature_fields(want.split(" = ")[0])
        assert (ours.get("bs"), ours.get("seed")) == (theirs.get("bs"), theirs.get("seed"))  # the resampling named
        score_only = run("bleu", ref, "-i", a, "--preset", "sacrebleu-zh", "-b", "-w", width, *extra,
                         *(["--seed", seed] if extra else []))
        assert score_only.stdout == sacrebleu_cli(ref, "-i", a, "--tokenize", "zh", "-b", "-w", width, *extra,
                                                  seed=seed)
        assert ("(μ = " in score_only.stdout) == bool(extra)


def _text_cells(text: str) -> list:
    """``[(score, mean, ci, p)]`` per system of zheval's -f text table (resampling.format_systems)."""
    cells = re.findall(r"^\s*(?:Baseline: )?\S+  ([\d.]+)(?: \(([\d.]+) ± ([\d.]+)\))?(?: \(p = ([\d.]+)\)\*?)?$",
                       text, flags=re.M)
    return [tuple(float(x) if x else None for x in c) for c in cells]


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_paired_tests_equal_sacrebleu(csl_files, test):
    """--paired-bs / --paired-ar, -f text (sacrebleu's table) and the table/JSON: scores, μ ± CI (bootstrap) and
    p-values are sacrebleu's (same draws, seed 12345) on the same real files."""
    ref, a, b, *_ = csl_files
    theirs = json.loads(sacrebleu_cli(ref, "-i", a, b, "--tokenize", "zh", f"--paired-{test}", "-f", "json"))
    text = run("bleu", ref, "-i", a, b, "--preset", "sacrebleu-zh", f"--paired-{test}", "-f", "text", "-w", 4)
    assert text.exit_code == 0, text.output
    ours = _text_cells(text.stdout)
    assert len(ours) == 2 and "Baseline: " in text.stdout
    their_sig = re.search(r"- BLEU\s+(\S+)", sacrebleu_cli(ref, "-i", a, b, "--tokenize", "zh", f"--paired-{test}",
                                                          "-f", "text", "--no-color")).group(1)
    our_sig = re.search(r"^signature: (\S+)", text.stdout, flags=re.M).group(1)
    assert {k: _signature_fields(our_sig)[k] for k in (test, "seed")} == \
        {k: _signature_fields(their_sig)[k] for k in (test, "seed")}  # bs:1000 or ar:10000, seed:12345
    for (score, mean, ci, p), row in zip(ours, theirs):
        want = row["BLEU"]
        assert score == round(want["score"], 4)
        assert (mean, ci) == ((round(want["mean"], 4), round(want["ci"], 4)) if test == "bs" else (None, None))
        assert (p is None and want["p_value"] is None) or p == round(want["p_value"], 4)
    doc = json.loads(run("bleu", ref, "-i", a, b, "--preset", "sacrebleu-zh", f"--paired-{test}", "-f", "json",
                         "-w", 12).stdout)
    (pair,) = doc["paired"]
    assert pair["test"] == test and pair["p_value"] == pytest.approx(theirs[1]["BLEU"]["p_value"], abs=1e-15)
    assert (pair["delta_low"] is None) == (test == "ar")
    table = run("bleu", ref, "-i", a, b, "--preset", "sacrebleu-zh", f"--paired-{test}").stdout
    assert (" p (AR)" in table) == (test == "ar") and f"{theirs[1]['BLEU']['p_value']:.4f}" in table


def test_confidence_in_the_table_and_json_is_sacrebleus(csl_files):
    ref, a, *_ = csl_files
    theirs = json.loads(sacrebleu_cli(ref, "-i", a, "--tokenize", "zh", "--confidence", "-w", 4))
    doc = json.loads(run("bleu", ref, "-i", a, "--preset", "sacrebleu-zh", "--confidence", "-f", "json",
                         "-w", 4).stdout)
    conf = doc["systems"][0]["confidence"]["bleu"]
    assert (conf["mean"], conf["ci"]) == (theirs["confidence_mean"], theirs["confidence_var"])
    table = run("bleu", ref, "-i", a, "--preset", "sacrebleu-zh", "--confidence", "-w", 4).stdout
    assert "μ ± 95% CI" in table and f"{theirs['confidence_mean']:.4f} ± {theirs['confidence_var']:.4f}" in table


def test_one_segment_has_no_interval_in_any_format(tmp_path):
    """sacrebleu prints ``μ = 40.0 ± 0.0`` for one segment and zheval bleu printed ``[40.0, 40.0]``: resampling one
    segment always returns it. Every format says "n=1, no interval" instead (zheval score's words), and two
    systems that differ on it get no p-value (the test would call p = 1/1001 significant)."""
    ref = write_lines(tmp_path / "ref.txt", ["今天天气很好，我们去公园散步。"])
    a = write_lines(tmp_path / "a.txt", ["今天天气不错，我们去公园。"])
    b = write_lines(tmp_path / "b.txt", ["明天下雨。"])
    outputs = {
        "table": run("bleu", ref, "-i", a),
        "text": run("bleu", ref, "-i", a, "-f", "text", "--confidence"),
        "b": run("bleu", ref, "-i", a, "-b", "--confidence"),
        "paired": run("bleu", ref, "-i", a, b, "-f", "text", "--paired-bs"),
        "paired table": run("bleu", ref, "-i", a, b, "--confidence"),
    }
    for name, res in outputs.items():
        assert res.exit_code == 0, res.output
        assert "n=1, no interval" in res.stdout, name
        assert not re.search(r"\[([\d.]+), \1\]|± 0\.0\b|\(p = ", res.stdout), (name, res.stdout)
    doc = json.loads(run("bleu", ref, "-i", a, b, "-f", "json", "--confidence").stdout)
    assert all(s["intervals"]["bleu"] is None and s["no_interval"].startswith("n=1: ") for s in doc["systems"])
    assert all("confidence" not in s for s in doc["systems"])
    (pair,) = doc["paired"]
    assert pair["p_value"] is None and pair["delta_low"] is None and pair["no_interval"].startswith("n=1")
    two = write_lines(tmp_path / "ref2.txt", ["今天天气很好，我们去公园散步。", "这个软件需要更新。"])
    res = run("bleu", two, "-i", write_lines(tmp_path / "a2.txt", ["今天天气不错，我们去公园。", "软件要更新了。"]))
    assert "no interval" not in res.stdout and re.search(r"\[[\d.]+, [\d.]+\]", res.stdout)


@pytest.mark.parametrize("args, expected", [
    (["--paired-bs"], "--paired-bs compares systems: give at least two -i files"),
    (["--paired-bs", "--paired-ar"], "mutually exclusive"),
    (["-f", "text", "--scale", "1"], "-f text is sacrebleu's output, on its 0–100 scale"),
    (["-f", "latex"], "latex"),
])
def test_statistical_flags_refuse_what_sacrebleu_refuses(tmp_path, args, expected):
    ref = write_lines(tmp_path / "ref.txt", ["今天天气很好", "我爱北京"])
    hyp = write_lines(tmp_path / "hyp.txt", ["今天天气不错", "我爱北京"])
    res = run("bleu", ref, "-i", hyp, *args)
    assert res.exit_code == 2 and expected in res.output and "Traceback" not in res.output


def test_a_removed_bom_is_noted_and_a_trailing_blank_line_is_named_as_a_line_too_many(tmp_path):
    import sacrebleu

    ref = write_lines(tmp_path / "ref.txt", ["今天天气不错", "我们去公园散步"])
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes("\ufeff今天天气很好\n我们去公园\n".encode("utf-8"))
    res = run("bleu", ref, "-i", hyp, "--preset", "sacrebleu-zh", "-b", "-w", "4")
    assert res.exit_code == 0, res.output
    # the BOM is removed (the score is sacrebleu's on the text without it) and said, since sacrebleu keeps it
    plain = sacrebleu.corpus_bleu(["今天天气很好", "我们去公园"], [["今天天气不错", "我们去公园散步"]], tokenize="zh")
    kept = sacrebleu.corpus_bleu(["\ufeff今天天气很好", "我们去公园"], [["今天天气不错", "我们去公园散步"]], tokenize="zh")
    assert res.stdout.strip() == f"{plain.score:.4f}" != f"{kept.score:.4f}"
    assert f"{hyp}: a UTF-8 byte-order mark (BOM) before line 1 was removed" in res.stderr
    assert "byte-order mark" not in run("bleu", ref, "-i", write_lines(tmp_path / "h.txt", ["今天", "公园"]), "-b").stderr
    # "…\n\n" at the end: one line too many, said beside the empty line (was: only "pass --allow-empty-hypotheses")
    extra = tmp_path / "extra.txt"
    extra.write_text("今天天气很好\n我们去公园\n\n", encoding="utf-8")
    res = run("bleu", ref, "-i", extra)
    assert res.exit_code == 2
    assert (f"{extra}: has 3 line(s) but {ref} has 2: line 3 of {extra} has no counterpart in {ref}" in res.output
            and "the extra line(s) of" in res.output and "a line break too many at the end?" in res.output)
