"""Control characters the tokenizer drops are counted and said (zheval.compute.guards.ControlCharacterWarning;
break-it: ``你\\x00好`` under ``--normalize none`` lost its NUL without a word). The char tokenizer keeps its rule
(controls are never tokens, as invisible characters: tests/tokenizers/test_char_tokenizer.py); sacrebleu's ``zh``
tokenizer keeps each as a token, so its preset is silent. Counts are written by hand."""

from __future__ import annotations

import warnings

import pytest
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

import zheval
from zheval.compute import guards
from helpers.cli import run_cli


def _ours(fn, *args, **kw):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        fn(*args, **kw)
    return [w for w in record if issubclass(w.category, zheval.ZhevalWarning)]


@pytest.mark.parametrize("normalize", ["none", True])
@pytest.mark.parametrize("call", ["compute_bleu", "compute_rouge", "score"])
def test_dropped_control_characters_are_counted_once_per_call(call, normalize):
    preds = ["你\x00好a\x07b", "天气很好"]
    refs = [["你好ab"], ["天气\x1b很好", "天气不错"]]
    said = _ours(getattr(zheval, call), preds, refs, normalize=normalize)
    controls = [w for w in said if w.category is zheval.ControlCharacterWarning]
    assert len(controls) == 1, [str(w.message) for w in said]  # once, also for score (both metrics)
    msg = str(controls[0].message)
    # by hand: NUL and BEL in predictions[0], ESC in references[1][0] -> 3 characters in 2 texts
    assert msg.startswith("3 control characters (U+0000, U+0007, U+001B) in 2 texts (predictions[0], "
                          "references[1][0]) are in no token (tok:zh-char)"), msg
    assert "sacrebleu's zh tokenizer keeps each as a token" in msg
    assert controls[0].filename == __file__


def test_the_count_is_exact_beyond_the_sample():
    # 100 items: the guards sample 32 of them, each cut to 32 characters; item 77 is not sampled and its NUL is
    # past character 32 -- still counted. By hand: 1 + 2 = 3 characters, in predictions[77] and references[5][1].
    preds = ["好" * 40 for _ in range(100)]
    preds[77] = "好" * 40 + "\x00"
    refs = [["好" * 40, "好"] for _ in range(100)]
    refs[5][1] = "\x01好\x02"
    assert guards.dropped_controls(preds, refs, zheval.get_tokenizer("char")) == (
        3, ["predictions[77]", "references[5][1]"], ["U+0000", "U+0001", "U+0002"])


def test_whitespace_controls_and_kept_controls_are_not_reported():
    tok = zheval.get_tokenizer("char", normalize=False)
    # \t \n \v \f \r, U+001C-U+001F and U+0085 are whitespace: they separate tokens everywhere (sacrebleu splits on them)
    assert guards.dropped_controls(["a\tb\x0b\x0c\r\x1c\x1d\x1e\x1f\x85c"], [["a"]], tok) == (0, [], [])
    # sacrebleu's zh tokenizer keeps NUL as a token, and so does its preset: nothing is dropped, nothing said
    assert TokenizerZh()("你\x00好").split() == ["你", "\x00", "好"]
    said = _ours(zheval.compute_bleu, ["你\x00好"], [["你好"]], preset="sacrebleu-zh")
    assert not [w for w in said if w.category is zheval.ControlCharacterWarning]
    # whitespace splitting keeps a NUL inside its token
    assert guards.dropped_controls(["a\x00b c"], [["a"]], zheval.get_tokenizer("none")) == (0, [], [])


def test_chrf_says_it_only_when_words_are_scored():
    preds, refs = ["你\x00好世界"], [["你好世界"]]
    chars_only = _ours(zheval.compute_chrf, preds, refs)  # character n-grams: the NUL is a character there
    assert not [w for w in chars_only if w.category is zheval.ControlCharacterWarning]
    with_words = _ours(zheval.compute_chrf, preds, refs, word_order=2)
    assert [str(w.message)[:40] for w in with_words if w.category is zheval.ControlCharacterWarning] == [
        "1 control character (U+0000) in 1 text ("]


