"""``scripts/bench_impls.py``'s implementations of issue 17: the distinct-text workload W3 with every tokenizer
configuration and ROUGE type, rouge-rust, and zheval's corpus-at-once floors."""

from __future__ import annotations

import math

from bench_impls_common import _char_tokenizer, _clear
from bench_impls_zheval import _bleu_check_ours


#: Protected terms of the ``terms`` configurations: frequent words of the shared data (CrossWOZ, CSL), so that they
#: occur in many texts.
TERMS = ["地铁站", "酒店", "景点", "北京", "餐馆", "评分", "推荐", "电话", "地址", "免费", "门票", "附近", "研究",
         "方法", "结果", "系统", "分析", "实验", "模型", "数据"]
TYPES_12L = ["rouge1", "rouge2", "rougeL"]


def _generic_check(res) -> dict:
    """``{"mean": {type: (P, R, F)}}`` (and ``items`` for per-item results) of a compute_rouge result, any types."""
    out: dict = {"mean": {}, "items": {}}
    for t, v in res.items():
        if not t.startswith("rouge") or t.endswith(("_precision", "_recall", "_ci_low", "_ci_high")):
            continue
        if isinstance(v, list):
            ps, rs = res.get(f"{t}_precision"), res.get(f"{t}_recall")
            trip = list(zip(ps, rs, v)) if isinstance(ps, list) else [(None, None, x) for x in v]
            out["items"][t] = trip
            n = len(trip)
            out["mean"][t] = tuple(None if any(x[k] is None for x in trip) else math.fsum(x[k] for x in trip) / n
                                   for k in range(3))
        else:
            out["mean"][t] = (res.get(f"{t}_precision"), res.get(f"{t}_recall"), float(v))
    if not out["items"]:
        del out["items"]
    return out


def _zheval_rouge_with(options: dict, both: bool = False, pretokenised: bool = False):
    """A zheval ROUGE (or ROUGE + BLEU) call on raw text with ``options``; ``pretokenised``: the input is the texts'
    char tokens joined by spaces (what ``tokenizer="none"`` is for), made in setup."""

    def setup(w):
        import zheval

        preds, refs = w["predictions"], w["references"]
        if pretokenised:
            tok = _char_tokenizer()
            preds = [" ".join(tok.tokenize(p)) for p in preds]
            refs = [[" ".join(tok.tokenize(r)) for r in rs] for rs in refs]
            _clear()
        kw = dict(options)

        if both:
            def run():
                out = zheval.score(preds, refs, metrics=("rouge", "bleu"), **kw)
                return out["rouge"], out["bleu"]

            def check(out):
                c = _generic_check(out[0])
                c.update(_bleu_check_ours(out[1]))
                return c

            return run, check, None

        def run():
            return zheval.compute_rouge(preds, refs, **kw)

        def per_item():
            _clear()
            return zheval.compute_rouge(preds, refs, use_aggregator=False, return_precision_recall=True, **kw)

        return run, _generic_check, per_item

    return setup


def _rouge_rust_inputs(w, tokenize):
    """rouge-rust's input the way a user must make it: our tokens (``tokenize`` per text), each token mapped to an
    ASCII id (rouge-rust lower-cases and splits on everything but ``a-z0-9``), one (reference, prediction) string
    pair per reference."""
    vocab: dict = {}

    def ids(text):
        return " ".join([str(vocab.setdefault(t, len(vocab))) for t in tokenize(text)])

    preds = [ids(p) for p in w["predictions"]]
    flat_refs, flat_preds, counts = [], [], []
    for p, rs in zip(preds, w["references"]):
        counts.append(len(rs))
        for r in rs:
            flat_refs.append(ids(r))
            flat_preds.append(p)
    return flat_refs, flat_preds, counts


