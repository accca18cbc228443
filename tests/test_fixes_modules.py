"""metrics/chinese_rouge and metrics/chinese_bleu through evaluate: mixed reference forms, state after failures,
options given to evaluate.load, zero items, undecodable text. Expected values are hand computations written out
here (character tokens, clipped counts), never our own output."""

from __future__ import annotations

import math
from collections import Counter

import pytest

import evaluate
from helpers import METRICS

ROUGE_DIR = METRICS / "chinese_rouge"
BLEU_DIR = METRICS / "chinese_bleu"

# "猫坐在垫子上" (6 characters) against "猫趴在垫子上面" (7): common unigrams 猫 在 垫 子 上 = 5, so
# rouge1 F = 2 * 5 / (6 + 7) = 10/13.
CAT_P, CAT_R, CAT_ROUGE1 = "猫坐在垫子上", "猫趴在垫子上面", 10 / 13
# "我爱北京天安门" (7) against "我爱北京的天安门" (8): clipped matches 7/7, 5/6, 3/5, 1/4 (product 1/8), brevity
# penalty exp(1 - 8/7).
BJ_P, BJ_R = "我爱北京天安门", "我爱北京的天安门"
BJ_BLEU = math.exp(1 - 8 / 7) * (1 / 8) ** 0.25


def _load(name, **kw):
    return evaluate.load(str(METRICS / name), **kw)


@pytest.fixture(params=[False, True], ids=["on-disk", "in-memory"])
def keep_in_memory(request):
    return request.param


# ---- 1. string and list references mix freely (items, add / add_batch calls) --------------------------------------


@pytest.mark.parametrize(
    "references",
    [
        [["今天天气很好", "x"], "猫坐在垫子上"],  # list first: the string used to be scored against a wrong form
        ["今天天气很好", ["猫坐在垫子上", "y"]],  # string first: the list used to become its Python repr
    ],
)
def test_rouge_mixed_reference_forms_in_one_call(references):
    # each prediction is identical to one of its references: F = 1 for both items
    out = _load("chinese_rouge").compute(
        predictions=["今天天气很好", "猫坐在垫子上"], references=references, use_aggregator=False, rouge_types=["rouge1"]
    )
    assert out["rouge1"] == [1.0, 1.0]


@pytest.mark.parametrize(
    "references", [[["今天天气很好", "x"], "猫坐在垫子上了"], ["今天天气很好", ["猫坐在垫子上了", "y"]]]
)
def test_bleu_mixed_reference_forms_in_one_call(references):
    # both predictions equal a reference (6 + 7 characters): every n-gram matches, no brevity penalty: BLEU = 1
    out = _load("chinese_bleu").compute(predictions=["今天天气很好", "猫坐在垫子上了"], references=references)
    assert out["bleu"] == 1.0
    assert out["counts"] == [13, 11, 9, 7] and out["totals"] == [13, 11, 9, 7]
    assert out["reference_length"] == 13


def test_mixed_forms_across_add_batch_and_add(keep_in_memory):
    r = _load("chinese_rouge", keep_in_memory=keep_in_memory)
    r.add_batch(predictions=[CAT_P], references=[[CAT_R, "狗"]])
    r.add_batch(predictions=[CAT_P], references=[CAT_R])  # used to raise "Got a string but expected a list"
    r.add(prediction=CAT_P, reference=CAT_R)
    r.add(prediction=CAT_P, reference=[CAT_R])
    out = r.compute(rouge_types=["rouge1"], use_aggregator=False)
    # "狗" shares nothing with the prediction, so the max over references is the CAT_R value for every item
    assert out["rouge1"] == pytest.approx([CAT_ROUGE1] * 4, abs=1e-12)

    b = _load("chinese_bleu", keep_in_memory=keep_in_memory)
    b.add(prediction=BJ_P, reference=BJ_R)
    b.add_batch(predictions=[BJ_P], references=[[BJ_R]])
    out = b.compute()
    # two copies of one item: the summed counts are doubled, the ratios (and BLEU) unchanged
    assert out["counts"] == [14, 10, 6, 2] and out["totals"] == [14, 12, 10, 8]
    assert out["bleu"] == pytest.approx(BJ_BLEU, abs=1e-12)


def _su4_units(tokens, d=4):
    """Unigrams plus skip-bigrams (t_i, t_j), i < j <= i + d + 1 (Lin 2004, section 4; ROUGE-1.5.5 -2 4 -U)."""
    c = Counter(tokens)
    for i in range(len(tokens)):
        for j in range(i + 1, min(len(tokens), i + d + 2)):
            c[(tokens[i], tokens[j])] += 1
    return c


