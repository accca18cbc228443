"""The char tokenizer (zheval.tokenizers.char): hand-written expected tokens (one token per Han/kana character, a
Latin/digit run one token, marks attached, punctuation options, Traditional kept unless t2s), protected terms
(longest match, never leaking between instances or across the cache), no Han character lost (property), Hangul
words, control and tag characters."""

import unicodedata

import pytest
import zheval
from hypothesis import given, settings
from hypothesis import strategies as st

from zheval.text.chars import is_han
from zheval.tokenizers import CharTokenizer, clear_cache, get_tokenizer

RAW = {"normalize": False}

# (text, options, expected tokens) — each expected list written by hand from the documented rules.
CHAR_CASES = [
    # plain Chinese
    ("今天天气很好", {}, ["今", "天", "天", "气", "很", "好"]),
    ("", {}, []),
    ("   \t\n ", {}, []),
    # mixed Chinese / English / digits
    ("我用iPhone拍照", {}, ["我", "用", "iphone", "拍", "照"]),
    ("我用iPhone拍照", RAW, ["我", "用", "iPhone", "拍", "照"]),
    ("订单DUCK20240517001已发货", RAW, ["订", "单", "DUCK20240517001", "已", "发", "货"]),
    ("iOS 17更新", RAW, ["iOS", "17", "更", "新"]),
    ("2024年5月17日", {}, ["2024", "年", "5", "月", "17", "日"]),
    ("价格3.5元", {}, ["价", "格", "3.5", "元"]),
    ("共3.5GB流量", {}, ["共", "3.5gb", "流", "量"]),
    ("涨了12.5%", {}, ["涨", "了", "12.5", "%"]),
    ("1,000元", {}, ["1", ",", "000", "元"]),
    ("时间10:30", {}, ["时", "间", "10", ":", "30"]),
    # dates, URLs, e-mail
    ("2024-05-17", {}, ["2024", "-", "05", "-", "17"]),
    ("访问https://duck.example.com/a?b=1", {}, ["访", "问", "https", ":", "/", "/", "duck", ".", "example", ".", "com", "/", "a", "?", "b", "=", "1"]),
    ("邮箱help@duck.cn", {}, ["邮", "箱", "help", "@", "duck", ".", "cn"]),
    ("IP是192.168.1.1", {}, ["ip", "是", "192.168.1.1"]),
    # full-width forms (NFKC on by default)
    ("２０２４ＡＩ", {}, ["2024ai"]),
    ("２０２４ＡＩ", RAW, ["２０２４ＡＩ"]),  # without NFKC a full-width run is still one word token
    ("好的，谢谢！", {}, ["好", "的", ",", "谢", "谢", "!"]),
    ("好的，谢谢！", RAW, ["好", "的", "，", "谢", "谢", "！"]),
    ("“你好”", {}, ['"', "你", "好", '"']),
    # zero-width characters and BOM: never tokens, with or without normalisation
    ("\ufeff你\u200b好", {}, ["你", "好"]),
    ("\ufeff你\u200b好", RAW, ["你", "好"]),
    ("小\u200d黄\u2060鸭", RAW, ["小", "黄", "鸭"]),
    # outside the BMP, extensions, compatibility ideographs
    ("𠮷野家", {}, ["𠮷", "野", "家"]),
    ("㐀㐁", {}, ["㐀", "㐁"]),  # Extension A
    ("\U0002a700", {}, ["\U0002a700"]),  # Extension C
    ("〇一二", {}, ["〇", "一", "二"]),
    ("豈", RAW, ["豈"]),  # compatibility ideograph U+F900 (NFKC would map it to U+8C48)
    # emoji: one token each; modifiers and variation selectors stay attached (the default zw step removes the
    # variation selector U+FE0F: it chooses a glyph, not a character)
    ("好的😊", {}, ["好", "的", "😊"]),
    ("赞👍🏻", {}, ["赞", "👍🏻"]),
    ("爱❤️", {}, ["爱", "❤"]),
    ("爱❤️", RAW, ["爱", "❤\ufe0f"]),
    # decoded model output with spaces between characters
    ("今 天 天 气", {}, ["今", "天", "天", "气"]),
    ("今 天 天 气", RAW, ["今", "天", "天", "气"]),
    # Latin with diacritics, other scripts
    ("café naïve", {}, ["café", "naïve"]),
    ("Привет мир", {}, ["Привет", "мир"]),  # only Latin letters are lower-cased
    # punctuation dropped by option
    ("好的，谢谢！", {"punct": "drop"}, ["好", "的", "谢", "谢"]),
    ("！？。", {"punct": "drop"}, []),
    ("好的😊", {"punct": "drop"}, ["好", "的"]),
    ("3.5%", {"punct": "drop"}, ["3.5"]),
    # Traditional input: kept as is by default, converted only when asked
    ("頭髮很長", {}, ["頭", "髮", "很", "長"]),
    ("頭髮很長", {"t2s": True}, ["头", "发", "很", "长"]),
]


