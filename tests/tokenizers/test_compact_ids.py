"""Token ids and token positions held compact (issue 34 item 5): a tokenised corpus keeps its ids as int32 while
every id fits (ids are below the vocabulary size; positions below the number of code points), and int64 beyond that
bound (forced here with a small ``INT32_MAX``), with the same tokens either way: each text's ids decode to the
tokenizer's own tokens, and the scores equal rouge-score's and sacrebleu's on the same char tokens. The readers that
do key arithmetic on ids widen them first: in int32 an n-gram key of large ids loses its high bits, so the tests
below feed such ids and compare with the dict counts of the definitions."""

import math
import random

import numpy as np
import pytest
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU

import zheval
import zheval.fast.compiled as compiled
import zheval.tokenizers.char_ids as char_ids_mod
from helpers import crosswoz_items, read_jsonl
from helpers.compiled_twins import kernels_loaded_for_the_check
from zheval.definitions.bleu import item_stats
from zheval.definitions.rouge import clipped_overlap, ngram_counts
from zheval.fast.ngrams import flatten_texts, ngram_counts_by_text, pair_clipped_hits
from zheval.fast.slot_bleu import item_clipped_matches_sorted
from zheval.fast.slots import SlotLayout
from zheval.tokenizers import get_tokenizer
from zheval.text.normalize_corpus import normalize_corpus
from zheval.tokenizers.char_ids import char_token_spans
from zheval.tokenizers.corpus import TokenIds, tokenize_corpus

# the ways tokenize_corpus builds a corpus: char at once (numpy), char with terms at once, text by text, normalised
# at once (jieba)
WAYS = {
    "char at once": (dict(tokenizer="char"), dict(char_ids=True, sentences=False)),
    "char with terms at once": (dict(tokenizer="char", terms=["酒店", "地铁站"]), dict(char_ids=True, sentences=False)),
    "char text by text": (dict(tokenizer="char"), {}),
    "jieba normalised at once": (dict(tokenizer="jieba"), dict(normalize_all=True)),
}


@pytest.fixture(scope="module")
def items():
    return crosswoz_items(read_jsonl("crosswoz_same_query_groups.jsonl"))


def _tokens_match_the_tokenizer(c, tok, preds, refs):
    texts = preds + [r for rs in refs for r in rs]
    got = [c.decode(t.tokens) for t in c.predictions] + [c.decode(t.tokens) for rs in c.references for t in rs]
    assert got == [list(tok.tokenize(t)) for t in texts]


@pytest.mark.parametrize("way", list(WAYS))
def test_ids_are_int32_and_decode_to_the_tokenizers_tokens(items, way):
    preds, refs = items
    opts, kw = WAYS[way]
    tok = get_tokenizer(opts["tokenizer"], **{k: v for k, v in opts.items() if k != "tokenizer"})
    c = tokenize_corpus(preds, refs, tok, "punct", **kw)
    assert c.ids.dtype == np.int32
    _tokens_match_the_tokenizer(c, tok, preds, refs)


@pytest.mark.parametrize("way", list(WAYS))
def test_a_vocabulary_beyond_the_int32_bound_keeps_int64_ids(items, monkeypatch, way):
    preds, refs = items
    opts, kw = WAYS[way]
    tok = get_tokenizer(opts["tokenizer"], **{k: v for k, v in opts.items() if k != "tokenizer"})
    monkeypatch.setattr(char_ids_mod, "INT32_MAX", 40)  # every vocabulary here has more than 41 tokens
    c = tokenize_corpus(preds, refs, tok, "punct", **kw)
    assert len(c.vocab) > 41 and c.ids.dtype == np.int64
    _tokens_match_the_tokenizer(c, tok, preds, refs)


class _CharTokens:
    """rouge-score tokenizer object returning zheval's char tokens (normalisation included)."""

    def tokenize(self, text):
        return list(get_tokenizer("char").tokenize(text))


