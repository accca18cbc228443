"""Bad 小黄鸭 / predictions / terms files: keys given twice, files in another encoding (one clear message), a UTF-8
BOM (accepted, same numbers), references that cannot be scored (every one by file:line), json's own messages
(no "starting at at"), seeds out of range, empty data files (also after clean drops everything), lone surrogates
(named by file:line and id). Every error exits 2 with no traceback and writes nothing."""

from __future__ import annotations

import json
import re

import pytest

from helpers.cli import PREDS as PRED_ROWS, ROWS, run_cli as run, twin, write_jsonl
from zheval.adapters.duck.load import DuckFormatError, load_duck, parse_json_line
from zheval.adapters.duck.predictions import read_predictions
from zheval.compute.bleu import compute_bleu
from zheval.cli import MAX_SEED

PREDS = [p["prediction"] for p in PRED_ROWS]


@pytest.fixture()
def files(tmp_path):
    return write_jsonl(tmp_path / "data.jsonl", ROWS), write_jsonl(tmp_path / "pred.jsonl", PRED_ROWS)


# ---- keys given twice ----------------------------------------------------------------------------------------------


def test_parse_json_line_reports_every_repeated_key():
    obj, dups = parse_json_line('{"a": 1, "b": {"c": 1, "c": 2}, "a": 3}')
    assert obj == {"a": 3, "b": {"c": 2}} == json.loads('{"a": 1, "b": {"c": 1, "c": 2}, "a": 3}')
    assert dups == ["c", "a"]
    assert parse_json_line('{"a": 1}') == ({"a": 1}, [])


def test_duplicate_keys_in_the_duck_file_are_listed_with_file_line(files, tmp_path):
    data, pred = files
    lines = data.read_text(encoding="utf-8").splitlines()
    lines[0] = lines[0][:-1] + ', "responses": ["只有这一条。", "和这一条。"]}'  # 'responses' twice: last would win
    lines[2] = lines[2].replace('"query": "明天穿什么"', '"query": "明天穿什么", "query": "后天穿什么"')
    bad = tmp_path / "dup.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "r.txt"
    res = run("score", "-d", bad, "-p", pred, "-q", "--bootstrap", 0, "-o", out)
    assert res.exit_code == 2 and not out.exists()
    assert f"{bad}:1: id 'q1': key 'responses' given more than once on this line" in res.stderr
    assert f"{bad}:3: id 'q3': key 'query' given more than once" in res.stderr
    assert "2 problem(s)" in res.stderr
    with pytest.raises(DuckFormatError, match="given more than once"):
        load_duck(bad)


def test_duplicate_keys_in_predictions_are_listed(files, tmp_path):
    data, _ = files
    p = tmp_path / "p.jsonl"
    p.write_text('{"id": "q1", "prediction": "好的。", "prediction": "请在订单页申请退货。"}\n'
                 '{"id": "q2", "prediction": "我陪着你。"}\n'
                 '{"id": "q3", "id": "q1", "prediction": "明天记得穿外套。"}\n', encoding="utf-8")
    with pytest.raises(DuckFormatError) as ei:
        read_predictions(p)
    msg = str(ei.value)
    assert f"{p}:1: id 'q1': key 'prediction' given more than once" in msg
    assert f"{p}:3: id 'q1': key 'id' given more than once" in msg
    assert "2 problem(s)" in msg
    res = run("score", "-d", data, "-p", p, "-q", "--bootstrap", 0)
    assert res.exit_code == 2 and "given more than once" in res.stderr


