"""``zheval bertscore`` on the command line (a tiny local BERT, equal to bert-score; errors as one line) and
``zheval agree`` with its three layers in one command (the scripted OpenAI-compatible server on 127.0.0.1 as the
judge). The judge-only commands are in ``test_cli_judge.py``."""

from __future__ import annotations

import json

import numpy as np
import pytest

import torch
import bert_score

import zheval.cli.bertscore  # noqa: E402,F401  (registers the command)
import zheval.cli.judge  # noqa: E402,F401
from helpers.chat_server import ChatServer  # noqa: E402
from helpers.cli import run_cli, write_jsonl  # noqa: E402
from helpers.tiny_bert import make_tiny_bert  # noqa: E402


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    torch.set_num_threads(1)
    return make_tiny_bert(tmp_path_factory.mktemp("model") / "tiny", layers=2, seed=2)


def test_bertscore_on_text_files(tiny, tmp_path):
    refs, hyps = ["今天天气不错", "我们去公园", "明天下雨"], ["今天天气很好", "我们去公园散步", "明天有雨"]
    (tmp_path / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    res = run_cli("bertscore", tmp_path / "ref.txt", "-i", tmp_path / "hyp.txt", "--model", tiny, "--layer", "2",
                  "--idf", "--items", tmp_path / "items.jsonl", "-w", "8")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    p, r, f = bert_score.score(hyps, refs, model_type=tiny, num_layers=2, idf=True)
    assert abs(doc["f1"] - float(f.mean())) < 1e-6 and abs(doc["precision"] - float(p.mean())) < 1e-6
    items = [json.loads(x) for x in (tmp_path / "items.jsonl").read_text(encoding="utf-8").splitlines()]
    assert np.abs(np.array([x["f1"] for x in items]) - f.numpy()).max() < 1e-6 and items[0]["line"] == 1
    text = run_cli("bertscore", tmp_path / "ref.txt", "-i", tmp_path / "hyp.txt", "--model", tiny, "--layer", "2",
                   "-f", "text")
    assert "BERTScore-F1|nrefs:1|metric:bertscore|model:tiny|" in text.stdout


def test_bertscore_errors_are_one_line(tmp_path):
    (tmp_path / "ref.txt").write_text("好\n", encoding="utf-8")
    res = run_cli("bertscore", tmp_path / "ref.txt", "-i", tmp_path / "ref.txt", "--model", "bert-base-chinese")
    assert res.exit_code == 2 and "never downloads" in res.stderr and "Traceback" not in res.output


def test_agree_three_layers_in_one_command(tiny, tmp_path):
    """zheval agree --predictions: the n-gram, BERTScore and judge columns of the same items; every coefficient of
    the JSON equals SciPy's on its joined columns; a judge failure is left out and listed; the HTML page escapes."""
    from scipy.stats import kendalltau, pearsonr, spearmanr

    preds = ["今天天气很好", "我们去公园散步", "明天有雨", "好 BADJSON-ALWAYS", "你好啊朋友", "谢谢你的帮助", "<b>再见</b>",
             "我喜欢北京"]
    refs = ["今天天气不错", "我们去公园", "明天下雨", "好", "你好朋友", "谢谢帮助", "再见", "我爱北京"]
    rows = [{"id": f"i{k}", "prediction": p, "reference": r, "domain": "甲" if k % 2 else "乙<i>"}
            for k, (p, r) in enumerate(zip(preds, refs))]
    path = write_jsonl(tmp_path / "preds.jsonl", rows)
    with ChatServer() as server:
        common = ["agree", "--predictions", path, "--bertscore-model", tiny, "--bertscore-layer", "2",
                  "--judge-url", server.base_url, "--judge-model", "m", "--api-key", "k",
                  "--judge-cache-dir", tmp_path / "cache", "--group-field", "domain", "--bootstrap", "100"]
        res = run_cli(*common, "--format", "json")
        assert res.exit_code == 0, res.output
        table = run_cli(*common, "--html", tmp_path / "agree.html")
    doc = json.loads(res.stdout)
    assert list(doc["metrics"]) == ["BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L", "chrF", "BERTScore-F1"]
    assert doc["judge"]["failed"] == 1 and doc["ratings"]["judge:overall"][3] is None
    groups = [r["domain"] for r in rows]
    for row in doc["rows"]:
        if row["undefined"]:
            continue
        sel = np.array([row["dimension"] == "overall" or g == row["value"] for g in groups])
        x = np.asarray(doc["metrics"][row["metric"]], dtype=float)
        y = np.array([np.nan if v is None else v for v in doc["ratings"][row["rating"]]], dtype=float)
        keep = sel & ~np.isnan(y)
        # ρ and τ rank zheval's own scores with equal ones tied: ROUGE-1 of i0 and i7 are both 2/3, stored as
        # 0.6666666666666666 and 0.6666666666666665 (SCORE_TIE_TOLERANCE); rounded to 12 decimals they are one value
        xr = np.round(x[keep], 12)
        assert row["spearman"] == pytest.approx(spearmanr(xr, y[keep]).statistic, abs=1e-12)
        assert row["kendall"] == pytest.approx(kendalltau(xr, y[keep], variant="b").statistic, abs=1e-12)
        assert row["pearson"] == pytest.approx(pearsonr(x[keep], y[keep]).statistic, abs=1e-12)
    assert table.exit_code == 0 and "judge failures (1)" in table.stdout and "i3: unparsable" in table.stdout
    html = (tmp_path / "agree.html").read_text(encoding="utf-8")
    assert "乙&lt;i&gt;" in html and "乙<i>" not in html
    md = run_cli("agree", "--predictions", path, "--judge-ratings", tmp_path / "missing.jsonl")
    assert md.exit_code == 2
