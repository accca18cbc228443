"""A huge F-measure ``beta``: ROUGE's beta >= ~1.35e154 (beta**2 overflows to inf, F nan) raised IndexError in
`zheval.fast.rouge`; chrF's beta >= 1e19 raised ``TypeError: ufunc 'isfinite'`` (a whole beta made a Python int too
large for numpy). Both now share `zheval.definitions.orders.MAX_BETA` (1e100, where F is already the recall: F -> R
as beta -> inf): up to it the numbers are rouge-score's recall and sacrebleu's chrF (float beta), above it a
ValueError naming beta and the bound (``--beta`` / ``--chrf-beta`` at the command line)."""

from __future__ import annotations

import pytest

import zheval

P, R = ["猫坐"], [["猫坐在垫子上很舒服"]]


class _Chars:
    def tokenize(self, text):
        return list(text)


@pytest.mark.parametrize("beta", [1e155, 1e300, 10 ** 400, 1e100 * 1.0000001, float("inf"), float("nan")])
@pytest.mark.parametrize("metric", ["rouge", "chrf"])
def test_beta_above_the_bound_is_refused(metric, beta):
    compute = zheval.compute_rouge if metric == "rouge" else zheval.compute_chrf
    with pytest.raises(ValueError, match=r"^beta must be a finite number >= 0 and <= 1e\+100 \(at 1e\+100 the "
                                         r"F-measure is already the recall\)"):
        compute(P, R, beta=beta)


def test_the_bound_is_shared_and_documented():
    from zheval.compute.options import ChrfOptions, RougeOptions
    from zheval.definitions.orders import MAX_BETA

    assert MAX_BETA == 1e100
    for options in (RougeOptions, ChrfOptions):
        assert "[0, 1e100]" in options.__dataclass_fields__["beta"].metadata["doc"]


@pytest.mark.parametrize("beta", [1e20, 1e100, 10 ** 30])
def test_rouge_at_a_huge_beta_is_rouge_scores_recall(beta):
    from rouge_score import rouge_scorer

    types = ["rouge1", "rouge2", "rougeL"]
    got = zheval.compute_rouge(P, R, rouge_types=types, normalize=False, beta=beta)
    theirs = rouge_scorer.RougeScorer(types, tokenizer=_Chars()).score(R[0][0], P[0])
    for t in types:  # by hand: rouge1 recall 2/9
        assert got[t] == pytest.approx(theirs[t].recall, abs=1e-12)
    assert got["rouge1"] == pytest.approx(2 / 9, abs=1e-12)


@pytest.mark.parametrize("beta", [1e19, 1e20, 10 ** 20, 1e100, 3.5])
def test_chrf_at_a_huge_beta_is_sacrebleus(beta):
    from sacrebleu.metrics import CHRF

    got = zheval.compute_chrf(P, R, normalize=False, beta=beta)["chrf"]
    theirs = CHRF(beta=float(beta)).corpus_score(P, [[r[0] for r in R]]).score / 100
    assert got == pytest.approx(theirs, abs=1e-12)


def test_the_cli_names_the_option_as_typed(tmp_path):
    from typer.testing import CliRunner

    from zheval.cli.commands import app

    (tmp_path / "r.txt").write_text(R[0][0] + "\n", encoding="utf-8")
    (tmp_path / "h.txt").write_text(P[0] + "\n", encoding="utf-8")
    out = CliRunner().invoke(app, ["rouge", str(tmp_path / "r.txt"), "-i", str(tmp_path / "h.txt"), "--beta", "1e300"])
    assert out.exit_code != 0 and "--beta must be a finite number >= 0 and <= 1e+100" in out.output
    assert "Traceback" not in out.output
