"""``zheval explain``, ``compare`` and ``sample`` without ``--data``: a predictions file that carries its references
(the records door of ``zheval score``, read by the same reader) gives what the 小黄鸭 door gives on the same items,
and bad rows are named file:line. Real CrossWOZ groups: references = replies 2.., system A = reply 1, system B = the
query itself."""

from __future__ import annotations

import csv
import json

import pytest

from helpers.cli import run_cli as run
from helpers.cli import twin, write_jsonl


@pytest.fixture()
def doors(tmp_path, crosswoz_groups):
    """The same items both ways: ``data`` (小黄鸭) with ``a``/``b`` (id + prediction), and the records files
    ``rec_a``/``rec_b`` (id, predict, label list; B's rows reversed, joined by id)."""
    g = crosswoz_groups
    data = write_jsonl(tmp_path / "data.jsonl", [{**r, "responses": r["responses"][1:]} for r in g])
    a = write_jsonl(tmp_path / "a.jsonl", [{"id": r["id"], "prediction": r["responses"][0]} for r in g])
    b = write_jsonl(tmp_path / "b.jsonl", [{"id": r["id"], "prediction": r["query"]} for r in g])
    rec_a = write_jsonl(tmp_path / "rec_a.jsonl", [{"id": r["id"], "prompt": r["query"], "predict": r["responses"][0],
                                                    "label": r["responses"][1:]} for r in g])
    rec_b = write_jsonl(tmp_path / "rec_b.jsonl", [{"id": r["id"], "predict": r["query"], "label": r["responses"][1:]}
                                                   for r in reversed(g)])
    return {"data": data, "a": a, "b": b, "rec_a": rec_a, "rec_b": rec_b, "groups": g}


def _ok(*args):
    res = run(*args)
    assert res.exit_code == 0, res.output
    return res


def test_explain_reads_a_records_file_as_score_does(doors):
    from rouge_score import rouge_scorer

    import zheval

    mine = json.loads(_ok("explain", "-p", doors["rec_a"], "-f", "json", "--worst", 5).stdout)
    duck = json.loads(_ok("explain", "-d", doors["data"], "-p", doors["a"], "-f", "json", "--worst", 5).stdout)
    assert mine == duck  # the same items, ids, lines (row k is line k + 1 in both files), scores, explanations
    # independent: rouge-score's ROUGE-L F (max over the references) on the char tokens ranks these five lowest
    tok = zheval.get_tokenizer("char")

    class Tokens:
        def tokenize(self, text):
            return list(tok(text))

    scorer = rouge_scorer.RougeScorer(["rougeL"], tokenizer=Tokens())
    f = [scorer.score_multi(r["responses"][1:], r["responses"][0])["rougeL"].fmeasure for r in doors["groups"]]
    lowest = sorted(range(len(f)), key=lambda i: (f[i], i))[:5]
    assert [row["id"] for row in mine] == [doors["groups"][i]["id"] for i in lowest]
    assert [row["score"] for row in mine] == pytest.approx([f[i] for i in lowest], abs=1e-12)
    one = json.loads(_ok("explain", "-p", doors["rec_a"], "-f", "json", "--id", doors["groups"][3]["id"]).stdout)
    assert one[0]["line"] == 4 and one[0]["explanation"]["prediction"]["text"] == doors["groups"][3]["responses"][0]


def test_explain_without_ids_names_rows_by_line(tmp_path):
    rec = write_jsonl(tmp_path / "gen.jsonl", [{"predict": "今天天气不错", "label": "今天天气很好"},
                                               {"predict": "我爱北京", "label": "我爱北京天安门"}])
    rows = json.loads(_ok("explain", "-p", rec, "-f", "json", "--id", "line 2").stdout)
    assert [(r["id"], r["line"]) for r in rows] == [("line 2", 2)]
    # by hand: 我爱北京 (4 chars) in 我爱北京天安门 (7): LCS 4, P 1, R 4/7, F = 2·(4/7)/(1 + 4/7) = 8/11
    assert rows[0]["score"] == pytest.approx(8 / 11, abs=1e-12)


