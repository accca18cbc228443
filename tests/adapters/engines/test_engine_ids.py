"""Issue 35 on the engine doors: one id rule everywhere, the stricter. The Poisson bootstrap keys an id by its text
form (an integer id column gives the intervals of the same ids as strings, of ``zheval score --stream`` and of
``zheval.score_batches``); ids of two kinds in a Ray column of Python objects are refused naming the row (its
groupby crashed on such a column), reduced from sums or gathered; ``7`` beside ``"7"`` is one id, so a duplicate."""

from __future__ import annotations

import pytest

from helpers.engines import quiet, real_rows

ENGINES = ("spark", "ray")
POISSON = {"metrics": ["bleu", "rouge", "chrf"], "bootstrap": 100, "seed": 5, "bootstrap_method": "poisson"}


@pytest.fixture(scope="module")
def rows():
    return real_rows()[:40]


def _object_array(values):
    try:  # Ray >= 2.60 moved it
        from ray.data._internal.object_extensions.arrow import ArrowPythonObjectArray
    except ImportError:
        from ray.air.util.object_extensions.arrow import ArrowPythonObjectArray
    return ArrowPythonObjectArray.from_objects(values)


def _ray_ids(ray, rows, ids, blocks=1):
    """A Ray Dataset of ``rows`` whose column ``id`` holds ``ids`` as Python objects, in ``blocks`` blocks."""
    import pyarrow as pa

    cut = [len(rows) * k // blocks for k in range(blocks + 1)]
    return ray.data.from_arrow([pa.table({
        "prediction": [r["prediction"] for r in rows[a:b]],
        "references": pa.array([list(r["references"]) for r in rows[a:b]], pa.list_(pa.string())),
        "id": _object_array(ids[a:b])}) for a, b in zip(cut, cut[1:])])


def _bounds(result) -> list:
    return [(result["bleu"]["bleu_ci_low"], result["bleu"]["bleu_ci_high"]),
            (result["rouge"]["rougeL_ci_low"], result["rouge"]["rougeL_ci_high"]),
            (result["chrf"]["chrf_ci_low"], result["chrf"]["chrf_ci_high"])]


@pytest.mark.parametrize("engine", ENGINES)
def test_integer_ids_are_keyed_by_their_text(request, rows, engine):
    """An integer id column (Spark ``bigint``, Ray ``int64``): the intervals of the same ids as strings through
    score_batches -- the keys of ``zheval score --stream``, which reads 7 as "7" -- were not these (7 was keyed as
    ``repr(7)``, "7" as ``repr("7")``)."""
    import zheval

    ids = [3 * i + 11 for i in range(len(rows))]
    preds, refs = [r["prediction"] for r in rows], [r["references"] for r in rows]
    options = {k: v for k, v in POISSON.items() if k != "metrics"}
    want = quiet(zheval.score_batches, [(preds, refs, None, [str(i) for i in ids])], POISSON["metrics"],
                 progress=False, **options)
    if engine == "spark":
        from zheval.adapters.spark import score_dataframe as score

        spark = request.getfixturevalue("spark")
        data = spark.createDataFrame(spark.sparkContext.parallelize(list(zip(ids, preds, refs)), 3),
                                     "id bigint, prediction string, references array<string>")
    else:
        from zheval.adapters.ray import score_dataset as score

        data = request.getfixturevalue("local_ray").data.from_items(
            [{"id": i, "prediction": p, "references": r} for i, p, r in zip(ids, preds, refs)], override_num_blocks=3)
    got = quiet(score, data, id_column="id", **POISSON)
    assert _bounds(got) == _bounds(want)
    assert got == want


@pytest.mark.parametrize("blocks, gather", [(1, False), (2, False), (2, True)])
def test_ids_of_two_kinds_are_refused_naming_the_row(request, rows, blocks, gather):
    """Strings then integers in a column of Python objects (with 2 blocks each block holds one kind, so the kinds
    meet only in the merge): score_batches refuses them; this door crashed in Ray's groupby (Arrow cannot group
    Python objects)."""
    from zheval.adapters.ray import score_dataset

    half = len(rows) // 2
    ids = [f"q{i}" for i in range(half)] + list(range(half, len(rows)))
    options = {"bootstrap": 20, "gather_items": True} if gather else {}
    data = _ray_ids(request.getfixturevalue("local_ray"), rows, ids, blocks)
    with pytest.raises(ValueError, match=rf"^zheval\.adapters\.ray\.score_dataset: row {half}: the id column 'id' "
                                         rf"holds int {half} here and str 'q0' at row 0: the ids are all strings or "
                                         r"all integers"):
        quiet(score_dataset, data, id_column="id", **options)


@pytest.mark.parametrize("blocks", [1, 2])
def test_seven_and_the_string_seven_are_one_id(request, rows, blocks):
    """7 and "7" are one id for the CLI (it reads 7 as "7") and for score_batches; Ray grouped raw values."""
    from zheval.adapters.ray import score_dataset

    ids = [f"q{i}" for i in range(len(rows))]
    ids[4], ids[33] = 7, "7"
    data = _ray_ids(request.getfixturevalue("local_ray"), rows, ids, blocks)
    with pytest.raises(ValueError, match=r"^zheval\.adapters\.ray\.score_dataset: duplicate id '7' in the id column "
                                         r"'id' \(row 4 holds int 7, row 33 holds str '7': one id under zheval's id "
                                         r"rule.*\): 2 rows have it \(row 4 and row 33 first\)"):
        quiet(score_dataset, data, id_column="id")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_duplicate_integer_id_is_named_as_the_column_holds_it(request, rows, engine):
    ids = [100 + i for i in range(len(rows))]
    ids[21] = 105
    preds, refs = [r["prediction"] for r in rows], [r["references"] for r in rows]
    if engine == "spark":
        from zheval.adapters.spark import score_dataframe as score

        spark = request.getfixturevalue("spark")
        data = spark.createDataFrame(spark.sparkContext.parallelize(list(zip(ids, preds, refs)), 2),
                                     "id bigint, prediction string, references array<string>")
    else:
        from zheval.adapters.ray import score_dataset as score

        data = request.getfixturevalue("local_ray").data.from_items(
            [{"id": i, "prediction": p, "references": r} for i, p, r in zip(ids, preds, refs)], override_num_blocks=2)
    with pytest.raises(ValueError, match=r"score_data(set|frame): duplicate id 105 in the id column 'id': 2 rows have "
                                         r"it \(row 5 and row 21 first\)"):
        quiet(score, data, id_column="id")
