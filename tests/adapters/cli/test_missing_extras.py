"""A missing optional extra is one line (zheval/adapters/extras.py): the ``zheval`` command prints
``zheval: error: <what> needs <package> (the '<extra>' extra): pip install "zheval[<extra>]"`` on stderr and exits 2
(no traceback), and each library door raises :class:`MissingExtraError` naming the extra. A package is hidden with
``sys.modules[name] = None`` (``import name`` then raises ``ModuleNotFoundError`` for that name, as when it is not
installed).

Before the fix, ``zheval score --html`` without jinja2 ended in a 40-line traceback (``ModuleNotFoundError: the
HTML report needs jinja2``) after the scoring had run, and the Space door raised a bare ``ModuleNotFoundError: No
module named 'gradio'``.

The ``trainer`` extra (transformers, torch) has no door to test: the Trainer hook imports neither (it works on the
objects the Trainer gives it).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from helpers import REPO
from helpers.cli import ROWS, twin, write_jsonl
from zheval.adapters.extras import MissingExtraError
from zheval.cli import main


def sample(tmp_path):
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    preds = tmp_path / "preds.txt"
    preds.write_text("请在订单页申请退货。\n我陪着你，想聊聊吗？\n明天记得穿外套。\n", encoding="utf-8")
    return data, preds


def run_main(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main([str(a) for a in args])
    captured = capsys.readouterr()
    return exc.value.code, captured.out, captured.err


HTML_LINE = 'zheval: error: the HTML report (--html) needs jinja2 (the \'html\' extra): pip install "zheval[html]"\n'


def test_score_html_without_jinja2_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "jinja2", None)
    data, preds = sample(tmp_path)
    out = tmp_path / "report.json"
    code, stdout, stderr = run_main(["score", "-d", data, "-p", preds, "-q", "-f", "json", "-o", out,
                                     "--html", tmp_path / "r.html"], capsys)
    assert code == 2
    assert stderr == HTML_LINE
    assert not out.exists()  # refused before any scoring


def test_compare_html_without_jinja2_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "jinja2", None)
    data, preds = sample(tmp_path)
    code, _, stderr = run_main(["compare", "-d", data, "-p", preds, twin(preds), "-q", "--html", tmp_path / "c.html"],
                               capsys)
    assert code == 2
    assert stderr == HTML_LINE


def test_the_installed_command_prints_no_traceback(tmp_path):
    """The real process: the console script's ``main`` with jinja2 hidden before anything imports it."""
    data, preds = sample(tmp_path)
    code = "import sys; sys.modules['jinja2'] = None; from zheval.cli import main; main()"
    proc = subprocess.run([sys.executable, "-c", code, "score", "-d", str(data), "-p", str(preds), "-q",
                           "--html", str(tmp_path / "r.html")],
                          capture_output=True, text=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                          timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == HTML_LINE
    assert "Traceback" not in proc.stdout + proc.stderr


def test_html_library_door_raises_missing_extra(tmp_path, monkeypatch):
    from zheval.adapters.report.html_page import render_html, require_jinja2
    from zheval.adapters.records import read_records, score_records

    data, _ = sample(tmp_path)
    rows = [{"prediction": "请在订单页申请退货。", "references": r["responses"]} for r in ROWS]
    path = write_jsonl(tmp_path / "records.jsonl", rows)
    report = score_records(read_records(path), keep_items=True, bootstrap=0)
    monkeypatch.setitem(sys.modules, "jinja2", None)
    for door in (require_jinja2, lambda: render_html(report)):
        with pytest.raises(MissingExtraError) as exc:
            door()
        assert exc.value.extra == "html" and exc.value.package == "jinja2"
        assert "\n" not in str(exc.value) and 'pip install "zheval[html]"' in str(exc.value)


def test_space_door_raises_missing_extra(monkeypatch):
    from zheval.adapters.space import build_demo

    monkeypatch.setitem(sys.modules, "gradio", None)
    with pytest.raises(MissingExtraError) as exc:
        build_demo(object())
    assert exc.value.extra == "space" and exc.value.package == "gradio"
    assert str(exc.value) == 'the Space widget needs gradio (the \'space\' extra): pip install "zheval[space]"'


def test_a_broken_install_is_not_reported_as_a_missing_extra(tmp_path, monkeypatch):
    """An installed package whose own import fails on another missing package is not the extra's absence: that
    ModuleNotFoundError propagates unchanged."""
    from zheval.adapters.extras import require_extra

    (tmp_path / "zheval_probe_extra").mkdir()
    (tmp_path / "zheval_probe_extra" / "__init__.py").write_text("import zheval_probe_missing_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError) as exc:
        require_extra("zheval_probe_extra", extra="html", purpose="x")
    assert not isinstance(exc.value, MissingExtraError)
    assert exc.value.name == "zheval_probe_missing_dependency"
