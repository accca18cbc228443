"""zheval.adapters.records_stream.score_records_stream (``zheval score --stream``): every score == the whole-file
report's (score_records) on the shared real data for any chunk size, groups and formats; the Poisson intervals
identical for any chunk size and equal to score_batches' on the same rows; the diversity == the whole-file report's;
bad rows, ids repeated across chunks and an id field that appears late named by file:line."""

from __future__ import annotations

import csv

import json

import pytest

from zheval.adapters.records import RecordsFormatError, score_records
from zheval.adapters.records_stream import score_records_stream, stream_records
from zheval.compute.batches import score_batches
from zheval.text.normalize import BLANK_SCORED


@pytest.fixture(scope="module")
def rows(csl_rows, crosswoz_single):
    out = [{"id": f"csl-{i}", "prediction": r["summary"], "reference": r["document"][:80], "src": "csl",
            "level": str(i % 3)} for i, r in enumerate(csl_rows[:250])]
    out += [{"id": f"cw-{i}", "prediction": r["query"], "reference": r["responses"], "src": "crosswoz",
             "level": None if i % 5 == 0 else str(i % 2)} for i, r in enumerate(crosswoz_single[:250])]
    return out


@pytest.fixture(scope="module")
def jsonl(rows, tmp_path_factory):
    path = tmp_path_factory.mktemp("stream") / "rows.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def _values(report) -> list:
    return [(g["dimension"], g["value"], g["n"], {m: v["value"] for m, v in g["scores"].items()})
            for g in report.to_dict()["groups"]]


@pytest.mark.parametrize("chunk_rows", [1, 37, 10_000])
@pytest.mark.parametrize("options", [
    dict(),
    dict(metrics=["bleu", "rouge", "chrf"], tokenizer="jieba", rouge_types=["rouge1", "rougeL", "rougeLsum"]),
])
def test_scores_equal_the_whole_file_report(jsonl, chunk_rows, options):
    kw = dict(pred_field="prediction", ref_field="reference", group_fields=["src", "level"], **options)
    whole = score_records(str(jsonl), bootstrap=0, **kw)
    streamed = score_records_stream(str(jsonl), bootstrap=0, chunk_rows=chunk_rows, progress=False, **kw)
    assert streamed.metrics == whole.metrics
    assert _values(streamed) == _values(whole)  # every group, every metric: ==
    assert streamed.signatures == whole.signatures
    assert streamed.breakdowns["diversity"] == whole.breakdowns["diversity"]  # overall and every group
    assert streamed.diagnostics == whole.diagnostics  # length ratio, truncation, empty predictions: their warnings
    assert [w for w in whole.warnings if w in whole.diagnostics.warnings] == streamed.diagnostics.warnings
    assert set(streamed.diagnostics.warnings) <= set(streamed.warnings)
    assert [(d["dimension"], d["value"]) for d in streamed.breakdowns["diversity"]][:3] == [
        ("overall", "all"), ("src", "crosswoz"), ("src", "csl")]
    details = streamed.overall().scores["bleu"].details
    assert details["precisions"] == whole.overall().scores["bleu"].details["precisions"]


def test_poisson_intervals_do_not_depend_on_chunks(jsonl, rows):
    kw = dict(pred_field="prediction", ref_field="reference", bootstrap=200, seed=7, progress=False)
    runs = [score_records_stream(str(jsonl), chunk_rows=c, **kw).to_dict()["groups"] for c in (3, 64, 10_000)]
    assert runs[0] == runs[1] == runs[2]
    # the same rows through score_batches (ids as Poisson keys, as the records door passes them)
    preds = [r["prediction"] for r in rows]
    refs = [r["reference"] if isinstance(r["reference"], list) else [r["reference"]] for r in rows]
    lib = score_batches([(preds, refs, None, [r["id"] for r in rows])], ["bleu", "rouge"], bootstrap=200, seed=7,
                        bootstrap_method="poisson", rouge_types=["rouge1", "rouge2", "rougeL"], progress=False)
    overall = runs[0][0]["scores"]
    assert (overall["bleu"]["low"], overall["bleu"]["high"]) == (lib["bleu"]["bleu_ci_low"],
                                                                 lib["bleu"]["bleu_ci_high"])
    assert (overall["rougeL"]["low"], overall["rougeL"]["high"]) == (lib["rouge"]["rougeL_ci_low"],
                                                                     lib["rouge"]["rougeL_ci_high"])
    assert "bsmethod:poisson" in score_records_stream(str(jsonl), chunk_rows=50, **kw).signatures["bleu"]


