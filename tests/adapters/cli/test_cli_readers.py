"""The file-reading doors after break-it-3 (items 1, 2, 3, 7, 9, 10, 11, 16, 17, 18, 19 and papercut 29), each on
the report's own reproduction: the numbers against rouge-score / sacrebleu fed zheval's char tokens, or by hand."""

from __future__ import annotations

import csv
import gzip
import json

import pytest
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU

from helpers.cli import PREDS, ROWS, run_cli as run, twin, write_jsonl
from zheval import get_tokenizer

CHAR = get_tokenizer("char")


def _rouge1(pairs) -> float:
    """Mean ROUGE-1 F of (prediction, [references]) pairs by rouge-score on zheval's char tokens (max over refs)."""
    scorer = rouge_scorer.RougeScorer(["rouge1"], tokenizer=CHAR)
    return sum(scorer.score_multi(refs, pred)["rouge1"].fmeasure for pred, refs in pairs) / len(pairs)


def _bleu(preds, refs) -> float:
    """Corpus BLEU (0-1) by sacrebleu on zheval's char tokens, every item with the same number of references."""
    streams = [[" ".join(CHAR.tokenize(r[k])) for r in refs] for k in range(len(refs[0]))]
    return BLEU(tokenize="none", force=True).corpus_score([" ".join(CHAR.tokenize(p)) for p in preds],
                                                          streams).score / 100


def _json(res) -> dict:
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _overall(doc, metric):
    return doc["groups"][0]["scores"][metric]["value"]


def test_records_pair_prediction_with_references_not_with_a_class_label(tmp_path):
    # break-it 1: 'label' (a class label) was taken as the reference of 'prediction': ROUGE-1 0.000;
    # issue 35 F2: 'label' beside 'references' is refused, naming both pairings, rather than picked or ignored
    f = tmp_path / "lab.jsonl"
    f.write_text('{"prediction": "今天天气很好", "references": ["今天天气很好"], "label": "positive"}\n'
                 '{"prediction": "我很开心", "references": ["我很开心"], "label": "negative"}\n', encoding="utf-8")
    res = run("score", "-p", f, "-q")
    assert res.exit_code == 2 and f"{f}:1: the fields pair up in more than one way ('prediction' with 'label', " \
                                  "'prediction' with 'references')" in res.stderr, res.output
    doc = _json(run("score", "-p", f, "-q", "--ref-field", "references", "--metrics", "rouge", "--rouge-types",
                    "rouge1", "-f", "json"))
    assert _overall(doc, "rouge1") == 1.0  # each prediction equals its reference
    assert "references ['references']" in doc["title"]
    f.write_text('{"prediction": "好", "references": ["好"], "reference": "好的"}\n', encoding="utf-8")
    res = run("score", "-p", f, "-q")
    assert res.exit_code == 2 and f"{f}:1: the fields pair up in more than one way" in res.stderr
    assert "--pred-field NAME --ref-field NAME" in res.stderr


@pytest.mark.parametrize("row, fields", [
    ({"prediction": "你好", "predict": "再见", "label": "你好世界"}, "('predict' with 'label', 'prediction' with 'label')"),
    ({"prediction": "你好", "label": "你好世界", "reference": "再见"},
     "('prediction' with 'label', 'prediction' with 'reference')"),
])
def test_records_refuse_every_field_pairing_that_is_ambiguous(tmp_path, row, fields):
    # issue 35 F2: these scored 'predict' (ignoring 'prediction') and 'reference' (ignoring 'label'), exit 0
    f = write_jsonl(tmp_path / "fam1.jsonl", [{"id": rid, **row} for rid in ("a", "b")])
    res = run("score", "-p", f, "-q")
    assert res.exit_code == 2, res.output
    assert f"{f}:1: the fields pair up in more than one way {fields}: nothing is picked for you; name them with " \
           "--pred-field NAME --ref-field NAME" in res.stderr
    named = [("--pred-field", "prediction")] if "predict" in row else [("--ref-field", "label")]
    named += [("--ref-field", "label")] if "predict" in row else [("--pred-field", "prediction")]
    doc = _json(run("score", "-p", f, "-q", *[x for kv in named for x in kv], "--metrics", "rouge", "--rouge-types",
                    "rouge1", "-f", "json"))
    assert _overall(doc, "rouge1") == pytest.approx(_rouge1([("你好", ["你好世界"])] * 2), abs=1e-12)


