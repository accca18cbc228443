"""The engine doors' own checks (break-it pass on the engine doors), on a local Ray and Spark: a door argument of the
wrong kind is one line from the door, before the engine sees it (``batch_size``, ``per_item``, ``gather_items``)."""

from __future__ import annotations

import pytest

from helpers.engines import quiet, real_rows

ENGINES = ("spark", "ray")


@pytest.fixture(scope="module")
def rows():
    return real_rows()[:40]


def _door(request, engine, rows, parts=2):
    """``(score, data)``: the engine's door and ``rows`` as its data (``parts`` partitions / blocks)."""
    if engine == "spark":
        from zheval.adapters.spark import score_dataframe

        spark = request.getfixturevalue("spark")
        schema = "id string, prediction string, references array<string>, source string, bucket int"
        data = spark.sparkContext.parallelize(
            [(r["id"], r["prediction"], r["references"], r["source"], r["bucket"]) for r in rows], parts)
        return score_dataframe, spark.createDataFrame(data, schema)
    from zheval.adapters.ray import score_dataset

    ray = request.getfixturevalue("local_ray")
    return score_dataset, ray.data.from_items([dict(r) for r in rows], override_num_blocks=parts)


@pytest.mark.parametrize("size", [0, -3, 2.5, True, "100"])
def test_ray_batch_size_is_checked_by_the_door(request, rows, size):
    score, ds = _door(request, "ray", rows)
    kind = ValueError if isinstance(size, int) and not isinstance(size, bool) else TypeError
    with pytest.raises(kind, match=r"^zheval\.adapters\.ray\.score_dataset: batch_size must be a positive int "
                                   rf"\(rows per map_batches batch\) or None \(one batch per block\), got .*{size!r}$"):
        score(ds, batch_size=size)


def test_ray_batch_size_bounds_are_the_doors_only(request, rows):
    """1 and None (one batch per block) are batch sizes: == zheval.score."""
    import zheval

    score, ds = _door(request, "ray", rows)
    want = quiet(zheval.score, [r["prediction"] for r in rows], [r["references"] for r in rows])
    assert quiet(score, ds, batch_size=1) == want
    assert quiet(score, ds, batch_size=None) == want


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name, value", [("per_item", "no"), ("gather_items", 1), ("per_item", None)])
def test_flags_must_be_bools(request, rows, engine, name, value):
    score, data = _door(request, engine, rows)
    with pytest.raises(TypeError, match=rf": {name} must be True or False, got {type(value).__name__} {value!r}$"):
        score(data, **{name: value})
