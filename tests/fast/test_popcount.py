"""popcount64: the set-bit count the bit-parallel LCS twin needs, on numpy 2 (np.bitwise_count) and on numpy < 2
(the byte table) alike; the right value is Python's own ``bin(x).count("1")``."""

from __future__ import annotations

import numpy as np
import pytest

from zheval.fast import keys


def _words():
    rng = np.random.default_rng(7)
    edge = np.array([0, 1, 2**63, 2**64 - 1, 2**32 - 1, 0x5555555555555555], dtype=np.uint64)
    rand = rng.integers(0, 2**63, size=(300, 3), dtype=np.int64).astype(np.uint64) * np.uint64(2) + np.uint64(1)
    return edge, rand


@pytest.mark.parametrize("numpy_has_bitwise_count", [True, False])
def test_popcount64_equals_python_bin_count(monkeypatch, numpy_has_bitwise_count):
    if not numpy_has_bitwise_count:
        # what numpy 1.24-1.26 looks like: no np.bitwise_count, so the byte table runs
        monkeypatch.delattr(np, "bitwise_count", raising=False)
    elif not hasattr(np, "bitwise_count"):
        pytest.skip("this numpy has no bitwise_count (numpy < 2): the byte-table case covers it")
    for words in _words():
        got = keys.popcount64(words)
        assert got.shape == words.shape
        want = np.array([bin(int(x)).count("1") for x in words.ravel()]).reshape(words.shape)
        assert (got.astype(np.int64) == want).all()


def test_rouge_l_without_bitwise_count(monkeypatch):
    """ROUGE-L through the fast LCS twin with numpy's bitwise_count taken away (numpy < 2): LCS of 今天天气很好 and
    今天天气不错 is 4 (今天天气), P = R = 4/6, F = 2/3."""
    import zheval

    monkeypatch.delattr(np, "bitwise_count", raising=False)
    got = zheval.compute_rouge(["今天天气很好"] * 40, ["今天天气不错"] * 40, rouge_types=["rougeL"])
    assert got["rougeL"] == pytest.approx(2 / 3, abs=1e-15)
