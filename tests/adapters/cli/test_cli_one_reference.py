"""Multi-reference options where the command line alone guarantees one reference per item are refused (issue 35).

``zheval rouge r.txt -i h.txt --multi-ref mean`` printed ``nrefs:1|...|multi:mean``: with one REF file every item has
one reference, so the rule that combines several changes nothing, yet the signature named it. Likewise
``zheval bleu --bp-ref-length``, ``zheval bertscore --multi-ref`` with one REF file, and ``zheval score`` /
``zheval compare --multi-ref`` under ``--max-refs 1``. Judged by what was typed (``_given``, even the default value),
as the other no-effect refusals; two REF files, or data with several references, take them. The library is left
alone: data that merely happens to hold one reference per item is scored with the options a pipeline passes for any
data. ``zheval score`` then says in its report's notes (``zheval explain`` on stderr) that ``--multi-ref`` changed
nothing, as every item had one reference.
"""

from __future__ import annotations

import json
import warnings

import pytest

import zheval
from helpers.cli import run_cli, write_jsonl, write_sample_files

REFS = ["今天天气很好", "会议改到下周举行"]
REFS2 = ["今天天气不错", "会议推迟到下周"]
HYPS = ["今天天气好", "会议推迟到下周举行"]


@pytest.fixture
def files(tmp_path):
    paths = []
    for name, lines in (("ref.txt", REFS), ("ref2.txt", REFS2), ("hyp.txt", HYPS)):
        p = tmp_path / name
        p.write_text("".join(t + "\n" for t in lines), encoding="utf-8")
        paths.append(p)
    return paths


_WHY = ("and one REF file gives every item one reference, so it would change nothing: leave {flag} out, or give more "
        "REF files")


@pytest.mark.parametrize("command, args, flag, what", [
    ("rouge", ["--multi-ref", "mean"], "--multi-ref", "combines the scores of an item's several references"),
    ("rouge", ["--multi-ref", "max"], "--multi-ref", "combines the scores of an item's several references"),
    ("rouge", ["--preset", "rouge155", "--multi-ref", "best_recall"], "--multi-ref", "combines the scores"),
    ("bleu", ["--bp-ref-length", "shortest", "-f", "text"], "--bp-ref-length",
     "picks which reference's length the brevity penalty compares with"),
    ("bleu", ["--bp-ref-length", "closest"], "--bp-ref-length", "picks which reference's length"),
])
def test_one_ref_file_refuses_the_multi_reference_options(files, command, args, flag, what):
    ref, ref2, hyp = files
    res = run_cli(command, ref, "-i", hyp, *args)
    assert res.exit_code == 2, res.output
    assert f"zheval: error: {flag} {what}" in res.stderr and _WHY.format(flag=flag) in res.stderr, res.stderr
    assert "Traceback" not in res.output and "multi_ref" not in res.stderr and "bp_ref_length" not in res.stderr
    ok = run_cli(command, ref, ref2, "-i", hyp, *args)  # two references per item: the option chooses
    assert ok.exit_code == 0, ok.output
    assert "nrefs:2" in ok.stdout


def test_one_ref_file_without_the_options_still_scores(files):
    ref, _, hyp = files
    for command in ("rouge", "bleu"):
        res = run_cli(command, ref, "-i", hyp)
        assert res.exit_code == 0 and "nrefs:1" in res.stdout, res.output


def test_bp_ref_length_none_acts_on_one_reference_and_passes(files):
    # none turns the brevity penalty off: it changes the score of a short hypothesis with one reference too
    ref, _, hyp = files
    hyp.write_text("今天天气很\n会议改到下周\n", encoding="utf-8")  # prefixes: every precision 1, BP < 1
    plain = run_cli("bleu", ref, "-i", hyp, "-b", "-w", "4")
    res = run_cli("bleu", ref, "-i", hyp, "--bp-ref-length", "none", "-b", "-w", "4")
    assert res.exit_code == 0 and plain.exit_code == 0, res.output
    assert float(res.stdout) == 100.0 and float(plain.stdout) < 100.0, (res.stdout, plain.stdout)


