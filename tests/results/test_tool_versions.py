"""A cross-check names the installed version of its reference tool and warns on a version outside the tested span
(zheval/results/tool_versions.py): the equality with sacrebleu and rouge-score is tested at both ends of the
declared ranges (the lowest-versions CI job installs sacrebleu 2.4.0, the main job 2.6.0)."""

from __future__ import annotations

import importlib.metadata as md
import warnings

import pytest

import zheval
import zheval.results.tool_versions as tv


@pytest.mark.parametrize("installed, tested", [("2.4.0", True), ("2.4.3", True), ("2.6.0", True), ("2.6", True),
                                               ("2.3.3", False), ("2.6.1", False), ("3.0.0", False), (None, False),
                                               ("2.5.0rc1", True)])
def test_sacrebleu_span(installed, tested):
    assert tv.is_tested_version("sacrebleu", installed) is tested


def test_unknown_distribution_is_untested():
    assert not tv.is_tested_version("no-such-tool", "1.0")


def test_results_name_the_installed_versions():
    with warnings.catch_warnings():
        warnings.simplefilter("error", tv.UntestedToolVersionWarning)
        bleu = zheval.compute_bleu(["今天天气很好"], [["今天天气不错"]], crosscheck=True)["crosscheck"]
        rouge = zheval.compute_rouge(["今天天气很好"], [["今天天气不错"]], crosscheck=True)["crosscheck"]
    assert bleu["tool_version"] == md.version("sacrebleu") and bleu["tool_tested"] is True
    assert bleu["tool"] == f"sacrebleu {md.version('sacrebleu')} tokenize=none"
    assert rouge["tool_version"] == md.version("rouge-score") and rouge["tool_tested"] is True
    assert rouge["tool"] == f"rouge-score {md.version('rouge-score')}"


@pytest.mark.parametrize("metric, dist", [("bleu", "sacrebleu"), ("rouge", "rouge-score")])
def test_an_untested_version_is_named_and_warned(monkeypatch, metric, dist):
    monkeypatch.setattr(tv, "tool_version", lambda d: "0.0.1" if d == dist else md.version(d))
    fn = zheval.compute_bleu if metric == "bleu" else zheval.compute_rouge
    with pytest.warns(tv.UntestedToolVersionWarning, match=f"{dist} 0.0.1 is not a version .* tested against"):
        out = fn(["今天天气很好"], [["今天天气不错"]], crosscheck=True)["crosscheck"]
    assert out["tool_version"] == "0.0.1" and out["tool_tested"] is False


def test_t2s_signature_names_opencc_and_a_tested_version_is_quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("error", tv.UntestedToolVersionWarning)
        sig = zheval.compute_rouge(["頭髮很好"], [["头发很好"]], t2s=True)["signature"]
    assert f"opencc:{md.version('opencc')}" in sig
    assert tv.is_tested_version("opencc", md.version("opencc"))


@pytest.mark.parametrize("installed, tested", [("1.1.9", True), ("1.4.2", True), ("1.3.0", True), ("1.1.8", False),
                                               ("1.5.0", False)])
def test_opencc_span(installed, tested):
    assert tv.is_tested_version("opencc", installed) is tested


def test_t2s_with_an_untested_opencc_warns_and_names_it(monkeypatch):
    # issue 35: opencc is a range (>=1.1.9,<2); the t2s step names the installed version and warns outside the span
    monkeypatch.setattr(tv, "tool_version", lambda d: "1.1.8" if d == "opencc" else md.version(d))
    with pytest.warns(tv.UntestedToolVersionWarning, match=r"t2s: opencc 1.1.8 is not a version the t2s step was "
                                                           r"tested with \(1.1.9 to 1.4.2\)"):
        zheval.compute_bleu(["頭髮很好"], [["头发很好"]], t2s=True)
