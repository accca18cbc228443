"""Errors of the library that a command prints name the options typed, not the library's parameters (issue 35,
break-it pass 6; `zheval.cli.option_names`): ``--smooth`` not ``smooth_method``, ``--layer`` (``zheval bertscore``)
or ``--bertscore-layer`` (the report commands) not ``layer``, ``--normalize 'default'`` not a Python dict."""

from __future__ import annotations

import pytest

from helpers.cli import PREDS, ROWS, run_cli, write_jsonl
from zheval.cli.option_names import in_option_names


def test_in_option_names_rewrites_names_not_words():
    assert in_option_names("unknown smooth_method 'x'; valid values: none", "score") == "unknown --smooth 'x'; valid values: none"
    assert in_option_names("layer must be an int from 0 to 3, got 9", "bertscore") == "--layer must be an int from 0 to 3, got 9"
    assert in_option_names("layer must be an int from 0 to 3, got 9", "agree") == "--bertscore-layer must be an int from 0 to 3, got 9"
    assert in_option_names("the hidden layer must be", "bertscore") == "the hidden layer must be"  # a word, not the name
    assert (in_option_names("pass baseline_path= (a LAYER,P,R,F file) or rescale_with_baseline=False", "bertscore")
            == "pass --baseline-path (a LAYER,P,R,F file) or leave out --rescale-with-baseline")
    assert (in_option_names("baseline_path is given but rescale_with_baseline is False", "bertscore")
            == "--baseline-path is given without --rescale-with-baseline")  # no Python False at the command line
    assert in_option_names("jieba_hmm is True here", "bleu") == "--jieba-hmm is given here"
    assert in_option_names("the answer is False", "bleu") == "the answer is False"  # no option: left alone
    assert in_option_names("got {'normalize': 'default', 't2s': True}", "bleu") == "got --normalize 'default', --t2s"
    assert in_option_names("got {'x': 1}", "bleu") == "got {'x': 1}"  # a key that is no option: kept
    assert in_option_names("params.multi_ref of the report", "score") == "params.multi_ref of the report"


def _records(tmp_path):
    return write_jsonl(tmp_path / "r.jsonl", [{"id": r["id"], "prediction": p["prediction"], "reference": r["responses"][0]}
                                              for r, p in zip(ROWS, PREDS)])


@pytest.mark.parametrize("args, says", [
    (("--smooth", "bogus"), "unknown --smooth 'bogus'; valid values:"),
    (("--multi-ref", "bogus"), "unknown --multi-ref 'bogus'; valid values:"),
])
def test_score_names_its_options(tmp_path, args, says):
    res = run_cli("score", "-p", _records(tmp_path), *args)
    assert res.exit_code == 2 and says in res.output, res.output


def test_bleu_and_clean_name_their_options(tmp_path):
    ref, hyp = tmp_path / "r.txt", tmp_path / "h.txt"
    ref.write_text("今天天气很好\n", encoding="utf-8")
    hyp.write_text("今天天气不错\n", encoding="utf-8")
    res = run_cli("bleu", ref, "-i", hyp, "-t", "llamafactory-char", "--normalize", "default")
    # refused by the typed-option rule before the library sees it: the message names the option as typed
    assert res.exit_code == 2 and res.output.startswith("zheval: error: --normalize: tokenizer 'llamafactory-char'") \
        and "takes no options" in res.output and "normalize'" not in res.output, res.output
    data = write_jsonl(tmp_path / "d.jsonl", ROWS)
    res = run_cli("clean", data, "-o", tmp_path / "o.jsonl", "--dedup-threshold", "1.5", "-q")
    assert res.exit_code == 2 and "--dedup-threshold must be a number in (0, 1]" in res.output, res.output
    res = run_cli("clean", data, "-o", tmp_path / "o.jsonl", "--min-chars", "200", "--max-chars", "100", "-q")
    assert res.exit_code == 2 and "--max-chars must be an integer ≥ --min-chars (200), got 100" in res.output


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    pytest.importorskip("torch")
    from helpers.tiny_bert import make_tiny_bert

    return make_tiny_bert(tmp_path_factory.mktemp("model") / "tiny", layers=2, seed=2)


def test_bertscore_names_layer_and_baseline_options(tmp_path, tiny):
    ref, hyp = tmp_path / "r.txt", tmp_path / "h.txt"
    ref.write_text("今天天气很好\n", encoding="utf-8")
    hyp.write_text("今天天气不错\n", encoding="utf-8")
    res = run_cli("bertscore", ref, "-i", hyp, "--model", tiny)
    assert res.exit_code == 2 and "--layer is required for model 'tiny'" in res.output, res.output
    res = run_cli("bertscore", ref, "-i", hyp, "--model", tiny, "--layer", "9")
    assert res.exit_code == 2 and "--layer must be an int from 0 to 2, got 9" in res.output, res.output
    res = run_cli("bertscore", ref, "-i", hyp, "--model", tiny, "--layer", "1", "--rescale-with-baseline")
    assert res.exit_code == 2 and "pass --baseline-path (a LAYER,P,R,F file) or leave out --rescale-with-baseline" in res.output
    res = run_cli("score", "-p", _records(tmp_path), "--bertscore-model", tiny)
    assert res.exit_code == 2 and "--bertscore-layer is required for model 'tiny'" in res.output, res.output


@pytest.mark.parametrize("command", ["score", "compare", "explain", "sample"])
def test_id_field_help_says_the_id_column_is_used_when_present(command):
    # break-it pass 6: the help said "[default: none: rows in order]" though an `id` field is used when present
    res = run_cli(command, "--help")
    text = " ".join(res.output.split())
    assert "[default: id when the file has an id field, else none: rows in order, named by line]" in text, text
