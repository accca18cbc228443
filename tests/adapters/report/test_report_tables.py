"""zheval.adapters.report.tables: grouping (null last), group scores with intervals, CJK-aware tables, table /
markdown / JSON renderings of a report."""

from __future__ import annotations

import json

import numpy as np
import pytest

from zheval.adapters.report.tables import (
    MetricSpec,
    display_width,
    format_table,
    group_items,
    render_markdown,
    render_table,
    score_groups,
)


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


def test_renderings_of_a_report():
    from zheval.adapters.duck import evaluate_predictions, load_duck, sample_files

    with sample_files() as f:
        rep = evaluate_predictions(load_duck(f["data"]), f["predictions"], bootstrap=20, by=["domain"])
    text = render_table(rep)
    assert "domain=售后支持" in text and "[95% bootstrap interval, 20 resamples" in text
    md = render_markdown(rep)
    # the score table has the 4 domain groups (the diagnostics tables after it list the groups again)
    assert md.split("\n\n**")[0].count("\n| domain=") == 4 and "`nrefs:var|tok:zh-char" in md
    d = json.loads(json.dumps(rep.to_dict(), ensure_ascii=False))
    assert d["scale"] == "0-1" and d["groups"][0]["scores"]["bleu"]["low"] is not None
    assert d["diagnostics"]["empty_predictions"] == 1
