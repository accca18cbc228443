"""The review sheet shows model text's control characters as visible escapes (issue 35, break-it F10): ESC, NUL,
C1 controls and the bidi controls (U+202E …) are written ``\\x1b``, ``\\x00``, ``\\u202e`` — the rule of the
terminal and the HTML report (`zheval.text.controls.visible_controls`) — so ``cat sheet.csv`` or a spreadsheet
shows them instead of obeying them; line breaks between references stay. The key keeps every text exactly, and a
filled sheet is read back against it although an id held a control character."""

from __future__ import annotations

import json

from zheval.adapters.review.human_review import read_ratings, sheet_csv

ROW = {"id": "r\x1b1", "query": "问\u202e题", "prediction": "好\x1b]0;pwned\x07的\x00\x9b了",
       "references": "参考一\n参考\u2066二", "relevance": "", "informativeness": "", "naturalness": ""}


def test_the_sheet_shows_controls_as_escapes():
    text = sheet_csv([ROW])
    for c in ("\x1b", "\x00", "\x07", "\x9b", "\u202e", "\u2066"):
        assert c not in text
    assert ('r\\x1b1,问\\u202e题,好\\x1b]0;pwned\\x07的\\x00\\x9b了,"参考一\n参考\\u2066二",,,\r\n') in text


def test_a_filled_sheet_is_read_back_against_the_exact_key(tmp_path):
    key = {"rating_columns": ["relevance", "informativeness", "naturalness"],
           "items": [{"id": "r\x1b1"}, {"id": "r2"}]}
    row2 = dict(ROW, id="r2", prediction="好")
    filled = sheet_csv([dict(ROW, relevance="4"), dict(row2, relevance="2")])
    sheet = tmp_path / "filled.csv"
    sheet.write_text(filled, encoding="utf-8")
    ratings, info = read_ratings(sheet, json.loads(json.dumps(key)))
    assert ratings == {"r\x1b1": {"relevance": 4.0, "informativeness": None, "naturalness": None},
                       "r2": {"relevance": 2.0, "informativeness": None, "naturalness": None}}
    assert info["lines"] == {"r\x1b1": 2, "r2": 4}
