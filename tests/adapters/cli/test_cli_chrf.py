"""``zheval chrf`` prints what ``sacrebleu --metrics chrf`` prints on the same text files: sacrebleu 2.6.0's own command
line is run in a subprocess on the files zheval reads, and the score line (``-f text``, up to the signature, which is
zheval's), ``-b``, the JSON, ``--confidence`` and the paired tests' p-values are compared.

The files are real data (../shared/data) written already normalised by zheval's default normaliser, so that the
same text reaches both tools (zheval normalises again: the steps are idempotent); for chrF++ each line is zheval's
char tokens joined by spaces, scored by zheval with ``--tokenizer none --normalize none``, so the words are the same.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from zheval.tokenizers import get_tokenizer
from helpers import crosswoz_items
from helpers.cli import run_cli


def _sacrebleu(*args) -> str:
    res = subprocess.run([sys.executable, "-m", "sacrebleu", *map(str, args)], capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    return res.stdout


def _zheval(*args) -> str:
    res = run_cli("chrf", *args)
    assert res.exit_code == 0, res.output
    return res.stdout


@pytest.fixture(scope="module")
def files(tmp_path_factory, csl_rows, crosswoz_groups):
    """``{"csl": (ref files, hyp files), "groups3": ..., "csl_words": ...}``: normalised text files."""
    root = tmp_path_factory.mktemp("chrf_files")
    tok = get_tokenizer("char")

    def write(name, lines, words=False):
        path = root / name
        path.write_text("".join((" ".join(tok(t)) if words else tok.normalize(t)) + "\n" for t in lines),
                        encoding="utf-8")
        return path

    rows = csl_rows[:400]
    a = [r["document"][:20] for r in rows]
    b = [r["document"][:max(1, len(r["summary"]))] for r in rows]
    ref = [r["summary"] for r in rows]
    preds, refs = crosswoz_items(crosswoz_groups)
    keep = [i for i, rs in enumerate(refs) if len(rs) >= 3]
    return {
        "csl": ([write("csl_ref.txt", ref)], [write("csl_a.txt", a), write("csl_b.txt", b)]),
        "groups3": ([write(f"g_ref{k}.txt", [refs[i][k] for i in keep]) for k in range(3)],
                    [write("g_hyp.txt", [preds[i] for i in keep])]),
        "csl_words": ([write("csl_ref_w.txt", ref, True)], [write("csl_a_w.txt", a, True),
                                                             write("csl_b_w.txt", b, True)]),
    }


CASES = [
    ("csl", []), ("groups3", []), ("csl", ["--chrf-eps-smoothing"]), ("csl", ["--chrf-beta", "1"]),
    ("csl", ["--chrf-char-order", "4"]),
    ("csl_words", ["--chrf-word-order", "2", "--tokenizer", "none", "--normalize", "none"]),
]


@pytest.mark.parametrize("name,extra", CASES)
def test_score_line_score_only_and_json_equal_sacrebleu(files, name, extra):
    refs, hyps = files[name]
    sacre_extra = [a for a in extra if a not in ("--tokenizer", "none", "--normalize")]
    if "--chrf-word-order" in extra:
        sacre_extra = ["--chrf-word-order", "2"]
    theirs_text = _sacrebleu(*refs, "-i", hyps[0], "-m", "chrf", "-f", "text", "-w", "4", *sacre_extra).strip()
    ours_text = _zheval(*refs, "-i", hyps[0], "-f", "text", "-w", "4", *extra).strip()
    t_name, t_rest = theirs_text.split("|", 1)
    o_name, o_rest = ours_text.split("|", 1)
    assert o_name == t_name and o_rest.rsplit(" = ", 1)[1] == t_rest.rsplit(" = ", 1)[1]
    assert re.search(r"\|nrefs:\d\|", "|" + o_rest) and "|metric:chrf|" in o_rest

    assert _zheval(*refs, "-i", hyps[0], "-b", "-w", "4", *extra) == \
        _sacrebleu(*refs, "-i", hyps[0], "-m", "chrf", "-b", "-w", "4", *sacre_extra)

    theirs = json.loads(_sacrebleu(*refs, "-i", hyps[0], "-m", "chrf", *sacre_extra))
    ours = json.loads(_zheval(*refs, "-i", hyps[0], *extra))
    assert (ours["name"], ours["score"]) == (theirs["name"], theirs["score"])
    assert list(ours)[:3] == list(theirs)[:3] == ["name", "score", "signature"]
    assert ours["nc"] == theirs["nc"] and ours["nw"] == theirs["nw"] and ours["eff"] == theirs["eff"]


def test_confidence_equals_sacrebleu(files):
    refs, hyps = files["csl"]
    theirs = json.loads(_sacrebleu(*refs, "-i", hyps[0], "-m", "chrf", "--confidence", "-w", "2"))
    ours = json.loads(_zheval(*refs, "-i", hyps[0], "--confidence", "-w", "2"))
    for key in ("score", "confidence_mean", "confidence_var", "confidence"):
        assert ours[key] == theirs[key], key
    line = _zheval(*refs, "-i", hyps[0], "--confidence", "-b", "-w", "2")
    assert line == _sacrebleu(*refs, "-i", hyps[0], "-m", "chrf", "--confidence", "-b", "-w", "2")


def _sacre_cells(text: str) -> list:
    """``[(score, mean, ci, p)]`` per system from sacrebleu's paired table (``-f text``)."""
    cells = re.findall(r"│\s*(?:Baseline: )?\S+\s*│\s*([\d.]+)(?: \(([\d.]+) ± ([\d.]+)\))?\s*│"
                       r"(?:\n│\s*│\s*\(p = ([\d.]+)\)\*?\s*│)?", text)
    return [tuple(float(x) if x else None for x in c) for c in cells]


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_paired_tests_equal_sacrebleu(files, test):
    refs, hyps = files["csl"]
    theirs = _sacre_cells(_sacrebleu(*refs, "-i", *hyps, "-m", "chrf", f"--paired-{test}", "-f", "text",
                                     "-w", "2", "--no-color"))
    ours = json.loads(_zheval(*refs, "-i", *hyps, f"--paired-{test}", "-w", "2"))
    assert len(theirs) == len(ours) == 2
    for (score, mean, ci, p), row in zip(theirs, ours):
        value = row["chrF2"]
        assert value["score"] == score and value["mean"] == mean and value["ci"] == ci
        assert (p is None and value["p_value"] is None) or round(value["p_value"], 4) == p
    assert theirs[1][3] is not None
    table = _zheval(*refs, "-i", *hyps, f"--paired-{test}", "-f", "text", "-w", "2")
    assert "Baseline: " in table and f"(p = {theirs[1][3]:.4f})" in table


