"""Batch evaluation: predictions reader/joiner, per-item statistics via Dataset.map, reductions checked against
compute_bleu / compute_rouge called directly, num_proc invariance, human ceiling, paired bootstrap vs sacrebleu."""

from __future__ import annotations

import json

import numpy as np
import pytest

from helpers import SHARED_DATA, shared_path
from zheval.adapters.duck import (
    DuckFormatError,
    PredictionMismatchError,
    compare_predictions,
    evaluate_predictions,
    human_ceiling,
    join_predictions,
    load_duck,
    read_predictions,
)
from zheval.compute.bleu import compute_bleu
from zheval.compute.options import BleuOptions, RougeOptions
from zheval.compute.rouge import compute_rouge

GROUPS = SHARED_DATA / "crosswoz_same_query_groups.jsonl"
TYPES = ["rouge1", "rouge2", "rougeL"]


@pytest.fixture(scope="module")
def crosswoz():
    """Real multi-reference groups; prediction = the first response, references = the remaining ones."""
    ds = load_duck(shared_path(GROUPS.name))
    ds = ds.map(lambda r: {"prediction_src": r["responses"][0], "responses": r["responses"][1:]})
    preds = ds["prediction_src"]
    return ds.remove_columns("prediction_src"), preds


def _write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------------------------
# predictions


def test_read_predictions_formats(tmp_path, crosswoz):
    ds, preds = crosswoz
    ids = ds["id"]
    p1 = _write_jsonl(tmp_path / "p.jsonl", [{"id": i, "prediction": p} for i, p in reversed(list(zip(ids, preds)))])
    assert join_predictions(ds, p1) == preds  # joined by id, whatever the file order
    lf = _write_jsonl(tmp_path / "generated_predictions.jsonl",
                      [{"prompt": "…", "predict": p, "label": r[0]} for p, r in zip(preds, ds["responses"])])
    got = read_predictions(lf)
    assert got.ids is None and got.labels is not None
    assert join_predictions(ds, got) == preds and got.label_mismatches == []
    txt = tmp_path / "p.txt"
    txt.write_text("\n".join(preds) + "\n", encoding="utf-8")
    assert join_predictions(ds, txt) == preds
    # an empty line is an empty prediction; CRLF and BOM accepted
    t2 = tmp_path / "two.txt"
    t2.write_bytes("\ufeff第一\r\n\r\n第三\r\n".encode())
    assert read_predictions(t2).texts == ["第一", "", "第三"]


def test_llamafactory_labels_that_do_not_match_are_counted(tmp_path, crosswoz):
    ds, preds = crosswoz
    rows = [{"predict": p, "label": "别的回复"} for p in preds]
    got = read_predictions(_write_jsonl(tmp_path / "g.jsonl", rows))
    join_predictions(ds, got, label_check="warn")  # counted, not refused
    assert len(got.label_mismatches) == len(ds) == got.labelled
    assert got.label_mismatch_lines == list(range(1, len(ds) + 1))
    with pytest.raises(PredictionMismatchError, match=f"{len(ds)} of {len(ds)} items have a LLaMA-Factory 'label'"):
        join_predictions(ds, got)  # strict by default: all labels differ
    got = read_predictions(_write_jsonl(tmp_path / "g.jsonl", rows))
    assert join_predictions(ds, got, label_check="off") == preds and got.label_mismatches == []


def test_prediction_mismatch_lists_counts_and_first_ids(tmp_path, crosswoz):
    ds, preds = crosswoz
    rows = [{"id": i, "prediction": p} for i, p in zip(ds["id"][2:], preds[2:])] + [{"id": "ghost-1", "prediction": "x"}]
    with pytest.raises(PredictionMismatchError) as ei:
        join_predictions(ds, _write_jsonl(tmp_path / "m.jsonl", rows))
    msg = str(ei.value)
    assert "85 items, 84 predictions; 2 missing, 1 extra" in msg
    assert "'crosswoz-sameq-000', 'crosswoz-sameq-001'" in msg and "'ghost-1'" in msg
    with pytest.raises(PredictionMismatchError, match="84 predictions for 85 items"):
        join_predictions(ds, preds[1:])


@pytest.mark.parametrize(
    "lines, expected",
    [
        (['{"id": "a", "prediction": "x"}', '{"id": "a", "prediction": "y"}'], ":2: id 'a': duplicate id (first seen at "),
        (['{"id": "a", "prediction": null}'], ":1: id 'a': 'prediction' must be a string, got null"),
        (['{"id": "a", "text": "x"}'], ":1: id 'a': no prediction field"),
        (['{"id": "a", "prediction": "x", "predict": "y"}'], "two prediction fields"),
        (['{"id": "a", "prediction": "x"}', '{"prediction": "y"}'], "1 line(s) have an 'id' and 1 do not"),
        (['{"id": "a", "prediction": "x"}', '{"id": "b", "prediction": "y"'], ":2: malformed JSON"),
    ],
)
def test_bad_prediction_files(tmp_path, lines, expected):
    p = tmp_path / "bad.jsonl"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DuckFormatError) as ei:
        read_predictions(p)
    assert expected in str(ei.value)


