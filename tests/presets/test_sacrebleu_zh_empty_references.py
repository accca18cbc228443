"""The sacrebleu-zh preset scores an empty reference as sacrebleu does (reference length 0, no n-gram), at every
door that takes the preset -- the library, ``zheval bleu``, the chinese_bleu evaluate module -- counted and warned;
without the preset an empty reference stays an error. Numbers against sacrebleu 2.6.0 itself (its Python API and its
command line), never zheval's own output."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import evaluate
import pytest
import sacrebleu

import zheval
from helpers import METRICS
from helpers.cli import run_cli as run
from zheval.compute.guards import EmptyReferenceWarning
from zheval.compute.inputs import EmptyReferenceError

HYPS = ["我爱北京", "你好呀朋友", "今天天气很好", "明天去上海出差"]
REFS_1 = ["我爱北京天安门", "", "今天天气不错", "明天要去上海出差"]
REFS_2 = ["我爱北京", "你好", "   ", "后天去上海"]


def _scored(call):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = call()
    said = [w.message for w in seen if isinstance(w.message, EmptyReferenceWarning)]
    return out, said


def test_library_scores_an_empty_reference_as_sacrebleu_corpus_bleu():
    out, said = _scored(lambda: zheval.compute_bleu(HYPS, [[r] for r in REFS_1], preset="sacrebleu-zh"))
    want = sacrebleu.corpus_bleu(HYPS, [REFS_1], tokenize="zh")
    assert out["bleu"] * 100 == pytest.approx(want.score, abs=1e-9)
    assert out["reference_length"] == want.ref_len and out["translation_length"] == want.sys_len
    assert len(said) == 1 and said[0].positions == [(1, 0)]
    msg = str(said[0])
    assert "1 empty reference(s)" in msg and "references[1][0]" in msg and "sacrebleu" in msg


def test_library_several_references_and_sentence_level_as_sacrebleu():
    refs = [[a, b] for a, b in zip(REFS_1, REFS_2)]
    out, said = _scored(lambda: zheval.compute_bleu(HYPS, refs, preset="sacrebleu-zh"))
    assert out["bleu"] * 100 == pytest.approx(sacrebleu.corpus_bleu(HYPS, [REFS_1, REFS_2], tokenize="zh").score,
                                              abs=1e-9)
    assert said[0].positions == [(1, 0), (2, 1)] and "2 empty reference(s)" in str(said[0])
    out, _ = _scored(lambda: zheval.compute_bleu(HYPS, refs, preset="sacrebleu-zh", level="sentence"))
    want = [sacrebleu.sentence_bleu(h, [a, b], tokenize="zh").score for h, a, b in zip(HYPS, REFS_1, REFS_2)]
    assert [x * 100 for x in out["scores"]] == pytest.approx(want, abs=1e-9)
    out, said = _scored(lambda: zheval.score(HYPS, refs, metrics=["bleu"], preset="sacrebleu-zh"))
    assert out["bleu"]["bleu"] * 100 == pytest.approx(
        sacrebleu.corpus_bleu(HYPS, [REFS_1, REFS_2], tokenize="zh").score, abs=1e-9)
    assert said


def test_without_the_preset_an_empty_reference_is_still_refused():
    for options in ({}, {"tokenizer": "sacrebleu-zh"}):
        with pytest.raises(EmptyReferenceError, match=r"references\[1\]\[0\] is empty"):
            zheval.compute_bleu(HYPS, [[r] for r in REFS_1], **options)


def _files(tmp_path):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("".join(r + "\n" for r in REFS_1), encoding="utf-8")
    hyp.write_text("".join(h + "\n" for h in HYPS), encoding="utf-8")
    return ref, hyp


def test_zheval_bleu_preset_scores_an_empty_reference_line_as_the_sacrebleu_command(tmp_path):
    ref, hyp = _files(tmp_path)
    want = subprocess.run([sys.executable, "-m", "sacrebleu", str(ref), "-i", str(hyp), "--tokenize", "zh", "-b",
                           "-w", "6"], capture_output=True, text=True, check=True).stdout
    got = run("bleu", ref, "-i", hyp, "--preset", "sacrebleu-zh", "-b", "-w", "6")
    assert got.exit_code == 0, got.output
    assert got.stdout == want
    assert f"1 empty reference line(s) scored (the first: {ref}:2)" in got.stderr and "sacrebleu" in got.stderr
    doc = json.loads(run("bleu", ref, "-i", hyp, "--preset", "sacrebleu-zh", "-f", "json").stdout)
    assert doc["empty_references"] == 1
    assert any(f"{ref}:2" in w for w in doc["warnings"])
    table = run("bleu", ref, "-i", hyp, "--preset", "sacrebleu-zh")
    assert "note: 1 empty reference line(s) scored" in table.stdout
    plain = run("bleu", ref, "-i", hyp)  # no preset: refused, named file:line
    assert plain.exit_code != 0 and f"{ref}:2: empty line" in plain.output


def test_chinese_bleu_module_scores_blank_references_under_the_preset_only():
    m = evaluate.load(str(METRICS / "chinese_bleu"))
    want = sacrebleu.corpus_bleu(HYPS, [REFS_1], tokenize="zh").score
    out, said = _scored(lambda: m.compute(predictions=HYPS, references=REFS_1, preset="sacrebleu-zh"))
    assert out["bleu"] * 100 == pytest.approx(want, abs=1e-9) and said
    m.add_batch(predictions=HYPS, references=REFS_1)  # stored: compute() knows the preset
    out, said = _scored(lambda: m.compute(preset="sacrebleu-zh"))
    assert out["bleu"] * 100 == pytest.approx(want, abs=1e-9) and said
    m.add_batch(predictions=HYPS, references=REFS_1)
    with pytest.raises(EmptyReferenceError, match=r"references\[1\]\[0\] is empty.*stored by add_batch\(\) call"):
        m.compute()  # no preset: refused, naming the call that stored it
    assert len(m) == 4
    with pytest.raises(EmptyReferenceError):
        m.compute(predictions=HYPS, references=REFS_1)


def test_explain_follows_the_preset_too():
    from zheval.compute.explain import explain_items

    refs = [[a, b] for a, b in zip(REFS_1, REFS_2)]
    out, said = _scored(lambda: explain_items(HYPS, refs, metrics=["bleu"], preset="sacrebleu-zh"))
    want = [sacrebleu.sentence_bleu(h, [a, b], tokenize="zh").score for h, a, b in zip(HYPS, REFS_1, REFS_2)]
    assert [e["bleu"]["sentence_bleu"] * 100 for e in out] == pytest.approx(want, abs=1e-9)
    assert said and said[0].positions == [(1, 0), (2, 1)]
    with pytest.raises(EmptyReferenceError):
        explain_items(HYPS, refs, metrics=["bleu"])
