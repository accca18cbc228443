"""The engines' sums reduction on real clusters on 127.0.0.1 (``.ci/engines-cluster`` starts them): Spark's standalone
master with two workers (``ZHEVAL_SPARK_MASTER``) and a Ray head with a second node (``ZHEVAL_RAY_ADDRESS``). The
numbers are ``==`` zheval.score / zheval.score_batches (Poisson intervals, groups) for 1, 2, 8 and 64 partitions, and
only the merged record (O(groups x metrics)) reaches the driver. Without the variables the tests skip (fail under
``ZHEVAL_REQUIRE_CLUSTER=1``)."""

from __future__ import annotations

import os
import sys
import warnings

import pytest

from helpers.engines import real_rows

REQUIRE = os.environ.get("ZHEVAL_REQUIRE_CLUSTER", "").strip() in ("1", "true", "yes")
PARTITIONS = (1, 2, 8, 64)
METRICS = ("bleu", "rouge", "chrf")
OPTIONS = {"bootstrap": 100, "seed": 5, "tokenizer": "jieba", "bootstrap_method": "poisson"}


def _address_or_skip(variable: str) -> str:
    value = os.environ.get(variable, "").strip()
    if not value:
        message = f"{variable} is not set: .ci/engines-cluster starts the cluster and sets it"
        if REQUIRE:
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return value


@pytest.fixture(scope="module")
def rows():
    return real_rows()


@pytest.fixture(scope="module")
def expected(rows):
    import zheval

    preds = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = zheval.score(preds, refs, METRICS, tokenizer="jieba")
        poisson = zheval.score_batches([(preds, refs, [r["source"] for r in rows])], METRICS, progress=False,
                                       **OPTIONS)
    for m in METRICS:  # the sums give the numbers of zheval.score; the intervals are Poisson's
        key = {"bleu": "bleu", "rouge": "rougeL", "chrf": "chrf"}[m]
        assert poisson[m][key] == plain[m][key]
    return poisson


def _request():
    from zheval.adapters.engine_batches import BatchRequest
    from zheval.compute.joint import score_config

    return BatchRequest(score_config(METRICS, **OPTIONS), "prediction", "references", "source", None)


def test_spark_standalone_master_and_two_workers(rows, expected):
    master = _address_or_skip("ZHEVAL_SPARK_MASTER")
    from pyspark.sql import SparkSession
    import pyspark.cloudpickle

    from zheval.adapters.engine_batches import pack_request
    from zheval.adapters.spark_reduce import reduce_dataframe

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (SparkSession.builder.master(master).appName("zheval-ci").config("spark.ui.enabled", "false")
             .config("spark.executor.memory", "768m").config("spark.executorEnv.PYTHONPATH",
                                                              os.environ.get("PYTHONPATH", "")).getOrCreate())
    try:
        assert spark.sparkContext.master == master
        data = [(r["prediction"], r["references"], r["source"]) for r in rows]
        packed = pack_request(_request(), pyspark.cloudpickle.dumps, "test")
        for parts in PARTITIONS:
            df = spark.createDataFrame(spark.sparkContext.parallelize(data, parts),
                                       "prediction string, references array<string>, source string")
            stats: dict = {}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = reduce_dataframe(df, packed, stats=stats)
            assert got == expected, parts
            assert stats["bytes_to_driver"] < 2_000_000
        executors = spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() - 1  # minus the driver
        assert executors == 2
    finally:
        spark.stop()


def test_ray_head_and_a_second_node(rows, expected):
    address = _address_or_skip("ZHEVAL_RAY_ADDRESS")
    import ray
    import ray.cloudpickle

    from zheval.adapters.engine_batches import pack_request
    from zheval.adapters.ray_reduce import reduce_dataset

    ray.shutdown()
    ray.init(address=address, log_to_driver=False)
    try:
        assert len([n for n in ray.nodes() if n["Alive"]]) == 2
        ray.data.DataContext.get_current().enable_progress_bars = False
        items = [{"prediction": r["prediction"], "references": r["references"], "source": r["source"]} for r in rows]
        packed = pack_request(_request(), ray.cloudpickle.dumps, "test")
        for parts in PARTITIONS:
            stats: dict = {}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = reduce_dataset(ray.data.from_items(items, override_num_blocks=parts), packed, stats=stats)
            assert got == expected, parts
            assert stats["bytes_to_driver"] < 2_000_000
    finally:
        ray.shutdown()
