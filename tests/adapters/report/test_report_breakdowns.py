"""The breakdowns of the 小黄鸭 score report (Report.breakdowns, zheval.adapters.report.breakdowns) on the embedded
sample: the scores without truncated predictions (per group, next to the unchanged scores on all items), Distinct-n
per group, length buckets with counts and intervals, random folds, and max_refs -- each figure against the library
(compute_bleu / compute_rouge on the selected items), sacrebleu, or a computation written out here."""

from __future__ import annotations

import math
import re
import statistics

import numpy as np
import pytest
from sacrebleu.metrics import BLEU

from zheval import compute_bleu, compute_rouge
from zheval.adapters.duck import evaluate_predictions, load_duck, sample_files
from zheval.results.diagnostics import ending_kind
from zheval.tokenizers import get_tokenizer

TYPES = ["rouge1", "rouge2", "rougeL"]


@pytest.fixture(scope="module")
def sample():
    with sample_files() as f:
        ds = load_duck(f["data"])
        rep = evaluate_predictions(ds, f["predictions"], bootstrap=200, seed=7, buckets=(20, 40), folds=4)
        # the predictions in dataset order, as the report joined them
        items = evaluate_predictions(ds, f["predictions"], bootstrap=0, by=[], keep_items=True).items
    assert [it["id"] for it in items] == ds["id"]
    return ds, [it["prediction"] for it in items], rep


def _scores(preds, refs, idx):
    p = [preds[i] for i in idx]
    r = [refs[i] for i in idx]
    out = {"bleu": compute_bleu(p, r)["bleu"]}
    out.update({t: v for t, v in compute_rouge(p, r, rouge_types=TYPES).items() if t in TYPES})
    return out


def test_scores_without_truncated_predictions_next_to_the_scores_on_all_items(sample):
    ds, preds, rep = sample
    refs = [list(r) for r in ds["responses"]]
    norm = get_tokenizer("char").normalize
    truncated = [ending_kind(norm(p)) in ("no_final_punct", "mid_word") for p in preds]
    kept = [i for i, t in enumerate(truncated) if not t]
    t = rep.breakdowns["truncation_excluded"]
    assert t["excluded"] == sum(truncated) == rep.diagnostics.truncated > 0
    assert t["rate"] == sum(truncated) / len(preds)
    overall = t["groups"][0]
    assert (overall["dimension"], overall["n"], overall["excluded"]) == ("overall", len(kept), sum(truncated))
    want = _scores(preds, refs, kept)
    for name, v in want.items():
        assert overall["scores"][name]["value"] == pytest.approx(v, abs=1e-12)
    # and BLEU of the kept items once more, with sacrebleu on the same character tokens
    tok = get_tokenizer("char")
    width = max(len(refs[i]) for i in kept)
    streams = [[" ".join(tok.tokenize(refs[i][j])) if j < len(refs[i]) else None for i in kept] for j in range(width)]
    sacre = BLEU(tokenize="none", force=True).corpus_score([" ".join(tok.tokenize(preds[i])) for i in kept], streams)
    assert overall["scores"]["bleu"]["value"] == pytest.approx(sacre.score / 100, abs=1e-12)
    # the main score is the score on all items, unchanged
    assert rep.overall().scores["bleu"].value == pytest.approx(_scores(preds, refs, range(len(preds)))["bleu"], abs=1e-12)
    assert rep.overall().scores["bleu"].value != overall["scores"]["bleu"]["value"]
    # per group: the group's items minus its truncated ones
    for g in t["groups"][1:]:
        members = [i for i, v in enumerate(ds[g["dimension"]]) if v == g["value"]]  # JSON null: missing
        assert g["excluded"] == sum(truncated[i] for i in members)
        assert g["n"] == len(members) - g["excluded"]
        if g["n"]:
            assert g["scores"]["rouge1"]["value"] == pytest.approx(
                _scores(preds, refs, [i for i in members if not truncated[i]])["rouge1"], abs=1e-12)


