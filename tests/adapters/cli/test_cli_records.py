"""``zheval score`` without --data: the predictions file carries its references (LLaMA-Factory predict/label, or
named fields in JSONL / CSV / Parquet), scored with the 小黄鸭 report; ``--domains`` for the 小黄鸭 loader.
Numbers on the shared real CrossWOZ groups, against the library and sacrebleu."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_cli as run
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def kind(query: str) -> str:
    """A group derived from the real query text (CrossWOZ has no domain labels): thanks/bye exchanges or not."""
    return "thanks" if ("谢" in query or "再见" in query) else "other"


@pytest.fixture()
def llamafactory_file(tmp_path, crosswoz_groups):
    """generated_predictions.jsonl made from the real groups: predict = the first reply, label = the second."""
    rows = [{"prompt": r["query"], "predict": r["responses"][0], "label": r["responses"][1]} for r in crosswoz_groups]
    return write_jsonl(tmp_path / "generated_predictions.jsonl", rows), crosswoz_groups


def overall(report: dict) -> dict:
    g = report["groups"][0]
    assert g["dimension"] == "overall"
    return g


def test_llamafactory_file_alone_equals_the_library(tmp_path, llamafactory_file):
    path, groups = llamafactory_file
    out = tmp_path / "r.json"
    res = run("score", "--predictions", path, "-f", "json", "-o", out, "-q", "--bootstrap", 200)
    assert res.exit_code == 0, res.output
    rep = json.loads(out.read_text(encoding="utf-8"))
    p = [g["responses"][0] for g in groups]
    refs = [[g["responses"][1]] for g in groups]
    b = compute_bleu(p, refs, bootstrap=200)
    r = compute_rouge(p, refs, rouge_types=["rouge1", "rouge2", "rougeL"], bootstrap=200)
    o = overall(rep)
    assert o["n"] == len(groups) == 85
    assert (o["scores"]["bleu"]["value"], o["scores"]["bleu"]["low"], o["scores"]["bleu"]["high"]) == \
        (b["bleu"], b["bleu_ci_low"], b["bleu_ci_high"])
    for t in ("rouge1", "rouge2", "rougeL"):
        assert (o["scores"][t]["value"], o["scores"][t]["low"]) == (r[t], r[f"{t}_ci_low"])
    assert rep["signatures"]["bleu"] == b["signature"] and rep["signatures"]["rouge"] == r["signature"]
    assert len(rep["groups"]) == 1  # no group field named: overall only
    assert "predictions and references" in rep["title"] and "'predict'" in rep["title"]


def test_sacrebleu_preset_equals_sacrebleu(tmp_path, llamafactory_file):
    import sacrebleu

    path, groups = llamafactory_file
    res = run("score", "-p", path, "--preset", "sacrebleu-zh", "--metrics", "bleu", "-f", "json", "-q",
              "--bootstrap", 0)
    assert res.exit_code == 0, res.output
    got = overall(json.loads(res.stdout))["scores"]["bleu"]["value"]
    want = sacrebleu.corpus_bleu([g["responses"][0] for g in groups], [[g["responses"][1] for g in groups]],
                                 tokenize="zh").score / 100
    assert abs(got - want) < 1e-12 and 0.05 < want < 0.9


def test_named_fields_multi_reference_ids_and_groups(tmp_path, crosswoz_groups):
    rows = [{"qid": r["id"], "output": r["responses"][0], "answers": r["responses"][1:], "category": kind(r["query"]),
             "prompt": r["query"]} for r in crosswoz_groups]
    path = write_jsonl(tmp_path / "dump.jsonl", rows)
    res = run("score", "-p", path, "--pred-field", "output", "--ref-field", "answers", "--id-field", "qid",
              "--group-field", "category", "-f", "json", "-q", "--bootstrap", 0)
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    p = [r["output"] for r in rows]
    refs = [r["answers"] for r in rows]
    assert overall(rep)["scores"]["bleu"]["value"] == compute_bleu(p, refs)["bleu"]
    assert rep["diagnostics"]["ref_count_distribution"] == {"2": 32, "3": 19, "4": 34}  # the real 3-5 replies minus one
    by_value = {g["value"]: g for g in rep["groups"] if g["dimension"] == "category"}
    assert set(by_value) == {"thanks", "other"}
    for value, g in by_value.items():
        idx = [i for i, r in enumerate(rows) if r["category"] == value]
        assert g["n"] == len(idx)
        sub_p, sub_r = [p[i] for i in idx], [refs[i] for i in idx]
        assert g["scores"]["bleu"]["value"] == compute_bleu(sub_p, sub_r)["bleu"]
        assert g["scores"]["rougeL"]["value"] == compute_rouge(sub_p, sub_r, rouge_types=["rougeL"])["rougeL"]


def test_csv_and_parquet_give_the_jsonl_numbers(tmp_path, crosswoz_groups):
    import pandas as pd

    rows = [{"output": r["responses"][0], "ref1": r["responses"][1], "ref2": r["responses"][2]}
            for r in crosswoz_groups]
    pd.DataFrame(rows).to_csv(tmp_path / "d.csv", index=False)
    pd.DataFrame([{"output": r["output"], "answers": [r["ref1"], r["ref2"]]} for r in rows]).to_parquet(
        tmp_path / "d.parquet")
    a = run("score", "-p", tmp_path / "d.csv", "--pred-field", "output", "--ref-field", "ref1", "--ref-field", "ref2",
            "-f", "json", "-q", "--bootstrap", 0)
    b = run("score", "-p", tmp_path / "d.parquet", "--pred-field", "output", "--ref-field", "answers", "-f", "json",
            "-q", "--bootstrap", 0)
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    want = compute_rouge([r["output"] for r in rows], [[r["ref1"], r["ref2"]] for r in rows])
    for res in (a, b):
        sc = overall(json.loads(res.stdout))["scores"]
        assert sc["rouge1"]["value"] == want["rouge1"] and sc["rougeL"]["value"] == want["rougeL"]


def test_table_report_with_a_group_and_a_plot(tmp_path, crosswoz_groups):
    rows = [{"predict": r["responses"][0], "label": r["responses"][1], "kind": kind(r["query"])} for r in crosswoz_groups]
    path = write_jsonl(tmp_path / "g.jsonl", rows)
    res = run("score", "-p", path, "--group-field", "kind", "-q", "--bootstrap", 100, "--plot", tmp_path / "s.png")
    assert res.exit_code == 0, res.output
    assert "kind=thanks" in res.stdout or "thanks" in res.stdout
    assert (tmp_path / "s.png").read_bytes()[:4] == b"\x89PNG"  # --plot-by defaults to the first group field


@pytest.mark.parametrize("rows, args, expected", [
    ([{"predict": ["x"], "label": "y"}], [], "g.jsonl:1: the prediction 'predict' must be a string, got array"),
    ([{"output": "x"}], ["--pred-field", "output"], "g.jsonl:1: no reference field named"),
    ([{"predict": "x", "label": "y"}, {"predict": "x"}], [], "g.jsonl:2: missing field(s) ['label']"),
    ([{"predict": "x", "label": "y"}], ["--by", "domain"], "--by domain: without --data the report groups by "
                                                             "--group-field fields only"),
    ([{"predict": "x", "label": "y"}], ["--min-refs", "1"], "--min-refs is an option of the 小黄鸭 file"),
    ([{"predict": "x", "label": "y"}], ["--domains", "any"], "--domains is an option of the 小黄鸭 file"),
    ([{"predict": "x", "label": "y"}], ["--predictions-format", "text"], "a text file has no references"),
    ([{"predict": "x", "label": "y"}], ["--predictions-format", "xml"], "unknown --predictions-format 'xml'"),
    ([{"predict": "x", "label": "y"}], ["--ref-field", "label", "--ref-field", "label"],
     "--ref-field names ['label'] more than once"),
    ([{"predict": "x", "label": "y"}], ["--label-check", "off"], "--label-check compares LLaMA-Factory labels"),
    ([{"predict": "x", "label": "y"}], ["--plot", "s.png"], "--plot draws the scores per group: name a group field"),
    ([{"predict": "x", "label": "y", "domain": "d"}], ["--group-field", "domain", "--by", "none", "--plot", "s.png"],
     "--by none leaves the report without groups: drop --by none (the groups are then --group-field's: domain)"),
    ([{"predict": "x", "label": "……"}], ["--punct", "drop"], "g.jsonl:1: id 'line 1': 'label' has no tokens"),
    ([{"predict": "x", "label": "y"}], ["--preset", "nope", "--metrics", "bleu"], "unknown --preset 'nope'"),
])
def test_bad_input_exits_2_naming_the_line_or_option(tmp_path, rows, args, expected):
    path = write_jsonl(tmp_path / "g.jsonl", rows)
    res = run("score", "-p", path, "-q", "--bootstrap", 0, *args)
    assert res.exit_code == 2, res.output
    assert expected in res.output and "Traceback" not in res.output


def test_record_field_options_with_data_are_refused(tmp_path):
    duck = write_jsonl(tmp_path / "d.jsonl", [{"id": "a", "query": "q", "responses": ["好的", "行"], "domain": None,
                                               "difficulty": None}])
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": "a", "prediction": "好的"}])
    res = run("score", "--data", duck, "-p", preds, "--ref-field", "label", "--group-field", "g", "-q")
    assert res.exit_code == 2
    assert "--ref-field, --group-field name(s) the fields of a predictions file that carries its references" in res.output


def test_domains_any_or_a_list_for_the_duck_loader(tmp_path):
    rows = [{"id": "a", "query": "q", "responses": ["好的，收到", "行，知道了"], "domain": "金融", "difficulty": "易"},
            {"id": "b", "query": "q", "responses": ["谢谢你", "不客气"], "domain": "生活咨询", "difficulty": None}]
    duck = write_jsonl(tmp_path / "d.jsonl", rows)
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": "a", "prediction": "好的"}, {"id": "b", "prediction": "谢谢"}])
    res = run("score", "--data", duck, "-p", preds, "-q", "--bootstrap", 0)
    assert res.exit_code == 2 and "d.jsonl:1: id 'a': 'domain' '金融' is not one of" in res.output
    for domains in ("any", "金融,生活咨询", " ANY "):
        res = run("score", "--data", duck, "-p", preds, "-q", "--bootstrap", 0, "--domains", domains, "-f", "json")
        assert res.exit_code == 0, res.output
        values = {g["value"] for g in json.loads(res.stdout)["groups"] if g["dimension"] == "domain"}
        assert values == {"金融", "生活咨询"}
    res = run("score", "--data", duck, "-p", preds, "-q", "--domains", "生活咨询")
    assert res.exit_code == 2 and "'金融' is not one of ['生活咨询']" in res.output
    res = run("score", "--data", duck, "-p", preds, "-q", "--domains", " , ")
    assert res.exit_code == 2 and "--domains ' , ' names no domain" in res.output
    res = run("ceiling", "--data", duck, "-q", "--bootstrap", 0, "--domains", "any")
    assert res.exit_code == 0, res.output


def test_named_prediction_fields_with_data_join_by_id_or_order(tmp_path):
    """--pred-field/--id-field with --data: a predictions file with other field names, in any order with ids."""
    from zheval.adapters.duck import load_duck, sample_files

    with sample_files() as files:
        data = files["data"]
        ds = load_duck(data)
        rows = [json.loads(x) for x in files["predictions"].read_text(encoding="utf-8").splitlines() if x.strip()]
        reference = run("score", "--data", data, "-p", files["predictions"], "-f", "json", "-q", "--bootstrap", 0)
        named = write_jsonl(tmp_path / "named.jsonl", [{"qid": r["id"], "output": r["prediction"]} for r in reversed(rows)])
        res = run("score", "--data", data, "-p", named, "--pred-field", "output", "--id-field", "qid", "-f", "json",
                  "-q", "--bootstrap", 0)
        assert res.exit_code == 0, res.output
        got, want = json.loads(res.stdout), json.loads(reference.stdout)
        assert got["groups"] == want["groups"]  # reversed file, joined by id: the same report
        p = {r["id"]: r["prediction"] for r in rows}
        assert got["groups"][0]["scores"]["bleu"]["value"] == compute_bleu([p[i] for i in ds["id"]],
                                                                            list(ds["responses"]))["bleu"]
        pd = __import__("pandas")
        pd.DataFrame([{"n": i, "output": r["prediction"]} for i, r in enumerate(rows)]).to_csv(tmp_path / "p.csv",
                                                                                               index=False)
        res = run("score", "--data", data, "-p", tmp_path / "p.csv", "--pred-field", "output", "-f", "json", "-q",
                  "--bootstrap", 0)
        assert res.exit_code == 0 and json.loads(res.stdout)["groups"] == want["groups"]  # in order, no id
        short = write_jsonl(tmp_path / "short.jsonl", [{"output": r["prediction"]} for r in rows[:-1]])
        res = run("score", "--data", data, "-p", short, "--pred-field", "output", "-q")
        assert res.exit_code == 2 and "65 predictions for 66 items" in res.output
        extra = write_jsonl(tmp_path / "extra.jsonl", [{"qid": r["id"] + "x", "output": r["prediction"]} for r in rows])
        res = run("score", "--data", data, "-p", extra, "--pred-field", "output", "--id-field", "qid", "-q")
        assert res.exit_code == 2 and "66 missing, 66 extra" in res.output
        bad = write_jsonl(tmp_path / "bad.jsonl", [{"qid": r["id"], "output": 1} for r in rows])
        res = run("score", "--data", data, "-p", bad, "--pred-field", "output", "--id-field", "qid", "-q")
        assert res.exit_code == 2 and f"{bad}:1: id 'duck-test-0001': the prediction 'output' must be a string, " \
                                      "got integer" in res.output and "66 problem(s)" in res.output
        pd.DataFrame([{"output": r["prediction"]} for r in rows]).to_csv(tmp_path / "one.csv", index=False)
        res = run("score", "--data", data, "-p", tmp_path / "one.csv", "--pred-field", "output", "-f", "json", "-q",
                  "--bootstrap", 0)
        assert res.exit_code == 0 and json.loads(res.stdout)["groups"] == want["groups"]  # pandas quotes "" here
        text = (tmp_path / "one.csv").read_text(encoding="utf-8").replace('\n""\n', "\n\n")
        (tmp_path / "blank.csv").write_text(text, encoding="utf-8")
        res = run("score", "--data", data, "-p", tmp_path / "blank.csv", "--pred-field", "output", "-q")
        line = 2 + next(i for i, r in enumerate(rows) if not r["prediction"])  # the sample's empty prediction
        assert res.exit_code == 2 and f"blank.csv:{line}: a blank line in a one-column file" in res.output


@pytest.mark.parametrize("name", ["preds.txt", "preds.out"])
@pytest.mark.parametrize("command", [["score"], ["score", "--stream"], ["explain"],
                                     ["sample", "--k", "2", "--key", "key.json"]])
def test_a_text_file_without_data_is_one_line_saying_it_has_no_references(tmp_path, name, command):
    # issue 35 F8: 65 problems "malformed JSON: Expecting value at column 1", one per line of predictions
    f = tmp_path / name
    f.write_text("".join(f"第{k}个预测\n" for k in range(65)), encoding="utf-8")
    res = run(*command, "-p", f, *(["-o", tmp_path / "s.csv"] if command[0] == "sample" else []))
    assert res.exit_code == 2, res.output
    (line,) = res.stderr.strip().splitlines()
    assert line == (f"zheval: error: {f}:1: this looks like a text file, one prediction per line (65 of 65 non-blank "
                    "lines are not JSON): a text file carries no references, so it cannot be scored alone; score it "
                    "against a 小黄鸭 file with --data FILE (one prediction per line, in the data's order), or write a "
                    "JSONL/CSV/TSV/Parquet file with a prediction and a reference field (--pred-field NAME --ref-field "
                    "NAME)")
    assert "malformed JSON" not in res.stderr


def test_a_jsonl_file_with_a_few_bad_lines_still_names_each(tmp_path):
    f = tmp_path / "p.jsonl"
    rows = [json.dumps({"predict": "好", "label": "好"}, ensure_ascii=False)] * 3
    f.write_text("\n".join(rows[:2] + ["not json", rows[2]]) + "\n", encoding="utf-8")
    res = run("score", "-p", f, "-q")
    assert res.exit_code == 2 and f"{f}:3: malformed JSON" in res.stderr and "text file" not in res.stderr
