"""zheval.compute_bertscore equals bert-score 0.3.13's ``bert_score.score`` on the same model, to 1e-6: tiny BERTs
built from a ``BertConfig`` and a character vocabulary written in ``tests/helpers/tiny_bert.py`` (nothing from the
Hub), across layers, idf, rescaling, multiple references and truncation; a tokenizer saved without
``model_max_length`` (bert-score fails there with transformers 5); the errors; memory by chunks."""

from __future__ import annotations

import filecmp
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import torch
import bert_score

from helpers import REPO, missing_module_message  # noqa: E402
from helpers.tiny_bert import make_tiny_bert  # noqa: E402

from zheval.compute import bertscore as bs  # noqa: E402
from zheval.compute.bertscore import compute_bertscore  # noqa: E402
from zheval.compute.inputs import EmptyReferenceError  # noqa: E402

TOL = 1e-6
PREDS = ["我爱北京天安门", "今天天气很好", "我们去公园散步吧", "他说你好", "明天有雨记得带伞", "小黄鸭快递柜取件码是多少",
         "abc 123 的文字"]
REFS = ["我喜欢北京", "今天天气不错", "我们去公园", "她说再见", "明天下雨", "取件码", "文字 abc"]
MULTI = [["我喜欢北京", "北京天安门"], ["今天天气不错"], ["我们去公园", "公园散步", "去散步吧"], ["她说再见", "他说你好啊"],
         ["明天下雨"], ["取件码", "快递柜", "小黄鸭"], ["文字 abc"]]
BASELINE = str(Path(bert_score.__file__).parent / "rescale_baseline" / "zh" / "bert-base-chinese.tsv")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    torch.set_num_threads(1)
    return make_tiny_bert(tmp_path_factory.mktemp("model") / "tiny", layers=3, seed=0)


def reference(preds, refs, model, **kw):
    """bert-score's own P, R, F as an ``(n, 3)`` array."""
    p, r, f = bert_score.score(preds, refs, model_type=model, **kw)
    return np.stack([p.numpy(), r.numpy(), f.numpy()], axis=1).astype(np.float64)


def ours(out):
    return np.stack([out["item_precision"], out["item_recall"], out["item_f1"]], axis=1)


@pytest.mark.parametrize("layer", [0, 1, 2, 3])
@pytest.mark.parametrize("idf", [False, True])
def test_equals_bert_score_across_layers_and_idf(tiny, layer, idf):
    out = compute_bertscore(PREDS, REFS, model=tiny, layer=layer, idf=idf)
    for batch_size in (1, 64):
        diff = np.abs(ours(out) - reference(PREDS, REFS, tiny, num_layers=layer, idf=idf, batch_size=batch_size))
        assert diff.max() < TOL, (layer, idf, batch_size, diff.max())
    assert out["f1"] == pytest.approx(float(np.mean(out["item_f1"])), abs=1e-12)
    assert out["layer"] == layer and out["idf"] is idf


def test_the_scores_are_not_a_constant(tiny):
    """Guard against a test that cannot fail: different layers and idf give different numbers."""
    a = ours(compute_bertscore(PREDS, REFS, model=tiny, layer=1))
    b = ours(compute_bertscore(PREDS, REFS, model=tiny, layer=3))
    c = ours(compute_bertscore(PREDS, REFS, model=tiny, layer=3, idf=True))
    assert np.abs(a - b).max() > 1e-3 and np.abs(b - c).max() > 1e-3


@pytest.mark.parametrize("idf", [False, True])
def test_rescale_with_the_shipped_chinese_baseline(tiny, idf):
    out = compute_bertscore(PREDS, REFS, model=tiny, layer=2, idf=idf, rescale_with_baseline=True,
                            baseline_path=BASELINE)
    expected = reference(PREDS, REFS, tiny, num_layers=2, idf=idf, lang="zh", rescale_with_baseline=True,
                         baseline_path=BASELINE)
    assert np.abs(ours(out) - expected).max() < TOL
    assert out["rescaled"] and "rescale:custom." in out["signature"]


def test_shipped_baselines_are_bert_scores_files():
    installed = Path(bert_score.__file__).parent / "rescale_baseline" / "zh"
    shipped = sorted(p.name for p in bs.BASELINE_DIR.glob("*.tsv"))
    assert shipped == sorted(p.name for p in installed.glob("*.tsv"))
    for name in shipped:
        assert filecmp.cmp(bs.BASELINE_DIR / name, installed / name, shallow=False), name
    # row 8 of bert-base-chinese, read as bert-score reads it (pandas iloc[8], columns P, R, F)
    import pandas as pd

    row = pd.read_csv(installed / "bert-base-chinese.tsv").iloc[8].to_numpy()[1:].astype(np.float32)
    assert np.array_equal(bs.read_baseline(str(bs.BASELINE_DIR / "bert-base-chinese.tsv"), 8), row)


@pytest.mark.parametrize("idf", [False, True])
def test_multiple_references_take_each_maximum_separately(tiny, idf):
    out = compute_bertscore(PREDS, MULTI, model=tiny, layer=2, idf=idf)
    assert np.abs(ours(out) - reference(PREDS, MULTI, tiny, num_layers=2, idf=idf)).max() < TOL


