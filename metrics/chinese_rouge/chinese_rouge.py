# Copyright 2026 The zheval Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""chinese_rouge: the full ROUGE family on Chinese tokens, with a rouge-score cross-check and presets.

A thin evaluate wrapper: all logic lives in the zheval library (zheval.compute.rouge.compute_rouge).
"""

import evaluate

from zheval.adapters.evaluate_module import ZhevalMetricMixin  # From: zheval


_CITATION = """\
@inproceedings{lin-2004-rouge,
    title = "{ROUGE}: A Package for Automatic Evaluation of Summaries",
    author = "Lin, Chin-Yew",
    booktitle = "Text Summarization Branches Out",
    year = "2004",
    address = "Barcelona, Spain",
    pages = "74--81",
    url = "https://aclanthology.org/W04-1013",
}
"""

_DESCRIPTION = """\
ROUGE (Lin, 2004) for Chinese: ROUGE-N, ROUGE-L, ROUGE-Lsum, ROUGE-W, ROUGE-S and ROUGE-SU computed on explicit
Chinese tokens (characters by default, or jieba words, or your own tokenizer) after an explicit normalisation,
both named in the result's signature. The Hub's "rouge" module keeps only [a-z0-9] and scores Chinese 0.

rouge1..rouge9 and rougeL equal rouge-score 0.1.2 fed the same tokens (crosscheck=True recomputes them with
rouge-score; the difference is 0). rougeLsum does too with sentence_split="newline" (rouge-score splits on newlines
only); with the default "punct" split it equals rouge-score given our sentences joined by "\n", which is what the
cross-check feeds it. The corpus value is the exact mean of per-item scores. Several references
per item are combined by an explicit rule (multi_ref): "max" (rouge-score's score_multi), "mean", "pool"
(ROUGE-1.5.5 -f A) or "best_recall" (-f B).

Presets reproduce other tools exactly: "rouge155" (ROUGE-1.5.5 -a -n 4 -w 1.2 -2 4 -U -f A -p 0.5 on the same
tokens, quirks included) and "llamafactory" (LLaMA-Factory's / ChatGLM's rouge-1/2/l: jieba words, rouge-chinese
semantics; their own 0-100 numbers are added as llamafactory_rouge_1 etc.). Leaderboard presets give the
published numbers bit for bit: "opencompass-jieba-rouge" (OpenCompass JiebaRougeEvaluator; adds opencompass_rouge1
etc.), "longbench" (LongBench rouge_zh_score, dureader/vcsum; adds longbench_rouge_l and longbench_rouge_l_uncut)
and "glm4" (the GLM-4 / ChatGLM3 fine-tuning demo; adds glm4_rouge_1 etc.).

Scores are on the 0-1 scale of the Hugging Face "rouge" module, whose output keys are kept.
"""

_KWARGS_DESCRIPTION = """
Computes Chinese ROUGE of predictions against references.

Args:
    predictions (`list` of `str`): one prediction per item (an empty string scores 0).
    references (`list` of `list` of `str`, or `list` of `str`): one or more references per item; the number may
        differ between items.
        A string and a list may be mixed across items and across add()/add_batch() calls.
        A blank reference, or one without a token after normalisation and tokenisation (e.g. "……" with
        punct="drop"), is an error naming every such references[i][j]. add()/add_batch() check a batch as compute()
        does and refuse a bad one whole; add/add_batch/compute hold the instance's lock (safe from several threads).
    Options are keyword arguments of compute(); evaluate.load() takes only evaluate's own arguments (a scoring
    option given to evaluate.load raises TypeError instead of being silently ignored).
    tokenizer (`str` or callable): "char" (default: one token per Han character, per run of letters/digits, per
        other symbol), "jieba" (a private jieba instance), "none" (text already split by spaces), or a callable
        `str -> list[str]`.
    rouge_types (`list` of `str`): default ["rouge1", "rouge2", "rougeL", "rougeLsum"]. Valid: "rouge1" ...
        "rouge9" (any N), "rougeL", "rougeLsum", "rougeW", "rougeS4"/"rougeSU4" (any skip distance),
        "rougeS*"/"rougeSU*" (unlimited).
    use_aggregator (`bool`): True (default) returns the mean over items; False one value per item.
    multi_ref (`str`): "max" (default), "mean", "pool" or "best_recall".
    beta (`float`): F-measure beta, default 1 (F1).
    return_precision_recall (`bool`): also return <type>_precision and <type>_recall.
    bootstrap (`int`): number of bootstrap resamples (at most 100000) for a 95% interval of each mean F (0 = none); `seed` seeds it.
    preset (`str`): "rouge155", "llamafactory", "opencompass-jieba-rouge", "longbench" or "glm4"; sets defaults,
        explicit arguments override them.
    crosscheck (`bool`): also recompute with rouge-score (rouge-chinese for "llamafactory") on the same tokens.
    rouge_w_weight (`float`): w of rougeW, default 1.2.
    sentence_split (`str`): for rougeLsum: "punct" (default: newlines and 。！？；… etc.) or "newline"
        (rouge-score's rule: only then is rougeLsum rouge-score's on the raw text's tokens).
    terms, punct, jieba_hmm, jieba_dict, normalize, t2s: tokenizer options, as in chinese_bleu.
    Options that only chinese_bleu uses (max_order, smooth_method, level, ...) are accepted and ignored, so that
    evaluate.combine([chinese_bleu, chinese_rouge]) takes one set of keyword arguments.

Returns:
    <type> (`float`, or `list` of `float` without the aggregator): F-measure in [0, 1] per ROUGE type.
    <type>_precision, <type>_recall: with return_precision_recall=True.
    <type>_ci_low, <type>_ci_high (`float`): with bootstrap > 0.
    signature (`str`): e.g. "nrefs:1|tok:char|norm:...|metric:rouge|types:...|multi:max|beta:1|split:punct|zheval:0.1.0".
    crosscheck (`dict`): with crosscheck=True: tool, types, items, max_abs_diff, scores.
    llamafactory_rouge_1, llamafactory_rouge_2, llamafactory_rouge_l (`float`): with preset="llamafactory":
        LLaMA-Factory's own numbers (0-100).
    opencompass_rouge1, opencompass_rouge2, opencompass_rougeL (`float`, 0-100), opencompass_placeholder_predictions,
        opencompass_placeholder_references (`int`): with preset="opencompass-jieba-rouge".
    longbench_rouge_l, longbench_rouge_l_uncut (`float`, 0-100, 2 decimals), longbench_cutoff_references,
        longbench_failed_references (`int`): with preset="longbench".
    glm4_rouge_1, glm4_rouge_2, glm4_rouge_l (`float`, 0-100): with preset="glm4".

Examples:

    >>> chinese_rouge = evaluate.load("./metrics/chinese_rouge")  # from the repository root; Hub: "<owner>/chinese_rouge"
    >>> results = chinese_rouge.compute(predictions=["猫坐在垫子上"], references=[["猫趴在垫子上面"]])
    >>> {k: round(v, 4) for k, v in results.items() if k != "signature"}
    {'rouge1': 0.7692, 'rouge2': 0.5455, 'rougeL': 0.7692, 'rougeLsum': 0.7692}

    Ragged references, more ROUGE types, and the rouge-score cross-check:

    >>> results = chinese_rouge.compute(
    ...     predictions=["不客气，祝您玩得愉快！", "地址在北京市东城区。"],
    ...     references=[["不客气！", "不用客气，祝您愉快！"], "地址是北京市东城区东直门。"],
    ...     rouge_types=["rouge1", "rougeL", "rougeSU4"],
    ...     crosscheck=True,
    ... )
    >>> round(results["rougeSU4"], 4), results["crosscheck"]["max_abs_diff"]
    (0.6574, 0.0)
    >>> results["signature"].split("|")[0]
    'nrefs:var'
"""



@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class ChineseRouge(ZhevalMetricMixin, evaluate.Metric):
    """Chinese ROUGE as an evaluate metric; see the module card (README.md)."""

    ZHEVAL_METRIC = "rouge"  # compute/add_batch/add/_compute: zheval.adapters.evaluate_module.ZhevalMetricMixin

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=self.zheval_features(),
            codebase_urls=["https://github.com/google-research/google-research/tree/master/rouge"],
            reference_urls=["https://aclanthology.org/W04-1013"],
        )
