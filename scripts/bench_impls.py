"""The implementations that ``scripts/bench.py`` times, each on identical inputs.

Every implementation is ``setup(workload) -> run`` where ``run()`` does the timed work and returns its raw output,
and ``check(output) -> dict`` turns that output (untimed) into comparable numbers:

* ROUGE: ``{"mean": {type: (P, R, F)}, "items": {type: [(P, R, F), ...]} }`` (``items`` when available);
* BLEU: ``{"bleu": float}`` on the 0–1 scale (plus counts/totals when the tool reports them);
* floors: whatever they compute (LCS lengths, token counts), compared between the two LCS kernels.

``setup`` does everything that is not part of the measured job: imports, building scorer objects and
``evaluate.load`` (its file copy and import), and, for the *pre-tokenised* peers (``sacrebleu-none``, ``nltk``,
the n-gram and LCS floors), the tokenisation of their input with our char tokenizer. The zheval implementations
always start from raw text with an empty token cache (``zheval.tokenizers.clear_cache()`` right before ``run``).

Fairness (issue 8): rouge-score and rouge-score-rs get our char tokenizer *object* (rouge-score's ``tokenizer=``
interface; the object keeps its per-text token cache, cleared before each run, as for our own runs), the ROUGE
types ``rouge1, rouge2, rougeL, rougeLsum`` and ``score_multi`` (max F over references, ties to the first — our
``multi_ref="max"``). rougeLsum texts have one sentence per line (W2) and both sides split on ``"\\n"``.
"""

from __future__ import annotations

import inspect
import math
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, List

ROOT = Path(__file__).resolve().parents[1]
#: Where ``zheval`` and ``metrics/`` are imported from: the parent's snapshot of the code under test (see
#: ``bench.py --no-snapshot``), else the repository itself.
SRC = Path(os.environ.get("ZHEVAL_BENCH_SRC") or ROOT)
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))

ROUGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _char_tokenizer():
    from zheval.tokenizers import get_tokenizer

    return get_tokenizer("char")


def _clear():
    from zheval.tokenizers import clear_cache

    clear_cache()


# ---------------------------------------------------------------------------------------------------------------
# output normalisation


def _triple(v):
    """(P, R, F) from a rouge Score-like value, a dict, or a bare F float (P, R = None)."""
    if hasattr(v, "fmeasure"):
        return (float(v.precision), float(v.recall), float(v.fmeasure))
    if isinstance(v, dict):
        f = v.get("fmeasure", v.get("f", v.get("f1")))
        return (v.get("precision", v.get("p")), v.get("recall", v.get("r")), None if f is None else float(f))
    if isinstance(v, (int, float)):
        return (None, None, float(v))
    raise TypeError(f"cannot read a ROUGE score from {type(v).__name__}: {v!r}")


def _peer_check(per_item: List[Dict]) -> dict:
    items = {t: [(s[t].precision, s[t].recall, s[t].fmeasure) for s in per_item] for t in ROUGE_TYPES}
    n = len(per_item)
    mean = {t: tuple(math.fsum(x[k] for x in items[t]) / n for k in range(3)) for t in ROUGE_TYPES}
    return {"mean": mean, "items": items}


def rouge_check_from_result(res) -> dict:
    """Comparable numbers from a ``compute_rouge``/``chinese_rouge`` result (aggregated or per item)."""
    out: dict = {"mean": {}, "items": {}}
    for t in ROUGE_TYPES:
        v = res[t]
        if isinstance(v, (list, tuple)) and not hasattr(v, "fmeasure"):
            trip = [_triple(x) for x in v]
            ps, rs = res.get(f"{t}_precision"), res.get(f"{t}_recall")
            if isinstance(ps, list) and isinstance(rs, list):  # return_precision_recall=True
                trip = [(p, r, f) for p, r, (_p, _r, f) in zip(ps, rs, trip)]
            out["items"][t] = trip
            n = len(trip)
            out["mean"][t] = tuple(
                None if any(x[k] is None for x in trip) else math.fsum(x[k] for x in trip) / n for k in range(3)
            )
        else:
            p, r, f = _triple(v)
            # flat keys such as rouge1_precision / rouge1_recall (Hub-style extras)
            p = p if p is not None else res.get(f"{t}_precision")
            r = r if r is not None else res.get(f"{t}_recall")
            out["mean"][t] = (p, r, f)
    if not out["items"]:
        del out["items"]
    return out


# ---------------------------------------------------------------------------------------------------------------
# zheval: library calls and evaluate modules


