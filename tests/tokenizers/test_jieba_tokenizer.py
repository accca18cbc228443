"""The jieba tokenizer (zheval.tokenizers.jieba_words): hand-written cases, the HMM flag, its state -- dictionary
identified by content, protected terms, thread-safe quiet start-up, independence from jieba's process-wide state
(global add_word, replaced module expressions, force-split words), the same tokens in every process.

Independent references: a private ``jieba.Tokenizer`` built in the test (jieba 0.42.1's own ``cut``), hand-written
token lists, and the ``char`` tokenizer's term occurrences.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import jieba
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zheval.compute.rouge import compute_rouge
from zheval.tokenizers import JiebaTokenizer, get_tokenizer
from zheval.tokenizers.jieba_words import jieba_cut


def _write(path, text):
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


# ---------------------------------------------------------------------------------------------------------------
# dictionary content


def test_an_edited_user_dictionary_gives_new_tokens(tmp_path):
    path = tmp_path / "user_dict.txt"
    _write(path, "杭研 100\n大厦 100\n来到 100\n")
    first = get_tokenizer("jieba", jieba_dict=str(path))
    assert first("来到杭研大厦") == ["来到", "杭研", "大厦"]
    stat = os.stat(path)
    _write(path, "杭研大厦 100\n来到 100\n")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same mtime: the content, not the time, is the key
    second = get_tokenizer("jieba", jieba_dict=str(path))
    assert second is not first and second.dict_sha != first.dict_sha
    assert second("来到杭研大厦") == ["来到", "杭研大厦"]
    assert second.signature() != first.signature() and second.fingerprint != first.fingerprint
    # the numbers follow: rouge1 of 杭研大厦 against 来到杭研大厦, by hand: before 2 of 2 in 3 (F = 0.8),
    # after 1 of 1 in 2 (F = 2/3)
    _write(path, "杭研 100\n大厦 100\n来到 100\n")
    r_before = compute_rouge(["杭研大厦"], ["来到杭研大厦"], tokenizer="jieba", jieba_dict=str(path), rouge_types=["rouge1"])
    _write(path, "杭研大厦 100\n来到 100\n")
    r_after = compute_rouge(["杭研大厦"], ["来到杭研大厦"], tokenizer="jieba", jieba_dict=str(path), rouge_types=["rouge1"])
    assert r_before["rouge1"] == pytest.approx(0.8) and r_after["rouge1"] == pytest.approx(2 / 3)
    assert get_tokenizer("jieba", jieba_dict=str(path)) is get_tokenizer("jieba", jieba_dict=str(path))


def test_jieba_cache_file_is_named_by_content(tmp_path):
    path = tmp_path / "d.txt"
    _write(path, "小黄鸭 50\n")
    tok = get_tokenizer("jieba", jieba_dict=str(path))
    tok("小黄鸭")
    assert tok._instance().cache_file == f"jieba.zheval-{jieba.__version__}-{tok.dict_sha[:32]}.cache"


def test_a_dictionary_changed_before_first_use_is_an_error(tmp_path):
    path = tmp_path / "d.txt"
    _write(path, "小黄鸭 50\n")
    tok = JiebaTokenizer(dictionary=str(path))
    _write(path, "小黄 50\n")
    with pytest.raises(RuntimeError, match="changed since this tokenizer was built"):
        tok.tokenize_normalized("小黄鸭")  # (tok("小黄鸭") may be served from the cache of an equal dictionary)


def test_missing_dictionary_is_an_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="jieba dictionary not found"):
        get_tokenizer("jieba", jieba_dict=str(tmp_path / "nope.txt"))


# ---------------------------------------------------------------------------------------------------------------
# protected terms


def _reference_cut(pieces_and_terms, terms):
    """Hand-cut text: strings are given to a private jieba (HMM off, with the terms that neither start nor end with
    a letter/digit added), tuples are term tokens."""
    tk = jieba.Tokenizer()
    tk.initialize()
    for t in terms:
        if not (t[0].isascii() and t[0].isalnum()) and not (t[-1].isascii() and t[-1].isalnum()):
            tk.add_word(t)
    out = []
    for p in pieces_and_terms:
        if isinstance(p, tuple):
            out.append(p[0])
        else:
            out.extend(w for w in tk.cut(p, HMM=False) if w.strip())
    return out


TERMS_CASES = [
    # (text, terms, hand-cut text: tuples are term occurrences)
    ("升级iOS 17后更流畅", ["iOS 17"], ["升级", ("ios 17",), "后更流畅"]),
    ("用C++ 20写代码", ["C++ 20"], ["用", ("c++ 20",), "写代码"]),
    ("请打开小黄鸭APP查快递", ["小黄鸭APP"], ["请打开", ("小黄鸭app",), "查快递"]),
    ("小黄鸭APP在这里", ["小黄鸭APP"], [("小黄鸭app",), "在这里"]),  # at the start
    ("我在用小黄鸭APP", ["小黄鸭APP"], ["我在用", ("小黄鸭app",)]),  # at the end
    ("小黄鸭APP", ["小黄鸭APP"], [("小黄鸭app",)]),  # the whole text
    # overlapping terms: the longest that matches wins
    ("打开小黄鸭APP吧", ["小黄鸭", "小黄鸭APP", "黄鸭"], ["打开", ("小黄鸭app",), "吧"]),
    ("打开小黄鸭吧", ["小黄鸭", "小黄鸭APP", "黄鸭"], ["打开", ("小黄鸭",), "吧"]),
    # a term ending in a letter/digit only at a word boundary, never inside a word run (not even by jieba)
    ("APPLE和APP", ["APP"], ["apple", "和", ("app",)]),
    ("iOS 170版本", ["iOS 17"], ["ios", "170", "版本"]),
    ("小黄鸭APPLE", ["小黄鸭APP"], ["小黄鸭apple"]),
    ("XAPP小黄鸭", ["APP小黄鸭"], ["xapp小黄鸭"]),
]


@pytest.mark.parametrize("text, terms, cut", TERMS_CASES)
def test_jieba_terms_are_one_token_each(text, terms, cut):
    tok = get_tokenizer("jieba", terms=terms)
    assert tok(text) == _reference_cut(cut, [t.lower() for t in terms])
    # the same occurrences as the char tokenizer's term rule
    char_terms = [t for t in get_tokenizer("char", terms=terms)(text) if t in tok.terms]
    assert [t for t in tok(text) if t in tok.terms] == char_terms


def test_jieba_terms_hand_lists():
    assert get_tokenizer("jieba", terms=["iOS 17"])("升级iOS 17后") == ["升级", "ios 17", "后"]
    assert get_tokenizer("jieba", terms=["C++ 20"])("学C++ 20") == ["学", "c++ 20"]
    raw = get_tokenizer("jieba", terms=["iOS 17"], normalize=False)
    assert raw("升级iOS 17后") == ["升级", "iOS 17", "后"]
    assert get_tokenizer("jieba", terms=["iOS 17"], punct="drop")("iOS 17！") == ["ios 17"]


# ---------------------------------------------------------------------------------------------------------------
# jieba_cut is jieba's cut, whatever other code did to jieba's module-level expressions


@pytest.mark.parametrize("hmm", [False, True])
def test_jieba_cut_equals_jieba_tokenizer_cut(csl_rows, hmm):
    tk = jieba.Tokenizer()
    tk.initialize()
    texts = [r["summary"] for r in csl_rows[:400]] + ["iOS 17 更新\r\n好的  a-b 3.5% C++#", "", " "]
    for t in texts:
        assert list(jieba_cut(tk, t, hmm)) == list(tk.cut(t, HMM=hmm))


def test_replaced_module_expressions_do_not_change_our_tokens(monkeypatch):
    tok = JiebaTokenizer()
    text = "我 爱 北京 天安门 ios 17"
    before = tok(text)
    monkeypatch.setattr(jieba, "re_han_default", re.compile("([\u4E00-\u9FD5a-zA-Z0-9+#&\\._% ]+)", re.U))
    assert JiebaTokenizer()(text) == before
    assert get_tokenizer("jieba", terms=["x"])(text) == JiebaTokenizer(terms=["x"])(text)


_FORCE_SPLIT = r"""
import json, jieba
from zheval.tokenizers import get_tokenizer
tok = get_tokenizer("jieba", jieba_hmm=True)
text = "他来到了网易杭研大厦"
out = {"before": [tok(text), tok.signature(), tok.fingerprint]}
jieba.del_word("杭研")  # on the global jieba: adds to jieba.finalseg.Force_Split_Words, which HMM cuts read
out["after"] = [tok(text), tok.signature(), tok.fingerprint]
ref = jieba.Tokenizer(); ref.initialize()
out["reference"] = [w for w in ref.cut(text, HMM=True) if w.strip()]
print(json.dumps(out, ensure_ascii=False))
"""


def test_global_force_split_words_are_followed_under_hmm():
    proc = subprocess.run([sys.executable, "-c", _FORCE_SPLIT], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "杭研" in out["before"][0]
    assert out["after"][0] == out["reference"] and "杭研" not in out["after"][0]  # not the cached tokens
    assert out["after"][1] != out["before"][1] and "forcesplit" in out["after"][1]
    assert out["after"][2] != out["before"][2]


# ---------------------------------------------------------------------------------------------------------------
# start-up from several threads


_THREADS = r"""
import json, logging, sys, threading
import jieba
from zheval.tokenizers import JiebaTokenizer

