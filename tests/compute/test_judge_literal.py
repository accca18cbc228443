"""A judge's answer is read by its JSON literal (break-it F9): a key given twice is an ambiguous answer (kind
``duplicate_key``), and "an integer on the scale" means an integer literal -- ``4.0``, ``4e0`` and
``4.9999999999999999`` (a float reads it as 5.0) are ``not_integer``, never rounded; such an answer is asked again
(``answer_retries``) and then counted and listed like any bad answer. Expected texts are written by hand."""

from __future__ import annotations

import pytest

from helpers.chat_server import ChatServer

from zheval.compute.judge import compute_judge
from zheval.compute.judge_rubric import BadAnswer, default_rubric, parse_rating

REST = '"faithful": 4, "informative": 3, "fluent": 4, "reason": "好"'


@pytest.mark.parametrize("overall, kind, detail", [
    ('1, "overall": 5', "duplicate_key", "key 'overall' given more than once (which value is meant is unknown)"),
    ("4.0", "not_integer", "'overall' is 4.0, not an integer"),
    ("4e0", "not_integer", "'overall' is 4e0, not an integer"),
    ("4E0", "not_integer", "'overall' is 4E0, not an integer"),
    ("4.9999999999999999", "not_integer", "'overall' is 4.9999999999999999, not an integer"),
    ("5.0", "not_integer", "'overall' is 5.0, not an integer"),
    ("NaN", "not_integer", "'overall' is NaN, not an integer"),
])
def test_answers_are_read_by_their_literal(overall, kind, detail):
    answer = '{"overall": ' + overall + ", " + REST + "}"
    with pytest.raises(BadAnswer) as info:
        parse_rating(answer, default_rubric())
    assert (info.value.kind, info.value.detail, info.value.answer) == (kind, detail, answer)


def test_a_reason_given_twice_is_ambiguous_too():
    with pytest.raises(BadAnswer) as info:
        parse_rating('{"overall": 4, ' + REST + ', "reason": "差"}', default_rubric())
    assert info.value.kind == "duplicate_key" and "'reason'" in info.value.detail


def test_integer_literals_are_ratings():
    assert parse_rating('{"overall": 5, ' + REST + "}", default_rubric()) == \
        {"overall": 5, "faithful": 4, "informative": 3, "fluent": 4, "reason": "好"}
    with pytest.raises(BadAnswer) as info:  # -0 is the integer 0: an integer, off the scale
        parse_rating('{"overall": -0, ' + REST + "}", default_rubric())
    assert (info.value.kind, info.value.detail) == ("out_of_range", "'overall' is -0, outside 1-5")


def test_the_judge_asks_again_then_counts_and_lists(tmp_path):
    preds = ["甲 DUPKEY", "乙 WHOLEFLOAT-ONCE", "丙 NEARFIVE-ALWAYS", "丁"]
    with ChatServer() as server:
        out = compute_judge(preds, ["甲", "乙", "丙", "丁"], base_url=server.base_url, model="m", api_key="k",
                            answer_retries=2, backoff=0.0, cache_dir=str(tmp_path / "cache"))
    # DUPKEY and NEARFIVE: 3 attempts each, refused; WHOLEFLOAT: 4.0 refused once, then a valid answer; 丁: one
    assert out["judged"] == 2 and out["failed"] == 2
    assert out["usage"]["requests"] == 3 + 2 + 3 + 1 and out["usage"]["answer_retries"] == 2 + 1 + 2
    fails = {f["item"]: f for f in out["failures"]}
    assert sorted(fails) == [0, 2]
    assert (fails[0]["kind"], fails[0]["detail"], fails[0]["attempts"]) == \
        ("duplicate_key", "key 'overall' given more than once (which value is meant is unknown)", 3)
    assert '"overall": 1, "overall": 5' in fails[0]["answer"]
    assert (fails[2]["kind"], fails[2]["detail"], fails[2]["attempts"]) == \
        ("not_integer", "'overall' is 4.9999999999999999, not an integer", 3)
    assert out["item_scores"]["overall"][0] is None and out["item_scores"]["overall"][2] is None
    assert out["item_scores"]["overall"][1] is not None  # the second answer, an integer literal


