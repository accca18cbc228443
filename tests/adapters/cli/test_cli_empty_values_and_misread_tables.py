"""Empty values and tables given to the wrong door: ``clean`` drops empty references as ``empty`` instead of refusing the file; an empty
group value is refused like a spaced one in every format; a blank last line of a text predictions file scored as an
empty prediction is said in the notes; a Parquet file with a column name twice and ``--data`` given Parquet/CSV each
get one plain message."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_cli, write_jsonl


def _duck_row(rid, responses, **kw):
    return {"id": rid, "query": "今天天气怎么样", "responses": responses, "domain": "生活咨询", "difficulty": "易", **kw}


def test_clean_drops_empty_and_whitespace_references_as_empty(tmp_path):
    src = write_jsonl(tmp_path / "c.jsonl", [
        _duck_row("a", ["今天是晴天哦", "天气晴朗无云", "今天阳光很好"]),
        _duck_row("d", ["晴天很好呀呀", "……", "   ", ""]),
        _duck_row("z", ["晴天很好呀呀", "明天会下雨吗", "\u200b"], query="明天天气"),
    ])
    out, rep = tmp_path / "out.jsonl", tmp_path / "rep.json"
    r = run_cli("clean", src, "-o", out, "--report-json", rep, "-q")
    assert r.exit_code == 0, r.output
    report = json.loads(rep.read_text(encoding="utf-8"))
    # "   " and "" on line 2, "\u200b" on line 3: three empty references ("……" is two characters: too short)
    assert report["dropped_refs"]["empty"] == {"生活咨询": 3}
    assert report["dropped_refs"]["too_short"] == {"生活咨询": 1}
    kept = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert all(s.strip() for k in kept for s in k["responses"])


def test_score_still_refuses_a_whitespace_only_reference(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [_duck_row("d", ["晴天很好", "   "])])
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": "d", "prediction": "晴天"}])
    r = run_cli("score", "--data", data, "--predictions", preds, "-q")
    assert r.exit_code != 0
    assert f"{data}:1: id 'd': responses[1] is empty or whitespace only" in r.output


EMPTY_GROUP = ("the group value '' of 'g' is empty: it would be a group shown as nothing; write null (an empty CSV/TSV "
               "cell) for no group, or a name")


def _group_file(tmp_path, kind):
    rows = [{"id": "1", "prediction": "晴天", "reference": "晴天好", "g": ""},
            {"id": "2", "prediction": "雨天", "reference": "雨天", "g": "x"}]
    if kind == "jsonl":
        return write_jsonl(tmp_path / "g.jsonl", rows)
    import pandas as pd

    f = tmp_path / "g.parquet"
    pd.DataFrame(rows).to_parquet(f)
    return f


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
@pytest.mark.parametrize("extra", [[], ["--stream"]])
def test_an_empty_group_value_is_refused_like_a_spaced_one(tmp_path, kind, extra):
    f = _group_file(tmp_path, kind)
    r = run_cli("score", "-p", f, "--group-field", "g", "--bootstrap", "0", *extra)
    assert r.exit_code == 2, r.output
    assert f"{f}:1: id '1': {EMPTY_GROUP}" in r.stderr


def test_an_empty_csv_cell_stays_the_null_group(tmp_path):
    f = tmp_path / "g.csv"
    f.write_text("id,prediction,reference,g\n1,晴天,晴天好,\n2,雨天,雨天,x\n", encoding="utf-8")
    r = run_cli("score", "-p", f, "--group-field", "g", "--bootstrap", "0")
    assert r.exit_code == 0, r.output
    assert "g=null" in r.stdout and "g=x" in r.stdout


def test_an_empty_duck_domain_under_domains_any_is_refused_for_by(tmp_path):
    row = {"query": "怎么退货", "responses": ["请在订单页申请退货"], "difficulty": "易"}
    data = write_jsonl(tmp_path / "d.jsonl", [{**row, "id": "q1", "domain": ""}, {**row, "id": "q2", "domain": "x"}])
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": "q1", "prediction": "退货"}, {"id": "q2", "prediction": "退货"}])
    r = run_cli("score", "-d", data, "-p", preds, "--domains", "any", "--by", "domain", "--min-refs", "1",
                "--bootstrap", "0")
    assert r.exit_code == 2
    assert f"{data}:1: id 'q1': the group value '' of 'domain' is empty: it would be a group shown as nothing" in r.stderr


def test_a_blank_last_line_scored_as_a_prediction_is_noted(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", [_duck_row(i, ["今天晴天", "今天是晴天"]) for i in ("q1", "q2", "q5")])
    preds = tmp_path / "p.txt"
    preds.write_text("今天晴天\n今天是晴天\n\n", encoding="utf-8")  # 3 lines for 3 items: the last one empty
    note = f"the last line of {preds} is empty: scored as an empty prediction for q5 (a line break too many at the end?)"
    r = run_cli("score", "-d", data, "-p", preds, "--bootstrap", "0", "-q")
    assert r.exit_code == 0, r.output
    assert note in r.stdout
    r = run_cli("score", "-d", data, "-p", preds, "--bootstrap", "0", "-q", "-f", "json")
    assert note in json.loads(r.stdout)["notes"]
    preds.write_text("今天晴天\n\n今天是晴天\n", encoding="utf-8")  # an empty line inside: no such note
    r = run_cli("score", "-d", data, "-p", preds, "--bootstrap", "0", "-q")
    assert r.exit_code == 0 and "line break too many" not in r.stdout


@pytest.mark.parametrize("extra", [[], ["--stream"]])
def test_a_parquet_column_named_twice_is_one_plain_problem(tmp_path, extra):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    f = tmp_path / "dup.parquet"
    cols = [pa.array(["1", "2"]), pa.array(["晴天", "雨天"]), pa.array(["晴天好", "雨天"]), pa.array(["x", "y"])]
    pq.write_table(pa.Table.from_arrays(cols, names=["id", "prediction", "reference", "reference"]), f)
    r = run_cli("score", "-p", f, "--bootstrap", "0", *extra)
    assert r.exit_code == 2, r.output
    assert f"{f}: the Parquet file names column(s) ['reference'] more than once" in r.stderr
    assert "Arrow" not in r.stderr and "__fragment_index" not in r.stderr


HEADER = "['id', 'query', 'responses', 'domain', 'difficulty']"
TABLE_HINT = ("not JSON Lines: --data (clean's SOURCE, load_duck) takes 小黄鸭 JSONL, one JSON object per line with the "
              "keys ['id', 'query', 'responses', 'domain', 'difficulty']")


@pytest.mark.parametrize("kind, name, why", [
    ("parquet", "a.parquet", "Parquet file (it starts with the Parquet magic bytes PAR1)"),
    ("parquet", "a.data", "Parquet file (it starts with the Parquet magic bytes PAR1)"),
    # the header's fields in its own order (words13 F13: they were listed sorted)
    ("csv", "bom.csv", f"CSV file (its first line is a CSV header naming {HEADER})"),
    ("csv", "bom.data", f"CSV file (its first line is a CSV header naming {HEADER})"),
])
def test_data_given_a_table_is_one_message(tmp_path, kind, name, why):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame([_duck_row(f"q{i}", ["今天晴天", "今天是晴天"]) for i in range(3)])
    f = tmp_path / name
    if kind == "parquet":
        df.to_parquet(f)
    else:
        df.to_csv(f, index=False, encoding="utf-8-sig")
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": f"q{i}", "prediction": "晴天"} for i in range(3)])
    r = run_cli("score", "-d", f, "-p", preds, "--bootstrap", "0")
    assert r.exit_code == 2, r.output
    assert f"{f}: looks like a {why}, {TABLE_HINT}" in r.stderr
    assert "1 problem(s)" in r.stderr and f"{f}:2:" not in r.stderr


def test_a_jsonl_named_csv_keeps_its_line_problems(tmp_path):
    f = write_jsonl(tmp_path / "d.csv", [_duck_row("a", ["今天晴天", "今天是晴天"])])
    f.write_text(f.read_text(encoding="utf-8") + "{not json\n", encoding="utf-8")
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": "a", "prediction": "晴天"}])
    r = run_cli("score", "-d", f, "-p", preds, "--bootstrap", "0")
    assert r.exit_code == 2 and f"{f}:2: malformed JSON" in r.stderr and "looks like" not in r.stderr
