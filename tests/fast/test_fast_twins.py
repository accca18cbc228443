"""Every fast twin equals its reference: one table-driven test over :data:`zheval.fast.TWINS`.

For each twin the table names the reference function; :data:`CHECKS` below holds, per twin, a check that runs both
on random inputs (small alphabets, many ties and repeats, empty texts) and -- when the shared real data is there --
on real texts, and asserts equality (exact: integers, or floats bit for bit). A twin in the table without a check,
or a public function of the fast modules that is neither in the table nor a named building block, fails.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import random
import re

import numpy as np
import pytest

import zheval.fast as fast
from zheval.definitions import bleu as ref_bleu
from zheval.definitions import rouge as ref_rouge
from zheval.definitions.lcs import lcs_length
from zheval.fast.index import CorpusLayout
from zheval.fast.ngrams import flatten_texts, ngram_counts_by_text
from zheval.tokenizers import get_tokenizer
from zheval.tokenizers.corpus import TokenIds, tokenize_corpus
from helpers.compiled_twins import CHECKS as COMPILED_CHECKS, compiled_modes, kernels_loaded_for_the_check
from helpers.term_twins import check_term_token_spans

#: Public functions of the fast modules that are building blocks of the twins, not twins themselves.
BUILDING_BLOCKS = {"zheval.fast.ngrams:flatten_texts", "zheval.fast.ngrams:ngram_counts_by_text",
                   "zheval.text.normalize_corpus:codepoints_of", "zheval.text.normalize_corpus:is_simple_for_nfkc",
                   "zheval.text.normalize_corpus:whitespace_mask", "zheval.fast.union_lcs:packed_words",
                   "zheval.fast.keys:runs", "zheval.fast.keys:sort_with_index", "zheval.fast.keys:unique_inverse",
                   "zheval.fast.keys:lookup", "zheval.fast.keys:step_schedule", "zheval.fast.keys:int64_arrays",
                   "zheval.fast.skip_bigrams:skip_bigram_totals",
                   "zheval.fast.skip_bigrams:skip_bigrams_fit", "zheval.tokenizers.jieba_rs:build_jieba_rs",
                   "zheval.tokenizers.jieba_rs:rjieba_version", "zheval.fast.slots:slot_key_chunks",
                   "zheval.fast.slots:slot_keys_fit", "zheval.fast.slots:bits_for", "zheval.fast.slots:concat_ranges",
                   "zheval.fast.slot_lcs:mask_words", "zheval.fast.slot_bleu:bleu_slot_bits",
                   "zheval.fast.slot_bleu:bleu_key_bits", "zheval.fast.slot_bleu:slot_bleu_fits",
                   "zheval.fast.keys:popcount64",  # bit counting, checked in tests/fast/test_popcount.py
                   "zheval.fast.keys:lcs_step", "zheval.fast.keys:lcs_from_rows",  # the LCS twins' recurrence
                   "zheval.fast.compiled.twins:packed_fits", "zheval.fast.compiled.twins:exercise",
                   "zheval.tokenizers.char_ids:class_table",
                   "zheval.tokenizers.char_ids:compact_dtype"}  # int32 or int64: tests/tokenizers/test_compact_ids.py
FAST_MODULES = ("zheval.fast.ngrams", "zheval.fast.lcs", "zheval.fast.rouge", "zheval.fast.bleu",
                "zheval.tokenizers.char_ids", "zheval.tokenizers.term_ids", "zheval.text.normalize_corpus", "zheval.text.split_corpus",
                "zheval.fast.union_lcs", "zheval.fast.keys", "zheval.tokenizers.jieba_rs",
                "zheval.fast.skip_bigrams", "zheval.fast.wlcs", "zheval.fast.slots", "zheval.fast.slot_lcs",
                "zheval.fast.slot_bleu", "zheval.fast.compiled.twins")

TRICKY = "好的你我。！，,.!?abcA1 2\u0301\ufe0f\u200b😀…-\n"
#: Characters every normalisation step treats specially: full-width forms, compatibility characters with one- and
#: two-character images (①, ㎡, ℃, ﬁ), ellipses and their vertical forms, combining marks and Hangul (NFKC composes
#: them), whitespace of every kind (\r\n, NEL, U+3000, no-break space), invisible characters, Latin capitals with
#: multi-character lower case (İ), category-P marks between digits (nopunct), controls.
NORMALIZE_TRICKY = (TRICKY + "\r\t\u3000ＡＢ１２（）“”‘’\u00a0\x85\u2028İÉé각ㅏ\u1161ﬁ①㎡℃︙︰‥\uf900\x01\x1c"
                    ":;0123456789%—・「」")


def random_texts(rng: random.Random, n: int, alphabet: str = "ab好的。c", max_len: int = 12) -> list:
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, max_len))) for _ in range(n)]


def random_corpus(rng: random.Random, n_items: int = 60, alphabet: str = "abc好的。\n"):
    preds = random_texts(rng, n_items, alphabet)
    refs = [random_texts(rng, rng.randint(1, 4), alphabet) for _ in range(n_items)]
    return preds, refs


def token_corpora(real):
    """Token-id corpora: random ones, and the real data's when present."""
    rng = random.Random(20261201)
    out = [random_corpus(rng) for _ in range(4)]
    if real is not None:
        out.append(real)
    tok = get_tokenizer("char")
    return [tokenize_corpus(p, [[x for x in r] for r in rs], tok, "newline") for p, rs in out]


