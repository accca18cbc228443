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
    assert remove_punctuation("1,000元。") == "1 000元"  # the char tokenizer splits ',' off: no comma token kept
    assert remove_punctuation("¥100+😊") == "¥100+😊"  # symbols (S*) are not punctuation
    assert remove_punctuation("100%") == "100"  # '%' is Unicode punctuation (Po)


@pytest.mark.parametrize("text, expected", [
    # a mark removed between two letters/digits leaves a space: the two stay two tokens (they were glued before)
    ("预计3-5天送达", "预计3 5天送达"),
    ("10:30", "10 30"),
    ("2024-05-17", "2024 05 17"),
    ("1/2", "1 2"),
    ("hello,world", "hello world"),
    ("x-ray", "x ray"),
    ("1..2", "1 2"),  # a run of marks is one removal: one space
    ("v1.2,3", "v1.2 3"),  # a single '.' before a digit is part of the number, kept; ',' is not
    ("e\u0301-x", "e\u0301 x"),  # the word before may end in an attached mark
    ("a-\u0301b", "a \u0301b"),  # or the one after start with marks, which would attach to 'a'
    ("한,국", "한 국"),  # Hangul words are word runs too
    # only punctuation is removed, even between digits (a Han character or a symbol was dropped there before)
    ("3至5", "3至5"),
    ("1+2", "1+2"),
    ("H2O2", "H2O2"),
    # nothing is left where no run would form: Han, kana, whitespace, symbols, text ends
    ("好的，谢谢！", "好的谢谢"),
    ("50%的", "50的"),
    ("hello, world", "hello world"),
    ("3-~5", "3~5"),
    ("-3-", "3"),
])
def test_remove_punctuation_never_glues_two_tokens(text, expected):
    assert remove_punctuation(text) == expected


def test_nopunct_gives_the_tokens_of_punct_drop():
    """Removing a mark between two words with ``nopunct`` gives the tokens ``punct="drop"`` gives (the mark's token
    left out, the words apart), for the char and jieba tokenizers."""
    from zheval import get_tokenizer

    nopunct = "nfkc+zw+punct+nopunct+space+lower"
    for name in ("char", "jieba"):
        removed, dropped = get_tokenizer(name, normalize=nopunct), get_tokenizer(name, punct="drop")
        for text in ("预计3-5天送达", "会议10:30开始", "2024-05-17", "1/2杯", "hello,world", "iPhone-15"):
            assert removed.tokenize(text) == dropped.tokenize(text), (name, text)
    assert get_tokenizer("char", normalize=nopunct).tokenize("预计3-5天送达") == ["预", "计", "3", "5", "天", "送", "达"]


def test_nopunct_classes_are_the_char_tokenizers():
    from zheval.text.normalize import NOPUNCT_MARK, NOPUNCT_WORD
    from zheval.tokenizers.char import CHAR_MARK, CHAR_WORD

    assert (NOPUNCT_WORD, NOPUNCT_MARK) == (CHAR_WORD, CHAR_MARK)


def test_nopunct_range_is_not_its_glued_number():
    """``预计3-5天送达`` against ``预计35天送达`` scored 1.0 when nopunct made ``35`` of ``3-5``. By hand (char tokens):
    prediction 预 计 3 5 天 送 达 (7), reference 预 计 35 天 送 达 (6), 5 shared unigrams: P 5/7, R 5/6,
    F1 = 2*5/(7+6) = 10/13; bigrams 预计 计3 (3,5) 5天 天送 送达 (6) vs 预计 计35 35天 天送 送达 (5), 3 shared (预计 天送
    送达): F1 = 2*3/(6+5) = 6/11."""
    from zheval import compute_rouge

    out = compute_rouge(["预计3-5天送达"], ["预计35天送达"], normalize="nfkc+zw+punct+nopunct+space+lower")
    assert out["rouge1"] == pytest.approx(10 / 13)
    assert out["rouge2"] == pytest.approx(6 / 11)


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
