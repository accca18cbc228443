"""One check of the F-measure beta (`zheval.definitions.orders.check_beta`) behind ROUGE's and chrF's doors, each
door keeping its error type and message: ROUGE's options say ValueError, chrF's TypeError, for a value that is not
a number; the bound is the same everywhere."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import zheval
from zheval.definitions.chrf_score import check_chrf_options
from zheval.definitions.orders import MAX_BETA, check_beta


@pytest.mark.parametrize("bad", ["2", b"2", 2j, None, True, [2]])
def test_not_a_number_error_type_by_door(bad):
    with pytest.raises(TypeError, match=r"^beta must be a number, got "):
        check_beta(bad)
    with pytest.raises(TypeError, match=r"^beta must be a number, got "):
        check_chrf_options(6, 0, bad, False)
    with pytest.raises(ValueError, match=r"^beta must be a finite number >= 0, got "):
        check_beta(bad, not_a_number=ValueError)
    if bad is not None:  # (None: compute_rouge's default)
        with pytest.raises(ValueError, match=r"^beta must be a finite number >= 0, got "):
            zheval.compute_rouge(["好"], [["好"]], beta=bad)


@pytest.mark.parametrize("good", [0, 1, 2.5, np.float32(2), np.int64(3), Fraction(1, 2), MAX_BETA])
def test_real_numbers_pass_every_door(good):
    assert check_beta(good) == good
    check_chrf_options(6, 0, good, False)
    zheval.compute_rouge(["好"], [["好"]], beta=good)


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), MAX_BETA * 10])
def test_the_bound_is_one(bad):
    for call in (check_beta, lambda b: check_chrf_options(6, 0, b, False),
                 lambda b: zheval.compute_rouge(["好"], [["好"]], beta=b)):
        with pytest.raises(ValueError, match=r"beta must be a finite number >= 0 and <= 1e\+100"):
            call(bad)
