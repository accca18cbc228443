"""evaluate.combine over our two modules with one set of shared keyword options (evaluate sends every kwarg to every
member, ECOSYSTEM §1.4), the relative paths of the issue (resolved against the CWD), and the combined module used
inside the Trainer hook."""

from __future__ import annotations


import evaluate
import numpy as np
import pytest

from helpers.trainer_models import make_tokenizer
from zheval.adapters.trainer import build_compute_metrics
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge
from helpers import REPO


SHARED = {
    "tokenizer": "jieba",
    "terms": ["快递柜", "小黄鸭"],
    "rouge_types": ["rouge1", "rouge2", "rougeL"],  # chinese_rouge only
    "multi_ref": "mean",  # chinese_rouge only
    "max_order": 2,  # chinese_bleu only
    "smooth_method": "floor",  # chinese_bleu only
    "bootstrap": 100,  # both
    "seed": 3,  # both
}
BLEU_ONLY = ("max_order", "smooth_method")
ROUGE_ONLY = ("rouge_types", "multi_ref")


@pytest.fixture(scope="module")
def data(crosswoz_groups):
    preds = [g["responses"][0] for g in crosswoz_groups]
    refs = [g["responses"][1:] for g in crosswoz_groups]
    preds[0] = "小黄鸭快递柜取件码是多少"  # exercise the protected terms
    refs[0] = ["小黄鸭快递柜的取件码", "取件码在小黄鸭里"]
    return preds, refs


@pytest.fixture()
def combined(monkeypatch):
    monkeypatch.chdir(REPO)  # the relative paths resolve against the CWD (ECOSYSTEM §1.3)
    return evaluate.combine(["./metrics/chinese_bleu", "./metrics/chinese_rouge"])


def expected(preds, refs) -> dict:
    bleu = compute_bleu(preds, refs, **{k: v for k, v in SHARED.items() if k not in ROUGE_ONLY})
    rouge = compute_rouge(preds, refs, **{k: v for k, v in SHARED.items() if k not in BLEU_ONLY})
    out = {k: v for k, v in bleu.items() if k != "signature"}
    out["chinese_bleu_signature"] = bleu["signature"]
    out.update({k: v for k, v in rouge.items() if k != "signature"})
    out["chinese_rouge_signature"] = rouge["signature"]
    return out


def test_combine_with_shared_kwargs(combined, data):
    preds, refs = data
    result = combined.compute(predictions=preds, references=refs, **SHARED)
    want = expected(preds, refs)
    assert result == want
    # the options reached the right metric: jieba with terms, order 2, rouge types, mean over references
    assert "tok:jieba" in result["chinese_bleu_signature"] and "order:2" in result["chinese_bleu_signature"]
    assert "types:rouge1+rouge2+rougeL" in result["chinese_rouge_signature"]
    assert "multi:mean" in result["chinese_rouge_signature"]
    assert len(result["precisions"]) == 2 and "rougeLsum" not in result
    assert result["rougeL_ci_low"] <= result["rougeL"] <= result["rougeL_ci_high"]
    assert result["bleu_ci_low"] <= result["bleu"] <= result["bleu_ci_high"]


def test_combine_add_batch_then_compute(combined, data):
    preds, refs = data
    for start in range(0, len(preds), 16):
        combined.add_batch(predictions=preds[start : start + 16], references=refs[start : start + 16])
    assert combined.compute(**SHARED) == expected(preds, refs)


def test_combine_unknown_option_is_an_error(combined, data):
    preds, refs = data
    with pytest.raises(TypeError, match="rouge_typo"):
        combined.compute(predictions=preds[:2], references=refs[:2], rouge_typo=["rouge1"])


def test_combined_module_in_the_trainer_hook(combined, data):
    """A combined module is accepted by build_compute_metrics and gives the library hook's numbers."""
    preds, refs = data
    pairs = [(p, r[0]) for p, r in zip(preds, refs) if "".join((p + r[0]).split()) == p + r[0]][:12]
    tok = make_tokenizer(extra_chars="".join(p + r for p, r in pairs))
    vocab = tok.get_vocab()
    width = max(len(t) for pair in pairs for t in pair)

    def encode(text):
        return [vocab[c] for c in text] + [-100] * (width - len(text))

    arrays = (np.array([encode(p) for p, _ in pairs]), np.array([encode(r) for _, r in pairs]))
    # without the interval (a Trainer logs numbers), and so without its seed, which would change nothing (refused)
    options = {k: v for k, v in SHARED.items() if k not in ("bootstrap", "seed")}
    via_combine = build_compute_metrics(tok, [combined], **options)(arrays)
    via_library = build_compute_metrics(tok, **options)(arrays)
    assert via_combine == via_library
    assert via_library["rougeL"] > 0