# ---- encodings -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("codec, needle", [
    ("utf-16", "looks like UTF-16 LE (byte-order mark FF FE)"),
    ("utf-16-le", "looks like UTF-16 LE without a byte-order mark"),
    ("utf-16-be", "looks like UTF-16 BE without a byte-order mark"),
    ("utf-32", "looks like UTF-32 LE (byte-order mark FF FE 00 00)"),
    ("gb18030", "looks like GB18030/GBK"),
])
def test_a_file_in_another_encoding_gets_one_message(files, tmp_path, codec, needle):
    data, pred = files
    enc = tmp_path / f"data.{codec}.jsonl"
    enc.write_bytes(data.read_text(encoding="utf-8").encode(codec))
    res = run("score", "-d", enc, "-p", pred, "-q", "--bootstrap", 0)
    assert res.exit_code == 2
    assert "1 problem(s)" in res.stderr and needle in res.stderr and "re-save it as UTF-8" in res.stderr
    assert "not valid UTF-8" not in res.stderr
    penc = tmp_path / f"pred.{codec}.jsonl"
    penc.write_bytes(pred.read_text(encoding="utf-8").encode(codec))
    res = run("score", "-d", data, "-p", penc, "-q", "--bootstrap", 0)
    assert res.exit_code == 2 and needle in res.stderr and res.stderr.count("\n") == 2
    terms = tmp_path / f"terms.{codec}.txt"
    terms.write_bytes("订单页\n外套\n".encode(codec))
    res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--terms", terms)
    assert res.exit_code == 2 and "invalid --terms file" in res.stderr and f"{terms}: " in res.stderr
    assert "re-save it as UTF-8" in res.stderr


def test_one_bad_byte_in_utf8_is_still_named_by_line(files, tmp_path):
    data, pred = files
    raw = data.read_bytes().split(b"\n")
    raw[1] = raw[1].replace("心情".encode(), b"\xff\xfe\xfd")
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(raw))
    res = run("score", "-d", bad, "-p", pred, "-q", "--bootstrap", 0)
    assert res.exit_code == 2 and f"{bad}:2: not valid UTF-8" in res.stderr and "GB18030" not in res.stderr


def test_utf8_bom_is_accepted_with_the_same_numbers(files, tmp_path):
    data, pred = files
    bdata, bpred = tmp_path / "bom.jsonl", tmp_path / "bom_pred.jsonl"
    bdata.write_bytes(b"\xef\xbb\xbf" + data.read_bytes())
    bpred.write_bytes(b"\xef\xbb\xbf" + pred.read_bytes())
    a = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "-f", "json", "--by", "none")
    b = run("score", "-d", bdata, "-p", bpred, "-q", "--bootstrap", 0, "-f", "json", "--by", "none")
    assert a.exit_code == b.exit_code == 0
    bleu = json.loads(b.stdout)["groups"][0]["scores"]["bleu"]["value"]
    assert bleu == json.loads(a.stdout)["groups"][0]["scores"]["bleu"]["value"]
    assert bleu == compute_bleu(PREDS, [r["responses"] for r in ROWS])["bleu"]


# ---- references that cannot be scored ----------------------------------------------------------------------------------


def test_every_unscorable_reference_is_listed_by_file_line(files, tmp_path):
    data, pred = files
    rows = [dict(r) for r in ROWS]
    rows[0] = {**rows[0], "responses": rows[0]["responses"] + ["\u200b\u200b"]}  # empty after normalisation
    rows[2] = {**rows[2], "responses": ["……", rows[2]["responses"][0], "！？"]}  # punctuation only
    bad = write_jsonl(tmp_path / "bad.jsonl", rows)
    out = tmp_path / "out.txt"
    res = run("score", "-d", bad, "-p", pred, "-q", "--bootstrap", 0, "-o", out)
    assert res.exit_code == 2 and not out.exists()
    assert f"{bad}:1: id 'q1': responses[2] is empty after normalisation" in res.stderr
    assert "1 problem(s)" in res.stderr  # with punctuation kept, "……" and "！？" are tokens
    res = run("score", "-d", bad, "-p", pred, "-q", "--bootstrap", 0, "--punct", "drop")
    assert res.exit_code == 2 and "3 problem(s)" in res.stderr
    assert f"{bad}:3: id 'q3': responses[0] has no tokens after tokenisation ('……'" in res.stderr
    assert f"{bad}:3: id 'q3': responses[2] has no tokens after tokenisation ('！？'" in res.stderr
    # the library refuses the same reference (it is never a length 0: BLEU's brevity penalty would be cancelled)
    for args in (("ceiling", "-d", bad, "--punct", "drop"),
                 ("compare", "-d", bad, "-p", pred, twin(pred), "--punct", "drop")):
        res = run(*args, "-q", "--bootstrap", 5)
        assert res.exit_code == 2, res.output
        assert f"{bad}:3: id 'q3': responses[0] has no tokens" in res.stderr and f"{bad}:1: id 'q1': responses[2]" in res.stderr
        assert res.stderr.count("responses[0] has no tokens") == 1  # the ceiling's leave-one-out rows: listed once
    # bleu only and rouge only both check
    for m in ("bleu", "rouge"):
        res = run("score", "-d", bad, "-p", pred, "-q", "--bootstrap", 0, "--punct", "drop", "--metrics", m)
        assert res.exit_code == 2 and "3 problem(s)" in res.stderr


