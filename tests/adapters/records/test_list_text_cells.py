"""A reference written as a list in text (pandas' ``to_csv`` of a list cell, a JSON-encoded list in a JSONL string, a
Parquet string holding a list's repr) is scored as written, one text with its brackets and quotes (SFT/NER answers
stored as ``['北京', '上海']``, a model answering in that form), never silently: one `ListTextWarning` per file read
with the count of references and rows, the first FILE:line and field, and the remedy, whole file and ``--stream``
(main scored them without a word). Predictions are never checked; ``[图片]`` is a text. The numbers are checked
against rouge-score and sacrebleu on the literal texts, and the remedy's against ``score_multi``."""

from __future__ import annotations

import json
import re
import warnings

import pytest

from zheval.adapters.records import read_records, score_records
from zheval.adapters.records_stream import score_records_stream, stream_records

from tests.helpers.cli import run_cli

pd = pytest.importorskip("pandas")

PREDS = ["猫坐在垫子上", "今天天气很好", "我喜欢吃苹果"]
REFS = [["猫趴在垫子上面", "猫在垫子上"], ["今天天气不错", "天气很好"], ["我爱吃苹果", "我喜欢苹果"]]


def _chars(text: str) -> list:
    """zheval's ``char`` tokens of these texts: one token per character, spaces dropped (brackets, quotes and
    commas are tokens of their own)."""
    return [c for c in text if not c.isspace()]


def _oracle_rouge1(preds, refs) -> float:
    """Mean ROUGE-1 F of rouge-score, the best reference of each item (``score_multi``), on character tokens."""
    from rouge_score import rouge_scorer

    class Chars:
        def tokenize(self, text):
            return _chars(text)

    scorer = rouge_scorer.RougeScorer(["rouge1"], tokenizer=Chars())
    return sum(scorer.score_multi(r, p)["rouge1"].fmeasure for p, r in zip(preds, refs)) / len(preds)


def _oracle_bleu(preds, refs) -> float:
    """sacrebleu's corpus BLEU (its defaults: exp smoothing, closest reference length) on the same tokens."""
    sacrebleu = pytest.importorskip("sacrebleu")
    spaced = lambda t: " ".join(_chars(t))  # noqa: E731
    return sacrebleu.corpus_bleu([spaced(p) for p in preds], [[spaced(r[k]) for r in refs] for k in range(len(refs[0]))],
                                 tokenize="none").score / 100


def _listed(caught) -> list:
    return [str(w.message) for w in caught if w.category.__name__ == "ListTextWarning"]


