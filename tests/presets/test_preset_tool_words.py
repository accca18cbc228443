"""A preset names its own tool in messages (issue 35): LongBench's ROUGE uses the tokenizer registered as
``llamafactory-jieba`` (jieba.cut, the same tokens), but ``--preset longbench --t2s`` said the tokenizer "reproduces
LLaMA-Factory exactly", and the override warning named only 'llamafactory-jieba'. The words come from the preset
object (``tokens_of``, `zheval.presets.base.tokens_tool`), not from a fixed string."""

from __future__ import annotations

import warnings

import pytest

import zheval
from tests.helpers.cli import run_cli
from zheval.presets import find_preset


def test_longbench_names_longbench_and_the_others_their_tokenizers_tool():
    from zheval.presets.base import tokens_tool

    assert "LongBench" in tokens_tool(find_preset("longbench").rouge)
    assert tokens_tool(find_preset("llamafactory").rouge) == "LLaMA-Factory"
    assert tokens_tool(find_preset("sacrebleu-zh").bleu).startswith("sacrebleu")


def test_library_refusal_names_the_preset_and_its_tool():
    with pytest.raises(ValueError) as err:
        zheval.compute_rouge(["今天天气不错"], ["今天天气很好"], preset="longbench", t2s=True)
    said = str(err.value)
    assert "(the tokenizer of preset 'longbench') reproduces LongBench's" in said and "LLaMA-Factory" not in said


def test_cli_refusal_and_override_warning_name_longbench(tmp_path):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("今天天氣很好\n", encoding="utf-8")
    hyp.write_text("今天天气不错\n", encoding="utf-8")
    r = run_cli("rouge", ref, "-i", hyp, "--preset", "longbench", "--t2s")
    assert r.exit_code == 2
    assert "(the tokenizer of --preset longbench) reproduces LongBench's jieba.cut" in r.output
    assert "LLaMA-Factory" not in r.output
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        zheval.compute_rouge(["今天天气不错"], ["今天天气很好"], preset="longbench", tokenizer="char")
    said = [str(w.message) for w in caught if issubclass(w.category, zheval.PresetOverrideWarning)]
    assert len(said) == 1 and "the tokens of LongBench's jieba.cut" in said[0]
