"""The engine doors' own checks (break-it pass on the engine doors), on a local Ray and Spark: a door argument of the
wrong kind is one line from the door, before the engine sees it (``batch_size``, ``per_item``, ``gather_items``);
group values that cannot name a group are refused naming the column (and row); groups come back in order of first
appearance, reduced from sums or gathered."""

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


# -- group values: a nested column, an unhashable value, NaN, two kinds in one column --------------------------------

def _object_array(values):
    try:  # Ray >= 2.60 moved it
        from ray.data._internal.object_extensions.arrow import ArrowPythonObjectArray
    except ImportError:
        from ray.air.util.object_extensions.arrow import ArrowPythonObjectArray
    return ArrowPythonObjectArray.from_objects(values)


def _ray_groups(ray, rows, groups, blocks=1, objects=False):
    """A Ray Dataset of ``rows`` whose column ``g`` holds ``groups``, cut into ``blocks`` Arrow tables (one block
    each): a block whose values are of one type gets that Arrow type (so blocks may differ), else (and always with
    ``objects``) Ray's column of pickled Python objects."""
    import pyarrow as pa

    cut = [len(rows) * k // blocks for k in range(blocks + 1)]
    tables = []
    for a, b in zip(cut, cut[1:]):
        values = groups[a:b]
        one_type = len({type(v) for v in values if v is not None}) == 1 and not isinstance(values[0], list)
        one_type = one_type and not objects
        tables.append(pa.table({"prediction": [r["prediction"] for r in rows[a:b]],
                                "references": pa.array([list(r["references"]) for r in rows[a:b]],
                                                       pa.list_(pa.string())),
                                "g": pa.array(values) if one_type else _object_array(values)}))
    return ray.data.from_arrow(tables)


def test_a_nested_group_column_is_refused_on_the_driver(request, rows):
    from zheval.adapters.ray import score_dataset
    from zheval.adapters.spark import score_dataframe

    spark = request.getfixturevalue("spark")
    df = spark.createDataFrame([(r["prediction"], r["references"], [r["source"], "x"]) for r in rows],
                               "prediction string, references array<string>, g array<string>")
    with pytest.raises(TypeError, match=r"^zheval\.adapters\.spark\.score_dataframe: the group column 'g' is "
                                        r"array<string>: a list, a struct or a map cannot name a group"):
        score_dataframe(df, group_column="g")
    ray = request.getfixturevalue("local_ray")
    ds = ray.data.from_items([{"prediction": r["prediction"], "references": r["references"], "g": [i, i]}
                              for i, r in enumerate(rows)], override_num_blocks=2)
    with pytest.raises(TypeError, match=r"^zheval\.adapters\.ray\.score_dataset: the group column 'g' is "
                                        r"list<item: int64>: a list, a struct or a map cannot name a group"):
        score_dataset(ds, group_column="g")


@pytest.mark.parametrize("gather", [False, True])
def test_an_unhashable_group_value_in_an_object_column_is_named_by_its_row(request, rows, gather):
    from zheval.adapters.ray import score_dataset

    groups = [r["source"] for r in rows]
    groups[23] = ["a", "b"]
    ds = _ray_groups(request.getfixturevalue("local_ray"), rows, groups, blocks=2)
    options = {"bootstrap": 20, "gather_items": True} if gather else {}
    with pytest.raises(TypeError, match=r"^zheval\.adapters\.ray\.score_dataset: row 23: the group column 'g' holds "
                                        r"list \['a', 'b'\], which cannot name a group"):
        quiet(score_dataset, ds, group_column="g", **options)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_nan_group_value_is_named_by_its_row(request, rows, engine):
    groups = [float(i % 3) for i in range(len(rows))]
    groups[31] = float("nan")
    if engine == "spark":
        from zheval.adapters.spark import score_dataframe as score

        spark = request.getfixturevalue("spark")
        data = spark.createDataFrame([(r["prediction"], r["references"], g) for r, g in zip(rows, groups)],
                                     "prediction string, references array<string>, g double").repartition(1)
    else:
        from zheval.adapters.ray import score_dataset as score

        data = _ray_groups(request.getfixturevalue("local_ray"), rows, groups, blocks=3)
    with pytest.raises(ValueError, match=r"score_data(set|frame): row 31: the group column 'g' holds NaN, which "
                                         r"cannot name a group \(NaN != NaN"):
        quiet(score, data, group_column="g")


@pytest.mark.parametrize("blocks, gather", [(1, False), (2, False), (2, True)])
def test_group_values_of_two_kinds_are_refused_not_split(request, rows, blocks, gather):
    """0 and "0" are one group '0' at the CLI (it reads an integer as its decimal text); an engine column holding
    both (Python objects; with 2 blocks each block holds one kind, so the kinds meet only in the merge) was two
    groups: now refused naming the row."""
    from zheval.adapters.ray import score_dataset

    ray = request.getfixturevalue("local_ray")
    half = len(rows) // 2
    groups = [0] * half + ["0"] * (len(rows) - half)
    options = {"bootstrap": 20, "gather_items": True} if gather else {}
    with pytest.raises(ValueError, match=rf"^zheval\.adapters\.ray\.score_dataset: row {half}: the group column 'g' "
                                         r"holds str '0' here and int 0 at row 0: a group column holds one kind"):
        quiet(score_dataset, _ray_groups(ray, rows, groups, blocks, objects=True), group_column="g", **options)
    flags = [True] * half + [1] * (len(rows) - half)  # 1 == True in Python: one group, silently
    with pytest.raises(ValueError, match=rf"row {half}: the group column 'g' holds int 1 here and bool True at row 0"):
        quiet(score_dataset, _ray_groups(ray, rows, flags, blocks, objects=True), group_column="g", **options)


def test_blocks_that_disagree_on_a_column_type_are_one_line(request, rows):
    """Arrow blocks of int64 and string in one column: Ray's schema() raised pyarrow's bare ArrowTypeError."""
    from zheval.adapters.ray import score_dataset

    half = len(rows) // 2
    ds = _ray_groups(request.getfixturevalue("local_ray"), rows, [0] * half + ["0"] * (len(rows) - half), 2)
    with pytest.raises(TypeError, match=r"^zheval\.adapters\.ray\.score_dataset: the Dataset's blocks do not agree "
                                        r"on a column's type \(Unable to merge: Field g has incompatible types: "
                                        r"int64 vs string\)"):
        score_dataset(ds, group_column="g")


# -- the order of the groups -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("gather", [False, True])
def test_groups_come_back_in_order_of_first_appearance(request, rows, engine, gather):
    """First appearance as zheval.score_batches lists them (the groups were sorted by value on the sums path, and
    gather_items=True was ignored there); new groups appear in reverse sorted order, so sorting cannot pass."""
    import zheval

    groups = ["q" if i % 4 == 0 else "yxwvutsr"[i // 5] for i in range(len(rows))]
    preds, refs = [r["prediction"] for r in rows], [r["references"] for r in rows]
    options = {"bootstrap": 20, "seed": 3, "bootstrap_method": "poisson"}
    want = quiet(zheval.score_batches, [(preds, refs, groups)], progress=False, **options)
    assert list(want["groups"]) == list(dict.fromkeys(groups)) != sorted(set(groups))
    with_groups = [dict(r, g=g) for r, g in zip(rows, groups)]
    for parts in (1, 2, 8, 64):
        if engine == "spark":
            from zheval.adapters.spark import score_dataframe as score

            spark = request.getfixturevalue("spark")
            data = spark.createDataFrame(spark.sparkContext.parallelize(
                [(r["prediction"], r["references"], r["g"]) for r in with_groups], parts),
                "prediction string, references array<string>, g string")
        else:
            from zheval.adapters.ray import score_dataset as score

            data = request.getfixturevalue("local_ray").data.from_items(with_groups, override_num_blocks=parts)
        got = quiet(score, data, group_column="g", gather_items=gather, **options)
        assert list(got["groups"]) == list(want["groups"]), parts
        assert got == want, parts


# -- ids: the CLI's rule (null, blank, spaces around) and no duplicate ---------------------------------------------------

def _id_data(request, engine, rows, ids, parts=4):
    with_ids = [dict(r, id=i) for r, i in zip(rows, ids)]
    if engine == "spark":
        from zheval.adapters.spark import score_dataframe as score

        spark = request.getfixturevalue("spark")
        return score, spark.createDataFrame(spark.sparkContext.parallelize(
            [(r["id"], r["prediction"], r["references"]) for r in with_ids], parts),
            "id string, prediction string, references array<string>")
    from zheval.adapters.ray import score_dataset as score

    return score, request.getfixturevalue("local_ray").data.from_items(with_ids, override_num_blocks=parts)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_duplicate_id_is_refused_naming_it_and_its_rows(request, rows, engine):
    ids = [f"q{i}" for i in range(len(rows))]
    ids[30] = "q5"
    score, data = _id_data(request, engine, rows, ids)
    with pytest.raises(ValueError, match=r"score_data(set|frame): duplicate id 'q5' in the id column 'id': 2 rows "
                                         r"have it \(row 5 and row 30 first\);"):
        quiet(score, data, id_column="id")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("bad, says", [(None, "got null None"), (" q12 ", "has spaces around it"),
                                       ("", "must be a non-empty string")])
def test_an_id_the_cli_refuses_is_named_by_its_row(request, rows, engine, bad, says):
    ids = [f"q{i}" for i in range(len(rows))]
    ids[12] = bad
    score, data = _id_data(request, engine, rows, ids)
    with pytest.raises(ValueError, match=rf"score_data(set|frame): row 12( \(id '.*'\))?: .*{says}"):
        quiet(score, data, id_column="id")
