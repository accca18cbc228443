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

`MAX_BETA` bounds the F-measure ``beta`` of ROUGE and chrF alike: ``F = (1 + b^2) P R / (R + b^2 P)`` tends to the
recall R as b grows, and at b = 1e100 it already equals R in float (b^2 P / R is over 1e183 whenever P > 0), while
above about 1.34e154 ``b^2`` overflows to inf and the float formula gives nan (rouge-score's and sacrebleu's too).
Pass 1e100 for "recall alone"; a larger beta is refused rather than answered with nan.
"""

from __future__ import annotations

import numbers

__all__ = ["MAX_BETA", "MAX_ORDER", "check_beta"]

#: The largest n-gram order of every metric (BLEU ``max_order``, chrF ``char_order``/``word_order``, ROUGE-N).
MAX_ORDER = 1000

#: The largest F-measure ``beta`` of ROUGE and chrF (module docstring): F at this beta is the recall.
MAX_BETA = 1e100


def check_beta(beta, name: str = "beta", not_a_number: type = TypeError):
    """``beta`` checked, the one check of ROUGE's and chrF's ``beta``: a real number (`numbers.Real`: int, float,
    numpy's numbers, ``Fraction``; not bool) in [0, `MAX_BETA`] -- nan and inf fail the range too.

    Args:
        beta: the value. name: the option's name in messages.
        not_a_number: the error of a value that is not a number: ``TypeError`` (``"beta must be a number, got str
            'x'"``; chrF) or ``ValueError`` (``"beta must be a finite number >= 0, got 'x'"``; ROUGE's options, a
            ValueError since its first release).

    Raises:
        not_a_number: not a number. ValueError: negative, above `MAX_BETA`, or not finite.
    """
    if isinstance(beta, bool) or not isinstance(beta, numbers.Real):
        if not_a_number is TypeError:
            raise TypeError(f"{name} must be a number, got {type(beta).__name__} {beta!r}")
        raise not_a_number(f"{name} must be a finite number >= 0, got {beta!r}")
    # compared as a Python number: numpy's float32 would cast MAX_BETA to inf (an int stays exact)
    if not 0 <= (beta if isinstance(beta, (int, float)) else float(beta)) <= MAX_BETA:
        raise ValueError(f"{name} must be a finite number >= 0 and <= {MAX_BETA:g} (at {MAX_BETA:g} the "
                         f"F-measure is already the recall), got {beta!r}")
    return beta