def test_best_f_reference_option(tiny):
    """``multi_ref="best_f"``: P, R, F of the reference with the best F, from bert-score's per-pair scores (the idf
    dictionary bert-score builds from all references, passed to it as a dict)."""
    from bert_score.utils import get_idf_dict
    from transformers import AutoTokenizer

    out = compute_bertscore(PREDS, MULTI, model=tiny, layer=2, idf=True, multi_ref="best_f")
    flat_refs = [r for rs in MULTI for r in rs]
    flat_preds = [p for p, rs in zip(PREDS, MULTI) for _ in rs]
    idf_dict = get_idf_dict(flat_refs, AutoTokenizer.from_pretrained(tiny), nthreads=0)
    pairs = reference(flat_preds, flat_refs, tiny, num_layers=2, idf=idf_dict)
    expected, start = [], 0
    for rs in MULTI:
        block = pairs[start:start + len(rs)]
        expected.append(block[int(np.argmax(block[:, 2]))])
        start += len(rs)
    assert np.abs(ours(out) - np.array(expected)).max() < TOL
    separate = ours(compute_bertscore(PREDS, MULTI, model=tiny, layer=2, idf=True))
    assert (separate >= ours(out) - TOL).all()


def test_truncation_at_the_maximum_length_is_counted(tiny):
    long_pred = "我们去公园散步" * 20  # 140 pieces > 64
    long_ref = "今天天气很好" * 15
    preds, refs = [long_pred, "你好"], [["短的", long_ref], ["你好啊"]]
    out = compute_bertscore(preds, refs, model=tiny, layer=3, idf=True)
    assert np.abs(ours(out) - reference(preds, refs, tiny, num_layers=3, idf=True)).max() < TOL
    assert out["truncated_predictions"] == 1 and out["truncated_prediction_items"] == [0]
    assert out["truncated_references"] == 1 and out["truncated_reference_items"] == [[0, 1]]
    assert out["max_length"] == 64 and out["max_length_from"] == "tokenizer"


def test_tokenizer_saved_without_model_max_length(tmp_path):
    """bert-score fails (``OverflowError: int too big to convert``); zheval takes the position table's size, and
    equals bert-score on the same weights with the tokenizer's length set to that size."""
    bare = make_tiny_bert(tmp_path / "bare", layers=2, seed=3, model_max_length=None, max_positions=40)
    fixed = make_tiny_bert(tmp_path / "fixed", layers=2, seed=3, model_max_length=40, max_positions=40)
    assert "model_max_length" not in json.loads((Path(bare) / "tokenizer_config.json").read_text())
    preds, refs = ["今天天气很好" * 10, "你好"], ["今天天气不错", "你好啊"]
    with pytest.raises(OverflowError):
        bert_score.score(preds, refs, model_type=bare, num_layers=2)
    out = compute_bertscore(preds, refs, model=bare, layer=2)
    assert out["max_length"] == 40 and out["max_length_from"] == "config" and out["truncated_predictions"] == 1
    assert np.abs(ours(out) - reference(preds, refs, fixed, num_layers=2)).max() < TOL


def test_a_loaded_model_and_tokenizer_pair(tiny):
    from transformers import AutoModel, AutoTokenizer

    net, tok = AutoModel.from_pretrained(tiny), AutoTokenizer.from_pretrained(tiny)
    layers_before = len(net.encoder.layer)
    out = compute_bertscore(PREDS, REFS, model=(net, tok), layer=1, idf=True)
    assert len(net.encoder.layer) == layers_before  # the caller's model is left whole
    assert np.abs(ours(out) - reference(PREDS, REFS, tiny, num_layers=1, idf=True)).max() < TOL


def test_default_layer_of_bert_base_chinese_is_8(tmp_path):
    """bert-score's ``model2layers['bert-base-chinese'] == 8``: a directory of that name, no ``layer``, equals
    bert-score with ``num_layers=8``; and the shipped baseline is used by name."""
    from bert_score.utils import model2layers

    assert model2layers["bert-base-chinese"] == bs_model().KNOWN_LAYERS["bert-base-chinese"] == 8
    path = make_tiny_bert(tmp_path / "bert-base-chinese", layers=9, seed=1)
    out = compute_bertscore(PREDS[:3], REFS[:3], model=path, rescale_with_baseline=True)
    assert out["layer"] == 8 and "rescale:bert-base-chinese" in out["signature"]
    expected = reference(PREDS[:3], REFS[:3], path, num_layers=8, lang="zh", rescale_with_baseline=True,
                         baseline_path=BASELINE)
    assert np.abs(ours(out) - expected).max() < TOL


def bs_model():
    from zheval.compute import bertscore_model

    return bertscore_model