@pytest.fixture(scope="module")
def real_items(request):
    """CrossWOZ leave-one-out items when the shared data is there, else None (the random cases still run)."""
    from helpers import SHARED_DATA, crosswoz_items, read_jsonl

    if not (SHARED_DATA / "crosswoz_same_query_groups.jsonl").exists():
        return None
    preds, refs = crosswoz_items(read_jsonl("crosswoz_same_query_groups.jsonl"))
    return preds, refs


# ---------------------------------------------------------------------------------------------------------------
# one check per twin


def check_char_token_ids(real):
    from zheval.tokenizers.char import CharTokenizer
    from zheval.tokenizers.char_ids import char_token_ids

    rng = random.Random(7)
    tok = CharTokenizer()
    pieces = [p.replace("\n", "") for p in random_texts(rng, 400, TRICKY, 20)]
    if real is not None:
        pieces += [tok.normalize(t).replace("\n", " ") for t in real[0]]
    vocab = TokenIds()
    ids, offsets = char_token_ids(pieces, vocab)
    words = list(vocab)
    for k, piece in enumerate(pieces):
        assert [words[i] for i in ids[offsets[k]:offsets[k + 1]]] == tok.tokenize_normalized(piece), piece


def _real_texts(real) -> list:
    return [] if real is None else list(real[0]) + [r for rs in real[1] for r in rs]


def check_char_token_spans(real):
    from zheval.text.normalize_corpus import codepoints_of
    from zheval.tokenizers.char import CharTokenizer
    from zheval.tokenizers.char_ids import char_token_spans

    rng = random.Random(17)
    real_texts = [CharTokenizer().normalize(t) for t in _real_texts(real)]
    tricky = random_texts(rng, 600, TRICKY + "\t ", 25) + real_texts
    # without attached marks and flags too: the compiled passes serve a call without them (ids by code point rank)
    plain = random_texts(rng, 600, "好的你我。！，,.!?abcA1 2😀…-\t 3.5.x", 25) + ["", "a.1", "1.", ".5", "ab 3.5.6x"]
    plain += [t for t in real_texts if not _has_marks(t)]
    for texts, punct, compiled, held in [(t, p, c, h) for t in (tricky, plain) for p in ("keep", "drop")
                                         for c in compiled_modes() for h in ((), ("好", "ab", "zz"))]:
        tok = CharTokenizer(punct=punct)
        vocab = TokenIds()
        for w in held:  # a vocabulary that already holds tokens (ids go through it)
            vocab[w]
        cps = codepoints_of(texts)
        with kernels_loaded_for_the_check() if compiled else contextlib.nullcontext():
            ids, starts, ends, text_tokens = char_token_spans(cps.codepoints, cps.offsets, vocab, punct == "drop",
                                                              compiled)
        words = list(vocab)
        assert len(words) == len(set(words)) and ids.min() >= 0 and ids.max() < len(words)
        big = "".join(texts)
        for k, text in enumerate(texts):
            a, b = text_tokens[k], text_tokens[k + 1]
            want = tok.tokenize_normalized(text)
            assert [words[i] for i in ids[a:b].tolist()] == want, (punct, text)
            assert [big[s:e] for s, e in zip(starts[a:b].tolist(), ends[a:b].tolist())] == want


