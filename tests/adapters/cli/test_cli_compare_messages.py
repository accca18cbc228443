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
