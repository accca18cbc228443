"""Tokenizers: hand-written expected tokens, isolation of jieba state, determinism, bad input, properties."""

import json
import pickle
import subprocess
import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zheval.text.chars import is_han
from zheval.tokenizers import CharTokenizer, JiebaTokenizer, cache_info, clear_cache, get_tokenizer

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
    assert len(CHAR_CASES) + len(TERMS_CASES) + len(JIEBA_CASES) >= 40


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


JIEBA_CASES = [
    ("我爱北京天安门", {}, ["我", "爱", "北京", "天安门"]),
    ("今 天 天 气 很 好", {}, ["今天天气", "很", "好"]),
    ("", {}, []),
    ("  ", {}, []),
]


@pytest.mark.parametrize("text, options, expected", JIEBA_CASES)
def test_jieba_cases(text, options, expected):
    assert get_tokenizer("jieba", **options)(text) == expected


def test_jieba_no_whitespace_tokens():
    tok = get_tokenizer("jieba", normalize=False)
    out = tok("我 爱\t北京\n天安门")
    assert out == ["我", "爱", "北京", "天安门"]


def test_jieba_hmm_flag_changes_output():
    # '杭研' is not in the dictionary: HMM joins it, the dictionary path splits it (ECOSYSTEM.md §jieba).
    off = get_tokenizer("jieba")("他来到了网易杭研大厦")
    on = get_tokenizer("jieba", jieba_hmm=True)("他来到了网易杭研大厦")
    assert "杭研" in on and "杭研" not in off
    assert get_tokenizer("jieba").fingerprint != get_tokenizer("jieba", jieba_hmm=True).fingerprint


def test_jieba_terms_private_and_not_leaking():
    import jieba

    text = "小黄鸭快递柜取件码"
    plain = JiebaTokenizer()
    with_terms = JiebaTokenizer(terms=["小黄鸭", "取件码"])
    assert "小黄鸭" in with_terms(text) and "取件码" in with_terms(text)
    assert "小黄鸭" not in plain(text)
    # the global dictionary never learned our terms
    jieba.dt.initialize()
    assert "小黄鸭" not in jieba.dt.FREQ
    assert "小黄鸭" not in jieba.lcut(text, HMM=False)


def test_global_add_word_never_changes_our_output():
    import jieba

    tok = JiebaTokenizer()
    text = "我在杭研大厦上班"
    before = tok(text)
    jieba.add_word("在杭研")
    try:
        assert "在杭研" in jieba.lcut(text, HMM=False)  # the global instance changed...
        assert JiebaTokenizer()(text) == before  # ...ours did not
        assert tok(text) == before
    finally:
        jieba.del_word("在杭研")


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


def test_fingerprint_covers_options():
    fps = {
        get_tokenizer("char").fingerprint,
        get_tokenizer("char", punct="drop").fingerprint,
        get_tokenizer("char", normalize=False).fingerprint,
        get_tokenizer("char", t2s=True).fingerprint,
        get_tokenizer("char", terms=["a"]).fingerprint,
        get_tokenizer("jieba").fingerprint,
        get_tokenizer("none").fingerprint,
    }
    assert len(fps) == 7
    assert get_tokenizer("char").fingerprint == CharTokenizer().fingerprint  # stable for equal config


_JIEBA_SCRIPT = """
import json, sys
from zheval.tokenizers import get_tokenizer
texts = json.loads(sys.argv[1])
print(json.dumps([get_tokenizer("jieba")(t) for t in texts] + [get_tokenizer("char")(t) for t in texts] + [get_tokenizer("jieba").fingerprint], ensure_ascii=False))
"""


def test_deterministic_across_processes_and_silent():
    texts = ["我爱北京天安门", "他来到了网易杭研大厦", "小黄鸭APP的快递柜在哪里？", "結婚的和尚未結婚的"]
    outs = []
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, "-c", _JIEBA_SCRIPT, json.dumps(texts, ensure_ascii=False)],
            capture_output=True, text=True, timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == "", f"something was printed to stderr: {proc.stderr!r}"
        outs.append(json.loads(proc.stdout))
    assert outs[0] == outs[1]
    assert outs[0][0] == JiebaTokenizer()(texts[0])


def test_rouge_score_tokenizer_interface():
    from rouge_score import rouge_scorer

    tok = get_tokenizer("char")
    scorer = rouge_scorer.RougeScorer(["rouge1"], tokenizer=tok)
    s = scorer.score("今天天气很好", "今天天气不错")
    # 4 of 6 characters shared: P = R = F = 4/6
    assert s["rouge1"].fmeasure == pytest.approx(4 / 6)
    assert tok.tokenize("你好") == tok("你好") == ["你", "好"]


