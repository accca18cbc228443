"""The one rule for control characters at both boundaries (zheval/text/controls.py, issue 35 U1): the terminal's
``terminal_text`` is ``visible_controls``, checked character by character against the rule written out here."""

from __future__ import annotations

import unicodedata

import pytest

from zheval.text.controls import BIDI_CONTROLS, visible_controls
from zheval.text.terminal import terminal_text


# Unicode's Bidi_Control property, written out from PropList.txt (not taken from the code under test)
BIDI_CONTROL_PROPERTY = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}


def expected(ch: str, one_line: bool) -> str:
    """The rule as docs say it: category Cc (but \\n and \\t unless one_line), Bidi_Control and Zl/Zp escaped."""
    if ch in "\n\t" and not one_line:
        return ch
    if unicodedata.category(ch) in ("Cc", "Zl", "Zp") or ord(ch) in BIDI_CONTROL_PROPERTY:
        return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(ch, f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}")
    return ch


@pytest.mark.parametrize("one_line", [False, True])
def test_every_character_of_the_bmp_follows_the_written_rule(one_line):
    for cp in range(0x10000):
        ch = chr(cp)
        if 0xD800 <= cp <= 0xDFFF:
            continue
        want = expected(ch, one_line)
        assert visible_controls(ch, one_line=one_line) == want, hex(cp)
        assert terminal_text(ch, one_line=one_line) == want, hex(cp)


def test_named_examples_and_idempotence():
    nasty = "g\x1b[32mbi\u202e\x00猫\u2066ok\x9b"
    shown = visible_controls(nasty)
    assert shown == "g\\x1b[32mbi\\u202e\\x00猫\\u2066ok\\x9b"
    assert visible_controls(shown) == shown
    assert visible_controls(3) == "3"
    assert visible_controls("\u200f\u061c\u2028\u2029x") == "\\u200f\\u061c\\u2028\\u2029x"  # break-it F9
    assert {ord(c) for c in BIDI_CONTROLS} == BIDI_CONTROL_PROPERTY