def test_without_ids_the_poisson_keys_are_the_content_not_the_line(rows, tmp_path):
    """A file without an id field: the streamed intervals == zheval.score(bootstrap_method="poisson") on the same
    items, whatever the format or a blank line before the rows (the keys are the items' content, not their lines)."""
    import zheval

    plain = [{k: v for k, v in r.items() if k != "id"} for r in rows[:300]]
    body = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in plain)
    one, two = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    one.write_text(body, encoding="utf-8")
    two.write_text("\n" + body, encoding="utf-8")  # every row one line later
    kw = dict(pred_field="prediction", ref_field="reference", bootstrap=200, seed=7, progress=False)
    got = [score_records_stream(str(p), chunk_rows=64, **kw).to_dict()["groups"][0]["scores"] for p in (one, two)]
    assert got[0] == got[1]
    lib = zheval.score([r["prediction"] for r in plain], [r["reference"] for r in plain], ["bleu", "rouge"],
                       bootstrap=200, seed=7, bootstrap_method="poisson", rouge_types=["rouge1", "rouge2", "rougeL"])
    assert (got[0]["rougeL"]["low"], got[0]["rougeL"]["high"]) == (lib["rouge"]["rougeL_ci_low"],
                                                                   lib["rouge"]["rougeL_ci_high"])
    assert (got[0]["bleu"]["low"], got[0]["bleu"]["high"]) == (lib["bleu"]["bleu_ci_low"],
                                                               lib["bleu"]["bleu_ci_high"])


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".parquet", ".jsonl.gz"])
def test_other_formats(rows, tmp_path, suffix):
    pytest.importorskip("pyarrow")
    import pandas as pd

    flat = [dict(r, reference=r["reference"] if isinstance(r["reference"], str) else r["reference"][0],
                 level=r["level"] or "") for r in rows[:120]]
    path = tmp_path / f"rows{suffix}"
    frame = pd.DataFrame(flat)
    if suffix == ".parquet":
        frame.to_parquet(path)
    elif suffix == ".jsonl.gz":
        frame.to_json(path, orient="records", lines=True, force_ascii=False, compression="gzip")
    else:
        # TSV without quoting: pandas' default quoting wrote 王岱舆的"天命三品"论 as "王岱舆的""天命三品""论", which a
        # TSV reader kept as text (issue 35; now refused, test_tsv_csv_quoting.py)
        frame.to_csv(path, index=False, sep="\t" if suffix == ".tsv" else ",",
                     quoting=csv.QUOTE_NONE if suffix == ".tsv" else csv.QUOTE_MINIMAL)
    kw = dict(pred_field="prediction", ref_field="reference", group_fields=["src"])
    assert _values(score_records_stream(str(path), bootstrap=0, chunk_rows=16, progress=False, **kw)) == \
        _values(score_records(str(path), bootstrap=0, **kw))



@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_a_null_second_reference_streams_as_the_whole_file(tmp_path, suffix):
    # a null of one of several reference fields: no reference there, noted (before: refused, "got null")
    import pandas as pd

    from zheval import compute_bleu

    rows = [{"id": str(i), "p": "今天天气很好" if i % 2 else "我喜欢猫", "gold1": "今天天气不错" if i % 2 else "我爱猫",
             "gold2": None if i % 3 == 0 else "天气很好"} for i in range(9)]
    path = tmp_path / f"rows{suffix}"
    frame = pd.DataFrame(rows)
    frame.to_parquet(path) if suffix == ".parquet" else frame.to_json(path, orient="records", lines=True,
                                                                      force_ascii=False)
    kw = dict(pred_field="p", ref_field=["gold1", "gold2"], metrics=["bleu"], bootstrap=0)
    streamed = score_records_stream(str(path), chunk_rows=4, progress=False, **kw)
    assert _values(streamed) == _values(score_records(str(path), **kw))
    want = compute_bleu([r["p"] for r in rows], [[r["gold1"]] + ([r["gold2"]] if r["gold2"] else []) for r in rows],
                        tokenizer="char")["bleu"]
    assert streamed.to_dict()["groups"][0]["scores"]["bleu"]["value"] == pytest.approx(want, abs=1e-12)
    assert "3 row(s) have an empty 'gold2' cell: no reference there (those rows are scored with the references they " \
           "have)" in streamed.notes

