"""zheval.adapters.spark.score_dataframe on Spark ``local[2]``: the numbers are ``==`` zheval.score on the shared real
data for every tokenizer and preset, through 1, 2 and 8 partitions; references as ``array<string>`` or ``string``;
groups, per-item output, bad rows named by row, an unpicklable tokenizer refused with a clear message."""

from __future__ import annotations

import os
import sys
import threading
import warnings

import pytest

from helpers.engines import (CASES, assert_chrf_per_item, assert_parquet_scores_are_the_rows, case_id,
                             case_partitionings, door_options, engine_or_skip, real_rows)

pyspark = engine_or_skip("pyspark", "spark")

import zheval  # noqa: E402
from zheval.adapters.spark import score_dataframe  # noqa: E402
from zheval.compute.inputs import EmptyReferenceError  # noqa: E402

PARTITIONS = (1, 2, 8, 64)
SCHEMA = "id string, prediction string, references array<string>, source string, bucket int"


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable  # the executors' Python: this venv's, with zheval
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ.pop("SPARK_REMOTE", None)
    session = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "2").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def rows():
    return real_rows()


def frame(spark, rows, partitions, schema=SCHEMA):
    names = [c.split()[0] for c in schema.split(", ")]
    data = spark.sparkContext.parallelize([tuple(r[c] for c in names) for r in rows], partitions)
    return spark.createDataFrame(data, schema)


@pytest.fixture(scope="module")
def frames(spark, rows):
    return {k: frame(spark, rows, k) for k in PARTITIONS}


def quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


@pytest.fixture(scope="module")
def expected(rows):
    preds = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    return {case_id(c): quiet(zheval.score, preds, refs, c[0], **c[1]) for c in CASES}


def test_the_frames_keep_the_real_rows(frames, rows):
    assert frames[8].rdd.getNumPartitions() == 8
    assert [r["id"] for r in frames[8].collect()] == [r["id"] for r in rows]


@pytest.mark.parametrize(("case", "partitions"), case_partitionings(PARTITIONS),
                         ids=lambda c: case_id(c) if isinstance(c, tuple) else str(c))
def test_numbers_equal_zheval_score(frames, expected, case, partitions):
    metrics, options = case
    got = quiet(score_dataframe, frames[partitions], metrics=metrics, **door_options(metrics, options))
    want = expected[case_id(case)]
    assert got == want
    assert list(got) == list(want)


def test_a_string_references_column_is_one_reference_per_row(spark, rows):
    single = [dict(r, references=r["references"][0]) for r in rows if len(r["references"]) == 1]
    df = frame(spark, single, 8, SCHEMA.replace("array<string>", "string"))
    got = quiet(score_dataframe, df, bootstrap=50, gather_items=True)
    want = quiet(zheval.score, [r["prediction"] for r in single], [r["references"] for r in single], bootstrap=50)
    assert got == want and len(single) > 300


def test_a_user_callable_tokenizer_goes_to_the_executors(frames, rows):
    def words(text):
        return text.replace("，", " ").split()

    got = quiet(score_dataframe, frames[8], tokenizer=words, bootstrap=20, gather_items=True)
    assert got == quiet(zheval.score, [r["prediction"] for r in rows], [r["references"] for r in rows],
                        tokenizer=words, bootstrap=20)


@pytest.mark.parametrize("column", ["source", "bucket"])
def test_groups_equal_zheval_score_on_each_group(frames, rows, column):
    got = quiet(score_dataframe, frames[8], group_column=column, bootstrap=100, gather_items=True)
    values = list(dict.fromkeys(r[column] for r in rows))
    assert list(got["groups"]) == values
    for v in values:
        sub = [r for r in rows if r[column] == v]
        assert got["groups"][v] == quiet(zheval.score, [r["prediction"] for r in sub], [r["references"] for r in sub],
                                         bootstrap=100)


def test_per_item_scores_are_joined_to_the_input_rows(frames, rows):
    result, scored = quiet(score_dataframe, frames[2], per_item=True, tokenizer="jieba")
    out = scored.collect()
    assert [o["id"] for o in out] == [r["id"] for r in rows]
    preds = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    rouge = zheval.compute_rouge(preds, refs, tokenizer="jieba", use_aggregator=False, return_precision_recall=True)
    for t in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        assert [o[t] for o in out] == rouge[t]
        assert [o[f"{t}_recall"] for o in out] == rouge[f"{t}_recall"]
    assert [o["sentence_bleu"] for o in out] == zheval.compute_bleu(preds, refs, tokenizer="jieba",
                                                                     level="sentence")["scores"]
    assert scored.filter("rougeL = 0").count() == sum(f == 0.0 for f in rouge["rougeL"])


def test_per_item_scores_written_where_the_data_is(frames, rows, tmp_path):
    """The documented path (docs/engines.md): ``scored.write.parquet(dir)``; read back with pyarrow (not Spark), every
    row carries its id and its scores, == compute_rouge's per-item scores."""
    _, scored = quiet(score_dataframe, frames[2], per_item=True)
    scored.write.parquet(str(tmp_path / "scores"))
    assert_parquet_scores_are_the_rows(tmp_path / "scores", rows)


def bad_rows(rows, k, value, field="references"):
    out = [dict(r) for r in rows]
    out[k][field] = value
    return out


def test_an_empty_reference_is_an_error_naming_its_row(spark, rows):
    k = len(rows) - 5
    with pytest.raises(EmptyReferenceError) as err:
        score_dataframe(frame(spark, bad_rows(rows, k, ["……", "  "]), 8), id_column="id")
    assert err.value.positions == [(k, 1)]
    assert f"references[{k}][1]" in str(err.value) and repr(rows[k]["id"]) in str(err.value)


def test_a_null_reference_or_prediction_is_an_error_naming_its_row(spark, rows):
    k = 3 * len(rows) // 8 + 2
    # the user's column names, not the library's parameters (issue 35)
    with pytest.raises(TypeError, match=rf"row {k} \(id '{rows[k]['id']}'\): column 'references' must be a str or a list"):
        score_dataframe(frame(spark, bad_rows(rows, k, None), 8), id_column="id")
    with pytest.raises(TypeError, match=rf"row {k}: column 'prediction' must be str, got None"):
        score_dataframe(frame(spark, bad_rows(rows, k, None, "prediction"), 8))


def test_a_tokenizer_that_cannot_be_pickled_is_refused_before_any_job(frames):
    lock = threading.Lock()

    def locked_words(text):
        with lock:
            return text.split()

    with pytest.raises(TypeError, match=r"cannot be sent to the workers: pickling it failed .*lock"):
        score_dataframe(frames[2], tokenizer=locked_words)


def test_refused_options_and_missing_columns(frames):
    with pytest.raises(ValueError, match="crosscheck is not available"):
        score_dataframe(frames[2], crosscheck=True)
    with pytest.raises(ValueError, match=r"no column 'answer'; the columns are"):
        score_dataframe(frames[2], prediction_column="answer")
    with pytest.raises(ValueError, match="already has"):
        score_dataframe(frames[2].withColumnRenamed("source", "rouge1"), per_item=True)
    with pytest.raises(TypeError, match=r"no requested metric \(rouge\) uses option\(s\) \['word_order'\]"):
        score_dataframe(frames[2], metrics=["rouge"], word_order=2)


def test_per_item_chrf_column(frames, rows):
    """metrics=["chrf"], per_item: the chrf column (it was missing: score_columns listed ROUGE and BLEU only)."""
    _, scored = quiet(score_dataframe, frames[2], per_item=True, metrics=["chrf"])
    assert_chrf_per_item([r.asDict() for r in scored.collect()], rows)