def test_tsv_without_quoting(tmp_path):
    # break-it 2: quotes vanished and one unbalanced quote swallowed two of four rows (ROUGE-1 0.594)
    q = tmp_path / "q.tsv"
    q.write_text('id\tpredict\tlabel\n1\t"好的"，我马上处理\t好的，我马上处理\n2\t今天天气很好\t今天天气不错\n', encoding="utf-8")
    doc = _json(run("score", "-p", q, "--items", "-f", "json", "-q", "--metrics", "rouge", "--rouge-types", "rouge1"))
    item = next(i for i in doc["items"] if i["id"] == "1")
    assert item["prediction"] == '"好的"，我马上处理'
    assert item["rouge1"] == pytest.approx(_rouge1([('"好的"，我马上处理', ["好的，我马上处理"])]), abs=1e-12)
    q2 = tmp_path / "q2.tsv"
    rows = [("1", '"他说好的', "好的，我马上处理"), ("2", "今天天气很好", "今天天气不错"), ("3", '不客气"', "不客气"),
            ("4", "再见", "再见")]
    q2.write_text("id\tpredict\tlabel\n" + "".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")
    doc = _json(run("score", "-p", q2, "-f", "json", "-q", "--metrics", "rouge", "--rouge-types", "rouge1"))
    assert doc["groups"][0]["n"] == 4
    assert _overall(doc, "rouge1") == pytest.approx(_rouge1([(p, [r]) for _, p, r in rows]), abs=1e-12)


def test_named_prediction_field_joins_by_the_id_column_when_there_is_one(tmp_path):
    # break-it 3: --pred-field without --id-field joined a reversed file by line order (BLEU 0.007 for 0.354)
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    rev = tmp_path / "rev_preds.csv"
    with rev.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([["id", "prediction"]] + [[p["id"], p["prediction"]] for p in PREDS[::-1]])
    doc = _json(run("score", "--data", data, "-p", rev, "--pred-field", "prediction", "-q", "-f", "json",
                    "--metrics", "bleu", "--bootstrap", 0))
    refs = [r["responses"] for r in ROWS]
    right = _bleu([p["prediction"] for p in PREDS], refs)
    assert _overall(doc, "bleu") == pytest.approx(right, abs=1e-12)
    assert right != pytest.approx(_bleu([p["prediction"] for p in PREDS[::-1]], refs))  # line order would differ
    mixed = write_jsonl(tmp_path / "mixed.jsonl", [{"prediction": PREDS[0]["prediction"]}] + PREDS[1:][::-1])
    res = run("score", "--data", data, "-p", mixed, "--pred-field", "prediction", "-q")  # ids after the first row
    assert res.exit_code == 2 and f"{mixed}:1: missing field(s) ['id']" in res.stderr


def test_a_csv_predictions_file_with_data_is_read_as_csv(tmp_path):
    # break-it 9: read as plain text, the header line became prediction 1
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    refs = [r["responses"] for r in ROWS]
    right = _bleu([p["prediction"] for p in PREDS], refs)
    one = tmp_path / "preds.csv"
    one.write_text("prediction\n" + "".join(p["prediction"] + "\n" for p in PREDS), encoding="utf-8")
    with_ids = tmp_path / "ids.csv"
    with_ids.write_text("id,prediction\n" + "".join(f"{p['id']},{p['prediction']}\n" for p in PREDS[::-1]),
                        encoding="utf-8")
    for f in (one, with_ids):
        doc = _json(run("score", "--data", data, "-p", f, "-q", "-f", "json", "--metrics", "bleu", "--bootstrap", 0))
        assert _overall(doc, "bleu") == pytest.approx(right, abs=1e-12)
    bad = tmp_path / "out.csv"
    bad.write_text("output\n" + "".join(p["prediction"] + "\n" for p in PREDS), encoding="utf-8")
    res = run("score", "--data", data, "-p", bad, "-q")
    # the header (line 1) lacks the field: the error names the header's line, not the first row's
    assert res.exit_code == 2 and f"{bad}:1: no prediction field" in res.stderr and "--pred-field" in res.stderr


def test_text_files_get_the_input_slip_warnings(tmp_path):
    # break-it 7: an exact copy scored BLEU 0.0 with -t none, a Traditional copy 37.6, stderr empty
    import opencc

    lines = ["今天天气很好，我们去公园散步吧。", "这个软件的内存不够用，需要更新驱动程序。"]
    r = tmp_path / "r.txt"
    r.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    trad = tmp_path / "h_trad.txt"
    s2t = opencc.OpenCC("s2t")
    trad.write_text("".join(s2t.convert(x) + "\n" for x in lines), encoding="utf-8")
    res = run("bleu", r, "-i", r, "-t", "none", "-b")
    assert res.exit_code == 0 and 'zheval: warning: --tokenizer none splits on whitespace only' in res.stderr
    res = run("bleu", r, "-i", trad, "-b")
    assert res.exit_code == 0 and "look like Traditional Chinese" in res.stderr and "--t2s" in res.stderr
    doc = json.loads(run("rouge", r, "-i", trad, "-f", "json").stdout)
    assert any("Traditional" in w for w in doc["warnings"])
    assert "warning" not in run("bleu", r, "-i", trad, "-b", "--t2s").stderr
    rec = write_jsonl(tmp_path / "rec.jsonl", [{"predict": x, "label": x} for x in lines])  # the records door too
    assert "--tokenizer none splits on whitespace only" in run("score", "-p", rec, "-t", "none", "-q").stdout


def test_the_preset_counts_are_shown_by_the_text_commands(tmp_path):
    # break-it 10: LongBench's recursion cutoff and OpenCompass's placeholders were never shown
    import random

    random.seed(5)
    w = ["我们", "今天", "天气", "很好", "公园", "散步", "学习", "数据", "分析", "模型", "训练", "评估", "中文", "系统", "方法",
         "结果"]
    ref = "".join(random.choice(w) for _ in range(1500))
    hyp = "".join(random.choice(w) if random.random() < 0.3 else x for x in [ref[i:i + 2] for i in range(0, len(ref), 2)])
    (tmp_path / "lb_ref.txt").write_text(ref + "\n今天天气很好\n", encoding="utf-8")
    (tmp_path / "lb_hyp.txt").write_text(hyp + "\n今天天气不错\n", encoding="utf-8")
    args = ("rouge", tmp_path / "lb_ref.txt", "-i", tmp_path / "lb_hyp.txt", "--preset", "longbench",
            "--rouge-types", "rougeL")
    res = run(*args)
    assert res.exit_code == 0 and "longbench_cutoff_references = 1" in res.stdout  # the long pair hits the cutoff
    extra = json.loads(run(*args, "-f", "json").stdout)["systems"][0]["preset_scores"]
    assert extra["longbench_cutoff_references"] == 1 and extra["longbench_rouge_l_uncut"] > extra["longbench_rouge_l"]
    (tmp_path / "oc_ref.txt").write_text("今天天气很好\n今天天气很好\n", encoding="utf-8")
    (tmp_path / "oc_hyp.txt").write_text("...\n今天天气不错\n", encoding="utf-8")  # '...' is a placeholder for OpenCompass
    doc = json.loads(run("rouge", tmp_path / "oc_ref.txt", "-i", tmp_path / "oc_hyp.txt", "--preset",
                         "opencompass-jieba-rouge", "-f", "json").stdout)
    assert doc["systems"][0]["preset_scores"]["opencompass_placeholder_predictions"] == 1


def test_a_null_string_and_a_missing_group_value_are_two_groups(tmp_path):
    # break-it 11: both were labelled null
    g = tmp_path / "g.jsonl"
    g.write_text('{"predict": "今天天气很好", "label": "今天天气很好", "cat": "null"}\n'
                 '{"predict": "今天天气很好", "label": "明天下雨", "cat": null}\n', encoding="utf-8")
    args = ("score", "-p", g, "--group-field", "cat", "-q", "--metrics", "rouge", "--rouge-types", "rouge1")
    doc = _json(run(*args, "-f", "json"))
    got = {g["value"]: g["scores"]["rouge1"]["value"] for g in doc["groups"][1:]}
    # by hand: identical texts F = 1; 今天天气很好 / 明天下雨 share one 天: P 1/6, R 1/4, F 2PR/(P+R) = 0.2
    assert got == {"null": 1.0, None: pytest.approx(0.2, abs=1e-12)}
    table = run(*args).stdout
    assert 'cat="null"' in table and "cat=null " in table


def test_empty_references_are_named_by_file_line_and_the_users_field(tmp_path):
    # break-it 16: "references[1][0] is empty" (0-based) and "responses[0]" (an internal column)
    r, h = tmp_path / "r_zw.txt", tmp_path / "h3.txt"
    r.write_bytes("今天天气很好\n\u200b\n好的\n".encode())
    h.write_text("今天天气很好\n你好\n好的\n", encoding="utf-8")
    res = run("bleu", r, "-i", h)
    assert res.exit_code == 2 and f"{r}:2: empty after normalisation" in res.stderr and "references[" not in res.stderr
    rec = tmp_path / "rec.jsonl"
    rec.write_text('{"predict": "好的", "label": "\\u200b"}\n', encoding="utf-8")
    res = run("score", "-p", rec, "-q")
    assert res.exit_code == 2 and f"{rec}:1: id 'line 1': 'label' is empty after normalisation" in res.stderr
    rec.write_text('{"prediction": "好", "references": ["好的", "\\u200b"]}\n', encoding="utf-8")
    res = run("score", "-p", rec, "-q")
    assert res.exit_code == 2 and f"{rec}:1: id 'line 1': references[1] is empty" in res.stderr


def test_a_csv_cell_over_131072_characters(tmp_path):
    # break-it 17: "malformed CSV: field larger than field limit (131072)"
    big = "".join("今天天气很好我们去公园散步吧"[i % 14] for i in range(150_000))
    f = tmp_path / "huge.csv"
    with f.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([["predict", "label"], [big, big], ["好的", "好的"]])
    doc = _json(run("score", "-p", f, "-q", "-f", "json", "--metrics", "rouge", "--rouge-types", "rouge1",
                    "--bootstrap", 0))
    assert doc["groups"][0]["n"] == 2 and _overall(doc, "rouge1") == 1.0  # both predictions equal their reference


def test_compare_with_one_system_says_so(tmp_path):
    # break-it 18: "predictions file not found: --test"
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    preds = write_jsonl(tmp_path / "preds.jsonl", PREDS)
    res = run("compare", "--data", data, "--predictions", preds, "--test", "ar")
    assert res.exit_code == 2 and "compare needs at least two systems" in res.stderr and "not found" not in res.stderr


def test_gzip_text_files_and_the_terms_path(tmp_path):
    # break-it 19: "not valid UTF-8 (byte 1: b'\x8b\x08…')"; sacrebleu opens .gz files
    refs = ["今天天气很好，我们去公园散步吧。", "这个软件的内存不够用。"]
    hyps = ["今天天气不错，我们去公园吧。", "这个软件内存不够，需要更新。"]
    r, h = tmp_path / "r.txt.gz", tmp_path / "h.txt.gz"
    r.write_bytes(gzip.compress("".join(x + "\n" for x in refs).encode()))
    h.write_bytes(gzip.compress("".join(x + "\n" for x in hyps).encode()))
    res = run("bleu", r, "-i", h, "--preset", "sacrebleu-zh", "-b", "-w", 6)
    assert res.exit_code == 0, res.output
    assert float(res.stdout) == pytest.approx(BLEU(tokenize="zh").corpus_score(hyps, [refs]).score, abs=1e-6)
    d = tmp_path / "adir"
    d.mkdir()
    plain = tmp_path / "r.txt"
    plain.write_text("".join(x + "\n" for x in refs), encoding="utf-8")
    res = run("bleu", plain, "-i", plain, "--terms", d)
    assert res.exit_code == 2 and f"--terms path {d} is a directory, not a file" in res.stderr
    assert "Errno" not in res.stderr
    res = run("bleu", plain, "-i", plain, "--terms", tmp_path / "nonexistent")
    assert res.exit_code == 2 and f"--terms file not found: {tmp_path / 'nonexistent'}" in res.stderr


def test_a_table_row_with_fewer_references_than_reference_columns(tmp_path):
    # break-it 29: an empty ref2 cell was "'ref2' is empty or whitespace only"
    f = tmp_path / "refs.csv"
    f.write_text("output,ref1,ref2\n今天天气很好,今天天气很好,今天天气不错\n我很开心,我很高兴,\n", encoding="utf-8")
    doc = _json(run("score", "-p", f, "--pred-field", "output", "--ref-field", "ref1", "--ref-field", "ref2", "-q",
                    "-f", "json", "--metrics", "rouge", "--rouge-types", "rouge1", "--bootstrap", 0))
    want = _rouge1([("今天天气很好", ["今天天气很好", "今天天气不错"]), ("我很开心", ["我很高兴"])])
    assert _overall(doc, "rouge1") == pytest.approx(want, abs=1e-12)
    assert any("1 row(s) have an empty 'ref2' cell" in n for n in doc["notes"])


def test_cr_only_line_ends_are_refused_at_the_text_door(tmp_path):
    r = tmp_path / "r.txt"
    r.write_bytes("今天天气很好\r好的\r".encode())
    res = run("bleu", r, "-i", r)
    assert res.exit_code == 2 and f"{r}: its lines end in CR (\\r) only" in res.stderr


def test_one_id_rule_integer_ids_join_their_decimal_strings(tmp_path):
    # the 小黄鸭 data said "'id' must be a non-empty string, got integer 7" while the records door took 7 as "7"
    rows = [dict(r, id=str(k)) for k, r in enumerate(ROWS, start=1)]
    data = write_jsonl(tmp_path / "data.jsonl", rows)
    preds = write_jsonl(tmp_path / "preds.jsonl", [{"id": k, "prediction": p["prediction"]}
                                                   for k, p in reversed(list(enumerate(PREDS, start=1)))])
    doc = _json(run("score", "--data", data, "-p", preds, "-q", "-f", "json", "--metrics", "bleu", "--bootstrap", 0))
    assert _overall(doc, "bleu") == pytest.approx(_bleu([p["prediction"] for p in PREDS],
                                                        [r["responses"] for r in ROWS]), abs=1e-12)
    dup = write_jsonl(tmp_path / "dup.jsonl", [dict(rows[0], id=7), dict(rows[1], id="7")])
    res = run("score", "--data", dup, "-p", preds, "-q")
    assert res.exit_code == 2 and f"{dup}:2: id '7': duplicate id (first seen at {dup}:1)" in res.stderr


def test_cr_line_ends_with_only_a_final_lf_are_refused_as_cr_only(tmp_path):
    """CR line ends and one final LF (a classic Mac OS file someone appended a line end to) are the CR-only message,
    not "no items": whole file, ``--stream`` and ``sample``, CSV and TSV; CRLF files still read."""
    shown = "its lines end in CR (\\r) only (classic Mac OS line ends): it would be read as one line instead of 3"
    for sep, ext in ((",", "csv"), ("\t", "tsv")):
        f = tmp_path / f"c5.{ext}"
        f.write_bytes(sep.join(["id", "prediction", "reference"]).encode() + b"\r"
                      + sep.join(["1", "今天天气不错", "今天天气很好"]).encode() + b"\r"
                      + sep.join(["2", "好的", "好的呢"]).encode() + b"\n")
        for args in (("score", "-p", f), ("score", "--stream", "-p", f), ("sample", "-p", f, "--k", 1,
                                                                           "-o", tmp_path / "s.csv")):
            res = run(*args, "-q")
            assert res.exit_code == 2, (args, res.output)
            assert f"{f}: {shown}" in res.stderr, (args, res.stderr)
            assert "no items" not in res.stderr
    ok = tmp_path / "ok.csv"
    ok.write_bytes("id,prediction,reference\r\n1,好的,好的\r\n".encode())
    assert _json(run("score", "--stream", "-p", ok, "-q", "--bootstrap", 0, "-f", "json"))["groups"][0]["n"] == 1


def test_a_later_jsonl_row_with_another_candidate_field_is_refused(tmp_path):
    # issue 35 F2 beyond the first row: a row with 'reference' or 'predict' beside the first row's pairing had the
    # extra field ignored silently
    from zheval.adapters.records import RecordsFormatError
    from zheval.adapters.records_stream import stream_records

    f = write_jsonl(tmp_path / "late.jsonl", [{"id": "a", "prediction": "你好", "label": "你好世界"},
                                              {"id": "b", "prediction": "你好", "label": "你好世界", "reference": "再见"},
                                              {"id": "c", "predict": "再见", "prediction": "你好", "label": "你好世界"}])
    for stream in ([], ["--stream"]):
        res = run("score", "-p", f, "-q", *stream)
        assert res.exit_code == 2, res.output
        assert f"{f}:2: id 'b': this row also has ['reference'] beside 'prediction' and 'label' (the first row's " \
               "pairing): the fields pair up in more than one way here; nothing is picked for you; name them with " \
               "--pred-field NAME --ref-field NAME" in res.stderr
        assert f"{f}:3: id 'c': this row also has ['predict']" in res.stderr
    with pytest.raises(RecordsFormatError, match=r"late\.jsonl:2: id 'b': this row also has \['reference'\]"):
        list(stream_records(f, chunk_rows=1))  # row 2 is the second chunk: the first chunk's pairing held
    res = run("score", "-p", f, "-q", "--ref-field", "label")
    assert res.exit_code == 2 and f"{f}:2:" not in res.stderr
    assert "this row also has ['predict'] beside 'prediction' and 'label' (the first row's pairing): the fields pair " \
           "up in more than one way here; nothing is picked for you; name them with --pred-field NAME\n" in res.stderr + "\n"
    doc = _json(run("score", "-p", f, "-q", "--pred-field", "prediction", "--ref-field", "label", "--metrics", "rouge",
                    "--rouge-types", "rouge1", "-f", "json"))
    assert _overall(doc, "rouge1") == pytest.approx(_rouge1([("你好", ["你好世界"])] * 3), abs=1e-12)


# A row without its second reference, written as each format writes "missing" (pandas: an empty CSV/TSV cell, a JSON
# null, a Parquet null): one rule at the records door -- that reference is left out for that row, counted in the same
# note. Before: the CSV/TSV cell was accepted, the JSONL/Parquet null refused ("got null").
_GOLD = [{"id": "a", "pred": "今天天气很好", "gold1": "今天天气不错", "gold2": "天气很好"},
         {"id": "b", "pred": "我喜欢猫", "gold1": "我爱猫", "gold2": None},
         {"id": "c", "pred": "他去了北京", "gold1": None, "gold2": "他去北京了"}]


@pytest.mark.parametrize("suffix", ["csv", "tsv", "jsonl", "parquet"])
def test_a_missing_second_reference_is_left_out_alike_in_every_format(tmp_path, suffix):
    import pandas as pd

    import zheval

    df, f = pd.DataFrame(_GOLD), tmp_path / f"rows.{suffix}"
    if suffix == "parquet":
        df.to_parquet(f)
    elif suffix == "jsonl":
        df.to_json(f, orient="records", lines=True, force_ascii=False)
    else:
        df.to_csv(f, index=False, sep="\t" if suffix == "tsv" else ",")
    text = None if suffix == "parquet" else f.read_text(encoding="utf-8").splitlines()
    missing = {"csv": ("b,我喜欢猫,我爱猫,", "c,他去了北京,,他去北京了"), "tsv": ("b\t我喜欢猫\t我爱猫\t", "c\t他去了北京\t\t他去北京了"),
               "jsonl": ('"gold2":null', '"gold1":null')}.get(suffix)
    if missing:  # as pandas writes a missing value: an empty cell, a JSON null
        assert missing[0] in text[-2] and missing[1] in text[-1], text
    else:
        import pyarrow.parquet as pq

        assert [(r["gold1"], r["gold2"]) for r in pq.read_table(f).to_pylist()][1:] == [("我爱猫", None),
                                                                                         (None, "他去北京了")]
    doc = _json(run("score", "-p", f, "--pred-field", "pred", "--ref-field", "gold1", "--ref-field", "gold2", "-q",
                    "-f", "json", "--metrics", "bleu,rouge", "--rouge-types", "rouge1",
                    "--bootstrap", 0))
    # the intended references: row a both, row b gold1 only, row c gold2 only
    pairs = [("今天天气很好", ["今天天气不错", "天气很好"]), ("我喜欢猫", ["我爱猫"]), ("他去了北京", ["他去北京了"])]
    assert _overall(doc, "rouge1") == pytest.approx(_rouge1(pairs), abs=1e-12)  # rouge-score, max over refs
    # by hand, rouge1 F: a = max(F(今天天气很好, 今天天气不错) = 4/6, F(., 天气很好) = 2*4/(6+4) = 4/5) = 4/5;
    # b: 我,猫 common, P = 2/4, R = 2/3, F = 4/7; c: all 5 chars shared (order aside): F = 1
    assert _overall(doc, "rouge1") == pytest.approx((4 / 5 + 4 / 7 + 1) / 3, abs=1e-12)
    bleu = zheval.compute_bleu([p for p, _ in pairs], [r for _, r in pairs], tokenizer="char")["bleu"]
    assert _overall(doc, "bleu") == pytest.approx(bleu, abs=1e-12)
    assert sorted(n for n in doc["notes"] if "empty" in n) == [
        "1 row(s) have an empty 'gold1' cell: no reference there (those rows are scored with the references they "
        "have)",
        "1 row(s) have an empty 'gold2' cell: no reference there (those rows are scored with the references they "
        "have)"]
    # explain and sample read the same rows: each says so on stderr, naming the file (they said nothing)
    fields = ("--pred-field", "pred", "--ref-field", "gold1", "--ref-field", "gold2")
    for args in (("explain", "-p", f, *fields, "--id", "b"),
                 ("sample", "-p", f, *fields, "-k", 3, "-o", tmp_path / "sheet.csv")):
        res = run(*args)
        assert res.exit_code == 0, res.output
        assert (f"zheval: note: {f}: 1 row(s) have an empty 'gold2' cell: no reference there (those rows are scored "
                "with the references they have)") in res.stderr, (args[0], res.stderr)
    # compare puts score's notes in its report, per system
    doc = _json(run("compare", "-p", f, twin(f), *fields, "--bootstrap", 10, "-q", "-f", "json"))
    assert [n for n in doc["notes"] if "empty 'gold2'" in n] == [
        f"{s}: 1 row(s) have an empty 'gold2' cell: no reference there (those rows are scored with the references "
        "they have)" for s in "AB"]
