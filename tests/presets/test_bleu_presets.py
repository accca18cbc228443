"""BLEU presets reproduce their tools exactly: sacrebleu 2.6.0 ``tokenize="zh"`` (corpus and sentence BLEU) and
LLaMA-Factory's BLEU-4 (nltk 3.10 ``sentence_bleu`` with ``SmoothingFunction().method3`` on ``list(text)``), on raw
text of the shared data; the preset tables are complete. (The sacrebleu-zh tokens themselves:
tests/tokenizers/test_sacrebleu_zh_tokenizer.py.)"""

import numpy as np
import pytest
import sacrebleu

from zheval.presets import bleu_preset, preset_names
from zheval.tokenizers.sacrebleu_zh import sacrebleu_zh_tokenize
from zheval.presets.llamafactory import llamafactory_bleu4, llamafactory_item_scores
from zheval.tokenizers.llamafactory import llamafactory_tokenize
from zheval.definitions.bleu import corpus_stats
from zheval.definitions.bleu_score import corpus_score, sentence_scores
from helpers import crosswoz_items, csl_items


# ------------------------------------------------------------------------------------------------------------------
# sacrebleu-zh BLEU on raw text
# ------------------------------------------------------------------------------------------------------------------


def streams(refs):
    width = max(len(r) for r in refs)
    return [[rs[k] if k < len(rs) else None for rs in refs] for k in range(width)]


@pytest.fixture(scope="module")
def raw_sets(crosswoz_groups, csl_rows):
    return {"crosswoz_groups": crosswoz_items(crosswoz_groups), "csl_ts_test": csl_items(csl_rows)}


@pytest.mark.parametrize("name", ["crosswoz_groups", "csl_ts_test"])
@pytest.mark.parametrize("smooth_method", ["exp", "floor"])
def test_sacrebleu_zh_corpus_bleu_exact(raw_sets, name, smooth_method):
    preds, refs = raw_sets[name]
    p = bleu_preset("sacrebleu-zh").defaults
    stats = corpus_stats([sacrebleu_zh_tokenize(x) for x in preds], [[sacrebleu_zh_tokenize(r) for r in rs] for rs in refs])
    ours = corpus_score(stats, smooth_method=smooth_method, bp_ref_length=p["bp_ref_length"])
    theirs = sacrebleu.corpus_bleu(preds, streams(refs), tokenize="zh", smooth_method=smooth_method)
    assert (ours.hyp_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert 0.05 < ours.score < 1
    assert abs(ours.score - theirs.score / 100) == 0.0


@pytest.mark.parametrize("name", ["crosswoz_groups", "csl_ts_test"])
def test_sacrebleu_zh_sentence_bleu_exact(raw_sets, name):
    preds, refs = raw_sets[name]
    preds, refs = preds[:400], refs[:400]
    stats = corpus_stats([sacrebleu_zh_tokenize(x) for x in preds], [[sacrebleu_zh_tokenize(r) for r in rs] for rs in refs])
    for pred, rs, ours in zip(preds, refs, sentence_scores(stats, smooth_method="exp", effective_order=True)):
        theirs = sacrebleu.sentence_bleu(pred, rs, tokenize="zh")
        expected = min(theirs.score / 100, 1.0)  # float rounding above 100 is clamped to 1.0
        assert ours.score == expected


# ------------------------------------------------------------------------------------------------------------------
# LLaMA-Factory
# ------------------------------------------------------------------------------------------------------------------


def nltk_llamafactory(preds, refs):
    """LLaMA-Factory ComputeSimilarity's BLEU part, written out with nltk (per item score on 0-100, rounded)."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    per_item = []
    for pred, label in zip(preds, refs):
        per_item.append(sentence_bleu([list(label)], list(pred), smoothing_function=SmoothingFunction().method3))
    return per_item, float(np.mean([round(s * 100, 4) for s in per_item]))


@pytest.mark.parametrize("name", ["crosswoz_single", "csl_ts_test"])
def test_llamafactory_equals_nltk_exactly(name, crosswoz_single, csl_rows):
    if name == "crosswoz_single":
        # predict the reply by echoing the user turn (a real, weak baseline with real overlaps)
        preds = [r["query"] for r in crosswoz_single[:1000]]
        refs = [r["responses"][0] for r in crosswoz_single[:1000]]
    else:
        preds, rs = csl_items(csl_rows)
        refs = [r[0] for r in rs]
    # raw strings: leading/trailing spaces are characters too
    preds = [p if i % 50 else f" {p} " for i, p in enumerate(preds)]
    theirs_items, theirs_number = nltk_llamafactory(preds, refs)
    ours_items = llamafactory_item_scores(preds, refs)
    assert ours_items == theirs_items
    assert llamafactory_bleu4(ours_items) == theirs_number
    assert 1 < theirs_number < 100


def test_llamafactory_with_several_references_uses_nltk_multi_reference_rules(crosswoz_groups):
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    preds, refs = crosswoz_items(crosswoz_groups)
    ours = llamafactory_item_scores(preds, refs)
    theirs = [
        sentence_bleu([list(r) for r in rs], list(p), smoothing_function=SmoothingFunction().method3)
        for p, rs in zip(preds, refs)
    ]
    assert ours == theirs


def test_llamafactory_tokens_and_edge_cases():
    assert llamafactory_tokenize(" 你 好 ") == [" ", "你", " ", "好", " "]
    assert llamafactory_item_scores(["", "你好"], ["你好", ""]) == [0.0, 0.0]
    assert llamafactory_bleu4([]) == 0.0
    with pytest.raises(ValueError, match="2 predictions but 1 references"):
        llamafactory_item_scores(["a", "b"], ["a"])
    with pytest.raises(TypeError, match="item 0: reference 1"):
        llamafactory_item_scores(["a"], [["a", None]])
    with pytest.raises(TypeError, match="sacrebleu-zh tokenizer expects str"):
        sacrebleu_zh_tokenize(None)


def test_preset_tables_are_complete():
    keys = {"tokenizer", "normalize", "max_order", "smooth_method", "smooth_value", "bp_ref_length", "level",
            "effective_order", "weights"}
    for name in preset_names("bleu"):
        assert set(bleu_preset(name).defaults) == keys, name
