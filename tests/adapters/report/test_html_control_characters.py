"""The HTML report shows model text's control characters as the terminal does (issue 35 U1): ESC, NUL, C1 controls
and the bidi controls (U+202E …) are written as visible escapes (``\\x1b``, ``\\u202e``) by the one rule
``zheval.text.controls.visible_controls`` (the page's ``visible`` filter and its output hook), never raw; text from
the data is isolated with ``<bdi>`` so right-to-left text cannot reorder the page around it; ``<``/``&`` stay
escaped."""

from __future__ import annotations

import json
import re

from helpers.cli import TWO_DOMAIN_PREDS as PREDS, TWO_DOMAIN_ROWS as ROWS, run_cli as run, write_jsonl
from zheval.text.controls import BIDI_CONTROLS, visible_controls

NASTY = "g\x1b[32mbi\u202e\x00<b>&\x9b"
RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f" + BIDI_CONTROLS + "]")


def _page(tmp_path):
    # a records file (the records door takes any group value, as the engines and the library do)
    rows = [{"id": r["id"], "prediction": p, "references": r["responses"], "group": r["domain"]}
            for r, p in zip(ROWS, PREDS)]
    rows[0]["group"] = NASTY
    rows[1]["id"] = "q2\u202eevil"
    rows[2]["references"] = [rows[2]["references"][0] + "\x1b]0;title\x07", *rows[2]["references"][1:]]
    rows[0]["prediction"] = "您好\u202e，请在订单页\x00申请退货\x1b[2J。"
    records = write_jsonl(tmp_path / "records.jsonl", rows)
    html = tmp_path / "r.html"
    res = run("score", "-p", records, "--id-field", "id", "--group-field", "group", "--bootstrap", 0, "-q",
              "--html", html)
    assert res.exit_code == 0, res.output
    return html.read_text(encoding="utf-8")


def test_page_holds_no_raw_control_or_bidi_character(tmp_path):
    page = _page(tmp_path)
    found = sorted({f"U+{ord(c):04X}" for c in RAW.findall(page)})
    assert not found, found
    # shown visibly, as the terminal shows them
    assert "g\\x1b[32mbi\\u202e\\x00" in page
    text = re.sub(r"<[^>]+>", "", page)  # the prediction is cut by highlight marks: compare its text
    assert "您好\\u202e，请在订单页\\x00申请退货\\x1b[2J。" in text
    assert "q2\\u202eevil" in page
    assert "&lt;b&gt;&amp;" in page and "<b>&" not in page  # HTML escaping still applies


def test_model_text_is_isolated_with_bdi(tmp_path):
    page = _page(tmp_path)
    assert re.search(r'<span class="text prediction"><bdi>', page)
    assert re.search(r'<span class="text reference[^"]*"[^>]*><bdi>', page)
    assert "<h3><bdi>" in page


def test_one_rule_for_terminal_and_page():
    from zheval.text.terminal import terminal_text

    assert visible_controls(NASTY) == terminal_text(NASTY)
