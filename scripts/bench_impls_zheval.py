"""``scripts/bench_impls.py``'s implementations of zheval itself: the library calls and the evaluate modules, from raw
text."""

from __future__ import annotations

import inspect
import os
from typing import Callable

from bench_impls_common import ROUGE_TYPES, SRC, _clear, rouge_check_from_result


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
