"""A predictions file read as the wrong kind: JSONL under a .txt name (or any name sniffed as text) is refused, a
.jsonl file of plain text lines is refused with a hint, and --predictions-format says what a file is. The right
score is computed from the rows with the library directly (and BLEU with sacrebleu's own tokenizer-free path)."""

from __future__ import annotations

import json
import shutil

import pytest

from helpers import read_jsonl
from helpers.cli import run_cli as run
from zheval.adapters.duck.predictions import JSONL_LOOKING_FRACTION, read_predictions
from zheval.adapters.duck.load import DuckFormatError
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge


@pytest.fixture(scope="module")
def duck(tmp_path_factory):
    """小黄鸭 file from the real CrossWOZ groups: references = responses[1:] (2-4), prediction = responses[0]."""
    rows = read_jsonl("crosswoz_same_query_groups.jsonl")
    d = tmp_path_factory.mktemp("fmt")
    data = d / "duck.jsonl"
    data.write_text("".join(json.dumps({**r, "responses": r["responses"][1:]}, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")
    pred = d / "pred.jsonl"
    pred.write_text("".join(json.dumps({"id": r["id"], "prediction": r["responses"][0]}, ensure_ascii=False) + "\n"
                            for r in rows), encoding="utf-8")
    preds = [r["responses"][0] for r in rows]
    refs = [r["responses"][1:] for r in rows]
    return d, data, pred, preds, refs


def _overall(res):
    assert res.exit_code == 0, res.output
    return {k: v["value"] for k, v in json.loads(res.stdout)["groups"][0]["scores"].items()}


def test_jsonl_named_txt_is_refused_and_jsonl_format_gives_the_right_score(duck):
    d, data, pred, preds, refs = duck
    txt = d / "pred.txt"
    shutil.copy(pred, txt)
    res = run("score", "--data", data, "--predictions", txt, "-q", "--bootstrap", 0, "--by", "none")
    assert res.exit_code == 2
    assert f"{txt}:1: this file looks like JSONL (85 of 85 non-blank lines are JSON objects)" in res.stderr
    assert "--predictions-format jsonl" in res.stderr and "Rename it to .jsonl" in res.stderr
    assert "Traceback" not in res.stderr
    # explicit --predictions-format jsonl reads it as what it is; the score equals the library on the rows
    got = _overall(run("score", "-d", data, "-p", txt, "--predictions-format", "jsonl", "-q", "--bootstrap", 0,
                       "--by", "none", "-f", "json"))
    b = compute_bleu(preds, refs)["bleu"]
    r = compute_rouge(preds, refs, rouge_types=["rouge1", "rouge2", "rougeL"])
    assert got == {"bleu": b, "rouge1": r["rouge1"], "rouge2": r["rouge2"], "rougeL": r["rougeL"]}
    # independent check of the BLEU value: sacrebleu on the char tokens (the README's "drop-in" claim)
    import sacrebleu

    from zheval.tokenizers import get_tokenizer

    tok = get_tokenizer("char")
    sp = lambda t: " ".join(tok(t))  # noqa: E731
    streams = [[sp(x[k]) if k < len(x) else None for x in refs] for k in range(max(map(len, refs)))]
    assert b == pytest.approx(sacrebleu.corpus_bleu([sp(p) for p in preds], streams, tokenize="none").score / 100,
                              abs=1e-12)
    # the wrong reading (the raw JSON lines as predictions) is a different number: the refusal is what guards it
    wrong = _overall(run("score", "-d", data, "-p", txt, "--predictions-format", "text", "-q", "--bootstrap", 0,
                         "--by", "none", "-f", "json"))
    raw_lines = txt.read_text(encoding="utf-8").splitlines()
    assert wrong["bleu"] == compute_bleu(raw_lines, refs)["bleu"] != b


@pytest.mark.parametrize("name", ["pred", "pred.out"])  # a .tsv is read as a TSV (break-it 9)
def test_sniffed_text_that_is_mostly_json_objects_is_refused(duck, name):
    # no extension / an unknown one: the first line decides; text first, JSON objects after -> still refused
    d, data, pred, preds, _ = duck
    lines = pred.read_text(encoding="utf-8").splitlines()
    p = d / name
    p.write_text("这一行不是 JSON\n" + "\n".join(lines[1:]) + "\n", encoding="utf-8")
    with pytest.raises(DuckFormatError) as ei:
        read_predictions(p)
    assert f"{p}:2: this file looks like JSONL (84 of 85" in str(ei.value)
    assert "its first non-blank line is not a JSON object" in str(ei.value)
    assert read_predictions(p, format="text").texts[1] == lines[1]  # explicit text: the line as it is


def test_threshold_is_half_of_the_non_blank_lines(tmp_path):
    assert JSONL_LOOKING_FRACTION == 0.5
    p = tmp_path / "p.txt"
    p.write_text('不客气。\n\n{"a": 1}\n', encoding="utf-8")  # 1 of 2 non-blank lines: refused
    with pytest.raises(DuckFormatError, match="1 of 2 non-blank lines are JSON objects"):
        read_predictions(p)
    p.write_text('不客气。\n好的。\n{"a": 1}\n', encoding="utf-8")  # 1 of 3: text, three predictions
    assert read_predictions(p).texts == ["不客气。", "好的。", '{"a": 1}']
    p.write_text('["x"]\n"y"\n', encoding="utf-8")  # JSON, but no objects: text
    assert read_predictions(p).kind == "text"


def test_jsonl_file_of_text_lines_says_it_looks_like_text(duck):
    d, data, pred, preds, refs = duck
    p = d / "as_text.jsonl"
    p.write_text("\n".join(preds) + "\n", encoding="utf-8")
    res = run("score", "-d", data, "-p", p, "-q", "--bootstrap", 0, "--by", "none")
    assert res.exit_code == 2
    first = res.stderr.splitlines()[1]
    assert first.startswith(f"  {p}:1: this file is read as JSONL because its extension is .jsonl, but 85 of 85")
    assert "--predictions-format text" in first
    assert f"{p}:2: malformed JSON" in res.stderr
    got = _overall(run("score", "-d", data, "-p", p, "--predictions-format", "text", "-q", "--bootstrap", 0,
                       "--by", "none", "-f", "json"))
    assert got["bleu"] == compute_bleu(preds, refs)["bleu"]


def test_explicit_jsonl_on_text_names_the_option(tmp_path):
    p = tmp_path / "p.txt"
    p.write_text("好的。\n谢谢。\n", encoding="utf-8")
    with pytest.raises(DuckFormatError, match=r"format='jsonl' \(--predictions-format jsonl\) was given"):
        read_predictions(p, format="jsonl")


def test_compare_takes_the_format_for_both_files(duck):
    d, data, pred, preds, refs = duck
    txt = d / "cmp.txt"
    shutil.copy(pred, txt)
    res = run("compare", "-d", data, "-p", pred, txt, "-q", "--bootstrap", 10)
    assert res.exit_code == 2 and "looks like JSONL" in res.stderr
    res = run("compare", "-d", data, "-p", pred, txt, "-q", "--bootstrap", 10, "--predictions-format", "jsonl",
              "-f", "json")
    assert res.exit_code == 0, res.output
    assert all(r["delta"] == 0 for r in json.loads(res.stdout)["comparison"])
    res = run("score", "-d", data, "-p", pred, "--predictions-format", "xml", "-q")
    assert res.exit_code == 2 and "unknown --predictions-format 'xml'; valid: auto, jsonl, text, csv, tsv, parquet" in res.stderr


@pytest.mark.parametrize("name, indent", [("arr.json", 2), ("arr.json", None), ("arr", 2), ("arr.jsonl", 1)])
def test_a_json_array_file_gets_one_message(duck, name, indent):
    d, data, pred, preds, _ = duck
    rows = [json.loads(x) for x in pred.read_text(encoding="utf-8").splitlines()]
    p = d / name
    p.write_text(json.dumps(rows, ensure_ascii=False, indent=indent), encoding="utf-8")
    res = run("score", "-d", data, "-p", p, "-q", "--bootstrap", 0)
    assert res.exit_code == 2
    assert "1 problem(s)" in res.stderr and f"{p}: is one JSON array of 85 item(s), not JSON Lines" in res.stderr
    assert "malformed JSON" not in res.stderr


def _sacrebleu_chars(preds, refs):
    """sacrebleu's BLEU (0–1) on the char tokens of ``preds`` against ``refs`` (an independent reference)."""
    import sacrebleu

    from zheval.tokenizers import get_tokenizer

    tok = get_tokenizer("char")
    sp = lambda t: " ".join(tok(t))  # noqa: E731
    streams = [[sp(x[k]) if k < len(x) else None for x in refs] for k in range(max(map(len, refs)))]
    return sacrebleu.corpus_bleu([sp(p) for p in preds], streams, tokenize="none").score / 100


@pytest.mark.parametrize("ascii_only", [True, False])
def test_lines_written_as_json_strings_are_refused(duck, ascii_only):
    """Break-it 21: print(json.dumps(text)) lines were scored with their quotes and escapes (BLEU 0.001 for
    ensure_ascii=True on the sample): every line a JSON string is refused at FILE:1; the texts written raw score as
    sacrebleu scores them."""
    d, data, pred, preds, refs = duck
    txt = d / f"json_strings_{ascii_only}.txt"
    txt.write_text("".join(json.dumps(p, ensure_ascii=ascii_only) + "\n" for p in preds), encoding="utf-8")
    res = run("score", "-d", data, "-p", txt, "-q", "--bootstrap", 0, "--by", "none")
    assert res.exit_code == 2, res.output
    assert f"{txt}:1: every non-blank line (85) is a JSON string literal" in res.stderr
    assert "--predictions-format jsonl" in res.stderr and "--predictions-format text" in res.stderr
    assert "Traceback" not in res.stderr
    with pytest.raises(DuckFormatError, match="is a JSON string literal"):
        read_predictions(txt)
    raw = d / "raw.txt"
    raw.write_text("".join(json.loads(x) + "\n" for x in txt.read_text(encoding="utf-8").splitlines()),
                   encoding="utf-8")
    got = _overall(run("score", "-d", data, "-p", raw, "-q", "--bootstrap", 0, "--by", "none", "-f", "json"))
    assert got["bleu"] == pytest.approx(_sacrebleu_chars(preds, refs), abs=1e-12)


def test_some_escaped_json_string_lines_are_said_and_scored_as_written(duck):
    d, data, pred, preds, refs = duck
    lines = [json.dumps(p) for p in preds[:3]] + ['"好的"'] + preds[4:]  # 3 escaped; quoted speech is text
    p = d / "mixed.txt"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = run("score", "-d", data, "-p", p, "-q", "--bootstrap", 0, "--by", "none", "-f", "json")
    assert res.exit_code == 0, res.output
    said = json.loads(res.stdout)["warnings"]
    assert [w for w in said if w.startswith(f"{p}: 3 of 85 non-blank line(s) are JSON string literals with "
                                            f"escapes (first at {p}:1")], said
    got = _overall(res)
    assert got["bleu"] == pytest.approx(_sacrebleu_chars(lines, refs), abs=1e-12)  # the number is unchanged
    p.write_text('"好的"\n"谢谢"\n', encoding="utf-8")  # every line quoted speech: refused; explicit text reads it
    with pytest.raises(DuckFormatError, match=f"{p}:1: every non-blank line"):
        read_predictions(p)
    from zheval.adapters.json_texts import JsonStringWarning

    with pytest.warns(JsonStringWarning, match="read as text as asked"):
        assert read_predictions(p, format="text").texts == ['"好的"', '"谢谢"']
    import warnings

    p.write_text('"好的"\n', encoding="utf-8")  # one line in quotes, no escape: as likely speech as JSON
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert read_predictions(p).texts == ['"好的"']


def test_predictions_json_encoded_twice_are_said(duck):
    d, data, pred, preds, refs = duck
    p = d / "twice.jsonl"
    p.write_text("".join(json.dumps({"id": json.loads(x)["id"], "prediction": json.dumps(t)}) + "\n"
                         for x, t in zip(pred.read_text(encoding="utf-8").splitlines(), preds)), encoding="utf-8")
    res = run("score", "-d", data, "-p", p, "-q", "--bootstrap", 0, "--by", "none", "-f", "json")
    assert res.exit_code == 0, res.output
    said = json.loads(res.stdout)["warnings"]
    assert [w for w in said if w.startswith(f"{p}: 85 text(s) in 85 row(s) are themselves JSON string literals "
                                            f"with escapes (first at {p}:1, 'prediction'")], said


@pytest.mark.parametrize("kind,ascii_only", [("jsonl", False), ("csv", False), ("csv", True)])
def test_predictions_json_encoded_twice_without_escapes_are_said(duck, kind, ascii_only):
    """Break-it (JSON quotes): json.dumps(text, ensure_ascii=False) applied to already-dumped predictions ('"不客气！"',
    quotes and no escape) was scored with its quotes without a word, and the predictions of a CSV were never checked
    at all: one warning per file now (count, first FILE:line and field, the field's share), scored as written (BLEU
    as sacrebleu gives it on the quoted texts); one quoted answer among raw ones is not counted."""
    import csv
    import warnings

    from zheval.adapters.json_texts import JsonStringWarning

    d, data, pred, preds, refs = duck
    ids = [json.loads(x)["id"] for x in pred.read_text(encoding="utf-8").splitlines()]

    def write(path, texts):
        if kind == "csv":
            with open(path, "w", encoding="utf-8", newline="") as fh:
                csv.writer(fh).writerows([["id", "prediction"], *zip(ids, texts)])
        else:
            path.write_text("".join(json.dumps({"id": i, "prediction": t}, ensure_ascii=False) + "\n"
                                    for i, t in zip(ids, texts)), encoding="utf-8")
        return path

    quoted = [json.dumps(t, ensure_ascii=ascii_only) for t in preds]
    p = write(d / f"quoted_{ascii_only}.{kind}", quoted)
    want = f"{p}: 85 text(s) in 85 row(s) are themselves JSON string literals "
    where = f"(first at {p}:{2 if kind == 'csv' else 1}, 'prediction'; json.dumps applied twice?"
    res = run("score", "-d", data, "-p", p, "-q", "--bootstrap", 0, "--by", "none", "-f", "json")
    said = [w for w in json.loads(res.stdout)["warnings"] if w.startswith(want)]
    assert len(said) == 1 and where in said[0], json.loads(res.stdout)["warnings"]
    assert ascii_only or "'prediction' 85 of 85 texts" in said[0]
    assert _overall(res)["bleu"] == pytest.approx(_sacrebleu_chars(quoted, refs), abs=1e-12)  # as written
    with pytest.warns(JsonStringWarning, match="85 text"):
        assert read_predictions(p).texts == quoted
    one = write(d / f"one_{ascii_only}.{kind}", [json.dumps(preds[0], ensure_ascii=False)] + preds[1:])
    with warnings.catch_warnings():  # one answer in quotes, no escape: quoted speech, not counted
        warnings.simplefilter("error")
        assert read_predictions(one).texts[0] == f'"{preds[0]}"'


def test_data_responses_json_encoded_twice_are_said(duck):
    """The 小黄鸭 data's references by the same rule: every ``responses`` entry '"..."' (json.dumps twice, no escape)
    is counted, one warning for the file; one entry in quotes among raw ones is not."""
    import warnings

    from zheval.adapters.duck.load import load_duck

    d, data, pred, preds, refs = duck
    rows = [json.loads(x) for x in data.read_text(encoding="utf-8").splitlines()]
    n = sum(len(r["responses"]) for r in rows)
    twice = d / "twice_data.jsonl"
    twice.write_text("".join(json.dumps({**r, "responses": [json.dumps(t, ensure_ascii=False) for t in r["responses"]]},
                                        ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    with pytest.warns(UserWarning) as caught:
        load_duck(twice)
    said = [str(w.message) for w in caught if type(w.message).__name__ == "JsonStringWarning"]
    assert len(said) == 1 and said[0].startswith(
        f"{twice}: {n} text(s) in 85 row(s) are themselves JSON string literals"), said
    assert "literals: 'responses[0]' 85 of 85 texts, 'responses[1]' 85 of 85 texts" in said[0], said[0]
    # break-it 23: only the first reference of every item encoded twice (85 of 257 texts, under half of them all)
    # was not said; each position is a field of its own
    first = d / "first_data.jsonl"
    first.write_text("".join(json.dumps({**r, "responses": [json.dumps(r["responses"][0], ensure_ascii=False)]
                                         + r["responses"][1:]}, ensure_ascii=False) + "\n" for r in rows),
                     encoding="utf-8")
    with pytest.warns(UserWarning) as caught:
        load_duck(first)
    said = [str(w.message) for w in caught if type(w.message).__name__ == "JsonStringWarning"]
    assert len(said) == 1 and said[0].startswith(f"{first}: 85 text(s) in 85 row(s)"), said
    assert "literals: 'responses[0]' 85 of 85 texts" in said[0], said[0]
    once = d / "once_data.jsonl"
    once.write_text("".join(json.dumps({**r, "responses": [json.dumps(r["responses"][0], ensure_ascii=False)]
                                        + r["responses"][1:]} if k == 0 else r, ensure_ascii=False) + "\n"
                            for k, r in enumerate(rows)), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_duck(once)
