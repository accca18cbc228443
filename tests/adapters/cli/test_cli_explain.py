"""``zheval explain``: the items chosen (--id, --worst, --best, --sample), the JSON equal to zheval.explain and the
metrics, the table view with its highlighted runs, colours off without a TTY, and bad input (exit code 2, the id
or option named)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

import zheval
from helpers import REPO, shared_path
from helpers.cli import run_cli
from zheval.adapters.highlight import bracketed

GROUPS = "crosswoz_same_query_groups.jsonl"


def run_explain(*args):
    """``zheval explain ARGS`` in-process; returns click's ``Result`` (see :func:`helpers.cli.run_cli`)."""
    return run_cli("explain", *args)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Real data: the CrossWOZ groups; prediction = the first response, references = the others (by id)."""
    rows = [json.loads(x) for x in shared_path(GROUPS).read_text(encoding="utf-8").splitlines() if x.strip()]
    d = tmp_path_factory.mktemp("explain")
    data, preds = d / "rest.jsonl", d / "preds.jsonl"
    data.write_text("".join(json.dumps({**r, "responses": r["responses"][1:]}, ensure_ascii=False) + "\n"
                            for r in rows), encoding="utf-8")
    preds.write_text("".join(json.dumps({"id": r["id"], "prediction": r["responses"][0]}, ensure_ascii=False) + "\n"
                             for r in rows), encoding="utf-8")
    return rows, data, preds


def _json(res):
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_worst_and_best_by_the_metric(files):
    rows, data, preds = files
    p = [r["responses"][0] for r in rows]
    refs = [r["responses"][1:] for r in rows]
    f = zheval.compute_rouge(p, refs, use_aggregator=False, rouge_types=["rougeL"])["rougeL"]
    want_worst = sorted(range(len(rows)), key=lambda i: (f[i], i))[:3]
    got = _json(run_explain("--data", data, "--predictions", preds, "--worst", 3, "--format", "json"))
    assert [g["id"] for g in got] == [rows[i]["id"] for i in want_worst]
    assert [g["score"] for g in got] == [f[i] for i in want_worst]
    for g, i in zip(got, want_worst):
        assert g["explanation"]["rouge"]["rougeL"]["score"]["fmeasure"] == f[i]
        want = zheval.explain_items(p, refs, rouge_types=["rouge1", "rouge2", "rougeL"])[i]
        assert g["explanation"] == json.loads(json.dumps(want, ensure_ascii=False))
    bleu = zheval.compute_bleu(p, refs, level="sentence")["scores"]
    best = _json(run_explain("--data", data, "--predictions", preds, "--best", 2, "--metric", "bleu", "-f", "json"))
    want_best = sorted(range(len(rows)), key=lambda i: (-bleu[i], i))[:2]
    assert [g["id"] for g in best] == [rows[i]["id"] for i in want_best]
    assert [g["explanation"]["bleu"]["sentence_bleu"] for g in best] == [bleu[i] for i in want_best]


def test_ids_in_the_order_given_and_sample_is_seeded(files):
    rows, data, preds = files
    ids = [rows[5]["id"], rows[2]["id"]]
    got = _json(run_explain("--data", data, "--predictions", preds, "--id", ids[0], "--id", ids[1], "-f", "json"))
    assert [g["id"] for g in got] == ids and [g["line"] for g in got] == [6, 3]
    a = _json(run_explain("--data", data, "--predictions", preds, "--sample", 4, "--seed", 7, "-f", "json"))
    want = sorted(random.Random(7).sample(range(len(rows)), 4))
    assert [g["id"] for g in a] == [rows[i]["id"] for i in want]


def test_table_shows_the_highlighted_runs_and_one_line_per_metric(files):
    rows, data, preds = files
    res = run_explain("--data", data, "--predictions", preds, "--id", rows[0]["id"], "--rouge-types", "rouge1,rougeL")
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "\x1b[" not in out  # not a TTY: no colour codes
    e = zheval.explain(rows[0]["responses"][0], rows[0]["responses"][1:], rouge_types=["rouge1", "rougeL"])
    h = e["highlight"]
    flat = "".join(line.strip("│┃ ") for line in out.splitlines() if line.startswith("│"))
    assert bracketed(e["prediction"], h["prediction"]).replace(" ", "")[:10] in flat.replace(" ", "")
    assert f"reference {h['reference'] + 1} of " in out  # numbered from 1 (the JSON index is 0-based)
    metric_lines = [line for line in out.splitlines() if line.startswith(("rouge1     ", "rougeL     ", "bleu       "))]
    assert [line.split()[0] for line in metric_lines] == ["rouge1", "rougeL", "bleu"]
    assert f"F {e['rouge']['rouge1']['score']['fmeasure']:.4f}" in metric_lines[0]
    assert f"{e['bleu']['sentence_bleu']:.4f}" in metric_lines[2]


def test_colours_on_a_terminal_and_off_with_no_color(files):
    from rich.console import Console

    from zheval.cli.explain import render_table

    rows, data, preds = files
    e = zheval.explain("请把包裹放进智能柜", "请把包裹放进快递柜")
    import io

    buf = io.StringIO()
    render_table("x", "rougeL 0.7778", e, Console(file=buf, force_terminal=True, width=100))
    assert "\x1b[" in buf.getvalue() and "[请把包裹放进]" not in buf.getvalue()
    buf = io.StringIO()
    render_table("x", "rougeL 0.7778", e, Console(file=buf, force_terminal=True, no_color=True, width=100))
    assert "[请把包裹放进]智能[柜]" in buf.getvalue()
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}
    res = subprocess.run([sys.executable, "-m", "zheval", "explain", "--data", str(data), "--predictions", str(preds),
                          "--best", "1"], capture_output=True, text=True, env=env, cwd=REPO, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "\x1b[" not in res.stdout and "[" in res.stdout


@pytest.mark.parametrize("args,message", [
    (["--id", "nope"], "--id 'nope': no item with this id"),
    (["--id", "{first}", "--id", "{first}"], "--id '{first}' is given twice"),
    (["--worst", "1000"], "--worst 1000 is larger than the data"),
    (["--best", "86"], "--best 86 is larger than the data"),
    (["--sample", "86", "--seed", "1"], "--sample 86 is larger than the data"),
    (["--worst", "2", "--best", "2"], "--worst and --best select items in different ways"),
    (["--seed", "3"], "--seed is the seed of --sample"),
    (["--metric", "meteor"], "--metric 'meteor'"),
    (["--format", "markdown"], "--format must be one of table, json"),
])
def test_bad_input_exit_2_naming_it(files, args, message):
    rows, data, preds = files
    first = rows[0]["id"]
    res = run_explain("--data", data, "--predictions", preds, *[a.format(first=first) for a in args])
    assert res.exit_code == 2
    assert message.format(first=first) in res.stderr
    assert "Traceback" not in res.output


def _first_reference_rouge1(pred: str, ref: str) -> float:
    """ROUGE-1 F by hand: clipped unigram hits of the char tokens over the prediction's and the reference's counts."""
    from collections import Counter

    tok = zheval.get_tokenizer("char")
    p, r = Counter(tok(pred)), Counter(tok(ref))
    hits = sum((p & r).values())
    prec, rec = hits / sum(p.values()), hits / sum(r.values())
    return 2 * prec * rec / (prec + rec)


def test_max_refs_explains_the_first_k_references():
    # duck-test-0004 of the embedded sample has 4 references; with --max-refs 1 only the first counts:
    # 15 clipped unigram hits, P 15/22, R 15/29, F = 2*15/(22+29) = 30/51 = 0.5882 (reference 1 of all four gives 0.6415)
    from zheval.adapters.duck import sample_files

    with sample_files() as f:
        rows = {json.loads(x)["id"]: json.loads(x) for x in f["data"].read_text(encoding="utf-8").splitlines()}
        preds = {json.loads(x)["id"]: json.loads(x)["prediction"]
                 for x in f["predictions"].read_text(encoding="utf-8").splitlines()}
        want = _first_reference_rouge1(preds["duck-test-0004"], rows["duck-test-0004"]["responses"][0])
        assert want == pytest.approx(30 / 51, abs=1e-12)
        got = _json(run_explain("--data", f["data"], "--predictions", f["predictions"], "--max-refs", 1, "--id",
                                "duck-test-0004", "--metric", "rouge1", "--format", "json"))
        res = run_explain("--data", f["data"], "--predictions", f["predictions"], "--max-refs", 1, "--id",
                          "duck-test-0004", "--metric", "rouge1")
    (g,) = got
    assert len(g["explanation"]["references"]) == 1
    assert g["explanation"]["rouge"]["rouge1"]["score"]["fmeasure"] == pytest.approx(want, abs=1e-12)
    assert g["score"] == pytest.approx(want, abs=1e-12)
    text = " ".join(res.output.split())  # rich wraps the title at 80 columns where the file's path ends
    assert res.exit_code == 0 and "rouge1 0.5882" in text and "F 0.5882" in text
    assert "0.6415" not in text


# break-it F1/F2/F10: the ranking metric is one the explanation shows, as zheval sample --by-metric checks it
@pytest.mark.parametrize("args,message", [
    (["--worst", "3", "--metric", "bleu", "--metrics", "rouge", "-f", "json"],
     "--metric 'bleu' is not a computed metric; valid: rouge1, rouge2, rougeL"),
    (["--worst", "1", "--metric", "rouge3", "--rouge-types", "rouge1"],
     "--metric 'rouge3' is not a computed metric; valid: bleu, rouge1 "),
    (["--id", "{first}", "--metric", "chrf"], "add chrf to --metrics"),
    (["--worst", "1", "--preset", "glm4"], "--preset 'glm4': explain does not cover this preset"),
    (["--worst", "1", "--preset", "longbench", "--metric", "bleu"], "--preset 'longbench': explain does not cover"),
    (["--worst", "1", "--preset", "nope"], "--preset 'nope': unknown preset; explain takes rouge155, sacrebleu-zh, "
                                           "llamafactory"),
])
def test_ranking_metric_must_be_shown_and_presets_checked_first(files, args, message):
    rows, data, preds = files
    res = run_explain("--data", data, "--predictions", preds, *[a.format(first=rows[0]["id"]) for a in args])
    assert res.exit_code == 2, res.output
    assert message in res.stderr
    assert "predictions[" not in res.stderr and "Traceback" not in res.output and res.stdout == ""


@pytest.mark.parametrize("args,ranked_by", [
    (["--rouge-types", "rouge1"], "bleu"),  # the default rougeL is not computed: the first computed metric, named
    (["--preset", "sacrebleu-zh"], "bleu"),  # a BLEU-only preset ranks by BLEU (--help: "explains the metrics that
    (["--metrics", "chrf"], "chrf"),         # have it"); was "unknown preset" from ROUGE under a BLEU preset
])
def test_without_metric_items_are_ranked_by_the_first_computed_one_and_say_it(files, args, ranked_by):
    rows, data, preds = files
    got = _json(run_explain("--data", data, "--predictions", preds, "--worst", 2, "-f", "json", *args))
    assert {g["metric"] for g in got} == {ranked_by}
    assert all(ranked_by in g["explanation"] or ranked_by.startswith("rouge") for g in got)


def test_glm4_is_refused_before_its_prediction_checks(tmp_path):
    # glm4's own check refuses a prediction with no token ("predictions[1]"); explain must refuse glm4 itself first
    data, preds = tmp_path / "d.jsonl", tmp_path / "p.jsonl"
    data.write_text('{"id": "a", "query": "q", "responses": ["好的"]}\n{"id": "b", "query": "q", "responses": '
                    '["谢谢"]}\n', encoding="utf-8")
    preds.write_text('{"id": "a", "prediction": "好的"}\n{"id": "b", "prediction": "。"}\n', encoding="utf-8")
    res = run_explain("--data", data, "--predictions", preds, "--worst", 1, "--preset", "glm4")
    assert res.exit_code == 2 and "explain does not cover this preset" in res.stderr
    assert "predictions[" not in res.stderr


def test_bleu_only_preset_ranks_by_bleu(files):
    # sacrebleu-zh explains BLEU only: with --metric bleu the rows are ranked by, and show, the sentence BLEU
    rows, data, preds = files
    got = _json(run_explain("--data", data, "--predictions", preds, "--worst", 2, "--preset", "sacrebleu-zh",
                            "--metric", "bleu", "-f", "json"))
    p = [r["responses"][0] for r in rows]
    refs = [r["responses"][1:] for r in rows]
    bleu = zheval.compute_bleu(p, refs, level="sentence", preset="sacrebleu-zh")["scores"]
    want = sorted(range(len(rows)), key=lambda i: (bleu[i], i))[:2]
    assert [g["id"] for g in got] == [rows[i]["id"] for i in want]
    for g in got:
        assert g["metric"] == "bleu" and "rouge" not in g["explanation"]
        assert g["score"] == g["explanation"]["bleu"]["sentence_bleu"]
    res = run_explain("--data", data, "--predictions", preds, "--id", rows[0]["id"], "--preset", "rouge155",
                      "--metric", "rouge3")
    assert res.exit_code == 0, res.output
    assert len([ln for ln in res.stdout.splitlines() if ln.startswith("rouge3     F ")]) == 1  # its metric line
