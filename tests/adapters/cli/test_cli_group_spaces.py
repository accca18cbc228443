"""A group value with spaces around it (``"x "`` beside ``"x"``) is refused at every door that reads groups, as an
id with spaces around it is (break-it-6 item 2): before, ``"x "`` and ``"x"`` were two groups both shown ``grp=x``
(a records file's --group-field, whole and --stream; a 小黄鸭 domain under --domains any; score_batches' groups; the
engine doors' group column; an in-memory 小黄鸭 dataset's --by columns)."""

from __future__ import annotations

import re

import pytest

from helpers.cli import run_cli, write_jsonl
from zheval.adapters.engine_checks import group_value_problem
from zheval.compute.batches import score_batches
from zheval.io.fields import group_spaces_problem

SPACED = ("the group value 'x ' of 'grp' has spaces around it: group values are matched exactly, so it is not the "
          "group 'x' (two groups shown alike); remove the spaces")


@pytest.mark.parametrize("extra", [[], ["--stream"]])
def test_score_refuses_a_group_field_value_with_spaces_naming_its_line(tmp_path, extra):
    f = tmp_path / "g2.csv"
    f.write_text("id,predict,label,grp\na1,今天,今天天气,x \na2,明天,明天天气,x\n", encoding="utf-8")
    res = run_cli("score", "-p", f, "--group-field", "grp", "--bootstrap", "0", *extra)
    assert res.exit_code == 2 and f"{f}:2: id 'a1': {SPACED}" in res.stderr


def test_a_duck_domain_with_a_trailing_space_is_refused_naming_its_line(tmp_path):
    row = {"id": "q1", "query": "怎么退货？", "responses": ["您好，请在订单页申请退货。"], "difficulty": "易"}
    data = write_jsonl(tmp_path / "d.jsonl", [{**row, "domain": "小黄鸭 "}, {**row, "id": "q2", "domain": "小黄鸭"}])
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": "q1", "prediction": "退货"}, {"id": "q2", "prediction": "退货"}])
    res = run_cli("score", "-d", data, "-p", preds, "--domains", "any", "--by", "domain", "--min-refs", "1",
                  "--bootstrap", "0")
    assert res.exit_code == 2
    assert (f"{data}:1: id 'q1': the group value '小黄鸭 ' of 'domain' has spaces around it: group values are "
            "matched exactly, so it is not the group '小黄鸭'") in res.stderr


def test_score_batches_refuses_a_spaced_group_naming_its_item():
    p, r = ["今天天气很好"] * 2, [["今天天气不错"]] * 2
    with pytest.raises(ValueError, match=re.escape("score_batches: groups[3]: the group value ' x' of 'groups' has "
                                                   "spaces around it")):
        score_batches([(p, r, ["x", "x"]), (p, r, ["x", " x"])], ["bleu"], progress=False)


def test_engine_group_column_and_only_spaces():
    assert group_value_problem(["x", None, "x\t"], "grp") == (2, "ValueError", group_spaces_problem("x\t", "grp"))
    assert group_value_problem(["x", 1, None], "grp") is None
    assert "is only spaces" in group_spaces_problem(" ", "grp")
    assert group_spaces_problem("x", "grp") is None and group_spaces_problem(3, "grp") is None


def test_an_in_memory_duck_dataset_refuses_a_spaced_by_value_naming_its_item():
    datasets = pytest.importorskip("datasets")
    from zheval.adapters.duck.evaluate import evaluate_predictions

    ds = datasets.Dataset.from_list([{"id": f"q{i}", "query": "问", "responses": ["今天天气不错"], "domain": d,
                                      "difficulty": None} for i, d in enumerate(["售后", "售后 "])])
    with pytest.raises(ValueError, match=re.escape("item 1: the group value '售后 ' of 'domain' has spaces")):
        evaluate_predictions(ds, ["今天天气很好", "今天"], metrics=["bleu"], by=("domain",), bootstrap=0)
