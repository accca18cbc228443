"""A list written as text in a records field (pandas' ``to_csv`` of a list cell, a JSON-encoded list in JSONL, a
Parquet string column holding a list's repr) is refused naming FILE:line, the field and the remedy, never scored as
one text with its brackets and quotes (as main did: one reference instead of two, a wrong number). ``[图片]``, ``[1]`` stay texts. The
numbers of the remedy's reading are checked against rouge-score and sacrebleu."""

from __future__ import annotations

import json

import pytest

from zheval.adapters.records import RecordsFormatError, read_records, score_records
from zheval.adapters.records_stream import stream_records

from tests.helpers.cli import run_cli

pd = pytest.importorskip("pandas")

PREDS = ["猫坐在垫子上", "今天天气很好", "我喜欢吃苹果"]
REFS = [["猫趴在垫子上面", "猫在垫子上"], ["今天天气不错", "天气很好"], ["我爱吃苹果", "我喜欢苹果"]]
REMEDY = "write JSONL or Parquet, or one column per reference: --ref-field ref1 --ref-field ref2"


def _frame():
    return pd.DataFrame({"prediction": PREDS, "references": REFS})


def _problems(exc) -> list:
    return [str(p) for p in exc.value.problems]


def _refused(path, first_line: int, field: str = "'references'") -> None:
    """``path`` is refused by the records reader (every row, naming FILE:line and the field) and by ``zheval
    score``."""
    with pytest.raises(RecordsFormatError) as e:
        read_records(path)
    got = _problems(e)
    assert len(got) == 3
    for k, p in enumerate(got):
        assert p.startswith(f"{path}:{first_line + k}: {field} is a list written as text (")
        assert "it would be scored as one text" in p
    assert REMEDY in got[0]
    res = run_cli("score", "-p", str(path), "--bootstrap", "0")
    assert res.exit_code != 0 and f"{path}:{first_line}: {field} is a list written as text" in res.output


def _oracle_rouge1() -> float:
    from rouge_score import rouge_scorer

    class Chars:
        def tokenize(self, text):
            return list(text)

    scorer = rouge_scorer.RougeScorer(["rouge1"], tokenizer=Chars())
    return sum(scorer.score_multi(r, p)["rouge1"].fmeasure for p, r in zip(PREDS, REFS)) / len(PREDS)


def _oracle_bleu() -> float:
    sacrebleu = pytest.importorskip("sacrebleu")
    return sacrebleu.corpus_bleu(PREDS, [list(r) for r in zip(*REFS)], tokenize="zh").score / 100


def test_pandas_to_csv_of_list_cells_is_refused_and_the_remedy_scores_as_the_oracles(tmp_path):
    f = tmp_path / "pd.csv"
    _frame().to_csv(f, index=False)
    assert "\"['猫趴在垫子上面', '猫在垫子上']\"" in f.read_text(encoding="utf-8")  # pandas' repr of the list
    _refused(f, 2)
    # the remedy: one column per reference
    g = tmp_path / "cols.csv"
    pd.DataFrame({"prediction": PREDS, "ref1": [r[0] for r in REFS], "ref2": [r[1] for r in REFS]}).to_csv(g, index=False)
    rep = score_records(g, ref_field=["ref1", "ref2"], metrics=["bleu", "rouge"], rouge_types=["rouge1"], bootstrap=0)
    scores = rep.to_dict()["groups"][0]["scores"]
    assert scores["rouge1"]["value"] == pytest.approx(_oracle_rouge1(), abs=1e-12)
    assert scores["bleu"]["value"] == pytest.approx(_oracle_bleu(), abs=1e-9)


def test_tsv_of_list_cells_is_refused(tmp_path):
    f = tmp_path / "pd.tsv"
    _frame().to_csv(f, sep="\t", index=False)
    _refused(f, 2)


def test_jsonl_string_holding_a_json_list_is_refused_and_a_real_list_scores_as_the_oracles(tmp_path):
    f = tmp_path / "enc.jsonl"
    f.write_text("".join(json.dumps({"prediction": p, "references": json.dumps(r, ensure_ascii=False)},
                                    ensure_ascii=False) + "\n" for p, r in zip(PREDS, REFS)), encoding="utf-8")
    _refused(f, 1)
    g = tmp_path / "lists.jsonl"
    _frame().to_json(g, orient="records", lines=True, force_ascii=False)
    rep = score_records(g, metrics=["bleu"], bootstrap=0)
    assert rep.to_dict()["groups"][0]["scores"]["bleu"]["value"] == pytest.approx(_oracle_bleu(), abs=1e-9)


def test_parquet_string_column_holding_a_list_repr_is_refused(tmp_path):
    pytest.importorskip("pyarrow")
    f = tmp_path / "repr.parquet"
    _frame().assign(references=[str(r) for r in REFS]).to_parquet(f)
    _refused(f, 1)


def test_a_prediction_written_as_a_list_is_refused_naming_its_field(tmp_path):
    f = tmp_path / "p.jsonl"
    f.write_text("".join(json.dumps({"predict": json.dumps([p], ensure_ascii=False), "label": r[0]},
                                    ensure_ascii=False) + "\n" for p, r in zip(PREDS, REFS)), encoding="utf-8")
    with pytest.raises(RecordsFormatError) as e:
        read_records(f)
    got = _problems(e)
    assert got[0].startswith(f"{f}:1: the prediction 'predict' is a list written as text (")
    assert "a prediction is one text" in got[0] and len(got) == 3


def test_a_list_inside_a_list_of_references_and_a_stream_chunk_are_refused(tmp_path):
    f = tmp_path / "nested.jsonl"
    rows = [{"prediction": p, "references": r} for p, r in zip(PREDS, REFS)]
    rows[2]["references"] = ["我爱吃苹果", "['我喜欢苹果', '我爱苹果']"]
    f.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    with pytest.raises(RecordsFormatError) as e:
        read_records(f)
    assert [p.split(" is a list")[0] for p in _problems(e)] == [f"{f}:3: references[1]"]
    with pytest.raises(RecordsFormatError) as e:
        for _ in stream_records(f, chunk_rows=1):
            pass
    assert [p.split(" is a list")[0] for p in _problems(e)] == [f"{f}:3: references[1]"]


BRACKETED = ["[图片]", "[1]", "[注释] 见上", "[1, 2]", "[[\"a\"]]", "[图片][图片]", "[\"猫\"] 在垫子上"]


def test_bracketed_texts_that_are_not_a_list_of_strings_are_texts(tmp_path):
    f = tmp_path / "b.csv"
    pd.DataFrame({"prediction": ["猫"] * (len(BRACKETED) + 1),
                  "reference": BRACKETED + ["['猫在垫子上']"]}).to_csv(f, index=False)
    with pytest.raises(RecordsFormatError) as e:  # only the last row, the list, is refused
        read_records(f)
    assert [p.split(":")[1] for p in _problems(e)] == [str(len(BRACKETED) + 2)]
    g = tmp_path / "ok.csv"
    pd.DataFrame({"prediction": BRACKETED, "reference": BRACKETED}).to_csv(g, index=False)
    r = read_records(g)
    assert r.references == [[t] for t in BRACKETED] and r.predictions == BRACKETED
