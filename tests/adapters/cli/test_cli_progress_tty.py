"""Progress bars are shown only when stderr is a terminal, as tqdm's ``disable=None`` (break-it 18 C: ``scoring:
0%|…`` went to a log file or CI without ``-q``); ``-q`` turns them off everywhere, ``demo`` included (it had
``--progress`` instead)."""

from __future__ import annotations

import io
import json

import pytest

from helpers.cli import run_cli as run
from helpers.cli import write_jsonl


def _records(tmp_path):
    return write_jsonl(tmp_path / "r.jsonl", [
        {"id": str(i), "prediction": p, "references": [r]} for i, (p, r) in
        enumerate([("今天天气很好", "今天天气不错"), ("明天下雨", "明天会下雨"), ("好的", "好")])])


@pytest.fixture()
def bars_on():
    import datasets

    was = datasets.is_progress_bar_enabled()
    datasets.enable_progress_bars()  # as a fresh process starts
    yield
    (datasets.enable_progress_bars if was else datasets.disable_progress_bars)()


def test_no_bar_when_stderr_is_not_a_terminal(tmp_path, bars_on, monkeypatch):
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    monkeypatch.delenv("ZHEVAL_PROGRESS", raising=False)
    rec = _records(tmp_path)
    for args in (("score", "-p", rec, "--items", "--bootstrap", 20),
                 ("score", "--data", tmp_path / "none.jsonl", "-p", rec)):  # the second fails: no bar either
        res = run(*args)
        assert "%|" not in res.stderr and "scoring" not in res.stderr, res.stderr


def test_progress_wanted_follows_the_terminal_and_quiet(monkeypatch):
    from zheval.cli.options import progress_wanted

    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    monkeypatch.delenv("ZHEVAL_PROGRESS", raising=False)
    monkeypatch.setattr("sys.stderr", Tty())
    assert progress_wanted(False) and not progress_wanted(True)
    monkeypatch.setenv("ZHEVAL_PROGRESS", "0")
    assert not progress_wanted(False)
    monkeypatch.setattr("sys.stderr", io.StringIO())
    monkeypatch.delenv("ZHEVAL_PROGRESS")
    assert not progress_wanted(False)


def test_demo_takes_quiet_like_every_command():
    res = run("demo", "-q", "--bootstrap", 0, "-f", "json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["title"].startswith("zheval demo") and "%|" not in res.stderr
