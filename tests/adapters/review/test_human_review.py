"""Human review sample (zheval.adapters.review.human_review): the key's per-item scores equal ROUGE-1 and ROUGE-L computed
by hand here (character counts, an LCS table) on pure-Han data; strata are the rank thirds of the chosen metric
(worked out here from the scores); k is split evenly over the strata; the sheet is blind (no score, no stratum, rating
cells empty) and reproducible for a seed; bad k and bad metric names are refused."""

from __future__ import annotations

import csv
import io
from collections import Counter

import pytest
from datasets import Dataset

from zheval.adapters.duck.load import duck_features
from zheval.adapters.review.human_review import RATING_COLUMNS, SHEET_COLUMNS, review_sample, sheet_csv

DOMAINS = ("生活咨询", "售后支持", "情感陪伴")
REFS = ["今天天气很好适合出门散步", "明天可能下雨记得带伞", "请在订单页面申请退货", "快递柜的取件码在短信里",
        "我在这里陪着你慢慢说", "这件衣服可以七天无理由退换"]
PREDS = ["今天天气好", "明天下雨带伞", "订单页面申请退货就可以", "取件码在短信", "我陪着你", "衣服七天退换",
         "天气很好", "记得带伞哦", "退货请联系客服", "快递柜取件", "慢慢说我听", "无理由退换可以"]


def _rows():
    rows = []
    for i, p in enumerate(PREDS):
        r = REFS[i % 6]
        rows.append({"id": f"r{i:02d}", "query": f"问题{i}", "responses": [r, REFS[(i + 1) % 6]],
                     "domain": DOMAINS[i % 3], "difficulty": None})
    return rows


@pytest.fixture(scope="module")
def data():
    rows = _rows()
    return Dataset.from_list(rows, features=duck_features()), rows


def hand_f(p, r, overlap):
    if not overlap:
        return 0.0
    prec, rec = overlap / len(p), overlap / len(r)
    return 2 * prec * rec / (prec + rec)


def hand_rouge1(pred, refs):
    return max(hand_f(pred, r, sum((Counter(pred) & Counter(r)).values())) for r in refs)


def hand_lcs(a, b):
    t = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a)):
        for j in range(len(b)):
            t[i + 1][j + 1] = t[i][j] + 1 if a[i] == b[j] else max(t[i][j + 1], t[i + 1][j])
    return t[-1][-1]


def hand_rougeL(pred, refs):
    return max(hand_f(pred, r, hand_lcs(pred, r)) for r in refs)


