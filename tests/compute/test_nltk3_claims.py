"""Sentence-level ``nltk3`` equals nltk's ``sentence_bleu`` with ``SmoothingFunction().method3`` only with
``effective_order=False``: the sentence-level default (sacrebleu's effective order, ``eff:yes``) is not nltk's.
The BLEU card said "sentence-level nltk3 equals nltk's sentence_bleu exactly" with no condition; every claim of the
docs that names nltk's sentence BLEU now states it, and the numbers are nltk's own (nltk 3.10, a test dependency).
The per-item lengths of sentence BLEU are checked against sacrebleu's ``sentence_bleu``."""

from __future__ import annotations

import math
import re

import pytest

from zheval import compute_bleu
from helpers import REPO

nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")

PAIRS = [("好的", ["好的呀"]), ("今天天气很好", ["今天天气不错", "天气很好"]), ("猫坐在垫子上", ["猫趴在垫子上面"]),
         ("我们明天见", ["明天见"])]


def _nltk(pred, refs):
    return nltk_bleu.sentence_bleu([list(r) for r in refs], list(pred),
                                   smoothing_function=nltk_bleu.SmoothingFunction().method3)


def test_the_reported_example():
    assert _nltk("好的", ["好的呀"]) == pytest.approx(0.36064528799877893, abs=1e-15)
    off = compute_bleu(["好的"], [["好的呀"]], smooth_method="nltk3", level="sentence", effective_order=False)
    assert off["bleu"] == _nltk("好的", ["好的呀"]) and "eff:no" in off["signature"]
    default = compute_bleu(["好的"], [["好的呀"]], smooth_method="nltk3", level="sentence")
    assert "eff:yes" in default["signature"] and not math.isclose(default["bleu"], _nltk("好的", ["好的呀"]))


def test_sentence_nltk3_equals_nltk_with_effective_order_false():
    preds, refs = [p for p, _ in PAIRS], [r for _, r in PAIRS]
    out = compute_bleu(preds, refs, smooth_method="nltk3", level="sentence", effective_order=False, normalize=False)
    assert out["scores"] == [_nltk(p, r) for p, r in PAIRS]


def _claims(text: str):
    """Each sentence of ``text`` that says sentence-level nltk3 equals nltk's sentence_bleu."""
    flat = re.sub(r"\s+", " ", text)
    return [s for s in re.split(r"(?<=[.;:])\s", flat)
            if "nltk3" in s and "sentence_bleu" in s and re.search(r"\bequals?\b", s)]


@pytest.mark.parametrize("path", ["metrics/chinese_bleu/README.md", "docs/bleu.md"])
def test_every_claim_of_equality_with_nltk_names_the_condition(path):
    claims = _claims((REPO / path).read_text(encoding="utf-8"))
    assert claims, f"{path}: the claim that sentence-level nltk3 equals nltk's sentence_bleu is gone"
    for claim in claims:
        assert "effective_order=False" in claim, f"{path}: {claim!r} does not say effective_order=False"


# ------------------------------------------------------------------------------------------------------------------
# sentence level: brevity_penalty is the mean over items, length_ratio the corpus's
# ------------------------------------------------------------------------------------------------------------------


def test_sentence_level_brevity_penalty_is_the_item_mean_and_length_ratio_the_corpus():
    from sacrebleu.metrics import BLEU

    preds, refs = [p for p, _ in PAIRS], [r for _, r in PAIRS]
    sb = BLEU(tokenize="none", effective_order=True)
    items = [sb.sentence_score(" ".join(p), [" ".join(x) for x in r]) for p, r in PAIRS]
    out = compute_bleu(preds, refs, level="sentence", normalize=False)
    assert out["scores"] == pytest.approx([s.score / 100 for s in items], abs=1e-12)
    assert out["brevity_penalty"] == pytest.approx(math.fsum(s.bp for s in items) / len(items), abs=1e-12)
    c, r = sum(s.sys_len for s in items), sum(s.ref_len for s in items)
    assert (out["translation_length"], out["reference_length"]) == (c, r)
    assert out["length_ratio"] == pytest.approx(c / r, abs=1e-15)
    assert not math.isclose(out["brevity_penalty"], math.exp(1 - r / c))  # the two are not one quantity


@pytest.mark.parametrize("text", ["card", "docstring", "page"])
def test_the_docs_say_which_is_which(text):
    from zheval.compute.bleu import compute_bleu as door

    said = {"card": (REPO / "metrics/chinese_bleu/README.md").read_text(encoding="utf-8"),
            "docstring": door.__doc__, "page": (REPO / "docs/bleu.md").read_text(encoding="utf-8")}[text]
    flat = re.sub(r"\s+", " ", said)
    assert re.search(r"brevity_penalty`*,? (is the mean|are per-item means|are means over items)", flat) or \
        re.search(r"`brevity_penalty` are means over items", flat), text
    assert re.search(r"`*length_ratio`*,? `*translation_length`*,? and `*reference_length`*,? stay the corpus", flat), \
        text
