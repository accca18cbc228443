"""One file given twice as two systems is refused, by one rule for every door (issue 35 F19): ``zheval compare -p A A``
compared A with itself and reported "no difference"; ``zheval bleu -i h ./h`` scored one file as two systems (it
refused only the same spelling). The same file is the same path after resolving ``.``/``..`` and symlinks, or the
same inode (``zheval judge A --versus A``: ``test_cli_judge.py``, which needs the judge extra)."""

from __future__ import annotations

import os

from helpers.cli import run_cli, write_sample_files


def test_compare_refuses_the_same_predictions_file_twice(tmp_path):
    data, preds, _, _ = write_sample_files(tmp_path)
    for second in (preds, tmp_path / "." / preds.name):
        res = run_cli("compare", "--data", data, "-p", preds, second)
        assert res.exit_code == 2, res.output
        assert (f"--predictions B {second} is --predictions A {preds}: the same file given more than once; give each "
                "system once") in res.stderr
    os.symlink(preds, tmp_path / "link.jsonl")
    res = run_cli("compare", "--data", data, "-p", preds, tmp_path / "other.jsonl", tmp_path / "link.jsonl")
    assert res.exit_code == 2 and "--predictions C" in res.stderr and "the same file given more than once" in res.stderr


def test_bleu_refuses_one_hypothesis_file_by_two_spellings(tmp_path):
    ref, hyp = tmp_path / "r.txt", tmp_path / "h.txt"
    ref.write_text("今天天气不错\n", encoding="utf-8")
    hyp.write_text("今天天气很好\n", encoding="utf-8")
    res = run_cli("bleu", ref, "-i", hyp, tmp_path / "sub" / ".." / "h.txt")
    assert res.exit_code == 2, res.output
    assert "the same file given more than once; give each system once" in res.stderr


def test_chrf_refuses_one_hypothesis_file_by_two_spellings(tmp_path):
    ref, hyp = tmp_path / "r.txt", tmp_path / "h.txt"
    ref.write_text("今天天气不错\n", encoding="utf-8")
    hyp.write_text("今天天气很好\n", encoding="utf-8")
    res = run_cli("chrf", ref, "-i", hyp, tmp_path / "." / "h.txt")
    assert res.exit_code == 2 and "give each system once" in res.stderr, res.output


def test_text_commands_refuse_one_reference_file_given_twice(tmp_path):
    # before: accepted, and the signature said nrefs:2 for one set of references (sacrebleu accepts it too; refused
    # here by the rule of -i h h: one file is one set, and a second copy of it would be a count that is not true)
    ref, other, hyp = tmp_path / "r.txt", tmp_path / "r2.txt", tmp_path / "h.txt"
    ref.write_text("今天天气不错\n", encoding="utf-8")
    other.write_text("今天天气很好啊\n", encoding="utf-8")
    hyp.write_text("今天天气很好\n", encoding="utf-8")
    for cmd in ("bleu", "rouge", "chrf"):
        for second in (ref, tmp_path / "sub" / ".." / "r.txt"):
            res = run_cli(cmd, ref, second, "-i", hyp)
            assert res.exit_code == 2, (cmd, res.output)
            both = f"reference {ref}" if second == ref else f"reference {second} is reference {ref}"  # once if alike
            assert (f"{both}: the same file given more than once; give each reference "
                    "file once (one file twice is one set of references, not two") in res.stderr, (cmd, res.stderr)
    ok = run_cli("bleu", ref, other, "-i", hyp, "-f", "text")  # two files, two sets
    assert ok.exit_code == 0 and "nrefs:2" in ok.stdout, ok.output