def _rouge_kwargs(fn: Callable, per_item: bool) -> dict:
    params = inspect.signature(fn).parameters
    kw = {"rouge_types": list(ROUGE_TYPES), "tokenizer": "char"}
    if "multi_ref" in params:
        kw["multi_ref"] = "max"
    for name in ("sentence_split", "lsum_sentence_split", "lsum_split", "split_sentences"):
        if name in params:
            kw[name] = "newline"
            break
    else:
        if not any(p.kind == p.VAR_KEYWORD for p in params.values()):
            raise RuntimeError("compute_rouge has no sentence-split option; cannot match rouge-score's rougeLsum")
        kw["sentence_split"] = "newline"
    if per_item:
        kw["use_aggregator"] = False
        if "return_precision_recall" in params:
            kw["return_precision_recall"] = True
    return kw


def zheval_rouge(w):
    from zheval.compute.rouge import compute_rouge

    preds, refs = w["predictions"], w["references"]
    kw = _rouge_kwargs(compute_rouge, per_item=False)

    def run():
        return compute_rouge(preds, refs, **kw)

    def per_item():  # untimed, first repetition only: per-item agreement
        _clear()
        return compute_rouge(preds, refs, **_rouge_kwargs(compute_rouge, per_item=True))

    return run, rouge_check_from_result, per_item


def zheval_bleu(w):
    from zheval.compute.bleu import compute_bleu

    preds, refs = w["predictions"], w["references"]

    def run():
        return compute_bleu(preds, refs, tokenizer="char")

    return run, _bleu_check_ours, None


def zheval_bleu_sacrebleu_zh(w):
    from zheval.compute.bleu import compute_bleu

    preds, refs = w["predictions"], w["references"]

    def run():
        return compute_bleu(preds, refs, preset="sacrebleu-zh")

    return run, _bleu_check_ours, None


def zheval_both(w):
    """ROUGE and BLEU on the same texts in one go: ``zheval.score(..., metrics=("rouge", "bleu"))`` (one tokenisation
    shared by both) when zheval has it; otherwise ``compute_rouge`` then ``compute_bleu`` sharing the token cache."""
    import zheval
    from zheval.compute.rouge import compute_rouge

    preds, refs = w["predictions"], w["references"]
    kw = _rouge_kwargs(compute_rouge, per_item=False)
    try:
        combined = zheval.score
    except AttributeError:
        combined = None

    if combined is not None:
        def run():
            out = combined(preds, refs, metrics=("rouge", "bleu"), **kw)
            return out["rouge"], out["bleu"]
    else:
        from zheval.compute.bleu import compute_bleu

        def run():
            return compute_rouge(preds, refs, **kw), compute_bleu(preds, refs, tokenizer="char")

    def check(out):
        r, b = out
        c = rouge_check_from_result(r)
        c.update(_bleu_check_ours(b))
        return c

    return run, check, None


def _bleu_check_ours(res) -> dict:
    return {"bleu": float(res["bleu"]), "counts": list(res.get("counts", [])), "totals": list(res.get("totals", []))}


def _evaluate_module(name: str):
    os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    import evaluate

    path = SRC / "metrics" / name
    if not (path / f"{name}.py").exists():
        raise ImportError(f"{path}/{name}.py does not exist yet")
    return evaluate.load(str(path))


def evaluate_rouge(w):
    mod = _evaluate_module("chinese_rouge")
    preds, refs = w["predictions"], w["references"]
    kw = {"rouge_types": list(ROUGE_TYPES), "tokenizer": "char", "multi_ref": "max", "sentence_split": "newline"}

    def run():
        return mod.compute(predictions=preds, references=refs, **kw)

    return run, rouge_check_from_result, None


def evaluate_bleu(w):
    mod = _evaluate_module("chinese_bleu")
    preds, refs = w["predictions"], w["references"]

    def run():
        return mod.compute(predictions=preds, references=refs, tokenizer="char")

    return run, _bleu_check_ours, None


# ---------------------------------------------------------------------------------------------------------------
# peers: ROUGE


def rouge_score_peer(w):
    from rouge_score import rouge_scorer

    tok = _char_tokenizer()
    preds, refs = w["predictions"], w["references"]

    def run():
        scorer = rouge_scorer.RougeScorer(ROUGE_TYPES, tokenizer=tok)
        return [scorer.score_multi(rs, p) for p, rs in zip(preds, refs)]

    return run, _peer_check, None


def rouge_score_rs_pytok(w):
    import rouge_score_rs

    tok = _char_tokenizer()
    preds, refs = w["predictions"], w["references"]

    def run():
        scorer = rouge_score_rs.RougeScorer(ROUGE_TYPES, tokenizer=tok)
        return [scorer.score_multi(rs, p) for p, rs in zip(preds, refs)]

    return run, _peer_check, None


