"""zheval.adapters.duck.report, zheval.results.diagnostics, zheval.adapters.files: diagnostics by hand, grouping,
CJK-aware tables, atomic writes, JSON/markdown rendering."""

from __future__ import annotations

import json

import numpy as np
import pytest

from zheval.adapters.duck.report import (
    MetricSpec,
    display_width,
    format_table,
    group_items,
    render_markdown,
    render_table,
    score_groups,
)
from zheval.adapters.files import atomic_write
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


def test_group_items_sorted_with_null_last():
    cols = {"domain": ["b", None, "a", "b"], "difficulty": [None, None, None, None]}
    groups = group_items(cols, ["domain", "difficulty"])
    assert [(d, v, list(i)) for d, v, i in groups] == [
        ("overall", "all", [0, 1, 2, 3]),
        ("domain", "a", [2]),
        ("domain", "b", [0, 3]),
        ("domain", "null", [1]),
        ("difficulty", "null", [0, 1, 2, 3]),
    ]
    with pytest.raises(ValueError, match="cannot group by 'speaker'"):
        group_items(cols, ["speaker"])
    assert [list(i) for _, _, i in group_items({}, [], 3)] == [[0, 1, 2]]


def test_score_groups_mean_and_interval():
    f = np.array([0.0, 0.5, 1.0, 0.5])
    spec = MetricSpec("m", "M", np.column_stack([f, np.ones(4)]), lambda s: s[:, 0] / s[:, 1],
                      lambda idx: float(f[idx].mean()))
    (overall, g_a) = score_groups([spec], [("overall", "all", np.arange(4)), ("x", "a", np.array([1, 2]))], 200, seed=3)
    assert overall.scores["m"].value == 0.5 and g_a.scores["m"].value == 0.75
    assert 0.0 <= overall.scores["m"].low <= 0.5 <= overall.scores["m"].high <= 1.0
    assert 0.5 <= g_a.scores["m"].low <= g_a.scores["m"].high <= 1.0


def test_format_table_aligns_double_width_characters():
    assert display_width("售后支持") == 8 and display_width("ab") == 2
    t = format_table(["group", "n"], [["domain=售后支持", "22"], ["overall", "66"]]).splitlines()
    assert len({display_width(line) for line in t}) == 1


def test_atomic_write_replaces_or_leaves_nothing(tmp_path):
    p = tmp_path / "r.txt"
    atomic_write(p, "一")
    atomic_write(p, "二")
    assert p.read_text(encoding="utf-8") == "二"
    with pytest.raises(OSError):
        atomic_write(tmp_path / "missing" / "r.txt", "x")
    assert sorted(x.name for x in tmp_path.iterdir()) == ["r.txt"]


def test_renderings_of_a_report():
    from zheval.adapters.duck import evaluate_predictions, load_duck, sample_files

    with sample_files() as f:
        rep = evaluate_predictions(load_duck(f["data"]), f["predictions"], bootstrap=20, by=["domain"])
    text = render_table(rep)
    assert "domain=售后支持" in text and "[95% bootstrap interval, 20 resamples" in text
    md = render_markdown(rep)
    assert md.count("\n| domain=") == 4 and "`nrefs:var|tok:char" in md
    d = json.loads(json.dumps(rep.to_dict(), ensure_ascii=False))
    assert d["scale"] == "0-1" and d["groups"][0]["scores"]["bleu"]["low"] is not None
    assert d["diagnostics"]["empty_predictions"] == 1