@pytest.mark.parametrize("bound", [None, 40])
def test_scores_on_compact_and_on_int64_ids_equal_rouge_score_and_sacrebleu(items, monkeypatch, bound):
    preds, refs = items
    if bound:
        monkeypatch.setattr(char_ids_mod, "INT32_MAX", bound)
    ours = zheval.score(preds, refs, rouge_types=["rouge1", "rouge2", "rougeL"])
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=_CharTokens())
    per_item = [scorer.score_multi(r, p) for p, r in zip(preds, refs)]
    for t in ("rouge1", "rouge2", "rougeL"):
        assert ours["rouge"][t] == pytest.approx(math.fsum(s[t].fmeasure for s in per_item) / len(per_item),
                                                 abs=1e-12)
    tok = _CharTokens()
    width = max(map(len, refs))
    streams = [[" ".join(tok.tokenize(rs[j])) if j < len(rs) else None for rs in refs] for j in range(width)]
    theirs = BLEU(tokenize="none", force=True).corpus_score([" ".join(tok.tokenize(p)) for p in preds], streams)
    assert 0.05 < ours["bleu"]["bleu"] < 1
    assert ours["bleu"]["bleu"] == pytest.approx(theirs.score / 100, abs=1e-12)


#: Token ids whose products with V = 2**17 lose their high bits in int32: 5 and 5 + 2**15 collide (and so on).
LARGE = (5, 5 + 2**15, 70000, 70000 + 2**15, 2**17 - 1)
V_LARGE = 2**17


def _texts_with_large_ids(seed):
    """Random texts over `LARGE`: an order-2 key ``id * V + id`` or a packed ``id << 17 | id`` computed in int32
    makes distinct bigrams equal."""
    rnd = random.Random(seed)
    return [tuple(rnd.choice(LARGE) for _ in range(rnd.randint(0, 12))) for _ in range(12)]


@pytest.mark.parametrize("seed", range(5))
def test_ngram_counts_of_large_int32_ids_equal_the_dict_counts(seed):
    texts = _texts_with_large_ids(seed)
    tokens, offsets = flatten_texts(texts)
    tabs = ngram_counts_by_text(tokens.astype(np.int32), offsets, V_LARGE, 3)
    rnd = random.Random(seed)
    hyp = np.array([rnd.randrange(len(texts)) for _ in range(20)], dtype=np.int64)
    ref = np.array([rnd.randrange(len(texts)) for _ in range(20)], dtype=np.int64)
    for n in (1, 2, 3):
        want = [clipped_overlap(ngram_counts(texts[a], n), ngram_counts(texts[b], n)) for a, b in zip(hyp, ref)]
        assert pair_clipped_hits(tabs[n - 1], hyp, ref).tolist() == want


@pytest.mark.parametrize("seed", range(5))
def test_slot_layout_of_large_int32_ids_equals_the_dict_counts(seed):
    texts = _texts_with_large_ids(seed)
    tokens, offsets = flatten_texts(texts)
    rnd = random.Random(seed)
    refs = [[rnd.randrange(len(texts)) for _ in range(rnd.randint(1, 3))] for _ in range(10)]
    hyp = np.array([rnd.randrange(len(texts)) for _ in refs], dtype=np.int64)
    ref = np.array([x for rs in refs for x in rs], dtype=np.int64)
    counts = np.array([len(rs) for rs in refs], dtype=np.int64)
    slots = SlotLayout(tokens.astype(np.int32), offsets, hyp, ref, counts, V_LARGE)
    got = item_clipped_matches_sorted(slots, 4)
    want = [item_stats(texts[a], [texts[b] for b in rs], 4)[3:7] for a, rs in zip(hyp.tolist(), refs)]
    assert got.tolist() == want


def test_compiled_token_pass_keeps_int64_positions_beyond_the_bound(items, monkeypatch):
    # the compiled char pass writes positions and ids as int32 while len(code points) fits, int64 beyond (forced)
    preds, refs = items
    texts = list(dict.fromkeys(preds + [r for rs in refs for r in rs]))
    norm = normalize_corpus(texts, get_tokenizer("char").normalizer)
    plain = char_token_spans(norm.codepoints, norm.offsets, TokenIds())  # the numpy pass
    with kernels_loaded_for_the_check():
        compiled.load_kernels()
        for bound, dtype in ((None, np.int32), (40, np.int64)):
            if bound:
                monkeypatch.setattr(char_ids_mod, "INT32_MAX", bound)
            vocab = TokenIds()
            ids, starts, ends, text_tokens = char_token_spans(norm.codepoints, norm.offsets, vocab, compiled=True)
            assert ids.dtype == starts.dtype == ends.dtype == dtype
            assert starts.tolist() == plain[1].tolist() and ends.tolist() == plain[2].tolist()
            assert text_tokens.tolist() == plain[3].tolist()
            words = list(vocab)
            big = norm.texts()
            want = [tok for t in big for tok in get_tokenizer("char").tokenize_normalized(t)]
            assert [words[i] for i in ids.tolist()] == want
