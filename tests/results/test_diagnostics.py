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
