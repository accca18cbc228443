"""``scripts/bench_impls.py``'s peers: rouge-score, rouge-score-rs, sacrebleu and nltk, on the same inputs (our
tokenizer where the peer takes one)."""

from __future__ import annotations

from typing import List

from bench_impls_common import ROUGE_TYPES, _char_tokenizer, _clear, _peer_check


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