def test_compare_reads_records_files_as_score_does(doors, tmp_path):
    args = ("-f", "json", "-q", "--bootstrap", 200)
    mine = json.loads(_ok("compare", "-p", doors["rec_a"], doors["rec_b"], *args).stdout)
    # the records carry no group field: the same overall rows as --data with --by none
    duck = json.loads(_ok("compare", "-d", doors["data"], "-p", doors["a"], doors["b"], *args, "--by", "none").stdout)
    keys = ("metric", "score_a", "score_b", "delta", "delta_low", "delta_high", "p_value")
    assert [{k: r[k] for k in keys} for r in mine["comparison"]] == \
        [{k: r[k] for k in keys} for r in duck["comparison"]]
    import zheval

    refs = [r["responses"][1:] for r in doors["groups"]]
    a = zheval.compute_bleu([r["responses"][0] for r in doors["groups"]], refs)["bleu"]
    b = zheval.compute_bleu([r["query"] for r in doors["groups"]], refs)["bleu"]
    (bleu,) = [r for r in mine["comparison"] if r["metric"] == "bleu"]
    assert (bleu["score_a"], bleu["score_b"]) == (a, b)


def test_compare_refuses_files_that_hold_other_items(doors, tmp_path):
    rows = [json.loads(x) for x in doors["rec_b"].read_text(encoding="utf-8").splitlines()]
    rows[2]["label"] = ["另一个参考"]
    rows[4]["id"] = "nope"
    bad = write_jsonl(tmp_path / "bad.jsonl", rows)
    res = run("compare", "-p", doors["rec_a"], bad, "-q")
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert f"{bad}:3: id {rows[2]['id']!r}: its references differ from those of {doors['rec_a']}:" in res.output
    assert f"{bad}:5: id 'nope': no item with this id in {doors['rec_a']}" in res.output
    no_ids = write_jsonl(tmp_path / "no_ids.jsonl", [{"predict": r["predict"], "label": r["label"]} for r in rows])
    res = run("compare", "-p", doors["rec_a"], no_ids, "-q")
    assert res.exit_code == 2 and "give both files an id field (--id-field NAME) or neither" in res.output
    short = write_jsonl(tmp_path / "short.jsonl", [{"predict": "好", "label": "好的"}])
    res = run("compare", "-p", write_jsonl(tmp_path / "two.jsonl", [{"predict": "好", "label": "好的"}] * 2),
              short, "-q")
    assert res.exit_code == 2 and "has 1 rows but" in res.output


def test_sample_reads_a_records_file_as_score_does(doors, tmp_path):
    _ok("sample", "-p", doors["rec_a"], "--k", 9, "--seed", 7, "-o", tmp_path / "r.csv", "-q")
    _ok("sample", "-d", doors["data"], "-p", doors["a"], "--k", 9, "--seed", 7, "-o", tmp_path / "d.csv", "-q")

    def sheet(name):
        with open(tmp_path / name, encoding="utf-8-sig", newline="") as f:
            return [(r["id"], r["prediction"], r["references"]) for r in csv.DictReader(f)]

    assert sheet("r.csv") == sheet("d.csv") and len(sheet("r.csv")) == 9
    key_r = json.loads((tmp_path / "r.key.json").read_text(encoding="utf-8"))
    key_d = json.loads((tmp_path / "d.key.json").read_text(encoding="utf-8"))
    assert key_r["items"] == key_d["items"] and key_r["data"] == str(doors["rec_a"])


@pytest.mark.parametrize("command", ["explain", "compare", "sample"])
def test_bad_rows_are_named_file_and_line(tmp_path, command):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"predict": "好的", "label": "好的呀"}\n{"predict": "谢谢", "label": ""}\n{"predict": 3, '
                   '"label": "不客气"}\n', encoding="utf-8")
    extra = {"explain": [], "compare": [twin(bad), "-q"], "sample": ["--k", 1, "-o", tmp_path / "s.csv", "-q"]}[command]
    res = run(command, "-p", bad, *extra)
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert f"{bad}:2: 'label' is empty" in res.output and f"{bad}:3: " in res.output


