"""A pandas DataFrame as the predictions of the 小黄鸭 doors (`evaluate_predictions`, `compare_predictions`,
`review_sample`) and as the data of `human_ceiling`: iterating a DataFrame gives its column names, which were joined
to the items as predictions. Refused by the one check of `zheval.io.text_lists`, naming the parameter as typed."""

from __future__ import annotations

import warnings

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("datasets")

from zheval.adapters.compare import compare_predictions  # noqa: E402
from zheval.adapters.duck import sample_files  # noqa: E402
from zheval.adapters.duck.ceiling import human_ceiling  # noqa: E402
from zheval.adapters.duck.evaluate import evaluate_predictions  # noqa: E402
from zheval.adapters.duck.load import load_duck  # noqa: E402
from zheval.adapters.review.human_review import review_sample  # noqa: E402


@pytest.fixture(scope="module")
def ds():
    with sample_files() as files:
        return load_duck(files["data"])


def _frame(ds):
    return pd.DataFrame({"prediction": ds["responses"][0][:1] * len(ds), "id": ds["id"]})


def test_evaluate_predictions_refuses_a_dataframe(ds):
    with pytest.raises(TypeError, match=r"^predictions must be a list \(one per item, in dataset order\), a dict "
                                        r"\{id: text\} or a path, not a DataFrame .*predictions=df\['prediction'\]"
                                        r"\.tolist\(\)"):
        evaluate_predictions(ds, _frame(ds), bootstrap=0)


def test_compare_predictions_names_the_system_parameter(ds):
    with pytest.raises(TypeError, match=r"^predictions_b must be a list .*not a DataFrame"):
        compare_predictions(ds, list(_frame(ds)["prediction"]), _frame(ds), bootstrap=2)


def test_review_sample_refuses_a_dataframe(ds):
    with pytest.raises(TypeError, match=r"^predictions must be a list .*not a DataFrame"):
        review_sample(ds, _frame(ds), 3)


def test_human_ceiling_names_the_pandas_remedy(ds):
    with pytest.raises(TypeError, match=r"^human_ceiling expects a datasets.Dataset, got DataFrame "
                                        r"\(datasets.Dataset.from_pandas\(df\)"):
        human_ceiling(pd.DataFrame({"id": ["1"], "responses": [["a", "b"]]}))


def test_a_series_of_predictions_is_taken_as_a_list(ds):
    """A Series is a sequence (as at every library door): the same report as its list."""
    preds = list(ds["responses"][i][0] for i in range(len(ds)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = evaluate_predictions(ds, pd.Series(preds), bootstrap=0, label_check="off")
        b = evaluate_predictions(ds, preds, bootstrap=0, label_check="off")
    assert a.to_dict()["groups"] == b.to_dict()["groups"]
