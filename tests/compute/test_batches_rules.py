"""zheval.score_batches' groups, ids and per-item file (break-it F3, F7, F10 of the streaming doors): the group and id
rules of the engine doors and the CLI applied batch by batch with each value named by its item over all batches, the
per-item file's name read as its format (a name that says no format we write refused before any batch is read), and
a Parquet file whose id or group column holds only nulls at first written whole, never a raw pyarrow error."""

from __future__ import annotations

import gzip
import json
import re

import pytest

import zheval
from zheval.compute.batches import score_batches

P, R = "今天天气很好", ["今天天气不错"]


def _run(batches, **kw):
    return score_batches([tuple(b) for b in batches], ["bleu"], progress=False, **kw)


def _batch(n, groups=None, ids=None):
    return ([P] * n, [R] * n) + ((groups,) if groups is not None or ids is not None else ()) + \
        ((ids,) if ids is not None else ())


# --- F10: the group rules ---

def test_each_nan_group_is_refused_not_a_group_of_its_own():
    # pandas' tolist() gives a new float('nan') object per cell: each was a group "nan" of its own
    with pytest.raises(ValueError, match=r"groups\[2\] is NaN, which cannot name a group"):
        _run([_batch(2, ["a", "b"]), _batch(2, [float("nan"), float("nan")])])


@pytest.mark.parametrize("first,then,kinds", [
    (1, True, "bool True and groups[0] is int 1"),
    (1, 1.0, "float 1.0 and groups[0] is int 1"),
    (0, "0", "str '0' and groups[0] is int 0"),
])
def test_groups_of_two_kinds_are_refused_naming_both_items(first, then, kinds):
    # 1 == True == 1.0 hash alike: they merged into one group without a word
    with pytest.raises(ValueError, match=re.escape(f"groups[3] is {kinds}")):
        _run([_batch(2, [first, None]), _batch(2, [first, then])])


def test_a_str_for_groups_or_ids_is_refused_not_read_per_character():
    with pytest.raises(TypeError, match=r"groups must give one value per item .* got str 'ab'"):
        _run([_batch(2, "ab")])
    with pytest.raises(TypeError, match=r"ids must give one value per item .* got str 'ab'"):
        _run([_batch(2, None, "ab")])


def test_an_unhashable_group_is_named_by_its_item():
    with pytest.raises(TypeError, match=r"groups\[1\] is list \['x'\], which cannot name a group"):
        _run([_batch(1, ["a"]), _batch(1, [["x"]])])


def test_groups_of_one_kind_with_none_equal_score_on_each_group():
    got = _run([_batch(2, [1, None]), (["你好"], ["您好"], [1])])
    assert list(got["groups"]) == [1, None]
    assert got["groups"][1]["bleu"] == zheval.score([P, "你好"], [R, ["您好"]], ["bleu"])["bleu"]
    assert got["groups"][None]["bleu"] == zheval.score([P], [R], ["bleu"])["bleu"]


# --- F10: the id rules ---

def test_duplicate_ids_are_refused_naming_both_items():
    with pytest.raises(ValueError, match=r"duplicate id 'a': ids\[3\] repeats ids\[0\]"):
        _run([_batch(2, None, ["a", "b"]), _batch(2, None, ["c", "a"])])
    with pytest.raises(ValueError, match=r"duplicate id 7: ids\[2\] repeats ids\[1\]"):
        _run([_batch(3, None, [5, 7, 7])])


def test_ids_in_some_batches_and_not_others_are_refused():
    with pytest.raises(ValueError, match=r"batch 1 \(items 2\.\.3\) gives no ids and the batches before it do"):
        _run([_batch(2, None, ["a", "b"]), _batch(2)])
    with pytest.raises(ValueError, match=r"batch 1 \(items 2\.\.2\) gives ids and the batches before it do not"):
        _run([_batch(2), _batch(1, None, ["a"])])


@pytest.mark.parametrize("bad,says", [
    (None, "must be a non-empty string or an integer, got null"),
    (True, "must be a non-empty string or an integer, got"),
    (7.0, "must be a non-empty string or an integer, got"),
    (" a", "has spaces around it"),
])
def test_ids_follow_the_cli_id_rule(bad, says):
    with pytest.raises(ValueError, match=rf"ids\[1\]: .*{says}"):
        _run([_batch(1, None, ["x"]), _batch(1, None, [bad])])


