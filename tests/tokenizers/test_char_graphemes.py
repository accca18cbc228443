"""The char tokenizer's grapheme rule (issue 35 P13; CharTokenizer's docstring, "Graphemes"): a token never splits
a user-perceived character of symbols, tested against UAX #29's extended grapheme clusters as the ``regex`` module's
``\\X`` finds them. Before this rule a flag (two regional indicators, 🇨🇳) was two tokens while an emoji with a
skin-tone modifier (👍🏽) was one. The vectorised twin (zheval.tokenizers.char_ids) follows the same rule."""

from __future__ import annotations

import numpy as np
import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from zheval.tokenizers import get_tokenizer
from zheval.tokenizers.char_ids import char_token_ids, char_token_spans
from zheval.tokenizers.corpus import TokenIds

RAW = get_tokenizer("char", normalize=False)
TOK = get_tokenizer("char")

#: regional indicators, emoji, skin tones, combining marks, an enclosing keycap, Han, kana, Latin, digits,
#: punctuation and whitespace: every class the rule is about (no ZWJ: the documented exception)
ALPHABET = ["🇨", "🇳", "🇺", "🇸", "👍", "😀", "🏽", "🏻", "\u0301", "\u20e3", "猫", "か", "a", "Z", "1", ".", "!", "，",
            " ", "\ufe0f"]


def twin_tokens(text: str) -> list[str]:
    cp = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32) if text else np.zeros(0, np.uint32)
    _, starts, ends, _ = char_token_spans(cp, np.array([0, len(text)], dtype=np.int64), TokenIds())
    return [text[a:b] for a, b in zip(starts.tolist(), ends.tolist())]


@pytest.mark.parametrize("text, tokens", [
    ("🇨🇳", ["🇨🇳"]),
    ("🇨🇳🇺🇸", ["🇨🇳", "🇺🇸"]),
    ("🇨🇳🇺", ["🇨🇳", "🇺"]),  # paired from the start of the run, as GB12/GB13
    ("中国🇨🇳队", ["中", "国", "🇨🇳", "队"]),
    ("🇨\u0301🇳", ["🇨\u0301", "🇳"]),  # a mark between two indicators ends the pair (as \X)
    ("🇨🇳 🇺🇸", ["🇨🇳", "🇺🇸"]),
    ("👍🏽好", ["👍🏽", "好"]),
    ("1\u20e3", ["1\u20e3"]),
])
def test_flags_and_modifiers_are_one_token(text, tokens):
    assert RAW.tokenize_normalized(text) == tokens
    assert twin_tokens(text) == tokens
    clusters = [c for c in regex.findall(r"\X", text) if not c.isspace()]
    symbol_tokens = [t for t in tokens if not regex.match(r"[\p{Han}\p{Hiragana}]", t)]
    assert symbol_tokens == [c for c in clusters if not regex.match(r"[\p{Han}\p{Hiragana}]", c)]


@pytest.mark.parametrize("text", ["我爱🇨🇳中国", "🇨🇳🇺🇸", "🇨🇳🇺", "中国🇨🇳队", "🇨\u0301🇳", "🇨🇳 🇺🇸", "👍🏽好", "🇨 🇳",
                                  "🇨🇳🇺🇸🇯"])
def test_jieba_keeps_the_same_graphemes(text):
    """One grapheme rule for every tokenizer (issue 35): jieba's words never split a flag either -- its symbol tokens
    are the char tokenizer's (jieba cut 我爱🇨🇳中国 into 我 爱 🇨 🇳 中国, so 🇨🇳 vs 🇨🇦 shared half a flag)."""
    jieba = get_tokenizer("jieba", normalize=False)
    symbols = [t for t in jieba.tokenize_normalized(text) if not regex.match(r"[\p{Han}\p{Hiragana}]", t)]
    assert symbols == [t for t in RAW.tokenize_normalized(text) if not regex.match(r"[\p{Han}\p{Hiragana}]", t)]


def test_jieba_flags_do_not_score_half_a_match():
    import zheval

    assert zheval.compute_rouge(["🇨🇳"], [["🇨🇦"]], tokenizer="jieba", rouge_types=["rouge1"])["rouge1"] == 0.0


def check_against_x(text: str, tokenizer) -> None:
    seen = tokenizer.normalizer(text)
    tokens = tokenizer.tokenize_normalized(seen)
    # the token of each character position of the text the tokenizer saw (-1: in no token)
    owner = [-1] * len(seen)
    pos = 0
    for k, tok in enumerate(tokens):
        at = seen.index(tok, pos)
        for i in range(at, at + len(tok)):
            owner[i] = k
        pos = at + len(tok)
    start = 0
    for cluster in regex.findall(r"\X", seen):
        owners = {owner[i] for i in range(start, start + len(cluster))} - {-1}
        assert len(owners) <= 1, f"{seen!r}: the cluster {cluster!r} is split across tokens {tokens}"
        start += len(cluster)
    # a token that starts with a symbol (not Han/kana, not a letter/digit) is exactly one cluster, less the
    # whitespace and invisible characters in it, which are never in a token (\X attaches a mark to a space before it)
    # (an invisible variation selector joins the token before it, or is dropped where nothing precedes it)
    bare = lambda t: regex.sub(r"[\s\p{Cc}\p{Default_Ignorable_Code_Point}]", "", t)  # noqa: E731
    clusters = [bare(c) for c in regex.findall(r"\X", seen)]
    for tok in tokens:
        if not regex.match(r"[\p{Han}\p{Hiragana}\p{Katakana}\w]", tok):
            assert bare(tok) in clusters, f"{seen!r}: the symbol token {tok!r} is not one grapheme cluster of {clusters}"


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET), max_size=12).map("".join))
def test_no_token_splits_a_grapheme_cluster(text):
    for tokenizer in (RAW, TOK):
        check_against_x(text, tokenizer)
    # and the twin gives the regular expression's tokens, flags included
    seen = TOK.normalizer(text)
    assert twin_tokens(seen) == TOK.tokenize_normalized(seen)
    assert twin_tokens(text) == RAW.tokenize_normalized(text)


def test_twin_pairs_within_each_text_only():
    vocab = TokenIds()
    ids, offsets = char_token_ids(["🇨", "🇳🇺", "🇸"], vocab)
    words = list(vocab)
    assert [[words[i] for i in ids[offsets[k]:offsets[k + 1]]] for k in range(3)] == [["🇨"], ["🇳🇺"], ["🇸"]]
