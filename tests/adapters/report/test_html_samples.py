"""The HTML report's parts without a browser: which items are shown (lowest / median / highest, worked by hand),
highlight segments from token spans, the inline SVG (text kept as text, Chinese labels kept), escaping of the data's
texts, the check that an explanation describes the reported number, and nothing external in the page."""

from __future__ import annotations

import re

import pytest
from datasets import Dataset

from zheval.adapters.duck.evaluate import evaluate_predictions
from zheval.adapters.report.html_page import (
    check_sample_metric,
    default_sample_metric,
    explanation_mismatches,
    highlight_segments,
    inline_svg,
    render_html,
    score_html,
    select_samples,
)
from zheval.adapters.report.plot import plot_report
from zheval.adapters.report.tables import GroupScore, MetricValue, Report

EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//|url\(\s*['"]?(?:https?:)?//|@import""", re.I)


def _report(scores, domains, metric="rougeL"):
    """A score report over items with the given per-item ``metric`` scores, grouped by ``domains``."""
    items = [{"id": f"q{i}", "prediction": f"p{i}", "sentence_bleu": 0.0, metric: s} for i, s in enumerate(scores)]
    groups = [GroupScore("overall", "all", len(scores), {metric: MetricValue(0.5)})]
    for d in sorted({d for d in domains if d is not None}):
        groups.append(GroupScore("domain", d, domains.count(d), {metric: MetricValue(0.5)}))
    if None in domains:
        groups.append(GroupScore("domain", "null", domains.count(None), {metric: MetricValue(0.5)}))
    rep = Report(kind="score", title="t", metrics=[("bleu", "BLEU"), (metric, "ROUGE-L")], groups=groups,
                 params={"by": ["domain"]}, items=items)
    ds = Dataset.from_dict({"id": [it["id"] for it in items], "domain": domains,
                            "responses": [["r"] for _ in items]})
    return rep, ds


def test_samples_lowest_median_highest_by_hand():
    # A: items 0..3 with 0.5, 0.1, 0.5, 0.9 -> sorted (ties in dataset order) 1, 0, 2, 3:
    #    lowest 1, median position (4-1)//2 = 1 -> item 0, highest 3
    # B: items 4, 5 both 0.3 -> sorted 4, 5: lowest 4, median position 0 -> item 4 again, highest 5
    # null: item 6 alone -> all three bands
    rep, ds = _report([0.5, 0.1, 0.5, 0.9, 0.3, 0.3, 0.7], ["A", "A", "A", "A", "B", "B", None])
    metric, groups = select_samples(rep, ds)
    assert metric == "rougeL"
    got = {g.label: [(s.index, s.bands) for s in g.samples] for g in groups}
    assert got == {
        # overall: sorted 1(0.1), 4(0.3), 5(0.3), 0(0.5), 2(0.5), 6(0.7), 3(0.9): median position 3 -> item 0
        "overall": [(1, ["lowest"]), (0, ["median"]), (3, ["highest"])],
        "domain=A": [(1, ["lowest"]), (0, ["median"]), (3, ["highest"])],
        "domain=B": [(4, ["lowest", "median"]), (5, ["highest"])],
        "domain=null": [(6, ["lowest", "median", "highest"])],
    }


def test_samples_by_sentence_bleu_and_bad_requests():
    rep, ds = _report([0.2, 0.1], ["A", "A"])
    rep.items[0]["sentence_bleu"], rep.items[1]["sentence_bleu"] = 0.9, 0.95
    _, groups = select_samples(rep, ds, "bleu")
    assert [(s.index, s.bands) for s in groups[0].samples] == [(0, ["lowest", "median"]), (1, ["highest"])]
    with pytest.raises(ValueError, match=r"cannot choose samples by 'rouge2': the report has bleu, rougeL"):
        select_samples(rep, ds, "rouge2")
    with pytest.raises(ValueError, match="not the scored dataset"):
        select_samples(rep, ds.select([0]))
    other = Dataset.from_dict({"id": ["q0", "q1"], "domain": ["A", "B"], "responses": [["r"], ["r"]]})
    with pytest.raises(ValueError, match="groups of the dataset differ"):
        select_samples(rep, other)
    rep.items = None
    with pytest.raises(ValueError, match="keep_items=True"):
        select_samples(rep, ds)


def test_default_sample_metric_and_option_check():
    assert default_sample_metric(Report("score", "t", [("bleu", "BLEU"), ("rouge1", "R1"), ("rougeL", "RL")])) == "rougeL"
    assert default_sample_metric(Report("score", "t", [("bleu", "BLEU"), ("rouge2", "R2")])) == "rouge2"
    assert default_sample_metric(Report("score", "t", [("bleu", "BLEU")])) == "bleu"
    check_sample_metric(None, ["bleu"], [])
    check_sample_metric("rouge2", ["bleu", "rouge"], ["rouge1", "rouge2"])
    with pytest.raises(ValueError, match=r"--html-metric 'rougeL' is not reported by this run; choose one of: bleu$"):
        check_sample_metric("rougeL", ["bleu"], ["rougeL"], "--html-metric")


