"""Normalisation steps: hand-written expected values."""

import pytest

from zheval.text.normalize import (
    DEFAULT_STEPS,
    Normalizer,
    get_normalizer,
    lower_latin,
    nfkc,
    normalize,
    normalize_space,
    remove_invisible,
    remove_punctuation,
    t2s,
    unify_punctuation,
)
from zheval.text.chars import is_han


@pytest.mark.parametrize(
    "text, expected",
    [
        ("２０２４ＡＩ", "2024AI"),
        ("ｉＯＳ　１７", "iOS 17"),  # full-width letters/digits and the ideographic space
        ("Ｈｅｌｌｏ，世界！", "Hello,世界!"),
        ("㎡", "m2"),
        ("今天", "今天"),
    ],
)
def test_nfkc(text, expected):
    assert nfkc(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("\ufeff今天", "今天"),  # BOM
        ("今\u200b天\u200c天\u200d气", "今天天气"),
        ("小\u2060黄\u00ad鸭", "小黄鸭"),  # word joiner, soft hyphen
        ("\u200e好\u200f", "好"),  # LRM / RLM
        ("plain", "plain"),
    ],
)
def test_remove_invisible(text, expected):
    assert remove_invisible(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("“好的”", '"好的"'),
        ("‘对’", "'对'"),
        ("好！", "好!"),
        ("（注）", "(注)"),
        ("１－２", "１-２"),  # the dash is unified; full-width digits are nfkc's job
        ("等等——", "等等——"),
        ("等等――", "等等——"),  # U+2015 horizontal bar → em dash
        ("〜", "~"),
        ("张・三", "张·三"),
        ("好｡", "好。"),
        ("好。", "好。"),  # 。 is kept: it has no half-width twin
        ("书名《三体》", "书名《三体》"),
    ],
)
def test_unify_punctuation(text, expected):
    assert unify_punctuation(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("今 天 天 气", "今天天气"),
        ("2024 年", "2024年"),
        ("用 iPhone 15 拍", "用iPhone 15拍"),
        ("  a   b  ", "a b"),
        ("第一行\n\n\n 第二行 \r\n第三行", "第一行\n第二行\n第三行"),
        ("今\t天", "今天"),
        ("今天 ， 很 好 。", "今天,很好。".replace(",", "，")),
        ("", ""),
        ("   ", ""),
    ],
)
def test_normalize_space(text, expected):
    assert normalize_space(text) == expected


def test_lower_latin_only():
    assert lower_latin("iPhone ÉCOLE") == "iphone école"
    assert lower_latin("ΑΒΓ 中文") == "ΑΒΓ 中文"  # Greek is not Latin: untouched


def test_t2s_is_opt_in():
    assert "t2s" not in DEFAULT_STEPS
    assert normalize("頭髮") == "頭髮"
    assert t2s("頭髮發展") == "头发发展"
    assert normalize("臺灣軟體", get_normalizer(True, t2s=True)) == "台湾软体"


def test_remove_punctuation_keeps_decimals():
    assert remove_punctuation("好的，谢谢！共3.5元") == "好的谢谢共3.5元"
    assert remove_punctuation("1,000元。") == "1,000元"
    assert remove_punctuation("¥100+😊") == "¥100+😊"  # symbols (S*) are not punctuation
    assert remove_punctuation("100%") == "100"  # '%' is Unicode punctuation (Po)


def test_default_pipeline():
    assert normalize("\ufeff“今 天”２０２４年ＡＩ！") == '"今天"2024年ai!'
    assert get_normalizer().name == "nfkc+zw+punct+space+lower"


def test_canonical_order_and_names():
    a = Normalizer(("lower", "nfkc"))
    b = Normalizer(("nfkc", "lower"))
    assert a.steps == b.steps == ("nfkc", "lower")
    assert get_normalizer(False).name == "none"
    assert get_normalizer("nfkc+space").steps == ("nfkc", "space")


def test_bad_input():
    with pytest.raises(ValueError, match="valid steps"):
        get_normalizer("nfkc+bogus")
    with pytest.raises(TypeError, match="NoneType"):
        normalize(None)
    with pytest.raises(TypeError):
        get_normalizer(3.5)


@pytest.mark.parametrize("char, expected", [("中", True), ("㐀", True), ("𠮷", True), ("〇", True), ("豈", True),
                                            ("a", False), ("。", False), ("あ", False), ("⺀", False)])
def test_is_han(char, expected):
    assert is_han(char) is expected


def test_spaces_next_to_hangul_are_kept():
    assert normalize_space("한국어 텍스트") == "한국어 텍스트"
    assert normalize_space("す し") == "すし"  # Japanese does not separate words with spaces


def test_tag_characters_removed():
    assert remove_invisible("旗\U000e0067\U000e007f") == "旗"


@pytest.mark.parametrize("text, blank", [("", True), ("  \t", True), ("\u200b", True), (" \u200b\ufeff ", True),
                                         ("\u3000", True), ("\u2060\u200e", True), ("a", False), ("。", False),
                                         ("\u200b好", False), ("\u00a0", True)])
def test_is_blank_the_emptiness_rule_of_every_door(text, blank):
    from zheval.text.normalize import is_blank, remove_invisible

    assert is_blank(text) is blank
    assert is_blank(text) is (not remove_invisible(text).strip())  # the definition: nothing left after zw + strip
