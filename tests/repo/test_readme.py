"""README.md stays true: its quick start is two commands that .ci/run uses, and its Python examples run."""

from __future__ import annotations

import os
import re
from helpers import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def section(heading: str) -> str:
    start = README.index(heading)
    nxt = re.search(r"^## ", README[start + len(heading):], flags=re.M)
    return README[start: start + len(heading) + (nxt.start() if nxt else len(README))]


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
    assert r["signature"].startswith("nrefs:var|tok:char|")
    assert b["signature"].startswith("nrefs:var|tok:jieba-0.42.1+")
    # item 1, rouge1 by hand: 猫坐在垫子上 (6 chars) vs 猫趴在垫子上面 (7): 5 shared → P 5/6, R 5/7, F 10/13
    single = ns["rouge"].compute(predictions=ns["predictions"][:1], references=ns["references"][:1])
    assert abs(single["rouge1"] - 10 / 13) < 1e-12


def test_tokenizer_example_output():
    block = re.findall(r"```python\n(.*?)```", section("## Normalisation and tokenisation"), flags=re.S)[0]
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
