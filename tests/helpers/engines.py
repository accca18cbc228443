"""Shared parts of the engine adapters' tests (``tests/adapters/engines/``): the engine module or one skip line, the
real rows they score, and every tokenizer and preset :func:`zheval.score` accepts.

Ray and PySpark are heavy and live in their own virtual environment (``.ci/engines`` builds it and runs these tests
with ``ZHEVAL_REQUIRE_ENGINES=1``, under which a missing engine is a failure); in the main suite the tests skip with
one line per engine.
"""

from __future__ import annotations

import importlib
import os

import pytest

from . import crosswoz_items, read_jsonl

__all__ = ["REQUIRE_ENGINES", "CASES", "case_partitionings", "engine_or_skip", "real_rows", "case_id", "door_options", "local_spark_session",
           "local_ray_instance", "quiet", "assert_parquet_scores_are_the_rows", "assert_chrf_per_item"]

REQUIRE_ENGINES = os.environ.get("ZHEVAL_REQUIRE_ENGINES", "").strip().lower() in ("1", "true", "yes")
"""``ZHEVAL_REQUIRE_ENGINES=1`` (``.ci/engines``): a missing Ray or PySpark fails instead of skipping."""


def engine_or_skip(module: str, extra: str):
    """Import ``module`` (``"ray"``, ``"pyspark"``) or skip the calling test module with one line (fail under
    ``ZHEVAL_REQUIRE_ENGINES=1``)."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError:
        message = (f"{module} is not installed: the {extra} adapter's tests run in .ci/engines (its own venv; "
                   "ZHEVAL_REQUIRE_ENGINES=1 makes this a failure)")
        if REQUIRE_ENGINES:
            pytest.fail(message, pytrace=False)
        pytest.skip(message, allow_module_level=True)


def real_rows() -> list[dict]:
    """Rows of the shared real data (skipped without it; fails under ``CI=true``): the CrossWOZ same-query groups
    as leave-one-out items (2-4 references, ragged), 300 CrossWOZ single-turn rows (query vs the system reply) and
    100 CSL rows (a cut of the abstract vs the title). Each row: ``id``, ``prediction``, ``references``
    (``list[str]``), ``source`` (the file: a group column), ``bucket`` (``int`` 0-2 or ``None``: a group column
    with a null group)."""
    preds, refs = crosswoz_items(read_jsonl("crosswoz_same_query_groups.jsonl"))
    ids = [f"sameq-{i}" for i in range(len(preds))]
    sources = ["crosswoz_groups"] * len(preds)
    for r in read_jsonl("crosswoz_single_turn.jsonl")[:300]:
        preds.append(r["query"])
        refs.append(list(r["responses"]))
        ids.append(r["id"])
        sources.append("crosswoz_single_turn")
    for i, r in enumerate(read_jsonl("csl_ts_test.jsonl")[:100]):
        preds.append(r["document"][: max(1, len(r["summary"]) + (i % 9) - 4)])
        refs.append([r["summary"]])
        ids.append(r["id"])
        sources.append("csl")
    return [{"id": ids[i], "prediction": preds[i], "references": refs[i], "source": sources[i],
             "bucket": None if i % 7 == 0 else i % 3} for i in range(len(preds))]


#: ``(metrics, options)`` of every tokenizer name and every preset :func:`zheval.score` accepts (a preset with the
#: metrics it serves), and the options whose reduction depends on the item order or on per-item columns.
CASES = (
    [(("bleu", "rouge"), {"tokenizer": t}) for t in ("char", "jieba", "none", "sacrebleu-zh", "llamafactory-char",
                                                      "llamafactory-jieba", "opencompass-jieba", "glm4-jieba")]
    + [(("rouge",), {"preset": "rouge155"}), (("bleu", "rouge"), {"preset": "llamafactory"}),
       (("rouge",), {"preset": "opencompass-jieba-rouge"}), (("rouge",), {"preset": "longbench"}),
       (("bleu", "rouge"), {"preset": "glm4"}), (("bleu",), {"preset": "sacrebleu-zh"})]
    + [(("bleu", "rouge"), {"bootstrap": 200, "seed": 7, "return_precision_recall": True}),
       (("bleu", "rouge"), {"rouge_types": ["rouge3", "rougeW", "rougeSU4"], "level": "sentence", "max_refs": 2,
                            "tokenizer": "jieba", "bootstrap": 50})]
)


def case_partitionings(partitionings) -> list:
    """``(case, k)`` pairs for the engines' number tests: the first case (char) through every partitioning in
    ``partitionings``, each other case through one of them in turn, so that every partitioning meets several
    tokenizers and presets while each case runs once (a partitioning changes only how the per-item sums are merged,
    which the first case and tests/adapters/engines/test_engine_sums.py cover through every count)."""
    first, *rest = CASES
    return [(first, k) for k in partitionings] + [(c, partitionings[i % len(partitionings)])
                                                  for i, c in enumerate(rest, 1)]


def case_id(case) -> str:
    """A readable test id of a :data:`CASES` entry."""
    metrics, options = case
    return "+".join(metrics) + ":" + ",".join(f"{k}={v}" for k, v in options.items())


def door_options(metrics, options: dict) -> dict:
    """``options`` plus ``gather_items=True`` when they need every item (the multinomial bootstrap, a preset's own
    numbers, per-item lists: :func:`zheval.compute.sums.needs_every_item`), which an engine door refuses without it."""
    from zheval.compute.joint import score_config
    from zheval.compute.sums import needs_every_item

    config = score_config(metrics, **{k: v for k, v in options.items() if k != "gather_items"})
    return {**options, "gather_items": True} if needs_every_item(config) is not None else dict(options)


def local_spark_session():
    """A ``local[2]`` SparkSession for a module's tests (a generator for a fixture: ``yield from``); the executors run
    this interpreter (``PYSPARK_PYTHON``), on 127.0.0.1."""
    engine_or_skip("pyspark", "spark")
    import sys

    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ.pop("SPARK_REMOTE", None)
    session = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def local_ray_instance():
    """A local Ray (2 CPUs, no dashboard, no progress bars) for a module's tests (a generator for a fixture)."""
    ray = engine_or_skip("ray", "ray")
    ray.shutdown()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield ray
    ray.shutdown()


