"""zheval.results.diagnostics: how a text ends (ending_kind), the diagnostics of predictions against references by
hand (length ratios, truncation, empty predictions, reference counts) and the length-ratio warning."""

from __future__ import annotations

import numpy as np
import pytest

from zheval.results.diagnostics import compute_diagnostics, ending_kind


@pytest.mark.parametrize(
    "text, kind",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("好的。", "final"),
        ("真的吗?", "final"),
        ('他说:"好的。"', "final"),  # closing quote after the final mark
        ("加油🎉", "final"),
        ("谢谢…", "final"),
        ("可以先冷静下来,", "mid_word"),
        ("请查看:", "mid_word"),
        ("建议您联系客服因为", "mid_word"),
        ("猫粮和", "mid_word"),
        ("会变黑,香蕉最好放在常温阴凉处", "no_final_punct"),
        ("DUCK20240517", "no_final_punct"),
    ],
)
def test_ending_kind(text, kind):
    assert ending_kind(text) == kind


def test_diagnostics_by_hand():
    preds = ["你好呀。", "", "一二三四五六七八", "请稍等,"]
    refs = [["你好。", "您好呀!"], ["好的。", "收到。", "明白!"], ["一二三四。"], ["请稍等一下。", "马上好。"]]
    d = compute_diagnostics(preds, refs, ids=["a", "b", "c", "d"])
    # per-item ratios: 4/3.5, 0/3, 8/5, 4/5 (characters after normalisation; mean reference length per item)
    expected = np.mean([4 / 3.5, 0 / 3, 8 / 5, 4 / 5])
    assert d.length_ratio == pytest.approx(expected)
    assert d.length_ratio_corpus == pytest.approx(16 / (3.5 + 3 + 5 + 5))
    assert d.endings == {"final": 1, "no_final_punct": 1, "mid_word": 1, "empty": 1}
    assert d.truncated == 2 and d.truncation_rate == 0.5
    assert d.reference_truncation_rate == 0.0
    assert d.empty_predictions == 1 and d.empty_ids == ["b"]
    assert d.ref_count_distribution == {1: 1, 2: 2, 3: 1}
    assert any("empty prediction" in w for w in d.warnings)
    assert any("do not end a sentence" in w for w in d.warnings)


def test_length_ratio_warning_beyond_30_percent():
    refs = [["一二三四五六七八九十。"]] * 3
    assert not compute_diagnostics(["一二三四五六七八。"] * 3, refs).warnings  # 9/11 = 0.82
    w = compute_diagnostics(["一二三。"] * 3, refs).warnings  # 4/11 = 0.36
    assert len(w) == 1 and "64% shorter" in w[0]
    w = compute_diagnostics(["一二三四五六七八九十一二三四五。"] * 3, refs).warnings  # 16/11 = 1.45
    assert "45% longer" in w[0]


@pytest.mark.parametrize(
    "text, kind",
    [
        # a closing quote or bracket after the final mark: finished (the closers are skipped)
        ("他说：“好的。”", "final"),
        ("「走吧！」", "final"),
        ("『行。』", "final"),
        ("（对。）", "final"),
        ("(ok.)", "final"),
        ("“真的吗？”", "final"),
        # a closing quote alone does not end a sentence
        ("他说“好的”", "no_final_punct"),
        ("「走吧」", "no_final_punct"),
        ("『行』", "no_final_punct"),
        ("（对）", "no_final_punct"),
        # emoji endings, with the characters that continue an emoji
        ("加油🎉", "final"),
        ("好的👍🏽", "final"),  # skin-tone modifier (category Sk)
        ("爱你❤️", "final"),  # variation selector 16
        ("一家人👨‍👩‍👧", "final"),  # zero-width joiner sequence
        ("中国🇨🇳", "final"),  # regional indicators
        ("哈哈😂😂", "final"),
        ("按1️⃣", "no_final_punct"),  # a keycap is a digit, not an emoji ending a sentence
        ("谢谢～", "final"),
    ],
)
def test_ending_kind_quotes_and_emoji(text, kind):
    from zheval.text.normalize import get_normalizer

    assert ending_kind(text) == kind
    assert ending_kind(get_normalizer(True)(text)) == kind  # the report classifies normalised text


def test_is_truncated_and_the_5_percent_warning():
    from zheval.results.diagnostics import TRUNCATION_WARN, is_truncated

    assert TRUNCATION_WARN == 0.05
    assert [is_truncated(t) for t in ("好的。", "", "好的，", "好的", "好的😀")] == [False, False, True, True, False]
    refs = [["好的。"]] * 100
    # 5 of 100 truncated: exactly 5%, not above -> no warning; 6 of 100 -> warning
    for k, warned in ((5, False), (6, True)):
        preds = ["好的"] * k + ["好的。"] * (100 - k)
        d = compute_diagnostics(preds, refs)
        assert d.truncated == k and d.truncation_rate == k / 100
        assert any("do not end a sentence" in w for w in d.warnings) is warned
    # references without final marks raise the bar: 6% of predictions vs 10% of references -> no warning
    refs = [["好的"]] * 10 + [["好的。"]] * 90
    d = compute_diagnostics(["好的"] * 6 + ["好的。"] * 94, refs)
    assert not any("do not end a sentence" in w for w in d.warnings)


def test_predictions_that_copy_their_references_are_warned_chunk_by_chunk_as_whole():
    """`zheval.results.copies` in the diagnostics of every records door: all predictions equal to one of their
    references (after scoring's whitespace handling) is one warning; one that is no copy, in any chunk, none."""
    from zheval.results.diagnostics import DiagnosticCounts, compute_diagnostics
    from zheval.results.copies import copy_kind

    preds, refs = ["好的。", "谢谢 ", "不\u200b客气"], [["行", "好的。"], ["谢谢"], ["不客气"]]
    assert copy_kind(preds[:1], refs[:1]) == "exact" and copy_kind(preds, refs) == "spacing"
    assert copy_kind(["好的"], [["好的。"]]) is None and copy_kind([], []) is None
    whole = compute_diagnostics(preds, refs, source="p.jsonl")
    assert [w for w in whole.warnings if "equal their references" in w] == [
        "all 3 prediction(s) of p.jsonl equal their references (up to whitespace and invisible characters); if that "
        "is not the point (a sanity check), check that the predictions are the system's output and not a copy of the "
        "references"]
    counts = DiagnosticCounts()
    counts.add(preds[:2], refs[:2], ["a", "b"])
    counts.add(["别客气"], refs[2:], ["c"])  # the last chunk breaks it
    assert not [w for w in counts.result().warnings if "equal their references" in w]
