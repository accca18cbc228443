"""The jieba-rs twin (zheval.tokenizers.jieba_rs) gives exactly jieba 0.42.1's words with HMM off: on every text of
the shared data, on random text over every character class (hypothesis), with and without protected terms
(terms already in the dictionary included: jieba adds their frequency to its total again), and through the corpus
path (tokenize_corpus with the twin == text by text with jieba)."""

from __future__ import annotations

import functools
import os

import jieba
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zheval.fast import usable_for
from zheval.tokenizers import get_tokenizer
from zheval.tokenizers.corpus import tokenize_corpus
from zheval.tokenizers.jieba_rs import build_jieba_rs, jieba_rs_segmenter
from zheval.tokenizers.jieba_words import JiebaTokenizer, jieba_cut

_DICT_WORDS = [line.split(" ")[0] for line in open(os.path.join(os.path.dirname(jieba.__file__), "dict.txt"),
                                                      encoding="utf-8").read().splitlines()[::97]]
#: Pieces of every class jieba treats differently: dictionary words, its block characters (ASCII letters, digits,
#: + # & . _ % -), whitespace of every kind, punctuation, Han beyond its block range (Extension A, U+9FD6-U+9FFF,
#: compatibility ideographs, astral), kana, Hangul, Latin with accents, marks, emoji, controls.
_PIECES = _DICT_WORDS + list("abcXYZ019+#&._%- \t\n\r\u3000\u00a0，。！？、,.!?;:()《》“”\u3400\u4db5\u9fd6\u9fff"
                             "\uf900\ufa0eあアいイ한국éüß\u0301\u20dd\ufe0f😀\x01\x85\u2028") + ["\U00020000", "\r\n"]

TERMS = ["酒店", "的", "北京市", "C++", "iOS 17", "app", "小黄鸭", "最弱"]
#: Terms that hold characters a sentence piece can end with (a mark, a closer, ".", an attached mark).
CUT_TERMS = ["好。再", "C++.", "的”", "北京\u0301", "app!", "小黄鸭"]


@functools.cache
def _tokenizers() -> tuple:
    """The tokenizers compared (built once: each one loads jieba's and jieba-rs's dictionaries on first use)."""
    return (JiebaTokenizer(), JiebaTokenizer(terms=TERMS), JiebaTokenizer(normalizer=get_tokenizer("none").normalizer))


@functools.cache
def _bare_jieba_rs():
    return build_jieba_rs(_tokenizers()[0].dictionary_content(), [])


@pytest.mark.parametrize("terms", [None, TERMS])
def test_shared_data_words_are_jieba_0421_words(terms, crosswoz_single, crosswoz_groups, csl_rows):
    texts = []
    for rows in (crosswoz_single, crosswoz_groups, csl_rows):
        for row in rows:
            texts += [v for k, v in row.items() if isinstance(v, str) and k != "id"] + list(row.get("responses", []))
    assert len(texts) > 6000  # every query, response, document and summary
    tok = JiebaTokenizer(terms=terms)
    seg = jieba_rs_segmenter(tok)
    for t in texts:
        norm = tok.normalize(t)
        assert seg(norm) == tok.tokenize_normalized(norm), t


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=0, max_size=25))
def test_random_text_of_every_class_gives_the_same_words(pieces):
    text = "".join(pieces)
    for tok in _tokenizers():
        norm = tok.normalize(text)
        assert jieba_rs_segmenter(tok)(norm) == tok.tokenize_normalized(norm)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=0, max_size=25))
def test_the_raw_segmenters_agree(pieces):
    # below the tokenizer's rules: the private jieba-rs instance cuts exactly as jieba 0.42.1's cut (HMM off)
    text = "".join(pieces)
    tok = _tokenizers()[0]
    jb = _bare_jieba_rs()
    assert jb.cut(text, False) == list(jieba_cut(tok._instance(), text, False))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES + list("。！？…；”’）」』】.!?;") + ["...", "。”", "！）"] + TERMS + CUT_TERMS),
                min_size=0, max_size=30),
       st.booleans(), st.sampled_from([None, tuple(TERMS), tuple(CUT_TERMS)]))
def test_pieces_said_to_tokenize_alone_do(pieces, hmm, terms):
    # the claim that lets _punct_sentences skip its check for jieba: where pieces_tokenize_alone says so, the
    # words of the pieces, in order, are the words of the whole line (for both HMM settings, with and without
    # terms -- terms that hold a character a piece ends with are never said to)
    from zheval.text.sentences import split_sentences

    tok = _terms_tokenizer(hmm, terms) if terms else _hmm_tokenizer() if hmm else _tokenizers()[0]
    for line in tok.normalize("".join(pieces)).split("\n"):
        parts = split_sentences(line, "punct")
        if tok.pieces_tokenize_alone(parts):
            words = [w for p in parts for w in tok.tokenize_normalized(p)]
            assert words == tok.tokenize_normalized(line), (line, parts)


@functools.cache
def _terms_tokenizer(hmm: bool, terms: tuple):
    return JiebaTokenizer(hmm=hmm, terms=list(terms))


def test_terms_holding_a_piece_end_are_never_said_to_tokenize_alone():
    for terms in (["好。再"], ["C++."], ["的”"], ["北京\u0301"], ["app!"]):
        assert not JiebaTokenizer(terms=terms).pieces_tokenize_alone(["好。", "再见"]), terms
    assert JiebaTokenizer(terms=TERMS).pieces_tokenize_alone(["好。", "再见"])


