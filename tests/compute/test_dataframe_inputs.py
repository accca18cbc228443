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


# --- every other public door that takes predictions or references (break-it pass: explain scored the column name
# as the reference; diversity raised a bare KeyError): the one check of `zheval.io.text_lists`, naming the parameter


def test_explain_refuses_a_dataframe_as_the_references_instead_of_scoring_its_column_name():
    df = pd.DataFrame({"ref": ["猫"]})
    with pytest.raises(TypeError) as info:  # was explained against the reference "ref" (F = 0, no word)
        zheval.explain("猫", df)
    message = str(info.value)
    assert message.startswith("references must be a str or a list of str (the references of this one prediction), "
                              "not a DataFrame")
    assert "column names, ['ref']" in message and "references=df.loc[i, 'ref']" in message


def test_explain_names_its_own_parameter_for_a_table_prediction():
    df = pd.DataFrame({"pred": ["猫"]})
    with pytest.raises(TypeError, match=r"^prediction must be a str, not a DataFrame .*prediction=df.loc\[i, 'pred'\]"):
        zheval.explain(df, "猫")  # was "predictions[0] must be str, got DataFrame", an index the caller never typed


def test_a_series_of_references_is_a_sequence_at_explain_as_at_validate_inputs():
    """A Series of strings is accepted (as `validate_inputs` accepts it): the numbers are those of a list."""
    refs = pd.Series(["猫坐在垫子上", "一只猫"], index=[7, 3])
    got = zheval.explain("猫在垫子上", refs, metrics=["rouge"])["rouge"]["rouge1"]["score"]["fmeasure"]
    # by hand (char unigrams): vs "猫坐在垫子上" 5 hits, P 5/5, R 5/6 -> F = 10/11; vs "一只猫" 1 hit -> 2/8
    assert got == pytest.approx(10 / 11, abs=1e-12)


@pytest.mark.parametrize("door", ["score", "explain_items"])
def test_a_dataframe_as_one_items_references_is_refused(door):
    fn = {"score": zheval.score, "explain_items": zheval.explain_items}[door]
    with pytest.raises(TypeError, match=r"^references\[1\] must be a str or a list of str, not a DataFrame"):
        fn(P, ["猫趴在垫子上面", pd.DataFrame(REFS)])  # was scored against the column names "r1", "r2"


def test_diversity_refuses_a_dataframe_naming_the_remedy_not_a_bare_keyerror():
    df = pd.DataFrame({"pred": P})
    with pytest.raises(TypeError, match=r"^predictions must be a list with one entry per item, not a DataFrame.*"
                                        r"predictions=df\['pred'\]\.tolist\(\)"):
        zheval.diversity(df, [[r] for r in REFS["r1"]], "char")  # was KeyError: 0
    with pytest.raises(TypeError, match=r"^references must be a list with one list of references per item, "
                                        r"not a DataFrame"):
        zheval.diversity(P, pd.DataFrame(REFS), "char")


def test_diversity_takes_a_series_by_position():
    preds = pd.Series(["猫猫猫", "狗"], index=[10, 20])  # was KeyError: 0 (label lookup)
    got = zheval.diversity(preds, [["猫"], ["狗"]], "char")
    # Distinct-1 by hand: unigrams 猫 猫 猫 狗 -> 2 distinct of 4
    assert got.distinct["distinct_1"] == pytest.approx(0.5) and got.distinct_counts["distinct_1"] == [2, 4]


def test_diagnostics_and_score_batches_refuse_a_dataframe():
    from zheval.results.diagnostics import compute_diagnostics

    df = pd.DataFrame({"pred": P})
    with pytest.raises(TypeError, match=r"^predictions must be a list with one entry per item, not a DataFrame"):
        compute_diagnostics(df, [[r] for r in REFS["r1"]])
    with pytest.raises(TypeError, match=r"^batches must be an iterable of \(predictions, references\[, groups\[, "
                                        r"ids\]\]\) tuples, not a DataFrame"):
        zheval.score_batches(pd.DataFrame({"pred": P, "ref": REFS["r1"]}))  # was "batch 0 must be a tuple, got str"


def test_three_layer_agreement_refuses_a_dataframe_of_groups():
    from zheval.compute.three_layers import three_layer_agreement

    with pytest.raises(TypeError, match=r"^groups must be a list with one value per item, not a DataFrame"):
        three_layer_agreement(P, REFS["r1"], ratings={"h": [1.0, 2.0]}, groups=pd.DataFrame({"g": ["a", "b"]}))


def test_judge_pairwise_names_predictions_b():
    pytest.importorskip("openai")
    with pytest.raises(TypeError, match=r"^predictions_b must be a list with one entry per item, not a DataFrame"):
        zheval.judge_pairwise(P, pd.DataFrame({"b": P}), REFS["r1"], base_url="http://127.0.0.1:9/v1", model="m")