records = []
class Keep(logging.Handler):
    def emit(self, record):
        records.append(record.getMessage())
jieba.default_logger.addHandler(Keep())
inits = []
original = jieba.Tokenizer.initialize
def counting(self, *a, **k):
    inits.append(1)
    return original(self, *a, **k)
jieba.Tokenizer.initialize = counting

tok = JiebaTokenizer(terms=["小黄鸭"])
single = JiebaTokenizer(terms=["小黄鸭"])
texts = ["我在小黄鸭APP上买了一本书", "他来到了网易杭研大厦", "今天天气很好"]
barrier = threading.Barrier(8)
results = [None] * 8
def work(i):
    barrier.wait()
    results[i] = [tok(t) for t in texts]
threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
for t in threads: t.start()
for t in threads: t.join()
level_after = jieba.default_logger.level
jieba.default_logger.debug("after start-up")  # the logger still works for everyone else
print(json.dumps({"results": results, "inits": len(inits), "records": records, "level": level_after,
                  "single": [single.tokenize_normalized(single.normalize(t)) for t in texts]}, ensure_ascii=False))
"""


def test_eight_threads_starting_a_fresh_tokenizer_print_nothing_and_agree():
    proc = subprocess.run([sys.executable, "-c", _THREADS], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert proc.stderr == "after start-up\n", f"start-up lines leaked: {proc.stderr!r}"
    assert out["records"] == ["after start-up"]
    assert out["inits"] == 1  # one initialisation of the shared instance, whatever the number of threads
    assert out["level"] == logging_debug()
    assert all(r == out["single"] for r in out["results"])  # every thread got the single-threaded tokens
    assert out["single"][0][:4] == ["我", "在", "小黄鸭", "app"]


def logging_debug():
    import logging

    return logging.DEBUG


# jieba's own cases, flags, isolation from the global jieba, determinism -----------------------------------------------


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
    from jieba import finalseg

    jieba.dt.initialize()
    force_split = set(finalseg.Force_Split_Words)
    prefixes = ["在", "在杭", "在杭研"]  # add_word also enters the word's prefixes (frequency 0) when absent
    had, total = {w: jieba.dt.FREQ[w] for w in prefixes if w in jieba.dt.FREQ}, jieba.dt.total
    jieba.add_word("在杭研")
    try:
        assert "在杭研" in jieba.lcut(text, HMM=False)  # the global instance changed...
        assert JiebaTokenizer()(text) == before  # ...ours did not
        assert tok(text) == before
    finally:
        # undo on the global jieba exactly: del_word would leave "在杭研" in finalseg.Force_Split_Words, which every
        # later HMM tokenizer of this process then names in its signature (+forcesplit.<sha>)
        for w in prefixes:
            jieba.dt.FREQ.pop(w, None)
        jieba.dt.FREQ.update(had)
        jieba.dt.total = total
        finalseg.Force_Split_Words.clear()
        finalseg.Force_Split_Words.update(force_split)


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


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("我爱北京天安门今天气很好abc 123，。！")), max_size=30))
def test_property_jieba_tokens_nonempty(text):
    tokens = get_tokenizer("jieba")(text)
    assert all(t and not t.isspace() for t in tokens)
    assert "".join(tokens) == "".join(get_tokenizer("char")(text))  # same characters, only grouped
