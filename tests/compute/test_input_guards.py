"""Guards against user slips that give a wrong number without a word (zheval.compute.guards): tokenizer="none" on
unsegmented Chinese, and Traditional predictions against Simplified references (or the reverse) with t2s off. Each
is one warning per call, of a public ZhevalWarning subclass; they fire on realistic text (the shared real data,
converted to Traditional with OpenCC s2t here) and stay silent on the data as it is, on segmented text and with
t2s=True. Their cost is measured against the computation they guard."""

from __future__ import annotations

import logging
import warnings

import evaluate
import jieba
import opencc
import pytest

import zheval
from zheval.compute import guards
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge
from zheval.tokenizers import get_tokenizer
from helpers import METRICS

S2T = opencc.OpenCC("s2t")
jieba.setLogLevel(logging.ERROR)


def _ours(record):
    return [w for w in record if issubclass(w.category, zheval.ZhevalWarning)]


def _calls():
    return {
        "compute_rouge": lambda p, r, **kw: compute_rouge(p, r, rouge_types=["rouge1"], **kw),
        "compute_bleu": compute_bleu,
        "score": zheval.score,
    }


@pytest.fixture(scope="module")
def dialogue(crosswoz_groups):
    return [g["responses"][0] for g in crosswoz_groups], [g["responses"][1:] for g in crosswoz_groups]


@pytest.fixture(scope="module")
def titles(csl_rows):
    return [r["document"][:20] for r in csl_rows], [[r["summary"]] for r in csl_rows]


def _segmented(texts):
    return [" ".join(w for w in jieba.lcut(t) if w.strip()) for t in texts]


# ---- tokenizer="none" on unsegmented Chinese -------------------------------------------------------------------


@pytest.mark.parametrize("call", list(_calls()))
@pytest.mark.parametrize("data", ["dialogue", "titles"])
def test_none_on_raw_chinese_warns_once_per_call(call, data, request):
    preds, refs = request.getfixturevalue(data)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        _calls()[call](preds, refs, tokenizer="none")
    ours = _ours(record)
    assert [w.category for w in ours] == [zheval.UnsegmentedTextWarning]  # once, also for score (both metrics)
    msg = str(ours[0].message)
    assert 'tokenizer="none"' in msg and 'tokenizer="char"' in msg and '"jieba"' in msg
    assert ours[0].filename == __file__  # pointed at the caller's line, not at zheval's internals


@pytest.mark.parametrize("data", ["dialogue", "titles"])
def test_none_on_segmented_chinese_is_silent(data, request):
    preds, refs = request.getfixturevalue(data)
    seg_p, seg_r = _segmented(preds), [_segmented(rs) for rs in refs]
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        zheval.score(seg_p, seg_r, tokenizer="none")
        compute_rouge(preds, refs)  # raw text with the char tokenizer: nothing to say either
    assert _ours(record) == []


def test_unsegmented_rule_by_hand():
    # texts with a Han character: 3; with a run of 5 consecutive Han characters: 2 -> 2/3 >= 0.5
    texts = ["今天天气很好", "今天 天气 很 好", "我们去公园散步吧", "hello world"]
    assert guards.unsegmented_share(texts) == (2 / 3, 3)
    assert guards.unsegmented_share(["今天 天气", "中华 人民"]) == (0.0, 2)
    assert guards.unsegmented_share(["abc", ""]) == (0.0, 0)
    # a run is counted inside one text only (texts are joined by newlines): 今天天 + 气很 is no run of 5
    assert guards.unsegmented_share(["今天天", "气很"]) == (0.0, 2)


# ---- Traditional vs Simplified without t2s -----------------------------------------------------------------------


