"""zheval.tokenizers.sacrebleu_zh (the tool tokenizer of the sacrebleu-zh preset) gives exactly the tokens of
sacrebleu 2.6.0's ``tokenize="zh"``: its "Chinese" code points on the BMP and a supplementary sample, the documented
quirks of its ranges, adversarial strings, every BMP character in context, generated strings, and the shared data."""

from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from zheval.tokenizers.sacrebleu_zh import (
    SACREBLEU_ZH_CODEPOINT_RANGES,
    _sacrebleu_zh_tokenize_reference,
    is_sacrebleu_zh_char,
    sacrebleu_zh_tokenize,
)

_sacre_is_chinese = TokenizerZh._is_chinese_char.__wrapped__  # the raw predicate, without its lru_cache
_sacre_zh = TokenizerZh()


def sacre_tokens(text):
    # what sacrebleu's BLEU(tokenize="zh") n-gram extraction sees: tokenizer(sent.rstrip()).split()
    return _sacre_zh(text.rstrip()).split()


def test_chinese_code_points_equal_sacrebleu_on_the_bmp_and_a_supplementary_sample():
    bmp = [cp for cp in range(0x10000) if _sacre_is_chinese(chr(cp)) != is_sacrebleu_zh_char(chr(cp))]
    assert bmp == []
    sample = list(range(0x10000, 0x110000, 257)) + [0x20000, 0x2A6D6, 0x2F800, 0x2FA1D, 0x20BB7, 0x1F600, 0x10FFFF]
    assert [cp for cp in sample if _sacre_is_chinese(chr(cp)) != is_sacrebleu_zh_char(chr(cp))] == []


def test_documented_quirks_of_the_sacrebleu_zh_ranges():
    assert SACREBLEU_ZH_CODEPOINT_RANGES[0] == (0x2001, 0x2A6D)  # from the malformed '\u20000'..'\u2a6d6'
    # General punctuation / symbols are "Chinese" (split into single tokens) ...
    for ch in "“”‘’—…※℃①→∑■☆":
        assert is_sacrebleu_zh_char(ch), ch
    # ... CJK Extension B and other supplementary characters are not, nor are the newest BMP ideographs, kana,
    # Hangul syllables, the middle dot, or ASCII
    for ch in ["\U00020000", "\U00020BB7", "\U0002A6D6", "\U0001F600", "\u9fcf", "\u9fec", "あ", "カ", "한", "·", "a", "1"]:
        assert not is_sacrebleu_zh_char(ch), repr(ch)
    # fullwidth forms are Chinese, so fullwidth digits are one token each, ASCII digits one run
    assert sacrebleu_zh_tokenize("２０２４年2024") == ["２", "０", "２", "４", "年", "2024"]
    assert sacre_tokens("２０２４年2024") == ["２", "０", "２", "４", "年", "2024"]


ADVERSARIAL = [
    "",
    "   ",
    "  前后空格\u3000",
    "&quot;引号&quot; &amp; <skipped> a-\nb",  # zh does NOT run 13a's unescaping / <skipped> removal
    "B-19型号, 2002-2005年; 3.14和1,000.5元",
    "价格是100-200元.真的吗?是的!",
    "Ext-B字𠮷与𠀀混排𠮷𠮷abc",
    "カタカナとひらがな混在テスト",
    "한국어 문장입니다",
    "零宽\u200b空格\u2002全角\u3000空格",
    "阿尔伯特·爱因斯坦说：“想象力比知识更重要……”",
    "emoji😀😀表情👍🏻",
    "math ∑x² ≥ 0 → ∞ ①②③",
    "don't stop 'quoted' \"double\"",
    "{curly}[square](round)<angle>|pipe|~tilde^caret_underscore`",
    "网址 https://example.com/a_b?c=d&e=f#frag",
    "\t制表\t符\n换行\r\n回车",
]


def test_sacrebleu_zh_tokens_on_adversarial_strings():
    for text in ADVERSARIAL:
        assert sacrebleu_zh_tokenize(text) == sacre_tokens(text), repr(text)


def test_sacrebleu_zh_tokens_on_every_bmp_character_in_context():
    # each BMP character between ASCII letters, digits, dots, dashes and Chinese, in chunks of 64
    cps = [cp for cp in range(0x10000) if not 0xD800 <= cp <= 0xDFFF]
    for start in range(0, len(cps), 64):
        text = "".join(f"a{chr(cp)}1.{chr(cp)}-" for cp in cps[start:start + 64])
        assert sacrebleu_zh_tokenize(text) == sacre_tokens(text), hex(cps[start])


CONTEXT = list("09ab.,-  中（)&") + ["\u3000", "\n"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CONTEXT), max_size=25).map("".join))
def test_sacrebleu_zh_context_rules_on_generated_strings(text):
    # '.', ',' after/before digits, '-' after digits, runs of spaces: the fast path equals sacrebleu
    assert sacrebleu_zh_tokenize(text) == sacre_tokens(text) == _sacrebleu_zh_tokenize_reference(text)


MIXED = list("中文字，。！？、“”…—·ab AZ09.,-'&;/:()<>_~\u3000\u200b\u2002\t") + ["𠮷", "😀", "あ", "한", "\u9fcf"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(MIXED), max_size=30).map("".join))
def test_sacrebleu_zh_tokens_on_generated_strings(text):
    assert sacrebleu_zh_tokenize(text) == sacre_tokens(text)


def test_sacrebleu_zh_tokens_on_shared_data(crosswoz_groups, csl_rows, crosswoz_single):
    # every text of the group file and every CSL title; the first 300 abstracts and single-turn pairs (sacrebleu's
    # own tokenizer is slow; the corpus tests of tests/presets/test_bleu_presets.py cover the rest through the BLEU
    # numbers)
    texts = []
    for g in crosswoz_groups + crosswoz_single[:300]:
        texts.append(g["query"])
        texts.extend(g["responses"])
    texts += [r["summary"] for r in csl_rows] + [r["document"] for r in csl_rows[:300]]
    assert len(texts) == 85 + 342 + 600 + 1000 + 300
    bad = [t for t in texts if sacrebleu_zh_tokenize(t) != sacre_tokens(t)]
    assert bad == []