def test_docstring_rouge_su4_value_by_hand():
    # The script's example mixes a list and a string reference. By hand, with character tokens:
    # item 1: prediction 11 tokens -> 11 unigrams + (6*5 + 4+3+2+1) = 51 units.
    #   ref "不客气！" 4 tokens -> 4 + 6 = 10 units; hits: 4 unigrams + (不,客) (不,气) (客,气) = 7 -> F = 14/61.
    #   ref "不用客气，祝您愉快！" 10 tokens -> 10 + (5*5 + 4+3+2+1) = 45 units; F = 2*hits/96.
    # item 2: prediction 10 tokens -> 45 units; reference 13 tokens -> 13 + (8*5 + 10) = 63 units.
    p1, a, b = list("不客气，祝您玩得愉快！"), list("不客气！"), list("不用客气，祝您愉快！")
    p2, r2 = list("地址在北京市东城区。"), list("地址是北京市东城区东直门。")
    units = {k: sum(_su4_units(t).values()) for k, t in (("p1", p1), ("a", a), ("b", b), ("p2", p2), ("r2", r2))}
    assert units == {"p1": 51, "a": 10, "b": 45, "p2": 45, "r2": 63}
    hits_a = sum((_su4_units(p1) & _su4_units(a)).values())
    hits_b = sum((_su4_units(p1) & _su4_units(b)).values())
    hits_2 = sum((_su4_units(p2) & _su4_units(r2)).values())
    assert (hits_a, hits_b, hits_2) == (7, 32, 35)
    expected = (max(14 / 61, 64 / 96) + 70 / 108) / 2  # = (2/3 + 35/54) / 2 = 71/108
    assert expected == pytest.approx(71 / 108)
    out = _load("chinese_rouge").compute(
        predictions=["不客气，祝您玩得愉快！", "地址在北京市东城区。"],
        references=[["不客气！", "不用客气，祝您愉快！"], "地址是北京市东城区东直门。"],
        rouge_types=["rougeSU4"],
    )
    assert out["rougeSU4"] == pytest.approx(71 / 108, abs=1e-12)
    assert round(71 / 108, 4) == 0.6574
    script = (ROUGE_DIR / "chinese_rouge.py").read_text(encoding="utf-8")
    assert "(0.6574, 0.0)" in script and "0.3551" not in script


# ---- 2. a failed add/add_batch stores nothing; a failed compute keeps the stored items ---------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        dict(normalize="bogus"),
        dict(tokenizer="bogus"),
        dict(tokenizer="none", terms=["猫"]),
        dict(punct="sometimes"),
        dict(tokenizer="jieba", jieba_dict="/nonexistent/dict.txt"),
        dict(seed="1", bootstrap=10),
        dict(bootstrap=-1),
        dict(confidence=1.5, bootstrap=10),
        dict(preset="nope"),
        dict(t2s="yes"),
    ],
)
@pytest.mark.parametrize("name", ["chinese_rouge", "chinese_bleu"])
def test_failed_compute_keeps_the_batches(name, bad, keep_in_memory):
    m = _load(name, keep_in_memory=keep_in_memory)
    p, r = (CAT_P, CAT_R) if name == "chinese_rouge" else (BJ_P, BJ_R)
    m.add_batch(predictions=[p], references=[r])
    m.add(prediction=p, reference=[r])
    with pytest.raises((TypeError, ValueError, FileNotFoundError)):
        m.compute(**bad)
    assert len(m) == 2
    with pytest.raises((TypeError, ValueError, FileNotFoundError)):
        m.compute(predictions=[p], references=[r], **bad)  # nothing of this call is stored either
    assert len(m) == 2
    out = m.compute()
    if name == "chinese_rouge":
        assert out["rouge1"] == pytest.approx(CAT_ROUGE1, abs=1e-12)
    else:
        assert out["counts"] == [14, 10, 6, 2] and out["bleu"] == pytest.approx(BJ_BLEU, abs=1e-12)


@pytest.mark.parametrize("name", ["chinese_rouge", "chinese_bleu"])
def test_failure_inside_the_computation_restores_earlier_items(name, keep_in_memory):
    # a reference that is empty only after normalisation (a zero-width space) fails inside the library, after
    # evaluate has read the stored items: the items stored before the call are put back, this call's are not
    m = _load(name, keep_in_memory=keep_in_memory)
    p, r = (CAT_P, CAT_R) if name == "chinese_rouge" else (BJ_P, BJ_R)
    m.add_batch(predictions=[p, p], references=[r, [r]])
    with pytest.raises(ValueError, match="empty after normalisation"):
        m.compute(predictions=["猫"], references=["\u200b"])
    assert len(m) == 2
    m.add_batch(predictions=["猫"], references=["\u200b"])  # stored: it is only empty under the default normaliser
    with pytest.raises(ValueError, match=r"references\[2\]\[0\] is empty after normalisation"):
        m.compute()
    assert len(m) == 3  # nothing lost
    # with normalize=False the zero-width space survives normalisation (the reference is not empty text) but is
    # no character token (a format character): item 2 has no reference token, which is an error too (it was
    # scored as a reference of length 0 before issue 13), naming the batch that stored it
    with pytest.raises(ValueError, match=r"references\[2\]\[0\] is empty after normalisation and tokenisation "
                                         r"\(tok:char, norm:none\).* stored by add_batch\(\) call 2"):
        m.compute(normalize=False)
    assert len(m) == 3
    # split on whitespace, the zero-width space is a token (U+200B is not whitespace): every stored item scores
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (tokenizer="none" on unsegmented Chinese: a warning, not the subject here)
        out = m.compute(tokenizer="none")
    assert len(m) == 0
    assert m.compute(predictions=[p], references=[r])  # the instance is usable again
    if name == "chinese_rouge":
        # whole texts are single tokens: items 0-1 are one token vs one other token (0), item 2 as well
        assert out["rouge1"] == 0.0
    else:
        # one token per text, none matching: 3 hypothesis unigrams, reference length 3
        assert out["counts"] == [0, 0, 0, 0] and out["totals"] == [3, 0, 0, 0]
        assert out["reference_length"] == 3