def _has_marks(text: str) -> bool:
    """Whether ``text`` holds an attached mark or a regional indicator (the compiled token passes leave those
    calls to the numpy rules)."""
    from zheval.tokenizers.char import CHAR_FLAG_HALF, CHAR_MARK

    return re.search(CHAR_MARK, text) is not None or re.search(CHAR_FLAG_HALF, text) is not None


def check_normalize_corpus(real):
    from zheval.text.normalize import Normalizer
    from zheval.text.normalize_corpus import normalize_corpus

    rng = random.Random(23)
    texts = random_texts(rng, 1500, NORMALIZE_TRICKY, 18) + _real_texts(real)
    for steps in [("nfkc", "zw", "punct", "space", "lower"), ("nfkc",), ("zw",), ("punct",), ("nopunct",),
                  ("space",), ("lower",), (), ("nfkc", "zw", "punct", "nopunct", "space", "lower"),
                  ("nfkc", "zw", "t2s", "punct", "space", "lower"), ("space", "lower"), ("zw", "lower"),
                  ("punct", "space", "lower"), ("nfkc", "nopunct", "lower"), ("nfkc", "space")]:
        norm = Normalizer(steps)
        assert normalize_corpus(texts, norm).texts() == [norm(t) for t in texts], steps
    # nopunct's runs of marks between letters/digits (a space), next to attached marks, at text ends
    texts = random_texts(rng, 3000, "-:/.,!%a1é\u0301한好カ ~\n", 10) + ["1.2", "1..2", "a-", "-a", "a-\u0301b", ""]
    for steps in [("nopunct",), ("nfkc", "zw", "punct", "nopunct", "space", "lower")]:
        norm = Normalizer(steps)
        assert normalize_corpus(texts, norm).texts() == [norm(t) for t in texts], steps
    # full-width forms and word runs next to spaces (space), a '.' after a word run ending in marks (nopunct)
    texts = random_texts(rng, 3000, "３５ａＥ．，：.,1aE好かㄅˇ㈠ﾡ\u0301\u3099 -\t\n", 10) + ["か\u3099 ３", "e\u0301.5"]
    for steps in [("space",), ("nopunct",), ("nopunct", "space"), ("zw", "punct", "nopunct", "space", "lower"),
                  ("space", "lower"), ("nfkc", "zw", "punct", "nopunct", "space", "lower")]:
        norm = Normalizer(steps)
        assert normalize_corpus(texts, norm).texts() == [norm(t) for t in texts], steps


def check_split_corpus(real):
    from zheval.text.normalize import Normalizer
    from zheval.text.normalize_corpus import normalize_corpus
    from zheval.text.sentences import split_sentences
    from zheval.text.split_corpus import split_corpus

    rng = random.Random(29)
    texts = random_texts(rng, 1500, "好的。！？；!?;…‥.\"'”’」』）)]】》〉a1Z \n\u0301\u3099\t\x01", 16)
    texts += _real_texts(real)
    for norm in (Normalizer(()), Normalizer()):
        nt = normalize_corpus(texts, norm)
        strs = nt.texts()
        big = "".join(strs)
        for mode in ("punct", "newline"):
            sp = split_corpus(nt.codepoints, nt.offsets, mode)
            for i, text in enumerate(strs):
                a, b = sp.text_pieces[i], sp.text_pieces[i + 1]
                got = [big[s:e] for s, e in zip(sp.starts[a:b].tolist(), sp.ends[a:b].tolist())]
                want = (split_sentences(text, "newline") if mode == "newline"
                        else [p for line in text.split("\n") for p in split_sentences(line, "punct")])
                assert got == want, (mode, text)


