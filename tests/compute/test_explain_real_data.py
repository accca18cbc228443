"""Every number of an explanation equals the metric's own per-item number, exactly, on every item of the shared real
data (CSL lead vs title, CrossWOZ single turn, CrossWOZ same-query groups with 2-4 ragged references), for every
preset and tokenizer: ROUGE P/R/F against ``compute_rouge(use_aggregator=False, return_precision_recall=True)``
(per item and, for several references, per reference), the BLEU statistics row against ``bleu_items`` and the
sentence BLEU against ``compute_bleu(level="sentence")["scores"]``; and the breakdowns add up to the hits the
scores are made of (matched n-grams, LCS alignment, union-LCS hits, clipped BLEU n-grams)."""

from __future__ import annotations

import warnings

import pytest

import zheval
from helpers import crosswoz_items
from zheval.compute.bleu import BLEU_OPTIONS, BleuOptions, bleu_config, bleu_items
from zheval.compute.explain import explain_items
from zheval.compute.rouge import ROUGE_OPTIONS
from zheval.definitions.rouge import parse_rouge_type, score_from_stats
from zheval.presets import get_preset

ALL_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU4"]
TERMS = ["快递柜", "经济型", "酒店", "推荐", "地铁站", "免费", "北京"]


@pytest.fixture(scope="module")
def corpus(csl_rows, crosswoz_single, crosswoz_groups):
    preds = [r["document"][: len(r["summary"])] for r in csl_rows] + [r["query"] for r in crosswoz_single]
    refs = [[r["summary"]] for r in csl_rows] + [r["responses"] for r in crosswoz_single]
    gp, gr = crosswoz_items(crosswoz_groups)
    assert len(preds) == 3000 and len(gp) > 300 and max(map(len, gr)) >= 3
    return preds + gp, refs + gr


def _segmented(texts):
    jieba = zheval.get_tokenizer("jieba")
    return [" ".join(jieba.tokenize(t)) for t in texts]


def check_explanations(preds, refs, metrics=("bleu", "rouge"), per_reference=False, **opts):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        items = explain_items(preds, refs, metrics=list(metrics), **opts)
        assert len(items) == len(preds)
        if "rouge" in metrics:
            ropts = {k: v for k, v in opts.items() if k in ROUGE_OPTIONS}
            want = zheval.compute_rouge(preds, refs, use_aggregator=False, return_precision_recall=True, **ropts)
            types = [k for k in items[0]["rouge"]]
            for t in types:
                got = [e["rouge"][t]["score"] for e in items]
                assert [g["fmeasure"] for g in got] == want[t], t
                assert [g["precision"] for g in got] == want[f"{t}_precision"], t
                assert [g["recall"] for g in got] == want[f"{t}_recall"], t
            _check_rouge_breakdowns(items, opts)
            if per_reference:  # each reference alone, as the metric scores a one-reference item
                flat_p = [p for p, rs in zip(preds, refs) for _ in rs]
                flat_r = [r for rs in refs for r in rs]
                one = zheval.compute_rouge(flat_p, flat_r, use_aggregator=False, return_precision_recall=True,
                                           **ropts)
                for t in types:
                    got = [x for e in items for x in e["rouge"][t]["per_reference"]]
                    assert [x["fmeasure"] for x in got] == one[t]
                    assert [x["precision"] for x in got] == one[f"{t}_precision"]
                    assert [x["recall"] for x in got] == one[f"{t}_recall"]
        if "bleu" in metrics:
            bopts = {k: v for k, v in opts.items() if k in BLEU_OPTIONS}
            bopts.setdefault("level", "sentence")
            stats = bleu_items(preds, refs, bleu_config(BleuOptions(**bopts))).stats.tolist()
            assert [e["bleu"]["statistics"] for e in items] == stats
            assert [e["bleu"]["sentence_bleu"] for e in items] == zheval.compute_bleu(preds, refs, **bopts)["scores"]
            _check_bleu_breakdowns(items)
    _check_spans(items)
    return items


