"""zheval.compute.inputs.validate_inputs: accepted shapes (ragged, string references), every kind of bad input named
by its index, and the fast C-level check equal to the item-by-item loop (same result, same error) on real CrossWOZ
data and on every kind of bad input."""

import pytest

import zheval.compute.inputs as inputs
from helpers import crosswoz_items
from zheval.compute.inputs import validate_inputs


def test_validate_inputs_allow_empty():
    assert validate_inputs([], [], allow_empty=True) == ([], [])


def test_validate_inputs_ragged_and_strings():
    preds, refs = validate_inputs(("a", "b"), ["x", ["y", "z"]])
    assert preds == ["a", "b"] and refs == [["x"], ["y", "z"]]


@pytest.mark.parametrize(
    "preds, refs, exc, pattern",
    [
        (["a", "b"], [["x"]], ValueError, "2 predictions and 1 references"),
        (["a", "b", "c"], [["x", "y", "z"], ["u", "v", "w"]], ValueError, "transposed"),
        (["a"], [[]], ValueError, r"references\[0\] is an empty list"),
        (["a", None], ["x", "y"], TypeError, r"predictions\[1\] must be str, got None"),
        (["a"], [["x", None]], TypeError, r"references\[0\]\[1\] must be str, got None"),
        (["a"], [3], TypeError, r"references\[0\]"),
        ("abc", ["x", "y", "z"], TypeError, "not a single str"),
        (["a"], None, TypeError, "references must be a list"),
        ([], [], ValueError, "no items to score"),
        (["ok", "bad\ud800"], ["x", "y"], ValueError, r"predictions\[1\] is not valid text"),
        (["ok"], [["x", "\udfff"]], ValueError, r"references\[0\]\[1\] is not valid text"),
    ],
)
def test_validate_inputs_errors(preds, refs, exc, pattern):
    with pytest.raises(exc, match=pattern):
        validate_inputs(preds, refs)


def test_a_bytes_reference_is_named_as_bytes_not_as_its_integers():
    import pytest

    from zheval.compute.inputs import validate_inputs

    with pytest.raises(TypeError, match=r"references\[1\] must be a str or a list of str, got bytes"):
        validate_inputs(["好", "好"], ["好", "好".encode("utf-8")])
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] must be str, got bytes"):
        validate_inputs(["好"], [["好", b"x"]])


# the fast C-level check equals the item-by-item loop ------------------------------------------------------------------


def _general(monkeypatch, predictions, references, **kw):
    with monkeypatch.context() as m:
        m.setattr(inputs, "_fast_canonical", lambda preds, refs: None)
        return inputs.validate_inputs(predictions, references, **kw)


class Text(str):
    """A str subclass: accepted by both paths (isinstance), kept as given."""


def _shapes(preds, refs):
    """The same items in every reference shape the fast path accepts (and some it hands to the loop)."""
    mixed = [r[0] if len(r) == 1 else r for r in refs]
    return [
        (preds, refs),
        (tuple(preds), [tuple(r) for r in refs]),
        (preds, mixed),
        (preds, [r[0] for r in refs]),
        ([Text(p) for p in preds], [[Text(x) for x in r] for r in refs]),
        (preds, [iter_free(r) for r in refs]),  # a sequence type that is neither list nor tuple: loop path
        ([], []),
    ]


class iter_free:  # noqa: N801 - reads like a container type in the list above
    def __init__(self, items):
        self.items = list(items)

    def __len__(self):
        return len(self.items)

    def __iter__(self):
        return iter(self.items)


def test_validate_inputs_fast_path_equals_loop_on_crosswoz(monkeypatch, crosswoz_groups):
    preds, refs = crosswoz_items(crosswoz_groups[:500])
    refs[3] = refs[3][:1]
    for p, r in _shapes(preds, refs):
        fast = inputs.validate_inputs(p, r, allow_empty=True)
        general = _general(monkeypatch, p, r, allow_empty=True)
        assert fast == general
        assert [type(x) for x in fast[0]] == [type(x) for x in general[0]]
        assert all(type(rs) is list for rs in fast[1])
        assert [type(x) for rs in fast[1] for x in rs] == [type(x) for rs in general[1] for x in rs]
    # the fast path really ran on regular input and returned fresh lists (the caller's lists are not aliased)
    got = inputs._fast_canonical(list(preds), refs)
    assert got == refs and all(a is not b for a, b in zip(got, refs))


