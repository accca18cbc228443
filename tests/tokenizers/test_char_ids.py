"""zheval.tokenizers.char_ids: corpus-at-once char tokenisation gives exactly the tokens of CharTokenizer's regular expression."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from helpers import read_jsonl
from zheval.tokenizers.char_ids import char_token_ids
from zheval.fast import usable_for
from zheval.tokenizers.corpus import TokenIds, tokenize_corpus
from zheval.tokenizers import CharTokenizer, get_tokenizer

TOK = get_tokenizer("char")


def batch_tokens(pieces):
    vocab = TokenIds()
    ids, offsets = char_token_ids(pieces, vocab)
    words = list(vocab)
    return [[words[i] for i in ids[offsets[k]:offsets[k + 1]]] for k in range(len(pieces))]


def regex_tokens(pieces):
    return [TOK.tokenize_normalized(p) for p in pieces]


def test_hand_cases():
    pieces = ["今天天气很好。", "iOS 3.5GB 192.168.1.1", "a.b 1..5 .5 x.", "天\u0301\u0301x", "é\u0301a", "😀\U0001f3fb!",
              "", "   ", "𠮷野家", "ｱｲｳ한국어", "_foo_"]
    assert batch_tokens(pieces) == [
        ["今", "天", "天", "气", "很", "好", "。"],
        ["iOS", "3.5GB", "192.168.1.1"],
        ["a", ".", "b", "1", ".", ".", "5", ".", "5", "x", "."],
        ["天\u0301\u0301", "x"],  # marks stay with the character before them, a Han character too
        ["é\u0301a"],
        ["😀\U0001f3fb", "!"],
        [],
        [],
        ["𠮷", "野", "家"],
        ["ｱ", "ｲ", "ｳ", "한국어"],
        ["_", "foo", "_"],
    ]
    assert batch_tokens(pieces) == regex_tokens(pieces)


# every character after each class of base (Han, kana, a letter, a digit, punctuation, an emoji, a mark, an
# invisible character), at the start of a piece and after whitespace; and before marks
CONTEXTS = ["{c}", "a{c}b", "天{c}{c}", "1.{c}9", "{c}\u0301x", "x{c}.5", "!{c}\u0301", " {c}\ufe0f", "{c}\u200d{c}",
            "か{c}な", "1{c}2", "，{c}好", "😀{c}", "天\u0301{c}", "\u200b{c}x", "葛\U000e0100{c}", "a {c}\u20dd", "{c}\U000e0100"]


@pytest.mark.parametrize("template", CONTEXTS)
def test_every_bmp_character_in_context(template):
    pieces = [template.replace("{c}", chr(c)) for c in range(0x10000) if c != 0x0A]
    assert batch_tokens(pieces) == regex_tokens(pieces)


def test_every_attached_mark_after_every_class_of_base():
    from zheval.text.chars import ATTACHED_MARK_RANGES

    marks = [chr(cp) for a, b in ATTACHED_MARK_RANGES for cp in range(a, b + 1)]
    assert len(marks) > 2000 and "\U000e0100" in marks and "\u3099" in marks
    bases = ["天", "か", "a", "1", "，", "😀", "", " ", "\u200b", "3.", "𠮷"]
    pieces = [f"{base}{m}x{m}" for base in bases for m in marks]
    batch = batch_tokens(pieces)
    assert batch == regex_tokens(pieces)
    # by hand, for one base: the mark stays with the Han character
    assert batch[:2] == [["天\u0300", "x\u0300"], ["天\u0301", "x\u0301"]]


ALPHABET = list("天气好。，!?.0123456789abcXYZ_-é'") + [
    "\u0301", "\u20dd", "\ufe0f", "\u200d", "\u00ad", "\U0001f3fb", "\U000e0101", "\U000e0041", "😀", "𠮷", "\U00030000",
    " ", "\t", "\u3000", "\u00a0", "ア", "ｱ", "한", "\x00", "\x1f", "\x85", "\u2028", "\uff0e", "٣", "Ⅳ", "²", "½", "〇",
    "\ud800", "\uffff",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(ALPHABET), max_size=16), min_size=1, max_size=6))
def test_random_strings_of_tricky_characters(pieces):
    assert batch_tokens(pieces) == regex_tokens(pieces)


def test_astral_characters_are_classified_like_the_regex():
    pieces = ["".join(chr(c) for c in range(base, base + 300)) for base in (0x10000, 0x1F300, 0x20000, 0xE0000, 0xE0100)]
    assert batch_tokens(pieces) == regex_tokens(pieces)


def test_real_data_tokens_equal(csl_rows):
    texts = [r["document"] for r in csl_rows] + [r["summary"] for r in csl_rows]
    texts += [x for r in read_jsonl("crosswoz_single_turn.jsonl") for x in [r["query"], *r["responses"]]]
    pieces = [TOK.normalize(t) for t in texts]
    assert batch_tokens(pieces) == regex_tokens(pieces)


class _CachePathChar(CharTokenizer):
    """The same tokenizer, forced through the per-text token cache path of tokenize_corpus."""

    def char_ids_twin(self) -> bool:
        return False


@pytest.mark.parametrize("punct", ["keep", "drop"])
@pytest.mark.parametrize("split", ["newline", "punct"])
def test_tokenize_corpus_batch_path_equals_cache_path(csl_rows, split, punct):
    preds = [r["summary"] for r in csl_rows[:300]] + ["", "  \n ", "第一句。第二句！\n\n第三句", "！？", "…… \n。"]
    refs = [[r["document"].replace("。", "。\n")] for r in csl_rows[:300]] + [["好"], ["好。"], ["第一句。\n第三句？"],
                                                                          ["\u0301好"], ["「好。」再"]]
    tok = CharTokenizer(punct=punct)
    slow_tok = _CachePathChar(punct=punct)
    assert tok.char_ids_twin() and not slow_tok.char_ids_twin()
    fast = tokenize_corpus(preds, refs, tok, split, char_ids=usable_for("char_ids", tokenizer=tok))
    slow = tokenize_corpus(preds, refs, slow_tok, split, char_ids=usable_for("char_ids", tokenizer=slow_tok))

    def words(corpus, tt):
        return [corpus.decode(s) for s in tt.sentences], corpus.decode(tt.tokens)

    for a, b in zip(fast.predictions, slow.predictions):
        assert words(fast, a) == words(slow, b)
    for ra, rb in zip(fast.references, slow.references):
        assert [words(fast, a) for a in ra] == [words(slow, b) for b in rb]


def test_only_the_char_tokenizer_without_terms_takes_the_batch_path():
    assert get_tokenizer("char").char_ids_twin()
    assert get_tokenizer("char", punct="drop").char_ids_twin()
    assert not get_tokenizer("char", terms=["小黄鸭"]).char_ids_twin()
    assert not get_tokenizer("jieba").char_ids_twin()
    assert not get_tokenizer("none").char_ids_twin()


def test_chunked_passes_give_the_same_ids(monkeypatch):
    # the corpus is processed in chunks of whole pieces; tiny chunks (and a piece longer than a chunk) change nothing
    import zheval.tokenizers.char_ids as char_batch

    pieces = ["今天天气很好。", "", "iOS 3.5GB", "a" * 50, "天\u0301x", "", "😀\U0001f3fb!"] * 3
    whole = char_token_ids(pieces, TokenIds())
    monkeypatch.setattr(char_batch, "CHUNK_CHARS", 8)
    vocab = TokenIds()
    ids, offsets = char_token_ids(pieces, vocab)
    assert offsets.tolist() == whole[1].tolist() and len(offsets) == len(pieces) + 1
    words = list(vocab)
    assert [[words[i] for i in ids[offsets[k]:offsets[k + 1]]] for k in range(len(pieces))] == regex_tokens(pieces)
    assert char_token_ids([], TokenIds())[1].tolist() == [0]
