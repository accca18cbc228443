"""``zheval agree --predictions`` carries the signatures of its n-gram columns (tokenizer, level, options), as
``zheval score -f json`` does under ``signatures``: the JSON has them (and ``params.tokenizer``), and the table and
Markdown name them, so a report made with ``-t jieba`` says so. The expected signatures are those the library's
own single-metric doors write for the same per-item scores (``compute_bleu(level="sentence")``, ``compute_rouge``,
``compute_chrf(level="sentence")``), not the command's output."""

from __future__ import annotations

import hashlib
import json

import pytest

import zheval.cli.agree  # noqa: F401  (registers the command)
from helpers.cli import run_cli, write_jsonl
from zheval.compute.bleu import compute_bleu
from zheval.compute.chrf import compute_chrf
from zheval.compute.rouge import compute_rouge

ITEMS = [("a", "今天天气很好", "今天天气不错", 4), ("b", "我们去公园散步", "我们去公园", 2),
         ("c", "明天有雨", "明天下雨", 5), ("d", "谢谢你的帮助", "谢谢帮助", 3)]


@pytest.fixture()
def files(tmp_path):
    preds = write_jsonl(tmp_path / "preds.jsonl", [{"id": i, "prediction": p, "reference": r}
                                                  for i, p, r, _ in ITEMS])
    ratings = write_jsonl(tmp_path / "r.jsonl", [{"id": i, "overall": s, "prediction_sha256": hashlib.sha256(
        p.encode("utf-8")).hexdigest()} for i, p, _, s in ITEMS])
    return preds, ratings


def _expected(tokenizer: str) -> dict:
    preds, refs = [p for _, p, _, _ in ITEMS], [[r] for _, _, r, _ in ITEMS]
    return {"bleu": compute_bleu(preds, refs, level="sentence", tokenizer=tokenizer)["signature"],
            "rouge": compute_rouge(preds, refs, tokenizer=tokenizer,
                                   rouge_types=["rouge1", "rouge2", "rougeL"])["signature"],
            "chrf": compute_chrf(preds, refs, level="sentence")["signature"]}


@pytest.mark.parametrize("tokenizer", ["char", "jieba"])
def test_json_carries_the_ngram_signatures_and_the_tokenizer(files, tokenizer):
    preds, ratings = files
    res = run_cli("agree", "-p", preds, "--judge-ratings", ratings, "--bootstrap", 0, "-f", "json", "-t", tokenizer)
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    want = _expected(tokenizer)
    assert out["signatures"] == want
    assert out["params"]["tokenizer"] == tokenizer
    tok = {"char": "zh-char"}.get(tokenizer, tokenizer)  # zheval's char tokenizer signs zh-char (not sacrebleu's char)
    assert want["bleu"].split("|")[1].startswith(f"tok:{tok}")  # the signature names the tokenizer
    assert "level:sentence" in want["bleu"] and "eff:yes" in want["bleu"]


@pytest.mark.parametrize("fmt", ["table", "markdown"])
def test_table_and_markdown_name_the_signatures(files, fmt):
    preds, ratings = files
    res = run_cli("agree", "-p", preds, "--judge-ratings", ratings, "--bootstrap", 0, "-f", fmt, "-t", "jieba")
    assert res.exit_code == 0, res.output
    text = res.stdout if fmt == "table" else res.stdout.replace("\\|", "|").replace("\\_", "_")  # Markdown escapes
    for name, sig in _expected("jieba").items():
        assert f"{name} signature: {sig}" in text, (name, text)
