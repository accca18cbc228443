"""The compiled twins (zheval.fast.compiled, numba: the ``fast`` extra) as the library uses them: the decision
(work size and cache state, ``ZHEVAL_COMPILED``), the on-disk cache marker and ``warmup``, and whole ROUGE / BLEU
computations with the compiled twins forced, equal to the per-item references -- including long documents.
Each test skips, saying so, without numba; the table test (tests/fast/test_fast_twins.py) checks each twin."""

from __future__ import annotations

import importlib.util
import random

import numpy as np
import pytest

import zheval
import zheval.fast as fast
from zheval.definitions import bleu as ref_bleu
from zheval.definitions import rouge as ref_rouge
from zheval.definitions.lcs import lcs_length, wlcs
from zheval.fast.index import CorpusLayout
from zheval.tokenizers import get_tokenizer
from zheval.tokenizers.corpus import tokenize_corpus

pytestmark = pytest.mark.skipif(importlib.util.find_spec("numba") is None,
                                reason="numba is not installed (pip install 'zheval[fast]'): no compiled twins")


@pytest.fixture
def compiled(monkeypatch, tmp_path):
    """zheval.fast.compiled with its process state restored afterwards and the marker in a temporary folder."""
    import zheval.fast.compiled as mod

    monkeypatch.setenv("ZHEVAL_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("ZHEVAL_COMPILED", raising=False)
    before = dict(mod._LOADED)
    mod._LOADED.clear()
    yield mod
    mod._LOADED.clear()
    mod._LOADED.update(before)


def test_the_decision_follows_work_size_and_cache_state(compiled, monkeypatch):
    small, medium, large = compiled.WARM_SECONDS / 2, compiled.WARM_SECONDS * 2, compiled.COLD_SECONDS * 2
    assert compiled.cache_state() == "cold"  # no marker in the fresh cache folder
    assert not fast.usable_for("compiled", numpy_seconds=small)
    assert not fast.usable_for("compiled", numpy_seconds=medium)  # never a first compile inside a short job
    assert fast.usable_for("compiled", numpy_seconds=large)  # a long job pays for it
    info = compiled.warmup()
    assert info["state_before"] == "cold" and compiled.cache_state() == "loaded"
    assert fast.usable_for("compiled", numpy_seconds=0.0)  # loaded: always
    compiled._LOADED.clear()  # as a new process on this machine
    assert compiled.cache_state() == "warm"
    assert not fast.usable_for("compiled", numpy_seconds=small)  # loading numba would cost more than it saves
    assert fast.usable_for("compiled", numpy_seconds=medium)
    monkeypatch.setenv("ZHEVAL_COMPILED", "0")
    assert compiled.cache_state() == "off" and not fast.usable_for("compiled", numpy_seconds=large)
    monkeypatch.setenv("ZHEVAL_COMPILED", "1")
    assert fast.usable_for("compiled", numpy_seconds=0.0)


def test_a_removed_or_changed_cache_is_cold_again(compiled):
    compiled.warmup()
    compiled._LOADED.clear()
    assert compiled.cache_state() == "warm"
    marker = compiled.marker_path()
    data = marker.read_text(encoding="utf-8")
    marker.write_text(data.replace('"index_files": ["', '"index_files": ["/nonexistent/'), encoding="utf-8")
    assert compiled.cache_state() == "cold"  # numba's files are gone: a compile would happen
    marker.write_text(data.replace('"source_stat": [', '"source_stat": [1, '), encoding="utf-8")
    assert compiled.cache_state() == "cold"  # kernels.py changed since the compile


def test_after_warmup_scoring_compiles_no_new_signature(compiled, monkeypatch):
    # warmup runs each kernel on the dtypes the library passes (int32 ids and positions of the char token pass and
    # the term merge, int64 elsewhere): scoring afterwards adds no signature, so nothing compiles inside a job
    compiled.warmup()
    mod = compiled.load_kernels()
    before = {k: len(getattr(mod, k).signatures) for k in compiled.KERNELS}
    monkeypatch.setenv("ZHEVAL_COMPILED", "1")
    preds, refs = _items(17, alphabet="ab好的。地铁站酒店 ")
    for kw in ({}, {"terms": ["地铁站", "酒店"]}):
        zheval.score(preds, refs, rouge_types=["rouge1", "rouge2", "rougeL", "rougeW", "rougeSU4"], **kw)
    assert {k: len(getattr(mod, k).signatures) for k in compiled.KERNELS} == before


def _items(seed: int, n: int = 80, alphabet: str = "abc好的。\n", longest: int = 90):
    """Random items (an empty prediction may occur; references hold at least one token: compute_* refuse empty
    ones)."""
    rng = random.Random(seed)
    text = lambda lo: "".join(rng.choice(alphabet) for _ in range(rng.randint(lo, longest)))  # noqa: E731
    return [text(0) for _ in range(n)], [[text(1) + "好" for _ in range(rng.randint(1, 4))] for _ in range(n)]


TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"]


@pytest.mark.parametrize("multi_ref", ref_rouge.MULTI_REF_MODES)
def test_compiled_corpus_rouge_equals_the_per_item_reference(compiled, monkeypatch, multi_ref):
    from zheval.fast.rouge import corpus_rouge_scores

    monkeypatch.setenv("ZHEVAL_COMPILED", "1")
    preds, refs = _items(61)
    corpus = tokenize_corpus(preds, refs, get_tokenizer("char"), "newline")
    got = corpus_rouge_scores(corpus, TYPES, multi_ref, rouge_w_weight=1.5)
    assert compiled.cache_state() == "loaded"
    scorer = ref_rouge.make_item_scorer(TYPES, multi_ref, rouge_w_weight=1.5)
    want = [scorer(p.sentences, [r.sentences for r in rs]) for p, rs in zip(corpus.predictions, corpus.references)]
    for t in TYPES:
        assert [tuple(x) for x in zip(*(a.tolist() for a in got[t]))] == [tuple(w[t]) for w in want], t


def test_compiled_bleu_statistics_equal_the_reference(compiled, monkeypatch):
    from zheval.fast.bleu import layout_stats

    monkeypatch.setenv("ZHEVAL_COMPILED", "1")
    preds, refs = _items(67)
    corpus = tokenize_corpus(preds, refs, get_tokenizer("char"), "newline")
    layout = CorpusLayout.from_corpus(corpus)
    hyps = [p.tokens for p in corpus.predictions]
    ref_tokens = [[r.tokens for r in rs] for rs in corpus.references]
    for order in (1, 4):
        want = np.array([ref_bleu.item_stats(h, r, order) for h, r in zip(hyps, ref_tokens)])
        stats, pair_hits = layout_stats(layout, order, pair_orders=2)
        assert np.array_equal(stats, want)
        pairs = [(h, r) for h, rs in zip(hyps, ref_tokens) for r in rs]
        for n in range(1, min(2, order) + 1):
            assert pair_hits[:, n - 1].tolist() == [
                ref_rouge.clipped_overlap(ref_rouge.ngram_counts(h, n), ref_rouge.ngram_counts(r, n)) for h, r in pairs]


def test_compute_and_score_equal_with_and_without_compiled_twins(compiled, monkeypatch):
    preds, refs = _items(71, n=120)
    monkeypatch.setenv("ZHEVAL_COMPILED", "0")
    plain = (zheval.compute_rouge(preds, refs, rouge_types=TYPES, use_aggregator=False),
             zheval.compute_bleu(preds, refs), zheval.score(preds, refs))
    monkeypatch.setenv("ZHEVAL_COMPILED", "1")
    fast_ = (zheval.compute_rouge(preds, refs, rouge_types=TYPES, use_aggregator=False),
             zheval.compute_bleu(preds, refs), zheval.score(preds, refs))
    assert repr(fast_) == repr(plain)


def _long_pair(seed: int, n: int, alphabet: str):
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(n)) for _ in range(2)]


