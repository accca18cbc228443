"""The zheval command: outputs never overwrite inputs, empty data, lone surrogates, tokenizer names, directories,
identical systems in compare. Small data files are written here; expected values are worked out in comments."""

from __future__ import annotations

import json
import os
import re

import pytest
from typer.testing import CliRunner

from zheval.cli import CLI_TOKENIZERS, app

runner = CliRunner()

ROWS = [
    {"id": "q1", "query": "怎么退货？", "responses": ["您好，请在订单页申请退货。", "可以在订单页面申请退货。"],
     "domain": "售后支持", "difficulty": "易"},
    {"id": "q2", "query": "心情不好", "responses": ["我在这里陪着你，想聊聊吗？", "听起来你很难受，愿意说说吗？"],
     "domain": "情感陪伴", "difficulty": "中"},
    {"id": "q3", "query": "明天穿什么", "responses": ["明天降温，记得穿外套。", "天气转凉，建议加一件外套。"],
     "domain": "生活咨询", "difficulty": None},
]
PREDS = [{"id": "q1", "prediction": "请在订单页申请退货。"}, {"id": "q2", "prediction": "我陪着你，想聊聊吗？"},
         {"id": "q3", "prediction": "明天记得穿外套。"}]


def run(*args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def _jsonl(path, rows, ensure_ascii=False):
    path.write_text("".join(json.dumps(r, ensure_ascii=ensure_ascii) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture()
def files(tmp_path):
    data = _jsonl(tmp_path / "data.jsonl", ROWS)
    preds = _jsonl(tmp_path / "preds.jsonl", PREDS)
    txt = tmp_path / "preds.txt"
    txt.write_text("".join(p["prediction"] + "\n" for p in PREDS), encoding="utf-8")
    terms = tmp_path / "terms.txt"
    terms.write_text("订单页\n", encoding="utf-8")
    return data, preds, txt, terms


def _snapshot(*paths):
    return {p: p.read_bytes() for p in paths}


# ---- 6. no command writes over one of its inputs -----------------------------------------------------------------------


def test_score_refuses_outputs_that_are_inputs(files, tmp_path):
    data, preds, txt, terms = files
    before = _snapshot(data, preds, txt, terms)
    (tmp_path / "sub").mkdir()
    link = tmp_path / "link.jsonl"
    os.symlink(data, link)
    hard = tmp_path / "hard.txt"
    os.link(txt, hard)
    cases = [
        ("--output", data, "--data"),
        ("--output", preds, "--predictions"),
        ("--plot", data, "--data"),
        ("--plot", preds, "--predictions"),
        ("--output", terms, "--terms"),
        ("--output", link, "--data"),  # a symlink to the data file
        ("--output", tmp_path / "sub" / ".." / "data.jsonl", "--data"),
        ("--output", data.relative_to(tmp_path), "--data"),  # relative to the working directory below
    ]
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for flag, out, what in cases:
            res = run("score", "-d", data, "-p", preds, "--terms", terms, "--bootstrap", 0, "-q", flag, out)
            assert res.exit_code == 2, (flag, out, res.output)
            assert f"{flag} must differ from the input file" in res.output and f"is {what} " in res.output
        res = run("score", "-d", data, "-p", txt, "--bootstrap", 0, "-q", "-o", hard)  # a hard link
        assert res.exit_code == 2 and "--output must differ from the input file" in res.output
        res = run("score", "-d", data, "-p", txt, "--bootstrap", 0, "-q", "-o", txt)
        assert res.exit_code == 2 and "--output must differ from the input file" in res.output
        res = run("score", "-d", data, "-p", preds, "--bootstrap", 0, "-q", "-o", "same.png", "--plot", "same.png")
        assert res.exit_code == 2 and "--output and --plot must be different files" in res.output
    finally:
        os.chdir(cwd)
    assert _snapshot(data, preds, txt, terms) == before
    # a real output still works
    res = run("score", "-d", data, "-p", preds, "--bootstrap", 0, "-q", "-f", "json", "-o", tmp_path / "r.json")
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["groups"][0]["n"] == 3


def test_ceiling_compare_clean_refuse_outputs_that_are_inputs(files, tmp_path):
    data, preds, txt, terms = files
    before = _snapshot(data, preds, txt, terms)
    res = run("ceiling", "-d", data, "--bootstrap", 0, "-q", "-o", data)
    assert res.exit_code == 2 and "--output must differ from the input file" in res.output
    res = run("ceiling", "-d", data, "--bootstrap", 0, "-q", "--plot", terms, "--terms", terms)
    assert res.exit_code == 2 and "--plot must differ from the input file" in res.output
    for out in (preds, txt, data):
        res = run("compare", "-d", data, "-p", preds, txt, "--bootstrap", 10, "-q", "-o", out)
        assert res.exit_code == 2 and "--output must differ from the input file" in res.output, res.output
    res = run("clean", data, "-o", data, "-q")
    assert res.exit_code == 2 and "--output must differ from the input file" in res.output
    res = run("clean", data, "-o", tmp_path / "c.jsonl", "--report-json", data, "-q")
    assert res.exit_code == 2 and "--report-json must differ from the input file" in res.output
    res = run("clean", data, "-o", tmp_path / "c.jsonl", "--report-json", tmp_path / "c.jsonl", "-q")
    assert res.exit_code == 2 and "must be different files" in res.output
    assert _snapshot(data, preds, txt, terms) == before


# ---- 8. messages ---------------------------------------------------------------------------------------------------------


def test_empty_data_file_says_no_items(files, tmp_path):
    data, preds, _, _ = files
    for body in ("", "\n\n  \n"):
        empty = tmp_path / "empty.jsonl"
        empty.write_text(body, encoding="utf-8")
        for args in (("score", "-d", empty, "-p", preds), ("ceiling", "-d", empty), ("clean", empty, "-o", tmp_path / "o.jsonl")):
            res = run(*args, "-q", *(("--bootstrap", 0) if args[0] != "clean" else ()))
            assert res.exit_code == 2, res.output
            assert f"no items in {empty}" in res.output
            assert "Traceback" not in res.output and "Keys mismatch" not in res.output


def test_clean_to_zero_queries_warns_and_its_output_says_no_items(files, tmp_path):
    data, preds, _, _ = files
    out = tmp_path / "clean.jsonl"
    # every reference has 11-14 characters: with --min-chars 100 all are dropped, so every query is dropped
    res = run("clean", data, "-o", out, "--min-chars", 100, "--max-chars", 150, "-q")
    assert res.exit_code == 0, res.output
    assert re.search(r"warning: .*0 queries", res.output)
    assert out.read_text(encoding="utf-8") == ""
    res = run("score", "-d", out, "-p", preds, "--bootstrap", 0, "-q")
    assert res.exit_code == 2 and f"no items in {out}" in res.output


def test_lone_surrogate_is_named_by_file_line_and_id(files, tmp_path):
    data, preds, _, _ = files
    # JSON "\ud800" without its low half decodes to a lone surrogate (json.dumps writes it as that escape)
    bad_preds = _jsonl(tmp_path / "bad_preds.jsonl", [PREDS[0], {"id": "q2", "prediction": "我\ud800陪着你"}, PREDS[2]],
                       ensure_ascii=True)
    assert "\\ud800" in bad_preds.read_text(encoding="utf-8")
    res = run("score", "-d", data, "-p", bad_preds, "--bootstrap", 0, "-q")
    assert res.exit_code == 2
    assert f"{bad_preds}:2: id 'q2': 'prediction' contains a lone surrogate" in res.output
    rows = [dict(r) for r in ROWS]
    rows[2] = {**rows[2], "responses": ["明天降温，记得穿外套。", "外套\udc00"]}
    bad_data = _jsonl(tmp_path / "bad_data.jsonl", rows, ensure_ascii=True)
    res = run("score", "-d", bad_data, "-p", preds, "--bootstrap", 0, "-q")
    assert res.exit_code == 2
    assert f"{bad_data}:3: id 'q3': responses[1] contains a lone surrogate ('\\udc00' at position 2)" in res.output
    assert "UnicodeEncodeError" not in res.output and "codec" not in res.output


def test_unknown_tokenizer_lists_exactly_the_help_values(files):
    data, preds, _, _ = files
    help_text = " ".join(run("score", "--help").output.split())
    assert "char | jieba | none | sacrebleu-zh | llamafactory-char" in help_text
    assert CLI_TOKENIZERS == ("char", "jieba", "none", "sacrebleu-zh", "llamafactory-char")
    for cmd in (("score", "-d", data, "-p", preds), ("ceiling", "-d", data), ("compare", "-d", data, "-p", preds, preds)):
        res = run(*cmd, "-t", "bogus", "--bootstrap", 1, "-q")
        assert res.exit_code == 2
        assert "unknown tokenizer 'bogus'; valid: char, jieba, none, sacrebleu-zh, llamafactory-char" in res.output


def test_predictions_directory_is_a_directory(files, tmp_path):
    data, _, _, _ = files
    res = run("score", "-d", data, "-p", tmp_path, "--bootstrap", 0, "-q")
    assert res.exit_code == 2 and "is a directory" in res.output and "not found" not in res.output
    res = run("score", "-d", tmp_path, "-p", files[1], "--bootstrap", 0, "-q")
    assert res.exit_code == 2 and "directory" in res.output


# ---- 7. identical systems --------------------------------------------------------------------------------------------------


def test_compare_identical_systems_says_no_difference(files, tmp_path):
    data, preds, txt, _ = files
    out = tmp_path / "cmp.json"
    res = run("compare", "-d", data, "-p", preds, txt, "--bootstrap", 199, "-q", "-f", "json", "-o", out)
    assert res.exit_code == 0, res.output
    rep = json.loads(out.read_text(encoding="utf-8"))
    # the same texts (by id and in order): every resample ties too, so no |B - A| exceeds 0 strictly and
    # sacrebleu's p = (0 + 1) / (199 + 1) = 0.005 -- kept as sacrebleu's number, but flagged
    for row in rep["comparison"]:
        assert row["delta"] == 0.0 and row["no_difference"] is True
        assert row["p_value"] == 1 / 200
    assert any(n.startswith("no difference: the systems' outputs score identically") for n in rep["notes"])
    assert any("strictly" in n and "+ 1" in n for n in rep["notes"])
    table = run("compare", "-d", data, "-p", preds, txt, "--bootstrap", 199, "-q").output
    assert "0.0050 (no difference)" in table and "no difference: the systems' outputs score identically" in table


def test_compare_different_systems_has_no_no_difference_note(files, tmp_path):
    data, preds, _, _ = files
    other = _jsonl(tmp_path / "other.jsonl", [{**p, "prediction": p["prediction"][:3]} for p in PREDS])
    out = tmp_path / "cmp.json"
    res = run("compare", "-d", data, "-p", preds, other, "--bootstrap", 50, "-q", "-f", "json", "-o", out)
    assert res.exit_code == 0, res.output
    rep = json.loads(out.read_text(encoding="utf-8"))
    assert all(r["delta"] < 0 and r["no_difference"] is False for r in rep["comparison"])
    assert not any(n.startswith("no difference") for n in rep["notes"])


def test_load_duck_empty_file_and_empty_split(files, tmp_path):
    from zheval.adapters.duck import DuckFormatError, load_duck
    from zheval.adapters.duck.load import EmptyDataError

    data = files[0]
    empty = tmp_path / "dev.jsonl"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(EmptyDataError, match=f"no items in {re.escape(str(empty))}"):
        load_duck(empty)
    with pytest.raises(DuckFormatError, match=f"no items in {re.escape(str(empty))}"):
        load_duck({"test": data, "dev": empty})
    with pytest.raises(IsADirectoryError, match="is a directory"):
        from zheval.adapters.duck import read_predictions

        read_predictions(tmp_path)
