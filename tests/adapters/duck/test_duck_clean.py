"""clean_duck: normalisation, length filter, near-duplicate removal, min_refs — every drop counted by reason/domain;
the normalisation only decides, every kept text is written as given (break-it pass 18) unless write_normalized."""

from __future__ import annotations

import pytest
from datasets import Dataset

from helpers import shared_path
from zheval.adapters.duck import bigram_jaccard, clean_duck, duck_features, load_duck


def _ds(rows):
    return Dataset.from_list(rows, features=duck_features())


ROWS = [
    {  # one too short, one near duplicate of the first, one too long
        "id": "a", "query": "快递柜几点关门？", "domain": "售后支持", "difficulty": "易",
        "responses": ["快递柜24小时开放，随时可以取件。", "好的。", "快递柜24小时开放，随时可以取件！", "长" * 151, "全天都可以取件，不关门。"],
    },
    {  # left with one reference -> query dropped, its remaining reference counted as query_dropped
        "id": "b", "query": "晚安。", "domain": "情感陪伴", "difficulty": None,
        "responses": ["晚安，做个好梦。", "晚安！"],
    },
    {  # untouched; its full-width text is normalised for the decisions only
        "id": "c", "query": "ＡＰＰ怎么用？", "domain": None, "difficulty": "中",
        "responses": ["打开ＡＰＰ首页即可。", "在首页点击“取件”。"],
    },
]


def test_bigram_jaccard_by_hand():
    # {不客, 客气, 气！} vs {不客, 客气, 气。}: 2 shared of 4 distinct
    assert bigram_jaccard("不客气！", "不客气。") == 2 / 4
    assert bigram_jaccard("abc", "abc") == 1.0
    assert bigram_jaccard("a", "a") == 1.0 and bigram_jaccard("a", "b") == 0.0
    # 17 characters each, differing in the last: 16 bigrams each, 15 shared, union 17
    assert bigram_jaccard("快递柜24小时开放,随时可以取件。", "快递柜24小时开放,随时可以取件!") == 15 / 17


def test_clean_counts_every_drop_by_reason_and_domain():
    out, rep = clean_duck(_ds(ROWS))
    assert out["id"] == ["a", "c"]
    # every kept text as given (was normalised: ，→, ＡＰＰ→app, ？→?, which moves sacrebleu-zh and --normalize none)
    assert out[0]["query"] == "快递柜几点关门？"
    assert out[0]["responses"] == ["快递柜24小时开放，随时可以取件。", "全天都可以取件，不关门。"]
    assert out[1]["query"] == "ＡＰＰ怎么用？" and out[1]["responses"] == ROWS[2]["responses"]
    assert rep.params["write_normalized"] is False
    assert rep.dropped_refs["too_short"] == {"售后支持": 1, "情感陪伴": 1}
    assert rep.dropped_refs["too_long"] == {"售后支持": 1}
    assert rep.dropped_refs["near_duplicate"] == {"售后支持": 1}
    assert rep.dropped_refs["query_dropped"] == {"情感陪伴": 1}
    assert rep.dropped_queries["too_few_refs"] == {"情感陪伴": 1}
    assert rep.dropped_query_ids == ["b"]
    assert (rep.queries_in, rep.queries_out, rep.refs_in, rep.refs_out) == (3, 2, 9, 4)
    assert rep.refs_in == rep.refs_out + rep.total("refs")
    assert rep.queries_in == rep.queries_out + rep.total("queries")
    assert out.features == duck_features()
    text = rep.render()
    assert "queries: 3 → 2 (dropped 1); references: 9 → 4 (dropped 5)" in text
    assert "near_duplicate" in text and "售后支持" in text


def test_parameters_change_what_is_dropped():
    out, rep = clean_duck(_ds(ROWS), min_chars=1, max_chars=200, dedup_threshold=None, min_refs=1)
    assert out["id"] == ["a", "b", "c"]
    assert rep.total("refs") == 0 and rep.total("queries") == 0
    _, rep = clean_duck(_ds(ROWS), dedup_threshold=0.9, min_chars=2)
    # 15/17 = 0.88 < 0.9: the near duplicate is kept; "晚安!" (3 chars) is kept with min_chars=2
    assert rep.dropped_refs["near_duplicate"] == {}
    assert rep.dropped_queries["too_few_refs"] == {}


def test_no_normalisation_keeps_texts():
    out, rep = clean_duck(_ds(ROWS), normalize=False)
    assert out[1]["query"] == "ＡＰＰ怎么用？"
    assert rep.params["normalize"] == "none"


def test_empty_after_normalisation_is_its_own_reason():
    rows = [{"id": "z", "query": "q", "domain": None, "difficulty": None,
             "responses": ["\u200b\u200b", "第一条回复内容。", "第二条回复内容！"]}]
    out, rep = clean_duck(_ds(rows))
    assert rep.dropped_refs["empty"] == {"null": 1}
    assert out[0]["responses"] == ["第一条回复内容。", "第二条回复内容！"]  # as given


def test_write_normalized_writes_the_normalised_texts_and_says_so():
    out, rep = clean_duck(_ds(ROWS), write_normalized=True)
    assert out["id"] == ["a", "c"]  # the same drops as without it
    assert out[0]["responses"] == ["快递柜24小时开放,随时可以取件。", "全天都可以取件,不关门。"]  # ，→,
    assert out[1]["query"] == "app怎么用?" and out[1]["responses"][0] == "打开app首页即可。"  # nfkc + lower
    assert rep.params["write_normalized"] is True and rep.to_dict()["params"]["write_normalized"] is True
    assert ("texts: REWRITTEN, the kept query and references are written normalised (nfkc+zw+punct+space+lower); "
            "scoring this file on raw text (--preset sacrebleu-zh, --normalize none, bertscore, judge) gives other "
            "numbers than scoring these items in the original file") in rep.render()
    _, rep = clean_duck(_ds(ROWS))
    assert ("texts: every kept query and reference written exactly as given; the normalisation "
            "(nfkc+zw+punct+space+lower) only decided what is empty, the lengths and the duplicates") in rep.render()