def check_union_lcs_hits_pairs(real):
    from zheval.fast.union_lcs import union_lcs_hits_pairs

    rng = random.Random(31)
    tok = get_tokenizer("char")
    cases = [random_corpus(rng, 300, "abcab。\n好的好") for _ in range(2)]
    cases.append(([random_texts(rng, 1, "ab。c", 300)[0] for _ in range(40)],
                  [[random_texts(rng, 1, "ab。c", 300)[0]] for _ in range(40)]))  # several words per reference
    if real is not None:
        cases.append(real)
    for preds, refs in cases:
        for split in ("punct", "newline"):
            corpus = tokenize_corpus(preds, refs, tok, split, char_ids=True)
            hyp = np.repeat(corpus.pred_text, corpus.ref_counts)
            got = union_lcs_hits_pairs(corpus.ids, corpus.sent_offsets, corpus.text_sents, hyp, corpus.ref_text)
            texts = corpus.texts
            want = [ref_rouge.summary_level_lcs_hits(texts[r].sentences, texts[h].sentences)
                    for h, r in zip(hyp.tolist(), corpus.ref_text.tolist())]
            assert got.tolist() == want


def check_jieba_rs_segmenter(real):
    from zheval.tokenizers.jieba_rs import jieba_rs_segmenter
    from zheval.tokenizers.jieba_words import JiebaTokenizer

    rng = random.Random(37)
    texts = random_texts(rng, 300, "北京的酒店景点地铁站我们中出了一个叛徒abcA1 .,。！-+#&_%\u0301\u3400\u9fd6😀", 20)
    texts += _real_texts(real)
    for terms in (None, ["酒店", "的", "北京市", "C++", "app", "小黄鸭"]):
        tok = JiebaTokenizer(terms=terms)
        assert fast.usable_for("jieba_rs", tokenizer=tok)
        seg = jieba_rs_segmenter(tok)
        for t in texts:
            norm = tok.normalize(t)
            assert seg(norm) == tok.tokenize_normalized(norm), (terms, t)


def check_lcs_length_pairs(real):
    from zheval.fast.lcs import lcs_length_pairs

    for corpus in token_corpora(real):
        texts = [tt.tokens for tt in [*corpus.predictions, *(r for rs in corpus.references for r in rs)]]
        tokens, offsets = flatten_texts(texts)
        rng = np.random.default_rng(3)
        col, row = rng.integers(0, len(texts), 300), rng.integers(0, len(texts), 300)
        got = lcs_length_pairs(tokens, offsets, col, row)
        assert got.tolist() == [lcs_length(texts[c], texts[r]) for c, r in zip(col.tolist(), row.tolist())]


def check_pair_clipped_hits(real):
    from zheval.fast.ngrams import pair_clipped_hits

    for corpus in token_corpora(real):
        layout = CorpusLayout.from_corpus(corpus)
        tables = ngram_counts_by_text(*flatten_texts(layout.token_ids), layout.vocab_size, 4)
        hyp = layout.hyp[layout.pair_item]
        for n in range(1, 5):
            got = pair_clipped_hits(tables[n - 1], hyp, layout.ref)
            want = [ref_rouge.clipped_overlap(ref_rouge.ngram_counts(layout.token_ids[h], n),
                                              ref_rouge.ngram_counts(layout.token_ids[r], n))
                    for h, r in zip(hyp.tolist(), layout.ref.tolist())]
            assert got.tolist() == want


