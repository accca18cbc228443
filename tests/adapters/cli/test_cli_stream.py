"""``zheval score --stream`` on a records file: the scores of ``zheval score`` on the same file (real CrossWOZ
replies), Poisson intervals said in the table's header and the signatures, per-item scores written with
``--items-out``, and every option that needs the whole list refused by name before any work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import zheval
from helpers.cli import run_cli as run
from helpers.cli import write_jsonl


@pytest.fixture()
def records(tmp_path, crosswoz_groups):
    rows = [{"id": f"g{i}", "prediction": r["responses"][0], "references": r["responses"][1:], "turn": str(i % 2)}
            for i, r in enumerate(crosswoz_groups)]
    return write_jsonl(tmp_path / "rows.jsonl", rows)


def _values(report: dict) -> list:
    return [(g["dimension"], g["value"], g["n"], {m: v["value"] for m, v in g["scores"].items()})
            for g in report["groups"]]


def test_stream_scores_equal_the_whole_file(records, tmp_path):
    args = ["score", "-p", records, "--group-field", "turn", "--metrics", "bleu,rouge,chrf", "-f", "json", "-q"]
    whole = run(*args)
    items = tmp_path / "items.jsonl"
    streamed = run(*args, "--stream", "--items-out", items)
    assert whole.exit_code == 0 and streamed.exit_code == 0, streamed.output
    got, want = json.loads(streamed.stdout), json.loads(whole.stdout)
    assert _values(got) == _values(want)
    assert got["params"]["bootstrap_method"] == "poisson"
    assert all("bsmethod:poisson" in s for s in got["signatures"].values())
    lines = [json.loads(x) for x in items.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == got["groups"][0]["n"] and lines[0]["id"] == "g0"
    # one name per score with --items (break-it leftover: --items-out wrote sentence BLEU as 'bleu'); the values are
    # compute_bleu / compute_chrf / compute_rouge at sentence level on the file's own texts
    rows = [json.loads(x) for x in Path(records).read_text(encoding="utf-8").splitlines() if x.strip()]
    preds, refs = [r["prediction"] for r in rows], [r["references"] for r in rows]
    listed = json.loads(run(*args, "--items").stdout)["items"]
    score_keys = {k for k in listed[0] if k not in ("id", "prediction", "bleu_stats")}
    assert score_keys == {"sentence_bleu", "chrf", "rouge1", "rouge2", "rougeL"}, listed[0]
    assert score_keys <= set(lines[0]) and "bleu" not in lines[0], lines[0]
    assert [x["sentence_bleu"] for x in lines] == zheval.compute_bleu(preds, refs, level="sentence")["scores"]
    assert [x["chrf"] for x in lines] == zheval.compute_chrf(preds, refs, level="sentence")["scores"]
    assert [x["rougeL"] for x in lines] == zheval.compute_rouge(preds, refs, use_aggregator=False)["rougeL"]
    table = run("score", "-p", records, "--stream", "-q")
    assert "Poisson bootstrap interval" in table.stdout


@pytest.mark.parametrize("extra,flag", [
    (["--html", "page.html"], "--html"), (["--items"], "--items"), (["--buckets", "default"], "--buckets"),
    (["--folds", "3"], "--folds"), (["--max-refs", "1"], "--max-refs"), (["--num-proc", "2"], "--num-proc"),
])
def test_options_that_need_every_item_are_refused(records, tmp_path, extra, flag):
    res = run("score", "-p", records, "--stream", *[tmp_path / e if e.endswith(".html") else e for e in extra])
    assert res.exit_code == 2 and f"--stream keeps sums, not items: {flag}" in res.stderr


def test_items_out_needs_stream_and_a_new_file(records, tmp_path):
    res = run("score", "-p", records, "--items-out", tmp_path / "i.jsonl")
    assert res.exit_code == 2 and "add --stream" in res.stderr
    existing = tmp_path / "old.jsonl"
    existing.write_text("keep me\n", encoding="utf-8")
    res = run("score", "-p", records, "--stream", "--items-out", existing, "-q")
    assert res.exit_code == 2 and "exists" in res.stderr
    assert existing.read_text(encoding="utf-8") == "keep me\n"
    res = run("score", "-p", records, "--stream", "--items-out", records, "-q")
    assert res.exit_code == 2 and "--items-out must differ from the input file" in res.stderr


def test_bad_row_names_file_and_line(tmp_path):
    rows = [{"prediction": "今天天气很好", "references": ["今天天气不错"]} for _ in range(5)]
    rows[3]["references"] = []
    path = write_jsonl(tmp_path / "bad.jsonl", rows)
    res = run("score", "-p", path, "--stream", "-q")
    assert res.exit_code == 2 and "bad.jsonl:4" in res.stderr


@pytest.mark.parametrize("stream", [[], ["--stream"]])
def test_csv_rows_are_the_file_lines_with_and_without_stream(tmp_path, stream):
    """Issue 35: a lone CR is text in a CSV cell (4 lines, 4 items, whole file or streamed), and a stray '"' that
    would merge rows 2-4 into one cell is refused naming the line of the quote, not scored as 2 items."""
    good = tmp_path / "cr.csv"
    good.write_bytes("id,prediction,reference\n1,好的\r谢谢,好的谢谢\n2,不客气,不客气\n3,再见,再见\n4,你好,您好\n".encode())
    res = run("score", "-p", good, "-f", "json", "-q", *stream)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["groups"][0]["n"] == 4
    bad = tmp_path / "stray.csv"
    bad.write_bytes('id,prediction,reference\n1,"好的,好的\n2,不客气,不客气\n3,再见",再见\n4,你好,您好\n'.encode())
    res = run("score", "-p", bad, "-q", *stream)
    assert res.exit_code == 2 and f"{bad}:2: the quoted cell of column 'prediction' opens here and runs to line 4" \
        in res.stderr


@pytest.mark.parametrize("stream", [[], ["--stream"]])
def test_rows_with_a_cell_over_several_lines_are_counted_in_the_notes(tmp_path, stream):
    """Issue 35: a quoted cell over two lines has no line inside it to read as a row, so a stray '"' merging two
    rows cannot be told from a cell with a line break; the report counts such rows (5 lines, 3 rows here: lines 2-3
    and 5-6 are one row each) and names the first, in the table and the JSON."""
    f = tmp_path / "two.csv"
    f.write_bytes('id,prediction,reference\n1,"好的,好的\n2,不客气",不客气\n3,再见,再见\n4,"你\n好",您好\n'.encode())
    res = run("score", "-p", f, "-f", "json", "-q", "--bootstrap", 0, *stream)
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    assert rep["groups"][0]["n"] == 3
    assert [n for n in rep["notes"] if "over several lines" in n] == [
        f"2 row(s) hold a quoted cell over several lines (first at {f}:2): if every row should be one line, a stray "
        "\" at the start of a cell merged the lines after it into that cell"]
    assert "2 row(s) hold a quoted cell over several lines" in run("score", "-p", f, "-q", *stream).stdout


def test_items_out_parquet_of_a_group_that_turns_null_after_the_first_chunk(tmp_path):
    """Break-it F3: group 'a' in rows 0-9999 and null in rows 10000-19999 (two chunks of 10000) gave a raw pyarrow
    'Table schema does not match schema used to create file' dump; the file now holds every row, its group or null."""
    import pyarrow.parquet as pq

    rows = [{"id": f"r{i}", "prediction": "今天天气很好", "references": ["今天天气不错"], "g": "a" if i < 10000 else None}
            for i in range(20000)]
    path = write_jsonl(tmp_path / "rows.jsonl", rows)
    out = tmp_path / "o.parquet"
    res = run("score", "-p", path, "--group-field", "g", "--stream", "--items-out", out, "--metrics", "bleu",
              "--bootstrap", 0, "-q")
    assert res.exit_code == 0, res.output
    table = pq.read_table(out)
    assert table.column("group").to_pylist() == [["a"]] * 10000 + [[None]] * 10000
    assert table.column("id").to_pylist()[9999:10001] == ["r9999", "r10000"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.parquet", "rows.jsonl"]


@pytest.mark.parametrize("name", ["x.csv", "zz.parquet.gz", "y.json"])
def test_items_out_of_a_name_we_do_not_write_is_refused_before_scoring(records, tmp_path, name):
    """Break-it F7: x.csv, z.jsonl.gz and zz.parquet.gz were all written as plain JSON Lines."""
    res = run("score", "-p", records, "--stream", "--items-out", tmp_path / name, "-q")
    assert res.exit_code == 2, res.output
    assert f"--items-out {tmp_path / name}: the file name must end in .jsonl, .jsonl.gz, .parquet, .pq" in res.stderr
    assert not (tmp_path / name).exists() and not (tmp_path / f"{name}.partial").exists()


def test_items_out_jsonl_gz_is_gzipped(records, tmp_path):
    import gzip

    out = tmp_path / "z.jsonl.gz"
    res = run("score", "-p", records, "--stream", "--items-out", out, "--bootstrap", 0, "-q")
    assert res.exit_code == 0, res.output
    with gzip.open(out, "rt", encoding="utf-8") as f:
        first = json.loads(f.readline())
    assert first["index"] == 0 and first["id"] == "g0"


def test_stream_params_are_the_whole_file_params(records):
    """Break-it F11: --stream's params left out rouge_types, multi_ref and the BLEU/chrF options; they are the
    whole-file run's params, plus the two that are the stream's own (the Poisson method, the chunk size)."""
    args = ["score", "-p", records, "--metrics", "bleu,rouge,chrf", "--rouge-types", "rouge1,rougeLsum", "-f", "json",
            "-q", "--bootstrap", 0]
    whole = json.loads(run(*args).stdout)["params"]
    streamed = json.loads(run(*args, "--stream").stdout)["params"]
    assert {k: streamed.pop(k) for k in ("bootstrap_method", "chunk_rows")} == {"bootstrap_method": "poisson",
                                                                                 "chunk_rows": 10000}
    assert streamed == whole
    assert whole["rouge_types"] == ["rouge1", "rougeLsum"] and whole["multi_ref"] == "max"
    assert whole["chrf"]["char_order"] == 6 and whole["bleu"]["max_order"] == 4


def test_the_truncation_warning_of_stream_does_not_point_to_a_table_it_lacks(tmp_path):
    # 2 of 3 predictions stop without a final mark (2/3 = 67% > 5%; the references all end in 。): the whole-file report
    # shows the scores without them and says so; the streamed one keeps no such table and points to score for it
    f = write_jsonl(tmp_path / "cut.jsonl", [{"prediction": p, "reference": r} for p, r in
                                             [("好的，我知道", "好的，我知道了。"), ("明天下雨。", "明天会下雨。"),
                                              ("记得带伞", "记得带伞。")]])
    whole = json.loads(run("score", "-p", f, "-q", "-f", "json", "--bootstrap", 0).stdout)
    streamed = json.loads(run("score", "-p", f, "-q", "-f", "json", "--stream").stdout)
    cut = [[w for w in d["warnings"] if "do not end a sentence" in w] for d in (whole, streamed)]
    assert [len(c) for c in cut] == [1, 1] and cut[0][0].startswith("67% of predictions do not end a sentence")
    assert cut[0][0].endswith("the report shows the scores without them next to the scores on all items")
    assert "truncation_excluded" in whole["breakdowns"] and "truncation_excluded" not in streamed.get("breakdowns", {})
    assert cut[1][0].endswith("zheval score of these predictions (without --stream) shows the scores without them "
                              "next to the scores on all items"), cut[1]


def test_integer_ids_give_one_set_of_intervals_in_every_door(tmp_path, crosswoz_groups):
    """Issue 35: an id is keyed by its text form (the CLI's id rule: 7 is the id "7"). ``zheval score --stream``
    read integer ids as "7" and keyed the Poisson bootstrap by that text, while score_batches keyed integer ids
    as given (repr 7, not '7'): the same rows had two sets of intervals. Now score_batches with the integer ids,
    with their text and the CLI give the same intervals; the ids matter (other ids give other intervals)."""
    from zheval.compute.batches import score_batches

    rows = [{"id": 1000 + 7 * i, "prediction": r["responses"][0], "references": r["responses"][1:]}
            for i, r in enumerate(crosswoz_groups)]
    path = write_jsonl(tmp_path / "int_ids.jsonl", rows)
    res = run("score", "-p", path, "--stream", "--metrics", "bleu,rouge,chrf", "--bootstrap", "200", "--seed", "7",
              "-f", "json", "-q")
    assert res.exit_code == 0, res.output
    cli = json.loads(res.stdout)["groups"][0]["scores"]
    cli_bounds = [(cli[m]["low"], cli[m]["high"]) for m in ("bleu", "rougeL", "chrf")]
    preds, refs = [r["prediction"] for r in rows], [r["references"] for r in rows]

    def library(ids):
        out = score_batches([(preds[:40], refs[:40], None, ids[:40]), (preds[40:], refs[40:], None, ids[40:])],
                            ["bleu", "rouge", "chrf"], bootstrap=200, seed=7, bootstrap_method="poisson",
                            rouge_types=["rouge1", "rouge2", "rougeL"], progress=False)
        return [(out["bleu"]["bleu_ci_low"], out["bleu"]["bleu_ci_high"]),
                (out["rouge"]["rougeL_ci_low"], out["rouge"]["rougeL_ci_high"]),
                (out["chrf"]["chrf_ci_low"], out["chrf"]["chrf_ci_high"])]

    ints = [r["id"] for r in rows]
    assert library(ints) == cli_bounds
    assert library([str(i) for i in ints]) == cli_bounds
    assert library([f"x{i}" for i in ints]) != cli_bounds
