"""zheval.adapters.ray.score_dataset on a local Ray (``ray.init(num_cpus=2)``): the numbers are ``==``
zheval.score on the shared real data for every tokenizer and preset, through 1, 2 and 8 blocks; groups, per-item
output, bad rows named by row, an unpicklable tokenizer refused with a clear message."""

from __future__ import annotations

import threading
import warnings

import pytest

from helpers.engines import (CASES, assert_chrf_per_item, assert_parquet_scores_are_the_rows, case_id,
                             case_partitionings, door_options, engine_or_skip, real_rows)

ray = engine_or_skip("ray", "ray")

import zheval  # noqa: E402
from zheval.adapters.ray import score_dataset  # noqa: E402
from zheval.compute.inputs import EmptyReferenceError  # noqa: E402

BLOCKS = (1, 2, 8)


@pytest.fixture(scope="module")
def local_ray():
    import ray.data

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, object_store_memory=200 * 1024 * 1024)
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def rows():
    return real_rows()


@pytest.fixture(scope="module")
def datasets(local_ray, rows):
    return {k: local_ray.data.from_items(rows, override_num_blocks=k) for k in BLOCKS}


def quiet_score(preds, refs, metrics, options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return zheval.score(preds, refs, metrics, **options)


def quiet_dataset(ds, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return score_dataset(ds, **kw)


@pytest.fixture(scope="module")
def expected(rows):
    preds = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    return {case_id(c): quiet_score(preds, refs, c[0], c[1]) for c in CASES}


def test_the_dataset_keeps_the_real_rows(datasets, rows):
    assert datasets[8].num_blocks() == 8 and datasets[8].count() == len(rows) > 700
    assert {len(r["references"]) for r in rows} >= {1, 2, 3}  # single and ragged multi-reference rows


@pytest.mark.parametrize(("case", "blocks"), case_partitionings(BLOCKS),
                         ids=lambda c: case_id(c) if isinstance(c, tuple) else str(c))
def test_numbers_equal_zheval_score(datasets, expected, case, blocks):
    metrics, options = case
    got = quiet_dataset(datasets[blocks], metrics=metrics, **door_options(metrics, options))
    want = expected[case_id(case)]
    assert got == want
    assert list(got) == list(want)


@pytest.mark.parametrize("blocks", (1, 8))
def test_a_user_callable_tokenizer_goes_to_the_workers(datasets, rows, blocks):
    def words(text):
        return text.replace("，", " ").split()

    preds = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    got = quiet_dataset(datasets[blocks], tokenizer=words, bootstrap=20, gather_items=True)
    assert got == quiet_score(preds, refs, ("bleu", "rouge"), {"tokenizer": words, "bootstrap": 20})
    assert "tok:custom:" in got["rouge"]["signature"]


@pytest.mark.parametrize("column", ["source", "bucket"])
def test_groups_equal_zheval_score_on_each_group(datasets, rows, column):
    got = quiet_dataset(datasets[8], group_column=column, bootstrap=100, gather_items=True)
    values = list(dict.fromkeys(r[column] for r in rows))
    assert list(got["groups"]) == values
    if column == "bucket":
        assert None in values  # the null group is a group of its own
    for v in values:
        sub = [r for r in rows if r[column] == v]
        want = quiet_score([r["prediction"] for r in sub], [r["references"] for r in sub], ("bleu", "rouge"),
                           {"bootstrap": 100})
        assert got["groups"][v] == want
    assert {k: got[k] for k in ("bleu", "rouge")} == quiet_score(
        [r["prediction"] for r in rows], [r["references"] for r in rows], ("bleu", "rouge"), {"bootstrap": 100})


def test_per_item_scores_are_joined_to_the_input_rows(datasets, rows):
    result, scored = quiet_dataset(datasets[8], per_item=True, tokenizer="jieba")
    by_id = {o["id"]: o for o in scored.take_all()}  # each input row with its own scores (in Ray's output order)
    assert len(by_id) == len(rows)
    out = [by_id[r["id"]] for r in rows]
    assert all(o["prediction"] == r["prediction"] and list(o["references"]) == r["references"]
               for o, r in zip(out, rows))
    preds = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    rouge = zheval.compute_rouge(preds, refs, tokenizer="jieba", use_aggregator=False, return_precision_recall=True)
    for t in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        assert [o[t] for o in out] == rouge[t]
        assert [o[f"{t}_precision"] for o in out] == rouge[f"{t}_precision"]
        assert [o[f"{t}_recall"] for o in out] == rouge[f"{t}_recall"]
    assert [o["sentence_bleu"] for o in out] == zheval.compute_bleu(preds, refs, tokenizer="jieba",
                                                                     level="sentence")["scores"]
    worst = scored.filter(lambda r: r["rougeL"] == 0.0).count()
    assert worst == sum(f == 0.0 for f in rouge["rougeL"])


def test_per_item_scores_written_where_the_data_is(datasets, rows, tmp_path):
    """The documented path (docs/engines.md): ``scored.write_parquet(dir)``; read back with pyarrow (not Ray), every
    row carries its id and its scores, == compute_rouge's per-item scores."""
    _, scored = quiet_dataset(datasets[8], per_item=True)
    scored.write_parquet(str(tmp_path / "scores"))
    assert_parquet_scores_are_the_rows(tmp_path / "scores", rows)


def bad_rows(rows, k, value, field="references"):
    out = [dict(r) for r in rows]
    out[k][field] = value
    return out


def test_an_empty_reference_is_an_error_naming_its_row(local_ray, rows):
    k = len(rows) - 5  # in the last block
    ds = local_ray.data.from_items(bad_rows(rows, k, ["……", ""]), override_num_blocks=8)
    with pytest.raises(EmptyReferenceError) as err:
        score_dataset(ds, id_column="id")
    assert err.value.positions == [(k, 1)]
    assert f"references[{k}][1]" in str(err.value) and repr(rows[k]["id"]) in str(err.value)


def test_a_null_reference_or_prediction_is_an_error_naming_its_row(local_ray, rows):
    k = 3 * len(rows) // 8 + 2
    ds = local_ray.data.from_items(bad_rows(rows, k, ["参考", None]), override_num_blocks=8)
    # the user's column names, not the library's parameters (issue 35)
    with pytest.raises(TypeError, match=rf"row {k} \(id '{rows[k]['id']}'\): references\[1\] must be str"):
        score_dataset(ds, id_column="id")
    ds = local_ray.data.from_items(bad_rows(rows, k, None, "prediction"), override_num_blocks=8)
    with pytest.raises(TypeError, match=rf"row {k}: column 'prediction' must be str, got None"):
        score_dataset(ds)


def test_a_tokenizer_that_cannot_be_pickled_is_refused_before_any_work(datasets):
    lock = threading.Lock()

    def locked_words(text):
        with lock:
            return text.split()

    with pytest.raises(TypeError, match=r"cannot be sent to the workers: pickling it failed .*lock"):
        score_dataset(datasets[2], tokenizer=locked_words)


def test_refused_options_and_missing_columns(datasets):
    with pytest.raises(ValueError, match="crosscheck is not available"):
        score_dataset(datasets[2], crosscheck=True)
    with pytest.raises(ValueError, match=r"no column 'answer'; the columns are"):
        score_dataset(datasets[2], prediction_column="answer")
    with pytest.raises(TypeError, match=r"unknown option.*stems English words only"):
        score_dataset(datasets[2], use_stemmer=True)
    with pytest.raises(TypeError, match=r"no requested metric \(bleu\) uses option\(s\) \['rouge_types'\]"):
        score_dataset(datasets[2], metrics=["bleu"], rouge_types=["rouge1"])
    with pytest.raises(ValueError, match="already has"):
        score_dataset(datasets[2].add_column("sentence_bleu", lambda b: b["id"]), per_item=True)


def test_options_objects_equal_the_same_options_by_name(datasets, rows):
    from zheval.compute.options import BleuOptions, ChrfOptions, RougeOptions

    preds = [r["prediction"] for r in rows]
    refs = [r["references"] for r in rows]
    got = quiet_dataset(datasets[2], metrics=["rouge", "bleu", "chrf"], rouge=RougeOptions(rouge_types=["rougeL"]),
                        bleu=BleuOptions(max_order=2), chrf=ChrfOptions(word_order=2), bootstrap=20,
                        gather_items=True)  # the multinomial bootstrap of the one-process score: every item gathered
    assert got == quiet_score(preds, refs, ["rouge", "bleu", "chrf"],
                              dict(rouge_types=["rougeL"], max_order=2, word_order=2, bootstrap=20))


def test_per_item_chrf_column(datasets, rows):
    """metrics=["chrf"], per_item: the chrf column (it was missing: score_columns listed ROUGE and BLEU only)."""
    _, scored = quiet_dataset(datasets[8], per_item=True, metrics=["chrf"])
    assert_chrf_per_item(scored.take_all(), rows)
