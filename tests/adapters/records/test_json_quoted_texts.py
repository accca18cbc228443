"""Break-it (JSON quotes): texts JSON-encoded twice WITH ``ensure_ascii=False`` — ``"prediction": "\\"猫坐在垫子上\\""``,
quotes and no escape — were scored with their quotes without a word at the records door (only literals with an
escape were counted). The rule of `zheval.io.json_strings`: a field's JSON string literals without an escape are
counted when they are at least two and at least half of its texts; one `JsonStringWarning` per file (count, rows,
first FILE:line and field, each field's share), JSONL and CSV, whole file and ``--stream``, the CLI and the library.
A quoted answer among raw ones is not counted. Scored as written: ROUGE-1 is rouge-score's on the quoted texts
(character tokens), computed here."""

from __future__ import annotations

import csv
import json
import warnings

import pytest

from zheval.adapters.records import read_records

from tests.helpers.cli import run_cli

PREDS = ["猫坐在垫子上", "今天天气很好", "我喜欢吃苹果", "明天会下雨吗"]
REFS = ["猫趴在垫子上面", "今天天气不错", "我爱吃苹果", "明天下雨吗"]
QUOTED = [json.dumps(p, ensure_ascii=False) for p in PREDS]  # '"猫坐在垫子上"': no escape


def _rouge1(preds, refs) -> float:
    """Mean ROUGE-1 F of rouge-score on character tokens (every character one token, ``"`` too)."""
    from rouge_score import rouge_scorer

    class Chars:
        def tokenize(self, text):
            return list(text)

    scorer = rouge_scorer.RougeScorer(["rouge1"], tokenizer=Chars())
    return sum(scorer.score(r, p)["rouge1"].fmeasure for p, r in zip(preds, refs)) / len(preds)


def _write(path, preds, refs):
    """The rows ``{"prediction", "label"}`` as a JSONL or CSV file (by ``path``'s suffix); the header line of a CSV
    is line 1."""
    if path.suffix == ".csv":
        with open(path, "w", encoding="utf-8", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["prediction", "label"])
            w.writerows(zip(preds, refs))
    else:
        path.write_text("".join(json.dumps({"prediction": p, "label": r}, ensure_ascii=False) + "\n"
                                for p, r in zip(preds, refs)), encoding="utf-8")
    return path


def _said(caught) -> list:
    return [str(w.message) for w in caught if w.category.__name__ == "JsonStringWarning"]


@pytest.mark.parametrize("kind", ["jsonl", "csv"])
def test_predictions_in_quotes_are_said_once_and_scored_as_written(tmp_path, kind):
    f = _write(tmp_path / f"generated_predictions.{kind}", QUOTED, REFS)
    first = 2 if kind == "csv" else 1
    want = (f"{f}: 4 text(s) in 4 row(s) are themselves JSON string literals (\"...\"), none with escapes (first at "
            f"{f}:{first}, 'prediction'; json.dumps applied twice? literals: 'prediction' 4 of 4 texts)")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        records = read_records(f)
    said = _said(caught)
    assert len(said) == 1 and said[0].startswith(want), said
    assert records.predictions == QUOTED  # as written
    written, meant = _rouge1(QUOTED, REFS), _rouge1(PREDS, REFS)
    assert written < meant - 0.05  # the quotes cost (two tokens more each)
    for stream in ([], ["--stream"]):
        res = run_cli("score", "-p", f, "--bootstrap", "0", "-f", "json", "--metrics", "rouge", *stream)
        assert res.exit_code == 0, res.output
        out = json.loads(res.stdout)
        said = [w for w in out["warnings"] if "JSON string literals" in w]
        assert len(said) == 1 and said[0].startswith(want), (stream, said)
        assert out["groups"][0]["scores"]["rouge1"]["value"] == pytest.approx(written, abs=1e-12)


@pytest.mark.parametrize("kind", ["jsonl", "csv"])
def test_every_field_is_counted_on_its_own(tmp_path, kind):
    """References in quotes too: both fields counted, each with its share; a field with one quoted text among raw
    ones (a quoted answer) is not counted, and neither is a file with one."""
    refs = [json.dumps(r, ensure_ascii=False) for r in REFS[:3]] + [REFS[3]]
    preds = [QUOTED[0]] + PREDS[1:]
    f = _write(tmp_path / f"both.{kind}", preds, refs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read_records(f)
    said = _said(caught)
    first = 2 if kind == "csv" else 1
    assert len(said) == 1 and said[0].startswith(
        f"{f}: 3 text(s) in 3 row(s) are themselves JSON string literals (\"...\"), none with escapes (first at "
        f"{f}:{first}, 'label'; json.dumps applied twice? literals: 'label' 3 of 4 texts)"), said
    f = _write(tmp_path / f"one.{kind}", preds, REFS)  # one answer in quotes: speech, not JSON
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert read_records(f).predictions == preds
    res = run_cli("score", "-p", f, "--bootstrap", "0", "-f", "json", "--metrics", "rouge", "--stream")
    assert res.exit_code == 0 and not [w for w in json.loads(res.stdout)["warnings"] if "JSON string" in w]


def test_a_stream_counts_the_whole_file(tmp_path):
    """The share is the whole file's, not a chunk's: the texts in quotes are all in the first chunks (half of the
    rows), and a library stream of 100-row chunks says them once, as the whole file is read."""
    from zheval.adapters.records_stream import stream_records

    n = 600
    preds = [QUOTED[k % 4] if k < n // 2 else PREDS[k % 4] for k in range(n)]
    f = _write(tmp_path / "half.jsonl", preds, [REFS[k % 4] for k in range(n)])
    want = (f"{f}: 300 text(s) in 300 row(s) are themselves JSON string literals (\"...\"), none with escapes "
            f"(first at {f}:1, 'prediction'; json.dumps applied twice? literals: 'prediction' 300 of 600 texts)")
    for read in (lambda: [read_records(f)], lambda: list(stream_records(f, chunk_rows=100))):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            chunks = read()
        said = _said(caught)
        assert len(said) == 1 and said[0].startswith(want), said
        assert [p for c in chunks for p in c.predictions] == preds
    f = _write(tmp_path / "fewer.jsonl", preds[:299] + PREDS * 75 + [PREDS[0]], [REFS[0]] * n)  # 299 of 600
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        list(stream_records(f, chunk_rows=100))
