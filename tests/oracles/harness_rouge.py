"""The scoring code of OpenCompass ``JiebaRougeEvaluator`` and of the GLM-4 fine-tuning demo's ``compute_metrics``,
verbatim (only the framework around them removed), for the leaderboard preset tests. They import the real
``jieba`` (global instance), ``rouge_chinese`` 1.0.3 and ``nltk``; nothing of zheval.

* OpenCompass, https://github.com/open-compass/opencompass at commit a5acc4bba3b658f151617a3b393602110fb7a740
  (2026-08-19): ``general_postprocess`` from ``opencompass/utils/text_postprocessors.py`` and the body of
  ``JiebaRougeEvaluator.score`` from ``opencompass/openicl/icl_evaluator/icl_jieba_rouge_evaluator.py`` (the class
  without its ``BaseEvaluator`` base and registry decorator, which import torch).
* GLM-4, https://github.com/THUDM/GLM-4 at commit 3f79b543647b792aa167c712cd327475ec423f7b (2025-07-04):
  ``compute_metrics`` from ``finetune/finetune.py``, its decoding (``tokenizer.decode(ids).strip()``) replaced by
  the decoded texts themselves (``glm4_compute_metrics(pred_txts, label_txts)``): ``.strip()`` is kept. It returns
  the demo's dict and, besides it, the per-item lists it averaged (``metrics_dct``), for per-item comparison.
"""

import re

import jieba
import numpy as np
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
from rouge_chinese import Rouge


# --- opencompass/utils/text_postprocessors.py (verbatim) -------------------------------------------------------
def general_postprocess(text: str) -> str:
    # Cut off the first newline, period, or comma
    truncated_text = re.split(r'[\n.,]', text, 1)[0]

    # Remove punctuation
    no_punctuation = re.sub(r'[^\w\s]', '', truncated_text)

    # Remove article
    no_articles = re.sub(r'\b(a|an|the)\b',
                         '',
                         no_punctuation,
                         flags=re.IGNORECASE)

    # Remove duplicated blank spaces
    cleaned_text = re.sub(r'\s+', ' ', no_articles).strip()

    return cleaned_text


# --- opencompass/openicl/icl_evaluator/icl_jieba_rouge_evaluator.py (verbatim, base class dropped) -------------
class JiebaRougeEvaluator:
    """This Evaluator will first use jieba for tokenization, and then calculate
    the rouge score.

    This Evaluator especially suitable for evaluating Chinese datasets.
    """

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions, references):
        if len(predictions) != len(references):
            return {
                'error': 'predictions and references have different '
                'length'
            }
        predictions = [general_postprocess(i) for i in predictions]
        references = [general_postprocess(i) for i in references]

        metric = Rouge()
        predictions = [' '.join(jieba.cut(i)) for i in predictions]
        references = [' '.join(jieba.cut(i)) for i in references]

        # avoid raising error when empty string encountered
        predictions = [i if i else '__PREDPLACEHOLDER__' for i in predictions]
        references = [i if i else '__REFRPLACEHOLDER__' for i in references]

        score = metric.get_scores(predictions, references, avg=True)

        return {
            'rouge1': score['rouge-1']['f'] * 100,
            'rouge2': score['rouge-2']['f'] * 100,
            'rougeL': score['rouge-l']['f'] * 100,
        }


# --- finetune/finetune.py compute_metrics (verbatim, decoding replaced by the decoded texts) --------------------
def glm4_compute_metrics(pred_txts, label_txts):
    metrics_dct = {"rouge-1": [], "rouge-2": [], "rouge-l": [], "bleu-4": []}
    for pred_txt, label_txt in zip(pred_txts, label_txts):
        pred_txt = pred_txt.strip()
        label_txt = label_txt.strip()
        pred_tokens = list(jieba.cut(pred_txt))
        label_tokens = list(jieba.cut(label_txt))
        rouge = Rouge()
        scores = rouge.get_scores(" ".join(pred_tokens), " ".join(label_tokens))
        for k, v in scores[0].items():
            metrics_dct[k].append(round(v["f"] * 100, 4))
        metrics_dct["bleu-4"].append(
            sentence_bleu(
                [label_tokens],
                pred_tokens,
                smoothing_function=SmoothingFunction().method3,
            )
        )
    return {k: np.mean(v) for k, v in metrics_dct.items()}, metrics_dct
