"""``zheval clean`` writes every kept query and reference exactly as given (break-it pass 18): it stored them
normalised (``学Python`` → ``学python``, ``，？`` → ``,?``), so scoring the cleaned sample with ``--preset sacrebleu-zh``
(case- and punctuation-sensitive) gave 0.291 instead of 0.351 without a word. The normalisation only decides drops
and duplicates; ``--write-normalized`` rewrites the texts and its report line says so. Numbers against sacrebleu 2.x
``corpus_bleu(tokenize="zh")`` computed here, never zheval's own output."""

from __future__ import annotations

import json

import pytest
import sacrebleu

from helpers.cli import run_cli
from zheval.adapters.duck import sample_files


def _rows(path):
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


@pytest.fixture
def sample():
    with sample_files() as files:
        yield files["data"], files["predictions"]


def _sacrebleu_zh(rows, preds_by_id):
    """sacrebleu's corpus BLEU (``tokenize="zh"``) of the sample predictions against ``rows``' references, the
    reference streams padded with None (sacrebleu's variable number of references per segment)."""
    hyps = [preds_by_id[r["id"]] for r in rows]
    width = max(len(r["responses"]) for r in rows)
    streams = [[r["responses"][j] if j < len(r["responses"]) else None for r in rows] for j in range(width)]
    return sacrebleu.corpus_bleu(hyps, streams, tokenize="zh").score / 100


def _zheval_sacrebleu_zh(data, preds):
    res = run_cli("score", "--data", data, "-p", preds, "--metrics", "bleu", "--preset", "sacrebleu-zh",
                  "--bootstrap", 0, "--by", "none", "--format", "json", "-q")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)["groups"][0]["scores"]["bleu"]["value"]


def test_cleaned_sample_keeps_every_text_exactly_and_scores_as_sacrebleu(sample, tmp_path):
    data, preds = sample
    out = tmp_path / "dclean.jsonl"
    res = run_cli("clean", data, "-o", out, "-q")
    assert res.exit_code == 0, res.output
    original = {r["id"]: r for r in _rows(data)}
    kept = _rows(out)
    assert len(kept) == 66 and sum(len(r["responses"]) for r in kept) == 226  # two references dropped
    for row in kept:
        src = original[row["id"]]
        assert row["query"] == src["query"]
        # each kept reference is one of the original strings, in the original order (a subsequence)
        it = iter(src["responses"])
        assert all(any(r == s for s in it) for r in row["responses"]), row["id"]
        assert {k: row[k] for k in ("domain", "difficulty")} == {k: src[k] for k in ("domain", "difficulty")}
    # the sample has what the normaliser changes: upper-case Latin and full-width punctuation, kept as written
    texts = [t for r in kept for t in (r["query"], *r["responses"])]
    assert any("Python" in t for t in texts) and any("，" in t for t in texts) and any("？" in t for t in texts)
    preds_by_id = {r["id"]: r["prediction"] for r in _rows(preds)}
    assert _zheval_sacrebleu_zh(out, preds) == pytest.approx(_sacrebleu_zh(kept, preds_by_id), abs=1e-12)
    assert "texts: every kept query and reference written exactly as given" in res.stdout


def test_cleaning_that_drops_nothing_writes_the_file_unchanged_and_scores_as_the_original(sample, tmp_path):
    data, preds = sample
    out = tmp_path / "same.jsonl"
    res = run_cli("clean", data, "-o", out, "-q", "--min-chars", 1, "--max-chars", 1000, "--no-dedup",
                  "--min-refs", 1)
    assert res.exit_code == 0, res.output
    assert "references: 228 → 228 (dropped 0)" in res.stdout
    assert out.read_bytes() == data.read_bytes()
    preds_by_id = {r["id"]: r["prediction"] for r in _rows(preds)}
    want = _sacrebleu_zh(_rows(data), preds_by_id)
    assert _zheval_sacrebleu_zh(out, preds) == pytest.approx(want, abs=1e-12)
    assert round(want, 3) == 0.354


def test_write_normalized_rewrites_the_texts_and_says_so(sample, tmp_path):
    data, _ = sample
    out = tmp_path / "norm.jsonl"
    res = run_cli("clean", data, "-o", out, "-q", "--write-normalized")
    assert res.exit_code == 0, res.output
    assert ("texts: REWRITTEN, the kept query and references are written normalised (nfkc+zw+punct+space+lower); "
            "scoring this file on raw text (--preset sacrebleu-zh, --normalize none, bertscore, judge) gives other "
            "numbers than scoring these items in the original file") in res.stdout
    row = {r["id"]: r for r in _rows(out)}["duck-test-0002"]
    assert row["query"] == "工作三年了想转行做数据分析,应该从哪里开始?"  # ， → ,  ？ → ?
    assert row["responses"][0].startswith("先学excel和sql,这是数据分析最常用的工具;然后学python")