# ---- messages ---------------------------------------------------------------------------------------------------------------


def test_json_error_messages_read_well(files, tmp_path):
    data, pred = files
    bad = tmp_path / "bad.jsonl"
    bad.write_text(data.read_text(encoding="utf-8") + '{"id": "q4", "query": "没写完\n', encoding="utf-8")
    res = run("score", "-d", bad, "-p", pred, "-q", "--bootstrap", 0)
    assert res.exit_code == 2
    # the unterminated string's opening quote is the 23rd character of '{"id": "q4", "query": "没写完'
    assert '{"id": "q4", "query": '.__len__() + 1 == 23
    assert f"{bad}:4: malformed JSON object: Unterminated string starting at column 23" in res.stderr
    assert "at at" not in res.stderr


@pytest.mark.parametrize("seed", [-5, MAX_SEED + 1, 10**20])
def test_seed_out_of_range_names_the_option(files, seed):
    data, pred = files
    res = run("score", "-d", data, "-p", pred, "-q", "--seed", seed)
    assert res.exit_code == 2
    assert "Invalid value for '--seed'" in res.stderr and f"from 0 to {MAX_SEED}" in res.stderr
    assert "Traceback" not in res.stderr and "non-negative" not in res.stderr


def test_largest_seed_works(files):
    data, pred = files
    res = run("score", "-d", data, "-p", pred, "-q", "--seed", MAX_SEED, "--bootstrap", 20, "-f", "json")
    assert res.exit_code == 0 and json.loads(res.stdout)["params"]["seed"] == 2**32 - 1


def test_a_json_array_data_file_gets_one_message(files, tmp_path):
    data, pred = files
    arr = tmp_path / "data.json"
    arr.write_text(json.dumps(ROWS, ensure_ascii=False, indent=2), encoding="utf-8")
    res = run("score", "-d", arr, "-p", pred, "-q", "--bootstrap", 0)
    assert res.exit_code == 2 and "1 problem(s)" in res.stderr
    assert f"{arr}: is one JSON array of 3 item(s), not JSON Lines" in res.stderr and "jq -c" in res.stderr
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps(ROWS[0], ensure_ascii=False, indent=2), encoding="utf-8")
    with pytest.raises(DuckFormatError, match="one JSON object spread over several lines"):
        load_duck(one)


# empty data, lone surrogates ------------------------------------------------------------------------------------------


def test_empty_data_file_says_no_items(files, tmp_path):
    data, preds = files
    for body in ("", "\n\n  \n"):
        empty = tmp_path / "empty.jsonl"
        empty.write_text(body, encoding="utf-8")
        for args in (("score", "-d", empty, "-p", preds), ("ceiling", "-d", empty), ("clean", empty, "-o", tmp_path / "o.jsonl")):
            res = run(*args, "-q", *(("--bootstrap", 0) if args[0] != "clean" else ()))
            assert res.exit_code == 2, res.output
            assert f"no items in {empty}" in res.output
            assert "Traceback" not in res.output and "Keys mismatch" not in res.output


def test_clean_to_zero_queries_warns_and_its_output_says_no_items(files, tmp_path):
    data, preds = files
    out = tmp_path / "clean.jsonl"
    # every reference has 11-14 characters: with --min-chars 100 all are dropped, so every query is dropped
    res = run("clean", data, "-o", out, "--min-chars", 100, "--max-chars", 150, "-q")
    assert res.exit_code == 0, res.output
    assert re.search(r"warning: .*0 queries", res.output)
    assert out.read_text(encoding="utf-8") == ""
    res = run("score", "-d", out, "-p", preds, "--bootstrap", 0, "-q")
    assert res.exit_code == 2 and f"no items in {out}" in res.output


