"""One id rule at every door (issue 35, break-it round): an id with spaces around it (``" 9 "``, a tab, an
ideographic space) is refused naming ``file:line`` and saying "spaces around it" — by the records door (a CSV with
``--id-field``, a JSONL), by the 小黄鸭 data loader, by predictions joined to ``--data`` (not only "1 missing, 1
extra") and by ``agree``'s sheet (`zheval.io.fields.id_value`, the one reader of an id)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.cli import ROWS, run_cli as run, write_jsonl
from zheval.io import id_value

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("rid", [" 9 ", "9 ", "\t9", "9\u3000", "\n9"])
def test_id_value_refuses_spaces_around_an_id(rid):
    got, err = id_value(rid, "qid")
    assert got is None and "spaces around it" in err and "not the id '9'" in err and "'qid'" in err


def test_the_records_door_refuses_a_spaced_id(tmp_path):
    f = tmp_path / "sp.csv"
    f.write_text("qid,prediction,reference\n 9 ,猫坐,猫趴\n10,猫,好\n", encoding="utf-8")
    res = run("score", "-p", f, "--id-field", "qid", "--bootstrap", 0, "-q")
    assert res.exit_code == 2, res.output
    assert f"{f}:2: id ' 9 ' has spaces around it" in res.output and "'qid'" in res.output
    j = write_jsonl(tmp_path / "sp.jsonl", [{"id": "a", "prediction": "猫", "reference": "猫"},
                                              {"id": "b ", "prediction": "狗", "reference": "狗"}])
    res = run("score", "-p", j, "--bootstrap", 0, "-q")
    assert res.exit_code == 2 and f"{j}:2: id 'b ' has spaces around it" in res.output, res.output


def test_the_duck_loader_and_the_predictions_refuse_a_spaced_id(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [{**ROWS[0], "id": " q1"}] + ROWS[1:])
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": r["id"], "prediction": "好"} for r in ROWS])
    res = run("score", "-d", data, "-p", preds, "--bootstrap", 0, "-q")
    assert res.exit_code == 2 and f"{data}:1: id ' q1' has spaces around it" in res.output, res.output
    good = write_jsonl(tmp_path / "good.jsonl", ROWS)
    spaced = write_jsonl(tmp_path / "sp.jsonl", [{"id": " q1", "prediction": "好"}]
                         + [{"id": r["id"], "prediction": "好"} for r in ROWS[1:]])
    res = run("score", "-d", good, "-p", spaced, "--bootstrap", 0, "-q")
    assert res.exit_code == 2, res.output
    assert f"{spaced}:1: id ' q1' has spaces around it" in res.output and "1 missing" not in res.output


@pytest.mark.parametrize("suffix,sep", [(".csv", ","), (".tsv", "\t")])
def test_a_header_name_with_spaces_around_it_is_refused_at_every_door(tmp_path, suffix, sep):
    # one rule for column names (issue 35, break-it round): agree --scores trimmed " bert_f1" to "bert_f1" while the
    # records door kept " output" exact and then said the field was missing; now both refuse the name, naming it
    f = tmp_path / f"hs{suffix}"
    f.write_text(sep.join(["id", " output", "gold"]) + "\n" + sep.join(["a1", "猫坐", "猫趴"]) + "\n", encoding="utf-8")
    res = run("score", "-p", f, "--pred-field", "output", "--ref-field", "gold", "--bootstrap", 0, "-q")
    assert res.exit_code == 2, res.output
    assert f"{f}:1: the column name ' output' has spaces around it" in res.output and "missing field" not in res.output
