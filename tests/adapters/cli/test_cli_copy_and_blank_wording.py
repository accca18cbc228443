"""Break-it pass (words that promised a score): the copy warning said copies "get 100 on every metric" -- two
one-character lines scored against themselves get BLEU 0 (no bigram; sacrebleu agrees), and a copy with a U+200B
under ``--preset sacrebleu-zh`` is no exact copy to the tokenizer. A blank hypothesis (only invisible characters)
was "scored 0" / "scored as empty predictions", but a tokenizer that keeps U+200B scores it as a token, as sacrebleu
does. The numbers were right (checked against sacrebleu here); the words now say only what is true."""

from __future__ import annotations

import json

from helpers.cli import run_cli as run, write_jsonl
from zheval.results.copies import copies_warning
from zheval.text.normalize import BLANK_SCORED


def _lines(path, lines):
    path.write_text("".join(t + "\n" for t in lines), encoding="utf-8")
    return path


def _bleu(res) -> float:
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)["systems"][0]["scores"]["bleu"]


def test_a_copy_is_said_without_promising_a_score(tmp_path):
    from sacrebleu.metrics import BLEU

    one = _lines(tmp_path / "one.txt", ["好", "对"])
    res = run("bleu", one, "-i", one, "-f", "json")
    assert _bleu(res) == BLEU(tokenize="zh").corpus_score(["好", "对"], [["好", "对"]]).score == 0.0
    assert f"-i {one} holds the same text as reference {one}" in res.stderr
    assert "100" not in res.stderr, res.stderr  # was: "it gets 100 on every metric"
    ref = _lines(tmp_path / "ref.txt", ["你好世界今天很好", "我们去公园散步"])
    hyp = _lines(tmp_path / "hyp.txt", ["你\u200b好世界今天很好", "我们去公园散步"])
    res = run("bleu", ref, "-i", hyp, "--preset", "sacrebleu-zh", "-f", "json", "-w", 12)
    want = BLEU(tokenize="zh").corpus_score(["你\u200b好世界今天很好", "我们去公园散步"],
                                            [["你好世界今天很好", "我们去公园散步"]]).score
    assert want < 100 and abs(_bleu(res) - want) < 1e-9
    assert "up to whitespace and invisible characters" in res.stderr and "100" not in res.stderr, res.stderr
    for kind in ("exact", "spacing"):
        said = copies_warning(3, kind, "p.jsonl")
        assert said.startswith("all 3 prediction(s) of p.jsonl equal their references") and "100" not in said


def test_the_records_door_says_a_copy_without_a_score(tmp_path):
    rows = [{"id": f"q{i}", "prediction": t, "references": [t]} for i, t in enumerate(["好", "对"])]
    res = run("score", "-p", write_jsonl(tmp_path / "p.jsonl", rows), "-f", "json")
    assert res.exit_code == 0, res.output
    said = [w for w in json.loads(res.stdout)["warnings"] if "equal their references" in w]
    assert said and not [w for w in said if "100" in w], said


def test_a_blank_hypothesis_is_not_promised_0(tmp_path):
    from sacrebleu.metrics import BLEU

    refs = ["今天天气很好", "我们去公园散步"]
    ref = _lines(tmp_path / "ref.txt", refs)
    hyp = _lines(tmp_path / "hyp.txt", ["今天天气很好", "\u200b"])
    res = run("bleu", ref, "-i", hyp, "--preset", "sacrebleu-zh", "--allow-empty-hypotheses", "-f", "json",
              "-w", 12)
    scored = BLEU(tokenize="zh").corpus_score(["今天天气很好", "\u200b"], [refs]).score
    assert scored != BLEU(tokenize="zh").corpus_score(["今天天气很好", ""], [refs]).score  # U+200B is a token
    assert abs(_bleu(res) - scored) < 1e-9
    said = " ".join(res.stderr.split())
    assert f"1 empty hypothesis line(s) ({BLANK_SCORED})" in said, said
    assert "scored as empty predictions" not in said and "scored 0" not in said  # was: both
    res = run("bleu", ref, "-i", hyp, "--preset", "sacrebleu-zh")
    assert res.exit_code == 2 and "(0)" not in res.output  # was: "score it as an empty prediction (0)"
    assert "score it as the tokenizer reads it" in " ".join(res.output.split())
    rows = [{"id": "q0", "prediction": "今天天气很好", "references": [refs[0]]},
            {"id": "q1", "prediction": "\u200b", "references": [refs[1]]}]
    res = run("score", "-p", write_jsonl(tmp_path / "p.jsonl", rows), "-f", "json")
    warned = [w for w in json.loads(res.stdout)["warnings"] if "empty prediction" in w]
    assert warned == [f"1 empty prediction(s) ({BLANK_SCORED})"], warned  # was: "(scored 0)"