@pytest.mark.parametrize("kw, message", [
    ({"write_normalized": 1}, "write_normalized must be True or False, got int 1"),
    ({"write_normalized": "yes"}, "write_normalized must be True or False, got str 'yes'"),
    ({"write_normalized": True, "normalize": False}, "write_normalized=True writes the normalised texts, but "
                                                     "normalize gives no normalisation (False): give one of them"),
])
def test_write_normalized_refuses_loose_values_and_no_normalisation(kw, message):
    with pytest.raises(ValueError) as err:
        clean_duck(_ds(ROWS), **kw)
    assert str(err.value) == message


def test_near_duplicates_keep_the_first_as_written():
    # the two differ only in what the normaliser folds (，！ vs ,!): equal after normalisation
    first, second = "好的，我马上帮您查一下订单！", "好的,我马上帮您查一下订单!"
    for order in ((first, second), (second, first)):
        rows = [{"id": "n", "query": "Ｑ？", "domain": None, "difficulty": None,
                 "responses": [*order, "请您稍等片刻，正在处理。"]}]
        out, rep = clean_duck(_ds(rows))
        assert rep.dropped_refs["near_duplicate"] == {"null": 1}
        assert out[0]["responses"] == [order[0], "请您稍等片刻，正在处理。"] and out[0]["query"] == "Ｑ？"


def test_duplicate_items_keep_the_first_as_written():
    out, _ = clean_duck(_ds(DUPLICATES))
    a = out.to_list()[0]
    assert a == DUPLICATES[0]  # "a" as written; "a3" (几点关门?, reordered) was its duplicate after normalisation


@pytest.mark.parametrize("kw", [{"min_chars": -1}, {"max_chars": 2, "min_chars": 5}, {"dedup_threshold": 0}, {"dedup_threshold": 1.5}, {"min_refs": 0}])
def test_bad_parameters(kw):
    with pytest.raises(ValueError):
        clean_duck(_ds(ROWS), **kw)


def test_real_crosswoz_groups_num_proc_1_and_2_identical():
    ds = load_duck(shared_path("crosswoz_same_query_groups.jsonl"))
    out1, rep1 = clean_duck(ds)
    out2, rep2 = clean_duck(ds, num_proc=2)
    assert out1.to_list() == out2.to_list()
    assert rep1.to_dict() == rep2.to_dict()
    # short thanks/bye replies ("不客气！", 4 characters) dominate the drops in this data
    assert rep1.dropped_refs["too_short"]["null"] > 0
    assert rep1.refs_in == sum(len(r) for r in ds["responses"]) == rep1.refs_out + rep1.total("refs")
    assert all(len(r) >= 2 for r in out1["responses"])
    assert all(5 <= len(x) for r in out1["responses"] for x in r)


DUPLICATES = [
    {"id": "a", "query": "几点关门？", "domain": "售后支持", "difficulty": None,
     "responses": ["晚上九点关门。", "九点钟就关门了。"]},
    {"id": "a2", "query": "几点关门？", "domain": "售后支持", "difficulty": None,  # a, under a new id
     "responses": ["晚上九点关门。", "九点钟就关门了。"]},
    {"id": "b", "query": "几点开门？", "domain": "售后支持", "difficulty": None,
     "responses": ["早上八点开门。", "八点钟开门。"]},
    {"id": "a3", "query": "几点关门?", "domain": None, "difficulty": "易",  # a after normalisation, references reordered
     "responses": ["九点钟就关门了。", "晚上九点关门。"]},
    {"id": "c", "query": "几点关门？", "domain": "售后支持", "difficulty": None,  # same query, other references: kept
     "responses": ["晚上九点关门。", "十点钟关门。"]},
]


def test_exact_duplicate_items_under_new_ids_are_dropped_and_counted():
    # issue 35: an item repeated under a new id was kept and counted nowhere (it weighs twice in every mean)
    out, rep = clean_duck(_ds(DUPLICATES))
    assert out["id"] == ["a", "b", "c"]
    assert rep.dropped_queries["duplicate_item"] == {"售后支持": 1, "null": 1}
    assert rep.dropped_queries["too_few_refs"] == {}
    assert rep.dropped_refs["query_dropped"] == {"售后支持": 2, "null": 2}
    assert rep.dropped_query_ids == ["a2", "a3"] and rep.duplicate_of == {"a2": "a", "a3": "a"}
    assert (rep.queries_in, rep.queries_out, rep.refs_in, rep.refs_out) == (5, 3, 10, 6)
    assert rep.to_dict()["duplicate_of"] == {"a2": "a", "a3": "a"}
    text = rep.render()
    assert "queries: 5 → 3 (dropped 2); references: 10 → 6 (dropped 4)" in text
    assert "duplicate_item" in text
    assert "duplicate items dropped (2; the same query and references as an earlier id): 'a2' = 'a', 'a3' = 'a'" in text


def test_a_duplicate_left_with_too_few_references_is_too_few_refs():
    rows = [dict(DUPLICATES[0]), {**DUPLICATES[1], "responses": ["晚上九点关门。", "好的。"]}]
    out, rep = clean_duck(_ds(rows))  # a2 keeps one reference: too_few_refs, never a duplicate of a's two
    assert out["id"] == ["a"] and rep.dropped_queries["too_few_refs"] == {"售后支持": 1}
    assert rep.dropped_queries["duplicate_item"] == {} and rep.duplicate_of == {}