@pytest.mark.parametrize("name", ["chinese_rouge", "chinese_bleu"])
@pytest.mark.parametrize(
    "predictions, references, error, message",
    [
        (["a", "b"], ["x", ["y", None]], TypeError, r"references\[1\]\[1\]"),
        (["a", 3], ["x", "y"], TypeError, r"predictions\[1\]"),
        (["a", "b\ud800"], ["x", "y"], ValueError, r"predictions\[1\] .*lone surrogate"),
        (["a", "b"], ["x", ["y", "\udfffz"]], ValueError, r"references\[1\]\[1\] .*lone surrogate"),
        ([], [], ValueError, "no items"),
    ],
)
def test_failed_add_batch_stores_nothing(name, predictions, references, error, message, keep_in_memory):
    m = _load(name, keep_in_memory=keep_in_memory)
    m.add(prediction="猫", reference="猫")
    with pytest.raises(error, match=message):
        m.add_batch(predictions=predictions, references=references)
    assert len(m) == 1
    with pytest.raises(error, match=message):
        m.compute(predictions=predictions, references=references)
    assert len(m) == 1


@pytest.mark.parametrize("name", ["chinese_rouge", "chinese_bleu"])
def test_failed_add_stores_nothing(name):
    m = _load(name)
    with pytest.raises(ValueError, match=r"prediction is not valid text.*lone surrogate"):
        m.add(prediction="\ud800", reference="x")
    with pytest.raises(TypeError, match=r"reference\[0\] must be str"):  # add() names its one item's reference 0
        m.add(prediction="x", reference=[None])
    assert len(m) == 0


# ---- 3. options given to evaluate.load are refused, evaluate's own arguments still work ------------------------------


@pytest.mark.parametrize("name", ["chinese_rouge", "chinese_bleu"])
def test_load_options_are_refused(name):
    with pytest.raises(TypeError, match=r"\['tokenizer'\].*compute\(\)"):
        _load(name, tokenizer="jieba")
    with pytest.raises(TypeError, match=r"\['max_order', 'rouge_types'\]"):
        _load(name, rouge_types=["rouge1"], max_order=2)


@pytest.mark.parametrize("name", ["chinese_rouge", "chinese_bleu"])
def test_evaluate_load_arguments_still_work(name, tmp_path):
    m = _load(
        name,
        config_name="cfg",
        experiment_id="exp-1",
        cache_dir=str(tmp_path),
        keep_in_memory=False,
        num_process=1,
        process_id=0,
        seed=7,
        max_concurrent_cache_files=5,
        timeout=10,
    )
    assert m.config_name == "cfg" and m.experiment_id == "exp-1" and m.seed == 7 and m.timeout == 10
    assert str(tmp_path) in m.data_dir
    p, r = (CAT_P, CAT_R) if name == "chinese_rouge" else (BJ_P, BJ_R)
    out = m.compute(predictions=[p], references=[r])
    assert (out["rouge1"] if name == "chinese_rouge" else out["bleu"]) == pytest.approx(
        CAT_ROUGE1 if name == "chinese_rouge" else BJ_BLEU, abs=1e-12
    )


# ---- 4. zero items ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["chinese_rouge", "chinese_bleu"])
def test_zero_items_is_a_clear_value_error(name, keep_in_memory):
    m = _load(name, keep_in_memory=keep_in_memory)
    with pytest.raises(ValueError, match="no items"):
        m.compute(predictions=[], references=[])
    with pytest.raises(ValueError, match="no items"):
        m.add_batch(predictions=[], references=[])
    with pytest.raises(ValueError, match="no items"):
        m.compute()
    p, r = (CAT_P, CAT_R) if name == "chinese_rouge" else (BJ_P, BJ_R)
    assert m.compute(predictions=[p], references=[r])  # still usable


# ---- 8. a non-int seed is refused before anything is stored ------------------------------------------------------------


@pytest.mark.parametrize("name", ["chinese_rouge", "chinese_bleu"])
@pytest.mark.parametrize("seed", ["1", 1.5, True, None])
def test_non_int_seed_is_refused_up_front(name, seed):
    m = _load(name)
    with pytest.raises(TypeError, match="seed must be an int"):
        m.compute(predictions=["猫"], references=["猫"], seed=seed, bootstrap=5)
    assert len(m) == 0
