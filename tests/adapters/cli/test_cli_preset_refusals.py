"""``zheval score --preset X`` refusals point to where X works: the text-file commands (``zheval rouge --preset``,
``zheval bleu --preset``), the library and the evaluate modules -- never "the library only" for presets that the
text-file commands take. Runs on the bundled 小黄鸭 sample (no shared data)."""

from __future__ import annotations

import pytest

from helpers import REPO
from helpers.cli import run_cli as run

DATA = REPO / "zheval" / "data" / "duck_sample.jsonl"
PRED = REPO / "zheval" / "data" / "duck_sample_predictions.jsonl"


@pytest.mark.parametrize("preset, needle", [
    ("bogus", "unknown --preset 'bogus'; valid here: sacrebleu-zh (the text-file commands take zheval rouge "
              "--preset rouge155|llamafactory|opencompass-jieba-rouge|longbench|glm4 and zheval bleu --preset "
              "sacrebleu-zh|llamafactory|glm4; every preset works in compute_rouge/compute_bleu(..., preset=...) "
              "and the chinese_rouge/chinese_bleu modules)"),
    ("llamafactory", "use the text-file commands (zheval bleu REF.txt -i HYP.txt --preset llamafactory; "
                     "zheval rouge ... --preset llamafactory)"),
    ("rouge155", "use the text-file command (zheval rouge REF.txt -i HYP.txt --preset rouge155)"),
    # longbench has no BLEU part: neither compute_bleu nor chinese_bleu is named for it
    ("longbench", "(zheval rouge REF.txt -i HYP.txt --preset longbench), compute_rouge(..., preset='longbench') "
                  "or the chinese_rouge module"),
    ("glm4", "(zheval rouge REF.txt -i HYP.txt --preset glm4; zheval bleu ... --preset glm4), "
             "compute_rouge/compute_bleu(..., preset='glm4') or the chinese_rouge / chinese_bleu modules"),
])
def test_a_refused_preset_points_to_the_commands_that_take_it(preset, needle):
    res = run("score", "-d", DATA, "-p", PRED, "-q", "--bootstrap", 0, "--preset", preset)
    assert res.exit_code == 2, res.output
    assert needle in " ".join(res.stderr.split()), res.stderr
    assert "library only" not in res.stderr


@pytest.mark.parametrize("metrics, missing, use", [
    ("bleu,chrf", "no chrF counterpart, which --metrics bleu,chrf asks for", "use --metrics bleu with it"),
    ("chrf", "no chrF counterpart, which --metrics chrf asks for", "use --metrics bleu with it"),
    ("bleu,rouge", "no ROUGE counterpart, which --metrics bleu,rouge asks for", "use --metrics bleu with it"),
    ("bleu,rouge,chrf", "no ROUGE and chrF counterpart, which --metrics bleu,rouge,chrf asks for",
     "use --metrics bleu with it"),
])
def test_a_preset_the_report_takes_for_bleu_names_the_metric_it_cannot_serve(metrics, missing, use):
    # break-it 5, F12: --metrics bleu,chrf was told "has no ROUGE counterpart: add --metrics bleu"
    res = run("score", "-d", DATA, "-p", PRED, "-q", "--bootstrap", 0, "--metrics", metrics, "--preset", "sacrebleu-zh")
    assert res.exit_code == 2, res.output
    err = " ".join(res.stderr.split())
    assert f"--preset sacrebleu-zh is a BLEU preset (sacrebleu's corpus_bleu(..., tokenize='zh') on the raw text) and " \
           f"has {missing}: {use}" in err, err
    if "rouge" not in metrics:
        assert "ROUGE" not in err
    assert "-t sacrebleu-zh tokenises every metric as the preset does" in err


def test_the_preset_the_report_takes_still_scores_bleu():
    res = run("score", "-d", DATA, "-p", PRED, "-q", "--bootstrap", 0, "--metrics", "bleu", "--preset", "sacrebleu-zh",
              "--format", "json")
    assert res.exit_code == 0, res.output
