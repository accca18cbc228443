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

A shell for evaluate: the scoring is zheval.compute.bertscore (compute_bertscore's items and result); the behaviour,
the docstring and _info() (from the card record zheval/adapters/evaluate_cards/) come from
zheval.adapters.evaluate_module.ZhevalMetricMixin. torch and transformers are imported only when compute() runs (the
zheval[bertscore] extra).
"""

import evaluate

from zheval.adapters.evaluate_module import ZhevalMetricMixin  # From: zheval


class ChineseBertscore(ZhevalMetricMixin, evaluate.Metric):
    ZHEVAL_METRIC = "bertscore"