def _write(tmp_path, lines) -> str:
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    return str(path)


def test_bad_row_in_a_later_chunk_is_named(tmp_path):
    lines = [{"id": str(i), "prediction": "今天天气很好", "reference": "今天天气不错"} for i in range(10)]
    lines[7]["reference"] = 3
    path = _write(tmp_path, lines)
    with pytest.raises(RecordsFormatError, match=r"bad\.jsonl:8"):
        score_records_stream(path, chunk_rows=4, progress=False, bootstrap=0)


def test_id_repeated_across_chunks_names_both_lines(tmp_path):
    lines = [{"id": str(i), "prediction": "今天天气很好", "reference": "今天天气不错"} for i in range(10)]
    lines[9]["id"] = "2"
    path = _write(tmp_path, lines)
    with pytest.raises(RecordsFormatError, match=r"bad\.jsonl:10.*duplicate id \(first seen at .*bad\.jsonl:3\)"):
        list(stream_records(path, chunk_rows=4))


def test_ids_sharing_a_key_are_not_duplicates_and_a_repeat_is_read_back(tmp_path, monkeypatch):
    """The id check keeps 8-byte keys and no line: with every id forced onto two keys (a collision on every row),
    different ids are not reported, and a repeated id is named with the line of its first occurrence, read back from
    the file (JSONL, gzip JSONL, CSV; the line counted by hand: header + row)."""
    import gzip

    from zheval.adapters import records_stream

    monkeypatch.setattr(records_stream._SeenIds, "_key", staticmethod(lambda rid: len(rid) % 2))
    lines = [{"id": f"a{i}", "prediction": "今天天气很好", "reference": "今天天气不错"} for i in range(12)]
    path = _write(tmp_path, lines)
    assert sum(len(r) for r in stream_records(path, chunk_rows=4)) == 12
    lines[10]["id"] = "a3"
    gz = tmp_path / "bad.jsonl.gz"
    gz.write_bytes(gzip.compress("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines).encode("utf-8")))
    csv = tmp_path / "bad.csv"
    csv.write_text("id,prediction,reference\n" + "".join(f"{x['id']},{x['prediction']},{x['reference']}\n"
                                                           for x in lines), encoding="utf-8")
    for f, first, at in ((_write(tmp_path, lines), 4, 11), (str(gz), 4, 11), (str(csv), 5, 12)):
        with pytest.raises(RecordsFormatError) as err:
            list(stream_records(f, chunk_rows=4))
        assert [p.line for p in err.value.problems] == [at], f
        assert f"duplicate id (first seen at {f}:{first})" in str(err.value), (f, str(err.value))


def test_id_field_appearing_after_the_first_chunk(tmp_path):
    lines = [{"prediction": "今天天气很好", "reference": "今天天气不错"} for _ in range(6)]
    lines[5]["id"] = "x"
    path = _write(tmp_path, lines)
    with pytest.raises(RecordsFormatError, match=r"bad\.jsonl:6.*'id' field that the 4 rows before it lack"):
        list(stream_records(path, chunk_rows=4))
    # read whole, the same file is refused too (rows without the id field)
    with pytest.raises(RecordsFormatError):
        score_records(path)


def test_bleu_preset_of_the_report(jsonl):
    """The report's BLEU preset (sacrebleu-zh: a tokenizer, no number of its own) streams: == the whole file."""
    kw = dict(pred_field="prediction", ref_field="reference", metrics=["bleu"], preset="sacrebleu-zh", tokenizer=None)
    assert _values(score_records_stream(str(jsonl), bootstrap=0, chunk_rows=50, progress=False, **kw)) == \
        _values(score_records(str(jsonl), bootstrap=0, **kw))


def test_by_names_group_fields_only(jsonl):
    with pytest.raises(ValueError, match="group fields only"):
        score_records_stream(str(jsonl), pred_field="prediction", ref_field="reference", by=["src"], progress=False)


def test_items_written_as_computed(jsonl, tmp_path):
    out = tmp_path / "items.jsonl"
    score_records_stream(str(jsonl), pred_field="prediction", ref_field="reference", items_path=out, chunk_rows=64,
                         bootstrap=0, progress=False)
    got = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [g["index"] for g in got] == list(range(500))
    assert got[0]["id"] == "csl-0" and got[-1]["id"] == "cw-249"


def test_failed_run_leaves_no_items_file(tmp_path):
    lines = [{"id": str(i), "prediction": "今天天气很好", "reference": "今天天气不错"} for i in range(30)]
    lines[25]["reference"] = []
    path = _write(tmp_path, lines)
    out = tmp_path / "items.jsonl"
    with pytest.raises(RecordsFormatError, match=r"bad\.jsonl:26"):
        score_records_stream(path, chunk_rows=10, progress=False, bootstrap=0, items_path=out)
    assert not out.exists() and not (tmp_path / "items.jsonl.partial").exists()
    ok = _write(tmp_path, lines[:20])
    score_records_stream(ok, chunk_rows=10, progress=False, bootstrap=0, items_path=out)  # then the same path works
    assert len(out.read_text(encoding="utf-8").splitlines()) == 20


def test_truncated_gzip_is_one_clear_problem(tmp_path):
    import gzip

    data = gzip.compress("".join(json.dumps({"prediction": f"今天天气很好{i}", "reference": "今天天气不错"},
                                            ensure_ascii=False) + "\n" for i in range(20000)).encode("utf-8"))
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(RecordsFormatError, match=r"cut\.jsonl\.gz:\d+: is gzip-compressed but cannot be decompressed "
                                                 r"after line \d+ .*truncated or corrupt"):
        score_records_stream(str(path), chunk_rows=1000, progress=False, bootstrap=0)


def test_syntax_and_field_problems_of_a_chunk_together(tmp_path):
    path = tmp_path / "bad.jsonl"
    rows = [json.dumps({"prediction": "今天天气很好", "reference": "今天天气不错"}, ensure_ascii=False)] * 8
    rows[2] = '{"prediction": "x", "reference": '  # malformed JSON
    rows[5] = json.dumps({"prediction": 3, "reference": "今天"})  # a field problem in the same chunk
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(RecordsFormatError) as err:
        list(stream_records(str(path), chunk_rows=100))
    assert [p.line for p in err.value.problems] == [3, 6]


def test_unscorable_reference_named_by_line_id_and_field(tmp_path):
    lines = [{"qid": f"q{i}", "model_output": "今天天气很好", "gold": ["今天天气不错", "好"]} for i in range(12)]
    lines[10]["gold"] = ["今天天气不错", "。！"]  # no tokens once punctuation is dropped
    path = _write(tmp_path, lines)
    with pytest.raises(RecordsFormatError, match=r"bad\.jsonl:11: id 'q10': gold\[1\] is empty"):
        score_records_stream(path, pred_field="model_output", ref_field="gold", id_field="qid", punct="drop",
                             chunk_rows=5, progress=False, bootstrap=0)


def test_id_of_an_earlier_chunk_reported_with_the_chunk_s_other_problems(tmp_path):
    lines = [{"id": str(i), "prediction": "今天天气很好", "reference": "今天天气不错"} for i in range(10)]
    lines[6]["reference"] = []  # a field problem in the second chunk ...
    lines[8]["id"] = "1"  # ... and an id of the first chunk in it
    path = _write(tmp_path, lines)
    with pytest.raises(RecordsFormatError) as err:
        list(stream_records(path, chunk_rows=5))
    assert [p.line for p in err.value.problems] == [7, 9]
    assert "duplicate id (first seen at" in str(err.value) and "bad.jsonl:2)" in str(err.value)


def test_empty_predictions_warned_as_in_the_whole_file_report(tmp_path):
    """Two empty predictions (one unquoted, one ""): the streamed report warns and counts them as the whole file's."""
    path = tmp_path / "n2.csv"
    path.write_text('id,prediction,reference\n1,,今天天气不错\n3,"",好的\n', encoding="utf-8")
    kw = dict(pred_field="prediction", ref_field="reference", bootstrap=0)
    streamed = score_records_stream(str(path), progress=False, **kw)
    assert f"2 empty prediction(s) ({BLANK_SCORED})" in streamed.warnings
    assert streamed.diagnostics.empty_ids == ["1", "3"]
    assert streamed.to_dict()["diagnostics"] == score_records(str(path), **kw).to_dict()["diagnostics"]


@pytest.mark.parametrize("chunk_rows", [1, 2, 100])
def test_most_repeated_is_shown_as_the_model_wrote_it(tmp_path, chunk_rows):
    """'好的！' and '好的!' normalise alike (NFKC) and count as one text; the report shows its first occurrence as
    written ('好的！'), not the normalised form, whole-file and streamed (read back when an earlier chunk held it
    once), overall and per group."""
    preds = ["好的！", "再见", "谢谢", "好的!", "好的!", "谢谢", "再见"]
    groups = ["a", "b", "b", "b", "a", "a", "b"]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps({"prediction": p, "reference": "好的。", "g": g}, ensure_ascii=False) + "\n"
                            for p, g in zip(preds, groups)), encoding="utf-8")
    kw = dict(pred_field="prediction", ref_field="reference", group_fields=["g"], bootstrap=0)
    whole = score_records(str(path), **kw)
    streamed = score_records_stream(str(path), chunk_rows=chunk_rows, progress=False, **kw)
    rep = {(d["dimension"], d["value"]): d["repetition"] for d in whole.breakdowns["diversity"]}
    assert rep[("overall", "all")]["most_frequent"] == "好的！" and rep[("overall", "all")]["most_frequent_count"] == 3
    assert rep[("g", "a")]["most_frequent"] == "好的！"  # group a: 好的！, 好的!, 谢谢
    assert rep[("g", "b")]["most_frequent"] == "再见"  # group b: 再见 x2 first, then 好的! once
    assert streamed.breakdowns["diversity"] == whole.breakdowns["diversity"]


