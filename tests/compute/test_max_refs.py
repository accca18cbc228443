"""max_refs=K on compute_bleu / compute_rouge / score (rouge_config / bleu_config): every item is scored with its
first K references (items with fewer keep theirs), against sacrebleu and rouge-score fed the first K references
on the same tokens, on the shared CrossWOZ groups (2-4 references per item, ragged); the signature records
``maxrefs:K`` next to ``nrefs``; bad K is refused naming ``max_refs``."""

from __future__ import annotations

import math

import pytest
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU

from helpers import crosswoz_items
from zheval import compute_bleu, compute_rouge, score
from zheval.compute.options import BleuOptions, ChrfOptions, RougeOptions
from zheval.results.signature import parse_signature
from zheval.tokenizers import get_tokenizer


class _CharTokens:
    """rouge-score tokenizer object returning zheval's char tokens (normalisation included)."""

    def __init__(self):
        self.tok = get_tokenizer("char")

    def tokenize(self, text):
        return list(self.tok.tokenize(text))


@pytest.fixture(scope="module")
def items(crosswoz_groups):
    preds, refs = crosswoz_items(crosswoz_groups[:120])
    assert {len(r) for r in refs} >= {2, 3}
    return preds, refs


@pytest.mark.parametrize("k", [1, 2, 3])
def test_bleu_with_the_first_k_references_equals_sacrebleu(items, k):
    preds, refs = items
    tok = get_tokenizer("char")
    first = [r[:k] for r in refs]
    width = max(len(r) for r in first)
    streams = [[" ".join(tok.tokenize(rs[j])) if j < len(rs) else None for rs in first] for j in range(width)]
    theirs = BLEU(tokenize="none", force=True).corpus_score([" ".join(tok.tokenize(p)) for p in preds], streams)
    ours = compute_bleu(preds, refs, max_refs=k)
    assert 0.05 < ours["bleu"] < 1
    assert abs(ours["bleu"] - theirs.score / 100) < 1e-12
    assert ours["bleu"] != compute_bleu(preds, refs)["bleu"]  # the limit changes the number on these items
    sig = parse_signature(ours["signature"])
    assert sig["maxrefs"] == str(k) and sig["nrefs"] == (str(k) if k <= 2 else "var")
    assert list(sig)[:3] == ["nrefs", "maxrefs", "tok"]


@pytest.mark.parametrize("k", [1, 2])
def test_rouge_with_the_first_k_references_equals_rouge_score(items, k):
    preds, refs = items
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], tokenizer=_CharTokens())
    per_item = [scorer.score_multi(r[:k], p) for p, r in zip(preds, refs)]
    ours = compute_rouge(preds, refs, rouge_types=["rouge1", "rougeL"], max_refs=k)
    for t in ("rouge1", "rougeL"):
        want = math.fsum(s[t].fmeasure for s in per_item) / len(per_item)
        assert ours[t] == pytest.approx(want, abs=1e-12)
    assert parse_signature(ours["signature"])["maxrefs"] == str(k)


def test_score_shares_the_first_references_between_the_metrics(items):
    preds, refs = items
    both = score(preds, refs, max_refs=1, bootstrap=50)
    first = [r[:1] for r in refs]
    assert both["bleu"]["bleu"] == compute_bleu(preds, first, bootstrap=50)["bleu"]
    assert both["rouge"]["rouge2"] == compute_rouge(preds, first)["rouge2"]
    assert both["bleu"]["bleu_ci_low"] == compute_bleu(preds, first, bootstrap=50)["bleu_ci_low"]


def test_items_with_fewer_references_keep_theirs():
    preds = ["今天天气很好", "我不知道"]
    refs = [["今天天气不错", "天气很好", "很好"], ["我也不知道"]]
    got = compute_bleu(preds, refs, max_refs=2)
    assert got["bleu"] == compute_bleu(preds, [refs[0][:2], refs[1]])["bleu"]
    assert parse_signature(got["signature"])["nrefs"] == "var"
    # without max_refs the signature has no maxrefs field
    assert "maxrefs" not in parse_signature(compute_bleu(preds, refs)["signature"])


@pytest.mark.parametrize("k", [0, -1, 1.5, "2", True])
def test_bad_max_refs_is_refused_naming_the_option(k):
    for make in (BleuOptions, RougeOptions, ChrfOptions):
        with pytest.raises(ValueError, match="max_refs must be"):
            make(max_refs=k)
    with pytest.raises(ValueError, match="max_refs must be"):
        compute_rouge(["好"], [["好"]], max_refs=k)


def test_explain_items_explains_the_first_k_references_its_signature_names():
    # issue 35 F5: explain_items(max_refs=1) wrote maxrefs:1 in its signatures but clipped against every reference
    from zheval.compute.explain import explain_items

    preds, refs = ["今天天气很好", "我很开心"], [["今天天气不错", "天气很好"], ["我很高兴", "开心", "很开心"]]
    for e, p, rs in zip(explain_items(preds, refs, max_refs=1), preds, refs):
        assert [r["text"] for r in e["references"]] == rs[:1]
        assert all(s.startswith("nrefs:1|maxrefs:1|") for s in e["signature"].values()), e["signature"]
        want = BLEU(tokenize="none", effective_order=True).sentence_score(" ".join(p), [" ".join(rs[0])]).score
        assert e["bleu"]["sentence_bleu"] == pytest.approx(want / 100, abs=1e-12)
