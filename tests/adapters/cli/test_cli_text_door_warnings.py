"""Break-it pass (wording): ``zheval chrf -f json`` had no ``"warnings"`` while ``zheval bleu -f json`` had one,
so a script reading chrF's JSON never saw a copied reference file, an input slip or a resampling caution; neither
JSON counted the blank lines scored under ``--allow-empty-hypotheses`` among its warnings, and the copy warning was
printed on stderr only. Both now carry the same list under the same key; ``zheval bertscore
--allow-empty-hypotheses`` said nothing of the blank lines it scored, and now counts them as the other doors do."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_cli as run
from zheval.text.normalize import BLANK_SCORED

REFS = ["猫坐在垫子上", "今天天气很好", "我们去公园"]


def _lines(path, lines):
    path.write_text("".join(t + "\n" for t in lines), encoding="utf-8")
    return path


def _warnings(command, *args):
    res = run(command, *args, "-f", "json")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)["warnings"], res.stderr


@pytest.mark.parametrize("command", ["bleu", "chrf"])
def test_a_copied_reference_file_is_in_the_json(tmp_path, command):
    ref = _lines(tmp_path / "ref.txt", REFS)
    copy = _lines(tmp_path / "copy.txt", REFS)
    said, stderr = _warnings(command, ref, "-i", copy)
    text = f"-i {copy} holds the same text as reference {ref} (every line equal)"
    assert [w for w in said if w.startswith(text)], said
    assert stderr.count(text) == 1, stderr  # still on stderr, once


@pytest.mark.parametrize("command", ["bleu", "chrf"])
def test_blank_lines_are_counted_in_the_json(tmp_path, command):
    ref = _lines(tmp_path / "ref.txt", REFS)
    hyp = _lines(tmp_path / "hyp.txt", ["猫坐在垫子上", "\u200b", ""])
    said, stderr = _warnings(command, ref, "-i", hyp, "--allow-empty-hypotheses")
    assert f"{hyp}: 2 empty hypothesis line(s) ({BLANK_SCORED})" in said, said
    assert stderr.count("2 empty hypothesis line(s)") == 1, stderr


@pytest.mark.parametrize("command", ["bleu", "chrf"])
def test_the_same_warnings_under_the_same_key(tmp_path, command):
    """An input slip (-t none on unsegmented Chinese, chrF++ words) and a resampling caution: in both JSONs."""
    ref = _lines(tmp_path / "ref.txt", REFS)
    hyp = _lines(tmp_path / "hyp.txt", ["猫坐在垫子上面", "今天天气不错", "我们去公园玩"])
    words = ["-cw", "2"] if command == "chrf" else []
    said, _ = _warnings(command, ref, "-i", hyp, "-t", "none", *words)
    assert any(w.startswith("--tokenizer none splits on whitespace only") for w in said), said
    said, _ = _warnings(command, ref, "-i", hyp, "-ci", "-cin", 5)
    assert any(w.startswith("caution: the μ ± 95% CI comes from 5 bootstrap resamples") for w in said), said
    said, _ = _warnings(command, ref, "-i", hyp)
    assert said == []  # the key is there when nothing is said


def test_bertscore_counts_the_blank_lines_it_scores(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from helpers.tiny_bert import make_tiny_bert

    model = make_tiny_bert(tmp_path / "tiny", layers=2, seed=2)
    ref = _lines(tmp_path / "ref.txt", REFS)
    hyp = _lines(tmp_path / "hyp.txt", ["猫坐在垫子上", "\u200b", "我们去公园"])
    res = run("bertscore", ref, "-i", hyp, "--model", model, "--layer", "2", "--device", "cpu",
              "--allow-empty-hypotheses")
    assert res.exit_code == 0, res.output
    assert f"zheval: note: {hyp}: 1 empty hypothesis line(s) ({BLANK_SCORED})" in res.stderr, res.stderr