def _slot_layouts(real):
    """Slot layouts of the token corpora (items as given), and of random id texts over a large vocabulary with
    long texts (dense n-gram ids, several mask words, the Python-int LCS beyond them)."""
    from zheval.fast.slots import SlotLayout

    out = []
    for corpus in token_corpora(real):
        layout = CorpusLayout.from_corpus(corpus)
        out.append((SlotLayout(*layout.flat(), layout.hyp, layout.ref, layout.ref_counts, layout.vocab_size),
                    layout.token_ids))
    rng = random.Random(41)
    for V in (2, 5, 70000):
        texts = [tuple(rng.randrange(V) for _ in range(rng.choice([0, 1, 3, 9, 70, 130, 300])))
                 for _ in range(40)]
        counts = [rng.randint(1, 4) for _ in range(25)]
        hyp = [rng.randrange(40) for _ in range(25)]
        ref = [rng.randrange(40) for _ in range(sum(counts))]
        out.append((SlotLayout(*flatten_texts(texts), np.array(hyp), np.array(ref), np.array(counts), V), texts))
    return out


def check_pair_ngram_hits_sorted(real):
    import zheval.fast.slots as slots

    for lay, texts in _slot_layouts(real):
        seq = lambda slot, length: tuple(lay.tok[lay.slot_start[slot]:lay.slot_start[slot] + length].tolist())  # noqa: E731
        hyps = [seq(lay.first_slot[i], lay.hyp_len[i]) for i in lay.pair_item.tolist()]
        refs = [seq(lay.ref_slot[p], lay.ref_len[p]) for p in range(lay.n_pairs)]
        # packed keys; narrow keys (dense n-gram ids, items in chunks)
        for key_bits in (slots.KEY_BITS, 44, 40, 30, 22):
            with _patched(slots, "KEY_BITS", key_bits):
                for n in (1, 2, 3, 5):
                    if not fast.usable_for("slot_keys", slot_layout=lay, order=n, with_pos=False):
                        continue
                    got = slots.pair_ngram_hits_sorted(lay, n)
                    want = [ref_rouge.clipped_overlap(ref_rouge.ngram_counts(h, n), ref_rouge.ngram_counts(r, n))
                            for h, r in zip(hyps, refs)]
                    assert got.tolist() == want, (key_bits, n)


def check_slot_lcs_lengths(real):
    import zheval.fast.slots as slots
    from zheval.fast.slot_lcs import slot_lcs_lengths

    for lay, texts in _slot_layouts(real):
        seq = lambda slot, length: tuple(lay.tok[lay.slot_start[slot]:lay.slot_start[slot] + length].tolist())  # noqa: E731
        want = [lcs_length(seq(lay.first_slot[i], lay.hyp_len[i]), seq(lay.ref_slot[p], lay.ref_len[p]))
                for p, i in enumerate(lay.pair_item.tolist())]
        for key_bits in (slots.KEY_BITS, 40, 30):
            with _patched(slots, "KEY_BITS", key_bits):
                if not fast.usable_for("slot_keys", slot_layout=lay, order=1, with_pos=True):
                    continue
                for max_words in (4, 1, 2):
                    assert slot_lcs_lengths(lay, max_words=max_words).tolist() == want, (key_bits, max_words)


def check_item_clipped_matches_sorted(real):
    import zheval.fast.slots as slots
    from zheval.fast.slot_bleu import bleu_slot_bits, item_clipped_matches_sorted

    for lay, texts in _slot_layouts(real):
        seq = lambda slot, length: tuple(lay.tok[lay.slot_start[slot]:lay.slot_start[slot] + length].tolist())  # noqa: E731
        items = [(seq(lay.first_slot[i], lay.hyp_len[i]),
                  [seq(lay.ref_slot[p], lay.ref_len[p]) for p in range(lay.first_pair[i],
                                                                       lay.first_pair[i] + int((lay.pair_item == i).sum()))])
                 for i in range(lay.n_items)]
        for key_bits in (slots.KEY_BITS, 44):  # packed bigrams; dense bigram ids (the 70000-id layout)
            with _patched(slots, "KEY_BITS", key_bits):
                if bleu_slot_bits(lay) + lay.ib > slots.KEY_BITS:  # the twin's own bound (it returns None)
                    assert item_clipped_matches_sorted(lay, 4) is None
                    continue
                for order in (1, 2, 4, 6):
                    want = np.array([ref_bleu.item_stats(h, r, order)[3:3 + order] for h, r in items])
                    got = item_clipped_matches_sorted(lay, order)
                    assert np.array_equal(got, want.reshape(got.shape)), (key_bits, order)


