"""The human ceiling says when an item's references repeat one another (break-it pass 19): a held-out copy is
scored against its twin (1.0), which raises the ceiling. ``["今天天气很好", "今天天气不错", "今天天气很好"]`` gave
ROUGE-1 0.824 with ``"warnings": []``. The numbers stay those of the references given (independent sacrebleu /
rouge-score on the leave-one-out rows); the report, the library (`DuplicateReferenceWarning`) and stderr count the
items, exact copies and copies equal after the tokenizer's normalisation apart, and name the first one."""

from __future__ import annotations

import json

import pytest

import zheval
from helpers.cli import run_cli, write_jsonl
from zheval.adapters.duck import human_ceiling, load_duck

# CJK only, no punctuation: zheval's char tokens are sacrebleu's "zh" tokens here. d0: an exact copy; d1: a copy
# with a trailing space (equal after normalisation); d2: no copy; d3: two exact copies of one reference
RESPONSES = [["今天天气很好", "今天天气不错", "今天天气很好"], ["明天会下雨吗", "明天会下雨吗 ", "后天晴"],
             ["你好呀朋友", "朋友你好"], ["我很开心", "我很开心", "我很开心", "真的吗"]]
ROWS = [{"id": f"d{i}", "domain": "情感陪伴", "difficulty": "难", "query": f"问题{i}", "responses": refs}
        for i, refs in enumerate(RESPONSES)]


class _Chars:  # rouge-score on characters, whitespace dropped (zheval's char tokens of these texts)
    def tokenize(self, text):
        return [c for c in text if not c.isspace()]


def _leave_one_out():
    return [(refs[j], refs[:j] + refs[j + 1:]) for refs in RESPONSES for j in range(len(refs))]


@pytest.fixture
def data(tmp_path):
    return write_jsonl(tmp_path / "d.jsonl", ROWS)


def test_human_ceiling_warns_of_duplicate_references_and_keeps_the_numbers(data):
    import sacrebleu
    from rouge_score import rouge_scorer

    with pytest.warns(zheval.DuplicateReferenceWarning) as caught:
        rep = human_ceiling(load_duck(data), metrics=["bleu", "rouge"], bootstrap=0, by=())
    said = [w for w in rep.warnings if "duplicate references" in w]
    assert len(said) == 1 and str(caught[0].message) == said[0]
    assert "3 item(s) have a reference twice (2 exactly, 1 equal after the tokenizer's normalisation)" in said[0]
    assert "the first 'd0' at dataset row 0" in said[0] and "zheval clean" in said[0]
    # the numbers: those of every leave-one-out row, copies included, by independent tools
    rows = _leave_one_out()
    preds = [p for p, _ in rows]
    refs = [[r[k] if k < len(r) else None for r in (o for _, o in rows)] for k in range(3)]
    expected = sacrebleu.corpus_bleu(preds, refs, tokenize="zh").score / 100
    assert rep.score("bleu").value == pytest.approx(expected, abs=1e-12)
    scorer = rouge_scorer.RougeScorer(["rouge1"], tokenizer=_Chars())
    f1 = [scorer.score_multi(o, p)["rouge1"].fmeasure for p, o in rows]
    assert rep.score("rouge1").value == pytest.approx(sum(f1) / len(f1), abs=1e-12)


def test_no_warning_without_duplicates(tmp_path, recwarn):
    path = write_jsonl(tmp_path / "d.jsonl", [ROWS[2]])
    rep = human_ceiling(load_duck(path), metrics=["bleu"], bootstrap=0, by=())
    assert not [w for w in rep.warnings if "duplicate" in w]
    assert not [w for w in recwarn if issubclass(w.category, zheval.DuplicateReferenceWarning)]


def test_zheval_ceiling_says_it_in_json_and_on_stderr(data):
    res = run_cli("ceiling", "--data", data, "--bootstrap", "0", "--by", "none", "-f", "json", "--quiet")
    assert res.exit_code == 0, res.output
    warnings = [w for w in json.loads(res.stdout)["warnings"] if "duplicate references" in w]
    assert len(warnings) == 1  # once, not again as the caught library warning
    assert f"the first 'd0' at {data}:1" in warnings[0] and "3 item(s)" in warnings[0]
    assert res.stderr.count("zheval: warning: duplicate references inflate the ceiling: 3 item(s)") == 1
