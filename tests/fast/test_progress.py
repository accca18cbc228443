"""The progress bar of long fast-twin computations (zheval.fast.progress): shown on stderr only when a computation
is expected to take over ~2 s and stderr is a terminal (or it is forced here); never a different number."""

from __future__ import annotations

import random

import numpy as np

import zheval.fast.progress as progress
from zheval.definitions.lcs import wlcs
from zheval.fast.ngrams import flatten_texts
from zheval.fast.wlcs import wlcs_pairs


def _long_pair():
    rng = random.Random(5)
    texts = [tuple(rng.randrange(4) for _ in range(n)) for n in (320, 310, 12)]
    return texts, flatten_texts(texts)


def test_a_long_rouge_w_pair_shows_a_bar_and_the_same_number(monkeypatch, capsys):
    texts, (tokens, offsets) = _long_pair()
    monkeypatch.setattr(progress, "progress_enabled", lambda: True)
    monkeypatch.setattr(progress, "SHOW_AFTER_SECONDS", 0.01)  # (the real threshold: 2 s, a 3,000-token pair)
    got = wlcs_pairs(tokens, offsets, np.array([0, 2]), np.array([1, 2]), 1.2)
    err = capsys.readouterr().err
    assert "rougeW weighted LCS" in err  # 99,200 reference cells, expected 0.02 s
    assert got.tolist() == [wlcs(texts[0], texts[1]), wlcs(texts[2], texts[2])]


def test_no_bar_when_short_or_not_a_terminal(monkeypatch, capsys):
    texts, (tokens, offsets) = _long_pair()
    monkeypatch.setattr(progress, "progress_enabled", lambda: True)
    wlcs_pairs(tokens, offsets, np.array([0]), np.array([1]), 1.2)  # 99,200 cells, 0.02 s expected: under 2 s
    assert capsys.readouterr().err == ""
    monkeypatch.undo()
    assert not progress.progress_enabled()  # pytest's captured stderr is not a terminal
    monkeypatch.setenv("ZHEVAL_PROGRESS", "0")
    assert not progress.progress_enabled()


def test_work_bar_threshold():
    assert isinstance(progress.work_bar(10, 0.1, "x"), progress._NoBar)  # 1 s expected: no bar
