"""Every command's error for a bad option value names the option as typed, never the library's parameter name, a
Python type or a constant (issue 35; `zheval.cli.option_names`); the library's own warnings
(``PresetOverrideWarning``) are one clean line and part of the report's warnings in every format; an option given
twice is named once; ``-``/a pipe where a file is read is said so, not "not found"."""

from __future__ import annotations

import json
import os
import re

import pytest

import zheval.cli.explain  # noqa: F401  (registers the command)
from helpers.cli import PREDS, ROWS, run_cli, write_jsonl

#: (command, its arguments after the files, the option as typed that the error must name)
CASES = [
    ("rouge", ("--rouge-w-weight", "0.5"), "--rouge-w-weight"),
    ("rouge", ("--rouge-w-weight", "1.5"), "--rouge-w-weight"),  # without rougeW in --rouge-types
    ("rouge", ("--beta", "-1"), "--beta"),
    ("rouge", ("--sentence-split", "bogus"), "--sentence-split"),
    ("rouge", ("--rouge-types", "bogus"), "--rouge-w-weight"),  # "weight via rouge_w_weight" in the valid forms
    ("rouge", ("--jieba-hmm",), "--jieba-hmm"),
    ("rouge", ("--normalize", "bogus"), "--normalize"),
    ("rouge", ("--punct", "bogus"), "--punct"),
    ("bleu", ("--bp-ref-length", "bogus"), "--bp-ref-length"),
    ("bleu", ("--level", "bogus"), "--level"),
    ("bleu", ("--jieba-hmm",), "--jieba-hmm"),
    ("bleu", ("--bootstrap", "1"), "--bootstrap"),
    ("bleu", ("--confidence", "--confidence-n", "1"), "--confidence-n"),
    ("bleu", ("--paired-ar-n", "0"), "--paired-ar-n"),
    ("chrf", ("-cc", "0"), "--chrf-char-order"),
    ("chrf", ("--chrf-word-order", "2", "--jieba-hmm"), "--jieba-hmm"),
    ("chrf", ("--chrf-word-order", "2", "--punct", "bogus"), "--punct"),
    ("clean", ("--dedup-threshold", "1.5"), "--dedup-threshold"),
    ("clean", ("--min-chars", "200", "--max-chars", "10"), "--max-chars"),
    ("compare", ("--bootstrap", "1"), "--bootstrap"),
    ("score", ("--smooth", "bogus"), "--smooth"),
    ("score", ("--normalize", "bogus"), "--normalize"),
    ("score", ("--jieba-hmm",), "--jieba-hmm"),
    ("score", ("--bootstrap", "1"), "--bootstrap"),
    ("explain", ("--multi-ref", "bogus"), "--multi-ref"),
    ("explain", ("--punct", "bogus"), "--punct"),
    ("explain", ("--metric", "bogus"), "--rouge-w-weight"),  # a UserError quoting the library's ROUGE-type message
    # errors that named no option: an unknown tokenizer, group column or metric, on every command that has them
    *[(c, ("-t", "bogus"), "-t/--tokenizer") for c in ("score", "ceiling", "compare", "demo", "agree", "sample",
                                                        "bleu", "rouge", "explain", "chrf")],
    *[(c, ("--by", "bogus"), "--by: cannot group by") for c in ("score", "ceiling", "compare")],
    *[(c, ("--metrics", "bogus"), "--metrics: unknown metric(s)")
      for c in ("score", "ceiling", "compare", "sample", "explain")],
    # chrF's word-only options without word n-grams, at the report commands (no door name, no word_order)
    ("score", ("--metrics", "chrf", "-t", "jieba"), "--tokenizer jieba"),
    ("ceiling", ("--metrics", "chrf", "--jieba-hmm"), "--jieba-hmm"),
    ("compare", ("--metrics", "chrf", "--punct", "drop"), "--punct drop"),
    ("explain", ("--metrics", "chrf", "--punct", "drop"), "--punct drop"),
    ("sample", ("--metrics", "chrf", "--by-metric", "chrf", "-t", "jieba"), "--tokenizer jieba"),
    # --punct keep beside a normalisation that drops punctuation: refused naming both (was: '！' dropped anyway)
    *[(c, ("--punct", "keep", "--normalize", "nfkc+nopunct"), "--punct keep contradicts --normalize nfkc+nopunct, "
       "whose 'nopunct' step drops punctuation; leave out --punct keep, or the 'nopunct' step")
      for c in ("score", "compare", "explain", "bleu", "rouge", "ceiling", "chrf", "sample")],
    # a flag's Python value: "--baseline-path is given but --rescale-with-baseline is False" (fourth pass)
    ("bertscore", ("--baseline-path", "BASELINE"), "--baseline-path is given without --rescale-with-baseline"),
]

