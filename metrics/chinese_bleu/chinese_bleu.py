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
"""chinese_bleu: corpus and sentence BLEU on Chinese tokens, with a sacrebleu cross-check and presets.

A thin evaluate wrapper: all logic lives in the zheval library (zheval.compute.bleu.compute_bleu).
"""

import evaluate

from zheval.adapters.evaluate_module import ZhevalMetricMixin  # From: zheval


_CITATION = """\
@inproceedings{papineni-etal-2002-bleu,
    title = "{B}leu: a Method for Automatic Evaluation of Machine Translation",
    author = "Papineni, Kishore and Roukos, Salim and Ward, Todd and Zhu, Wei-Jing",
    booktitle = "Proceedings of the 40th Annual Meeting of the Association for Computational Linguistics",
    year = "2002",
    pages = "311--318",
    url = "https://aclanthology.org/P02-1040",
}
@inproceedings{post-2018-call,
    title = "A Call for Clarity in Reporting {BLEU} Scores",
    author = "Post, Matt",
    booktitle = "Proceedings of the Third Conference on Machine Translation: Research Papers",
    year = "2018",
    pages = "186--191",
    url = "https://aclanthology.org/W18-6319",
}
@inproceedings{chen-cherry-2014-systematic,
    title = "A Systematic Comparison of Smoothing Techniques for Sentence-Level {BLEU}",
    author = "Chen, Boxing and Cherry, Colin",
    booktitle = "Proceedings of the Ninth Workshop on Statistical Machine Translation",
    year = "2014",
    pages = "362--367",
    url = "https://aclanthology.org/W14-3346",
}
"""

_DESCRIPTION = """\
BLEU (Papineni et al., 2002) for Chinese, computed on explicit Chinese tokens (characters by default, or jieba
words, or your own tokenizer) after an explicit normalisation, both named in the result's signature.

Corpus BLEU is computed from summed per-item n-gram statistics (clipped matches against the maximum count over all
references of an item, closest reference length with ties to the shorter one), exactly as sacrebleu does: with
crosscheck=True the number is recomputed by sacrebleu (tokenize="none") on the same tokens, and the difference is 0.
Sentence BLEU (level="sentence") scores each item alone, with sacrebleu's effective order, and reports the mean.

Presets reproduce the numbers of other tools exactly: "sacrebleu-zh" is sacrebleu.corpus_bleu(..., tokenize="zh")
on raw text (its tokenisation, quirks included); "llamafactory" is LLaMA-Factory's / ChatGLM's "bleu-4" (per-item
nltk sentence_bleu with smoothing method 3 on Python characters, averaged); "glm4" is the GLM-4 / ChatGLM3
fine-tuning demo's "bleu-4" (the same nltk sentence_bleu on its jieba words, averaged on the 0-1 scale).

Scores are on the 0-1 scale of the Hugging Face "bleu" module, whose output keys are kept.
"""

