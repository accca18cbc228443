"""A score that prints as the perfect score without being it (break-it pass 13, F4): ``zheval bleu`` printed 100.0
for BLEU 99.975 with no word, so a near-copy read as an exact one. The number printed stays sacrebleu's rounding
(stdout unchanged); a note on stderr names the score, its value and the ``-w`` that tells it from perfect, at bleu,
rouge and chrf. The values in the notes are checked against sacrebleu and rouge-score."""

from __future__ import annotations

import pytest

from helpers.cli import run_cli

# 400 distinct lines of 12 CJK characters; the hypothesis differs in one character of the first line
REFS = ["".join(chr(0x4E00 + (i * 37 + j * 11) % 20000) for j in range(12)) for i in range(400)]
HYPS = [REFS[0][:-1] + "好"] + REFS[1:]


@pytest.fixture
def files(tmp_path):
    ref, hyp, same = tmp_path / "r.txt", tmp_path / "h.txt", tmp_path / "same.txt"
    ref.write_text("".join(t + "\n" for t in REFS), encoding="utf-8")
    hyp.write_text("".join(t + "\n" for t in HYPS), encoding="utf-8")
    same.write_text("".join(t + "\n" for t in REFS[:-1] + ["".join(reversed(REFS[-1]))]), encoding="utf-8")
    return ref, hyp, same


def _note(name, label, value):
    return f"zheval: note: {name}: {label} {value} prints as 100.0 at 1 decimal(s) but is not a perfect score; -w 2 shows it"


def test_bleu_near_perfect_is_said(files):
    from sacrebleu.metrics import BLEU

    ref, hyp, _ = files
    theirs = BLEU(tokenize="zh").corpus_score(HYPS, [REFS]).score
    assert f"{theirs:.1f}" == "100.0" and theirs < 100
    for extra in (["-b"], ["-f", "text"], []):
        res = run_cli("bleu", ref, "-i", hyp, "--bootstrap", "0", *extra) if extra != ["-f", "text"] else \
            run_cli("bleu", ref, "-i", hyp, *extra)
        assert res.exit_code == 0, res.output
        assert _note(hyp, "BLEU", f"{theirs:.2f}") in res.stderr, (extra, res.stderr)
    res = run_cli("bleu", ref, "-i", hyp, "-b")
    assert res.stdout.strip() == "100.0"  # sacrebleu's rounding kept
    res = run_cli("bleu", ref, "-i", hyp, "-b", "-w", "2")
    assert res.stdout.strip() == f"{theirs:.2f}" and "perfect" not in res.stderr


def test_rouge_and_chrf_near_perfect_are_said(files):
    from rouge_score import rouge_scorer
    from sacrebleu.metrics import CHRF

    class Chars:
        def tokenize(self, text):
            return list(text)

    ref, hyp, _ = files
    scorer = rouge_scorer.RougeScorer(["rouge1"], tokenizer=Chars())
    r1 = 100 * sum(scorer.score(r, h)["rouge1"].fmeasure for r, h in zip(REFS, HYPS)) / len(REFS)
    res = run_cli("rouge", ref, "-i", hyp, "-b")
    assert res.exit_code == 0 and res.stdout.split()[0] == "100.0", res.output
    assert _note(hyp, "ROUGE-1", f"{r1:.2f}") in res.stderr, res.stderr
    chrf = CHRF().corpus_score(HYPS, [REFS]).score
    res = run_cli("chrf", ref, "-i", hyp, "-b")
    assert res.exit_code == 0 and res.stdout.strip() == "100.0", res.output
    assert _note(hyp, "chrF2", f"{chrf:.2f}") in res.stderr, res.stderr


def test_a_perfect_or_plainly_imperfect_score_gets_no_note(files):
    ref, _, same = files
    for cmd in ("bleu", "rouge", "chrf"):
        res = run_cli(cmd, ref, "-i", ref, "-b")  # a perfect score: the copy warning only
        assert res.exit_code == 0 and "not a perfect score" not in res.stderr, (cmd, res.stderr)
        res = run_cli(cmd, ref, "-i", same, "-b", "-w", "3")
        assert res.exit_code == 0 and "not a perfect score" not in res.stderr, (cmd, res.stderr)