def test_empty_prediction_scores_zero_as_bert_score_defines_it(tiny):
    """bert-score encodes a blank candidate as ``[CLS] [SEP]`` and sets P = R = 0 (F = 0); with transformers 5 its
    own code crashes there, so the definition is checked from its ``greedy_cos_idf``: a text of two pieces."""
    out = compute_bertscore(["", "   ", "你好"], ["你好", "今天", "你好"], model=tiny, layer=2)
    assert ours(out)[:2].tolist() == [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    assert out["item_f1"][2] == pytest.approx(1.0, abs=1e-6)


def test_errors_name_the_problem(tiny, tmp_path):
    with pytest.raises(FileNotFoundError, match="never downloads.*hf download bert-base-chinese"):
        compute_bertscore(["a"], ["a"], model="bert-base-chinese")
    # words13 F4: a path is no Hub id: it was told `hf download /nonexistent` and `git clone https://huggingface.co//…`
    for path, said in (("/nonexistent", "the directory '/nonexistent' does not exist"),
                       ("./no/such", "the directory './no/such' does not exist"),
                       (str(tmp_path / "f.txt"), f"{str(tmp_path / 'f.txt')!r} is not a directory")):
        (tmp_path / "f.txt").write_text("x", encoding="utf-8")
        with pytest.raises(FileNotFoundError) as err:
            compute_bertscore(["a"], ["a"], model=path)
        assert said in str(err.value) and "hf download" not in str(err.value), str(err.value)
        assert "huggingface.co" not in str(err.value)
    with pytest.raises(ValueError, match="layer is required for model 'tiny'"):
        compute_bertscore(["a"], ["a"], model=tiny)
    with pytest.raises(ValueError, match="layer must be an int from 0 to 3"):
        compute_bertscore(["a"], ["a"], model=tiny, layer=4)
    with pytest.raises(ValueError, match="no Chinese rescaling baseline for model 'tiny'"):
        compute_bertscore(["a"], ["a"], model=tiny, layer=1, rescale_with_baseline=True)
    with pytest.raises(ValueError, match="unknown multi_ref 'mean'"):
        compute_bertscore(["a"], ["a"], model=tiny, layer=1, multi_ref="mean")
    with pytest.raises(TypeError, match="idf must be True or False"):
        compute_bertscore(["a"], ["a"], model=tiny, layer=1, idf="yes")
    with pytest.raises(EmptyReferenceError, match=r"references\[1\]\[0\]"):
        compute_bertscore(["你好", "你好"], ["你好", "  "], model=tiny, layer=1)
    with pytest.raises(TypeError, match="predictions\\[1\\]"):
        compute_bertscore(["你好", 3], ["你好", "你"], model=tiny, layer=1)


def test_chunks_give_the_same_numbers(tiny, monkeypatch):
    """Memory follows the chunk, not the corpus: scoring 2 items at a time changes no number."""
    whole = compute_bertscore(PREDS, MULTI, model=tiny, layer=2, idf=True)
    monkeypatch.setattr(bs, "CHUNK_ITEMS", 2)
    chunked = compute_bertscore(PREDS, MULTI, model=tiny, layer=2, idf=True)
    assert np.abs(ours(whole) - ours(chunked)).max() < TOL
    assert whole["signature"] == chunked["signature"]


def test_signature_names_what_the_numbers_depend_on(tiny):
    sig = compute_bertscore(PREDS, MULTI, model=tiny, layer=2, idf=True)["signature"]
    fields = dict(part.split(":", 1) for part in sig.split("|"))
    assert fields["metric"] == "bertscore" and fields["model"] == "tiny" and fields["layer"] == "2"
    assert fields["idf"] == "yes" and fields["rescale"] == "no" and fields["multi"] == "max" and fields["nrefs"] == "var"
    assert len(fields["cfg"]) == 12 and fields["lib"].startswith("torch-") and fields["maxlen"] == "64"


def test_only_the_model_module_imports_torch():
    """Design rule 14: nothing but ``zheval.compute.bertscore_model`` imports torch or transformers, and importing
    ``zheval.compute.bertscore`` loads neither."""
    code = ("import sys, zheval.compute.bertscore, zheval; "
            "print(sorted(m for m in ('torch', 'transformers') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    assert out.stdout.strip() == "[]"
    for path in (REPO / "zheval").rglob("*.py"):
        if path.name == "bertscore_model.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert "import torch" not in text and "from torch" not in text, path
        assert "from transformers import" not in text and "import transformers" not in text or "trainer" in str(path), \
            path


def test_a_missing_extra_is_one_line():
    assert missing_module_message("torch", "zheval.compute_bertscore(['a'], ['a'], model='.', layer=1)") == \
        'BERTScore needs torch (the \'bertscore\' extra): pip install "zheval[bertscore]"'


def test_the_parameters_are_the_options():
    """compute_bertscore's keyword-only parameters are BertScoreOptions' fields, with the same defaults."""
    import dataclasses
    import inspect

    fields = {f.name: (inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
              for f in dataclasses.fields(bs.BertScoreOptions)}
    params = {p.name: p.default for p in inspect.signature(compute_bertscore).parameters.values()
              if p.kind is inspect.Parameter.KEYWORD_ONLY}
    assert params == fields


def test_options_are_checked_when_built():
    with pytest.raises(ValueError, match="unknown multi_ref 'mean'"):
        bs.BertScoreOptions(model=".", multi_ref="mean")