def quiet(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` with warnings ignored (the input guards' warnings on the real data)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def assert_parquet_scores_are_the_rows(directory, rows) -> None:
    """The per-item scores an engine wrote to ``directory`` (``write_parquet`` / ``write.parquet``), read back with
    pyarrow (not the engine): one row per input row, found by its id, with rougeL == compute_rouge's per item."""
    import pyarrow.parquet as pq

    import zheval

    table = pq.read_table(str(directory)).to_pylist()
    by_id = {o["id"]: o for o in table}
    assert len(table) == len(by_id) == len(rows)
    rouge = zheval.compute_rouge([r["prediction"] for r in rows], [r["references"] for r in rows],
                                 use_aggregator=False)
    assert [by_id[r["id"]]["rougeL"] for r in rows] == rouge["rougeL"]


def assert_chrf_per_item(scored_rows, rows) -> None:
    """The per-item rows of an engine door with ``metrics=["chrf"]``: one ``chrf`` column (no BLEU/ROUGE column),
    each row's == ``compute_chrf(level="sentence")``'s score of its item, found by id."""
    import zheval

    by_id = {o["id"]: o for o in scored_rows}
    assert len(by_id) == len(rows)
    assert not any(k.startswith(("rouge", "bleu", "sentence_bleu")) for k in next(iter(by_id.values())))
    want = zheval.compute_chrf([r["prediction"] for r in rows], [r["references"] for r in rows],
                               level="sentence")["scores"]
    assert [by_id[r["id"]]["chrf"] for r in rows] == want
