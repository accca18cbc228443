"""Every library door that takes a list of names (``rouge_types``, ``metrics``) also takes it as one comma-separated
string, read by the one comma-list rule (`zheval.io.lists.split_entries`): ``"rouge1,rougeL"`` is two types, and an
empty entry (``"rouge1,,rougeL"``, ``"rouge1,"``) is refused naming the option and the entry -- never dropped, never
read as one unknown name (issue 35). Before, these doors took a string as one name ("Unknown ROUGE type
'rouge1,rougeL'"), and the Space's ``score_rouge`` read a string's characters as types ("Unknown ROUGE type 'r'").

The doors that read comma lists already (`evaluate_predictions` and the 小黄鸭 reports, ``by``, ``buckets``) are
tested in ``tests/io/test_lists.py``."""

from __future__ import annotations

import warnings

import pytest

import zheval
from zheval.compute.bleu import compute_bleu
from zheval.compute.joint import score
from zheval.compute.rouge import compute_rouge
from zheval.definitions.rouge import make_item_scorer
from zheval.presets.llamafactory import make_llamafactory_item_scorer
from zheval.presets.longbench import make_longbench_item_scorer

P, R = ["猫坐在垫子上"], [["猫趴在垫子上面"]]


def _quiet(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


@pytest.mark.parametrize("door", [
    lambda t: compute_rouge(P, R, rouge_types=t),
    lambda t: compute_rouge(P, R, rouge_types=t, preset="llamafactory"),
    lambda t: compute_rouge(P, R, rouge_types=t, preset="rouge155"),
    lambda t: zheval.explain(P[0], R[0], rouge_types=t),
    lambda t: zheval.explain_items(P, R, rouge_types=t),
    lambda t: score(P, R, metrics=["rouge"], rouge_types=t),
    lambda t: make_item_scorer(t),
    lambda t: make_llamafactory_item_scorer(t),
], ids=["compute_rouge", "llamafactory", "rouge155", "explain", "explain_items", "score", "make_item_scorer",
        "make_llamafactory_item_scorer"])
def test_rouge_types_as_a_comma_list(door):
    for bad, entry in (("rouge1,,rougeL", "(entry 2)"), ("rouge1,", "(entry 2)"), (",rougeL", "(entry 1)")):
        with pytest.raises(ValueError) as err:
            _quiet(lambda: door(bad))
        assert str(err.value) == f"rouge_types {bad!r} has an empty entry {entry}"
    assert _quiet(lambda: door("rouge1, rougeL")) is not None  # two types, spaces around entries stripped


def test_a_comma_list_of_rouge_types_is_the_list():
    got = _quiet(lambda: compute_rouge(P, R, rouge_types="rouge1,rougeL"))
    want = _quiet(lambda: compute_rouge(P, R, rouge_types=["rouge1", "rougeL"]))
    assert {k: got[k] for k in ("rouge1", "rougeL")} == {k: want[k] for k in ("rouge1", "rougeL")}
    assert "rouge2" not in got
    # a single name is still that name
    assert _quiet(lambda: compute_rouge(P, R, rouge_types="rougeL"))["rougeL"] == want["rougeL"]


def test_longbench_reads_the_comma_list_before_its_own_rule():
    with pytest.raises(ValueError, match=r"^rouge_types 'rougeL,' has an empty entry \(entry 2\)$"):
        make_longbench_item_scorer("rougeL,")
    assert make_longbench_item_scorer("rougeL") is not None


@pytest.mark.parametrize("door", [
    lambda m: zheval.explain(P[0], R[0], metrics=m),
    lambda m: zheval.explain_items(P, R, metrics=m),
    lambda m: score(P, R, metrics=m),
], ids=["explain", "explain_items", "score"])
def test_metrics_as_a_comma_list(door):
    with pytest.raises(ValueError) as err:
        _quiet(lambda: door("bleu,,rouge"))
    assert str(err.value) == "metrics 'bleu,,rouge' has an empty entry (entry 2)"
    assert _quiet(lambda: door("bleu,rouge")) is not None


def test_score_with_a_comma_list_equals_the_list():
    a = _quiet(lambda: score(P, R, metrics="bleu,rouge"))
    b = _quiet(lambda: score(P, R, metrics=["bleu", "rouge"]))
    assert a["bleu"]["bleu"] == b["bleu"]["bleu"] == _quiet(lambda: compute_bleu(P, R))["bleu"]