@pytest.mark.parametrize("text, options, expected", CHAR_CASES)
def test_char_cases(text, options, expected):
    assert get_tokenizer("char", **options)(text) == expected


def test_at_least_40_hand_written_cases():
    assert len(CHAR_CASES) + len(TERMS_CASES) >= 40  # (the jieba cases: tests/tokenizers/test_jieba_tokenizer.py)


TERMS = ["小黄鸭", "APP", "快递柜"]
TERMS_CASES = [
    ("请打开小黄鸭APP查快递柜取件码！", RAW, ["请", "打", "开", "小黄鸭", "APP", "查", "快递柜", "取", "件", "码", "！"]),
    # default normalisation lower-cases both text and terms, so the term still matches
    ("请打开小黄鸭APP查快递柜取件码！", {}, ["请", "打", "开", "小黄鸭", "app", "查", "快递柜", "取", "件", "码", "!"]),
    # spaces from decoding do not break a term
    ("小 黄 鸭 的 快 递 柜", {}, ["小黄鸭", "的", "快递柜"]),
    # a Latin term does not split a longer word
    ("APPLE和APP", RAW, ["APPLE", "和", "APP"]),
]


@pytest.mark.parametrize("text, options, expected", TERMS_CASES)
def test_terms_cases(text, options, expected):
    assert get_tokenizer("char", terms=TERMS, **options)(text) == expected


def test_terms_longest_match_wins():
    tok = get_tokenizer("char", terms=["小黄", "小黄鸭", "黄鸭快递"], normalize=False)
    assert tok("小黄鸭快递") == ["小黄鸭", "快", "递"]
    tok2 = get_tokenizer("char", terms=["快递", "快递柜"], normalize=False)
    assert tok2("快递柜和快递") == ["快递柜", "和", "快递"]


def test_terms_never_leak_between_char_instances():
    a = get_tokenizer("char", terms=["小黄鸭"])
    b = get_tokenizer("char")
    assert a("小黄鸭") == ["小黄鸭"]
    assert b("小黄鸭") == ["小", "黄", "鸭"]
    assert a.fingerprint != b.fingerprint
    clear_cache()
    assert b("小黄鸭") == ["小", "黄", "鸭"] and a("小黄鸭") == ["小黄鸭"]


def test_different_terms_never_share_cache():
    a = CharTokenizer(terms=["小黄"])
    b = CharTokenizer(terms=["黄鸭"])
    assert a("小黄鸭") == ["小黄", "鸭"]
    assert b("小黄鸭") == ["小", "黄鸭"]
    assert a.fingerprint != b.fingerprint


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40))
def test_property_no_han_lost_and_no_empty_tokens(text):
    for options in ({"normalize": False}, {"normalize": False, "punct": "drop"}):
        tokens = get_tokenizer("char", **options)(text)
        assert all(t and not t.isspace() for t in tokens)
        han_in = [c for c in text if is_han(c)]
        han_out = [c for t in tokens for c in t if is_han(c)]
        assert han_in == han_out
    tokens = get_tokenizer("char")(text)  # with the default normalisation
    assert all(t and not t.isspace() for t in tokens)
    norm = unicodedata.normalize("NFKC", text)
    assert [c for c in norm if is_han(c)] == [c for t in tokens for c in t if is_han(c)]