def _read(path, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        records = read_records(path, **kw)
    return records, _listed(caught)


def _scores(report) -> dict:
    return {k: v["value"] for k, v in report.to_dict()["groups"][0]["scores"].items()}


def test_pandas_to_csv_list_cells_score_as_their_text_with_one_warning(tmp_path):
    f = tmp_path / "pd.csv"
    pd.DataFrame({"prediction": PREDS, "references": REFS}).to_csv(f, index=False)
    literal = [str(r) for r in REFS]
    assert f"\"{literal[0]}\"" in f.read_text(encoding="utf-8")  # pandas' repr of the list
    records, said = _read(f)
    assert records.references == [[t] for t in literal]  # one text each, as written
    assert said == [f"{f}: 3 reference(s) in 3 row(s) are a list written as text (first at {f}:2, 'references'): "
                    "each is scored as ONE text, brackets and quotes included; if they are meant as several "
                    "references, pandas' to_csv writes a list cell as its repr: write the lists as JSONL or Parquet "
                    "arrays, or one column per reference (ref_field=[\"ref1\", \"ref2\"])"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rep = score_records(f, metrics=["bleu", "rouge"], rouge_types=["rouge1"], bootstrap=0)
    assert len(_listed(caught)) == 1
    got = _scores(rep)
    as_text = [[t] for t in literal]
    assert got["rouge1"] == pytest.approx(_oracle_rouge1(PREDS, as_text), abs=1e-12)
    assert got["bleu"] == pytest.approx(_oracle_bleu(PREDS, as_text), abs=1e-9)
    assert got["rouge1"] != pytest.approx(_oracle_rouge1(PREDS, REFS), abs=1e-3)  # not the list's references


def test_the_cli_says_it_once_in_the_json_report_and_on_the_terminal(tmp_path):
    f = tmp_path / "pd.tsv"
    pd.DataFrame({"prediction": PREDS, "references": REFS}).to_csv(f, sep="\t", index=False)
    for stream in ([], ["--stream"]):
        res = run_cli("score", "-p", f, "--bootstrap", "0", "-f", "json", *stream)
        assert res.exit_code == 0, res.output
        said = [w for w in json.loads(res.stdout)["warnings"] if "list written as text" in w]
        assert said == [f"{f}: 3 reference(s) in 3 row(s) are a list written as text (first at {f}:2, 'references'): "
                        "each is scored as ONE text, brackets and quotes included; if they are meant as several "
                        "references, pandas' to_csv writes a list cell as its repr: write the lists as JSONL or "
                        "Parquet arrays, or one column per reference (--ref-field ref1 --ref-field ref2)"]
        assert "list written as text" not in res.stderr
        res = run_cli("score", "-p", f, "--bootstrap", "0", *stream)
        assert res.exit_code == 0 and res.output.count("list written as text") == 1, res.output


def test_the_remedy_it_says_scores_as_score_multi(tmp_path):
    f = tmp_path / "pd.csv"
    pd.DataFrame({"prediction": PREDS, "references": REFS}).to_csv(f, index=False)
    res = run_cli("score", "-p", f, "--bootstrap", "0", "-f", "json")
    remedy = re.search(r"--ref-field (\w+) --ref-field (\w+)", " ".join(json.loads(res.stdout)["warnings"]))
    g = tmp_path / "cols.csv"
    pd.DataFrame({"prediction": PREDS, remedy[1]: [r[0] for r in REFS], remedy[2]: [r[1] for r in REFS]}).to_csv(
        g, index=False)
    res = run_cli("score", "-p", g, *remedy[0].split(), "--bootstrap", "0", "--metrics", "bleu,rouge",
                  "--rouge-types", "rouge1", "-f", "json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert not [w for w in out["warnings"] if "list written as text" in w]
    scores = out["groups"][0]["scores"]
    assert scores["rouge1"]["value"] == pytest.approx(_oracle_rouge1(PREDS, REFS), abs=1e-12)
    assert scores["bleu"]["value"] == pytest.approx(_oracle_bleu(PREDS, REFS), abs=1e-9)


def test_a_jsonl_string_holding_a_json_list_is_counted_beside_real_lists(tmp_path):
    f = tmp_path / "enc.jsonl"
    rows = [{"prediction": p, "references": r} for p, r in zip(PREDS, REFS)]
    rows[1]["references"] = json.dumps(REFS[1], ensure_ascii=False)  # a string
    rows[2]["references"] = ["我爱吃苹果", "['我喜欢苹果', '我爱苹果']"]  # one entry of a real list
    f.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    records, said = _read(f)
    assert records.references[1] == [rows[1]["references"]] and records.references[2] == rows[2]["references"]
    assert len(said) == 1 and said[0].startswith(
        f"{f}: 2 reference(s) in 2 row(s) are a list written as text (first at {f}:2, 'references'): ")


def test_parquet_string_column_holding_a_list_repr_warns(tmp_path):
    pytest.importorskip("pyarrow")
    f = tmp_path / "repr.parquet"
    pd.DataFrame({"prediction": PREDS, "references": [str(r) for r in REFS]}).to_parquet(f)
    _, said = _read(f)
    assert len(said) == 1 and said[0].startswith(f"{f}: 3 reference(s) in 3 row(s) are a list written as text "
                                                 f"(first at {f}:1, 'references'): ")


def test_predictions_looking_like_lists_are_never_checked_and_bracketed_texts_are_texts(tmp_path):
    bracketed = ["[图片]", "[1]", "[注释] 见上", "[1, 2]", "[[\"a\"]]", "[图片][图片]", "[\"猫\"] 在垫子上"]
    f = tmp_path / "b.csv"
    preds = [json.dumps(["猫"]), str(["猫", "狗"])] + bracketed[:-1]
    refs = bracketed[:1] + ["['猫在垫子上']"] + bracketed[1:]  # one list, on line 3, among bracketed texts
    pd.DataFrame({"prediction": preds, "ref_a": refs, "ref_b": ["猫"] * len(refs)}).to_csv(f, index=False)
    records, said = _read(f, ref_field=["ref_a", "ref_b"])
    assert records.predictions == preds and [r[0] for r in records.references] == refs
    assert len(said) == 1 and said[0].startswith(
        f"{f}: 1 reference(s) in 1 row(s) are a list written as text (first at {f}:3, 'ref_a'): ")


def test_stream_counts_every_chunk_and_warns_once(tmp_path):
    f = tmp_path / "s.jsonl"
    rows = [{"id": f"q{i}", "prediction": p, "references": r} for i, (p, r) in enumerate(zip(PREDS, REFS))]
    rows[0]["references"] = str(REFS[0])
    rows[2]["references"] = [str(REFS[2]), "我爱苹果", json.dumps(["苹果"], ensure_ascii=False)]
    f.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chunks = list(stream_records(f, chunk_rows=1))
        assert len(chunks) == 3
        rep = score_records_stream(f, chunk_rows=1, metrics=["rouge"], rouge_types=["rouge1"], bootstrap=0)
    said = _listed(caught)
    assert len(said) == 2 and said[0] == said[1]  # one per reading of the file
    assert said[0].startswith(f"{f}: 3 reference(s) in 2 row(s) are a list written as text (first at {f}:1, "
                              "'references'): ")
    with pytest.warns(UserWarning, match="3 reference"):
        whole = score_records(f, metrics=["rouge"], rouge_types=["rouge1"], bootstrap=0)
    assert _scores(rep)["rouge1"] == _scores(whole)["rouge1"]


def test_the_warning_is_a_zheval_warning_that_can_be_filtered(tmp_path):
    from zheval import ZhevalWarning
    from zheval.adapters.list_texts import ListTextWarning

    assert issubclass(ListTextWarning, ZhevalWarning)
    f = tmp_path / "pd.csv"
    pd.DataFrame({"prediction": PREDS, "references": REFS}).to_csv(f, index=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", ZhevalWarning)
        read_records(f)
    assert caught == []


# reference cells over several lines (`zheval.io.line_break`): several references one per line in one cell (a
# spreadsheet's habit, zheval sample's sheet) were scored as ONE reference without a word (break-it: BLEU 0.005
# instead of 0.328, "1 refs"); still scored as written, now said once per file read, like a list written as text


def _breaks(caught) -> list:
    return [str(w.message) for w in caught if w.category.__name__ == "LineBreakWarning"]


def _sacrebleu_zh(preds, refs) -> float:
    """sacrebleu's corpus BLEU, ``tokenize='zh'``, one reference stream per position of ``refs``' rows."""
    sacrebleu = pytest.importorskip("sacrebleu")
    return sacrebleu.corpus_bleu(preds, [[r[k] for r in refs] for k in range(len(refs[0]))], tokenize="zh").score / 100


BREAK_SAID = ("{f}: 3 reference cell(s) in 3 row(s) hold a line break (first at {f}:2, 'references'): each cell is "
              "scored as ONE reference, its lines included; if each line is meant as a reference of its own, write "
              "each row's references as a list (a JSONL or Parquet array: [\"ref1\", \"ref2\"]), or one column per "
              "reference ({remedy})")


def test_references_one_per_line_in_a_cell_score_as_one_reference_with_one_warning(tmp_path):
    f = tmp_path / "lines.csv"
    pd.DataFrame({"prediction": PREDS, "references": ["\n".join(r) for r in REFS]}).to_csv(f, index=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        records = read_records(f)
        rep = score_records(f, metrics=["bleu"], bootstrap=0)
    assert records.references == [["\n".join(r)] for r in REFS]  # never split
    assert _breaks(caught) == [BREAK_SAID.format(f=f, remedy="ref_field=[\"ref1\", \"ref2\"]")] * 2  # one per read
    assert _scores(rep)["bleu"] == pytest.approx(_sacrebleu_zh(PREDS, [["\n".join(r)] for r in REFS]), abs=1e-9)
    assert _sacrebleu_zh(PREDS, [["\n".join(r)] for r in REFS]) == pytest.approx(0.29408906414241127, abs=1e-12)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rep = score_records_stream(f, chunk_rows=1, metrics=["bleu"], bootstrap=0)
    assert _breaks(caught) == [BREAK_SAID.format(f=f, remedy="ref_field=[\"ref1\", \"ref2\"]")]
    assert _scores(rep)["bleu"] == pytest.approx(0.29408906414241127, abs=1e-9)


def test_the_cli_says_the_line_breaks_once_in_the_json_report_and_on_the_terminal(tmp_path):
    f = tmp_path / "lines.csv"
    pd.DataFrame({"prediction": PREDS, "references": ["\n".join(r) for r in REFS]}).to_csv(f, index=False)
    said = BREAK_SAID.format(f=f, remedy="--ref-field ref1 --ref-field ref2")
    for stream in ([], ["--stream"]):
        res = run_cli("score", "-p", f, "--bootstrap", "0", "--metrics", "bleu", "-f", "json", *stream)
        assert res.exit_code == 0, res.output
        out = json.loads(res.stdout)
        assert [w for w in out["warnings"] if "line break" in w] == [said]
        assert out["groups"][0]["scores"]["bleu"]["value"] == pytest.approx(0.29408906414241127, abs=1e-9)
        res = run_cli("score", "-p", f, "--bootstrap", "0", *stream)
        assert res.exit_code == 0 and res.output.count("hold a line break") == 1, res.output


@pytest.mark.parametrize("brk", ["\n", "\r\n", "\r", "\x85", "\u2028", "\u2029"])
def test_every_line_break_counts_in_string_cells_only_never_in_lists_or_predictions(tmp_path, brk):
    f = tmp_path / "kinds.jsonl"
    rows = [{"prediction": f"第一行{brk}第二行", "ref_a": [f"参{brk}考", "另一条"], "ref_b": "猫"},  # a list's entries
            {"prediction": "猫", "ref_a": f"猫{brk}狗", "ref_b": "猫"},  # are references by its structure; a
            {"prediction": "猫", "ref_a": "猫", "ref_b": f"狗{brk}猫"},  # prediction is an answer
            {"prediction": "猫", "ref_a": f"猫{brk}", "ref_b": f"{brk}狗"}]
    f.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    g = tmp_path / "answers.jsonl"  # predictions over several lines only: nothing said
    g.write_text(json.dumps({"prediction": f"第一行{brk}第二行", "references": "第一行"}) + "\n", encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        records = read_records(f, ref_field=["ref_a", "ref_b"])
        read_records(g)
    said = _breaks(caught)
    assert len(said) == 1 and said[0].startswith(
        f"{f}: 4 reference cell(s) in 3 row(s) hold a line break (first at {f}:2, 'ref_a'): "), said
    assert records.references[3] == [f"猫{brk}", f"{brk}狗"]  # as written