def test_ids_of_two_kinds_are_refused():
    with pytest.raises(ValueError, match=r"ids\[1\] is int 8 and ids\[0\] is str 'x'"):
        _run([_batch(1, None, ["x"]), _batch(1, None, [8])])


# --- F7: the per-item file's name is its format ---

@pytest.mark.parametrize("name", ["x.csv", "z.json", "zz.parquet.gz", "plain", ".jsonl"])
def test_a_per_item_name_of_no_format_we_write_is_refused_before_any_batch(tmp_path, name):
    def batches():
        raise AssertionError("a batch was read")
        yield  # pragma: no cover

    with pytest.raises(ValueError, match=r"must end in \.jsonl, \.jsonl\.gz, \.parquet, \.pq"):
        score_batches(batches(), ["bleu"], items_path=tmp_path / name, progress=False)
    assert list(tmp_path.iterdir()) == []


def test_jsonl_gz_is_written_gzipped(tmp_path):
    path = tmp_path / "z.jsonl.gz"
    _run([_batch(2, None, ["a", "b"])], items_path=path)
    with gzip.open(path, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    assert [(r["index"], r["id"]) for r in rows] == [(0, "a"), (1, "b")]


# --- F3: a Parquet column null at first, or of values Parquet or JSON cannot hold ---

@pytest.mark.parametrize("groups", [
    [["a", "a"], [None, None]],  # strings, then only nulls
    [[None, None], ["a", None]],  # only nulls, then strings: the file is rewritten once with a string column
    [[None, None], [1, 2]],
])
def test_parquet_group_column_with_null_batches_is_written_whole(tmp_path, groups):
    import pyarrow.parquet as pq

    path = tmp_path / "x.parquet"
    _run([_batch(2, g) for g in groups], items_path=path)
    assert pq.read_table(path).column("group").to_pylist() == groups[0] + groups[1]
    assert [p.name for p in tmp_path.iterdir()] == ["x.parquet"]


def test_a_value_the_per_item_file_cannot_hold_is_named_and_no_file_is_left(tmp_path):
    import datetime

    day = datetime.date(2026, 12, 6)
    with pytest.raises(ValueError, match=r"groups\[1\] is date datetime\.date\(2026, 12, 6\): JSON has no form"):
        _run([_batch(2, [None, day])], items_path=tmp_path / "x.jsonl")
    with pytest.raises(ValueError, match=r"groups\[0\] is float inf: JSON has no form"):
        _run([_batch(1, [float("inf")])], items_path=tmp_path / "y.jsonl")
    with pytest.raises(ValueError, match=r"groups\[1\] is int 9223372036854775808, not a value of the column's type"):
        _run([_batch(1, [1]), _batch(1, [2 ** 63])], items_path=tmp_path / "x.parquet")
    assert list(tmp_path.iterdir()) == []


def test_batches_of_the_wrong_shape_say_what_is_wrong():
    """One batch passed without the list around it (its predictions are then a str) and a tuple of 5 elements
    (issue 35, break-it 5 F16): each error names the batch and what it holds."""
    preds, refs = ["今天天气很好", "明天"], [["今天天气很好"], ["明天有雨"]]
    with pytest.raises(TypeError, match=re.escape("batch 0: its predictions are a single str ('今天天气很好'), so "
                                                  "batch 0 is itself a list of texts")) as ei:
        score_batches((preds, refs), ["bleu"], progress=False)
    assert "score_batches([(predictions, references)]), not score_batches((predictions, references))" in str(ei.value)
    with pytest.raises(TypeError, match=re.escape("batch 1 must be a tuple (predictions, references[, groups[, ids]]) "
                                                  "of 2 to 4 elements, got a tuple of 5 element(s)")):
        score_batches([(preds, refs), (preds, refs, None, None, 1)], ["bleu"], progress=False)
    with pytest.raises(TypeError, match=r"batch 0 must be a tuple \(predictions, references\[, groups\[, ids\]\]\), "
                                        r"got int"):
        score_batches([3], ["bleu"], progress=False)
