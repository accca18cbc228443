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
"""chinese_bertscore: BERTScore with a local Chinese BERT, equal to bert-score 0.3.13's bert_score.score.

A thin evaluate wrapper: all logic lives in the zheval library (zheval.compute.bertscore.compute_bertscore).
torch and transformers are imported only when compute() runs (the zheval[bertscore] extra).
"""

import datasets
import evaluate

from zheval.compute.bertscore import BertScoreOptions, compute_bertscore  # From: zheval


_CITATION = """\
@inproceedings{bert-score,
    title = "BERTScore: Evaluating Text Generation with BERT",
    author = "Tianyi Zhang and Varsha Kishore and Felix Wu and Kilian Q. Weinberger and Yoav Artzi",
    booktitle = "International Conference on Learning Representations",
    year = "2020",
    url = "https://openreview.net/forum?id=SkeHuCVFDr",
}
"""

_DESCRIPTION = """\
BERTScore (Zhang et al., 2020) matches each word piece of the prediction to its most similar piece of the reference
(cosine of contextual embeddings from one layer of a BERT) and back: precision, recall and their F1. On Chinese the
usual model is bert-base-chinese at layer 8 (bert-score's table).

The model is a local directory (or a loaded model and tokenizer): nothing is ever downloaded. The numbers equal
bert-score 0.3.13's bert_score.score on the same model: layers, idf weights from the references, rescaling with the
Chinese baseline bert-score ships, several references (P, R and F each maximised separately, as bert-score does; or
the best-F reference's P/R/F with multi_ref="best_f"), truncation at the model's maximum length (counted).
"""

_KWARGS_DESCRIPTION = """
Computes BERTScore of Chinese predictions against references with a local model.

Args:
    predictions (`list` of `str`): one prediction per item (a blank one scores 0, bert-score's definition).
    references (`list` of `list` of `str`, or `list` of `str`): one or more references per item.
    model (`str`): a local directory holding the model and its tokenizer (required; e.g. "./bert-base-chinese",
        fetched once with `hf download bert-base-chinese --local-dir ./bert-base-chinese`).
    layer (`int`): hidden layer of the embeddings; default bert-score's layer for the model's name (8 for
        bert-base-chinese).
    idf (`bool`): idf weights over the references. Defaults to False.
    rescale_with_baseline (`bool`): rescale with bert-score's Chinese baseline of the model; `baseline_path` (`str`)
        names another baseline file.
    multi_ref (`str`): "max" (default, bert-score) or "best_f".
    batch_size (`int`): defaults to 64. device (`str`): defaults to CUDA when available.

Returns:
    precision, recall, f1 (`float`): corpus means (0-1 without rescaling).
    item_precision, item_recall, item_f1 (`list` of `float`): per item.
    model, layer, idf, rescaled, multi_ref, max_length, truncated_predictions, truncated_references, signature:
        what was computed, e.g. "nrefs:1|metric:bertscore|model:bert-base-chinese|cfg:...|layer:8|idf:no|...".

Examples:

    >>> chinese_bertscore = evaluate.load("./metrics/chinese_bertscore")  # doctest: +SKIP
    >>> results = chinese_bertscore.compute(predictions=["我爱北京天安门"], references=[["我爱北京的天安门"]],
    ...                                     model="./bert-base-chinese")  # doctest: +SKIP
    >>> results["layer"], results["signature"].split("|")[2]  # doctest: +SKIP
    (8, 'model:bert-base-chinese')
"""

_OPTIONS = ("model", "layer", "idf", "rescale_with_baseline", "baseline_path", "multi_ref", "batch_size", "device")


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class ChineseBertscore(evaluate.Metric):
    """BERTScore with a local Chinese BERT as an evaluate metric; see the module card (README.md)."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features({"predictions": datasets.Value("string", id="sequence"),
                                   "references": datasets.Sequence(datasets.Value("string", id="sequence"),
                                                                   id="references")}),
                datasets.Features({"predictions": datasets.Value("string", id="sequence"),
                                   "references": datasets.Value("string", id="sequence")}),
            ],
            codebase_urls=["https://github.com/Tiiiger/bert_score"],
            reference_urls=["https://openreview.net/forum?id=SkeHuCVFDr"],
        )

    def _compute(self, predictions, references, **options):
        unknown = sorted(set(options) - set(_OPTIONS))
        if unknown:
            raise TypeError(f"chinese_bertscore got unknown option(s) {unknown}; valid options: {', '.join(_OPTIONS)}")
        if "model" not in options:
            raise TypeError("chinese_bertscore needs model= (a local directory with the model and its tokenizer)")
        BertScoreOptions(**options).check()
        return compute_bertscore(predictions, references, **options)
