"""A preset's own numbers printed beside zheval's scores say what they are (break-it 22: ``zheval rouge --preset
rouge155`` printed ``rouge155_rouge1 = …`` and its interval without saying they are ROUGE-1.5.5.pl's own bootstrap
``Average_F``, which ``--bootstrap`` and ``--seed`` do not change)."""

from __future__ import annotations

import json

from helpers.cli import run_cli, text_files


def _files(tmp_path):
    return text_files(tmp_path, ["今天天气很好", "我们去公园玩吧", "明天会下雨"], ["今天天气不错", "我们去公园", "明天下雨"])


def test_rouge155_numbers_are_said_to_be_the_scripts_bootstrap(tmp_path):
    ref, hyp = _files(tmp_path)
    table = run_cli("rouge", ref, "-i", hyp, "--preset", "rouge155")
    assert table.exit_code == 0, table.output
    note = next(line for line in table.stdout.splitlines() if line.startswith("note: rouge155_<type>"))
    assert "ROUGE-1.5.5.pl's printed Average_F" in note and "--bootstrap, --seed" in note, note
    doc = json.loads(run_cli("rouge", ref, "-i", hyp, "--preset", "rouge155", "-f", "json").stdout)
    system = doc["systems"][0]
    assert "rouge155_rouge1" in system["preset_scores"]
    assert system["preset_scores_note"] == note[len("note: "):]
    # another seed changes zheval's interval, never the script's numbers (its own srand(i) resamples)
    other = json.loads(run_cli("rouge", ref, "-i", hyp, "--preset", "rouge155", "-f", "json", "--seed", "7").stdout)
    assert other["systems"][0]["preset_scores"] == system["preset_scores"]


def test_a_preset_without_a_note_prints_none(tmp_path):
    ref, hyp = _files(tmp_path)
    doc = json.loads(run_cli("rouge", ref, "-i", hyp, "--preset", "llamafactory", "-f", "json").stdout)
    assert "preset_scores" in doc["systems"][0] and "preset_scores_note" not in doc["systems"][0]
    assert "\nnote: " not in run_cli("rouge", ref, "-i", hyp, "--preset", "llamafactory").stdout


def test_the_note_stays_when_a_tool_option_is_changed(tmp_path):
    # break-it 23: --rouge-types rouge1 (an option ROUGE-1.5.5 itself offers: its numbers are still printed) signs
    # preset:rouge155(overridden:rouge_types), and the note was lost
    ref, hyp = _files(tmp_path)
    doc = json.loads(run_cli("rouge", ref, "-i", hyp, "--preset", "rouge155", "--rouge-types", "rouge1", "-f",
                             "json").stdout)
    assert "preset:rouge155(overridden:rouge_types)" in doc["signature"]
    system = doc["systems"][0]
    assert list(system["preset_scores"]) == ["rouge155_rouge1", "rouge155_rouge1_ci_low", "rouge155_rouge1_ci_high"]
    assert system["preset_scores_note"].startswith("rouge155_<type> is ROUGE-1.5.5.pl's printed Average_F")