def test_user_callable_and_object():
    tok = get_tokenizer(lambda s: s.split("|"))
    assert tok("a|b| |c") == ["a", "b", "c"]  # empty/whitespace tokens removed

    class Obj:
        def tokenize(self, text):
            return list(text)

    assert get_tokenizer(Obj())("你好") == ["你", "好"]
    assert get_tokenizer(Obj()).signature().startswith("custom:")


def test_none_tokenizer_keeps_pretokenised_words():
    assert get_tokenizer("none")("今天 天气  很好") == ["今天", "天气", "很好"]


@pytest.mark.parametrize("bad", [None, 3, b"bytes", ["list"]])
def test_non_str_raises_typeerror_naming_type(bad):
    with pytest.raises(TypeError, match=type(bad).__name__):
        get_tokenizer("char")(bad)
    with pytest.raises(TypeError, match=type(bad).__name__):
        get_tokenizer("jieba")(bad)


def test_unknown_names_and_options():
    with pytest.raises(ValueError, match="char.*jieba.*none"):
        get_tokenizer("bpe")
    with pytest.raises(ValueError, match="keep"):
        get_tokenizer("char", punct="maybe")
    with pytest.raises(ValueError, match="jieba_hmm"):
        get_tokenizer("char", jieba_hmm=True)
    with pytest.raises(ValueError, match="valid steps"):
        get_tokenizer("char", normalize="nfkc+nope")
    with pytest.raises(TypeError):
        get_tokenizer("char", terms="小黄鸭")
    with pytest.raises(TypeError, match=r"terms\[1\]"):
        get_tokenizer("char", terms=["a", None])
    with pytest.raises(ValueError, match=r"terms\[0\]"):
        get_tokenizer("char", terms=[" "])
    with pytest.raises(TypeError):
        get_tokenizer(None)


def test_pickle_roundtrip_for_workers():
    for tok in (get_tokenizer("char", terms=["小黄鸭"]), JiebaTokenizer(terms=["取件码"])):
        tok("小黄鸭取件码")
        clone = pickle.loads(pickle.dumps(tok))
        assert clone("小黄鸭取件码") == tok("小黄鸭取件码")
        assert clone.fingerprint == tok.fingerprint
    assert len(pickle.dumps(JiebaTokenizer())) < 10_000  # never ships the jieba dictionary


def test_cache_is_bounded_and_clearable():
    clear_cache()
    tok = get_tokenizer("char")
    tok("缓存测试")
    tok("缓存测试")
    info = cache_info()
    assert info["hits"] >= 1 and info["size"] >= 1 and info["maxsize"] > 0
    out = tok("缓存测试")
    out.append("mutated")
    assert tok("缓存测试") == ["缓", "存", "测", "试"]  # callers get a fresh list
    clear_cache()
    assert cache_info()["size"] == 0


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


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("我爱北京天安门今天气很好abc 123，。！")), max_size=30))
def test_property_jieba_tokens_nonempty(text):
    tokens = get_tokenizer("jieba")(text)
    assert all(t and not t.isspace() for t in tokens)
    assert "".join(tokens) == "".join(get_tokenizer("char")(text))  # same characters, only grouped


# -- fixes from the break-it review: each kind, with hand-written expected values ---------------------------------
def test_none_tokenizer_normalisation_never_merges_tokens():
    tok = get_tokenizer("none", normalize="nfkc+zw+punct+space+lower")
    assert tok("今天 天气 很好") == ["今天", "天气", "很好"]
    assert tok("ＡＢ 好！") == ["ab", "好!"]  # each token normalised on its own
    assert tok.tokenize_sentences("今天 天气\n很好", "newline") == (("今天", "天气"), ("很好",))


def test_hangul_words_keep_their_spaces_and_kana_is_per_character():
    assert get_tokenizer("char")("나는 학생 입니다") == ["나는", "학생", "입니다"]
    assert get_tokenizer("char")("すし を たべる") == ["す", "し", "を", "た", "べ", "る"]
    assert get_tokenizer("char")("ひらがなカタカナ") == list("ひらがなカタカナ")


def test_control_and_tag_characters_are_never_tokens():
    assert get_tokenizer("char", normalize=False)("好\x00的\x1b\x7f") == ["好", "的"]
    assert get_tokenizer("char", normalize=False)("旗\U000e0067\U000e007f") == ["旗"]


@pytest.mark.parametrize("flag", ["t2s", "jieba_hmm"])
def test_boolean_options_are_type_checked(flag):
    with pytest.raises(TypeError, match=flag):
        get_tokenizer("jieba", **{flag: "yes"})