def test_an_unknown_value_is_named_as_such_first(files):
    ref, _, hyp = files
    res = run_cli("rouge", ref, "-i", hyp, "--multi-ref", "best")
    assert res.exit_code == 2 and "unknown --multi-ref 'best'" in res.output, res.output


def test_bertscore_one_ref_file_refuses_multi_ref_before_the_model_is_read(files, tmp_path):
    ref, _, hyp = files
    res = run_cli("bertscore", ref, "-i", hyp, "--model", tmp_path / "no-model", "--multi-ref", "best_f")
    assert res.exit_code == 2, res.output
    assert ("zheval: error: --multi-ref combines the scores of an item's several references, "
            + _WHY.format(flag="--multi-ref")) in res.stderr, res.stderr


def test_bertscore_two_ref_files_take_multi_ref(files, tmp_path):
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from helpers.tiny_bert import make_tiny_bert

    torch.set_num_threads(1)
    tiny = make_tiny_bert(tmp_path / "tiny", layers=2, seed=2)
    ref, ref2, hyp = files
    res = run_cli("bertscore", ref, ref2, "-i", hyp, "--model", tiny, "--layer", "2", "--device", "cpu",
                  "--multi-ref", "best_f")
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("command", ["score", "compare"])
def test_max_refs_one_refuses_multi_ref(tmp_path, command):
    data, preds, _, _ = write_sample_files(tmp_path)  # two references per item
    systems = ["--predictions", preds, preds.with_name("b.jsonl")]
    preds.with_name("b.jsonl").write_text(preds.read_text(encoding="utf-8").replace("请在", "请到"), encoding="utf-8")
    head = ["score", "--data", data, "--predictions", preds] if command == "score" else ["compare", "--data", data,
                                                                                          *systems]
    res = run_cli(*head, "--multi-ref", "mean", "--max-refs", "1")
    assert res.exit_code == 2, res.output
    assert ("zheval: error: --multi-ref combines the scores of an item's several references, and --max-refs 1 gives "
            "every item one reference, so it would change nothing: leave --multi-ref out") in res.stderr, res.stderr
    assert "REF files" not in res.stderr
    for ok_args in (["--multi-ref", "mean", "--max-refs", "2"], ["--max-refs", "1"], ["--multi-ref", "mean"]):
        ok = run_cli(*head, *ok_args, "--bootstrap", "0" if command == "score" else "20")
        assert ok.exit_code == 0, (ok_args, ok.output)


def test_the_library_scores_one_reference_per_item_with_any_rule():
    # a pipeline passes the same options for any data: one reference per item is not refused there
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = zheval.compute_rouge(HYPS, [[r] for r in REFS], multi_ref="mean")
        bleu = zheval.compute_bleu(HYPS, [[r] for r in REFS], bp_ref_length="shortest")
    assert "nrefs:1" in out["signature"] and "multi:mean" in out["signature"]
    assert "bp:shortest" in bleu["signature"]


def test_ceiling_max_refs_two_refuses_multi_ref(tmp_path):
    # the ceiling scores each reference against the item's other references: under --max-refs 2 there is one other,
    # so --multi-ref combines nothing (the signature said nrefs:1|...|multi:mean)
    data = write_jsonl(tmp_path / "d.jsonl", [
        {"id": f"d{i}", "domain": "情感陪伴", "difficulty": "难", "query": f"问题{i}", "responses": [f"回答{i}甲乙", f"回答{i}丙丁", f"答{i}乙丙"]}
        for i in range(4)])
    res = run_cli("ceiling", "--data", data, "--multi-ref", "mean", "--max-refs", "2", "--bootstrap", "0")
    assert res.exit_code == 2, res.output
    assert ("zheval: error: --multi-ref combines the scores of an item's several references, and --max-refs 2 (the "
            "ceiling scores each reference against the item's others) gives every item one reference") in res.stderr
    for ok_args in (["--max-refs", "2"], ["--multi-ref", "mean"], ["--multi-ref", "mean", "--max-refs", "3"]):
        ok = run_cli("ceiling", "--data", data, *ok_args, "--bootstrap", "0")
        assert ok.exit_code == 0, (ok_args, ok.output)


