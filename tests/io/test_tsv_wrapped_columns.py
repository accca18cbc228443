"""A TSV whose every cell of a column is wrapped in ``"…"``, or whose header names are (pandas'
``to_csv(sep="\\t", quoting=csv.QUOTE_ALL)``), is refused as written with CSV quoting, naming file:line, by the
whole-file reader and the streaming one (break-it pass 19: the quotes were scored as text, BLEU 0.687 for 72.25).
A few quoted texts in a column (quoted speech, a text that is ``"好"``) stay text and are scored as they are."""

from __future__ import annotations

import csv
import json

import pytest

from tests.helpers.cli import run_cli
from zheval.io import FileFormatError, read_rows

from helpers.tsv_readers import refused_by_both

PDQ2 = ('id\tprediction\treference\n1\t"他说你好"\t"他说你好"\n2\t"我们去公园"\t"我们去公园玩吧"\n'
        '3\t"猫睡觉"\t"猫在睡觉"\n')


def test_the_break_it_file_is_refused_at_its_first_row(tmp_path):
    path = tmp_path / "pdq2.tsv"
    path.write_text(PDQ2, encoding="utf-8")
    problems = refused_by_both(path)
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{path}:2: every cell of column(s) 'prediction', 'reference' is wrapped in quotes, "
                                  "on all 3 rows (here: '\"他说你好\"'): a TSV written with CSV quoting")
    assert "write the TSV without quoting (pandas: quoting=csv.QUOTE_NONE)" in problems[0]
    with pytest.raises(FileFormatError, match="written with CSV quoting"):  # the ratings / review-sheet reading
        read_rows(path, what="judge ratings", numbers=True)
    for how in (("--items",), ("--stream",)):
        res = run_cli("score", "-p", path, "--preset", "sacrebleu-zh", "--metrics", "bleu", "--bootstrap", "0", *how)
        assert res.exit_code != 0 and "0.687" not in res.stdout, res.output
        assert f"{path}:2: every cell of column(s)" in res.output and "written with CSV quoting" in res.output


def test_pandas_quote_all_is_refused_at_the_header_naming_quoting(tmp_path):
    pd = pytest.importorskip("pandas")
    path = tmp_path / "all.tsv"
    pd.DataFrame({"id": ["1", "2"], "prediction": ["他说你好", "猫睡觉"], "reference": ["他说你好", "猫在睡觉"]}).to_csv(
        path, sep="\t", index=False, quoting=csv.QUOTE_ALL)
    assert path.read_text(encoding="utf-8").splitlines()[0] == '"id"\t"prediction"\t"reference"'  # pandas' own
    problems = refused_by_both(path)
    assert problems == [f"{path}:1: the header's name(s) \"id\", \"prediction\", \"reference\" are wrapped in quotes: "
                        "a TSV written with CSV quoting (pandas' to_csv(sep='\\t', quoting=csv.QUOTE_ALL), a "
                        "spreadsheet)? TSV is read without quoting (a \" is text), so the quotes would stay in the "
                        "text; save the file as CSV (.csv) or JSON Lines, or write the TSV without quoting (pandas: "
                        "quoting=csv.QUOTE_NONE)"]
    res = run_cli("score", "-p", path, "--pred-field", '"prediction"', "--ref-field", '"reference"', "--metrics",
                  "bleu", "--bootstrap", "0")
    assert res.exit_code != 0 and "written with CSV quoting" in res.output, res.output
    frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)  # the advice: written without quoting
    frame.to_csv(path, sep="\t", index=False, quoting=csv.QUOTE_NONE)
    assert [r["prediction"] for _, r in read_rows(path).rows] == ["他说你好", "猫睡觉"]


def test_a_column_wrapped_on_one_row_only_is_one_row_too_few(tmp_path):
    path = tmp_path / "one.tsv"
    path.write_text('id\tprediction\n1\t"好"\n', encoding="utf-8")
    assert read_rows(path).rows == [(2, {"id": "1", "prediction": '"好"'})]
    path.write_text('id\tprediction\n1\t"好"\n2\t"好"\n', encoding="utf-8")
    assert refused_by_both(path)[0].startswith(f"{path}:2: every cell of column(s) 'prediction' is wrapped in quotes, on all "
                                        "2 rows")


def test_a_few_quoted_texts_are_scored_as_they_are(tmp_path):
    sacrebleu = pytest.importorskip("sacrebleu")
    preds = ['"你好"他说', "我们去公园", '"好"', "猫在睡觉"]
    refs = ["他说你好", "我们去公园玩吧", '"好"', '"猫在睡觉"']
    path = tmp_path / "speech.tsv"
    path.write_text("id\tprediction\treference\n" + "".join(f"{k}\t{p}\t{r}\n" for k, (p, r) in
                                                            enumerate(zip(preds, refs))), encoding="utf-8")
    assert [(r["prediction"], r["reference"]) for _, r in read_rows(path).rows] == list(zip(preds, refs))
    want = sacrebleu.corpus_bleu(preds, [refs], tokenize="zh").score / 100
    for stream in ((), ("--stream",)):
        res = run_cli("score", "-p", path, "--preset", "sacrebleu-zh", "--metrics", "bleu", "--bootstrap", "0",
                      "-f", "json", *stream)
        assert res.exit_code == 0, res.output
        got = json.loads(res.stdout)["groups"][0]["scores"]["bleu"]["value"]
        assert got == pytest.approx(want, abs=1e-9)