def _check_rouge_breakdowns(items, opts):
    beta = float(opts.get("beta", 1.0))
    w = float(opts.get("rouge_w_weight", 1.2))
    for e in items:
        for t, te in e["rouge"].items():
            kind = parse_rouge_type(t).kind
            sel = te["selected"]
            if sel is not None:
                s = te["per_reference"][sel]
                assert (s["precision"], s["recall"], s["fmeasure"]) == tuple(te["score"].values())
            for x in te["per_reference"]:
                if kind == "N":
                    assert sum(g["match"] for g in x["matched"]) == x["hits"]
                    if x["counting"] == "multiset":
                        assert x["prediction_total"] == sum(g["prediction_count"] for g in x["matched"]) + sum(
                            g["count"] for g in x["unmatched_prediction"])
                elif kind == "L":
                    assert len(x["alignment"]) == x["hits"]
                    units = te.get("units")
                    pt = units["prediction"] if units else [tk["token"] for tk in e["prediction"]["tokens"]]
                    rt = units["references"][x["reference"]] if units else \
                        [tk["token"] for tk in e["references"][x["reference"]]["tokens"]]
                    assert all(pt[i] == rt[j] for i, j in x["alignment"])
                    assert [i for i, _ in x["alignment"]] == sorted({i for i, _ in x["alignment"]})
                elif kind == "Lsum":
                    assert sum(len(s["hits"]) for s in x["sentences"]) == x["hits"]
                if te["formula"] == "zheval":  # the definitions' formula on the listed statistics
                    want = score_from_stats(x["hits"], x["reference_total"], x["prediction_total"], beta,
                                            1.0 / w if kind == "W" else None)
                    assert (x["precision"], x["recall"], x["fmeasure"]) == tuple(want)


def _check_bleu_breakdowns(items):
    for e in items:
        for o in e["bleu"]["orders"]:
            assert sum(g["clipped"] for g in o["ngrams"]) == o["matches"]
            assert sum(g["count"] for g in o["ngrams"]) == o["total"]


def _check_spans(items):
    for e in items:
        for entry in [e["prediction"], *e["references"]]:
            text = entry["text"]
            if entry["spans"] == "exact":
                tok = zheval.get_tokenizer("char")  # only used for the normaliser of char-like tokenizers below
                for t in entry["tokens"]:
                    piece = text[t["start"]:t["end"]]
                    assert piece and (piece == t["token"] or tok.normalize(piece) == t["token"]
                                      or piece.lower() == t["token"]), (text, t)


def test_char_every_rouge_type(corpus):
    items = check_explanations(*corpus, rouge_types=ALL_TYPES)
    assert all(e["prediction"]["spans"] == "exact" for e in items)


@pytest.mark.parametrize("tokenizer", ["jieba", "terms", "none"])
def test_tokenizers(corpus, tokenizer):
    preds, refs = corpus
    if tokenizer == "none":
        preds = _segmented(preds)
        refs = [_segmented(rs) for rs in refs]
        check_explanations(preds, refs, tokenizer="none")
    elif tokenizer == "terms":
        check_explanations(preds, refs, terms=TERMS)
    else:
        check_explanations(preds, refs, tokenizer=tokenizer)


@pytest.mark.parametrize("preset", ["rouge155", "llamafactory", "sacrebleu-zh"])
def test_presets(corpus, preset):
    metrics = get_preset(preset).metrics
    items = check_explanations(*corpus, metrics=metrics, preset=preset)
    if preset == "rouge155":
        assert all(e["rouge"]["rouge1"]["rule"] == "pool" for e in items)


@pytest.mark.parametrize("mode", ["max", "mean", "pool", "best_recall"])
def test_multi_ref_rules_on_groups(crosswoz_groups, mode):
    # rougeW is checked on every item above; the per-reference numbers do not depend on the rule (checked once)
    preds, refs = crosswoz_items(crosswoz_groups)
    check_explanations(preds, refs, metrics=["rouge"], per_reference=mode == "max", multi_ref=mode,
                       rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeSU4"])
    if mode in ("max", "best_recall"):  # rouge155's pool is its preset default (test_presets)
        check_explanations(preds, refs, metrics=["rouge"], preset="rouge155", multi_ref=mode, per_reference=True)
    if mode != "max":  # llamafactory's max is its preset default (test_presets)
        check_explanations(preds, refs, metrics=["rouge"], preset="llamafactory", multi_ref=mode,
                           per_reference=mode == "mean")