def rouge_score_rs_native(w):
    """rouge-score-rs with its own Rust Unicode tokenizer (ideographs one token each, punctuation dropped): a
    different tokenisation, so its numbers are reported but not required to agree."""
    import rouge_score_rs
    from rouge_score_rs.tokenizers import UnicodeTokenizer

    preds, refs = w["predictions"], w["references"]

    def run():
        scorer = rouge_score_rs.RougeScorer(ROUGE_TYPES, tokenizer=UnicodeTokenizer())
        return [scorer.score_multi(rs, p) for p, rs in zip(preds, refs)]

    return run, _peer_check, None


# ---------------------------------------------------------------------------------------------------------------
# peers: BLEU


def _streams(refs: List[List[str]]) -> List[List]:
    width = max(len(rs) for rs in refs)
    return [[rs[k] if k < len(rs) else None for rs in refs] for k in range(width)]


def sacrebleu_zh(w):
    from sacrebleu.metrics import BLEU

    preds = w["predictions"]
    streams = _streams(w["references"])

    def run():
        return BLEU(tokenize="zh").corpus_score(preds, streams)

    return run, _bleu_check_sacrebleu, None


def _our_tokens(w):
    tok = _char_tokenizer()
    hyps = [tok.tokenize(p) for p in w["predictions"]]
    refs = [[tok.tokenize(r) for r in rs] for rs in w["references"]]
    _clear()
    return hyps, refs


def sacrebleu_none(w):
    from sacrebleu.metrics import BLEU

    hyps, refs = _our_tokens(w)
    preds = [" ".join(h) for h in hyps]
    streams = _streams([[" ".join(r) for r in rs] for rs in refs])

    def run():
        return BLEU(tokenize="none").corpus_score(preds, streams)

    return run, _bleu_check_sacrebleu, None


def _bleu_check_sacrebleu(res) -> dict:
    return {"bleu": res.score / 100.0, "counts": list(res.counts), "totals": list(res.totals)}


def nltk_bleu(w):
    from nltk.translate.bleu_score import corpus_bleu

    hyps, refs = _our_tokens(w)

    def run():
        return corpus_bleu(refs, hyps)

    return run, lambda s: {"bleu": float(s)}, None


# ---------------------------------------------------------------------------------------------------------------
# floors


def floor_tokenize(w):
    """Normalise + char-tokenise every *distinct* text once (what a tokenise-once cache must pay at least)."""
    tok = _char_tokenizer()
    texts = list(dict.fromkeys(w["predictions"] + [r for rs in w["references"] for r in rs]))
    norm, split = tok.normalizer, tok.tokenize_normalized

    def run():
        return [split(norm(t)) for t in texts]

    return run, lambda out: {"distinct_texts": len(out), "tokens": sum(map(len, out))}, None


def floor_ngrams(w):
    """Counters of the n-grams of orders 1–4 of every text *occurrence* (prediction and each reference of each
    item), on token tuples: the counting that per-item n-gram scoring does."""
    hyps, refs = _our_tokens(w)
    seqs = [tuple(h) for h in hyps] + [tuple(r) for rs in refs for r in rs]

    def run():
        out = 0
        for s in seqs:
            out += len(Counter(s))
            for n in (2, 3, 4):
                out += len(Counter(zip(*[s[i:] for i in range(n)])))
        return out

    return run, lambda out: {"distinct_ngrams_summed": out}, None


def _pairs(w):
    hyps, refs = _our_tokens(w)
    return [(h, r) for h, rs in zip(hyps, refs) for r in rs]


def lcs_dp(w):
    """LCS length of every (prediction, reference) pair (whole texts), textbook O(m·n) DP in pure Python (the
    algorithm of rouge-score's ``_lcs_table``), two rows."""
    pairs = _pairs(w)

    def lcs(a, b):
        prev = [0] * (len(b) + 1)
        for x in a:
            cur = [0]
            for j, y in enumerate(b):
                if x == y:
                    cur.append(prev[j] + 1)
                else:
                    u, l = prev[j + 1], cur[j]
                    cur.append(u if u > l else l)
            prev = cur
        return prev[-1]

    def run():
        return [lcs(a, b) for a, b in pairs]

    return run, lambda out: {"lcs": out}, None


