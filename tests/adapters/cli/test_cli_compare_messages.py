"""What ``zheval compare`` of records files (no --data) says (issue 35, break-it pass 6): references that differ
between the systems are shown -- both texts around their first difference, escaped by the terminal rule -- and an
option of the 小黄鸭 file names the files as paths, not as a Python tuple."""

from __future__ import annotations

from helpers.cli import run_cli

HEAD = "id,predict,label\n"


def _csv(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def test_differing_references_are_shown(tmp_path):
    a = _csv(tmp_path / "A.csv", HEAD + "a1,今天天气很好。,今天天气很好啊。\na2,我想去北京,我想去北京旅游。\n")
    b = _csv(tmp_path / "B.csv", HEAD + "a1,今天天气不错。,今天天气很好啊。 \na2,我要去北京。,我想去北京旅游。\n")
    res = run_cli("compare", "-p", a, b)
    assert res.exit_code == 2
    # '今天天气很好啊。' is 8 characters: the trailing space of B's is character 9
    assert (f"{b}:2: id 'a1': its references differ from those of {a}:2 (the reference here is '今天天气很好啊。 ', "
            "there '今天天气很好啊。': they first differ at character 9;") in res.output
    # without ids: paired in order; a control character is shown escaped, never raw
    a = _csv(tmp_path / "c1.csv", 'predict,label\nx,"今天\x1b[2J好"\n')
    b = _csv(tmp_path / "c2.csv", "predict,label\nx,今天好\n")
    res = run_cli("compare", "-p", a, b)
    assert res.exit_code == 2 and "\x1b" not in res.output
    assert ("the reference here is '今天好', there '今天\\x1b[2J好': they first differ at character 3; without ids"
            in res.output)
    x = "一二三四五六七八九十" * 5  # 50 characters, cut to 20 on each side of character 31
    a = _csv(tmp_path / "l1.csv", f"predict,label\nx,{x}\n")
    b = _csv(tmp_path / "l2.csv", f"predict,label\nx,{x[:30]}X{x[31:]}\n")
    res = run_cli("compare", "-p", a, b)
    assert f"here is '…{x[10:30]}X{x[31:50]}', there '…{x[10:50]}': they first differ at character 31" in res.output


def test_an_option_of_the_data_file_names_the_paths(tmp_path):
    a = _csv(tmp_path / "A.csv", HEAD + "a1,今天,今天好\n")
    b = _csv(tmp_path / "B.csv", HEAD + "a1,今天好,今天好\n")
    res = run_cli("compare", "-p", a, b, "--domains", "any")
    assert res.exit_code == 2 and "PosixPath" not in res.output
    assert (f"--domains is an option of the 小黄鸭 file (--data); without --data every row of {a}, {b} is scored "
            "with its own references") in res.output


def test_the_p_value_note_says_strictly_larger_and_cautions_on_few_items(tmp_path):
    """Break-it (words13 F1): on 2 items ``--test ar`` gives p = 1/10001 (sacrebleu's (c + 1) / (n + 1), c counting
    trials *strictly* larger than the observed difference: its ``_compute_p_value``), while the note called p "the
    chance of a difference at least this large" and said nothing of the 2 items: with 2 items only 2^2 = 4 label
    swaps exist (bootstrap: C(3, 2) = 3 resamples), so the note words the formula as stated and cautions."""
    import json

    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text('{"predict": "今天天气好", "label": "今天天气很好"}\n{"predict": "我去公园玩", "label": "我们去公园"}\n',
                 encoding="utf-8")
    b.write_text('{"predict": "今天天气很好", "label": "今天天气很好"}\n{"predict": "我们去公园", "label": "我们去公园"}\n',
                 encoding="utf-8")
    for test, distinct, what in (("ar", 4, "label swaps"), ("bootstrap", 3, "resamples")):
        res = run_cli("compare", "-p", a, b, "--test", test, "--metrics", "rouge", "--rouge-types", "rouge1",
                      "--bootstrap", "200", "-f", "json")
        assert res.exit_code == 0, res.output
        notes = json.loads(res.stdout)["notes"]
        text = " ".join(notes)
        assert "at least this large" not in text
        assert "strictly larger than the observed |B − A|" in text and "a difference strictly larger than this" in text
        assert any(n.startswith(f"with 2 items (overall) the p-value is unreliable: the test can draw only {distinct} "
                                f"distinct {what}") for n in notes), notes