#: The library's spelling: a parameter name with an underscore (valid values such as best_recall aside), a Python
#: type before a value, a list literal, a CONSTANT name, a Python value said of a flag (``is False``, ``=None``).
_LIBRARY = re.compile(r"\b(?!best_recall\b)[a-z]+_[a-z_]+\b|\bgot (float|int|str|bool)\b|\['|\b[A-Z]{2,}(?:_[A-Z]+)+\b"
                      r"|\bis (True|False|None)\b|=(True|False|None)\b")


def _files(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", ROWS)
    preds = write_jsonl(tmp_path / "p.jsonl", PREDS)
    other = write_jsonl(tmp_path / "p2.jsonl", [{**p, "prediction": p["prediction"] + "。"} for p in PREDS])
    ref, hyp = tmp_path / "r.txt", tmp_path / "h.txt"
    ref.write_text("今天天气很好\n你好世界\n", encoding="utf-8")
    hyp.write_text("今天天气不错\n你好\n", encoding="utf-8")
    return {"score": ("--data", data, "-p", preds, "-q", "--bootstrap", "0"),
            "compare": ("--data", data, "-p", preds, other, "-q"),
            "explain": ("--data", data, "-p", preds, "-q", "--id", "q1"),
            "bleu": (ref, "-i", hyp), "rouge": (ref, "-i", hyp), "chrf": (ref, "-i", hyp),
            "clean": (data, "-o", tmp_path / "o.jsonl", "-q"),
            "ceiling": ("--data", data, "-q", "--bootstrap", "0"), "demo": (),
            "agree": ("--predictions", preds, "--judge-ratings", preds),
            "sample": ("--data", data, "-p", preds, "-k", "3", "-o", tmp_path / "s.jsonl"),
            "bertscore": (ref, "-i", hyp, "--model", tmp_path)}  # refused before the model is read


@pytest.mark.parametrize("command, args, flag", CASES, ids=[f"{c}{''.join(a)}" for c, a, _ in CASES])
def test_error_names_the_option_as_typed(tmp_path, command, args, flag):
    if command == "bertscore":
        pytest.importorskip("torch")  # zheval bertscore asks for its extra first (the lowest-versions venv has none)
    baseline = tmp_path / "baseline.csv"
    baseline.write_text("LAYER,P,R,F\n0,0.1,0.1,0.1\n", encoding="utf-8")
    args = [baseline if a == "BASELINE" else a for a in args]
    res = run_cli(command, *_files(tmp_path)[command], *args)
    error = "\n".join(l for l in res.output.splitlines() if "rror" in l)
    assert res.exit_code == 2 and flag in error, res.output
    assert not _LIBRARY.search(error), error


def _score_args(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", ROWS)
    preds = write_jsonl(tmp_path / "p.jsonl", PREDS)
    return ("--data", data, "-p", preds, "--preset", "sacrebleu-zh", "--metrics", "bleu", "-t", "char", "-q",
            "--bootstrap", "0")


_OVERRIDE = "preset 'sacrebleu-zh': --tokenizer (the preset's: 'sacrebleu-zh') overridden"  # as typed


def test_preset_override_warning_is_in_the_report_in_every_format(tmp_path):
    args = _score_args(tmp_path)
    res = run_cli("score", *args, "-f", "json")
    assert res.exit_code == 0 and any(_OVERRIDE in w for w in json.loads(res.stdout)["warnings"]), res.output
    assert "PresetOverrideWarning" not in res.stderr and ".py:" not in res.stderr, res.stderr
    md = run_cli("score", *args, "-f", "markdown")
    assert md.stdout.count(_OVERRIDE) == 1 and "PresetOverrideWarning" not in md.output, md.output
    out = tmp_path / "r.json"
    res = run_cli("score", *args, "-f", "json", "-o", out)
    assert res.exit_code == 0 and any(_OVERRIDE in w for w in json.loads(out.read_text("utf-8"))["warnings"])
    ref, hyp = tmp_path / "r.txt", tmp_path / "h.txt"
    ref.write_text("今天天气很好\n", encoding="utf-8")
    hyp.write_text("今天天气不错\n", encoding="utf-8")
    res = run_cli("bleu", ref, "-i", hyp, "--preset", "sacrebleu-zh", "-t", "char", "-f", "json")
    assert any(_OVERRIDE in w for w in json.loads(res.stdout)["warnings"]), res.output
    assert res.stderr.count(_OVERRIDE) == 1 and "PresetOverrideWarning" not in res.stderr, res.stderr


@pytest.mark.parametrize("options", [("--smooth", "floor"), ("-t", "char", "--max-order", "2", "--smooth", "floor")])
def test_preset_override_warning_quotes_the_signature_verbatim(tmp_path, options):
    """The warning said "the signature reads preset:sacrebleu-zh(overridden:--smooth)" while the signature printed
    read ``preset:sacrebleu-zh(overridden:smooth_method)``: the options outside the quote are as typed, the quoted
    signature is the report's, character for character."""
    files = _files(tmp_path)
    for command, args in (("bleu", files["bleu"]), ("score", files["score"] + ("--metrics", "bleu", "-f", "json"))):
        res = run_cli(command, *args, "--preset", "sacrebleu-zh", *options)
        assert res.exit_code == 0, res.output
        said = re.findall(r"the signature reads preset:([^\s\"]+)", res.output)
        printed = re.findall(r"\|preset:([^|]+)\|", res.output)
        assert said and printed and set(said) == set(printed), res.output
        assert "--smooth (the preset's: 'exp')" in res.output and said[0].endswith("smooth_method)"), res.output


def test_explain_prints_the_preset_override_once_as_a_clean_line(tmp_path):
    args = _score_args(tmp_path)[:4]
    res = run_cli("explain", *args, "--preset", "sacrebleu-zh", "--metric", "bleu", "-t", "char", "--id", "q1", "-q")
    assert res.exit_code == 0, res.output
    lines = [l for l in res.stderr.splitlines() if _OVERRIDE in l]
    assert len(lines) == 1 and lines[0].startswith("zheval: warning: preset 'sacrebleu-zh'"), res.stderr
    assert "PresetOverrideWarning" not in res.stderr and ".py:" not in res.stderr, res.stderr


_AMBIGUOUS = [({"prediction": "好", "references": ["好"], "reference": "好的"},) * 2,  # the first row
              ({"id": "a", "prediction": "好", "label": "好"}, {"id": "b", "prediction": "好", "label": "好",
                                                               "reference": "x"})]  # a later row


@pytest.mark.parametrize("rows", _AMBIGUOUS, ids=["first-row", "later-row"])
def test_ambiguous_fields_are_named_as_options_at_the_cli_as_arguments_in_the_library(tmp_path, rows):
    """The records file whose prediction/reference fields pair up in more than one way ended "(pred_field=,
    ref_field=)" at the command line: the command names its options only, the library its arguments only."""
    from zheval.adapters.records import RecordsFormatError, read_records

    f = write_jsonl(tmp_path / "amb.jsonl", [dict(r, id=f"i{k}") for k, r in enumerate(rows)])
    for stream in ([], ["--stream"]):
        res = run_cli("score", "-p", f, "-q", "--bootstrap", "0", *stream)
        error = res.stderr.splitlines()[1]
        assert res.exit_code == 2 and error.endswith("name them with --pred-field NAME --ref-field NAME"), res.output
        assert "pred_field" not in res.stderr and "ref_field" not in res.stderr, res.stderr
    with pytest.raises(RecordsFormatError) as err:
        read_records(f)
    assert str(err.value).endswith('name them with pred_field="NAME", ref_field="NAME"') and "--" not in str(err.value)


def test_an_option_given_twice_is_named_once():
    from zheval.cli import repeated_options

    assert repeated_options(["score", "--bootstrap", "3", "--bootstrap", "4"]) == \
        "option --bootstrap given twice: give it once"
    assert repeated_options(["score", "-f", "json", "--format", "json"]) == "option -f / --format given twice: give it once"


def test_standard_input_and_pipes_are_said_so_not_not_found(tmp_path):
    from zheval.io import existing_file

    with pytest.raises(FileNotFoundError, match=r"'-' \(standard input\) is not read here"):
        existing_file("-", "--terms")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(FileNotFoundError, match="is not a regular file"):
        existing_file(fifo, "predictions")
    res = run_cli("score", "--data", "-", "-p", write_jsonl(tmp_path / "p.jsonl", PREDS))
    assert res.exit_code == 2 and "'-' (standard input) is not read here" in res.stderr, res.output


def test_text_commands_read_dev_stdin_after_i_as_standard_input(tmp_path):
    ref = tmp_path / "r.txt"
    ref.write_text("今天天气很好\n", encoding="utf-8")
    res = run_cli("bleu", ref, "-i", "/dev/stdin", "-b", input="今天天气很好\n")  # before: "not found"
    assert res.exit_code == 0 and res.stdout.strip() == "100.0", res.output


def _error(res) -> str:
    return next(l for l in res.stderr.splitlines() if l.startswith("zheval: error: "))


@pytest.mark.parametrize("args", [("-t", "jieba"), ("--punct", "drop"), ("--jieba-hmm",)])
def test_report_commands_word_chrf_refusals_as_zheval_chrf_does(tmp_path, args):
    """``zheval score --metrics chrf -t jieba`` said "evaluate_predictions: chrF option(s) tokenizer='jieba' …
    word_order is 0": the report commands now say what ``zheval chrf`` says."""
    files = _files(tmp_path)
    want = _error(run_cli("chrf", *files["chrf"], *args))
    for command in ("score", "compare", "explain", "ceiling"):
        res = run_cli(command, *files[command], "--metrics", "chrf", *args)
        assert res.exit_code == 2 and _error(res) == want, (command, res.output)


_SIMPLIFIED = "今天天气很好我们一起去公园散步吧，这里的风景很美丽，让人感觉非常舒服"
_TRADITIONAL = "今天天氣很好我們一起去公園散步吧，這裡的風景很美麗，讓人感覺非常舒服"


def _slip_files(tmp_path):
    rows = [{"id": f"q{i}", "query": "问", "responses": [_SIMPLIFIED, _SIMPLIFIED + "。"], "domain": "售后支持",
             "difficulty": "易"} for i in range(5)]
    data = write_jsonl(tmp_path / "sd.jsonl", rows)
    preds = write_jsonl(tmp_path / "sp.jsonl", [{"id": r["id"], "prediction": _TRADITIONAL} for r in rows])
    ref, hyp = tmp_path / "sr.txt", tmp_path / "sh.txt"
    ref.write_text(f"{_SIMPLIFIED}\n" * 5, encoding="utf-8")
    hyp.write_text(f"{_TRADITIONAL}\n" * 5, encoding="utf-8")
    return data, preds, ref, hyp


def test_input_slip_warnings_speak_options_at_the_cli_library_words_at_the_library(tmp_path):
    from zheval.compute.guards import input_slips
    from zheval.tokenizers import get_tokenizer

    data, preds, ref, hyp = _slip_files(tmp_path)
    other = tmp_path / "sp2.jsonl"
    other.write_bytes(preds.read_bytes())
    reports = [run_cli("score", "--data", data, "-p", preds, "-q", "--bootstrap", "0", "-f", "json").stdout,
               run_cli("compare", "--data", data, "-p", preds, other, "-q", "--bootstrap", "100", "-f", "json").stdout,
               run_cli("explain", "--data", data, "-p", preds, "-q", "--id", "q1").stderr,
               run_cli("bleu", ref, "-i", hyp).stderr, run_cli("chrf", ref, "-i", hyp).stderr]
    for out in reports:
        assert "--t2s" in out and "t2s=True" not in out, out
        assert "Pass --t2s to convert" in out and "On the command line: --t2s" not in out, out  # said once
    nones = [run_cli("score", "--data", data, "-p", preds, "-q", "--bootstrap", "0", "-t", "none").stdout,
             run_cli("bleu", ref, "-i", ref, "-t", "none").stderr,
             run_cli("rouge", ref, "-i", ref, "-t", "none").stderr]
    for out in nones:
        assert "--tokenizer none splits on whitespace only" in out and 'tokenizer="' not in out, out
        assert "Use --tokenizer char (the default) or jieba" in out, out
    slips = [m for _, m in input_slips([_TRADITIONAL], [[_SIMPLIFIED]], get_tokenizer("none"))]
    assert any('tokenizer="none" splits' in m for m in slips) and any("t2s=True" in m for m in slips), slips


def test_id_hints_know_full_width_and_decimal_ids(tmp_path):
    from zheval.adapters.duck.mismatch import id_hints, id_pairs

    pairs = id_pairs(["7", "08", "x"], ["７", "8.0", "y"])
    assert pairs.compat == [("7", "７")] and pairs.decimals == [("08", "8.0")] and not pairs.nfc and not pairs.zeros
    assert id_pairs([7], ["7.0"]).decimals == [(7, "7.0")] and not id_pairs(["1"], ["10"]).decimals
    hints = id_hints(["７"], [7])
    assert len(hints) == 1 and "full-width" in hints[0] and "NFKC" in hints[0], hints
    rows = [{**r, "id": i} for r, i in zip(ROWS, (7, "08", "x"))]
    data = write_jsonl(tmp_path / "d.jsonl", rows)
    preds = write_jsonl(tmp_path / "p.jsonl", [{**p, "id": i} for p, i in zip(PREDS, ("７", "8.0", "x"))])
    res = run_cli("score", "--data", data, "-p", preds, "-q", "--bootstrap", "0")  # the join of score
    assert res.exit_code == 2 and "full-width" in res.stderr and "decimal '.0'" in res.stderr, res.output
    good = write_jsonl(tmp_path / "g.jsonl", [{**p, "id": i} for p, i in zip(PREDS, (7, "08", "x"))])
    res = run_cli("compare", "--data", data, "-p", good, preds, "-q")
    assert res.exit_code == 2 and "full-width" in res.stderr and "decimal '.0'" in res.stderr, res.output
    for typed, hint in (("７", "once its full-width or other compatibility characters are written plainly (NFKC)"),
                        ("7.0", "but for a decimal '.0'")):
        res = run_cli("explain", "--data", data, "-p", good, "-q", "--id", typed)
        assert res.exit_code == 2 and hint in res.stderr and "give --id '7'" in res.stderr, res.output
