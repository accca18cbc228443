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


def test_reference_files_holding_the_same_text_are_refused(tmp_path):
    """Issue 35: ``zheval bleu a.txt b.txt -i h`` with b a copy of a was scored as two references (nrefs:2), while
    the same file named twice was refused: a copy (also with CRLF line ends or gzipped: the same text) is refused at
    every command that takes reference files, naming both; two files that differ in one line are two sets."""
    import gzip

    ref, hyp = tmp_path / "r.txt", tmp_path / "h.txt"
    ref.write_text("今天天气不错\n我们去公园\n", encoding="utf-8")
    hyp.write_text("今天天气很好\n我们去公园吧\n", encoding="utf-8")
    copy, crlf, packed, third = (tmp_path / n for n in ("copy.txt", "crlf.txt", "r.txt.gz", "third.txt"))
    copy.write_bytes(ref.read_bytes())
    crlf.write_bytes(ref.read_bytes().replace(b"\n", b"\r\n"))
    packed.write_bytes(gzip.compress(ref.read_bytes()))
    third.write_text("天气不错\n一起去公园\n", encoding="utf-8")
    for cmd in ("bleu", "rouge", "chrf"):
        for first, second in ((ref, copy), (ref, crlf), (ref, packed), (third, copy)):
            args = [first, second] if first == ref else [ref, first, second]
            res = run_cli(cmd, *args, "-i", hyp)
            assert res.exit_code == 2, (cmd, second, res.output)
            assert (f"reference {second} holds the same text as reference {ref} (every line equal): the same "
                    "references given twice; give each reference file once") in res.stderr, (cmd, res.stderr)
    ok = run_cli("bleu", ref, third, "-i", hyp, "-f", "text")
    assert ok.exit_code == 0 and "nrefs:2" in ok.stdout, ok.output


def test_text_commands_warn_when_the_hypothesis_is_a_reference_file(tmp_path):
    """Break-it (words13 F3): ``zheval rouge r.txt -i r.txt`` printed 100.0 everywhere with no word, while one
    reference file given twice was refused: the reference file (by path, or a copy by text) as ``-i`` is scored as
    sacrebleu scores it (100: a sanity check is legitimate) with a warning naming both, at bleu, rouge and chrf; a
    hypothesis that differs in one line gets no warning."""
    ref, copy, hyp = tmp_path / "r.txt", tmp_path / "copy.txt", tmp_path / "h.txt"
    ref.write_text("今天天气不错\n我们去公园\n", encoding="utf-8")
    copy.write_bytes(ref.read_bytes())
    hyp.write_text("今天天气不错\n我们去公园吧\n", encoding="utf-8")
    for cmd in ("bleu", "rouge", "chrf"):
        for given in (tmp_path / "." / "r.txt", copy):
            res = run_cli(cmd, ref, "-i", given, "-b")
            assert res.exit_code == 0, (cmd, res.output)
            assert (f"zheval: warning: -i {given} holds the same text as reference {ref} (every line equal): if that "
                    "is not the point (a sanity check)") in res.stderr, res.stderr
            assert "100.0" in res.stdout, (cmd, res.stdout)
        res = run_cli(cmd, ref, "-i", hyp, "-b")
        assert res.exit_code == 0 and "warning" not in res.stderr, (cmd, res.stderr)