def lcs_bitparallel(w):
    """The same LCS lengths with zheval.definitions.lcs.lcs_length (bit-parallel on Python ints)."""
    from zheval.definitions.lcs import lcs_length

    pairs = _pairs(w)

    def run():
        return [lcs_length(a, b) for a, b in pairs]

    return run, lambda out: {"lcs": out}, None


# ---------------------------------------------------------------------------------------------------------------
# issue 17: distinct text (W3), every tokenizer configuration and ROUGE type, rouge-rust, long pairs

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


_DEFAULT = {}
_LONG_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"]


# ---------------------------------------------------------------------------------------------------------------
# registry: name -> (kind, setup, ours?, description)

IMPLS = {
    "zheval-rouge": ("rouge", zheval_rouge, True, "zheval compute_rouge(tokenizer='char', multi_ref='max')"),
    "evaluate-chinese_rouge": ("rouge", evaluate_rouge, True, "evaluate.load('metrics/chinese_rouge').compute"),
    "rouge-score": ("rouge", rouge_score_peer, False, "rouge-score 0.1.2 score_multi, our char tokenizer object"),
    "rouge-score-rs/pytok": ("rouge", rouge_score_rs_pytok, False, "rouge-score-rs 0.2.1 score_multi, our char tokenizer object"),
    "rouge-score-rs/native": ("rouge", rouge_score_rs_native, False, "rouge-score-rs 0.2.1 score_multi, its Rust UnicodeTokenizer"),
    "zheval-bleu": ("bleu", zheval_bleu, True, "zheval compute_bleu(tokenizer='char'), raw text"),
    "zheval-bleu/sacrebleu-zh": ("bleu", zheval_bleu_sacrebleu_zh, True, "zheval compute_bleu(preset='sacrebleu-zh'), raw text"),
    "evaluate-chinese_bleu": ("bleu", evaluate_bleu, True, "evaluate.load('metrics/chinese_bleu').compute"),
    "sacrebleu-zh": ("bleu", sacrebleu_zh, False, "sacrebleu 2.6.0 BLEU(tokenize='zh') on raw text"),
    "sacrebleu-none": ("bleu", sacrebleu_none, False, "sacrebleu 2.6.0 BLEU(tokenize='none') on our tokens, space-joined"),
    "nltk": ("bleu", nltk_bleu, False, "nltk corpus_bleu on our token lists"),
    "zheval-both": ("both", zheval_both, True, "zheval.score(metrics=('rouge','bleu')): one tokenisation for both"),
    "floor-tokenize": ("floor", floor_tokenize, False, "normalise + char-tokenise each distinct text once"),
    "floor-ngrams": ("floor", floor_ngrams, False, "n-gram Counters, orders 1-4, every text occurrence"),
    "lcs-dp": ("floor", lcs_dp, False, "LCS lengths of all pairs, O(m*n) DP in Python"),
    "lcs-bitparallel": ("floor", lcs_bitparallel, False, "LCS lengths of all pairs, zheval.definitions.lcs bit-parallel"),
    # issue 17
    "zheval-rouge/default": ("rouge", _zheval_rouge_with({}), True,
                             "zheval compute_rouge defaults: char, rouge1/2/L/Lsum, sentence_split='punct'"),
    "zheval-both/default": ("both", _zheval_rouge_with({}, both=True), True,
                            "zheval.score(metrics=('rouge','bleu')) defaults"),
    "zheval-rouge/12L": ("rouge", _zheval_rouge_with({"rouge_types": TYPES_12L}), True,
                         "zheval compute_rouge(rouge_types=rouge1/2/L), char"),
    "zheval-rouge/punct-drop": ("rouge", _zheval_rouge_with({"punct": "drop"}), True,
                                "zheval compute_rouge(punct='drop') defaults otherwise"),
    "zheval-rouge/terms": ("rouge", _zheval_rouge_with({"terms": TERMS}), True,
                           "zheval compute_rouge(terms=<20 frequent words>)"),
    "zheval-rouge/none": ("rouge", _zheval_rouge_with({"tokenizer": "none"}, pretokenised=True), True,
                          "zheval compute_rouge(tokenizer='none') on the texts' char tokens joined by spaces"),
    "zheval-rouge/jieba": ("rouge", _zheval_rouge_with({"tokenizer": "jieba"}), True,
                           "zheval compute_rouge(tokenizer='jieba') defaults otherwise"),
    "zheval-rouge/jieba-12L": ("rouge", _zheval_rouge_with({"tokenizer": "jieba", "rouge_types": TYPES_12L}), True,
                               "zheval compute_rouge(tokenizer='jieba', rouge_types=rouge1/2/L)"),
    "zheval-both/jieba": ("both", _zheval_rouge_with({"tokenizer": "jieba"}, both=True), True,
                          "zheval.score(metrics=('rouge','bleu'), tokenizer='jieba')"),
    "zheval-rouge/jieba-terms": ("rouge", _zheval_rouge_with({"tokenizer": "jieba", "terms": TERMS}), True,
                                 "zheval compute_rouge(tokenizer='jieba', terms=<20 frequent words>)"),
    "rouge-rust/pytok": ("rouge", rouge_rust_pytok, False,
                         "rouge-rust 0.1.12 score_batch_flat, fed our char tokens (tokenised in Python, ASCII ids)"),
    "rouge-rust/jieba": ("rouge", rouge_rust_jieba, False,
                         "rouge-rust 0.1.12 score_batch_flat, fed our jieba tokens (jieba 0.42.1 in Python)"),
    "rouge-rust/scoring": ("floor", rouge_rust_scoring, False,
                           "rouge-rust 0.1.12 score_batch_flat alone, on ASCII-id strings made in setup"),
    "floor-normalize": ("floor", floor_normalize, False, "zheval corpus-at-once normalisation of the distinct texts"),
    "floor-tokenize/corpus": ("floor", floor_tokenize_corpus, False,
                              "zheval char tokenisation of the corpus (normalise + sentences + ids)"),
    "floor-ngrams/corpus": ("floor", floor_ngrams_corpus, False,
                            "zheval n-gram counts (orders 1-2) and ROUGE-1/2 hits of every pair, tokenised corpus"),
    "floor-lcs/corpus": ("floor", floor_lcs_corpus, False, "zheval whole-text LCS of every pair, tokenised corpus"),
}
for _t in ("rougeW", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"):
    IMPLS[f"zheval-rouge/{_t[5:]}"] = ("rouge", _zheval_rouge_with({"rouge_types": [_t]}), True,
                                       f"zheval compute_rouge(rouge_types=['{_t}']), char")
for _t in _LONG_TYPES:
    IMPLS[f"zheval-type/{_t}"] = ("long", _zheval_rouge_with({"rouge_types": [_t]}), True,
                                  f"zheval compute_rouge(rouge_types=['{_t}']), char, defaults otherwise")

IMPLS["zheval-both/12L"] = ("both", _zheval_rouge_with({"rouge_types": TYPES_12L}, both=True), True,
                            "zheval.score(metrics=('rouge','bleu'), rouge_types=rouge1/2/L), char")
try:  # issue 26: the perf-floor prototype, side by side (registered only where ../shared/perf-floor is)
    from bench_floor3_impls import IMPLS as _FLOOR3_IMPLS
except ImportError:  # run from elsewhere than scripts/
    _FLOOR3_IMPLS = {}
IMPLS.update(_FLOOR3_IMPLS)

#: Implementations that use every core (rouge-rust's Rayon pool): their children run without RAYON_NUM_THREADS=1.
MULTI_THREADED = {"rouge-rust/pytok", "rouge-rust/jieba", "rouge-rust/scoring"}
#: Implementations measured on W3 only (the distinct-text workload of issue 17).
W3_ONLY = {n for n in IMPLS if n.startswith(("zheval-rouge/", "zheval-both/", "rouge-rust/", "floor3/"))
           or n in ("floor-normalize", "floor-tokenize/corpus", "floor-ngrams/corpus", "floor-lcs/corpus")}
#: ... except these, which also run on W2-200 (issue 17: ROUGE-W on long summaries, against the previous code).
ALSO_ON_W2_200 = {"zheval-rouge/W"}
#: The long single-pair workloads, where only the ``zheval-type/*`` implementations run.
LONG_WORKLOADS = {"L100k", "L10kx10"}

#: Implementations that take minutes on W2-2000 and are left out there unless named with --only.
SLOW_ON_LARGE = {"rouge-score", "lcs-dp"}
#: Implementations that make no sense on W2 (BLEU on 1-reference long texts is still meaningful; all run).
ROUGE_ONLY_WORKLOADS = {"W2-200", "W2-2000"}


def applicable(name: str, workload: str) -> bool:
    kind = IMPLS[name][0]
    if workload in LONG_WORKLOADS or kind == "long":
        return workload in LONG_WORKLOADS and kind == "long"
    if name in W3_ONLY:
        return workload == "W3" or (workload == "W2-200" and name in ALSO_ON_W2_200)
    if workload in ROUGE_ONLY_WORKLOADS and kind in ("bleu", "both"):
        return False
    if workload in ROUGE_ONLY_WORKLOADS and name in ("floor-ngrams",):
        return False
    return True