def test_several_systems_without_a_test(files):
    refs, hyps = files["csl"]
    theirs = json.loads(_sacrebleu(*refs, "-i", *hyps, "-m", "chrf"))
    assert json.loads(_zheval(*refs, "-i", *hyps)) == theirs


def test_errors_are_named(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("你好\n\n", encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("你好\n好\n", encoding="utf-8")
    res = run_cli("chrf", ref, "-i", hyp)
    assert res.exit_code == 2 and f"{ref}:2" in res.output and "empty" in res.output
    ref.write_text("你好\n好的\n", encoding="utf-8")  # not hyp's text: the reference as -i is refused first
    res = run_cli("chrf", ref, "-i", hyp, "--paired-bs")
    assert res.exit_code == 2 and "at least two" in res.output
    res = run_cli("chrf", ref, "-i", hyp, hyp, "--paired-bs", "--paired-ar")
    assert res.exit_code == 2 and "mutually exclusive" in res.output
    res = run_cli("chrf", ref, "-i", hyp, "-f", "latex")
    assert res.exit_code == 2 and "--format" in res.output


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_identical_systems_are_no_difference(tmp_path, test):
    """Two identical systems: delta 0, so "no difference" and never starred, whatever the test's minimal p
    (sacrebleu itself stars p = 1/(R + 1) here); JSON says so too."""
    ref, a, b = tmp_path / "ref.txt", tmp_path / "a.txt", tmp_path / "b.txt"
    ref.write_text("今天天气很好，我们去公园。\n这个软件需要更新。\n", encoding="utf-8")
    a.write_text("今天天气不错，去公园吧。\n软件要更新了。\n", encoding="utf-8")
    b.write_bytes(a.read_bytes())
    res = run_cli("chrf", ref, "-i", a, b, f"--paired-{test}", "-f", "text")
    assert res.exit_code == 0, res.output
    row = [ln for ln in res.output.splitlines() if ln.strip().startswith(str(b))][0]
    assert "no difference" in row and "*" not in row
    res = run_cli("chrf", ref, "-i", a, b, f"--paired-{test}")
    doc = json.loads(res.output)
    assert doc[1]["chrF2"]["no_difference"] is True and doc[1]["chrF2"]["score"] == doc[0]["chrF2"]["score"]


def test_one_segment_has_no_interval(tmp_path):
    """One segment: sacrebleu prints ``μ = 32.8 ± 0.0`` (resampling one segment always returns it); zheval chrf says
    "n=1, no interval" as zheval score and zheval bleu do, in every format, and gives no p-value."""
    ref, a, b = tmp_path / "ref.txt", tmp_path / "a.txt", tmp_path / "b.txt"
    ref.write_text("今天天气很好，我们去公园散步。\n", encoding="utf-8")
    a.write_text("今天天气不错，我们去公园。\n", encoding="utf-8")
    b.write_text("明天下雨。\n", encoding="utf-8")
    for args in (["-i", a, "--confidence", "-f", "text"], ["-i", a, "--confidence", "-b"],
                 ["-i", a, b, "--paired-bs", "-f", "text"], ["-i", a, b, "--paired-ar", "-f", "text"]):
        res = run_cli("chrf", ref, *args)
        assert res.exit_code == 0, res.output
        assert "n=1, no interval" in res.stdout and "± 0.0" not in res.stdout and "(p = " not in res.stdout, args
    doc = json.loads(run_cli("chrf", ref, "-i", a, "--confidence").stdout)
    assert "confidence_mean" not in doc and doc["no_interval"].startswith("n=1: ")
    doc = json.loads(run_cli("chrf", ref, "-i", a, b, "--paired-bs").stdout)
    assert doc[1]["chrF2"]["p_value"] is None and doc[1]["chrF2"]["no_interval"].startswith("n=1: ")
