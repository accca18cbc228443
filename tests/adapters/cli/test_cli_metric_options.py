"""A metric's option given without its metric is refused (break-it F8), by one table
(`zheval.cli.options.METRIC_OPTIONS`): ``--rouge-types`` and ``--multi-ref`` without rouge in ``--metrics`` were
dropped without a word (the JSON said ``rouge_types: []``, ``multi_ref: "max"``) while ``--max-order`` was refused.
Only options the user gave count: ``--rouge-types`` has a default value, and ``--metrics bleu`` alone runs."""

from __future__ import annotations

import json

import pytest

from tests.helpers.cli import run_cli, write_sample_files


@pytest.fixture()
def files(tmp_path):
    data, preds, _, _ = write_sample_files(tmp_path)
    return data, preds


@pytest.mark.parametrize("extra, message", [
    (["--rouge-types", "rouge1"], "--rouge-types applies to ROUGE: add rouge to --metrics"),
    (["--multi-ref", "mean"], "--multi-ref applies to ROUGE: add rouge to --metrics"),
    (["--rouge-types", "rouge1", "--multi-ref", "mean"],
     "--rouge-types and --multi-ref apply to ROUGE: add rouge to --metrics"),
    (["--multi-ref", "max"], "--multi-ref applies to ROUGE: add rouge to --metrics"),  # given, if the default value
    (["--bertscore-layer", "3"], "--bertscore-layer applies to BERTScore: add --bertscore-model"),
])
def test_score_refuses_an_option_of_a_metric_not_requested(files, extra, message):
    data, preds = files
    r = run_cli("score", "-d", data, "-p", preds, "--metrics", "bleu", "--bootstrap", "0", *extra)
    assert r.exit_code == 2
    assert r.stderr == f"zheval: error: {message}\n"


def test_two_metrics_missing_are_named_each(files):
    data, preds = files
    r = run_cli("score", "-d", data, "-p", preds, "--metrics", "chrf", "--bootstrap", "0", "--rouge-types", "rouge1",
                "--max-order", "2")
    assert r.exit_code == 2
    assert r.stderr == ("zheval: error: --rouge-types applies to ROUGE: add rouge to --metrics; --max-order "
                        "applies to BLEU: add bleu to --metrics\n")


@pytest.mark.parametrize("command", ["explain", "sample"])
def test_explain_and_sample_refuse_them_too(files, tmp_path, command):
    data, preds = files
    more = ["--metric", "bleu"] if command == "explain" else ["-k", "2", "--by-metric", "bleu", "-o",
                                                              tmp_path / "s.csv"]
    r = run_cli(command, "-d", data, "-p", preds, "--metrics", "bleu", "--multi-ref", "mean", *more)
    assert r.exit_code == 2
    assert r.stderr.endswith("zheval: error: --multi-ref applies to ROUGE: add rouge to --metrics\n")


def test_the_defaults_of_an_absent_metric_are_not_refused(files):
    data, preds = files
    r = run_cli("score", "-d", data, "-p", preds, "--metrics", "bleu", "--bootstrap", "0", "--format", "json")
    assert r.exit_code == 0, r.output
    assert [m["name"] for m in json.loads(r.stdout)["metrics"]] == ["bleu"]
