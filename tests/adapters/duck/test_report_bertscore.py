"""The BERTScore-F1 column of the 小黄鸭 reports (``evaluate_predictions`` / ``compare_predictions`` with
``bertscore=BertScoreOptions(...)``) on a tiny BERT built in the test (``tests/helpers/tiny_bert.py``: a config and a
character vocabulary, nothing from the Hub): the overall value is ``bert_score.score``'s F mean (bert-score 0.3.13)
to 1e-6, a group's value its items' mean, the interval SciPy's percentile bootstrap over the items' F, compare's
B − A the difference of the two systems' means; a bad option or model path is a clear error."""

from __future__ import annotations

import numpy as np
import pytest

import torch
import bert_score
from scipy.stats import bootstrap

from helpers.cli import TWO_DOMAIN_PREDS, TWO_DOMAIN_ROWS, write_jsonl  # noqa: E402
from helpers.tiny_bert import make_tiny_bert  # noqa: E402
from zheval.adapters.duck import compare_predictions, evaluate_predictions, load_duck  # noqa: E402
from zheval.compute.bertscore import BertScoreOptions  # noqa: E402

TOL = 1e-6
REFS = [r["responses"] for r in TWO_DOMAIN_ROWS]
DOMAINS = [r["domain"] for r in TWO_DOMAIN_ROWS]
#: System B of the comparison: every prediction cut to its first three characters.
PREDS_B = [p[:3] for p in TWO_DOMAIN_PREDS]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    torch.set_num_threads(1)
    return make_tiny_bert(tmp_path_factory.mktemp("model") / "tiny", layers=2, seed=2)


@pytest.fixture(scope="module")
def ds(tmp_path_factory):
    return load_duck(write_jsonl(tmp_path_factory.mktemp("duck") / "data.jsonl", TWO_DOMAIN_ROWS))


def _reference_f(tiny, preds, idf):
    p, r, f = bert_score.score(preds, REFS, model_type=tiny, num_layers=2, idf=idf)
    return p.numpy().astype(np.float64), r.numpy().astype(np.float64), f.numpy().astype(np.float64)


def test_score_report_column_equals_bert_score(tiny, ds):
    rep = evaluate_predictions(ds, TWO_DOMAIN_PREDS, by=("domain",), bootstrap=200, seed=7, keep_items=True,
                               bertscore=BertScoreOptions(model=tiny, layer=2, idf=True))
    p, r, f = _reference_f(tiny, TWO_DOMAIN_PREDS, idf=True)
    assert rep.metrics[-1] == ("bertscore_f1", "BERTScore-F1")
    overall = rep.score("bertscore_f1")
    assert abs(overall.value - f.mean()) < TOL
    assert abs(overall.details["precision"] - p.mean()) < TOL and abs(overall.details["recall"] - r.mean()) < TOL
    for domain in set(DOMAINS):  # a group's value: the mean of its items' F
        mine = np.array([d == domain for d in DOMAINS])
        assert abs(rep.score("bertscore_f1", "domain", domain).value - f[mine].mean()) < TOL
    # the interval: SciPy's percentile bootstrap of the mean over the items' F, with the report's seed
    ci = bootstrap((f,), np.mean, n_resamples=200, confidence_level=0.95, method="percentile",
                   rng=np.random.default_rng(7)).confidence_interval
    assert abs(overall.low - ci.low) < TOL and abs(overall.high - ci.high) < TOL
    assert np.abs(np.array([it["bertscore_f1"] for it in rep.items]) - f).max() < TOL
    sig = rep.signatures["bertscore"]
    assert sig.startswith("nrefs:2|metric:bertscore|model:tiny|") and "|layer:2|idf:yes|" in sig
    assert "|bs:200|seed:7|zheval:" in sig
    assert rep.params["bertscore"]["layer"] == 2 and rep.signatures["rouge"]  # the n-gram columns are still there


def test_compare_gives_the_difference_of_the_two_means(tiny, ds):
    rep = compare_predictions(ds, TWO_DOMAIN_PREDS, PREDS_B, metrics=["rouge"], bootstrap=200,
                              bertscore=BertScoreOptions(model=tiny, layer=2))
    fa, fb = _reference_f(tiny, TWO_DOMAIN_PREDS, False)[2], _reference_f(tiny, PREDS_B, False)[2]
    row = next(x for x in rep.comparison if x["metric"] == "bertscore_f1" and x["group"] == "overall")
    assert row["label"] == "BERTScore-F1" and row["system"] == "B"
    assert abs(row["score_a"] - fa.mean()) < TOL and abs(row["score_b"] - fb.mean()) < TOL
    assert abs(row["delta"] - (fb.mean() - fa.mean())) < TOL
    assert row["delta_low"] <= row["delta"] <= row["delta_high"] and 0 < row["p_value"] <= 1
    assert "metric:bertscore" in rep.signatures["bertscore"]


def test_bad_bertscore_options_are_clear_errors(ds, tmp_path):
    with pytest.raises(TypeError, match="evaluate_predictions: bertscore must be a .*BertScoreOptions, got dict"):
        evaluate_predictions(ds, TWO_DOMAIN_PREDS, bertscore={"model": str(tmp_path)})
    with pytest.raises(FileNotFoundError, match="not a local directory. zheval never downloads"):
        compare_predictions(ds, TWO_DOMAIN_PREDS, PREDS_B, bertscore=BertScoreOptions(model="bert-base-chinese"))
