"""The widget's explanation panel (zheval.adapters.space.explain_html) and the highlight runs it is made of
(zheval.adapters.highlight): marks equal the explanation's matched tokens, worked out by hand here."""

from __future__ import annotations

import re

import zheval
from zheval.adapters.highlight import bracketed, highlight_html, highlight_runs
from zheval.adapters.space import MAX_EXPLAINED_LINES, explain_html

MARK = re.compile(r'<mark class="zheval-match"[^>]*>(.*?)</mark>')


def test_runs_cover_the_original_text():
    e = zheval.explain("请把 包裹放进智能柜！", "请把包裹放进快递柜")
    p = e["prediction"]
    runs = highlight_runs(p, e["highlight"]["prediction"])
    assert "".join(s for s, _ in runs) == p["text"]
    # 请把 | space (between tokens, never marked) | 包裹放进 | 智能 | 柜 | ！
    assert runs == [("请把", True), (" ", False), ("包裹放进", True), ("智能", False), ("柜", True), ("！", False)]
    assert bracketed(p, e["highlight"]["prediction"]) == "[请把] [包裹放进]智能[柜]！"
    assert highlight_html({"text": "<a>", "tokens": [{"token": "<a>", "start": 0, "end": 3}]}, [0]) == \
        '<bdi><mark class="zheval-match">&lt;a&gt;</mark></bdi>'
    assert highlight_html({"text": "", "tokens": []}, []) == ""  # the caller's own "(empty)"


def test_panel_marks_the_matched_tokens_of_each_line():
    run = {"predictions": ["猫坐在垫子上", "今天天气很好"], "references": [["猫趴在垫子上面"], ["今天天气不错", "天气很好"]],
           "options": {"tokenizer": "char", "multi_ref": "max", "rouge_types": ["rouge1", "rougeL"]}}
    page = explain_html(run, "chinese_rouge")
    lines = re.findall(r'<div class="zheval-explain" data-line="(\d)".*?</div></div></div>', page, flags=re.S)
    assert lines == ["1", "2"]
    blocks = page.split('class="zheval-explain" data-line=')[1:]
    pred1 = blocks[0].split('zheval-explain-reference')[0]
    ref1 = blocks[0].split('zheval-explain-reference')[1]
    # 猫坐在垫子上 vs 猫趴在垫子上面: 猫 and 在垫子上 match; 坐 / 趴 and 面 do not
    assert MARK.findall(pred1) == ["猫", "在垫子上"] and MARK.findall(ref1) == ["猫", "在垫子上"]
    # line 2: 今天天气很好 -- rouge1 F with 今天天气不错 is 4/6, with 天气很好 2*(4/6*4/4)/(4/6+1) = 0.8: reference 2 wins
    assert 'data-reference="2"' in blocks[1] and "winning reference 2 of 2" in blocks[1]
    # clipped unigrams, left to right: the reference has one 天, so the first 天 of 今天天气 is marked, not the second
    assert MARK.findall(blocks[1].split('zheval-explain-reference')[0]) == ["天", "气很好"]
    assert "rouge1 F 0.8000" in blocks[1]


def test_panel_bleu_is_the_sentence_bleu_and_says_where_it_stops():
    n = MAX_EXPLAINED_LINES + 2
    run = {"predictions": ["猫坐在垫子上"] * n, "references": [["猫坐在垫子上"]] * n,
           "options": {"tokenizer": "char", "level": "corpus", "smooth_method": "exp", "bp_ref_length": "closest",
                       "max_order": 4}}
    page = explain_html(run, "chinese_bleu")
    assert page.count('class="zheval-explain"') == MAX_EXPLAINED_LINES
    assert "sentence BLEU 1.0000 · matches 6/6 5/5 4/4 3/3" in page
    assert f"Lines {MAX_EXPLAINED_LINES + 1}-{n} are scored above but not explained" in page
