"""README "Which door?": every row's example runs (on files made from the embedded 小黄鸭 sample), every link
reaches a section of a docs page, and the examples of the records and text-file sections run too, with their numbers
checked against the library and sacrebleu."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys

import pytest

from helpers import REPO
from helpers.docs import doc_section as section
from helpers.docs import page_headings
from helpers.cli import run_cli

README = (REPO / "README.md").read_text(encoding="utf-8")


def door_rows() -> list[dict]:
    rows = []
    for line in section("## Which door?").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("you have",) or set(cells[0]) <= {"-"}:
            continue
        link = re.fullmatch(r"\[(.+)\]\((docs/[^#)]+\.md)#(.+)\)", cells[3])
        assert link, f"the last cell of a door row is a link to a section of a docs page: {cells[3]!r}"
        code = re.fullmatch(r"`(.+)`", cells[2])
        rows.append({"have": cells[0], "example": code.group(1) if code else None, "title": link.group(1),
                     "page": link.group(2), "anchor": link.group(3)})
    return rows


@pytest.fixture()
def scenario(tmp_path, monkeypatch):
    """The files the examples name, made from the embedded sample (66 queries, baseline predictions)."""
    from zheval.adapters.duck import sample_files

    with sample_files() as files:
        data = [json.loads(x) for x in files["data"].read_text(encoding="utf-8").splitlines() if x.strip()]
        preds = {json.loads(x)["id"]: json.loads(x)["prediction"]
                 for x in files["predictions"].read_text(encoding="utf-8").splitlines() if x.strip()}
        short = {json.loads(x)["id"]: json.loads(x)["prediction"]
                 for x in files["predictions_short"].read_text(encoding="utf-8").splitlines() if x.strip()}
        (tmp_path / "test.jsonl").write_bytes(files["data"].read_bytes())
        (tmp_path / "preds.jsonl").write_bytes(files["predictions"].read_bytes())

    def lines(name, texts):
        (tmp_path / name).write_text("".join(t + "\n" for t in texts), encoding="utf-8")

    def jsonl(name, rows):
        (tmp_path / name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")

    p = [preds[r["id"]] for r in data]
    jsonl("generated_predictions.jsonl", [{"prompt": r["query"], "predict": preds[r["id"]], "label": r["responses"][0]}
                                          for r in data])
    jsonl("dump.jsonl", [{"qid": r["id"], "output": preds[r["id"]], "answers": r["responses"], "category": r["domain"]}
                         for r in data])
    import pandas as pd

    pd.DataFrame([{"output": preds[r["id"]], "ref1": r["responses"][0], "ref2": r["responses"][1]} for r in data]) \
        .to_csv(tmp_path / "sheet.csv", index=False)
    # text files: one line per segment, and an empty line is refused, so the sample's item with an empty
    # prediction (on purpose: the report counts it) is left out of them -- exactly one
    text = [r for r in data if preds[r["id"]].strip() and short[r["id"]].strip()]
    assert len(text) == len(data) - 1
    lines("ref.txt", [r["responses"][0] for r in text])
    lines("ref1.txt", [r["responses"][0] for r in text])
    lines("ref2.txt", [r["responses"][1] for r in text])
    lines("hyp.txt", [preds[r["id"]] for r in text])
    lines("sys_a.txt", [preds[r["id"]] for r in text])
    lines("sys_b.txt", [short[r["id"]] for r in text])
    monkeypatch.chdir(tmp_path)
    return {"dir": tmp_path, "data": data, "predictions": p}


def run_command(line: str):
    """Run one README command line (``zheval …``, optional ``< FILE``) with the app; returns the result."""
    line = line.split("  #")[0].strip()
    stdin = None
    if " < " in line:
        line, src = line.split(" < ")
        stdin = open(src.strip(), encoding="utf-8").read()
    args = shlex.split(line)
    assert args[0] == "zheval", line
    return run_cli(*args[1:], input=stdin)


def test_the_table_has_every_door_once():
    haves = " ".join(r["have"] for r in door_rows()).lower()
    for door in ("trainer", "evaluate", "小黄鸭", "jsonl", "text files", "lm-evaluation-harness", "opencompass",
                 "leaderboard"):
        assert door in haves, door
    assert len(door_rows()) == 8


@pytest.mark.parametrize("row", door_rows(), ids=lambda r: r["title"])
def test_each_row_links_a_docs_section(row):
    page = REPO / row["page"]
    assert page.is_file(), f"no docs page {row['page']}"
    headings = page_headings(page)
    assert row["anchor"] in headings, f"no heading with the anchor #{row['anchor']} in {row['page']}"
    assert headings[row["anchor"]].startswith(row["title"])


def test_command_rows_run(scenario):
    ran = 0
    for row in door_rows():
        if row["example"] and row["example"].startswith("zheval "):
            res = run_command(row["example"] + " -q" if " score " in row["example"] else row["example"])
            assert res.exit_code == 0, (row["example"], res.output)
            ran += 1
    assert ran == 3


def test_llamafactory_row_equals_the_library(scenario):
    import zheval

    (row,) = [r for r in door_rows() if "generated_predictions" in (r["example"] or "")]
    res = run_command(row["example"] + " -f json -q --bootstrap 0")
    got = json.loads(res.stdout)["groups"][0]["scores"]
    p, refs = scenario["predictions"], [[r["responses"][0]] for r in scenario["data"]]
    assert got["bleu"]["value"] == zheval.compute_bleu(p, refs)["bleu"]
    assert got["rougeL"]["value"] == zheval.compute_rouge(p, refs)["rougeL"]


def test_text_files_row_equals_sacrebleu(scenario):
    (row,) = [r for r in door_rows() if (r["example"] or "").startswith("zheval bleu")]
    res = run_command(row["example"] + " -b -w 6")
    want = subprocess.run([sys.executable, "-m", "sacrebleu", "ref.txt", "-i", "hyp.txt", "--tokenize", "zh", "-b",
                           "-w", "6"], capture_output=True, text=True, check=True).stdout
    assert res.stdout == want


def test_python_rows_run(scenario):
    from helpers.trainer_models import make_tokenizer

    rows = {r["title"]: r["example"] for r in door_rows()}
    os.chdir(REPO)  # the evaluate example loads ./metrics/... from the repository root, as documented
    ns: dict = {"tokenizer": make_tokenizer()}
    exec("import evaluate\nimport zheval\nfrom zheval.adapters.trainer import build_compute_metrics", ns)
    exec(rows["Use in a Trainer"], ns)
    assert callable(ns["compute_metrics"])
    r = eval(rows["The metric modules"], ns)
    assert abs(r["rouge1"] - 10 / 13) < 1e-12  # 猫坐在垫子上 vs 猫趴在垫子上面: 5 shared of 6 and 7 → F 10/13


@pytest.mark.parametrize("heading", ["## Any predictions file that carries its references",
                                     "## Text files, sacrebleu style"])
def test_section_commands_run(scenario, heading):
    block = re.search(r"```bash\n(.*?)```", section(heading), flags=re.S).group(1)
    commands = [line for line in block.splitlines() if line.strip()]
    assert len(commands) >= 3
    for line in commands:
        extra = " -q --bootstrap 0" if line.startswith("zheval score") else ""
        cmd = line.split("  #")[0].rstrip()
        res = run_command(cmd + extra if " < " not in cmd else cmd)
        assert res.exit_code == 0, (line, res.output)
        if "-b" in cmd.split():
            want = subprocess.run([sys.executable, "-m", "sacrebleu", "ref.txt", "-i", "hyp.txt", "--tokenize", "zh",
                                   "-b"], capture_output=True, text=True, check=True).stdout
            assert res.stdout == want  # the comment says "= sacrebleu ... -b"
