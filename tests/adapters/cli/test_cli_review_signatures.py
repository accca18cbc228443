"""What ``zheval sample``'s key and ``zheval explain --format json`` record, against ``zheval score`` and against
the numbers they store (issue 35 break-it F5, F6): ``--max-refs K`` is in the key's params and every signature
(``nrefs:K|maxrefs:K``, as score writes it); the key's per-item ``bleu`` and ``chrf`` are sentence scores, so their
signatures say ``level:sentence`` (``eff:yes`` for BLEU's effective order), and the numbers are sacrebleu's sentence
BLEU / chrF on the same characters."""

from __future__ import annotations

import json

import pytest
from sacrebleu.metrics import BLEU, CHRF

from helpers.cli import run_cli as run, write_jsonl

# Han characters only: zheval's char tokens are the characters, so sacrebleu sees the same units
ROWS = [("今天天气很好", "今天天气不错", "天气很好"), ("我很开心", "我很高兴", "开心"), ("你好世界", "你好", "世界你好"),
        ("再见朋友", "再见", "朋友再见"), ("谢谢你", "谢谢", "多谢你"), ("没问题", "没有问题", "好的")]


def _bleu(pred, refs) -> float:
    """sacrebleu's sentence BLEU (effective order, exp smoothing) on space-joined characters, 0-1."""
    return BLEU(tokenize="none", effective_order=True).sentence_score(" ".join(pred),
                                                                    [" ".join(r) for r in refs]).score / 100


def _chrf(pred, refs) -> float:
    return CHRF().sentence_score(pred, list(refs)).score / 100


@pytest.fixture()
def records(tmp_path):
    return write_jsonl(tmp_path / "mr.jsonl", [{"id": f"q{i}", "predict": p, "label": [r1, r2]}
                                               for i, (p, r1, r2) in enumerate(ROWS)])


def _score(records, *extra) -> dict:
    res = run("score", "-p", records, "-f", "json", "-q", "--bootstrap", 0, *extra)
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _key(tmp_path, records, *extra) -> dict:
    key = tmp_path / "k.json"
    res = run("sample", "-p", records, "--k", 6, "-o", tmp_path / "s.csv", "--key", key, "--force", *extra)
    assert res.exit_code == 0, res.output
    return json.loads(key.read_text(encoding="utf-8"))


def test_sample_key_records_max_refs_as_score_does(tmp_path, records):
    # F5: the key's params lacked max_refs and its signatures maxrefs:1 (score writes nrefs:1|maxrefs:1)
    score = _score(records, "--max-refs", 1)
    key = _key(tmp_path, records, "--max-refs", 1)
    assert score["params"]["max_refs"] == 1 and key["params"]["max_refs"] == 1
    want = {k: v for k, v in score["params"].items() if k not in ("bootstrap", "confidence", "by", "seed", "num_proc")}
    want["bleu"] = {**want["bleu"], "level": "sentence", "effective_order": True}  # the key's per-item sentence BLEU
    assert key["params"] == want
    assert key["signatures"]["rouge"] == score["signatures"]["rouge"]
    assert key["signatures"]["rouge"].startswith("nrefs:1|maxrefs:1|")
    assert key["signatures"]["bleu"].startswith("nrefs:1|maxrefs:1|")
    for item in key["items"]:  # scored against the first reference only
        pred, r1, _ = ROWS[int(item["id"][1:])]
        assert item["scores"]["bleu"] == pytest.approx(_bleu(pred, [r1]), abs=1e-12)
    assert "max_refs" not in _score(records)["params"]


def test_explain_json_records_max_refs_as_score_does(records):
    res = run("explain", "-p", records, "--max-refs", 1, "--format", "json", "--worst", 6)
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert len(rows) == 6
    for row in rows:
        e = row["explanation"]
        pred, r1, _ = ROWS[int(row["id"][1:])]
        assert len(e["references"]) == 1
        assert all(s.startswith("nrefs:1|maxrefs:1|") for s in e["signature"].values()), e["signature"]
        assert e["bleu"]["sentence_bleu"] == pytest.approx(_bleu(pred, [r1]), abs=1e-12)


def test_sample_key_signatures_describe_the_sentence_scores_it_stores(tmp_path, records):
    # F6: the key's per-item bleu is sentence BLEU (effective order) but its signature said level:corpus|...|eff:no
    key = _key(tmp_path, records, "--metrics", "bleu,rouge,chrf")
    bleu, chrf = key["signatures"]["bleu"], key["signatures"]["chrf"]
    assert "|level:sentence|" in bleu and "|eff:yes|" in bleu and "level:corpus" not in bleu
    assert "|level:sentence|" in chrf and "level:corpus" not in chrf
    for item in key["items"]:
        pred, r1, r2 = ROWS[int(item["id"][1:])]
        assert item["scores"]["bleu"] == pytest.approx(_bleu(pred, [r1, r2]), abs=1e-12)
        assert item["scores"]["chrf"] == pytest.approx(_chrf(pred, [r1, r2]), abs=1e-12)
    res = run("explain", "-p", tmp_path / "mr.jsonl", "--format", "json", "--id", "q0", "--metrics", "bleu,chrf")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)[0]["explanation"]["signature"] == {"bleu": bleu, "chrf": chrf}


def test_sample_key_params_state_the_sentence_bleu_its_scores_are(tmp_path, records):
    # the key's params.bleu said level 'corpus', effective_order False beside signatures.bleu level:sentence|eff:yes
    # and per-item sentence BLEU (third break-it pass): params and signature now say the same, and the numbers are
    # sacrebleu's sentence BLEU with effective order
    key = _key(tmp_path, records, "--metrics", "bleu,rouge")
    bleu, sig = key["params"]["bleu"], key["signatures"]["bleu"]
    assert bleu["level"] == "sentence" and bleu["effective_order"] is True
    assert f"|level:{bleu['level']}|" in sig and "|eff:yes|" in sig
    assert f"|smooth:{bleu['smooth_method']}|" in sig and f"|order:{bleu['max_order']}|" in sig
    for item in key["items"]:
        pred, r1, r2 = ROWS[int(item["id"][1:])]
        assert item["scores"]["bleu"] == pytest.approx(_bleu(pred, [r1, r2]), abs=1e-12)
    assert _score(records)["params"]["bleu"]["level"] == "corpus"  # score's report is corpus BLEU, as it says


def test_compare_records_max_refs_as_score_does(tmp_path, records):
    """compare --max-refs K scored the first K references but its signatures, params and JSON said nothing of the
    cut (second break-it pass): now nrefs:1|maxrefs:1 and params.max_refs, system A's corpus BLEU == sacrebleu's on
    the first references."""
    other = write_jsonl(tmp_path / "b.jsonl", [{"id": f"q{i}", "predict": r2, "label": [r1, r2]}
                                               for i, (_, r1, r2) in enumerate(ROWS)])
    res = run("compare", "-p", records, other, "--max-refs", 1, "-f", "json", "-q", "--bootstrap", 50)
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["params"]["max_refs"] == 1
    assert all(s.startswith("nrefs:1|maxrefs:1|") for s in d["signatures"].values())
    row = next(r for r in d["comparison"] if r["metric"] == "bleu" and r["group"] == "overall")
    want = BLEU(tokenize="none").corpus_score([" ".join(p) for p, _, _ in ROWS],
                                              [[" ".join(r1) for _, r1, _ in ROWS]]).score / 100
    assert row["score_a"] == pytest.approx(want, abs=1e-12)