def test_distinct_per_group_against_an_independent_count(sample):
    ds, preds, rep = sample
    tok = get_tokenizer("char")
    refs = [list(r) for r in ds["responses"]]

    def distinct(texts, n):
        grams = [tuple(t[i:i + n]) for t in texts for i in range(len(t) - n + 1)]
        return len(set(grams)) / len(grams)

    div = rep.breakdowns["diversity"]
    assert [(g["dimension"], g["value"]) for g in div] == [(g.dimension, g.to_dict()["value"]) for g in rep.groups]
    for g in div:
        if g["dimension"] == "overall":
            idx = list(range(len(preds)))
        else:
            idx = [i for i, v in enumerate(ds[g["dimension"]]) if v == g["value"]]  # JSON null: missing
        hyp = [list(tok.tokenize(preds[i])) for i in idx]
        ref = [list(tok.tokenize(r)) for i in idx for r in refs[i]]
        for n in (1, 2):
            assert g["distinct"][f"distinct_{n}"] == pytest.approx(distinct(hyp, n), abs=1e-15)
            assert g["reference_distinct"][f"distinct_{n}"] == pytest.approx(distinct(ref, n), abs=1e-15)
        assert g["n"] == len(idx)


def test_length_buckets_by_mean_reference_tokens_with_intervals(sample):
    ds, preds, rep = sample
    tok = get_tokenizer("char")
    refs = [list(r) for r in ds["responses"]]
    mean_len = [sum(len(tok.tokenize(r)) for r in rs) / len(rs) for rs in refs]
    lb = rep.breakdowns["length_buckets"]
    assert lb["edges"] == [20, 40]
    bounds = [(0, 20), (20, 40), (40, math.inf)]
    assert [b["value"] for b in lb["buckets"]] == ["[0, 20)", "[20, 40)", "[40, ∞)"]
    for b, (lo, hi) in zip(lb["buckets"], bounds):
        idx = [i for i, x in enumerate(mean_len) if lo <= x < hi]
        assert b["n"] == len(idx)
        if len(idx) < 2:
            continue
        want = _scores(preds, refs, idx)
        for name, v in want.items():
            assert b["scores"][name]["value"] == pytest.approx(v, abs=1e-12)
        # the interval is the library's bootstrap of the bucket's items (same resamples, same seed)
        r = compute_rouge([preds[i] for i in idx], [refs[i] for i in idx], rouge_types=["rouge1"], bootstrap=200, seed=7)
        assert (b["scores"]["rouge1"]["low"], b["scores"]["rouge1"]["high"]) == (r["rouge1_ci_low"], r["rouge1_ci_high"])
        bl = compute_bleu([preds[i] for i in idx], [refs[i] for i in idx], bootstrap=200, seed=7)
        assert (b["scores"]["bleu"]["low"], b["scores"]["bleu"]["high"]) == (bl["bleu_ci_low"], bl["bleu_ci_high"])
    assert sum(b["n"] for b in lb["buckets"]) == len(preds)


