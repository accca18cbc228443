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
"""chinese_chrf: chrF and chrF++ on Chinese, equal to sacrebleu's CHRF on the same normalised text.

A thin evaluate wrapper: all logic lives in the zheval library (zheval.compute.chrf.compute_chrf).
"""

import evaluate

from zheval.adapters.evaluate_module import ZhevalMetricMixin  # From: zheval


_CITATION = """\
@inproceedings{popovic-2015-chrf,
    title = "chr{F}: character n-gram {F}-score for automatic {MT} evaluation",
    author = "Popovi{\\'c}, Maja",
    booktitle = "Proceedings of the Tenth Workshop on Statistical Machine Translation",
    year = "2015",
    pages = "392--395",
    url = "https://aclanthology.org/W15-3049",
}
@inproceedings{popovic-2017-chrf,
    title = "chr{F}++: words helping character n-grams",
    author = "Popovi{\\'c}, Maja",
    booktitle = "Proceedings of the Second Conference on Machine Translation",
    year = "2017",
    pages = "612--618",
    url = "https://aclanthology.org/W17-4770",
}
@inproceedings{post-2018-call,
    title = "A Call for Clarity in Reporting {BLEU} Scores",
    author = "Post, Matt",
    booktitle = "Proceedings of the Third Conference on Machine Translation: Research Papers",
    year = "2018",
    pages = "186--191",
    url = "https://aclanthology.org/W18-6319",
}
"""

_DESCRIPTION = """\
chrF (Popovic, 2015) is an F-score of character n-grams (orders 1-6, recall weighted by beta = 2); chrF++
(Popovic, 2017) adds word unigrams and bigrams. On Chinese the character part needs no word segmentation.

The characters are those of the text after an explicit normalisation (whitespace ignored, as chrF does); chrF++'s
words are the tokens of an explicit tokenizer (characters by default, or jieba words), each losing one ASCII
punctuation character at its end or start as sacrebleu does. Both are named in the result's signature. With the
same normalised text the numbers equal sacrebleu's CHRF (to 1e-9 on real data): the corpus score is one F-score of
statistics summed over items, and with several references each item keeps the reference with the best F-score.

Scores are on the 0-1 scale (sacrebleu's number divided by 100).
"""

_KWARGS_DESCRIPTION = """
Computes chrF / chrF++ of Chinese predictions against references.

Args:
    predictions (`list` of `str`): one prediction per item (an empty string scores 0).
    references (`list` of `list` of `str`, or `list` of `str`): one or more references per item; the number may
        differ between items. Not sacrebleu's transposed layout (one list per reference set).
        A reference with no character after normalisation is an error naming every such references[i][j].
    Options are keyword arguments of compute(); evaluate.load() takes only evaluate's own arguments.
    tokenizer (`str` or callable): its normalisation gives the characters, its tokens chrF++'s words: "char"
        (default: Han characters, runs of letters/digits, other symbols), "jieba", "none" (text already split by
        spaces; no normalisation), or a callable `str -> list[str]`.
    char_order (`int`): character n-gram orders 1..char_order. Defaults to 6.
    word_order (`int`): word n-gram orders 1..word_order. Defaults to 0 (chrF); 2 is chrF++.
    beta (`float`): recall weight. Defaults to 2.
    eps_smoothing (`bool`): sacrebleu's option; False (default) averages precision and recall over the orders
        with n-grams on both sides, True averages per-order F-scores over all orders (chrF++.py, NLTK).
    level (`str`): "corpus" (default) or "sentence" (mean of per-item scores; the list is returned as `scores`).
    bootstrap (`int`): number of bootstrap resamples for a 95% interval (0 = none); `seed` (`int`) seeds it.
    terms, punct, jieba_hmm, jieba_dict, normalize, t2s: tokenizer options, as in chinese_bleu.
    Options that only chinese_bleu or chinese_rouge use are accepted and ignored, so that
    evaluate.combine([chinese_bleu, chinese_chrf]) takes one set of keyword arguments.

Returns:
    chrf (`float`): chrF in [0, 1].
    name (`str`): sacrebleu's name of the score, "chrF2" or "chrF2++".
    precisions, recalls (`list` of `float`): per order (character orders first, then word orders).
    hyp_counts, ref_counts, matches (`list` of `int`): the summed statistics per order.
    char_order, word_order (`int`), beta, level (`str`) and signature (`str`): what was computed, e.g.
        "nrefs:1|tok:char|norm:...|metric:chrf|name:chrF2|level:corpus|nc:6|nw:0|beta:2|eff:yes|space:no|zheval:0.1.0".
    scores (`list` of `float`): per-item chrF, with level="sentence".
    chrf_ci_low, chrf_ci_high (`float`): with bootstrap > 0.

Examples:

    >>> chinese_chrf = evaluate.load("./metrics/chinese_chrf")  # from the repository root; Hub: "<owner>/chinese_chrf"
    >>> results = chinese_chrf.compute(predictions=["我爱北京天安门"], references=[["我爱北京的天安门"]])
    >>> results["name"], round(results["chrf"], 4)
    ('chrF2', 0.3931)
    >>> results = chinese_chrf.compute(predictions=["我爱北京天安门"], references=[["我爱北京的天安门"]],
    ...                                word_order=2, tokenizer="jieba")
    >>> results["name"], round(results["chrf"], 4)
    ('chrF2++', 0.4649)

    Whitespace is no character, and ragged references keep the best one per item:

    >>> results = chinese_chrf.compute(predictions=["不客气", "地址在东城区"],
    ...                                references=[["不 客 气", "没关系"], ["地址是东城区"]])
    >>> round(results["chrf"], 4), results["signature"].split("|")[0]
    (0.3339, 'nrefs:var')
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class ChineseChrf(ZhevalMetricMixin, evaluate.Metric):
    """Chinese chrF / chrF++ as an evaluate metric; see the module card (README.md)."""

    ZHEVAL_METRIC = "chrf"  # compute/add_batch/add/_compute: zheval.adapters.evaluate_module.ZhevalMetricMixin

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=self.zheval_features(),
            codebase_urls=["https://github.com/mjpost/sacrebleu", "https://github.com/m-popovic/chrF"],
            reference_urls=[
                "https://aclanthology.org/W15-3049",
                "https://aclanthology.org/W17-4770",
                "https://aclanthology.org/W18-6319",
            ],
        )
