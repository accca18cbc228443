"""The engine doors at scale: options that need every item are refused unless gather_items=True (the message names
the alternative), the Poisson bootstrap through the doors == score_batches, an empty Ray Dataset without a schema is
"no items to score", and executors whose Python lacks pyarrow/numpy get one line naming PYSPARK_PYTHON."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from helpers import REPO
from helpers.engines import engine_or_skip, quiet, real_rows


@pytest.fixture(scope="module")
def rows():
    return real_rows()[:400]


@pytest.fixture(scope="module")
def poisson(rows):
    import zheval

    return quiet(zheval.score_batches, [([r["prediction"] for r in rows], [r["references"] for r in rows],
                                          [r["source"] for r in rows], [r["id"] for r in rows])],
                  ("bleu", "rouge", "chrf"), bootstrap=200, seed=3, bootstrap_method="poisson", progress=False)


def _frame(spark, rows, parts=4):
    data = spark.sparkContext.parallelize([(r["id"], r["prediction"], r["references"], r["source"]) for r in rows],
                                          parts)
    return spark.createDataFrame(data, "id string, prediction string, references array<string>, source string")


def _dataset(ray, rows, parts=4):
    return ray.data.from_items([{k: r[k] for k in ("id", "prediction", "references", "source")} for r in rows],
                               override_num_blocks=parts)


@pytest.mark.parametrize("options,named", [
    (dict(bootstrap=100), "bootstrap_method='poisson'"),
    (dict(preset="llamafactory"), "preset='llamafactory'"),
    (dict(level="sentence"), "level='sentence'"),
])
def test_spark_refuses_what_needs_every_item_naming_the_alternatives(spark, rows, options, named):
    from zheval.adapters.spark import score_dataframe

    with pytest.raises(ValueError, match="gather_items=True") as e:
        score_dataframe(_frame(spark, rows), **options)
    assert named in str(e.value)


def test_ray_refuses_what_needs_every_item_and_an_empty_dataset_has_no_items(local_ray, rows):
    from zheval.adapters.ray import score_dataset

    with pytest.raises(ValueError, match="bootstrap_method='poisson'.*gather_items=True"):
        score_dataset(_dataset(local_ray, rows), bootstrap=100)
    with pytest.raises(ValueError, match="no items to score"):
        score_dataset(local_ray.data.from_items([]))
    with pytest.raises(ValueError, match="no items to score"):  # a schema but no row (was a TypeError in pickle)
        score_dataset(_dataset(local_ray, rows[:5]).filter(lambda r: False))


def test_the_poisson_bootstrap_through_both_doors_equals_score_batches(spark, local_ray, rows, poisson):
    from zheval.adapters.ray import score_dataset
    from zheval.adapters.spark import score_dataframe

    options = dict(metrics=("bleu", "rouge", "chrf"), bootstrap=200, seed=3, bootstrap_method="poisson",
                   id_column="id", group_column="source")
    for parts in (1, 8):
        assert quiet(score_dataframe, _frame(spark, rows, parts), **options) == poisson
        assert quiet(score_dataset, _dataset(local_ray, rows, parts), **options) == poisson


def test_executors_without_pyarrow_get_one_line_naming_pyspark_python(tmp_path):
    """The executors run a bare venv's Python (no numpy, no pyarrow): the door raises one line, not a Java trace."""
    engine_or_skip("pyspark", "spark")
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    script = textwrap.dedent("""
        from pyspark.sql import SparkSession
        from zheval.adapters.spark import score_dataframe
        spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
        spark.sparkContext.setLogLevel("OFF")
        df = spark.createDataFrame([("今天天气很好", ["今天天气不错"])], "prediction string, references array<string>")
        try:
            score_dataframe(df)
        except RuntimeError as exc:
            print("ERROR:", exc)
        spark.stop()
    """)
    env = dict(os.environ, PYTHONPATH=str(REPO), SPARK_LOCAL_IP="127.0.0.1", PYSPARK_PYTHON=str(bare / "bin" / "python"))
    env.pop("SPARK_REMOTE", None)
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=600)
    line = [x for x in proc.stdout.splitlines() if x.startswith("ERROR:")]
    assert len(line) == 1, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "PYSPARK_PYTHON" in line[0] and "No module named" in line[0] and "\n" not in line[0]


def test_ray_workers_without_zheval_get_one_line_naming_the_runtime_environment(tmp_path):
    """Ray's workers run with a PYTHONPATH that lacks this clone (the engines' venv has no zheval installed), so they
    cannot unpickle zheval's batch function: the door raises one line naming the runtime environment, not a
    RayTaskError trace."""
    engine_or_skip("ray", "ray")
    script = textwrap.dedent("""
        import ray
        from zheval.adapters.ray import score_dataset
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False,
                 runtime_env={"env_vars": {"PYTHONPATH": ""}})
        ds = ray.data.from_items([{"prediction": "今天天气很好", "references": ["今天天气不错"]}])
        try:
            score_dataset(ds)
        except RuntimeError as exc:
            print("ERROR:", exc)
        ray.shutdown()
    """)
    env = dict(os.environ, PYTHONPATH=str(REPO), RAY_DEDUP_LOGS="0")
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    line = [x for x in proc.stdout.splitlines() if x.startswith("ERROR:")]
    assert len(line) == 1, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "runtime_env" in line[0] and "No module named 'zheval'" in line[0] and "\n" not in line[0]
