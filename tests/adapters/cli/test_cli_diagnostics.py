"""The diagnostics options of ``zheval score``: --max-refs K (score with the first K references; items with more are
cut and counted, not refused), --buckets, --folds; their JSON, table and Markdown output, and the errors naming
the option."""

from __future__ import annotations

import json

import pytest

from helpers.cli import run_cli as run, write_jsonl
from zheval import compute_bleu, compute_rouge
from zheval.adapters.duck import sample_files


REPLIES = ["您好，取件码在短信里。", "取件码可以在短信中查看。", "请查看快递短信里的取件码。", "打开app订单页就能看到。",
           "取件码一般在短信通知里。", "联系快递员也可以要取件码。", "在驿站小程序里也能看到。"]


def _data(tmp_path, counts):
    rows = [{"id": f"q{i}", "query": "取件码在哪看？", "responses": [REPLIES[(i + j) % 7] for j in range(k)],
             "domain": "售后支持" if i % 2 else "生活咨询", "difficulty": None} for i, k in enumerate(counts)]
    preds = ["取件码在短信里。", "可以看短信，", "我不知道", "打开订单页就能看到。", "在短信通知里", "联系快递员。"][:len(rows)]
    data = write_jsonl(tmp_path / "d.jsonl", rows)
    pred = write_jsonl(tmp_path / "p.jsonl", [{"id": r["id"], "prediction": p} for r, p in zip(rows, preds)])
    return data, pred, preds, [r["responses"] for r in rows]


def test_max_refs_cuts_items_with_more_and_counts_them(tmp_path):
    data, pred, preds, refs = _data(tmp_path, [7, 2, 6, 3, 2, 5])
    # without --max-refs the 小黄鸭 bound (at most 5) refuses the 7- and 6-reference items
    res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0)
    assert res.exit_code == 2 and "'responses' has 7 reference(s)" in res.stderr
    res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--max-refs", 3, "-f", "json", "--by", "none")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    first = [r[:3] for r in refs]
    assert d["groups"][0]["scores"]["bleu"]["value"] == compute_bleu(preds, first)["bleu"]
    assert d["groups"][0]["scores"]["rougeL"]["value"] == compute_rouge(preds, first, rouge_types=["rougeL"])["rougeL"]
    # counts 7 2 6 3 2 5 with K = 3: fewer 2 (the two 2s), cut 3 (7, 6, 5), 4 + 3 + 2 = 9 references left out
    assert d["breakdowns"]["reference_limit"] == {"max_refs": 3, "items": 6, "fewer": 2, "truncated": 3,
                                                  "dropped_references": 9}
    assert "|maxrefs:3|" in d["signatures"]["bleu"] and d["signatures"]["bleu"].startswith("nrefs:var|maxrefs:3|")
    res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--max-refs", 3, "--by", "none")
    assert "scored with the first 3 of every item; 2 of 6 item(s) had fewer" in res.stdout
    assert "3 had more (cut; 9 reference(s) left out)" in res.stdout


def test_max_refs_1_is_allowed_with_the_default_lower_bound(tmp_path):
    data, pred, preds, refs = _data(tmp_path, [3, 2, 4, 2])
    res = run("score", "-d", data, "-p", pred, "-q", "--bootstrap", 0, "--max-refs", 1, "-f", "json", "--by", "none")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["groups"][0]["scores"]["bleu"]["value"] == compute_bleu(preds, [r[:1] for r in refs])["bleu"]
    assert d["signatures"]["rouge"].startswith("nrefs:1|maxrefs:1|")


def test_ceiling_takes_the_first_k_references_too(tmp_path):
    data, _, _, refs = _data(tmp_path, [7, 2, 6, 3])
    res = run("ceiling", "-d", data, "-q", "--bootstrap", 0, "--max-refs", 2, "--by", "none", "-f", "json")
    assert res.exit_code == 0, res.output
    # cut and counted by human_ceiling as by evaluate_predictions (the report's reference_limit, maxrefs:2)
    d = json.loads(res.stdout)
    assert d["breakdowns"]["reference_limit"] == {"max_refs": 2, "items": 4, "fewer": 0, "truncated": 3,
                                                  "dropped_references": 10}
    assert "|maxrefs:2|" in d["signatures"]["bleu"] and "|maxrefs:2|" in d["signatures"]["rouge"]
    # each item then has exactly 2 references, so 2 leave-one-out rows per item
    assert "8 leave-one-out rows" in d["title"]


