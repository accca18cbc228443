"""An empty entry in a comma list is refused, naming the option (break-it F11): ``--rouge-types rouge1,`` and
``--metrics bleu,,rouge`` dropped the empty entries without a word. A predictions CSV with a header and no row says
so (it was called "empty or has only blank lines")."""

from __future__ import annotations

import pytest

from tests.helpers.cli import run_cli, write_sample_files


@pytest.mark.parametrize("extra, message", [
    (["--metrics", "bleu,,rouge"], "--metrics 'bleu,,rouge' has an empty entry (entry 2)"),
    (["--rouge-types", "rouge1,"], "--rouge-types 'rouge1,' has an empty entry (entry 2)"),
    (["--by", ",domain"], "--by ',domain' has an empty entry (entry 1)"),
    (["--domains", "生活咨询,,售后支持,"], "--domains '生活咨询,,售后支持,' has an empty entry (entries 2, 4)"),
])
def test_an_empty_entry_is_refused(tmp_path, extra, message):
    data, preds, _, _ = write_sample_files(tmp_path)
    r = run_cli("score", "-d", data, "-p", preds, "--bootstrap", "0", *extra)
    assert r.exit_code == 2
    assert r.stderr == f"zheval: error: {message}\n"


def test_a_repeated_entry_is_still_kept_once_with_a_note(tmp_path):
    data, preds, _, _ = write_sample_files(tmp_path)
    r = run_cli("score", "-d", data, "-p", preds, "--bootstrap", "0", "--metrics", "bleu,bleu", "--format", "json")
    assert r.exit_code == 0, r.output
    assert "zheval: note: --metrics names 'bleu' more than once; each is used once" in r.stderr


def test_a_csv_with_a_header_and_no_row_says_so(tmp_path):
    f = tmp_path / "preds.csv"
    f.write_text("prediction,reference\n", encoding="utf-8")
    r = run_cli("score", "-p", f, "--pred-field", "prediction", "--ref-field", "reference", "--bootstrap", "0")
    assert r.exit_code == 2
    assert r.stderr == f"zheval: error: no items in {f} (a header and no row)\n"


@pytest.mark.parametrize("stream", [[], ["--stream"]])
def test_a_tsv_with_a_header_and_no_row_says_so_streamed_or_not(tmp_path, stream):
    f = tmp_path / "preds.tsv"
    f.write_text("prediction\treference\n\n", encoding="utf-8")
    r = run_cli("score", "-p", f, "--pred-field", "prediction", "--ref-field", "reference", "--bootstrap", "0", *stream)
    assert r.exit_code == 2
    assert f"no items in {f} (a header and no row)\n" in r.stderr and "blank lines" not in r.stderr


def test_an_empty_jsonl_file_is_still_empty(tmp_path):
    f = tmp_path / "preds.jsonl"
    f.write_text("\n\n", encoding="utf-8")
    r = run_cli("score", "-p", f, "--bootstrap", "0")
    assert r.exit_code == 2
    assert r.stderr == f"zheval: error: no items in {f} (the file is empty or has only blank lines)\n"
