"""``beta`` by name at a door scoring both ROUGE and chrF: ``zheval.score(preds, refs, metrics=["rouge", "chrf"],
beta=2)`` applied beta=2 to ROUGE too (ROUGE-1 became an F2) with no word, while chrF's own default is 2. Refused at
``zheval.score``, ``score_batches`` and ``explain`` (the engine doors share `score_door_config`), naming both
meanings and the per-metric options objects; with them each metric gets its own beta, checked against rouge-score
and sacrebleu. ``evaluate.combine`` keeps evaluate's convention and is not touched; ``zheval score`` has no
``--beta`` (ROUGE's ``--beta`` is ``zheval rouge``'s, chrF's ``--chrf-beta`` is ``zheval chrf``'s)."""

from __future__ import annotations

import re

import pytest

import zheval
from zheval.compute.options import ChrfOptions, RougeOptions

P, R = ["今天天气很好我们去公园", "猫坐在垫子上"], [["今天天气不错我们去公园玩"], ["猫趴在垫子上面"]]
DOORS = {"score": lambda **o: zheval.score(P, R, **o),
         "score_batches": lambda **o: zheval.score_batches([(P, R)], **o),
         "explain": lambda **o: zheval.explain(P[0], R[0], **o)}


@pytest.mark.parametrize("door", list(DOORS))
def test_beta_by_name_with_rouge_and_chrf_is_refused(door):
    with pytest.raises(TypeError, match=rf"^{door}: beta=2 is an option of both rouge .* and chrf .*"
                                        r"rouge=RougeOptions\(beta=\.\.\.\), chrf=ChrfOptions\(beta=\.\.\.\), or "
                                        r"score them in separate calls"):
        DOORS[door](metrics=["rouge", "chrf"], beta=2)


@pytest.mark.parametrize("door", list(DOORS))
def test_beta_by_name_with_one_of_them_is_that_metrics(door):
    assert DOORS[door](metrics=["rouge"], beta=2)
    assert DOORS[door](metrics=["chrf", "bleu"], beta=1)


class _Chars:
    def tokenize(self, text):
        return list(text)


def test_each_metric_gets_its_own_beta_through_its_options_object():
    from rouge_score import rouge_scorer
    from sacrebleu.metrics import CHRF

    out = zheval.score(P, R, metrics=["rouge", "chrf"], normalize=False, rouge=RougeOptions(rouge_types=["rouge1"]),
                       chrf=ChrfOptions(beta=1))
    scorer = rouge_scorer.RougeScorer(["rouge1"], tokenizer=_Chars())
    f1 = [scorer.score(r[0], p)["rouge1"].fmeasure for p, r in zip(P, R)]
    assert out["rouge"]["rouge1"] == pytest.approx(sum(f1) / len(f1), abs=1e-12)
    assert "beta:1" in out["chrf"]["signature"]
    theirs = CHRF(beta=1).corpus_score(P, [[r[0] for r in R]]).score / 100
    assert out["chrf"]["chrf"] == pytest.approx(theirs, abs=1e-12)
    # ROUGE-1 stays F1 (rouge-score's); beta=2 by name on ROUGE alone is an F2, not rouge-score's F1
    f2 = zheval.score(P, R, metrics=["rouge"], rouge_types=["rouge1"], normalize=False, beta=2)["rouge"]["rouge1"]
    assert f2 != pytest.approx(out["rouge"]["rouge1"], abs=1e-6)


def test_the_cli_score_command_has_no_beta():
    from typer.testing import CliRunner
    from zheval.cli.commands import app

    res = CliRunner().invoke(app, ["score", "--metrics", "rouge,chrf", "--beta", "2", "x.jsonl"])
    # click's wording differs by version ("No such option: --beta" / "No such option '--beta'")
    assert res.exit_code == 2 and re.search(r"No such option:? '?--beta\b", res.output), res.output
