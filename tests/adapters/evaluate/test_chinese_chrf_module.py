"""metrics/chinese_chrf as an evaluate module: ``evaluate.load("./metrics/chinese_chrf")`` equals the library
(zheval.compute_chrf) and, on the same normalised text, sacrebleu's CHRF; its docstring examples run; batches, bad
input, combine with the other two modules.

evaluate caches point to a temporary directory (tests/conftest.py); modules are loaded by path, offline.
"""

import doctest
import os

import evaluate
import pytest
from sacrebleu.metrics import CHRF

import zheval
from zheval.adapters.evaluate_cards import card
from helpers import REPO, crosswoz_items

CHRF_DIR = REPO / "metrics" / "chinese_chrf"


@pytest.fixture(scope="module")
def chinese_chrf():
    return evaluate.load(str(CHRF_DIR))


def test_relative_load_from_the_repository_root(monkeypatch):
    monkeypatch.chdir(REPO)
    m = evaluate.load("./metrics/chinese_chrf")
    assert m.name == "chinese_chrf"
    out = m.compute(predictions=["我爱北京天安门"], references=[["我爱北京的天安门"]])
    theirs = CHRF().corpus_score(["我爱北京天安门"], [["我爱北京的天安门"]]).score
    assert abs(out["chrf"] * 100 - theirs) < 1e-9 and out["name"] == "chrF2"


def test_kwargs_description_examples_run(monkeypatch):
    monkeypatch.chdir(REPO)
    text = card("chrf").inputs_description  # the module card's inputs (its _info() and class docstring)
    test = doctest.DocTestParser().get_doctest(text, {"evaluate": evaluate}, "kw", "kw", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 6


@pytest.mark.parametrize("options", [
    {}, {"word_order": 2}, {"word_order": 2, "tokenizer": "jieba"}, {"eps_smoothing": True},
    {"level": "sentence", "word_order": 2}, {"bootstrap": 50, "seed": 4}, {"beta": 1, "char_order": 4},
])
def test_module_equals_the_library_on_real_data(chinese_chrf, crosswoz_groups, options):
    preds, refs = crosswoz_items(crosswoz_groups)
    assert chinese_chrf.compute(predictions=preds, references=refs, **options) == \
        zheval.compute_chrf(preds, refs, **options)


def test_add_batch_equals_one_compute(chinese_chrf, csl_rows):
    preds = [r["document"][:20] for r in csl_rows[:120]]
    refs = [r["summary"] for r in csl_rows[:120]]
    for k in range(0, 120, 50):
        chinese_chrf.add_batch(predictions=preds[k:k + 50], references=refs[k:k + 50])
    assert chinese_chrf.compute(word_order=2) == zheval.compute_chrf(preds, refs, word_order=2)


def test_bad_input_is_named(chinese_chrf):
    with pytest.raises(zheval.EmptyReferenceError, match=r"references\[1\]\[0\]"):
        chinese_chrf.compute(predictions=["好", "好"], references=["好", "\u200b"])
    with pytest.raises(TypeError, match="unknown option"):
        chinese_chrf.compute(predictions=["好"], references=["好"], whitespace=True)
    with pytest.raises(ValueError, match="word_order"):
        chinese_chrf.compute(predictions=["好"], references=["好"], word_order=-1)
    with pytest.raises(TypeError, match="evaluate.load"):
        evaluate.load(str(CHRF_DIR), word_order=2)


def test_combine_with_bleu_and_rouge_takes_one_set_of_kwargs(monkeypatch):
    monkeypatch.chdir(REPO)
    combined = evaluate.combine(["./metrics/chinese_bleu", "./metrics/chinese_rouge", "./metrics/chinese_chrf"])
    p, r = ["今天天气很好", "我们去公园"], [["今天天气不错"], ["我们去公园玩"]]
    out = combined.compute(predictions=p, references=r, tokenizer="jieba", word_order=2, max_order=2,
                           rouge_types=["rouge1"])
    assert out["chrf"] == zheval.compute_chrf(p, r, tokenizer="jieba", word_order=2)["chrf"]
    assert out["bleu"] == zheval.compute_bleu(p, r, tokenizer="jieba", max_order=2)["bleu"]
    assert {"chinese_chrf_signature", "chinese_bleu_signature", "chinese_rouge_signature"} <= set(out)


def test_unsegmented_warning_follows_word_order(chinese_chrf):
    import warnings

    text = "我们今天下午在图书馆讨论这个问题"
    with warnings.catch_warnings():
        warnings.simplefilter("error", zheval.ZhevalWarning)
        chinese_chrf.compute(predictions=[text], references=[text], tokenizer="none")
    with pytest.warns(zheval.UnsegmentedTextWarning):
        chinese_chrf.compute(predictions=[text], references=[text], tokenizer="none", word_order=2)


def test_script_does_not_shadow_a_library():
    assert not os.path.exists(REPO / "metrics" / "chinese_chrf" / "sacrebleu.py")
    script = (CHRF_DIR / "chinese_chrf.py").read_text(encoding="utf-8")
    assert "from zheval.adapters.evaluate_module import ZhevalMetricMixin  # From: zheval" in script


@pytest.mark.parametrize("value", ["nonsense", ""])
def test_an_unknown_preset_is_an_error_not_ignored(chinese_chrf, value):
    # chrF has no preset: a name of no preset is an error naming the presets
    with pytest.raises(ValueError) as err:
        chinese_chrf.compute(predictions=["好"], references=["好"], preset=value)
    msg = str(err.value)
    assert f"chinese_chrf: unknown preset {value!r}" in msg
    assert "sacrebleu-zh" in msg and "rouge155" in msg and "glm4" in msg


@pytest.mark.parametrize("name", ["sacrebleu-zh", "rouge155", "llamafactory"])
def test_a_known_preset_is_refused_not_ignored(chinese_chrf, name):
    """Break-it pass 5 F10: preset="sacrebleu-zh" scored zheval's chrF without a word; chrF has no preset, so any
    preset is refused, saying why, before anything is stored."""
    p, r = ["今天天气很好"], [["今天天气不错"]]
    with pytest.raises(ValueError, match=rf"chinese_chrf: preset {name!r} is refused: chrF has no preset"):
        chinese_chrf.compute(predictions=p, references=r, preset=name)
    assert chinese_chrf.compute(predictions=p, references=r, preset=None) == zheval.compute_chrf(p, r)