def _rouge_rust_best(res, counts):
    """Best F over each item's references (ties to the first, as rouge-score's score_multi): per-item P, R, F of
    rouge1, rouge2, rougeL from the flat columns (numpy: first index of each item's maximum)."""
    import numpy as np

    counts = np.asarray(counts, dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    out = {}
    for t in TYPES_12L:
        p, r, f = (np.asarray(getattr(res, f"{t}_{k}")) for k in ("precision", "recall", "fmeasure"))
        mx = np.repeat(np.maximum.reduceat(f, starts), counts)
        best = np.minimum.reduceat(np.where(f == mx, np.arange(len(f)), len(f)), starts)
        out[t] = list(zip(p[best].tolist(), r[best].tolist(), f[best].tolist()))
    return out


def _rouge_rust_check(items) -> dict:
    n = len(next(iter(items.values())))
    return {"items": items, "mean": {t: tuple(math.fsum(x[k] for x in v) / n for k in range(3))
                                     for t, v in items.items()}}


def rouge_rust_pytok(w, tokenizer: str = "char"):
    """rouge-rust 0.1.12 (``fast_rouge``) fed our tokens: our tokenizer object in Python, ASCII ids, then
    ``score_batch_flat`` and the best F over references -- all timed."""
    import fast_rouge
    from zheval.tokenizers import get_tokenizer

    tok = get_tokenizer(tokenizer)

    def run():
        refs, preds, counts = _rouge_rust_inputs(w, tok.tokenize)
        return _rouge_rust_best(fast_rouge.score_batch_flat(refs, preds), counts)

    return run, _rouge_rust_check, None


def rouge_rust_jieba(w):
    return rouge_rust_pytok(w, "jieba")


def rouge_rust_scoring(w):
    """rouge-rust's scoring alone: ``score_batch_flat`` on (reference, prediction) ASCII-id strings made in setup
    (our char tokens), and the three F columns read -- the floor of what any tokenise-then-score pipeline costs."""
    import fast_rouge

    refs, preds, counts = _rouge_rust_inputs(w, _char_tokenizer().tokenize)
    _clear()

    def run():
        res = fast_rouge.score_batch_flat(refs, preds)
        return res.rouge1_fmeasure, res.rouge2_fmeasure, res.rougeL_fmeasure

    return run, lambda out: {"pairs": len(out[0])}, None


def floor_normalize(w):
    """zheval's corpus-at-once normalisation of every distinct text, alone."""
    from zheval.text.normalize_corpus import normalize_corpus

    tok = _char_tokenizer()
    texts = list(dict.fromkeys(w["predictions"] + [r for rs in w["references"] for r in rs]))

    def run():
        return normalize_corpus(texts, tok.normalizer)

    return run, lambda out: {"chars": int(len(out.codepoints))}, None


def floor_tokenize_corpus(w):
    """zheval's whole char tokenisation of the corpus (normalisation, sentence pieces, token ids), alone."""
    from zheval.tokenizers.corpus import tokenize_corpus

    tok = _char_tokenizer()
    preds, refs = w["predictions"], w["references"]

    def run():
        return tokenize_corpus(preds, refs, tok, "punct", char_ids=True)

    return run, lambda out: {"tokens": int(len(out.ids))}, None


def _corpus_layout(w):
    from zheval.fast.index import CorpusLayout
    from zheval.tokenizers.corpus import tokenize_corpus

    corpus = tokenize_corpus(w["predictions"], w["references"], _char_tokenizer(), "punct", char_ids=True)
    return corpus, CorpusLayout


def floor_ngrams_corpus(w):
    """zheval's n-gram counting of orders 1-2 and the ROUGE-1/2 hits of every pair, on a tokenised corpus."""
    from zheval.fast.ngrams import pair_clipped_hits

    corpus, Layout = _corpus_layout(w)

    def run():
        lay = Layout.from_corpus(corpus)
        hyp = lay.hyp[lay.pair_item]
        return [pair_clipped_hits(lay.ngram_counts(n), hyp, lay.ref).sum() for n in (1, 2)]

    return run, lambda out: {"hits": [int(x) for x in out]}, None


def floor_lcs_corpus(w):
    """zheval's whole-text LCS of every pair (bit-parallel, vectorised across pairs), on a tokenised corpus."""
    from zheval.fast.lcs import lcs_length_pairs

    corpus, Layout = _corpus_layout(w)

    def run():
        lay = Layout.from_corpus(corpus)
        return lcs_length_pairs(*lay.flat(), lay.hyp[lay.pair_item], lay.ref).sum()

    return run, lambda out: {"lcs": int(out)}, None