def check_skip_bigram_counts_by_text(real):
    from zheval.fast import skip_bigrams

    for corpus in token_corpora(real):
        layout = CorpusLayout.from_corpus(corpus)
        tokens, offsets = flatten_texts(layout.token_ids)
        V = layout.vocab_size
        for chunk in (skip_bigrams.CHUNK_KEYS, 5):  # one chunk, and many chunks (one text alone may exceed one)
            with _patched(skip_bigrams, "CHUNK_KEYS", chunk):
                for skip in (None, 0, 1, 4, 9):
                    nc = skip_bigrams.skip_bigram_counts_by_text(tokens, offsets, V, skip)
                    totals = skip_bigrams.skip_bigram_totals(layout.lengths, skip)
                    for t, seq in enumerate(layout.token_ids):
                        want = ref_rouge.skip_bigram_counts(list(seq), skip)
                        lo, hi = nc.offsets[t], nc.offsets[t + 1]
                        got = {divmod(int(i), V): int(c) for i, c in zip(nc.ids[lo:hi], nc.counts[lo:hi])}
                        assert got == dict(want) and totals[t] == sum(want.values())


def _skip_bigram_hits_agree(real, small_chunk, hits):
    """``hits(skip_bigrams, tokens, offsets, layout, skip, hyp)`` (a fast skip-bigram hit count per pair) equals the
    definitions' clipped overlap, with the default key chunk and a ``small_chunk`` one, for S4, S0 and S*."""
    from zheval.fast import skip_bigrams

    for corpus in token_corpora(real):
        layout = CorpusLayout.from_corpus(corpus)
        tokens, offsets = flatten_texts(layout.token_ids)
        hyp = layout.hyp[layout.pair_item]
        for chunk in (skip_bigrams.CHUNK_KEYS, small_chunk):
            with _patched(skip_bigrams, "CHUNK_KEYS", chunk):
                for skip in (None, 0, 4):
                    got = hits(skip_bigrams, tokens, offsets, layout, skip, hyp)
                    want = [ref_rouge.clipped_overlap(ref_rouge.skip_bigram_counts(list(layout.token_ids[h]), skip),
                                                      ref_rouge.skip_bigram_counts(list(layout.token_ids[r]), skip))
                            for h, r in zip(hyp.tolist(), layout.ref.tolist())]
                    assert got.tolist() == want


def check_pair_skip_bigram_hits(real):
    def hits(sb, tokens, offsets, layout, skip, hyp):
        counts = sb.skip_bigram_counts_by_text(tokens, offsets, layout.vocab_size, skip)
        return sb.pair_skip_bigram_hits(counts, hyp, layout.ref)

    _skip_bigram_hits_agree(real, 7, hits)


def check_corpus_skip_bigram_hits(real):
    def hits(sb, tokens, offsets, layout, skip, hyp):
        return sb.corpus_skip_bigram_hits(tokens, offsets, layout.vocab_size, skip, hyp, layout.ref)

    _skip_bigram_hits_agree(real, 30, hits)


