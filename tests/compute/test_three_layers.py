"""The three layers on the same items, end to end: the embedded sample's predictions, a tiny BERT (nothing from the
Hub) and the scripted OpenAI-compatible server on 127.0.0.1. The BERTScore-F1 column equals ``bert_score.score``,
the n-gram columns equal the per-metric functions at sentence level, every coefficient equals SciPy's on the joined
columns; the renderers escape model text (terminal, Markdown) and HTML."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.stats import kendalltau, pearsonr, spearmanr

import torch
import bert_score

from helpers import REPO  # noqa: E402
from helpers.chat_server import ChatServer  # noqa: E402
from helpers.tiny_bert import make_tiny_bert  # noqa: E402

import zheval  # noqa: E402
from zheval.adapters.layers_report import render_html, render_json, render_markdown, render_table  # noqa: E402
from zheval.compute.bertscore import BertScoreOptions  # noqa: E402
from zheval.compute.judge import JudgeOptions  # noqa: E402
from zheval.compute.three_layers import three_layer_agreement  # noqa: E402


def sample(n=24):
    refs = {}
    for line in (REPO / "zheval/data/duck_sample.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        refs[row["id"]] = (row["responses"], row.get("domain"), row["query"])
    preds = [json.loads(x) for x in (REPO / "zheval/data/duck_sample_predictions.jsonl").read_text(
        encoding="utf-8").splitlines()][:n]
    return ([p["prediction"] for p in preds], [refs[p["id"]][0] for p in preds], [refs[p["id"]][1] for p in preds],
            [refs[p["id"]][2] for p in preds], [p["id"] for p in preds])


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    torch.set_num_threads(1)
    return make_tiny_bert(tmp_path_factory.mktemp("model") / "tiny", layers=2, seed=0, max_positions=128,
                          model_max_length=128)


def test_three_layers_equal_their_references(tiny, tmp_path):
    preds, refs, groups, queries, ids = sample()
    preds[3] = preds[3] + " BADJSON-ALWAYS"  # the judge never rates this item: left out, counted, listed
    with ChatServer() as server:
        out = three_layer_agreement(
            preds, refs, groups=groups, sources=queries, bootstrap=200, seed=3,
            bertscore=BertScoreOptions(model=tiny, layer=2, idf=True),
            judge=JudgeOptions(base_url=server.base_url, model="qwen2.5:7b", api_key="k", backoff=0.0,
                               answer_retries=1, cache_dir=str(tmp_path / "cache")))
    m, r = out["metrics"], out["ratings"]
    assert list(m) == ["BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L", "chrF", "BERTScore-F1"]
    assert list(r) == ["judge:overall", "judge:faithful", "judge:informative", "judge:fluent"]
    # BERTScore-F1 is bert-score's
    f1 = bert_score.score(preds, refs, model_type=tiny, num_layers=2, idf=True)[2].numpy()
    assert np.abs(np.asarray(m["BERTScore-F1"]) - f1).max() < 1e-6
    # the n-gram columns are the per-metric functions at sentence level
    assert m["BLEU"] == pytest.approx(zheval.compute_bleu(preds, refs, level="sentence")["scores"], abs=1e-12)
    assert m["chrF"] == pytest.approx(zheval.compute_chrf(preds, refs, level="sentence")["scores"], abs=1e-12)
    rouge = zheval.compute_rouge(preds, refs, rouge_types=["rouge1", "rougeL"], use_aggregator=False)
    assert m["ROUGE-1"] == pytest.approx(rouge["rouge1"], abs=1e-12)
    assert m["ROUGE-L"] == pytest.approx(rouge["rougeL"], abs=1e-12)
    # the judge's failure is a missing value, never a guess
    assert r["judge:overall"][3] is None and out["judge"]["failed"] == 1
    assert out["judge"]["failures"][0]["item"] == 3
    # every coefficient equals SciPy's on the joined columns
    checked = 0
    for row in out["rows"]:
        sel = np.array([row["dimension"] == "overall" or g == row["value"] for g in groups])
        x, y = np.asarray(m[row["metric"]], dtype=float), np.array([np.nan if v is None else v
                                                                     for v in r[row["rating"]]], dtype=float)
        keep = sel & ~np.isnan(y)
        if row["undefined"]:
            continue
        assert row["n"] == keep.sum()
        xr = np.round(x[keep], 12)  # ρ, τ: zheval's own scores equal but for the last bits are tied (SCORE_TIE_TOLERANCE)
        assert row["spearman"] == pytest.approx(spearmanr(xr, y[keep]).statistic, abs=1e-12)
        assert row["kendall"] == pytest.approx(kendalltau(xr, y[keep], variant="b").statistic, abs=1e-12)
        assert row["pearson"] == pytest.approx(pearsonr(x[keep], y[keep]).statistic, abs=1e-12)
        checked += 1
    assert checked >= 24
    assert {row["group"] for row in out["rows"]} >= {"overall", f"group={groups[0]}"}


def test_renderers_escape_model_text(tmp_path):
    preds = ["今天天气很好", "明天下雨", "ECHO 好\x1b[2J<script>x</script>", "我们去公园", "BADJSON-ALWAYS \x1b]0;t\x07"]
    refs = ["今天天气不错", "明天有雨", "好", "我们去公园散步", "好"]
    groups = ["a\x1b[31m", "<b>g</b>", "a\x1b[31m", "<b>g</b>", "a\x1b[31m"]
    with ChatServer() as server:
        out = three_layer_agreement(preds, refs, groups=groups, bootstrap=0, judge=JudgeOptions(
            base_url=server.base_url, model="m", api_key="k", backoff=0.0, answer_retries=0,
            cache_dir=str(tmp_path)))
    params = {"bootstrap": 0, "seed": 1}
    failure = out["judge"]["failures"][0]
    assert "\x1b]0;t\x07" in failure["answer"] or failure["answer"].startswith("好的")
    for render in (render_table, render_markdown):
        text = render(out, params=params, ids=[f"id{i}\x1b[2J" for i in range(5)])
        assert "\x1b" not in text and "\x07" not in text
        if render is render_table:
            assert "a\\x1b[31m" in text and "id4\\x1b[2J" in text
        else:  # Markdown source: the backslash and [ escaped, so that it renders as the table shows it
            assert "a\\\\x1b\\[31m" in text and "id4\\\\x1b\\[2J" in text
    html = render_html(out, params=params)
    assert "<b>g</b>" not in html and "&lt;b&gt;g&lt;/b&gt;" in html
    doc = json.loads(render_json(out, params=params))
    assert doc["rows"][0]["group"] == "overall" and "group=a\x1b[31m" in {r["group"] for r in doc["rows"]}
    assert "a\x1b[31m" in {r["value"] for r in doc["rows"]}
