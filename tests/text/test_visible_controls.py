"""The one rule for control characters at both boundaries (zheval/text/controls.py, issue 35 U1): the terminal's
``terminal_text`` is ``visible_controls``, checked character by character against the rule written out here."""

from __future__ import annotations

import unicodedata

import pytest

from zheval.text.controls import BIDI_CONTROLS, visible_controls
from zheval.text.terminal import terminal_text


# Unicode's Bidi_Control property, written out from PropList.txt (not taken from the code under test)
BIDI_CONTROL_PROPERTY = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}

# Unicode's Default_Ignorable_Code_Point, written out from DerivedCoreProperties.txt (15.1)
DEFAULT_IGNORABLE = {0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, *range(0x180B, 0x1810), *range(0x200B, 0x2010),
                     *range(0x202A, 0x202F), *range(0x2060, 0x2070), 0x3164, *range(0xFE00, 0xFE10), 0xFEFF, 0xFFA0,
                     *range(0xFFF0, 0xFFF9), *range(0x1BCA0, 0x1BCA4), *range(0x1D173, 0x1D17B),
                     *range(0xE0000, 0xE1000)}
# ... and the two more the zw normalisation step removes as invisible (docs/tokenisation.md, normalize.remove_invisible's
# docstring): U+2800 BRAILLE PATTERN BLANK and the interlinear annotation characters U+FFF9-U+FFFB
NORMALISER_INVISIBLE = DEFAULT_IGNORABLE | {0x2800, 0xFFF9, 0xFFFA, 0xFFFB}
# ... of which text needs inside a sequence (kept, controls.py docstring): ZWNJ, ZWJ, CGJ, the variation selectors
# (Mongolian FVS too), the Hangul choseong/jungseong fillers, shorthand and musical format controls, the tag
# characters (kept in an emoji tag sequence only: test_tag_characters_outside_a_flag_are_shown)
SEQUENCE_FORMERS = {0x200C, 0x200D, 0x034F, *range(0x180B, 0x180E), 0x180F, *range(0xFE00, 0xFE10),
                    *range(0xE0100, 0xE01F0), 0x115F, 0x1160, *range(0x1BCA0, 0x1BCA4), *range(0x1D173, 0x1D17B)}


def expected(ch: str, one_line: bool) -> str:
    """The rule as docs say it: category Cc (but \\n and \\t unless one_line), Bidi_Control, Zl/Zp and the
    normaliser's invisible characters but the sequence formers escaped (break-it 18 A: ``x\\u200by`` printed as ``xy``)."""
    if ch in "\n\t" and not one_line:
        return ch
    cp = ord(ch)
    if (unicodedata.category(ch) in ("Cc", "Zl", "Zp") or cp in BIDI_CONTROL_PROPERTY
            or cp in NORMALISER_INVISIBLE - SEQUENCE_FORMERS or 0xE0020 <= cp <= 0xE007F):
        return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(ch, f"\\x{cp:02x}" if cp < 256 else f"\\u{cp:04x}"
                                                         if cp < 0x10000 else f"\\U{cp:08x}")
    return ch


@pytest.mark.parametrize("one_line", [False, True])
def test_every_character_of_the_bmp_follows_the_written_rule(one_line):
    for cp in [*range(0x10000), *range(0x1BC00, 0x1BD00), *range(0x1D100, 0x1D200), *range(0xE0000, 0xE1000)]:
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


def test_invisible_format_characters_are_shown_and_sequences_kept():
    # break-it 18 A: ids "x\u200by" and "xy" printed alike
    assert visible_controls("x\u200by") == "x\\u200by" != visible_controls("xy")
    assert visible_controls("\ufeff答\u2060案\xad") == "\\ufeff答\\u2060案\\xad"
    for kept in ("\U0001f468\u200d\U0001f469", "\u2764\ufe0f", "\u845b\U000e0100\u57ce", "\u0645\u200c\u06cc"):
        assert visible_controls(kept, one_line=True) == kept


def test_tag_characters_outside_a_flag_are_shown():
    scotland = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    assert visible_controls(f"a{scotland}b") == f"a{scotland}b"
    hidden = "ok\U000e0069\U000e0067"  # "ig" written in tag characters: invisible
    assert visible_controls(hidden) == "ok\\U000e0069\\U000e0067"
    assert visible_controls("\U0001f3f4\U000e0067") == "\U0001f3f4\\U000e0067"  # no CANCEL TAG: no flag
    assert visible_controls(visible_controls(hidden)) == visible_controls(hidden)


def test_what_the_normaliser_removes_as_invisible_is_shown_escaped():
    # break-it: U+2800 and U+FFF9-U+FFFB were removed by the zw step as invisible but printed raw (as nothing, or a
    # blank) at the terminal and in the HTML page; one set now: the normaliser's, less the sequence formers
    from zheval.text.chars import INVISIBLE_RANGES
    from zheval.text.normalize import remove_invisible

    assert visible_controls("a\u2800b\ufff9c\ufffa\ufffbd") == "a\\u2800b\\ufff9c\\ufffa\\ufffbd"
    assert terminal_text("\u2800", one_line=True) == "\\u2800"
    removed = {cp for a, b in INVISIBLE_RANGES for cp in range(a, b + 1)}
    assert removed == NORMALISER_INVISIBLE
    for cp in sorted(removed - SEQUENCE_FORMERS):
        ch = chr(cp)
        assert remove_invisible(f"x{ch}y") == "xy", hex(cp)
        assert visible_controls(ch) != ch, hex(cp)