def test_buckets_and_folds_in_every_format():
    with sample_files() as f:
        base = ("score", "-d", f["data"], "-p", f["predictions"], "-q", "--bootstrap", 50, "--by", "domain")
        res = run(*base, "--buckets", "15,30", "--folds", 3, "-f", "json")
        assert res.exit_code == 0, res.output
        d = json.loads(res.stdout)["breakdowns"]
        assert [b["value"] for b in d["length_buckets"]["buckets"]] == ["[0, 15)", "[15, 30)", "[30, ∞)"]
        assert sum(b["n"] for b in d["length_buckets"]["buckets"]) == 66
        assert d["folds"]["folds"] == 3 and sum(d["folds"]["sizes"]) == 66
        assert set(d) == {"truncation_excluded", "diversity", "length_buckets", "folds"}
        res = run(*base, "--buckets", "default", "--folds", 5)
        assert res.exit_code == 0, res.output
        for text in ("scores by reference length", "[50, ∞)", "5 random folds (seed 12345", "diversity: Distinct-n",
                     "scores without the 6 truncated prediction(s)"):
            assert text in res.stdout
        md = run(*base, "--folds", 2, "-f", "markdown").stdout
        assert "**2 random folds" in md and "| metric | folds | mean | std | max dev | flagged |" in md
        # without the options: no buckets, no folds; truncation and diversity are always there
        d = json.loads(run(*base, "-f", "json").stdout)["breakdowns"]
        assert set(d) == {"truncation_excluded", "diversity"}


@pytest.mark.parametrize("args, message", [
    (("--buckets", "20,10"), "--buckets must be strictly increasing, got 20 then 10"),
    (("--buckets", "10,x"), "--buckets must be a comma list of numbers"),
    (("--buckets", "0"), "--buckets: every edge must be a number > 0"),
    (("--folds", 67), "--folds 67 is more than the 66 item(s)"),
    (("--folds", 1), "--folds must be at least 2"),
    (("--max-refs", 0), "'--max-refs'"),
])
def test_bad_values_name_the_option(args, message):
    with sample_files() as f:
        res = run("score", "-d", f["data"], "-p", f["predictions"], "-q", "--bootstrap", 0, *args)
    assert res.exit_code == 2
    assert message in res.stderr


def test_distinct_without_ngrams_is_undefined_and_nothing_repeats(tmp_path):
    # three different one-character replies: no bigram at all, Distinct-2 = 0/0 (undefined), not 0 ("no diversity")
    # by hand: Distinct-1 of 好 行 嗯 = 3/3; of the references 好的 不客气 谢谢: 7 unigrams, 6 distinct (谢 twice);
    # their bigrams 好的 不客 客气 谢谢: 4 of 4
    rec = write_jsonl(tmp_path / "single.jsonl", [{"predict": "好", "label": "好的"}, {"predict": "行", "label": "不客气"},
                                                  {"predict": "嗯", "label": "谢谢"}])
    res = run("score", "-p", rec, "-q", "-f", "json", "--bootstrap", 0)
    assert res.exit_code == 0, res.output
    (div,) = json.loads(res.stdout)["breakdowns"]["diversity"]
    assert div["distinct"] == {"distinct_1": 1.0, "distinct_2": None}
    assert div["distinct_counts"] == {"distinct_1": [3, 3], "distinct_2": [0, 0]}
    assert div["reference_distinct"] == {"distinct_1": pytest.approx(6 / 7, abs=1e-15), "distinct_2": 1.0}
    for fmt in ("table", "markdown"):
        res = run("score", "-p", rec, "-q", "-f", fmt, "--bootstrap", 0)
        assert res.exit_code == 0, res.output
        line = next(x for x in res.stdout.splitlines() if "overall" in x and "/" in x and "none repeated" in x)
        assert "1.000 / 0.857" in line and "– / 1.000" in line and "(1)" not in line


def test_most_repeated_names_the_empty_prediction(tmp_path):
    rec = write_jsonl(tmp_path / "empty.jsonl", [{"predict": "", "label": "好的"}, {"predict": "", "label": "不客气"},
                                                 {"predict": "嗯", "label": "谢谢"}])
    res = run("score", "-p", rec, "-q", "--bootstrap", 0)
    assert res.exit_code == 0, res.output
    assert "(empty) (2)" in res.stdout