_KWARGS_DESCRIPTION = """
Computes Chinese BLEU of predictions against references.

Args:
    predictions (`list` of `str`): one prediction per item (an empty string scores 0).
    references (`list` of `list` of `str`, or `list` of `str`): one or more references per item; the number may
        differ between items. Not sacrebleu's transposed layout (one list per reference set).
        A string and a list may be mixed across items and across add()/add_batch() calls.
        A blank reference, or one without a token after normalisation and tokenisation (e.g. "……" with
        punct="drop"), is an error naming every such references[i][j]. add()/add_batch() check a batch as compute()
        does and refuse a bad one whole; add/add_batch/compute hold the instance's lock (safe from several threads).
    Options are keyword arguments of compute(); evaluate.load() takes only evaluate's own arguments (a scoring
    option given to evaluate.load raises TypeError instead of being silently ignored).
    tokenizer (`str` or callable): "char" (default: one token per Han character, per run of letters/digits, per
        other symbol), "jieba" (a private jieba instance), "none" (text already split by spaces),
        "sacrebleu-zh", "llamafactory-char", or a callable `str -> list[str]`.
    max_order (`int`): highest n-gram order. Defaults to 4.
    smooth_method (`str`): "exp" (default, sacrebleu's), "none", "floor", "add-k", or "nltk3" (nltk's
        SmoothingFunction().method3).
    smooth_value (`float`): for "floor" (default 0.1) and "add-k" (default 1).
    bp_ref_length (`str`): reference length in the brevity penalty: "closest" (default), "shortest", or "none"
        (no brevity penalty).
    level (`str`): "corpus" (default) or "sentence" (mean of per-item scores; the list is returned as `scores`).
    effective_order (`bool`): sacrebleu's effective order; default True at sentence level, False at corpus level.
    weights (`list` of `float`): optional per-order weights (default uniform).
    preset (`str`): "sacrebleu-zh", "llamafactory" or "glm4"; sets defaults, explicit arguments override them.
    crosscheck (`bool`): also recompute with sacrebleu (nltk for "nltk3") on the same tokens; adds `crosscheck`.
    bootstrap (`int`): number of bootstrap resamples (at most 100000) for a 95% interval (0 = none); `seed` (`int`) seeds it.
    terms, punct, jieba_hmm, jieba_dict, normalize, t2s: tokenizer options, as in chinese_rouge.
    Options that only chinese_rouge uses (rouge_types, use_aggregator, multi_ref, beta, ...) are accepted and
    ignored, so that evaluate.combine([chinese_bleu, chinese_rouge]) takes one set of keyword arguments.

Returns:
    bleu (`float`): BLEU in [0, 1].
    precisions (`list` of `float`): n-gram precisions (after smoothing), orders 1..max_order.
    brevity_penalty (`float`), length_ratio (`float`), translation_length (`int`), reference_length (`int`).
    counts, totals (`list` of `int`): clipped matches and hypothesis n-grams per order, summed over items.
    level (`str`) and signature (`str`): what was computed, e.g.
        "nrefs:1|tok:char|norm:...|metric:bleu|level:corpus|order:4|smooth:exp|bp:closest|eff:no|zheval:0.1.0".
    scores (`list` of `float`): per-item BLEU, with level="sentence".
    bleu_ci_low, bleu_ci_high (`float`): with bootstrap > 0.
    crosscheck (`dict`): with crosscheck=True: tool, bleu, max_abs_diff, items.
    llamafactory_bleu_4 (`float`): with preset="llamafactory": LLaMA-Factory's own number (0-100).
    glm4_bleu_4 (`float`): with preset="glm4": the GLM-4 demo's own number (0-1, unrounded).

Examples:

    >>> chinese_bleu = evaluate.load("./metrics/chinese_bleu")  # from the repository root; Hub: "<owner>/chinese_bleu"
    >>> predictions = ["我爱北京天安门"]
    >>> references = [["我爱北京的天安门"]]
    >>> results = chinese_bleu.compute(predictions=predictions, references=references)
    >>> round(results["bleu"], 4), results["translation_length"], results["reference_length"]
    (0.5154, 7, 8)
    >>> results["counts"], results["totals"]
    ([7, 5, 3, 1], [7, 6, 5, 4])

    A two-character exact match has no 3-grams: 0 as corpus BLEU, 1 as sentence BLEU (effective order).

    >>> chinese_bleu.compute(predictions=["你好"], references=["你好"])["bleu"]
    0.0
    >>> chinese_bleu.compute(predictions=["你好"], references=["你好"], level="sentence")["scores"]
    [1.0]

    References may be ragged, and the score can be cross-checked against sacrebleu:

    >>> results = chinese_bleu.compute(
    ...     predictions=["不客气，祝您玩得愉快！", "地址在北京市东城区。"],
    ...     references=[["不客气！", "不用客气，祝您愉快！"], ["地址是北京市东城区东直门。"]],
    ...     crosscheck=True,
    ... )
    >>> results["crosscheck"]["max_abs_diff"]
    0.0
    >>> results["signature"].split("|")[0]
    'nrefs:var'
"""

# Options of chinese_rouge that mean nothing to BLEU (rouge_types, use_aggregator, multi_ref, beta, rouge_w_weight,
# sentence_split, return_precision_recall): accepted and ignored, because evaluate.combine sends every keyword
# argument to every module. Taken from zheval.compute.rouge so that the two modules never drift apart.


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class ChineseBleu(ZhevalMetricMixin, evaluate.Metric):
    """Chinese BLEU as an evaluate metric; see the module card (README.md)."""

    ZHEVAL_METRIC = "bleu"  # compute/add_batch/add/_compute: zheval.adapters.evaluate_module.ZhevalMetricMixin

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=self.zheval_features(),
            codebase_urls=["https://github.com/mjpost/sacrebleu", "https://github.com/nltk/nltk"],
            reference_urls=[
                "https://aclanthology.org/P02-1040",
                "https://aclanthology.org/W18-6319",
                "https://aclanthology.org/W14-3346",
            ],
        )
