"""metrics/chinese_bertscore as an evaluate module: ``evaluate.load`` by path, a tiny local BERT (nothing from the
Hub), equal to the library and to bert-score 0.3.13; string and list references; option errors."""

import evaluate
import numpy as np
import pytest

import torch
import bert_score

from helpers import REPO  # noqa: E402
from helpers.tiny_bert import make_tiny_bert  # noqa: E402

import zheval  # noqa: E402

PREDS = ["我爱北京天安门", "今天天气很好", "我们去公园散步吧"]
REFS = [["我喜欢北京", "北京天安门"], ["今天天气不错"], ["我们去公园"]]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    torch.set_num_threads(1)
    return make_tiny_bert(tmp_path_factory.mktemp("model") / "tiny", layers=2, seed=4)


def test_module_equals_the_library_and_bert_score(tiny):
    module = evaluate.load(str(REPO / "metrics" / "chinese_bertscore"))
    assert module.name == "chinese_bertscore"
    out = module.compute(predictions=PREDS, references=REFS, model=tiny, layer=2, idf=True)
    assert out == zheval.compute_bertscore(PREDS, REFS, model=tiny, layer=2, idf=True)
    f1 = bert_score.score(PREDS, REFS, model_type=tiny, num_layers=2, idf=True)[2].numpy()
    assert np.abs(np.asarray(out["item_f1"]) - f1).max() < 1e-6
    single = evaluate.load(str(REPO / "metrics" / "chinese_bertscore"))
    one = single.compute(predictions=PREDS, references=[r[0] for r in REFS], model=tiny, layer=1)
    assert one["signature"].startswith("nrefs:1|metric:bertscore|model:tiny|")


def test_module_option_errors(tiny):
    module = evaluate.load(str(REPO / "metrics" / "chinese_bertscore"))
    with pytest.raises(TypeError, match="needs model="):
        module.compute(predictions=PREDS, references=REFS)
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['model_type'\]"):
        module.compute(predictions=PREDS, references=REFS, model=tiny, model_type="bert-base-chinese")
    with pytest.raises(FileNotFoundError, match="never downloads"):
        module.compute(predictions=PREDS, references=REFS, model="bert-base-chinese")


def test_module_stores_batches_and_items_as_the_other_modules(tiny):
    """The shared evaluate behaviour (ZhevalMetricMixin): add_batch/add store the items, compute scores them all with
    the idf of every stored reference (bert-score's numbers on the whole set); a blank reference is refused at
    add_batch time with nothing stored; evaluate.load refuses scoring options; a failing compute keeps the items."""
    path = str(REPO / "metrics" / "chinese_bertscore")
    module = evaluate.load(path)
    module.add_batch(predictions=PREDS[:2], references=REFS[:2])
    with pytest.raises(ValueError, match=r"references\[0\]\[0\]"):
        module.add_batch(predictions=["好"], references=[["  "]])
    module.add(prediction=PREDS[2], reference=REFS[2][0])
    with pytest.raises(FileNotFoundError, match="never downloads"):
        module.compute(model="bert-base-chinese")
    assert len(module) == 3  # the failed compute put the stored items back
    out = module.compute(model=tiny, layer=2, idf=True)
    p, r, f = (x.numpy() for x in bert_score.score(PREDS, REFS, model_type=tiny, num_layers=2, idf=True))
    for key, ref in (("item_precision", p), ("item_recall", r), ("item_f1", f)):
        assert np.abs(np.asarray(out[key]) - ref).max() < 1e-6
    assert abs(out["f1"] - float(f.mean())) < 1e-6
    with pytest.raises(TypeError, match=r"got unknown argument\(s\) \['model'\], which evaluate would silently"):
        evaluate.load(path, model=tiny)