def test_folds_against_an_independent_split(sample):
    ds, preds, rep = sample
    refs = [list(r) for r in ds["responses"]]
    f = rep.breakdowns["folds"]
    perm = np.random.default_rng(7).permutation(len(preds)).tolist()
    sizes = [len(preds) // 4 + (1 if i < len(preds) % 4 else 0) for i in range(4)]
    assert f["folds"] == 4 and f["sizes"] == sizes and f["seed"] == 7
    parts, start = [], 0
    for s in sizes:
        parts.append(perm[start:start + s])
        start += s
    for name in ("bleu", "rougeL"):
        values = [_scores(preds, refs, p)[name] for p in parts]
        m = f["metrics"][name]
        assert m["folds"] == pytest.approx(values, abs=1e-12)
        assert m["mean"] == pytest.approx(statistics.mean(values), abs=1e-12)
        assert m["std"] == pytest.approx(statistics.stdev(values), abs=1e-12)
        assert m["max_deviation"] == pytest.approx(max(abs(v - statistics.mean(values)) for v in values), abs=1e-12)
        ov = rep.overall().scores[name]
        half = (ov.high - ov.low) / 2 * math.sqrt(4 - 1)  # K = 4 folds
        assert m["flagged"] == [k + 1 for k, v in enumerate(values) if abs(v - ov.value) > half]


def test_max_refs_scores_with_the_first_references_and_counts(sample):
    ds, preds, _ = sample
    refs = [list(r) for r in ds["responses"]]
    with sample_files() as f:
        rep = evaluate_predictions(ds, f["predictions"], bootstrap=0, by=[], max_refs=4)
    lim = rep.breakdowns["reference_limit"]
    assert lim == {"max_refs": 4, "items": 66, "fewer": sum(len(r) < 4 for r in refs),
                   "truncated": sum(len(r) > 4 for r in refs), "dropped_references": sum(max(0, len(r) - 4) for r in refs)}
    assert lim["fewer"] > 0 and lim["truncated"] > 0
    first = [r[:4] for r in refs]
    assert rep.overall().scores["bleu"].value == pytest.approx(compute_bleu(preds, first)["bleu"], abs=1e-12)
    assert "|maxrefs:4|" in rep.signatures["bleu"] and "|maxrefs:4|" in rep.signatures["rouge"]
    assert rep.diagnostics.ref_count_distribution == {k: sum(len(r) == k for r in first) for k in (3, 4)}


@pytest.mark.parametrize("options, message", [
    ({"max_refs": 0}, "max_refs must be at least 1"),
    ({"buckets": (10, 10)}, "buckets must be strictly increasing"),
    ({"buckets": "30,20"}, "buckets must be strictly increasing, got 30 then 20"),
    ({"folds": 67}, "folds 67 is more than the 66 item(s)"),
    ({"folds": 1}, "folds must be at least 2"),
])
def test_bad_options_name_the_option(options, message):
    with sample_files() as f:
        ds = load_duck(f["data"])
        with pytest.raises(ValueError, match=re.escape(message)):
            evaluate_predictions(ds, f["predictions"], bootstrap=0, **options)


def test_a_template_system_all_truncated_and_all_duplicates():
    """Every item answered with the same unfinished sentence: nothing is left to score without the truncated
    predictions (n 0, no scores; the main scores stay), every prediction is a duplicate, and Distinct-1 is the few
    characters of that sentence over all its copies."""
    from zheval.adapters.report.tables import render_table

    with sample_files() as f:
        ds = load_duck(f["data"])
    preds = ["好的，我明白了"] * len(ds)
    rep = evaluate_predictions(ds, preds, bootstrap=20, folds=3)
    t = rep.breakdowns["truncation_excluded"]
    assert t["excluded"] == 66 and t["rate"] == 1.0
    assert all(g["n"] == 0 and g["scores"] == {} for g in t["groups"])
    assert rep.overall().scores["bleu"].value == pytest.approx(compute_bleu(preds, [list(r) for r in ds["responses"]])["bleu"], abs=1e-12)
    div = rep.breakdowns["diversity"][0]
    # 7 tokens 好 的 , 我 明 白 了 (all distinct) x 66 copies; 6 distinct bigrams x 66
    assert div["distinct_counts"] == {"distinct_1": [7, 7 * 66], "distinct_2": [6, 6 * 66]}
    assert div["repetition"] == {"duplicate_share": 1.0, "duplicates": 66, "most_frequent": "好的，我明白了",
                                 "most_frequent_count": 66}
    text = render_table(rep)
    assert "scores without the 66 truncated prediction(s) (100.0%)" in text and "好的，我明白了 (66)" in text  # as written


def test_folds_without_bootstrap_flag_nothing():
    with sample_files() as f:
        rep = evaluate_predictions(load_duck(f["data"]), f["predictions"], bootstrap=0, by=[], folds=2)
    m = rep.breakdowns["folds"]["metrics"]["bleu"]
    assert m["flagged"] is None and m["interval"] is None and len(m["folds"]) == 2