@pytest.mark.parametrize("call", list(_calls()))
@pytest.mark.parametrize("side", ["predictions", "references"])
def test_traditional_against_simplified_warns_and_names_t2s(call, side, dialogue, titles):
    for preds, refs in (dialogue, titles):
        if side == "predictions":
            preds = [S2T.convert(p) for p in preds]
        else:
            refs = [[S2T.convert(r) for r in rs] for rs in refs]
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            _calls()[call](preds, refs)
        ours = _ours(record)
        assert [w.category for w in ours] == [zheval.ScriptMismatchWarning]
        msg = str(ours[0].message)
        assert f"the {side} look like Traditional Chinese" in msg and "t2s=True" in msg
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            _calls()[call](preds, refs, t2s=True)
        assert _ours(record) == []


def test_the_warning_is_about_a_real_loss(dialogue):
    # what the warning promises: with t2s the Traditional predictions score what the Simplified ones score
    preds, refs = dialogue
    trad = [S2T.convert(p) for p in preds]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", zheval.ScriptMismatchWarning)
        low = compute_rouge(trad, refs, rouge_types=["rouge1"])["rouge1"]
    same = compute_rouge(preds, refs, rouge_types=["rouge1"], t2s=True)["rouge1"]
    fixed = compute_rouge(trad, refs, rouge_types=["rouge1"], t2s=True)["rouge1"]
    assert low < 0.8 * same and fixed == pytest.approx(same, abs=0.01)


def test_script_silent_on_the_shared_data_as_is_and_when_both_are_traditional(dialogue, titles, crosswoz_single):
    single = ([r["query"] for r in crosswoz_single], [r["responses"] for r in crosswoz_single])
    for preds, refs in (dialogue, titles, single):
        both = ([S2T.convert(p) for p in preds], [[S2T.convert(r) for r in rs] for rs in refs])
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            zheval.score(preds, refs)
            zheval.score(*both)
        assert _ours(record) == []


def test_script_measure_by_hand():
    # 電腦壞了 (4 Han, t2s changes 電 腦 壞: 3) and 今天 (unchanged): 3 of 6 Han characters
    share, n = guards.traditional_share(["電腦壞了", "今天"])
    assert (share, n) == (0.5, 6)
    assert guards.traditional_share(["电脑坏了"]) == (0.0, 4)
    assert guards.traditional_share(["abc"]) == (0.0, 0)
    # a short text is not judged: fewer than SCRIPT_MIN_HAN Han characters on a side
    tok = get_tokenizer("char")
    assert guards.input_slips(["電腦壞了"], [["电脑坏了"]], tok) == []


def test_preset_tokenizers_get_advice_they_can_follow(titles):
    preds, refs = titles
    trad = [S2T.convert(p) for p in preds]
    with pytest.warns(zheval.ScriptMismatchWarning, match="takes no t2s option"):
        compute_bleu(trad, refs, preset="sacrebleu-zh")
    with pytest.warns(zheval.ScriptMismatchWarning, match="takes no t2s option"):
        compute_rouge(trad, refs, preset="llamafactory", rouge_types=["rouge1"])


def test_categories_filter(titles):
    preds, refs = titles
    trad = [S2T.convert(p) for p in preds]
    with warnings.catch_warnings():
        warnings.simplefilter("error", zheval.ZhevalWarning)
        with pytest.raises(zheval.ScriptMismatchWarning):
            compute_bleu(trad, refs)
        with pytest.raises(zheval.UnsegmentedTextWarning):
            compute_bleu(preds, refs, tokenizer="none")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", zheval.ZhevalWarning)
        compute_bleu(trad, refs)
    assert _ours(record) == []
    assert issubclass(zheval.ZhevalWarning, UserWarning)


@pytest.mark.parametrize("name", ["chinese_rouge", "chinese_bleu"])
def test_the_evaluate_modules_warn_through_the_library(name, dialogue):
    preds, refs = dialogue
    module = evaluate.load(str(METRICS / name))
    with pytest.warns(zheval.UnsegmentedTextWarning):
        module.compute(predictions=preds, references=refs, tokenizer="none")
    module.add_batch(predictions=[S2T.convert(p) for p in preds], references=refs)
    with pytest.warns(zheval.ScriptMismatchWarning):
        module.compute()


# ---- cost ----------------------------------------------------------------------------------------------------------
