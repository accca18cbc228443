"""The zheval command: score / ceiling / clean / compare / demo on real data, formats, plot, exit codes, atomic outputs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from helpers import REPO, SHARED_DATA, shared_path
from helpers.cli import run_cli as run
from zheval.compute.bleu import compute_bleu
from zheval.compute.rouge import compute_rouge

GROUPS = SHARED_DATA / "crosswoz_same_query_groups.jsonl"


@pytest.fixture(scope="module")
def first_response_predictions(tmp_path_factory):
    """A prediction file made from the real groups: the first response of each query, by id."""
    rows = [json.loads(x) for x in shared_path(GROUPS.name).read_text(encoding="utf-8").splitlines() if x.strip()]
    path = tmp_path_factory.mktemp("preds") / "first_response.jsonl"
    path.write_text("".join(json.dumps({"id": r["id"], "prediction": r["responses"][0]}, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")
    return rows, path


def test_score_on_real_crosswoz_groups_matches_the_metrics(tmp_path, first_response_predictions):
    """Prediction = the first response; references = the remaining 2-4 (a data file derived at run time)."""
    rows, preds = first_response_predictions
    data = tmp_path / "rest.jsonl"
    data.write_text("".join(json.dumps({**r, "responses": r["responses"][1:]}, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")
    out = tmp_path / "report.json"
    res = run("score", "--data", data, "--predictions", preds, "--format", "json", "--output", out, "--quiet",
              "--bootstrap", 500)
    assert res.exit_code == 0, res.output
    rep = json.loads(out.read_text(encoding="utf-8"))
    p = [r["responses"][0] for r in rows]
    refs = [r["responses"][1:] for r in rows]
    b = compute_bleu(p, refs, bootstrap=500)
    r = compute_rouge(p, refs, rouge_types=["rouge1", "rouge2", "rougeL"], bootstrap=500)
    overall = rep["groups"][0]
    assert overall["dimension"] == "overall" and overall["n"] == 85
    assert overall["scores"]["bleu"]["value"] == b["bleu"]
    assert 0.2 < b["bleu"] < 0.8
    assert (overall["scores"]["bleu"]["low"], overall["scores"]["bleu"]["high"]) == (b["bleu_ci_low"], b["bleu_ci_high"])
    for t in ("rouge1", "rouge2", "rougeL"):
        sc = overall["scores"][t]
        assert (sc["value"], sc["low"], sc["high"]) == (r[t], r[f"{t}_ci_low"], r[f"{t}_ci_high"])
    assert rep["signatures"]["bleu"] == b["signature"] and rep["signatures"]["rouge"] == r["signature"]
    assert rep["diagnostics"]["ref_count_distribution"] == {"2": 32, "3": 19, "4": 34}
    assert [g["value"] for g in rep["groups"][1:]] == [None, None]  # JSON null: the missing value


def test_score_with_the_unchanged_file_scores_one(first_response_predictions):
    # the prediction is one of the item's own references: every metric is exactly 1
    _, preds = first_response_predictions
    res = run("score", "-d", GROUPS, "-p", preds, "--quiet", "--bootstrap", 0, "--format", "json", "--by", "none")
    scores = json.loads(res.stdout)["groups"][0]["scores"]
    assert {k: v["value"] for k, v in scores.items()} == {"bleu": 1.0, "rouge1": 1.0, "rouge2": 1.0, "rougeL": 1.0}


def test_score_table_markdown_and_plot(tmp_path, first_response_predictions):
    _, preds = first_response_predictions
    res = run("score", "-d", GROUPS, "-p", preds, "--quiet", "--bootstrap", 100)
    assert res.exit_code == 0
    for needle in ("overall", "domain=null", "difficulty=null", "BLEU", "ROUGE-L", "diagnostics", "truncation",
                   "references per item", "signature", "nrefs:var|tok:zh-char"):
        assert needle in res.stdout
    md = run("score", "-d", GROUPS, "-p", preds, "--quiet", "--bootstrap", 0, "--format", "markdown", "--by", "none")
    assert md.exit_code == 0 and md.stdout.startswith("### zheval score") and "|---|---:|" in md.stdout
    png = tmp_path / "s.png"
    res = run("score", "-d", GROUPS, "-p", preds, "--quiet", "--bootstrap", 50, "--plot", png, "-o", tmp_path / "t.txt")
    assert res.exit_code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ceiling_on_real_groups_matches_the_metrics(first_response_predictions):
    rows, _ = first_response_predictions
    res = run("ceiling", "--data", GROUPS, "--format", "json", "--quiet", "--bootstrap", 100, "--by", "none")
    assert res.exit_code == 0
    rep = json.loads(res.stdout)
    fp, fr = [], []
    for r in rows:
        for j, x in enumerate(r["responses"]):
            fp.append(x)
            fr.append(r["responses"][:j] + r["responses"][j + 1:])
    assert rep["groups"][0]["scores"]["bleu"]["value"] == compute_bleu(fp, fr)["bleu"]
    assert rep["groups"][0]["scores"]["rougeL"]["value"] == compute_rouge(fp, fr, rouge_types=["rougeL"])["rougeL"]


def test_clean_on_real_groups(tmp_path, shared_data_dir):
    out = tmp_path / "clean.jsonl"
    js = tmp_path / "drops.json"
    res = run("clean", GROUPS, "-o", out, "--report-json", js, "--quiet")
    assert res.exit_code == 0
    assert "dropped references" in res.stdout and "too_short" in res.stdout and "near_duplicate" in res.stdout
    drops = json.loads(js.read_text(encoding="utf-8"))
    kept = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(kept) == drops["queries_out"] == 85 - sum(drops["dropped_queries"]["too_few_refs"].values())
    assert sum(len(r["responses"]) for r in kept) == drops["refs_out"]
    assert list(kept[0]) == ["id", "query", "responses", "domain", "difficulty"]


def test_compare_two_systems(tmp_path, first_response_predictions):
    rows, preds = first_response_predictions
    b = tmp_path / "b.txt"
    b.write_text("\n".join("不客气。" for _ in rows) + "\n", encoding="utf-8")  # a constant-reply system, in order
    res = run("compare", "--data", GROUPS, "--predictions", preds, b, "--quiet", "--bootstrap", 200, "--format", "json")
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    bleu = next(r for r in rep["comparison"] if r["metric"] == "bleu")
    assert bleu["score_a"] == 1.0 and bleu["delta"] < 0 and bleu["p_value"] < 0.05


def test_demo_in_process():
    res = run("demo", "--bootstrap", 100)
    assert res.exit_code == 0
    for needle in ("embedded 小黄鸭 sample", "domain=售后支持", "domain=情感陪伴", "domain=生活咨询", "difficulty=难",
                   "diagnostics", "empty predictions: 1", "signature"):
        assert needle in res.stdout


def test_python_m_zheval_demo_subprocess():
    proc = subprocess.run([sys.executable, "-m", "zheval", "demo", "--bootstrap", "50", "--format", "json"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["groups"][0]["n"] == 66


# ---------------------------------------------------------------------------------------------------------------
# bad input: exit code 2, a message naming file:line or ids, no traceback, nothing written


def _bad_data(tmp_path):
    p = tmp_path / "bad.jsonl"
    p.write_text('{"id": "a", "query": "q", "responses": ["好的，收到。", "明白了。"], "domain": null, "difficulty": null}\n'
                 '{"id": 7.5, "query": "q", "responses": "不客气", "domain": null, "difficulty": null}\n', encoding="utf-8")
    return p


def test_bad_data_exits_2_with_file_line_and_writes_nothing(tmp_path, first_response_predictions):
    _, preds = first_response_predictions
    bad = _bad_data(tmp_path)
    out = tmp_path / "out.txt"
    res = run("score", "-d", bad, "-p", preds, "-o", out, "--quiet")
    assert res.exit_code == 2
    assert f"{bad}:2:" in res.stderr and "the id field 'id' must be a non-empty string or an integer, got number 7.5" in res.stderr
    assert "Traceback" not in res.output + res.stderr
    assert not out.exists()
    res = run("clean", bad, "-o", tmp_path / "c.jsonl", "--quiet")
    assert res.exit_code == 2 and not (tmp_path / "c.jsonl").exists()


def test_mismatched_predictions_exit_2_and_keep_old_output(tmp_path, first_response_predictions):
    rows, _ = first_response_predictions
    p = tmp_path / "short.jsonl"
    p.write_text("".join(json.dumps({"id": r["id"], "prediction": "好"}) + "\n" for r in rows[5:]), encoding="utf-8")
    out = tmp_path / "report.txt"
    out.write_text("previous report\n", encoding="utf-8")
    res = run("score", "-d", GROUPS, "-p", p, "-o", out, "--quiet")
    assert res.exit_code == 2
    assert "5 missing, 0 extra" in res.stderr and "crosswoz-sameq-000" in res.stderr
    assert out.read_text(encoding="utf-8") == "previous report\n"


@pytest.mark.parametrize(
    "args, needle",
    [
        (["score", "-d", GROUPS, "-p", "/nonexistent/p.jsonl"], "predictions file not found"),
        (["score", "-d", GROUPS, "-p", GROUPS, "--tokenizer", "bpe"], "unknown -t/--tokenizer 'bpe'"),
        (["score", "-d", GROUPS, "-p", GROUPS, "--metrics", "meteor"], "unknown metric"),
        (["score", "-d", GROUPS, "-p", GROUPS, "--by", "speaker"], "cannot group by 'speaker'; group columns: 'domain', 'difficulty'"),
        (["score", "-d", GROUPS, "-p", GROUPS, "-o", "/nonexistent/dir/r.txt"], "output directory does not exist"),
        (["score", "-d", GROUPS, "-p", GROUPS, "--format", "xml"], ""),
        (["score", "-d", GROUPS], ""),
        (["ceiling", "-d", GROUPS, "--rouge-types", "rougeX"], "Unknown ROUGE type 'rougeX'"),
        (["nosuchcommand"], ""),
    ],
)
def test_usage_and_option_errors_exit_2(args, needle, shared_data_dir):
    res = run(*args, *(["--quiet"] if args[0] != "nosuchcommand" else []))
    assert res.exit_code == 2, res.output
    assert needle in res.stderr
    assert "Traceback" not in res.stderr


def test_plot_without_groups_is_a_user_error(tmp_path, first_response_predictions):
    _, preds = first_response_predictions
    png = tmp_path / "x.png"
    res = run("score", "-d", GROUPS, "-p", preds, "--by", "none", "--plot", png, "--quiet", "--bootstrap", 0)
    assert res.exit_code == 2 and "nothing to plot" in res.stderr and not png.exists()


def test_clean_drops_and_reports_duplicate_items(tmp_path):
    # issue 35: the same query and references under a new id were kept and counted nowhere
    rows = [{"id": i, "query": "几点关门？", "responses": ["晚上九点关门。", "九点钟就关门了。"], "domain": "售后支持",
             "difficulty": None} for i in ("q1", "q2")]
    src = tmp_path / "raw.jsonl"
    src.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    out, js = tmp_path / "clean.jsonl", tmp_path / "drops.json"
    res = run("clean", src, "-o", out, "--report-json", js, "--quiet")
    assert res.exit_code == 0, res.output
    assert "queries: 2 → 1 (dropped 1); references: 4 → 2 (dropped 2)" in res.stdout
    assert "duplicate items dropped (1; the same query and references as an earlier id): 'q2' = 'q1'" in res.stdout
    assert [json.loads(x)["id"] for x in out.read_text(encoding="utf-8").splitlines()] == ["q1"]
    drops = json.loads(js.read_text(encoding="utf-8"))
    assert drops["dropped_queries"]["duplicate_item"] == {"售后支持": 1} and drops["duplicate_of"] == {"q2": "q1"}
