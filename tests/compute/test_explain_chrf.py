"""zheval.explain / explain_items for chrF: the matched character and word n-grams add up to the statistics chrF
counts, the kept reference is sacrebleu's choice, and sentence_chrf is compute_chrf's per-item score exactly -- on
all of the shared real data; a hand-checked item; the CLI's explain lines."""

import json

import pytest

import zheval
from zheval.compute.chrf import ChrfOptions, chrf_config, chrf_items
from helpers import crosswoz_items


@pytest.mark.parametrize("options", [{}, {"word_order": 2}, {"word_order": 2, "tokenizer": "jieba"},
                                     {"eps_smoothing": True, "beta": 1}])
def test_explanations_add_up_to_the_metric_on_real_data(crosswoz_groups, csl_rows, options):
    for preds, refs in (crosswoz_items(crosswoz_groups),
                        ([r["document"][:20] for r in csl_rows], [[r["summary"]] for r in csl_rows])):
        expls = zheval.explain_items(preds, refs, metrics=["chrf"], **options)
        scores = zheval.compute_chrf(preds, refs, level="sentence", **options)["scores"]
        rows = chrf_items(preds, refs, chrf_config(ChrfOptions(**options))).stats.tolist()
        for e, score, row in zip(expls, scores, rows):
            c = e["chrf"]
            assert c["sentence_chrf"] == score and c["statistics"] == row
            flat = []
            for o in c["orders"]:
                assert sum(g["match"] for g in o["matched"]) == o["matches"]
                assert o["hyp"] in (0, sum(g["prediction_count"] for g in o["matched"])
                                    + sum(g["count"] for g in o["unmatched_prediction"]))
                assert o["ref"] == sum(g["reference_count"] for g in o["matched"]) + \
                    sum(g["count"] for g in o["unmatched_reference"])
                flat += [o["hyp"], o["ref"], o["matches"]]
            assert flat == row
            assert c["per_reference"][c["selected"]]["chrf"] == max(p["chrf"] for p in c["per_reference"])


def test_hand_checked_item():
    # 今天天气很好 vs [明天天气不错, 天气很好]: the second reference is kept (chrF 0.86 vs 0.26); its character
    # unigrams 天气很好 all occur in the prediction (天 twice there, once in the reference: clipped to 1)
    e = zheval.explain("今天天气很好", ["明天天气不错", "天气很好"], metrics=["chrf"], word_order=2)
    c = e["chrf"]
    assert c["selected"] == 1 and c["name"] == "chrF2++" and e["highlight"]["reference"] == 1
    c1 = c["orders"][0]
    assert (c1["kind"], c1["n"], c1["hyp"], c1["ref"], c1["matches"]) == ("char", 1, 6, 4, 4)
    assert {"ngram": "天", "prediction_count": 2, "reference_count": 1, "match": 1} in c1["matched"]
    assert c1["unmatched_prediction"] == [{"ngram": "今", "count": 1}]
    w2 = c["orders"][7]
    assert w2["kind"] == "word" and w2["n"] == 2 and ["天", "气"] in [g["ngram"] for g in w2["matched"]]
    assert "metric:chrf" in e["signature"]["chrf"]
    json.dumps(e)  # JSON-serialisable


def test_default_metrics_do_not_include_chrf_and_errors_are_named():
    assert "chrf" not in zheval.explain("好", "好")
    with pytest.raises(ValueError, match="chrF has no preset"):
        zheval.explain("好", "好", metrics=["chrf"], preset="sacrebleu-zh")
    with pytest.raises(zheval.EmptyReferenceError, match=r"references\[0\]\[1\]"):
        zheval.explain("好", ["好", "\u200b"], metrics=["chrf"])


def test_cli_explain_shows_chrf_lines(tmp_path):
    from helpers.cli import run_cli, write_sample_files

    data, preds, _, _ = write_sample_files(tmp_path)
    res = run_cli("explain", "--data", data, "--predictions", preds, "--metrics", "chrf", "--metric", "chrf",
                  "--chrf-word-order", "2", "--worst", 1, "--min-refs", 1)
    assert res.exit_code == 0, res.output
    assert "chrF2++" in res.stdout and "matched char 1-grams:" in res.stdout and "matched word 2-grams:" in res.stdout
    res = run_cli("explain", "--data", data, "--predictions", preds, "--metrics", "chrf", "--format", "json",
                  "--min-refs", 1, "--metric", "rougeL")
    assert res.exit_code == 2 and "--metric 'rougeL' is not a computed metric; valid: chrf" in res.output
    res = run_cli("explain", "--data", data, "--predictions", preds, "--metrics", "chrf", "--metric", "chrf",
                  "--format", "json", "--min-refs", 1)
    rows = json.loads(res.stdout)
    assert all("chrf" in r["explanation"] and r["metric"] == "chrf" for r in rows)
    res = run_cli("explain", "--data", data, "--predictions", preds, "--metric", "chrf", "--min-refs", 1)
    assert res.exit_code == 2 and "add chrf to --metrics" in res.output