@pytest.mark.parametrize("command", ["bleu", "rouge"])
def test_the_command_line_names_file_and_line(tmp_path, command):
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "hyp.txt"
    ref.write_text("今天天气很好\n我们去公园\n", encoding="utf-8")
    hyp.write_text("今天天气很好\n我们\x00去\x07公园\n", encoding="utf-8")
    res = run_cli(command, ref, "-i", hyp, "--normalize", "none", "--bootstrap", 0)
    assert res.exit_code == 0, res.output
    assert (f"zheval: warning: 2 control characters (U+0000, U+0007) in 1 text ({hyp}:2) are in no token "
            "(tok:zh-char)") in res.stderr


def test_score_batches_counts_over_every_batch_with_global_indices():
    # by hand: batch 1 (items 0-1) loses U+0000 in predictions[1]; batch 2 (items 2-3) loses U+0007 twice in
    # references[3][0] -> 3 characters in 2 texts, named by their index over all batches
    batches = [(["好的", "好\x00的"], [["好的"], ["好的"]]), (["天气", "很好"], [["天气"], ["很\x07\x07好"]])]
    said = _ours(zheval.score_batches, batches)
    msgs = [str(w.message) for w in said if w.category is zheval.ControlCharacterWarning]
    assert len(msgs) == 1 and msgs[0].startswith(
        "3 control characters (U+0000, U+0007) in 2 texts (predictions[1], references[3][0]) are in no token"), msgs


def test_the_warning_says_controls_break_tokens_as_the_tokenizer_does():
    # by hand: a NUL between 12 and 34 is a break (two tokens), not a deletion (one token 1234)
    tok = zheval.get_tokenizer("char", normalize="none")
    assert tok.tokenize("12\x0034") == ["12", "34"]
    said = _ours(zheval.compute_bleu, ["12\x0034"], [["12 34"]], normalize="none")
    msg = [str(w.message) for w in said if w.category is zheval.ControlCharacterWarning][0]
    assert "a break between tokens" in msg and "drops control characters" not in msg, msg


def _control_files(tmp_path):
    from helpers.cli import ROWS, write_jsonl

    data, preds, records = tmp_path / "data.jsonl", tmp_path / "preds.jsonl", tmp_path / "records.jsonl"
    write_jsonl(data, ROWS)
    # q2's prediction holds a NUL; it stands on line 1 of the predictions file (joined by id), q1 on line 2
    write_jsonl(preds, [{"id": "q2", "prediction": "我陪着你\x00想聊聊吗"}, {"id": "q1", "prediction": "请申请退货"},
                        {"id": "q3", "prediction": "明天穿外套"}])
    write_jsonl(tmp_path / "b.jsonl", [{"id": "q1", "prediction": "请申请退货"}, {"id": "q2", "prediction": "我陪着你"},
                                       {"id": "q3", "prediction": "明天穿外套"}])
    write_jsonl(records, [{"id": "r1", "prediction": "好的", "label": "好的"},
                          {"id": "r2", "prediction": "天气\x07很好", "label": "天气很好"}])
    return data, preds, records


@pytest.mark.parametrize("door", ["score --data", "compare --data", "explain --data", "score records"])
def test_the_command_names_file_and_line_of_each_door(tmp_path, door):
    # break-it 22: score and explain named predictions[1] (the library's index) instead of the file's line
    data, preds, records = _control_files(tmp_path)
    args = {"score --data": ["score", "--data", data, "--predictions", preds, "--bootstrap", 0],
            "compare --data": ["compare", "--data", data, "-p", preds, tmp_path / "b.jsonl", "--bootstrap", 100],
            "explain --data": ["explain", "--data", data, "--predictions", preds],
            "score records": ["score", "--predictions", records, "--bootstrap", 0]}[door]
    res = run_cli(*args)
    assert res.exit_code == 0, res.output
    where = f"{records}:2 (id 'r2'" if door == "score records" else f"{preds}:1 (id 'q2'"
    assert f"in 1 text ({where}" in res.output.replace("\n", " "), res.output
    assert "predictions[" not in res.output


