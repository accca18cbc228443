"""README.md stays true: its quick start is two commands that .ci/run uses, and its Python examples run."""

from __future__ import annotations

import os
import re
from pathlib import Path

from helpers import REPO
from helpers.docs import doc_section as section

README = (REPO / "README.md").read_text(encoding="utf-8")




def test_quick_start_is_exactly_two_commands_and_ci_runs_the_test_one():
    block = re.search(r"```bash\n(.*?)```", section("## Quick start"), flags=re.S).group(1)
    commands = [line.split("#")[0].strip() for line in block.splitlines() if line.split("#")[0].strip()]
    assert commands == ["python3 dev.py demo", "python3 dev.py test"]
    ci = (REPO / ".ci" / "run").read_text()
    assert "python3 dev.py test" in ci


def test_metric_modules_example_runs_from_repo_root():
    code = re.search(r"```python\n(.*?)```", section("## The metric modules"), flags=re.S).group(1)
    cwd = os.getcwd()
    os.chdir(REPO)  # the example uses ./metrics/... relative to the repository root, as documented
    try:
        ns: dict = {}
        exec(compile(code, "README:metric-modules", "exec"), ns)
    finally:
        os.chdir(cwd)
    r = ns["rouge"].compute(predictions=ns["predictions"], references=ns["references"])
    b = ns["bleu"].compute(predictions=ns["predictions"], references=ns["references"], tokenizer="jieba")
    assert set(r) >= {"rouge1", "rouge2", "rougeL", "rougeLsum", "signature"}
    assert r["signature"].startswith("nrefs:var|tok:zh-char|")
    assert b["signature"].startswith("nrefs:var|tok:jieba-0.42.1+")
    # item 1, rouge1 by hand: 猫坐在垫子上 (6 chars) vs 猫趴在垫子上面 (7): 5 shared → P 5/6, R 5/7, F 10/13
    single = ns["rouge"].compute(predictions=ns["predictions"][:1], references=ns["references"][:1])
    assert abs(single["rouge1"] - 10 / 13) < 1e-12


def test_tokenizer_example_output():
    block = re.findall(r"```python\n(.*?)```", section("# Normalisation and tokenisation"), flags=re.S)[0]
    code, expected = block.rsplit("\n# ", 1)
    ns: dict = {}
    exec(compile(code.rsplit("\n", 1)[0], "README:tokenizer", "exec"), ns)
    assert repr(ns["tok"]("请打开小黄鸭APP查快递柜取件码！")) == expected.strip()


def test_library_example_runs_and_equals_the_modules():
    block = re.search(r"```python\n(.*?)```", section("## The library"), flags=re.S).group(1)
    ns: dict = {}
    exec(compile(block, "README:library", "exec"), ns)
    import zheval

    p, r = ns["predictions"], ns["references"]
    # item 1, rouge1 by hand (as above): F = 10/13; the joint call equals the separate calls
    assert abs(zheval.compute_rouge(p[:1], r[:1])["rouge1"] - 10 / 13) < 1e-12
    both = zheval.score(p, r)
    assert both["rouge"] == zheval.compute_rouge(p, r) and both["bleu"] == zheval.compute_bleu(p, r)
    line = next(ln for ln in block.splitlines() if "get_tokenizer" in ln)
    code, expected = line.split("  # ")
    assert repr(eval(code, ns)) == expected.strip()


def test_explain_example_runs_and_its_comments_are_true(capsys):
    block = re.search(r"```python\n(.*?)```", section("## Why this number (explain)"), flags=re.S).group(1)
    ns: dict = {}
    exec(compile(block, "README:explain", "exec"), ns)
    lines = capsys.readouterr().out.splitlines()
    # 请把包裹放进智能柜 vs 请把包裹放进快递柜: 7 of 9 characters shared, F = 7/9 = 0.7778; vs 包裹放在快递柜里 F = 8/17
    assert lines[0] == "multi_ref='max': reference 1 has the highest F (0.7778) of 2 references"
    assert [g["ngram"] for g in ns["rouge1"]["per_reference"][0]["unmatched_prediction"]] == [["智"], ["能"]]
    # BLEU against both references: clipped matches / totals per order, by hand 7/9, 5/8, 4/7, 3/6
    assert [(o["matches"], o["total"]) for o in ns["e"]["bleu"]["orders"]] == [(7, 9), (5, 8), (4, 7), (3, 6)]
    import zheval

    assert ns["e"]["bleu"]["sentence_bleu"] == zheval.compute_bleu(
        ["请把包裹放进智能柜"], [["请把包裹放进快递柜", "包裹放在快递柜里"]], level="sentence")["scores"][0]

