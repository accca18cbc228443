"""zheval.adapters.ray.score_dataset on a Ray cluster of two nodes on 127.0.0.1 (``ray.cluster_utils.Cluster``: a
head and a second node of one CPU each): the numbers are ``==`` zheval.score (groups included)."""

from __future__ import annotations

import warnings

import pytest

from helpers.engines import engine_or_skip, real_rows

ray = engine_or_skip("ray", "ray")

import zheval  # noqa: E402
from zheval.adapters.ray import score_dataset  # noqa: E402


@pytest.fixture(scope="module")
def two_nodes():
    from ray.cluster_utils import Cluster

    ray.shutdown()  # a local instance of another test module
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    cluster.add_node(num_cpus=1)
    ray.init(address=cluster.address, log_to_driver=False)
    cluster.wait_for_nodes()
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield cluster
    ray.shutdown()
    cluster.shutdown()


def test_two_nodes_give_the_numbers_of_one_process(two_nodes):
    assert len([n for n in ray.nodes() if n["Alive"]]) == 2
    rows = real_rows()
    ds = ray.data.from_items(rows, override_num_blocks=8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = score_dataset(ds, bootstrap=100, group_column="source", tokenizer="jieba", gather_items=True)
        want = zheval.score([r["prediction"] for r in rows], [r["references"] for r in rows], bootstrap=100,
                            tokenizer="jieba")
    assert {k: got[k] for k in ("bleu", "rouge")} == want
    assert list(got["groups"]) == ["crosswoz_groups", "crosswoz_single_turn", "csl"]