def test_long_documents_rouge_l_and_w(compiled, monkeypatch):
    """A 30,000-character random pair (469 words of bit-parallel LCS) against the bit-parallel definition, and
    a 1,500-character pair's ROUGE-W against the pure-Python WLCS (every cell)."""
    monkeypatch.setenv("ZHEVAL_COMPILED", "1")
    tok = get_tokenizer("char")
    a, b = _long_pair(73, 30_000, "的一是在不了有和人这中大为上个国我以要他")
    out = zheval.compute_rouge([a], [[b]], rouge_types=["rouge1", "rouge2", "rougeL"], return_precision_recall=True)
    ta, tb = tok(a), tok(b)
    lcs = lcs_length(ta, tb)
    assert out["rougeL_precision"] == lcs / len(ta) and out["rougeL_recall"] == lcs / len(tb)
    hits1 = ref_rouge.clipped_overlap(ref_rouge.ngram_counts(ta, 1), ref_rouge.ngram_counts(tb, 1))
    assert out["rouge1_precision"] == hits1 / len(ta)
    a, b = _long_pair(79, 1_500, "的一是在不了有和人")
    ta, tb = tok(a), tok(b)
    w = zheval.compute_rouge([a], [[b]], rouge_types=["rougeW"], return_precision_recall=True)
    assert w["rougeW_recall"] == (wlcs(tb, ta) / len(tb) ** 1.2) ** (1 / 1.2)


def test_zheval_warmup_command(compiled):
    import json

    from typer.testing import CliRunner

    from zheval.cli import app

    res = CliRunner().invoke(app, ["warmup", "--format", "json"])
    assert res.exit_code == 0, res.output
    info = json.loads(res.output)
    assert info["state_before"] == "cold" and set(info["kernels"]) == set(compiled.KERNELS)  # a fresh marker folder
    compiled._LOADED.clear()
    res = CliRunner().invoke(app, ["warmup"])
    assert res.exit_code == 0 and f"{len(compiled.KERNELS)} kernels loaded" in res.output and "cache was warm" in res.output


def test_the_compiled_token_pass_is_asked_by_size(compiled, monkeypatch):
    preds, refs = ["今天天气很好"] * 3, [["今天天气不错"]] * 3
    assert not fast.usable_for("compiled_tokens", predictions=preds, references=refs)  # tiny: numpy
    monkeypatch.setenv("ZHEVAL_COMPILED", "1")
    assert fast.usable_for("compiled_tokens", predictions=preds, references=refs)
    out = zheval.compute_rouge(preds, refs, use_aggregator=False)  # through the compiled pass, same as numpy
    monkeypatch.setenv("ZHEVAL_COMPILED", "0")
    assert out == zheval.compute_rouge(preds, refs, use_aggregator=False)
