"""docs/chrf.md stays true: its pycon examples run as doctests against the library."""

import doctest
import re

from helpers import REPO

DOC = (REPO / "docs" / "chrf.md").read_text(encoding="utf-8")


def test_chrf_doc_examples_pass():
    blocks = re.findall(r"```pycon\n(.*?)```", DOC, flags=re.S)
    assert blocks
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "chrf.md", "docs/chrf.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 5


def test_chrf_doc_command_lines_run_and_print_what_they_say(tmp_path, monkeypatch):
    import shlex

    from helpers.cli import run_cli

    block = re.search(r"## Command line.*?```bash\n(.*?)```", DOC, flags=re.S).group(1)
    (tmp_path / "ref.txt").write_text("我爱北京的天安门\n今天天气不错\n", encoding="utf-8")
    for name in ("hyp.txt", "base.txt"):
        (tmp_path / name).write_text("我爱北京天安门\n今天天气很好\n", encoding="utf-8")
    (tmp_path / "new.txt").write_text("我爱北京天安门。\n天气很好\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    lines = [ln for ln in block.splitlines() if ln.strip()]
    assert len(lines) == 6
    for line in lines:
        command, _, comment = line.partition("#")
        args = shlex.split(command)
        assert args[:2] == ["zheval", "chrf"]
        res = run_cli(*args[1:])
        assert res.exit_code == 0, (line, res.output)
        # every number the comment shows is printed
        for number in re.findall(r"\d+\.\d+", comment.split("(words")[0]):
            if number != "0.1.0":
                assert number in res.stdout, (line, number, res.stdout)
        if "chrF2++" in comment:
            assert '"name": "chrF2++"' in res.stdout
