"""zheval.definitions.bleu against independent implementations on real data: sacrebleu 2.6.0 (``tokenize="none"`` on our tokens
joined by spaces) and nltk 3.10 (``SmoothingFunction().method3``).

Data (../shared/data, read at run time):
* crosswoz_same_query_groups.jsonl: each reply of a group in turn is the prediction, the other replies of the group
  are its references (2-4 per item, ragged);
* csl_ts_test.jsonl: a lead baseline (the abstract's first characters, length varied around the title's length)
  as prediction, the real title as the single reference.
"""

import math
import warnings

import pytest
from sacrebleu.metrics import BLEU

from zheval.definitions.bleu import corpus_stats
from zheval.definitions.bleu_score import SMOOTH_METHODS, corpus_score, score_stats, sentence_scores
from zheval.tokenizers import get_tokenizer
from helpers import crosswoz_items, csl_items

SACRE_METHODS = [m for m in SMOOTH_METHODS if m != "nltk3"]


@pytest.fixture(scope="module")
def datasets(crosswoz_groups, csl_rows):
    tok = get_tokenizer("char")
    out = {}
    for name, (preds, refs) in {
        "crosswoz_groups": crosswoz_items(crosswoz_groups),
        "csl_ts_test": csl_items(csl_rows),
    }.items():
        hyps = [tok(p) for p in preds]
        refs_t = [[tok(r) for r in rs] for rs in refs]
        out[name] = (hyps, refs_t)
    return out


def to_streams(refs_tokens):
    """sacrebleu's layout: one stream per reference slot; items with fewer references get ``None`` (sacrebleu
    2.6.0 ``Metric._cache_references`` drops ``None`` entries per segment; an empty string would count as a
    zero-length reference, and streams of unequal length would be truncated by ``zip``)."""
    width = max(len(rs) for rs in refs_tokens)
    return [[" ".join(rs[k]) if k < len(rs) else None for rs in refs_tokens] for k in range(width)]


@pytest.mark.parametrize("name", ["crosswoz_groups", "csl_ts_test"])
def test_data_shape(datasets, name):
    hyps, refs = datasets[name]
    counts = {len(r) for r in refs}
    if name == "crosswoz_groups":
        assert len(hyps) == 342 and counts == {2, 3, 4}  # ragged
    else:
        assert len(hyps) == 1000 and counts == {1}
    # tokens are safe to join with spaces (sacrebleu's "none" tokenizer re-splits on whitespace)
    assert all(t and not any(c.isspace() for c in t) for h in hyps for t in h)


