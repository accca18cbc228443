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
}

#: Implementations that take minutes on W2-2000 and are left out there unless named with --only.
SLOW_ON_LARGE = {"rouge-score", "lcs-dp"}
#: Implementations that make no sense on W2 (BLEU on 1-reference long texts is still meaningful; all run).
ROUGE_ONLY_WORKLOADS = {"W2-200", "W2-2000"}


def applicable(name: str, workload: str) -> bool:
    kind = IMPLS[name][0]
    if workload in ROUGE_ONLY_WORKLOADS and kind in ("bleu", "both"):
        return False
    if workload in ROUGE_ONLY_WORKLOADS and name in ("floor-ngrams",):
        return False
    return True