@pytest.mark.parametrize("command", ["explain", "compare", "sample"])
def test_data_only_options_are_refused_by_name(doors, tmp_path, command):
    extra = {"explain": [], "compare": [doors["rec_b"], "-q"], "sample": ["--k", 1, "-o", tmp_path / "s.csv", "-q"]}
    res = run(command, "-p", doors["rec_a"], *extra[command], "--min-refs", 2)
    assert res.exit_code == 2 and "--min-refs is an option of the 小黄鸭 file (--data)" in res.output
    with_data = {"explain": [], "compare": [doors["b"], "-q"], "sample": extra["sample"]}[command]
    res = run(command, "-d", doors["data"], "-p", doors["a"], *with_data, "--ref-field", "label")
    assert res.exit_code == 2 and "--ref-field name(s) the fields of a predictions file" in res.output


def test_score_of_a_records_file_does_not_say_paired_by_order(tmp_path):
    """A records row holds its prediction and its references: nothing is paired by line order, and the report no
    longer says so (it did: the shared reader's predictions now carry the rows' ids)."""
    rec = write_jsonl(tmp_path / "gen.jsonl", [{"predict": "今天天气不错", "label": "今天天气很好"},
                                               {"predict": "我爱北京", "label": "我爱北京天安门"}])
    rep = json.loads(_ok("score", "-p", rec, "-f", "json", "-q", "--bootstrap", 0).stdout)
    assert not any("line order" in n for n in rep["notes"])


def test_compare_counts_group_values_that_differ_from_the_first_file(tmp_path):
    # issue 35 F7: B's 'domain' values differed from A's; A's were used and nothing said so
    rows = [("今天天气很好", "今天天气不错", "a"), ("我很开心", "我很高兴", "a"), ("你好世界", "你好", "b"),
            ("再见朋友", "再见", "b"), ("谢谢你", "谢谢", None), ("没问题", "没有问题", "c")]
    a = write_jsonl(tmp_path / "A.jsonl", [{"id": f"q{i}", "predict": p, "label": r, "domain": d}
                                           for i, (p, r, d) in enumerate(rows)])
    other = {1: "x", 4: "c", 5: None}  # three items of B in other groups, one of them null
    b = write_jsonl(tmp_path / "B.jsonl", [{"id": f"q{i}", "predict": r, "label": r, "domain": other.get(i, d)}
                                           for i, (p, r, d) in reversed(list(enumerate(rows)))])
    res = run("compare", "-p", a, b, "--group-field", "domain", "-q", "--bootstrap", 100, "-f", "json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    # B is written in reverse order: its line 1 is q5 (None here, "c" in A)
    assert doc["notes"][0] == (f"B: 3 of 6 item(s) have another 'domain' in {b} than in {a} (first: {b}:1 has null, "
                               f"{a}:6 has 'c'): the groups are {a}'s values")
    groups = {(r["group"], r["n"]) for r in doc["comparison"]}
    assert ("domain=a", 2) in groups and ("domain=c", 1) in groups  # A's groups
    text = run("compare", "-p", a, b, "--group-field", "domain", "-q", "--bootstrap", 100)
    assert "B: 3 of 6 item(s) have another 'domain'" in text.stdout
    same = write_jsonl(tmp_path / "C.jsonl", [{"id": f"q{i}", "predict": r, "label": r, "domain": d}
                                              for i, (p, r, d) in enumerate(rows)])
    doc = json.loads(run("compare", "-p", a, same, "--group-field", "domain", "-q", "--bootstrap", 100, "-f",
                         "json").stdout)
    assert not any("have another" in n for n in doc["notes"])