def test_leaderboard_presets_example_equals_the_real_code():
    """The README's leaderboard example runs, and its numbers are the harnesses' own (their code, verbatim, in
    tests/oracles: OpenCompass and GLM-4 in process, LongBench in a subprocess with pltrdy's rouge)."""
    import tempfile

    from oracles.harness_rouge import JiebaRougeEvaluator, glm4_compute_metrics
    from oracles.longbench_runner import run_longbench

    block = re.search(r"```python\n(.*?)```", section("## Leaderboard presets"), flags=re.S).group(1)
    ns: dict = {}
    exec(compile(block, "README:leaderboard-presets", "exec"), ns)
    preds, refs = ns["predictions"], ns["references"]
    single = [r[0] for r in refs]
    theirs = JiebaRougeEvaluator().score(preds, single)
    assert (ns["oc"]["opencompass_rouge1"], ns["oc"]["opencompass_rougeL"]) == (theirs["rouge1"], theirs["rougeL"])
    means, _ = glm4_compute_metrics(preds, single)
    assert ns["glm_rouge"]["glm4_rouge_1"] == float(means["rouge-1"])
    assert ns["glm_bleu"]["glm4_bleu_4"] == float(means["bleu-4"])
    with tempfile.TemporaryDirectory() as tmp:
        assert ns["lb"]["longbench_rouge_l"] == run_longbench(Path(tmp), preds, refs)["score"]
    assert "|preset:longbench|" in ns["lb"]["signature"]


def test_readme_is_a_short_front_door():
    assert len(README.splitlines()) <= 300


def test_first_look_python_examples_run_and_their_comments_are_true(capsys):
    blocks = re.findall(r"```python\n(.*?)```", section("## A first look"), flags=re.S)
    assert len(blocks) == 2
    ns: dict = {}
    exec(compile(blocks[0], "README:first-look-library", "exec"), ns)
    rouge_line = capsys.readouterr().out.splitlines()[0]
    # item 1 by hand: 猫坐在垫子上 (6 chars) vs 猫趴在垫子上面 (7): 5 shared → F 10/13; item 2: 不客气，祝您玩得愉快！
    # (11 tokens) best against 不用客气，祝您愉快！ (10): 不 客 气 ， 祝 您 愉 快 ！ = 9 shared → F 18/21
    assert rouge_line.startswith(f"{round((10 / 13 + 18 / 21) / 2, 4)} ['nrefs:var', 'tok:zh-char']")
    import zheval

    assert ns["both"]["bleu"] == zheval.compute_bleu(ns["predictions"], ns["references"])
    exec(compile(blocks[1], "README:first-look-explain", "exec"), {})
    # 请把包裹放进智能柜 vs 请把包裹放进快递柜: 7 of 9 characters shared, F = 7/9
    assert capsys.readouterr().out.strip() == "multi_ref='max': reference 1 has the highest F (0.7778) of 2 references"


def test_first_look_commands_run(tmp_path, monkeypatch):
    import shutil

    from helpers.cli import run_cli
    from zheval.adapters.duck import sample_files

    with sample_files() as f:
        shutil.copy(f["data"], tmp_path / "test.jsonl")
        for name in ("preds.jsonl", "A.jsonl"):
            shutil.copy(f["predictions"], tmp_path / name)
        shutil.copy(f["predictions_short"], tmp_path / "B.jsonl")
    data = [__import__("json").loads(x) for x in (tmp_path / "test.jsonl").read_text("utf-8").splitlines() if x]
    preds = {__import__("json").loads(x)["id"]: __import__("json").loads(x)["prediction"]
             for x in (tmp_path / "preds.jsonl").read_text("utf-8").splitlines() if x}
    # every item, the one with an empty prediction too (line 59 of hyp.txt, as a newcomer makes the files: issue 35
    # P1): the README's "= sacrebleu ... -b" must hold on it
    assert sum(1 for r in data if not preds[r["id"]].strip()) == 1
    (tmp_path / "ref.txt").write_text("".join(r["responses"][0] + "\n" for r in data), encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("".join(preds[r["id"]] + "\n" for r in data), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    block = re.search(r"```bash\n(.*?)```", section("## A first look"), flags=re.S).group(1)
    lines = [ln.split("  #")[0].strip() for ln in block.splitlines() if ln.strip()]
    assert len(lines) == 5
    import shlex

    for line in lines:
        args = shlex.split(line)
        assert args[0] == "zheval"
        extra = {"score": ["--bootstrap", "0"], "compare": ["--resamples", "200"]}.get(args[1], [])
        res = run_cli(*args[1:], *extra)
        assert res.exit_code == 0, (line, res.output)
        if args[1] == "bleu":  # the comment's claim, checked against sacrebleu itself
            import subprocess
            import sys

            want = subprocess.run([sys.executable, "-m", "sacrebleu", "ref.txt", "-i", "hyp.txt", "--tokenize", "zh",
                                   "-b"], capture_output=True, text=True, check=True).stdout
            assert res.stdout == want, (res.stdout, want)
    assert (tmp_path / "report.html").is_file()