@pytest.mark.parametrize("name", ["crosswoz_groups", "csl_ts_test"])
@pytest.mark.parametrize("smooth_method", SACRE_METHODS)
@pytest.mark.parametrize("effective_order", [False, True])
def test_corpus_bleu_equals_sacrebleu_exactly(datasets, name, smooth_method, effective_order):
    hyps, refs = datasets[name]
    stats = corpus_stats(hyps, refs)
    ours = corpus_score(stats, smooth_method=smooth_method, effective_order=effective_order)
    sacre = BLEU(tokenize="none", force=True, smooth_method=smooth_method, effective_order=effective_order)
    theirs = sacre.corpus_score([" ".join(h) for h in hyps], to_streams(refs))
    # sacrebleu's add-k adds k (default 1) in place to the counts and totals of orders >= 2 it reports
    k = [0, 1, 1, 1] if smooth_method == "add-k" else [0, 0, 0, 0]
    assert [c + d for c, d in zip(ours.counts, k)] == list(theirs.counts)
    assert [t + d for t, d in zip(ours.totals, k)] == list(theirs.totals)
    assert (ours.hyp_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert ours.brevity_penalty == theirs.bp
    assert 0.05 < ours.score < 1.0  # a real, non-degenerate value
    assert abs(ours.score - theirs.score / 100) == 0.0
    assert [p * 100 for p in ours.precisions] == pytest.approx(theirs.precisions, rel=1e-14)


@pytest.mark.parametrize("name", ["crosswoz_groups", "csl_ts_test"])
@pytest.mark.parametrize("smooth_method", SACRE_METHODS)
def test_sentence_bleu_equals_sacrebleu_exactly(datasets, name, smooth_method):
    hyps, refs = datasets[name]
    per_item = sentence_scores(corpus_stats(hyps, refs), smooth_method=smooth_method, effective_order=True)
    sacre = BLEU(tokenize="none", force=True, smooth_method=smooth_method, effective_order=True)
    max_diff = 0.0
    for h, rs, ours in zip(hyps, refs, per_item):
        theirs = sacre.sentence_score(" ".join(h), [" ".join(r) for r in rs])
        if theirs.score > 100:  # float rounding of a perfect match: we clamp to 1.0
            assert ours.score == 1.0 and theirs.score / 100 - 1.0 < 1e-15
            continue
        max_diff = max(max_diff, abs(ours.score - theirs.score / 100))
    assert max_diff == 0.0


def test_int_id_tokens_give_the_same_sacrebleu_number(datasets):
    hyps, refs = datasets["crosswoz_groups"]
    vocab = {}
    ids = lambda seq: [vocab.setdefault(t, len(vocab)) for t in seq]  # noqa: E731
    stats_ids = corpus_stats([ids(h) for h in hyps], [[ids(r) for r in rs] for rs in refs])
    theirs = BLEU(tokenize="none", force=True).corpus_score([" ".join(h) for h in hyps], to_streams(refs))
    assert corpus_score(stats_ids).score == theirs.score / 100


# ------------------------------------------------------------------------------------------------------------------
# nltk (smooth_method="nltk3")
# ------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["crosswoz_groups", "csl_ts_test"])
def test_nltk3_sentence_level_equals_nltk_exactly(datasets, name):
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    method3 = SmoothingFunction().method3
    hyps, refs = datasets[name]
    per_item = sentence_scores(corpus_stats(hyps, refs), smooth_method="nltk3", effective_order=False)
    for h, rs, ours in zip(hyps, refs, per_item):
        assert ours.score == sentence_bleu(rs, h, smoothing_function=method3)


def test_nltk3_weights_equal_nltk(datasets):
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    method3 = SmoothingFunction().method3
    hyps, refs = datasets["crosswoz_groups"]
    for weights in [(0.5, 0.5), (0.2, 0.3, 0.5), (0.1, 0.2, 0.3, 0.2, 0.2)]:
        stats = corpus_stats(hyps, refs, max_order=len(weights))
        for h, rs, row in zip(hyps, refs, stats):
            ours = score_stats(row, smooth_method="nltk3", weights=weights)
            assert ours.score == sentence_bleu(rs, h, weights=weights, smoothing_function=method3)


def test_nltk3_corpus_level_equals_nltk_when_no_hypothesis_is_short(datasets):
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu

    hyps, refs = datasets["csl_ts_test"]
    keep = [i for i, h in enumerate(hyps) if len(h) >= 4]
    assert len(keep) > 900
    hyps = [hyps[i] for i in keep]
    refs = [refs[i] for i in keep]
    ours = corpus_score(corpus_stats(hyps, refs), smooth_method="nltk3")
    assert ours.score == corpus_bleu(refs, hyps, smoothing_function=SmoothingFunction().method3)


def test_nltk_corpus_denominator_quirk_is_what_we_document(datasets):
    # nltk's modified_precision uses max(1, totals_n) per *item*, and corpus_bleu sums those, so each hypothesis
    # shorter than n adds a phantom n-gram to the order-n denominator. zheval sums the real totals. Show that the
    # difference is exactly that (and only that).
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu

    hyps, refs = datasets["crosswoz_groups"]
    stats = corpus_stats(hyps, refs)
    assert (stats[:, 3 + 4 + 3] == 0).any()  # some replies are shorter than 4 tokens
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = corpus_bleu(refs, hyps, smoothing_function=SmoothingFunction().method3)
    phantom = stats.copy()
    phantom[:, 7:11] = phantom[:, 7:11].clip(min=1)  # totals -> max(1, totals) per item, as nltk
    assert score_stats(phantom.sum(axis=0), smooth_method="nltk3").score == theirs
    assert corpus_score(stats, smooth_method="nltk3").score != theirs
    assert math.isfinite(theirs)
