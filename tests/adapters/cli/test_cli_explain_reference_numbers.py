"""``zheval explain`` numbers references from 1 where a person reads them (break-it pass 19): item 1's column read
"reference 1 of 2 (winning)" above the second reference, a one-reference item "reference 0 of 1", and the metric
lines' "why" said "reference 1 has the highest F ... of 2 references" of the second. The JSON's index fields
(``selected``, ``highlight.reference``, ``ref_len_reference``) stay 0-based, as ``references[1]`` names a field."""

from __future__ import annotations

import json
import re

import zheval
from helpers.cli import run_cli


def _csv(tmp_path):
    path = tmp_path / "mr.csv"
    # line 2: the second reference is the prediction plus one character (it wins every metric); line 3: one reference
    path.write_text("pred,r1,r2\n今天天气很好,明天下雨,今天天气很好啊\n你好,你好呀,\n", encoding="utf-8")
    return path


def test_the_table_numbers_references_from_one(tmp_path):
    res = run_cli("explain", "-p", _csv(tmp_path), "--pred-field", "pred", "--ref-field", "r1", "--ref-field", "r2",
                  "--metrics", "rouge,bleu,chrf")
    assert res.exit_code == 0, res.output
    first, second = re.split(r"\bline 3\s+\(", res.stdout)  # the header wraps before a long path
    assert "reference 2 of 2 (winning)" in first and "of 2 (winning)" not in first.replace("reference 2 of 2", "")
    assert "reference 1 of 1 (winning)" in second and "reference 0" not in res.stdout
    assert "multi_ref='max': reference 2 has the highest F" in first
    assert "bp_ref_length='closest': reference 2 (7 tokens)" in first
    assert "reference 2 has the highest chrF of the 2 references" in first
    assert "bp_ref_length='closest': reference 1 (3 tokens)" in second


def test_the_json_why_is_numbered_from_one_and_its_indices_from_zero(tmp_path):
    res = run_cli("explain", "-p", _csv(tmp_path), "--pred-field", "pred", "--ref-field", "r1", "--ref-field", "r2",
                  "--metrics", "rouge,bleu,chrf", "-f", "json")
    assert res.exit_code == 0, res.output
    e = json.loads(res.stdout)[0]["explanation"]
    rouge1 = e["rouge"]["rouge1"]
    assert rouge1["selected"] == 1 and "reference 2 has the highest F" in rouge1["why"]
    assert e["bleu"]["ref_len_reference"] == 1 and "reference 2 (7 tokens)" in e["bleu"]["why"]
    assert e["chrf"]["selected"] == 1 and e["chrf"]["why"].startswith("reference 2 has the highest chrF")


def test_ties_are_numbered_from_one():
    e = zheval.explain("今天天气很好", ["今天天气很好", "今天天气很好", "明天"], rouge_types=["rouge1"],
                       metrics=["rouge", "chrf"])
    assert e["rouge"]["rouge1"]["why"] == ("multi_ref='max': reference 1 has the highest F (1.0000) of 3 references; "
                                           "references [1, 2] tie on F, the first wins")
    assert e["chrf"]["why"].endswith("; tied with [2], the first one is kept")


def test_the_html_report_numbers_references_from_one(tmp_path):
    from helpers.cli import write_jsonl

    rows = [{"id": "q1", "domain": "情感陪伴", "difficulty": "难", "query": "问",
             "responses": ["明天下雨", "今天天气很好啊"]}]
    data = write_jsonl(tmp_path / "d.jsonl", rows)
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": "q1", "prediction": "今天天气很好"}])
    html = tmp_path / "r.html"
    res = run_cli("score", "-d", data, "-p", preds, "--bootstrap", 0, "-q", "--min-refs", 1, "--by", "none",
                  "--html", html, "-o", tmp_path / "r.txt")
    assert res.exit_code == 0, res.output
    page = html.read_text(encoding="utf-8")
    assert "winning reference 2 of 2" in page and "reference [" not in page
    assert '<span class="who">reference 1</span>' in page  # the other one
    assert "reference 2 has the highest F" in page and "reference 1 has the highest" not in page
