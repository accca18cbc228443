"""docs/html_report.md's first command works as written in a clone: ``zheval score`` of the 小黄鸭 sample and its
predictions shipped in ``zheval/data/`` (paths relative to the clone's top folder) writes the HTML report. Only the
output file is moved to the test's folder."""

from __future__ import annotations

from helpers import REPO
from helpers.cli import run_cli
from helpers.docs import zheval_commands

PAGE = REPO / "docs" / "html_report.md"


def test_the_pages_first_command_is_the_clone_sample():
    first = zheval_commands(PAGE.read_text(encoding="utf-8"))[0]
    assert first == ["score", "--data", "zheval/data/duck_sample.jsonl", "--predictions",
                     "zheval/data/duck_sample_predictions.jsonl", "--html", "report.html"]
    for path in (first[2], first[4]):
        assert (REPO / path).is_file(), path


def test_the_pages_first_command_writes_the_report(tmp_path, monkeypatch):
    args = zheval_commands(PAGE.read_text(encoding="utf-8"))[0]
    out = tmp_path / "report.html"
    args[args.index("--html") + 1] = str(out)
    monkeypatch.chdir(REPO)
    res = run_cli(*args)
    assert res.exit_code == 0, res.output
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") or page.lstrip().lower().startswith("<!doctype html>")
    assert "ROUGE" in page.upper() and "BLEU" in page.upper()
