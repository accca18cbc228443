"""The one bound of every n-gram order zheval computes: BLEU's ``max_order``, chrF's ``char_order`` and
``word_order``, and the N of ROUGE-N (``rougeN``).

An order sizes memory and time: BLEU's statistics hold ``3 + 2 * max_order`` int64 columns per item and its result
one precision, count and total per order; chrF's hold 3 int64 columns per order and item, extracted order by order;
ROUGE-N builds every n-gram of length N of every text (sacrebleu 2.6.0 and rouge-score 0.1.2 have no bound). An
order above every text's token (character) count only adds zero counts -- BLEU 0 without ``effective_order``, an
empty order chrF skips, a ROUGE-N of 0 -- so 1000 loses nothing on texts under 1000 tokens, and keeps a 100 000-item
corpus's BLEU statistics under 1.6 GB and its chrF statistics under 2.4 GB. A ROUGE-S/SU skip distance is not an
n-gram order (a skip-bigram is a pair whatever the distance, and a text of L tokens has at most L (L - 1) / 2 of
them), so it has no such bound (`zheval.definitions.rouge_types`). Pure: imports nothing of zheval.
"""

from __future__ import annotations

__all__ = ["MAX_ORDER"]

#: The largest n-gram order of every metric (BLEU ``max_order``, chrF ``char_order``/``word_order``, ROUGE-N).
MAX_ORDER = 1000