def check_wlcs_pairs(real):
    from zheval.definitions.lcs import wlcs
    from zheval.fast import wlcs as fast_wlcs

    for corpus in token_corpora(real):
        layout = CorpusLayout.from_corpus(corpus)
        tokens, offsets = flatten_texts(layout.token_ids)
        hyp = layout.hyp[layout.pair_item]
        # one group; many small groups on the array path; small groups by the reference
        for cells, smallest in ((fast_wlcs.GROUP_CELLS, 1), (40, 1), (40, fast_wlcs.MIN_GROUP)):
            with _patched(fast_wlcs, "GROUP_CELLS", cells), _patched(fast_wlcs, "MIN_GROUP", smallest):
                for weight in (1.2, 1.0, 2.0, 0.5):
                    got = fast_wlcs.wlcs_pairs(tokens, offsets, layout.ref, hyp, weight)
                    want = [wlcs(list(layout.token_ids[r]), list(layout.token_ids[h]), weight)
                            for h, r in zip(hyp.tolist(), layout.ref.tolist())]
                    assert got.tolist() == want


@contextlib.contextmanager
def _patched(module, name, value):
    old = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, old)


def _token_items(corpus):
    return ([p.tokens for p in corpus.predictions], [[r.tokens for r in rs] for rs in corpus.references])


def check_corpus_stats(real):
    from zheval.fast.bleu import corpus_stats

    for corpus in token_corpora(real):
        hyps, refs = _token_items(corpus)
        for order in (1, 2, 4, 6):
            assert np.array_equal(corpus_stats(hyps, refs, order), ref_bleu.corpus_stats(hyps, refs, order))


def check_layout_stats(real):
    from zheval.fast.bleu import layout_stats

    for corpus in token_corpora(real):
        hyps, refs = _token_items(corpus)
        layout = CorpusLayout.from_corpus(corpus)
        for order in (1, 3, 4):
            want = np.array([ref_bleu.item_stats(h, r, order) for h, r in zip(hyps, refs)])
            assert np.array_equal(layout_stats(layout, order), want)


def check_item_clipped_hits_orders(real):
    from zheval.fast.ngrams import item_clipped_hits_orders

    for corpus in token_corpora(real):
        hyps, refs = _token_items(corpus)
        layout = CorpusLayout.from_corpus(corpus)
        tables = [layout.ngram_counts(n) for n in range(1, 5)]
        got = item_clipped_hits_orders(tables, layout.hyp, layout.ref, layout.pair_item, 4)
        want = np.array([ref_bleu.item_stats(h, r, 4)[3:7] for h, r in zip(hyps, refs)])
        assert np.array_equal(got, want)


def check_scores_from_pair_stats(real):
    from zheval.fast.rouge import scores_from_pair_stats

    rng = np.random.default_rng(11)
    counts = rng.integers(1, 5, 200)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    n = int(counts.sum())
    ref_total = rng.integers(0, 6, n)
    hyp_total = rng.integers(0, 6, n)
    hit = np.minimum(rng.integers(0, 6, n), np.minimum(ref_total, hyp_total))  # ties are frequent
    for multi_ref in ref_rouge.MULTI_REF_MODES:
        for beta in (1.0, 0.5, 2.0):
            p, r, f = scores_from_pair_stats(hit, ref_total, hyp_total, starts, counts, multi_ref, beta)
            for i, (s, k) in enumerate(zip(starts.tolist(), counts.tolist())):
                stats = list(zip(hit[s:s + k].tolist(), ref_total[s:s + k].tolist(), hyp_total[s:s + k].tolist()))
                want = ref_rouge.combine_references(stats, multi_ref, beta)
                assert (p[i], r[i], f[i]) == tuple(want), (multi_ref, beta, stats)


def check_corpus_rouge_scores(real):
    from zheval.fast.rouge import corpus_rouge_scores

    types = ["rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum", "rougeS0", "rougeS4", "rougeSU4", "rougeS*",
             "rougeSU*", "rougeSU1", "rougeW"]
    for corpus in token_corpora(real):
        for multi_ref, weight in zip(ref_rouge.MULTI_REF_MODES, (1.2, 2.0, 1.5, 1.0)):
            got = corpus_rouge_scores(corpus, types, multi_ref, rouge_w_weight=weight)
            scorer = ref_rouge.make_item_scorer(types, multi_ref, rouge_w_weight=weight)
            want = [scorer(p.sentences, [r.sentences for r in rs]) for p, rs in zip(corpus.predictions,
                                                                                      corpus.references)]
            for t in types:
                assert [tuple(x) for x in zip(*(a.tolist() for a in got[t]))] == [tuple(w[t]) for w in want]