# Issue 35: an answer holds the criteria and ``reason`` and nothing else, as a --judge-ratings row does; a key that is
# a criterion apart from case, spaces or width is ambiguous, any other key unknown -- never dropped unread.
@pytest.mark.parametrize("extra, kind, detail", [
    (', "Overall": 1, "extra": 9', "ambiguous_key",
     "key 'Overall' (beside 'overall') is an answer's key apart from case, spaces or width (which value is meant is "
     "unknown)"),
    (', " faithful ": 2', "ambiguous_key",
     "key ' faithful ' (beside 'faithful') is an answer's key apart from case, spaces or width (which value is meant "
     "is unknown)"),
    (', "ｆｌｕｅｎｔ": 2', "ambiguous_key",
     "key 'ｆｌｕｅｎｔ' (beside 'fluent') is an answer's key apart from case, spaces or width (which value is meant "
     "is unknown)"),
    (', "REASON": "差"', "ambiguous_key",
     "key 'REASON' (beside 'reason') is an answer's key apart from case, spaces or width (which value is meant is "
     "unknown)"),
    (', "extra": 9, "score": 3', "unknown_key",
     "unknown key 'extra', 'score'; an answer has 'overall', 'faithful', 'informative', 'fluent', 'reason'"),
])
def test_extra_keys_are_refused(extra, kind, detail):
    answer = '{"overall": 4, ' + REST + extra + "}"
    with pytest.raises(BadAnswer) as info:
        parse_rating(answer, default_rubric())
    assert (info.value.kind, info.value.detail, info.value.answer) == (kind, detail, answer)


def test_a_criterion_only_in_another_case_is_ambiguous_not_missing():
    with pytest.raises(BadAnswer) as info:
        parse_rating('{"OVERALL": 4, ' + REST + "}", default_rubric())
    assert (info.value.kind, info.value.detail) == \
        ("ambiguous_key", "key 'OVERALL' (for 'overall'?) is an answer's key apart from case, spaces or width "
                          "(which value is meant is unknown)")


def test_a_value_is_shown_as_written():
    with pytest.raises(BadAnswer) as info:
        parse_rating('{"overall": -0, ' + REST + "}", default_rubric())
    assert (info.value.kind, info.value.detail) == ("out_of_range", "'overall' is -0, outside 1-5")
    with pytest.raises(BadAnswer) as info:
        parse_rating('```json\n{"overall": 6, ' + REST + "}\n```", default_rubric())
    assert info.value.detail == "'overall' is 6, outside 1-5"


def test_the_judge_lists_extra_keys_and_minus_zero_by_item(tmp_path):
    pytest.importorskip("openai")
    preds = ["甲 CASEKEY-ALWAYS", "乙 EXTRAKEY-ALWAYS", "丙 MINUSZERO-ALWAYS", "丁"]
    with ChatServer() as server:
        out = compute_judge(preds, ["甲", "乙", "丙", "丁"], base_url=server.base_url, model="m", api_key="k",
                            answer_retries=1, backoff=0.0, cache_dir=str(tmp_path / "cache"))
    assert out["judged"] == 1 and out["failed"] == 3
    fails = {f["item"]: (f["kind"], f["detail"], f["attempts"]) for f in out["failures"]}
    assert fails == {
        0: ("ambiguous_key", "key 'Overall' (beside 'overall') is an answer's key apart from case, spaces or width "
                             "(which value is meant is unknown)", 2),
        1: ("unknown_key", "unknown key 'extra'; an answer has 'overall', 'faithful', 'informative', 'fluent', "
                           "'reason'", 2),
        2: ("out_of_range", "'overall' is -0, outside 1-5", 2)}
    assert out["item_scores"]["overall"][:3] == [None, None, None] and out["item_scores"]["overall"][3] is not None
