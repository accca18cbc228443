"""LongBench's Chinese ROUGE-L, verbatim, run as LongBench runs it: ``python longbench_eval.py IN.json OUT.json``.

Copied from https://github.com/THUDM/LongBench at commit 2e00731f8d0bff23dc4325161044d0ed8af94c1e (2025-01-15):
``rouge_score`` and ``rouge_zh_score`` from ``LongBench/metrics.py`` (``from rouge import Rouge``: pltrdy ``rouge``
1.0.1, which the caller puts first on ``PYTHONPATH``), ``scorer`` from ``LongBench/eval.py`` (``dataset2metric``
reduced to the two datasets that use ``rouge_zh_score``). Nothing of zheval is imported.

Run as a script, it reads ``{"predictions": [...], "answers": [[...], ...], "recursion_limit": int|null}``, calls
``scorer`` **at module level**, as ``eval.py``'s ``__main__`` block does -- so the Python stack below pltrdy's recursive
``_recon`` is exactly LongBench's (the recursion cutoff depends on it) -- and writes ``{"score": scorer's number,
"items": per-item scores, "rouge_module": the file of the rouge module used}``. ``scorer_items`` is ``scorer`` with one
line added (the per-item list); it is called the same way, at the same depth.
"""

import json
import sys

import jieba
from rouge import Rouge


# --- LongBench/metrics.py (verbatim) ---------------------------------------------------------------------------
def rouge_score(prediction, ground_truth, **kwargs):
    rouge = Rouge()
    try:
        scores = rouge.get_scores([prediction], [ground_truth], avg=True)
    except:
        return 0.0
    return scores["rouge-l"]["f"]

def rouge_zh_score(prediction, ground_truth, **kwargs):
    prediction = " ".join(list(jieba.cut(prediction, cut_all=False)))
    ground_truth = " ".join(list(jieba.cut(ground_truth, cut_all=False))) 
    score = rouge_score(prediction, ground_truth)
    return score


dataset2metric = {
    "dureader": rouge_zh_score,
    "vcsum": rouge_zh_score,
}


# --- LongBench/eval.py (verbatim) ------------------------------------------------------------------------------
def scorer(dataset, predictions, answers, all_classes):
    total_score = 0.
    for (prediction, ground_truths) in zip(predictions, answers):
        score = 0.
        if dataset in ["trec", "triviaqa", "samsum", "lsht"]:
            prediction = prediction.lstrip('\n').split('\n')[0]
        for ground_truth in ground_truths:
            score = max(score, dataset2metric[dataset](prediction, ground_truth, all_classes=all_classes))
        total_score += score
    return round(100 * total_score / len(predictions), 2)


# --- the same, keeping the per-item scores (one added line) ----------------------------------------------------
def scorer_items(dataset, predictions, answers, all_classes):
    items = []
    for (prediction, ground_truths) in zip(predictions, answers):
        score = 0.
        for ground_truth in ground_truths:
            score = max(score, dataset2metric[dataset](prediction, ground_truth, all_classes=all_classes))
        items.append(score)
    return items


if __name__ == '__main__':
    import logging

    jieba.setLogLevel(logging.ERROR)
    with open(sys.argv[1], encoding="utf-8") as f:
        data = json.load(f)
    if data.get("recursion_limit"):
        sys.setrecursionlimit(data["recursion_limit"])
    predictions, answers = data["predictions"], data["answers"]
    score = scorer("dureader", predictions, answers, None)
    items = scorer_items("dureader", predictions, answers, None)
    import rouge
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump({"score": score, "items": items, "rouge_module": rouge.__file__,
                   "rouge_is_pltrdy": not hasattr(Rouge, "cut_sent")}, f)