_NOTE = ("every item had one reference, so --multi-ref mean changed nothing (it combines the scores of an item's "
         "several references)")


def _one_reference_files(tmp_path, k=1):
    rows = [{"id": f"d{i}", "domain": "情感陪伴", "difficulty": "难", "query": f"问题{i}",
             "responses": [f"回答{i}甲乙", f"回答{i}丙丁"][:k]} for i in range(4)]
    data = write_jsonl(tmp_path / f"d{k}.jsonl", rows)
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": f"d{i}", "prediction": f"回答{i}甲"} for i in range(4)])
    records = write_jsonl(tmp_path / f"r{k}.jsonl", [{"id": r["id"], "predict": f"回答{i}甲", "label": r["responses"][0]}
                                                    for i, r in enumerate(rows)])
    return data, preds, records


@pytest.mark.parametrize("door", ["data", "records", "stream", "max-refs"])
def test_score_notes_that_multi_ref_changed_nothing_on_one_reference_data(tmp_path, door):
    # data that happens to hold one reference per item is scored (not refused), and the report says --multi-ref
    # changed nothing, in its notes of every format (the signature still reads nrefs:1|...|multi:mean)
    data, preds, records = _one_reference_files(tmp_path)
    head = {"data": ["--data", data, "-p", preds, "--min-refs", "1"], "records": ["-p", records],
            "stream": ["-p", records, "--stream"],
            "max-refs": ["--data", data, "-p", preds, "--min-refs", "1", "--max-refs", "2"]}[door]
    res = run_cli("score", *head, "--multi-ref", "mean", "--bootstrap", "0", "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert _NOTE in out["notes"], out["notes"]
    assert "nrefs:1|" in out["signatures"]["rouge"] and "multi:mean" in out["signatures"]["rouge"]
    table = run_cli("score", *head, "--multi-ref", "mean", "--bootstrap", "0", "-q")
    assert table.exit_code == 0 and _NOTE in table.stdout, table.output
    plain = run_cli("score", *head, "--bootstrap", "0", "-q", "-f", "json")  # not typed: nothing to say
    assert plain.exit_code == 0 and not any("--multi-ref" in n for n in json.loads(plain.stdout)["notes"])


def test_score_says_nothing_when_an_item_has_several_references(tmp_path):
    data, preds, _ = _one_reference_files(tmp_path, k=2)
    res = run_cli("score", "--data", data, "-p", preds, "--multi-ref", "mean", "--bootstrap", "0", "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    assert not any("--multi-ref" in n for n in json.loads(res.stdout)["notes"])


def test_explain_notes_that_multi_ref_changed_nothing_on_one_reference_data(tmp_path):
    data, preds, records = _one_reference_files(tmp_path)
    for head in (["--data", data, "-p", preds, "--min-refs", "1"], ["-p", records]):
        res = run_cli("explain", *head, "--multi-ref", "mean", "--id", "d1", "-f", "json")
        assert res.exit_code == 0, res.output
        assert f"note: {_NOTE}" in res.stderr, res.stderr
        plain = run_cli("explain", *head, "--id", "d1", "-f", "json")
        assert plain.exit_code == 0 and "--multi-ref" not in plain.stderr, plain.stderr
    data2, _, _ = _one_reference_files(tmp_path, k=2)
    res = run_cli("explain", "--data", data2, "-p", preds, "--multi-ref", "mean", "--id", "d1", "-f", "json")
    assert res.exit_code == 0 and "--multi-ref" not in res.stderr, res.output


def test_the_library_report_has_no_such_note(tmp_path):
    from zheval.adapters.duck import evaluate_predictions, load_duck

    data, _, _ = _one_reference_files(tmp_path)
    rep = evaluate_predictions(load_duck(data, min_refs=1), [f"回答{i}甲" for i in range(4)], multi_ref="mean",
                               bootstrap=0)
    assert not any("multi" in n for n in rep.notes), rep.notes
