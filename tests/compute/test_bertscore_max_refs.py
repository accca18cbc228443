"""``compute_bertscore(..., max_refs=K)`` (and the ``chinese_bertscore`` evaluate module's ``max_refs``): every item
scored against its first K references, as ``compute_rouge(..., max_refs=K)`` cuts them (the same function,
`zheval.compute.inputs.prepare_items`), checked as compute_rouge checks it, the signature carrying ``maxrefs:K``
after ``nrefs`` (counted after the cut) as the report's BERTScore signature does. The numbers are checked against
``bert_score.score`` (bert-score 0.3.13) on the first K references, on a tiny BERT built in the test (no Hub).
Before the fix ``max_refs`` was a TypeError (unexpected keyword argument)."""

from __future__ import annotations

import evaluate
import numpy as np
import pytest

import torch
import bert_score

import zheval
from helpers import REPO
from helpers.tiny_bert import make_tiny_bert

TOL = 1e-6
PREDS = ["我爱北京天安门", "今天天气很好", "我们去公园散步吧", "明天记得带伞"]
REFS = [["北京天安门", "我喜欢北京", "我爱北京的天安门"], ["今天天气不错"], ["我们去公园", "公园散步吧"],
        ["下雨了", "明天带伞", "记得带伞", "带把伞"]]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    torch.set_num_threads(1)
    return make_tiny_bert(tmp_path_factory.mktemp("model") / "tiny", layers=2, seed=7)


def _bert_score(tiny, refs, idf):
    p, r, f = bert_score.score(PREDS, refs, model_type=tiny, num_layers=2, idf=idf)
    return [x.numpy().astype(np.float64) for x in (p, r, f)]


@pytest.mark.parametrize("k", [1, 2])
@pytest.mark.parametrize("idf", [False, True])
def test_max_refs_equals_bert_score_on_the_first_k_references(tiny, k, idf):
    out = zheval.compute_bertscore(PREDS, REFS, model=tiny, layer=2, idf=idf, max_refs=k)
    want = _bert_score(tiny, [r[:k] for r in REFS], idf)
    for key, w in zip(("item_precision", "item_recall", "item_f1"), want):
        assert np.abs(np.asarray(out[key]) - w).max() < TOL, key
    assert abs(out["f1"] - want[2].mean()) < TOL
    every = _bert_score(tiny, REFS, idf)[2]
    assert np.abs(every - want[2]).max() > 1e-4  # the cut changes the numbers
    nrefs = "1" if k == 1 else "var"
    assert out["signature"].startswith(f"nrefs:{nrefs}|maxrefs:{k}|metric:bertscore|model:tiny|"), out["signature"]
    # the same signature as BERTScore on the cut references but for maxrefs
    cut = zheval.compute_bertscore(PREDS, [r[:k] for r in REFS], model=tiny, layer=2, idf=idf)
    assert out["signature"].replace(f"|maxrefs:{k}", "") == cut["signature"]
    assert "maxrefs" not in zheval.compute_bertscore(PREDS, REFS, model=tiny, layer=2)["signature"]


def test_max_refs_larger_than_every_item_keeps_every_reference(tiny):
    out = zheval.compute_bertscore(PREDS, REFS, model=tiny, layer=2, max_refs=10)
    assert np.abs(np.asarray(out["item_f1"]) - _bert_score(tiny, REFS, False)[2]).max() < TOL
    assert out["signature"].startswith("nrefs:var|maxrefs:10|metric:bertscore|")


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_max_refs_is_checked_as_compute_rouge_checks_it(tiny, bad):
    with pytest.raises(ValueError) as rouge_error:
        zheval.compute_rouge(PREDS, REFS, max_refs=bad)
    with pytest.raises(ValueError) as bert_error:
        zheval.compute_bertscore(PREDS, REFS, model=tiny, layer=2, max_refs=bad)
    assert str(bert_error.value) == str(rouge_error.value)


def test_evaluate_module_takes_max_refs(tiny):
    module = evaluate.load(str(REPO / "metrics" / "chinese_bertscore"))
    out = module.compute(predictions=PREDS, references=REFS, model=tiny, layer=2, idf=True, max_refs=1)
    assert out == zheval.compute_bertscore(PREDS, REFS, model=tiny, layer=2, idf=True, max_refs=1)
    want = _bert_score(tiny, [r[:1] for r in REFS], True)[2]
    assert np.abs(np.asarray(out["item_f1"]) - want).max() < TOL
    assert out["signature"].startswith("nrefs:1|maxrefs:1|metric:bertscore|")
    with pytest.raises(ValueError, match="max_refs must be at least 1"):
        module.compute(predictions=PREDS, references=REFS, model=tiny, layer=2, max_refs=0)


def test_report_signature_writes_maxrefs_once(tiny):
    """A report's BERTScore signature (`bertscore_signature`, ``--max-refs K``) adds ``maxrefs:K`` after ``nrefs``
    unless the result's own signature (``max_refs=K`` given to BERTScore) already carries it."""
    from zheval.adapters.duck.reductions import bertscore_signature

    cut = zheval.compute_bertscore(PREDS, REFS, model=tiny, layer=2, max_refs=1)
    plain = zheval.compute_bertscore(PREDS, [r[:1] for r in REFS], model=tiny, layer=2)
    both = bertscore_signature(cut, 0, 12345, 0.95, 1)
    assert both.count("maxrefs:") == 1 and both.startswith("nrefs:1|maxrefs:1|metric:bertscore|")
    assert both == bertscore_signature(plain, 0, 12345, 0.95, 1)