def test_key_scores_equal_hand_rouge_and_strata_are_rank_thirds(data):
    ds, rows = data
    res = review_sample(ds, PREDS, k=len(PREDS), seed=3, by_metric="rougeL")
    items = {it["id"]: it for it in res.key["items"]}
    assert sorted(items) == [r["id"] for r in rows]  # k = n: every item once
    by_id = {r["id"]: r for r in rows}
    for rid, it in items.items():
        pred, refs = PREDS[int(rid[1:])], by_id[rid]["responses"]
        assert it["scores"]["rouge1"] == pytest.approx(hand_rouge1(pred, refs), abs=1e-12)
        assert it["scores"]["rougeL"] == pytest.approx(hand_rougeL(pred, refs), abs=1e-12)
        assert it["domain"] == by_id[rid]["domain"]
    # strata by hand: rank the 12 items by hand ROUGE-L (ties in dataset order), 4 per third
    ranked = sorted(range(12), key=lambda i: (hand_rougeL(PREDS[i], rows[i]["responses"]), i))
    for pos, i in enumerate(ranked):
        assert items[rows[i]["id"]]["stratum"] == ("low", "middle", "high")[pos // 4]
    assert [(s["name"], s["items"], s["sampled"]) for s in res.key["strata"]] == [
        ("low", 4, 4), ("middle", 4, 4), ("high", 4, 4)]


@pytest.mark.parametrize("k, expected", [(3, [1, 1, 1]), (4, [1, 2, 1]), (5, [1, 2, 2]), (9, [3, 3, 3]),
                                         (11, [3, 4, 4])])
def test_k_is_split_evenly_over_the_strata(data, k, expected):
    ds, _ = data
    res = review_sample(ds, PREDS, k=k, seed=1, by_metric="rouge1")
    assert [s["sampled"] for s in res.key["strata"]] == expected
    got = Counter(it["stratum"] for it in res.key["items"])
    assert [got[s] for s in ("low", "middle", "high")] == expected
    assert len({it["id"] for it in res.key["items"]}) == k


def test_sheet_is_blind_and_reproducible(data):
    ds, rows = data
    a = review_sample(ds, PREDS, k=6, seed=11, by_metric="bleu")
    b = review_sample(ds, PREDS, k=6, seed=11, by_metric="bleu")
    c = review_sample(ds, PREDS, k=6, seed=12, by_metric="bleu")
    assert a.sheet == b.sheet and a.key == b.key
    assert [r["id"] for r in a.sheet] != [r["id"] for r in c.sheet]
    assert [r["id"] for r in a.sheet] == [it["id"] for it in a.key["items"]]
    text = sheet_csv(a.sheet)
    assert text.startswith("\ufeff")
    parsed = list(csv.reader(io.StringIO(text[1:], newline="")))
    assert tuple(parsed[0]) == SHEET_COLUMNS
    by_id = {r["id"]: r for r in rows}
    for row in parsed[1:]:
        rec = dict(zip(parsed[0], row))
        assert all(rec[c] == "" for c in RATING_COLUMNS)
        assert rec["references"].split("\n") == by_id[rec["id"]]["responses"]
        assert rec["query"] == by_id[rec["id"]]["query"] and rec["prediction"] == PREDS[int(rec["id"][1:])]
    assert "stratum" not in text and "low" not in text and "0." not in text  # no score, no stratum
    assert a.key["by_metric"] == "bleu" and a.key["k"] == 6 and a.key["seed"] == 11


def test_bad_k_and_metric(data):
    ds, _ = data
    with pytest.raises(ValueError, match=r"k=13 is larger than the data: 12 items"):
        review_sample(ds, PREDS, k=13)
    with pytest.raises(ValueError, match="k must be a positive int"):
        review_sample(ds, PREDS, k=0)
    with pytest.raises(ValueError, match="unknown by_metric 'rougeLsum'"):
        review_sample(ds, PREDS, k=3, by_metric="rougeLsum")
    with pytest.raises(ValueError, match="rating_columns"):
        review_sample(ds, PREDS, k=3, rating_columns=("id",))


def test_a_keys_scores_follow_the_one_number_rule(tmp_path):
    """A hand-edited key: a score written ``1e-400`` underflows to 0.0 in ``json.loads`` and was read as 0.0 without a
    word; a string, ``NaN`` and an integer of 5000 digits are refused too, each naming the item; plain numbers load
    as floats."""
    import json

    from zheval.adapters.review.human_review import KEY_KIND, ReviewFileError, read_key

    def key_with(score_text):
        return ('{"kind": "%s", "metrics": [{"name": "rouge1"}], "rating_columns": ["relevance"], '
                '"items": [{"id": "a", "scores": {"rouge1": 0.5}}, {"id": "b", "scores": {"rouge1": %s}}]}'
                % (KEY_KIND, score_text))

    f = tmp_path / "key.json"
    f.write_text(key_with("2.5e-1"), encoding="utf-8")
    key = read_key(f)
    assert [it["scores"]["rouge1"] for it in key["items"]] == [0.5, 0.25]
    assert type(key["items"][1]["scores"]["rouge1"]) is float
    assert json.loads(json.dumps(key)) == key
    for text, why in [("1e-400", "too small"), ('"0.3"', "a str"), ("NaN", "nan and infinity are not accepted")]:
        f.write_text(key_with(text), encoding="utf-8")
        with pytest.raises(ReviewFileError) as exc:
            read_key(f)
        assert f"{f}: items[1] (id 'b') has no numeric score 'rouge1' (" in str(exc.value.problems), exc.value.problems
        assert why in str(exc.value.problems), exc.value.problems
    f.write_text(key_with("1" * 5000), encoding="utf-8")
    with pytest.raises(ReviewFileError, match="is not a review key"):
        read_key(f)