CHECKS = {
    "zheval.tokenizers.char_ids:char_token_ids": check_char_token_ids,
    "zheval.tokenizers.char_ids:char_token_spans": check_char_token_spans,
    "zheval.tokenizers.term_ids:term_token_spans": check_term_token_spans,
    "zheval.text.normalize_corpus:normalize_corpus": check_normalize_corpus,
    "zheval.text.split_corpus:split_corpus": check_split_corpus,
    "zheval.fast.union_lcs:union_lcs_hits_pairs": check_union_lcs_hits_pairs,
    "zheval.tokenizers.jieba_rs:jieba_rs_segmenter": check_jieba_rs_segmenter,
    "zheval.fast.lcs:lcs_length_pairs": check_lcs_length_pairs,
    "zheval.fast.ngrams:pair_clipped_hits": check_pair_clipped_hits,
    "zheval.fast.slots:pair_ngram_hits_sorted": check_pair_ngram_hits_sorted,
    "zheval.fast.slot_lcs:slot_lcs_lengths": check_slot_lcs_lengths,
    "zheval.fast.slot_bleu:item_clipped_matches_sorted": check_item_clipped_matches_sorted,
    "zheval.fast.skip_bigrams:skip_bigram_counts_by_text": check_skip_bigram_counts_by_text,
    "zheval.fast.skip_bigrams:pair_skip_bigram_hits": check_pair_skip_bigram_hits,
    "zheval.fast.wlcs:wlcs_pairs": check_wlcs_pairs,
    "zheval.fast.skip_bigrams:corpus_skip_bigram_hits": check_corpus_skip_bigram_hits,
    "zheval.fast.ngrams:item_clipped_hits_orders": check_item_clipped_hits_orders,
    "zheval.fast.bleu:corpus_stats": check_corpus_stats,
    "zheval.fast.bleu:layout_stats": check_layout_stats,
    "zheval.fast.rouge:scores_from_pair_stats": check_scores_from_pair_stats,
    "zheval.fast.rouge:corpus_rouge_scores": check_corpus_rouge_scores,
    **COMPILED_CHECKS,  # tests/helpers/compiled_twins.py (skipped, saying so, without numba)
}


def _resolve(spec: str):
    module, _, attr = spec.partition(":")
    obj = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("twin", fast.TWINS, ids=lambda t: t.fast)
def test_twin_equals_its_reference(twin, real_items):
    _resolve(twin.fast), _resolve(twin.reference)  # both exist
    assert twin.fast in CHECKS, f"twin {twin.fast} has no check in tests/fast/test_fast_twins.py CHECKS"
    CHECKS[twin.fast](real_items)


def test_every_fast_function_is_a_listed_twin_or_a_building_block():
    listed = {t.fast for t in fast.TWINS}
    found = set()
    for name in FAST_MODULES:
        module = importlib.import_module(name)
        for attr, obj in vars(module).items():
            if inspect.isfunction(obj) and not attr.startswith("_") and obj.__module__ == name:
                found.add(f"{name}:{attr}")
    missing = sorted(found - listed - BUILDING_BLOCKS)
    assert missing == [], f"fast functions missing from zheval.fast.TWINS: {missing}"
    assert sorted(listed - found) == [], "TWINS lists functions that do not exist"
    assert set(CHECKS) == listed


def test_the_table_test_can_fail(monkeypatch):
    # a twin that differs from its reference is caught
    import zheval.fast.lcs as lcs_mod

    real = lcs_mod.lcs_length_pairs
    monkeypatch.setattr(lcs_mod, "lcs_length_pairs", lambda *a, **k: real(*a, **k) + 1)
    with pytest.raises(AssertionError):
        check_lcs_length_pairs(None)