# ---------------------------------------------------------------------------------------------------------------
# evaluation against the metric functions called directly


def test_overall_scores_equal_compute_bleu_and_compute_rouge(crosswoz):
    ds, preds = crosswoz
    refs = ds["responses"]
    rep = evaluate_predictions(ds, preds, bootstrap=300, seed=7)
    b = compute_bleu(preds, refs, bootstrap=300, seed=7)
    r = compute_rouge(preds, refs, rouge_types=TYPES, bootstrap=300, seed=7, return_precision_recall=True)
    bleu = rep.score("bleu")
    assert (bleu.value, bleu.low, bleu.high) == (b["bleu"], b["bleu_ci_low"], b["bleu_ci_high"])
    assert bleu.details["precisions"] == b["precisions"] and bleu.details["brevity_penalty"] == b["brevity_penalty"]
    for t in TYPES:
        v = rep.score(t)
        assert (v.value, v.low, v.high) == (r[t], r[f"{t}_ci_low"], r[f"{t}_ci_high"])
        assert v.details["precision"] == r[f"{t}_precision"] and v.details["recall"] == r[f"{t}_recall"]
    assert rep.signatures == {"bleu": b["signature"], "rouge": r["signature"]}
    # domain and difficulty are null throughout: one null group each, equal to overall
    assert [g.label for g in rep.groups] == ["overall", "domain=null", "difficulty=null"]
    assert rep.score("bleu", "domain", "null").value == b["bleu"]


def test_jieba_and_options_are_passed_through(crosswoz):
    ds, preds = crosswoz
    refs = ds["responses"]
    rep = evaluate_predictions(ds, preds, tokenizer="jieba", bootstrap=0, rouge_types=["rougeLsum"], multi_ref="mean",
                               smooth_method="floor", max_order=2, by=())
    b = compute_bleu(preds, refs, tokenizer="jieba", smooth_method="floor", max_order=2)
    r = compute_rouge(preds, refs, tokenizer="jieba", rouge_types=["rougeLsum"], multi_ref="mean")
    assert rep.score("bleu").value == b["bleu"] and rep.score("bleu").low is None
    assert rep.score("rougeLsum").value == r["rougeLsum"]
    assert rep.signatures == {"bleu": b["signature"], "rouge": r["signature"]}
    # the same options as objects give the same report
    typed = evaluate_predictions(ds, preds, tokenizer="jieba", bootstrap=0, by=(),
                                 rouge=RougeOptions(rouge_types=["rougeLsum"], multi_ref="mean"),
                                 bleu=BleuOptions(smooth_method="floor", max_order=2))
    assert typed.to_dict() == rep.to_dict()


def test_options_the_report_does_not_take_or_no_metric_uses_are_refused(crosswoz):
    ds, preds = crosswoz
    with pytest.raises(TypeError, match=r"does not take rouge's option\(s\) \['beta'\]"):
        evaluate_predictions(ds, preds, rouge=RougeOptions(beta=2), bootstrap=0)
    with pytest.raises(TypeError, match=r"no requested metric \(bleu\) uses option\(s\) \['rouge_types'\]"):
        evaluate_predictions(ds, preds, metrics=["bleu"], rouge_types=["rouge1"], bootstrap=0)
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['use_stemmer'\].*stems English words only"):
        evaluate_predictions(ds, preds, use_stemmer=True, bootstrap=0)


def test_per_group_scores_equal_direct_scores_on_the_subset():
    from zheval.adapters.duck import sample_files

    with sample_files() as f:
        ds = load_duck(f["data"])
        preds = join_predictions(ds, f["predictions"])
    rep = evaluate_predictions(ds, preds, bootstrap=0)
    for dim in ("domain", "difficulty"):
        for value in set(ds[dim]):
            idx = [i for i, v in enumerate(ds[dim]) if v == value]
            sub_p = [preds[i] for i in idx]
            sub_r = [ds[i]["responses"] for i in idx]
            label = "null" if value is None else value
            assert rep.score("bleu", dim, label).value == compute_bleu(sub_p, sub_r)["bleu"]
            assert rep.score("rougeL", dim, label).value == compute_rouge(sub_p, sub_r, rouge_types=["rougeL"])["rougeL"]
            assert next(g.n for g in rep.groups if g.dimension == dim and g.value == label) == len(idx)


def test_num_proc_1_and_2_identical(crosswoz):
    ds, preds = crosswoz
    small = ds.select(range(30))
    a = evaluate_predictions(small, preds[:30], bootstrap=100, num_proc=1, keep_items=True).to_dict()
    b = evaluate_predictions(small, preds[:30], bootstrap=100, num_proc=2, keep_items=True).to_dict()
    assert a["params"].pop("num_proc") == 1 and b["params"].pop("num_proc") == 2
    assert a == b


