"""A pandas DataFrame as predictions or references: iterating a DataFrame gives its column *names*, so
``compute_rouge(preds, pd.DataFrame({"r1": [...], "r2": [...]}))`` scored every item against the texts "r1" and
"r2" (0.0, no word). Refused at every door (`zheval.compute.inputs.validate_inputs`: anything with ``columns`` and
``iloc``), naming predictions/references and the remedy; the remedy's numbers are checked against rouge-score and
sacrebleu."""

from __future__ import annotations

import pytest

import zheval

pd = pytest.importorskip("pandas")

P = ["猫坐在垫子上", "今天天气很好"]
REFS = {"r1": ["猫趴在垫子上面", "今天天气不错"], "r2": ["一只猫坐在垫子上", "天气很好"]}
DOORS = {
    "compute_rouge": lambda p, r: zheval.compute_rouge(p, r, rouge_types=["rouge1"]),
    "compute_bleu": zheval.compute_bleu,
    "compute_chrf": zheval.compute_chrf,
    "score": zheval.score,
    "score_batches": lambda p, r: zheval.score_batches([(p, r)]),
}


class _Chars:
    def tokenize(self, text):
        return list(text)


@pytest.mark.parametrize("door", list(DOORS))
def test_dataframe_references_are_refused_naming_the_remedy(door):
    with pytest.raises(TypeError) as info:  # was scored against the column names "r1", "r2"
        DOORS[door](P, pd.DataFrame(REFS))
    message = str(info.value)
    assert message.startswith("references must be a list with one entry per item, not a DataFrame")
    assert "column names, ['r1', 'r2']" in message
    assert "references=df['r1']" in message and "references=df[['r1', 'r2']].values.tolist()" in message


@pytest.mark.parametrize("door", list(DOORS))
def test_dataframe_predictions_are_refused_naming_the_remedy(door):
    with pytest.raises(TypeError) as info:  # was scored as the prediction "prediction"
        DOORS[door](pd.DataFrame({"prediction": P}), [[r] for r in REFS["r1"]])
    message = str(info.value)
    assert message.startswith("predictions must be a list with one entry per item, not a DataFrame")
    assert "predictions=df['prediction']" in message and ".values.tolist()" not in message


def test_the_remedies_score_as_rouge_score_and_sacrebleu():
    from rouge_score import rouge_scorer
    from sacrebleu.metrics import CHRF

    df = pd.DataFrame({"prediction": P, **REFS})
    refs = df[["r1", "r2"]].values.tolist()
    got = zheval.compute_rouge(df["prediction"], refs, rouge_types=["rouge1"], normalize=False)["rouge1"]
    scorer = rouge_scorer.RougeScorer(["rouge1"], tokenizer=_Chars())
    best = [max(scorer.score(r, p)["rouge1"].fmeasure for r in rs) for p, rs in zip(P, refs)]
    assert got == pytest.approx(sum(best) / len(best), abs=1e-12)
    chrf = zheval.compute_chrf(df["prediction"], df["r1"], normalize=False)["chrf"]
    assert chrf == pytest.approx(CHRF().corpus_score(P, [REFS["r1"]]).score / 100, abs=1e-12)


def test_the_evaluate_module_refuses_a_dataframe_too():
    evaluate = pytest.importorskip("evaluate")
    from helpers import METRICS

    module = evaluate.load(str(METRICS / "chinese_rouge"))
    with pytest.raises(TypeError, match=r"^references must be a list with one entry per item, not a DataFrame"):
        module.compute(predictions=P, references=pd.DataFrame(REFS))
