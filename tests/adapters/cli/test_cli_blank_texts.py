"""One emptiness rule for every door (`zheval.text.normalize.is_blank`): a text holding nothing but whitespace and
invisible characters (U+200B zero-width space, U+FEFF, bidi marks ...) is an empty prediction. Break-it pass: a
hypothesis line of only U+200B was scored at the text-file doors without a word, while a whitespace-only line is
refused without ``--allow-empty-hypotheses`` and ``zheval score`` counted the same text as an empty prediction."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_cli as run
from helpers.cli import write_jsonl
from zheval.text.normalize import BLANK_SCORED

REFS = ["猫坐在垫子上", "今天天气很好"]


def _lines(path, lines):
    path.write_text("".join(t + "\n" for t in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["bleu", "rouge", "chrf"])
@pytest.mark.parametrize("blank", ["\u200b", " \u200b ", "\ufeff\u200e"])
def test_a_line_of_invisible_characters_is_an_empty_hypothesis_at_the_text_doors(tmp_path, command, blank):
    ref = _lines(tmp_path / "ref.txt", REFS)
    hyp = _lines(tmp_path / "hyp.txt", ["猫在垫子上", blank])
    res = run(command, ref, "-i", hyp)
    assert res.exit_code == 2, res.output  # was: scored (exit 0), no word
    assert f"{hyp}:2: empty line (only invisible characters: " in res.output
    assert "an empty hypothesis; pass --allow-empty-hypotheses to score it as the tokenizer reads it" in res.output


def test_allowed_it_is_scored_and_counted_as_the_empty_line_is(tmp_path):
    ref = _lines(tmp_path / "ref.txt", REFS)
    hyp = _lines(tmp_path / "hyp.txt", ["猫在垫子上", "\u200b"])
    res = run("rouge", ref, "-i", hyp, "--allow-empty-hypotheses", "--rouge-types", "rouge1", "--scale", "1",
              "-w", 12)
    assert res.exit_code == 0, res.output
    # by hand (char unigrams): item 1 "猫在垫子上" vs "猫坐在垫子上": 5 hits, P 1, R 5/6, F 10/11; item 2 empty: 0
    assert f"{(10 / 11) / 2:.12f}" in res.stdout
    assert f"1 empty hypothesis line(s) ({BLANK_SCORED})" in res.stdout  # was: not counted


def test_score_and_the_text_doors_count_the_same_empty_predictions(tmp_path):
    """The records door's diagnostics (``zheval score``) and the text doors' count apply the one rule: the same three
    blank texts are three empty predictions at both, under ``--normalize none`` too (was: U+200B kept by that
    normalisation was no empty prediction for ``score``)."""
    preds = ["猫在垫子上", "\u200b", "  ", "\u2060"]
    refs = REFS + ["好", "行"]
    data = write_jsonl(tmp_path / "pairs.jsonl", [{"id": str(i), "prediction": p, "reference": r}
                                                   for i, (p, r) in enumerate(zip(preds, refs))])
    res = run("score", "-p", data, "--normalize", "none", "--bootstrap", 0, "-f", "json", "-q")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["diagnostics"]["empty_predictions"] == 3
    ref = _lines(tmp_path / "ref.txt", refs)
    hyp = _lines(tmp_path / "hyp.txt", preds)
    res = run("bleu", ref, "-i", hyp, "--allow-empty-hypotheses", "--normalize", "none", "-b")
    assert res.exit_code == 0, res.output
    assert f"3 empty hypothesis line(s) ({BLANK_SCORED})" in res.output
