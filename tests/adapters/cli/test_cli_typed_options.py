"""An option the user typed is judged as typed, even when its value is the default (issue 35: nothing reinterpreted
silently). Before, these doors decided "was it given" by comparing the value with the default, so a typed default
was dropped without a word (``zheval.cli.params.takes``'s ``_given`` holds what was typed)."""

from __future__ import annotations

import json

import zheval.cli.explain  # noqa: F401  (registers the command)
from helpers.cli import run_cli, text_files, write_jsonl

RECORDS = [{"id": "a", "prediction": "你好世界", "label": "你好世界"},
           {"id": "b", "prediction": "今天天气", "label": "今天天气好"}]
ROUGE155 = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeW", "rougeS4", "rougeSU4"]


def _text_files(tmp_path):
    return text_files(tmp_path, ["你好世界", "今天天气好"], ["你好", "今天天气"])


def test_rouge_text_door_uses_typed_default_rouge_types_under_a_preset(tmp_path):
    ref, hyp = _text_files(tmp_path)
    own = run_cli("rouge", ref, "-i", hyp, "--preset", "rouge155", "-f", "json")
    assert own.exit_code == 0 and list(json.loads(own.stdout)["systems"][0]["scores"]) == ROUGE155, own.output
    # before: the typed default was taken for "not given", and rouge155's eight types were scored
    typed = run_cli("rouge", ref, "-i", hyp, "--preset", "rouge155", "--rouge-types", "rouge1,rouge2,rougeL",
                    "-f", "json")
    assert typed.exit_code == 0, typed.output
    assert list(json.loads(typed.stdout)["systems"][0]["scores"]) == ["rouge1", "rouge2", "rougeL"]
    # before: longbench silently scored its rougeL only
    lb = run_cli("rouge", ref, "-i", hyp, "--preset", "longbench", "--rouge-types", "rouge1,rouge2,rougeL")
    assert lb.exit_code == 2 and "preset 'longbench' computes rougeL only" in lb.stderr, lb.output


def test_explain_uses_typed_default_rouge_types_under_a_preset(tmp_path):
    path = write_jsonl(tmp_path / "r.jsonl", RECORDS)
    common = ("explain", "-p", path, "--id", "a", "--preset", "rouge155", "-f", "json")
    own = run_cli(*common)
    assert own.exit_code == 0 and list(json.loads(own.stdout)[0]["explanation"]["rouge"]) == ROUGE155, own.output
    typed = run_cli(*common, "--rouge-types", "rouge1,rouge2,rougeL")  # before: rouge155's eight types
    assert typed.exit_code == 0, typed.output
    assert list(json.loads(typed.stdout)[0]["explanation"]["rouge"]) == ["rouge1", "rouge2", "rougeL"]


def test_explain_refuses_typed_default_metrics_beyond_the_preset(tmp_path):
    path = write_jsonl(tmp_path / "r.jsonl", RECORDS)
    # before: "--metrics bleu,rouge" (the default) was taken for "not given": bleu only, without a word
    res = run_cli("explain", "-p", path, "--id", "a", "--preset", "sacrebleu-zh", "--metrics", "bleu,rouge")
    assert res.exit_code == 2, res.output
    assert ("--preset sacrebleu-zh has the rules of bleu only; --metrics names rouge: drop --metrics (the preset's "
            "metrics) or give --metrics bleu") in res.stderr
    ok = run_cli("explain", "-p", path, "--id", "a", "--preset", "sacrebleu-zh", "--metrics", "bleu", "-f", "json")
    assert ok.exit_code == 0 and "rouge" not in json.loads(ok.stdout)[0]["explanation"], ok.output


def test_typed_label_check_is_refused_without_data(tmp_path):
    # before: "--label-check strict" (the default) passed without --data, where it has no meaning
    path = write_jsonl(tmp_path / "r.jsonl", RECORDS)
    for command in (("score", "-p", path), ("explain", "-p", path)):
        res = run_cli(*command, "--label-check", "strict")
        assert res.exit_code == 2, res.output
        assert "--label-check compares LLaMA-Factory labels with a 小黄鸭 file's references (--data)" in res.stderr


def test_typed_tokenizer_options_are_refused_with_a_tool_tokenizer_whatever_their_value(tmp_path):
    # before: --punct keep and --normalize none (values that change nothing) passed without a word while
    # --normalize default was refused as "takes no options": the option was judged by its value, not by being typed
    ref, hyp = _text_files(tmp_path)
    for cmd in ("bleu", "rouge", "chrf"):
        for typed in (["--punct", "keep"], ["--normalize", "none"], ["--normalize", "default"]):
            res = run_cli(cmd, ref, "-i", hyp, "-t", "llamafactory-char", *typed)
            assert res.exit_code == 2, (cmd, typed, res.output)
            assert (f"{typed[0]}: tokenizer 'llamafactory-char' (-t) reproduces LLaMA-Factory exactly and takes no "
                    "options") in res.stderr, (cmd, typed, res.stderr)
    ok = run_cli("bleu", ref, "-i", hyp, "-t", "char", "--punct", "keep", "-f", "json")  # char takes options
    assert ok.exit_code == 0, ok.output


def test_typed_tokenizer_options_are_refused_with_a_preset_that_fixes_a_tool_tokenizer(tmp_path):
    ref, hyp = _text_files(tmp_path)
    res = run_cli("bleu", ref, "-i", hyp, "--preset", "sacrebleu-zh", "--normalize", "none")
    assert res.exit_code == 2, res.output
    assert "--normalize: tokenizer 'sacrebleu-zh' (the tokenizer of --preset sacrebleu-zh)" in res.stderr
    res = run_cli("rouge", ref, "-i", hyp, "--preset", "longbench", "--punct", "keep")
    assert res.exit_code == 2 and "tokenizer 'llamafactory-jieba' (the tokenizer of --preset longbench)" in res.stderr
    path = write_jsonl(tmp_path / "r.jsonl", RECORDS)
    res = run_cli("score", "-p", path, "--ref-field", "label", "-q", "--bootstrap", "0", "--metrics", "bleu",
                  "--preset", "sacrebleu-zh", "--normalize", "none", "--punct", "keep")
    assert res.exit_code == 2, res.output
    assert "--normalize and --punct: tokenizer 'sacrebleu-zh' (the tokenizer of --preset sacrebleu-zh)" in res.stderr
    res = run_cli("explain", "-p", path, "--id", "a", "--preset", "sacrebleu-zh", "--metrics", "bleu",
                  "--punct", "keep")
    assert res.exit_code == 2 and "tokenizer 'sacrebleu-zh'" in res.stderr, res.output
    # -t overrides the preset's tokenizer (PresetOverrideWarning, signature overridden:tokenizer): options apply
    ok = run_cli("bleu", ref, "-i", hyp, "--preset", "sacrebleu-zh", "-t", "char", "--normalize", "none", "-f", "json")
    assert ok.exit_code == 0 and "overridden:tokenizer" in ok.stdout, ok.output