def test_highlight_segments_by_hand():
    text = "请把 Box 放进快递柜"
    tokens = [{"token": "请", "start": 0, "end": 1}, {"token": "把", "start": 1, "end": 2},
              {"token": "box", "start": 3, "end": 6}, {"token": "放", "start": 7, "end": 8},
              {"token": "进", "start": 8, "end": 9}, {"token": "快", "start": 9, "end": 10},
              {"token": "递", "start": 10, "end": 11}, {"token": "柜", "start": 11, "end": 12}]
    segs = highlight_segments(text, tokens, [2, 5, 6, 7])
    assert "".join(s["text"] for s in segs) == text
    assert [(s["token"], s["text"]) for s in segs if s["matched"]] == [(2, "Box"), (5, "快"), (6, "递"), (7, "柜")]
    assert [s["text"] for s in segs if s["token"] is None] == [" ", " "]
    with pytest.raises(ValueError, match=r"token 1 span \[0, 1\) does not fit"):
        highlight_segments("ab", [{"start": 1, "end": 2}, {"start": 0, "end": 1}], [])
    with pytest.raises(ValueError, match="matched token index 3 is not a token"):
        highlight_segments("ab", [{"start": 0, "end": 1}], [3])
    with pytest.raises(ValueError, match=r"span \[1, 5\) does not fit the text \(length 2"):
        highlight_segments("ab", [{"start": 1, "end": 5}], [])


ROWS = {
    "id": ["q1", "q2", "q3", "q4"],
    "query": ["怎么退货？", "心情不好", "明天穿什么", "快递到哪了"],
    "responses": [["您好，请在订单页申请退货。", "可以在订单页面申请退货。"], ["我在这里陪着你，想聊聊吗？", "听起来你很难受，愿意说说吗？"],
                  ["明天降温，记得穿外套。", "天气转凉，建议加一件外套。"], ["您的快递已到达驿站。", "快递已经放在驿站了。"]],
    "domain": ["售后支持", "情感陪伴", "情感陪伴", "售后支持"],
    "difficulty": ["易", "中", None, "易"],
}
PREDS = ["请在订单页申请<b>退货</b>。", "我陪着你，想聊聊吗？", "明天记得穿外套。", "快递已到驿站。"]


@pytest.fixture(scope="module")
def scored():
    ds = Dataset.from_dict(ROWS)
    return evaluate_predictions(ds, PREDS, bootstrap=50, keep_items=True), ds


def test_page_escapes_texts_embeds_svg_and_names_nothing_external(scored):
    rep, ds = scored
    page = score_html(rep, ds)
    assert "&lt;b&gt;" in page and "<b>退货" not in page  # the data's markup is text
    assert page.count("<svg") == 2  # one plot per group column (domain, difficulty)
    assert "<?xml" not in page and "<!DOCTYPE svg" not in page and "<metadata>" not in page
    assert not EXTERNAL.search(page)
    assert "<script" not in page.lower()
    # every shown item is highlighted: the page has the explanations (marks), and none contradicts its number
    assert page.count('<article class="sample"') >= 4 and "<mark" in page
    assert "does not describe the reported number" not in page


def test_plot_svg_text_keeps_chinese_as_text(scored):
    rep, _ = scored
    svg, notes = plot_report(rep, "domain", fmt="svg", svg_text=True)
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg.decode("utf-8"))
    assert "售后支持" in texts and "情感陪伴" in texts
    assert not any("English" in n for n in notes)
    assert inline_svg(svg).startswith("<svg")
    with pytest.raises(ValueError, match="svg_text=True needs fmt='svg'"):
        plot_report(rep, "domain", fmt="png", svg_text=True)


def test_mismatching_explanation_is_named(scored):
    rep, ds = scored
    from zheval import explain_items

    ex = explain_items([rep.items[0]["prediction"]], [ROWS["responses"][0]], rouge_types=["rouge1", "rouge2", "rougeL"])
    assert explanation_mismatches(rep, {0: ex[0]}) == []
    ex[0]["rouge"]["rouge2"]["score"]["fmeasure"] += 1e-12
    (msg,) = explanation_mismatches(rep, {0: ex[0]})
    assert msg.startswith("item q1: the explanation's rouge2 is ") and "does not describe the reported number" in msg


def test_compare_page_tables(tmp_path):
    from zheval.adapters.duck import compare_predictions

    ds = Dataset.from_dict(ROWS)
    rep = compare_predictions(ds, PREDS, list(reversed(PREDS)), bootstrap=50)
    page = render_html(rep)
    for r in rep.comparison:
        assert f'data-value="{float(r["score_a"])!r}"' in page and f'data-value="{float(r["delta"])!r}"' in page
    assert not EXTERNAL.search(page)


def test_plots_on_one_page_never_repeat_an_id(scored):
    rep, ds = scored
    page = score_html(rep, ds)
    ids = re.findall(r'(?<![\w:-])id="([^"]+)"', page)
    assert len(ids) == len(set(ids)), sorted(i for i in set(ids) if ids.count(i) > 1)[:5]
    refs = set(re.findall(r'url\(#([^)]+)\)', page)) | set(re.findall(r'href="#([^"]+)"', page))
    assert refs <= set(ids)  # every reference still names an id of the page
    assert page.count("<svg") == 2
