"""The engines' sums reduction on a local Ray and Spark (zheval.adapters.ray_reduce / spark_reduce): == zheval.score
on the shared real data for every tokenizer and the reducible options, char through 1, 2, 8 and 64 partitions (the
others through 2 or 8); the Poisson intervals identical across partitionings and equal to score_batches; a bad row flagged (the door then names
it); only the merged record reaches the driver."""

from __future__ import annotations


import pytest

from helpers.engines import quiet, real_rows

TOKENIZERS = ("char", "jieba", "none", "sacrebleu-zh", "llamafactory-char", "llamafactory-jieba", "opencompass-jieba",
              "glm4-jieba")
PARTITIONS = (1, 2, 8, 64)


@pytest.fixture(scope="module")
def rows():
    return real_rows()


def _packed(dumps, metrics, options, group=None):
    from zheval.adapters.engine_batches import BatchRequest, pack_request
    from zheval.compute.joint import score_config

    return pack_request(BatchRequest(score_config(metrics, **options), "prediction", "references", group, None),
                        dumps, "test")


def _cases():
    yield from ((("bleu", "rouge", "chrf"), {"tokenizer": t}) for t in TOKENIZERS)
    yield ("bleu", "rouge"), {"rouge_types": ["rouge3", "rougeL", "rougeLsum", "rougeW", "rougeSU4"], "max_refs": 2,
                              "return_precision_recall": True}


def _spark_reduce(spark, rows, parts, packed, stats=None):
    from zheval.adapters.spark_reduce import reduce_dataframe

    data = spark.sparkContext.parallelize([(r["prediction"], r["references"], r["source"]) for r in rows], parts)
    df = spark.createDataFrame(data, "prediction string, references array<string>, source string")
    return quiet(reduce_dataframe, df, packed, stats=stats)


def _ray_reduce(ray, rows, parts, packed, stats=None):
    from zheval.adapters.ray_reduce import reduce_dataset

    items = [{"prediction": r["prediction"], "references": r["references"], "source": r["source"]} for r in rows]
    return quiet(reduce_dataset, ray.data.from_items(items, override_num_blocks=parts), packed, stats=stats)


@pytest.mark.parametrize("engine", ["spark", "ray"])
def test_sums_equal_zheval_score(request, rows, engine):
    import zheval

    session = request.getfixturevalue("spark" if engine == "spark" else "local_ray")
    dumps = __import__("pyspark.cloudpickle" if engine == "spark" else "ray.cloudpickle", fromlist=["dumps"]).dumps
    reduce = _spark_reduce if engine == "spark" else _ray_reduce
    preds, refs = [r["prediction"] for r in rows], [r["references"] for r in rows]
    for n, (metrics, options) in enumerate(_cases()):
        want = quiet(zheval.score, preds, refs, metrics, **options)
        # char through every count; each other case through 2 or 8 in turn (the merge is the tokenizer's alike)
        for parts in PARTITIONS if options.get("tokenizer", "char") == "char" else ((2, 8)[n % 2],):
            assert reduce(session, rows, parts, _packed(dumps, metrics, options)) == want, (metrics, options, parts)


@pytest.mark.parametrize("engine", ["spark", "ray"])
def test_poisson_intervals_and_groups_whatever_the_partitioning(request, rows, engine):
    import zheval

    session = request.getfixturevalue("spark" if engine == "spark" else "local_ray")
    dumps = __import__("pyspark.cloudpickle" if engine == "spark" else "ray.cloudpickle", fromlist=["dumps"]).dumps
    reduce = _spark_reduce if engine == "spark" else _ray_reduce
    options = {"bootstrap": 200, "seed": 11, "bootstrap_method": "poisson"}
    want = quiet(zheval.score_batches, [([r["prediction"] for r in rows], [r["references"] for r in rows],
                                          [r["source"] for r in rows])], ("bleu", "rouge", "chrf"),
                  progress=False, **options)
    packed = _packed(dumps, ("bleu", "rouge", "chrf"), options, group="source")
    for parts in PARTITIONS:
        stats: dict = {}
        got = reduce(session, rows, parts, packed, stats)
        assert got == want, parts
        assert list(got["groups"]) == list(want["groups"])  # first appearance, whatever the merge order
        assert stats["bytes_to_driver"] < 1_000_000  # O(groups x metrics x resamples), not O(rows)


@pytest.mark.parametrize("engine", ["spark", "ray"])
def test_a_bad_row_is_flagged_and_no_rows_is_no_items(request, rows, engine):
    session = request.getfixturevalue("spark" if engine == "spark" else "local_ray")
    dumps = __import__("pyspark.cloudpickle" if engine == "spark" else "ray.cloudpickle", fromlist=["dumps"]).dumps
    reduce = _spark_reduce if engine == "spark" else _ray_reduce
    bad = [dict(r) for r in rows[:50]]
    bad[17]["references"] = ["   "]
    packed = _packed(dumps, ("bleu", "rouge"), {})
    assert reduce(session, bad, 4, packed) is None
    with pytest.raises(ValueError, match="no items to score"):
        reduce(session, [], 1, packed)