def test_map_fingerprint_changes_with_tokenizer_and_predictions(crosswoz):
    from zheval.adapters.duck.config import make_config, report_options
    from zheval.adapters.duck.statistics import item_statistics

    ds, preds = crosswoz
    small = ds.select(range(5))
    fp = lambda p, t: item_statistics(small, p, make_config(report_options("test", ("bleu", "rouge"), t, {}, {})))._fingerprint  # noqa: E731
    base = fp(preds[:5], "char")
    assert fp(preds[:5], "char") == base
    assert fp(preds[:5], "jieba") != base
    assert fp(["x"] + preds[1:5], "char") != base


def test_empty_reference_after_normalisation_names_the_id(crosswoz):
    ds, preds = crosswoz
    bad = ds.select(range(3)).map(lambda r, i: {"responses": r["responses"] + (["\u200b"] if i == 1 else [])}, with_indices=True)
    with pytest.raises(ValueError, match="dataset row 1: id 'crosswoz-sameq-001': responses\\[4\\] is empty after normalisation"):
        evaluate_predictions(bad, preds[:3], bootstrap=0)


def test_human_ceiling_equals_direct_scores_of_leave_one_out_rows():
    ds = load_duck(shared_path(GROUPS.name))
    rep = human_ceiling(ds, bootstrap=200, by=())
    flat_p, flat_r = [], []
    for refs in ds["responses"]:
        for j, r in enumerate(refs):
            flat_p.append(r)
            flat_r.append(refs[:j] + refs[j + 1:])
    assert len(flat_p) == sum(len(r) for r in ds["responses"])
    b = compute_bleu(flat_p, flat_r)
    r = compute_rouge(flat_p, flat_r, rouge_types=TYPES)
    assert rep.score("bleu").value == b["bleu"]
    for t in TYPES:
        assert rep.score(t).value == r[t]
    lo, hi = rep.score("bleu").low, rep.score("bleu").high
    assert lo <= b["bleu"] <= hi


def test_human_ceiling_skips_and_counts_single_reference_items(tmp_path):
    rows = [
        {"id": "one", "query": "q", "responses": ["只有一条参考回复。"], "domain": None, "difficulty": None},
        {"id": "two", "query": "q", "responses": ["第一条参考回复。", "第二条参考回复。"], "domain": None, "difficulty": None},
    ]
    p = _write_jsonl(tmp_path / "d.jsonl", rows)
    rep = human_ceiling(load_duck(p, min_refs=1), bootstrap=0)  # single-reference data needs the relaxed loader
    assert any("1 item(s) with fewer than 2 references skipped" in n for n in rep.notes)
    b = compute_bleu(["第一条参考回复。", "第二条参考回复。"], [["第二条参考回复。"], ["第一条参考回复。"]])
    assert rep.score("bleu").value == b["bleu"]
    with pytest.raises(ValueError, match="at least 2 references"):
        human_ceiling(load_duck(p, min_refs=1).select([0]), bootstrap=0)


def test_paired_bootstrap_p_value_equals_sacrebleu(crosswoz):
    """Same resampled indices as sacrebleu (default_rng(12345).choice), same BLEU arithmetic, same p-value rule."""
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    from zheval.tokenizers import get_tokenizer

    ds, preds = crosswoz
    refs = ds["responses"]
    preds_b = [p[: max(1, len(p) // 2)] for p in preds]  # a truncating system
    rep = compare_predictions(ds, preds, preds_b, bootstrap=1000, seed=12345, metrics=["bleu"])
    row = rep.comparison[0]
    tok = get_tokenizer("char")
    sp = lambda t: " ".join(tok(t))  # noqa: E731
    nmax = max(len(r) for r in refs)
    streams = [[sp(r[k]) if k < len(r) else None for r in refs] for k in range(nmax)]
    test = PairedTest(
        [("baseline", [sp(p) for p in preds]), ("b", [sp(p) for p in preds_b])],
        {"BLEU": BLEU(tokenize="none", force=True)},
        references=streams,
        test_type="bs",
        n_samples=1000,
    )
    _, results = test()
    assert results["BLEU"][0].score == pytest.approx(100 * row["score_a"], abs=1e-9)
    assert results["BLEU"][1].score == pytest.approx(100 * row["score_b"], abs=1e-9)
    assert row["p_value"] == results["BLEU"][1].p_value
    assert row["delta_low"] <= row["delta"] <= row["delta_high"] < 0


def test_paired_bootstrap_of_a_system_with_itself():
    from zheval.results.reducers import paired_bootstrap

    rows = np.array([[0.2, 1], [0.5, 1], [0.9, 1]])
    res = paired_bootstrap(rows, rows, lambda s: s[:, 0] / s[:, 1], 200, seed=1)
    assert res["delta"] == 0 and res["delta_low"] == res["delta_high"] == 0
    assert res["p_value"] == 1 / 201  # no resample difference exceeds 0 strictly: sacrebleu's (0 + 1) / (n + 1)
    with pytest.raises(ValueError):
        paired_bootstrap(rows, rows[:2], lambda s: s[:, 0], 10)