@functools.cache
def _hmm_tokenizer():
    return JiebaTokenizer(hmm=True)


def test_terms_already_in_the_dictionary_change_the_total_as_jieba_does():
    # "最弱" is cut differently when the total misses the frequency jieba adds again for a known term
    tok = JiebaTokenizer(terms=["的", "北京"])
    text = "所测水果中抗氧化活性最强的为花红李,最弱的为水晶梨"
    norm = tok.normalize(text)
    assert jieba_rs_segmenter(tok)(norm) == tok.tokenize_normalized(norm)


@pytest.mark.parametrize("split", ["punct", "newline"])
@pytest.mark.parametrize("terms", [None, TERMS])
def test_corpus_path_equals_text_by_text(split, terms):
    preds = ["今天北京的酒店很好。明天去地铁站!", "最弱的为水晶梨. 好.好", "", "3.5元.好的app小黄鸭"]
    refs = [["北京市的酒店不错", "地铁站。好"], ["最弱的。"], ["好"], ["小黄鸭app 3.5元"]]
    tok = get_tokenizer("jieba", terms=terms)
    assert usable_for("jieba_rs", tokenizer=tok)
    fast = tokenize_corpus(preds, refs, tok, split, normalize_all=True, segmenter=jieba_rs_segmenter(tok))
    slow = tokenize_corpus(preds, refs, tok, split)
    for a, b in zip(fast.predictions + [r for rs in fast.references for r in rs],
                    slow.predictions + [r for rs in slow.references for r in rs]):
        assert [fast.decode(s) for s in a.sentences] == [slow.decode(s) for s in b.sentences]


def test_only_the_bundled_dictionary_content_uses_it(tmp_path):
    import shutil

    same = tmp_path / "same.txt"
    shutil.copy(os.path.join(os.path.dirname(jieba.__file__), "dict.txt"), same)
    assert usable_for("jieba_rs", tokenizer=get_tokenizer("jieba", jieba_dict=str(same)))
    other = tmp_path / "other.txt"
    other.write_text("北京 3\n酒店 0\n", encoding="utf-8")
    assert not usable_for("jieba_rs", tokenizer=get_tokenizer("jieba", jieba_dict=str(other)))


def test_only_jieba_without_hmm_uses_it():
    assert usable_for("jieba_rs", tokenizer=get_tokenizer("jieba"))
    assert usable_for("jieba_rs", tokenizer=get_tokenizer("jieba", terms=["小黄鸭"]))
    assert not usable_for("jieba_rs", tokenizer=get_tokenizer("jieba", jieba_hmm=True))
    assert not usable_for("jieba_rs", tokenizer=get_tokenizer("char"))
    assert not usable_for("jieba_rs", tokenizer=get_tokenizer("llamafactory-jieba"))


def test_another_rjieba_version_turns_the_twin_off_and_says_so(monkeypatch, caplog):
    """The words are proven equal for one rjieba release (RJIEBA_VERSION): with any other installed, usable_for says
    no, a DEBUG line on zheval.fast names both versions, and the reference jieba gives the same numbers."""
    import zheval
    import zheval.tokenizers.jieba_rs as jieba_rs

    preds, refs = ["今天天气很好，我们去公园散步"], [["今天天气不错，适合去公园"]]
    with_twin = zheval.compute_rouge(preds, refs, tokenizer="jieba")
    monkeypatch.setattr(jieba_rs, "rjieba_version", lambda: "0.2.99")
    with caplog.at_level("DEBUG", logger="zheval.fast"):
        assert not usable_for("jieba_rs", tokenizer=get_tokenizer("jieba"))
    assert any("rjieba 0.2.99 is installed" in r.getMessage() and jieba_rs.RJIEBA_VERSION in r.getMessage()
               for r in caplog.records)
    assert zheval.compute_rouge(preds, refs, tokenizer="jieba") == with_twin  # the reference: the same words


def test_signature_still_names_jieba_0421():
    import zheval

    out = zheval.compute_rouge(["今天天气很好"], [["今天天气不错"]], tokenizer="jieba")
    assert "tok:jieba-0.42.1+dict." in out["signature"]


def test_bleu_and_rouge_on_the_twin_equal_python_jieba_tokens(crosswoz_groups):
    # BLEU tokenises through the twin too; a user callable running jieba 0.42.1 itself (no twin, no cache) is the
    # reference path
    import zheval

    preds = [g["responses"][0] for g in crosswoz_groups][:60]
    refs = [g["responses"][1:] or [g["query"]] for g in crosswoz_groups][:60]
    py = JiebaTokenizer()

    def python_jieba(text):
        return py.tokenize_normalized(py.normalize(text))

    for metric in (zheval.compute_bleu, zheval.compute_rouge):
        fast_out = metric(preds, refs, tokenizer="jieba")
        slow_out = metric(preds, refs, tokenizer=python_jieba)
        fast_out.pop("signature"), slow_out.pop("signature")
        assert fast_out == slow_out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=0, max_size=25))
def test_the_quick_mark_rule_equals_attach_marks(pieces):
    # marks_attached skips attach_marks on a text without a mark, space, invisible or regional indicator: the same
    # words either way
    from zheval.tokenizers.jieba_words import attach_marks, marks_attached

    text = "".join(pieces)
    words = list(jieba_cut(_tokenizers()[0]._instance(), text, False))
    assert marks_attached(text, words) == attach_marks(words)