def test_lone_surrogate_is_named_by_file_line_and_id(files, tmp_path):
    data, preds = files
    # JSON "\ud800" without its low half decodes to a lone surrogate (json.dumps writes it as that escape)
    bad_preds = write_jsonl(tmp_path / "bad_preds.jsonl", [{"id": "q1", "prediction": PREDS[0]},
                                                           {"id": "q2", "prediction": "我\ud800陪着你"},
                                                           {"id": "q3", "prediction": PREDS[2]}], ensure_ascii=True)
    assert "\\ud800" in bad_preds.read_text(encoding="utf-8")
    res = run("score", "-d", data, "-p", bad_preds, "--bootstrap", 0, "-q")
    assert res.exit_code == 2
    assert f"{bad_preds}:2: id 'q2': 'prediction' contains a lone surrogate" in res.output
    rows = [dict(r) for r in ROWS]
    rows[2] = {**rows[2], "responses": ["明天降温，记得穿外套。", "外套\udc00"]}
    bad_data = write_jsonl(tmp_path / "bad_data.jsonl", rows, ensure_ascii=True)
    res = run("score", "-d", bad_data, "-p", preds, "--bootstrap", 0, "-q")
    assert res.exit_code == 2
    assert f"{bad_data}:3: id 'q3': responses[1] contains a lone surrogate ('\\udc00' at position 2)" in res.output
    assert "UnicodeEncodeError" not in res.output and "codec" not in res.output


@pytest.mark.parametrize("codec, needle", [
    ("utf-16-le", "looks like UTF-16 LE without a byte-order mark"),
    ("utf-16-be", "looks like UTF-16 BE without a byte-order mark"),
])
def test_mostly_chinese_utf16_without_bom_gets_one_message(tmp_path, codec, needle):
    """Text with few ASCII characters has few NUL bytes (here only the newlines, and the characters U+xx00 such as
    退 U+9000 put theirs on the other parity): still one message, for text files, predictions and the helper."""
    from zheval.adapters.duck.load import encoding_problem

    text = "今天天气很好\n我要退货\n谢谢您的耐心等待\n"
    assert text.encode(codec).count(b"\x00") == 4  # three newlines and 退
    assert needle in encoding_problem(text.encode(codec), "x.txt")
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text(text, encoding="utf-8")
    hyp.write_bytes(text.encode(codec))
    res = run("bleu", ref, "-i", hyp)
    assert res.exit_code == 2 and needle in res.stderr and "not valid UTF-8" not in res.stderr
    # UTF-8 and GB18030 text are not taken for UTF-16
    assert encoding_problem(text.encode("utf-8"), "x.txt") is None
    assert "GB18030" in encoding_problem(text.encode("gb18030"), "x.txt")


def test_an_integer_longer_than_python_reads_is_named_in_every_predictions_door(files, tmp_path):
    # a JSON integer of 5001 digits (Python converts at most 4300): `zheval score -d D -p P.txt` and the 小黄鸭 data
    # stopped with "Exceeds the limit (4300 digits) ...", naming neither file nor line
    data, _ = files
    line = '{"id": 1' + "0" * 5000 + ', "prediction": "b"}\n'
    txt = tmp_path / "pred.txt"
    txt.write_text('{"id": "q1", "prediction": "a"}\n' + line, encoding="utf-8")
    res = run("score", "-d", data, "-p", txt)
    assert res.exit_code == 2 and "Exceeds the limit" not in res.stderr
    assert f"{txt}:1: this file looks like JSONL (2 of 2 non-blank lines are JSON objects)" in res.stderr
    bare = tmp_path / "pred"  # no extension: sniffed by its first line
    bare.write_text(line, encoding="utf-8")
    res = run("score", "-d", data, "-p", bare)
    assert res.exit_code == 2
    assert (f"{bare}:1: a JSON integer of 5001 digits at column 8: Python reads at most 4300 (write it as a string)"
            in res.stderr)
    duck = tmp_path / "duck.jsonl"
    duck.write_text(json.dumps(ROWS[0], ensure_ascii=False) + "\n" + line, encoding="utf-8")
    res = run("score", "-d", duck, "-p", bare)
    assert res.exit_code == 2
    assert (f"{duck}:2: a JSON integer of 5001 digits at column 8: Python reads at most 4300 (write it as a string)"
            in res.stderr)