@pytest.mark.parametrize("tokenizer", ["none", "sacrebleu-zh", "llamafactory-char"])
def test_every_tokenizer_of_the_report_streams_as_the_whole_file(jsonl, tokenizer):
    """The report's other tokenizers (char and jieba: above): every score == the whole-file report's."""
    import warnings

    kw = dict(pred_field="prediction", ref_field="reference", group_fields=["src"], bootstrap=0,
              metrics=["bleu", "rouge", "chrf"], tokenizer=tokenizer)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tokenizer="none" on unsegmented Chinese warns, in both
        whole = score_records(str(jsonl), **kw)
        streamed = score_records_stream(str(jsonl), chunk_rows=37, progress=False, **kw)
    assert _values(streamed) == _values(whole) and streamed.signatures == whole.signatures


def _report_presets():
    from zheval.presets import find_preset, preset_names

    for metric in ("rouge", "bleu"):
        for name in preset_names(metric, door="report"):
            yield metric, name, find_preset(name).part(metric).number_scale is not None


@pytest.mark.parametrize("metric, preset, own_numbers", list(_report_presets()))
def test_every_preset_of_the_report_streams_or_is_refused_naming_why(jsonl, metric, preset, own_numbers):
    """A preset without numbers of its own streams (== the whole file); one that adds the tool's own numbers (their
    float sums follow the tool's order over every item) is refused before any row is read, naming the alternative."""
    kw = dict(pred_field="prediction", ref_field="reference", bootstrap=0, metrics=[metric], preset=preset,
              tokenizer=None)
    if own_numbers:
        with pytest.raises(ValueError, match=rf"keeps sums, not items: preset='{preset}'.*zheval.score"):
            score_records_stream(str(jsonl), chunk_rows=37, progress=False, **kw)
    else:
        assert _values(score_records_stream(str(jsonl), chunk_rows=37, progress=False, **kw)) == \
            _values(score_records(str(jsonl), **kw))