def test_invisible_characters_the_tokenizer_drops_are_counted_without_the_zw_step():
    # known leftover of break-it 22: under normalize="none" U+200B and U+200D vanished from the tokens uncounted.
    # By hand: 你\u200b好 (one U+200B lost), x\u200dy (one U+200D lost) -> 2 characters in predictions[0]; the VS16
    # after "a" stays inside the token "a\ufe0fb" (not lost, not counted)
    preds, refs = ["你\u200b好 x\u200dy a\ufe0fb"], [["你好 xy ab"]]
    tok = zheval.get_tokenizer("char", normalize="none")
    assert tok.tokenize(preds[0]) == ["你", "好", "x", "y", "a\ufe0fb"]
    assert guards.dropped_controls(preds, refs, tok) == (2, ["predictions[0]"], ["U+200B", "U+200D"])
    said = _ours(zheval.compute_bleu, preds, refs, normalize="none")
    msgs = [str(w.message) for w in said if w.category is zheval.ControlCharacterWarning]
    assert len(msgs) == 1 and msgs[0].startswith("2 invisible characters (U+200B, U+200D) in 1 text (predictions[0])")
    # the default normalisation's zw step removes them before tokenising (signed norm:…+zw+…): nothing lost
    assert not [w for w in _ours(zheval.compute_bleu, preds, refs) if w.category is zheval.ControlCharacterWarning]
    # a NUL beside them: both kinds named
    said = _ours(zheval.compute_rouge, ["你\u200b好\x00"], [["你好"]], normalize="none")
    assert [str(w.message)[:51] for w in said if w.category is zheval.ControlCharacterWarning] == [
        "2 control and invisible characters (U+200B, U+0000)"]
    # sacrebleu's zh tokenizer keeps U+200B as a token, and so does its preset: nothing said
    assert TokenizerZh()("你\u200b好").split() == ["你", "\u200b", "好"]
    assert not [w for w in _ours(zheval.compute_bleu, ["你\u200b好"], [["你好"]], preset="sacrebleu-zh")
                if w.category is zheval.ControlCharacterWarning]


@pytest.mark.parametrize("chunk_rows", [7, 1000])
def test_a_streamed_file_names_file_and_line_over_its_chunks(tmp_path, chunk_rows):
    # break-it 23: --stream named references[3][0] (a 0-based position over the chunks) where the whole-file door
    # names FILE:line. By hand: line 4 (id r3) holds an ESC in its label, line 21 (id r20) a NUL in its prediction
    from helpers.cli import write_jsonl
    from zheval.adapters.records_stream import score_records_stream

    rows = [{"id": f"r{i}", "prediction": "今天天气很好", "label": "今天天气很好"} for i in range(30)]
    rows[3]["label"], rows[20]["prediction"] = "Py\x1bthon今天", "好\x00的"
    path = write_jsonl(tmp_path / "records.jsonl", rows)
    report = score_records_stream(path, bootstrap=0, chunk_rows=chunk_rows)
    [said] = [w for w in report.warnings if "control characters" in w]
    assert "in 2 texts (" in said and f"{path}:21 (id 'r20')" in said and f"{path}:4 (id 'r3', 'label')" in said
    assert "predictions[" not in said and "references[" not in said, said
    res = run_cli("score", "-p", path, "--stream", "--bootstrap", 0)
    assert res.exit_code == 0 and f"{path}:4 (id 'r3', 'label')" in res.output.replace("\n", " "), res.output


def test_the_human_ceiling_counts_each_text_of_the_data_once(tmp_path):
    # break-it 23: the ceiling counted its leave-one-out rows (3 characters in predictions[15], references[16][0]
    # ...) for 1 ESC in 1 text of the data. By hand: item 4's responses[0] holds one ESC -> 1 character, 1 text
    from helpers.cli import write_jsonl
    from zheval.adapters.duck import load_duck
    from zheval.adapters.duck.ceiling import human_ceiling

    rows = [{"id": f"q{i}", "query": "问题", "domain": "生活咨询", "difficulty": "易",
             "responses": ["今天天气很好我们去公园玩", "今天天气不错", "天气很好"]} for i in range(6)]
    rows[4]["responses"][0] = "Py\x1bthon今天天气"
    path = write_jsonl(tmp_path / "data.jsonl", rows)
    said = [w for w in human_ceiling(load_duck(path), bootstrap=0).warnings if "control" in w]
    assert len(said) == 1 and said[0].startswith("1 control character (U+001B) in 1 text (references[4][0])"), said
    res = run_cli("ceiling", "--data", path, "--bootstrap", 0)
    assert res.exit_code == 0, res.output
    assert f"1 control character (U+001B) in 1 text ({path}:5 (id 'q4', responses[0]))" in res.output.replace(
        "\n", " "), res.output
