"""Text from a model is data in the Space widget too (issue 35, break-it 6): the explanation panel, the per-item
table, the message line and the signature show control characters as visible escapes (the rule of every zheval HTML
page, zheval.text.controls.visible_controls), never raw: ESC, NUL, U+202E (Trojan Source) and CR reached the panel's
HTML as they were (highlight_html used html.escape only)."""

from __future__ import annotations

import os
import runpy

import pytest

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

from zheval.adapters.highlight import highlight_html  # noqa: E402
from zheval.adapters.space import (  # noqa: E402
    _message_html, _page_outputs, explain_html, score_bleu, score_chrf, score_rouge,
)
from helpers import REPO  # noqa: E402

RAW = "\x1b\x00\u202e\r\x9b\u2028"
# the prediction carries ESC [31m, NUL, RLO (U+202E); the reference a lone CR inside its line (text, not a line end)
PREDS = "今天\x1b[31m天气\x00很好\u202e\n猫坐在垫子上"
REFS = "今天天气很好\r啊\n猫坐在垫子上"


@pytest.fixture(scope="module")
def apps():
    return {m: runpy.run_path(str(REPO / "metrics" / m / "app.py"), run_name="space_controls_test")
            for m in ("chinese_rouge", "chinese_bleu", "chinese_chrf")}


def _raw(text: str) -> list:
    return [repr(c) for c in RAW if c in text]


def test_highlight_html_shows_controls_and_isolates_the_text():
    entry = {"text": "a\x1bb\u202ec\rd<", "tokens": [{"token": "a", "start": 0, "end": 1},
                                                   {"token": "c", "start": 4, "end": 5}]}
    # runs: a (marked) | ESC b RLO (not) | c (marked) | CR d < (not); each run: visible escapes, then HTML escaping
    assert highlight_html(entry, [0, 1]) == ('<bdi><mark class="zheval-match">a</mark>\\x1bb\\u202e'
                                             '<mark class="zheval-match">c</mark>\\rd&lt;</bdi>')


@pytest.mark.parametrize("metric, score", [("chinese_rouge", score_rouge), ("chinese_bleu", score_bleu),
                                           ("chinese_chrf", score_chrf)])
def test_panel_and_table_show_no_raw_control(apps, metric, score):
    res = score(apps[metric]["module"], PREDS, REFS)
    assert res.run["predictions"][0] == "今天\x1b[31m天气\x00很好\u202e"  # scored as given
    page = explain_html(res.run, metric)
    assert _raw(page) == []
    assert "\\x1b[31m" in page and "\\x00" in page and "\\u202e" in page and "\\r啊" in page
    assert page.count("<bdi>") == 4 and page.count("</bdi>") == 4  # prediction and reference of each line
    cells = list(res.per_item["prediction"]) + list(res.per_item["references"])
    assert _raw("".join(cells)) == []
    assert list(res.per_item["prediction"]) == ["今天\\x1b[31m天气\\x00很好\\u202e", "猫坐在垫子上"]
    assert list(res.per_item["references"]) == ["今天天气很好\\r啊", "猫坐在垫子上"]


def test_message_and_signature_of_the_page_show_no_raw_control(apps):
    assert _message_html("error", "bad \x1b[2J\u202e<x>") == _message_html("error", "bad \\x1b[2J\\u202e<x>")
    assert "&lt;x&gt;" in _message_html("error", "<x>")
    module = apps["chinese_rouge"]["module"]
    out = _page_outputs(score_rouge, module)(PREDS, REFS, "char", ["rouge1"], "max", "(none)")
    message, summary, per_item, signature, run, explained = out
    assert _raw(message + signature + explained) == []
    assert _raw("".join(per_item["value"]["prediction"])) == []
    assert run["predictions"][0].endswith("\u202e")  # the state keeps the scored text