# -- other scripts and invisible characters, with hand-written expected values --------------------------------


def test_hangul_words_keep_their_spaces_and_kana_is_per_character():
    assert get_tokenizer("char")("나는 학생 입니다") == ["나는", "학생", "입니다"]
    assert get_tokenizer("char")("すし を たべる") == ["す", "し", "を", "た", "べ", "る"]
    assert get_tokenizer("char")("ひらがなカタカナ") == list("ひらがなカタカナ")


#: Every character of U+3000-U+303F that Python's ``\w`` matches (letters and numbers: 々 〆 〇 〡-〩 〱-〵 〸-〼).
CJK_BLOCK_LETTERS = [chr(c) for c in range(0x3000, 0x3040) if chr(c).isalnum()]


def test_cjk_block_letters_are_listed_by_hand():
    assert "".join(CJK_BLOCK_LETTERS) == "々〆〇〡〢〣〤〥〦〧〨〩〱〲〳〴〵〸〹〺〻〼"


@pytest.mark.parametrize("ch", CJK_BLOCK_LETTERS, ids=lambda c: f"U+{ord(c):04X}")
def test_cjk_block_letters_are_tokens_of_their_own_as_sacrebleu_zh_splits_them(ch):
    # the iteration mark 々 after Han joined the Latin run after it ('人々abc' -> ['人', '々abc']); sacrebleu's zh
    # tokenizer treats every character of U+3000-U+303F as Chinese, one token each
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    text = f"人{ch}abc{ch}12{ch}"
    expected = TokenizerZh()(text).split()
    assert expected == ["人", ch, "abc", ch, "12", ch]
    assert get_tokenizer("char", normalize=False)(text) == expected
    assert get_tokenizer("char", normalize=False, punct="drop")(text) == expected  # letters: kept by punct="drop"


def test_control_and_tag_characters_are_never_tokens():
    assert get_tokenizer("char", normalize=False)("好\x00的\x1b\x7f") == ["好", "的"]
    assert get_tokenizer("char", normalize=False)("旗\U000e0067\U000e007f") == ["旗"]


@pytest.mark.parametrize("name", ["char", "jieba"])
def test_a_term_with_a_lone_surrogate_is_refused_by_its_index(name):
    # was a bare UnicodeEncodeError from deep inside the tokenizer (found by a break-it pass)
    from zheval.tokenizers import get_tokenizer

    with pytest.raises(ValueError, match=r"terms\[1\] is not valid text: .* lone surrogate"):
        get_tokenizer(name, terms=["北京", "\ud800b"]).tokenize("x")
    with pytest.raises(ValueError, match=r"terms\[0\] is not valid text"):
        zheval.compute_rouge(["北京"], [["北京"]], terms=["\udfff"])


@pytest.mark.parametrize("name", ["char", "jieba"])
@pytest.mark.parametrize("term, said, instead", [
    ('"快递柜"', "is a JSON string: read as a term, its quotes", "pass the term itself: '快递柜'"),
    ("['快递柜']", "is a Python list: read as a term, its brackets and quotes", "pass the term itself: '快递柜'"),
    ("[\"a\", 'b']", "is a Python list", "pass its items as terms: ['a', 'b']"),
    ('{"term": "快递柜"}', "is a JSON object", "pass the term itself: '快递柜'"),
])
def test_a_term_written_as_a_literal_is_refused_by_its_index(name, term, said, instead):
    """``terms=['"快递柜"']`` (a line of a JSON file passed as it is) or ``["['快递柜']"]`` (``str()`` of a list)
    were terms with their quotes and brackets, which never match a text: refused, naming the terms to pass."""
    with pytest.raises(ValueError) as err:
        get_tokenizer(name, terms=["北京", term])
    assert str(err.value).startswith(f"terms[1] {term!r} {said}") and str(err.value).endswith(instead), err.value
    with pytest.raises(ValueError, match=r"terms\[0\] .* would never match a text"):
        zheval.compute_rouge(["快递柜"], [["快递柜"]], terms=[term])
    assert get_tokenizer(name, terms=["[UNK]", "{name}", "'s", '"a" b'])("[UNK] 北京") is not None
