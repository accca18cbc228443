"""The ``none`` tokenizer (zheval.tokenizers.whitespace): pre-tokenised text split on whitespace only, each token
normalised on its own (normalisation never merges tokens), sentences kept."""

from zheval.tokenizers import get_tokenizer


def test_none_tokenizer_keeps_pretokenised_words():
    assert get_tokenizer("none")("今天 天气  很好") == ["今天", "天气", "很好"]


def test_none_tokenizer_normalisation_never_merges_tokens():
    tok = get_tokenizer("none", normalize="nfkc+zw+punct+space+lower")
    assert tok("今天 天气 很好") == ["今天", "天气", "很好"]
    assert tok("ＡＢ 好！") == ["ab", "好!"]  # each token normalised on its own
    assert tok.tokenize_sentences("今天 天气\n很好", "newline") == (("今天", "天气"), ("很好",))
