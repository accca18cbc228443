"""zheval.fast.lcs.lcs_length_pairs (many LCS lengths at once, multi-word bit-parallel) equals the per-pair
zheval.definitions.lcs.lcs_length exactly, across word-size limits and text lengths around the 64-bit word."""

import random

import pytest

import zheval.fast.ngrams as ngrams


def _random_texts(rnd, n_texts, vocab, max_len):
    return [tuple(rnd.randrange(vocab) for _ in range(rnd.randint(0, max_len))) for _ in range(n_texts)]


@pytest.mark.parametrize("max_words", [1, 2, 4])
def test_lcs_length_pairs_equal_python_bit_parallel(max_words):
    from zheval.definitions.lcs import lcs_length
    from zheval.fast.lcs import lcs_length_pairs

    for trial in range(120):
        rnd = random.Random(1000 + trial)
        texts = _random_texts(rnd, rnd.randint(1, 6), rnd.randint(1, 5), rnd.choice([5, 64, 65, 140, 300]))
        col = [rnd.randrange(len(texts)) for _ in range(rnd.randint(0, 15))]
        row = [rnd.randrange(len(texts)) for _ in col]
        got = lcs_length_pairs(*ngrams.flatten_texts(texts), col, row, max_words=max_words).tolist()
        assert got == [lcs_length(texts[a], texts[b]) for a, b in zip(col, row)]
