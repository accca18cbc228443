"""Overriding a preset's tokenizer changes only the tokenizer, for every kind of preset (docs/presets.md, "Overriding
a preset's option"): ``preset="opencompass-jieba-rouge", tokenizer="char"`` kept the preset's raw text
(``norm:none``) but ``preset="sacrebleu-zh", tokenizer="char"`` fell back to the default normalisation
(``norm:nfkc+...+lower``): a BLEU preset's normalisation came from its tool tokenizer, not from its defaults. Now
every preset on a tool's tokens fixes ``normalize`` itself. The numbers are sacrebleu's and rouge-chinese's on the
raw text's ``char`` tokens."""

from __future__ import annotations

import warnings

import pytest

from zheval import PresetOverrideWarning, compute_bleu, compute_rouge

# upper case, full-width letters and punctuation: the default normalisation would change every one of them
P = ["ＡＢＣ今天天气很好！", "Hello世界，你好"]
R = [["abc今天天气不错!"], ["hello世界,你好呀"]]


def _chars(text):
    """zheval's ``char`` tokens of the raw text (no normalisation), which the references below score."""
    from zheval.tokenizers import get_tokenizer

    return get_tokenizer("char", normalize=False)(text)


def _override(metric, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = (compute_bleu if metric == "bleu" else compute_rouge)(P, R, **kw)
    return out, [w for w in caught if issubclass(w.category, PresetOverrideWarning)]


@pytest.mark.parametrize("metric, preset", [("bleu", "sacrebleu-zh"), ("bleu", "llamafactory"), ("bleu", "glm4"),
                                            ("rouge", "opencompass-jieba-rouge"), ("rouge", "llamafactory")])
def test_a_tokenizer_override_keeps_the_presets_normalisation(metric, preset):
    out, caught = _override(metric, preset=preset, tokenizer="char")
    assert "|tok:zh-char|norm:none|case:mixed|" in out["signature"], out["signature"]
    assert f"preset:{preset}(overridden:tokenizer)|" in out["signature"]
    assert len(caught) == 1 and "tokenizer (the preset's" in str(caught[0].message)
    assert "normalize" not in str(caught[0].message)


@pytest.mark.parametrize("preset", ["sacrebleu-zh", "llamafactory"])
def test_normalize_given_too_changes_both_and_says_so(preset):
    out, caught = _override("bleu", preset=preset, tokenizer="char", normalize=True)
    assert "|norm:nfkc+zw+punct+space+lower|" in out["signature"]
    assert f"preset:{preset}(overridden:tokenizer+normalize)|" in out["signature"]
    assert "normalize (the preset's: False)" in str(caught[0].message)


def test_sacrebleu_zh_with_char_tokens_is_sacrebleu_on_the_raw_characters():
    from sacrebleu.metrics import BLEU

    out, _ = _override("bleu", preset="sacrebleu-zh", tokenizer="char")
    theirs = BLEU(tokenize="none").corpus_score([" ".join(_chars(p)) for p in P],
                                                [[" ".join(_chars(r[0])) for r in R]])
    assert out["bleu"] == pytest.approx(theirs.score / 100, abs=1e-12)
    assert (out["translation_length"], out["reference_length"]) == (theirs.sys_len, theirs.ref_len)


def test_opencompass_rouge_with_char_tokens_is_rouge_chinese_on_the_raw_characters():
    """The preset's other rules (rouge-chinese's per-item F) are kept too, on the raw text's char tokens."""
    from rouge_chinese import Rouge

    out, _ = _override("rouge", preset="opencompass-jieba-rouge", tokenizer="char", use_aggregator=False)
    theirs = [Rouge().get_scores(" ".join(_chars(p)), " ".join(_chars(r[0])))[0] for p, r in zip(P, R)]
    for ours, key in (("rouge1", "rouge-1"), ("rouge2", "rouge-2"), ("rougeL", "rouge-l")):
        assert out[ours] == [t[key]["f"] for t in theirs]


@pytest.mark.parametrize("metric, preset", [("bleu", "sacrebleu-zh"), ("bleu", "llamafactory"),
                                            ("rouge", "opencompass-jieba-rouge"), ("rouge", "llamafactory")])
def test_a_built_tokenizer_keeps_its_own_normalisation_under_a_preset(metric, preset):
    # a tokenizer object carries its normalisation: the preset's normalize=False (a default, not the caller's) is
    # not applied to it ("tokenizer options cannot be combined with an already-built tokenizer instance" before;
    # the HTML report's explanations pass the report's tokenizer object with the BLEU preset's name)
    from zheval.tokenizers import get_tokenizer

    raw = get_tokenizer("char", normalize=False)
    out, caught = _override(metric, preset=preset, tokenizer=raw)
    named, _ = _override(metric, preset=preset, tokenizer="char")
    assert out["signature"] == named["signature"] and "|norm:none|" in out["signature"]
    assert {k: v for k, v in out.items() if k != "signature"} == {k: v for k, v in named.items() if k != "signature"}
    assert len(caught) == 1 and "overridden:tokenizer)" in str(caught[0].message)
    # an object with another normalisation is that normalisation, and the override says so
    normalised, caught = _override(metric, preset=preset, tokenizer=get_tokenizer("char"))
    assert "|norm:nfkc+zw+punct+space+lower|" in normalised["signature"]
    assert "overridden:tokenizer+normalize)" in normalised["signature"]
    # the caller's own normalize beside an object is still refused (it would be ignored)
    with pytest.raises(ValueError, match="already-built tokenizer instance"):
        _override(metric, preset=preset, tokenizer=raw, normalize=True)