@pytest.mark.parametrize(
    "predictions, references",
    [
        (["a", "b"], ["x", ["y", None]]),
        (["a", 3], ["x", "y"]),
        (["a", None], ["x", "y"]),
        (["a", "b\ud800"], ["x", "y"]),
        (["a", "b"], ["x", ["y", "\udfffz"]]),
        (["a", "b"], ["x\udc00", "y"]),
        (["a", "b"], ["x", []]),
        (["a", "b"], ["x", ()]),
        (["a", "b"], ["x", 5]),
        (["a", "b"], ["x", None]),
        (["a", "b"], ["x", b"y"]),
        (["a", "b"], [["x"], [b"y"]]),
        (["a\ud800", 3], ["x", "y"]),  # type errors are reported before surrogates, as the loop does
    ],
)
def test_bad_input_takes_the_loop_and_gets_the_same_error(monkeypatch, predictions, references):
    assert inputs._fast_canonical(list(predictions), list(references)) is None
    with pytest.raises((TypeError, ValueError)) as general:
        _general(monkeypatch, predictions, references)
    with pytest.raises(general.type) as fast:
        inputs.validate_inputs(predictions, references)
    assert str(fast.value) == str(general.value)


@pytest.mark.parametrize(
    "preds, refs, pattern",
    [
        # a dict per item (e.g. a dataset row): iterating it gives its keys, which were scored as the references
        (["今天天气很好"], [{"text": "今天天气好"}], r"references\[0\] must be a str or a list of str, not a dict"),
        (["a", "b"], [["x"], {"y": 1, "z": 2}], r"references\[1\] .*mapping.*\['y', 'z'\]"),
        # a set per item: its order changes with string hashing (first reference, max_refs, tie-breaks)
        (["a"], [{"x", "y"}], r"references\[0\] .*not a set \(unordered"),
        (["a"], [frozenset(["x"])], r"references\[0\] .*not a frozenset"),
        (["a"], [{"x": 1}.keys()], r"references\[0\] .*not a dict_keys"),
        # the whole column as a mapping / set
        ({"今天天气很好": 0, "我爱北京": 1}, [["a"], ["b"]], r"predictions must be a list .*not a dict"),
        (["a"], {0: ["x"]}, r"references must be a list .*not a dict"),
        ({"a", "b"}, [["x"], ["y"]], r"predictions must be a list .*not a set"),
    ],
)
def test_mappings_and_sets_are_refused_not_iterated(preds, refs, pattern):
    with pytest.raises(TypeError, match=pattern):
        validate_inputs(preds, refs)


def test_mapping_references_are_refused_by_every_entry_point():
    import zheval

    for fn in (zheval.compute_bleu, zheval.compute_rouge, zheval.score):
        with pytest.raises(TypeError, match=r"references\[0\] .*not a dict"):
            fn(["今天天气很好"], [{"今天天气好": 1}])


@pytest.mark.parametrize("fn, option", [
    ("compute_rouge", "use_aggregator"), ("compute_rouge", "return_precision_recall"), ("compute_rouge", "crosscheck"),
    ("compute_bleu", "crosscheck"), ("score", "use_aggregator"), ("score", "crosscheck"),
])
@pytest.mark.parametrize("value", ["False", "no", 0, None])
def test_on_off_options_must_be_bools(fn, option, value):
    """A string "False" (from a config file or a command line) is truthy: it would silently mean on."""
    import zheval

    with pytest.raises(TypeError, match=rf"{option} must be True or False, got"):
        getattr(zheval, fn)(["今天天气很好"], [["今天天气好"]], **{option: value})


def test_on_off_options_take_numpy_bools():
    import numpy as np

    import zheval

    # by hand: 今天天气很好 vs 今天天气好, 5 of 6 / 5 of 5 unigrams: F1 = 2 * (5/6) * 1 / (5/6 + 1) = 10/11
    got = zheval.compute_rouge(["今天天气很好"], [["今天天气好"]], rouge_types=["rouge1"],
                               use_aggregator=np.bool_(False))
    assert got["rouge1"] == [pytest.approx(10 / 11)]


def test_series_with_different_indexes_are_refused_by_every_entry_point():
    pd = pytest.importorskip("pandas")
    from zheval import compute_bleu, compute_chrf, compute_rouge, score

    texts = ["我们今天很开心", "他们明天要走了"]
    # label 5's prediction is label 5's reference: paired by label every item matches, by position none does
    preds, refs = pd.Series(texts, index=[5, 3]), pd.Series(texts[::-1], index=[3, 5])
    for door in (score, compute_bleu, compute_rouge, compute_chrf):
        with pytest.raises(ValueError) as info:  # was scored by position, as the lists in order
            door(preds, refs)
        message = str(info.value)
        assert "different indexes (position 0: predictions' label 5, references' 3)" in message
        assert "reset_index" in message and ".tolist()" in message
    # the same index (in any labels) is fine: identical texts pair up, ROUGE-L F = 1 by hand
    out = compute_rouge(pd.Series(texts, index=[5, 3]), pd.Series(texts, index=[5, 3]), rouge_types=["rougeL"])
    assert out["rougeL"] == pytest.approx(1.0)
    # a Series beside a list is paired by position, as before
    assert compute_rouge(pd.Series(texts, index=[5, 3]), texts, rouge_types=["rougeL"])["rougeL"] == pytest.approx(1.0)
