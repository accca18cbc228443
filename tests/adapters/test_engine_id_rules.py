"""The engine doors' id rules without an engine (issue 35): the workers' records and the driver's reductions run on
pyarrow tables, as tests/adapters/test_engine_errors_name_columns.py does. Ids of two kinds (a Ray column of Python
objects can hold both; here each batch holds one kind, so they meet only on the driver) are refused naming the first
row of the other kind, on the sums path (the merged record asks for the ordered pass) and on the ordered pass; an
integer id column gives the Poisson intervals of the same ids as strings (the CLI's keys)."""

from __future__ import annotations

import pyarrow as pa
import pytest

import zheval
from zheval.adapters.engine_batches import BatchRequest, batch_record, reduce_records
from zheval.adapters.engine_sums import merge_sums_records, result_from_sums_record, sums_record
from zheval.compute.joint import score_config

ENGINE = "zheval.adapters.ray.score_dataset"
PREDS = ["猫坐在垫子上", "今天天气很好", "我们去公园散步", "他在看书", "明天会下雨吗", "请把门关上"]
REFS = [["猫趴在垫子上"], ["今天天气不错", "天气很好"], ["我们去公园走走"], ["他正在读书"], ["明天下雨吗"], ["请关门"]]


def _tables(ids, cut=3):
    """Two batches (rows ``[:cut]`` and ``[cut:]``), each an Arrow table of its own id type."""
    return [pa.table({"p": PREDS[a:b], "r": pa.array(REFS[a:b], pa.list_(pa.string())), "id": ids[a:b]})
            for a, b in ((0, cut), (cut, len(PREDS)))]


def _sums(tables, request):
    merged = None
    for k, t in enumerate(tables):
        rec = sums_record(t, request, (k, 0))
        merged = rec if merged is None else merge_sums_records(merged, rec)
    return result_from_sums_record(merged, request)


def test_ids_of_two_kinds_are_refused_naming_the_row():
    request = BatchRequest(score_config(["bleu"]), "p", "r", id_column="id")
    tables = _tables(["a", "b", "c", 4, 5, 6])
    assert _sums(tables, request) is None  # the door then runs the ordered pass, which names the row
    with pytest.raises(ValueError) as info:
        reduce_records([batch_record(t, request) for t in tables], request, ENGINE)
    assert str(info.value).startswith(f"{ENGINE}: row 3: the id column 'id' holds int 4 here and str 'a' at row 0: "
                                      "the ids are all strings or all integers"), str(info.value)
    assert _sums(_tables(["a", "b", "c", "d", "e", "f"]), request) is not None


def test_integer_ids_give_the_intervals_of_their_text():
    options = {"bootstrap": 300, "seed": 4, "bootstrap_method": "poisson"}
    request = BatchRequest(score_config(["bleu", "rouge", "chrf"], **options), "p", "r", id_column="id")
    ints = [31, 7, 1000, 12, 5, 64]
    got = _sums(_tables(ints), request)
    want = zheval.score_batches([(PREDS, REFS, None, [str(i) for i in ints])], ["bleu", "rouge", "chrf"],
                                progress=False, **options)
    assert got == want
    assert got != zheval.score_batches([(PREDS, REFS, None, [f"x{i}" for i in ints])], ["bleu", "rouge", "chrf"],
                                       progress=False, **options)
