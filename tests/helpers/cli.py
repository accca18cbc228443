"""The ``zheval`` command in-process for the CLI tests (typer's ``CliRunner``), a JSONL writer, the three-item
小黄鸭 sample the argument and compare tests share, and its four-item two-domain variant."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from zheval.cli import app

__all__ = ["run_cli", "write_jsonl", "twin", "sampled_sheet", "ROWS", "PREDS", "write_sample_files", "TWO_DOMAIN_ROWS", "TWO_DOMAIN_PREDS",
           "text_files"]

_runner = CliRunner()

ROWS = [
    {"id": "q1", "query": "怎么退货？", "responses": ["您好，请在订单页申请退货。", "可以在订单页面申请退货。"],
     "domain": "售后支持", "difficulty": "易"},
    {"id": "q2", "query": "心情不好", "responses": ["我在这里陪着你，想聊聊吗？", "听起来你很难受，愿意说说吗？"],
     "domain": "情感陪伴", "difficulty": "中"},
    {"id": "q3", "query": "明天穿什么", "responses": ["明天降温，记得穿外套。", "天气转凉，建议加一件外套。"],
     "domain": "生活咨询", "difficulty": None},
]
PREDS = [{"id": "q1", "prediction": "请在订单页申请退货。"}, {"id": "q2", "prediction": "我陪着你，想聊聊吗？"},
         {"id": "q3", "prediction": "明天记得穿外套。"}]

# four items in two domains of two (q3 moved to 情感陪伴, q4 added), for the grouped and HTML outputs; the
# predictions are bare strings in item order
TWO_DOMAIN_ROWS = ROWS[:2] + [
    {**ROWS[2], "domain": "情感陪伴"},
    {"id": "q4", "query": "快递到哪了", "responses": ["您的快递已到达驿站。", "快递已经放在驿站了。"],
     "domain": "售后支持", "difficulty": "易"},
]
TWO_DOMAIN_PREDS = [p["prediction"] for p in PREDS] + ["快递已到驿站。"]


def run_cli(*args, input=None):
    """``zheval ARGS`` run in-process; returns click's ``Result`` (``exit_code``, ``stdout``, ``stderr`` apart and
    ``output`` both interleaved). ``input`` is the text fed to stdin (``None``: none). Exceptions propagate, so a
    traceback fails the test."""
    return _runner.invoke(app, [str(a) for a in args], input=input, catch_exceptions=False)


def write_jsonl(path, rows, ensure_ascii=False):
    """``rows`` written to ``path`` one JSON object per line (UTF-8); returns ``path``."""
    path.write_text("".join(json.dumps(r, ensure_ascii=ensure_ascii) + "\n" for r in rows), encoding="utf-8")
    return path


def sampled_sheet(tmp_path, crosswoz_groups, n_items: int, k: int) -> tuple:
    """``zheval sample --k k`` on the first ``n_items`` CrossWOZ groups with ≥ 3 responses (the first one the
    prediction, the rest its references): ``(sheet path, key path, the sheet's rows as read back)``."""
    import csv
    import io

    groups = [g for g in crosswoz_groups if len(g["responses"]) >= 3][:n_items]
    data = write_jsonl(tmp_path / "data.jsonl", [{"id": f"q{i}", "query": g["query"], "responses": g["responses"][1:],
                                                  "domain": None, "difficulty": None} for i, g in enumerate(groups)])
    preds = write_jsonl(tmp_path / "preds.jsonl", [{"id": f"q{i}", "prediction": g["responses"][0]}
                                                   for i, g in enumerate(groups)])
    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.json"
    res = run_cli("sample", "-d", data, "-p", preds, "--k", k, "--seed", 9, "-o", sheet, "--key", key, "-q")
    assert res.exit_code == 0, res.output
    return sheet, key, list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8-sig"), newline="")))


def records_sheet(tmp_path, pairs) -> tuple:
    """``zheval sample`` of a records file of ``pairs`` ((prediction, reference) texts, ids ``r0``, ``r1``, ..., no
    domain), every item sampled: ``(sheet path, key path, the sheet's rows as read back)``."""
    import csv
    import io

    rec = write_jsonl(tmp_path / "rec.jsonl", [{"id": f"r{k}", "prediction": p, "reference": r}
                                                for k, (p, r) in enumerate(pairs)])
    sheet, key = tmp_path / "s.csv", tmp_path / "k.json"
    res = run_cli("sample", "-p", rec, "--k", len(pairs), "-o", sheet, "--key", key, "-q")
    assert res.exit_code == 0, res.output
    return sheet, key, list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8-sig"), newline="")))


def write_sample_files(tmp_path):
    """``(data.jsonl, preds.jsonl, preds.txt, terms.txt)`` of :data:`ROWS` / :data:`PREDS` in ``tmp_path``."""
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    preds = write_jsonl(tmp_path / "preds.jsonl", PREDS)
    txt = tmp_path / "preds.txt"
    txt.write_text("".join(p["prediction"] + "\n" for p in PREDS), encoding="utf-8")
    terms = tmp_path / "terms.txt"
    terms.write_text("订单页\n", encoding="utf-8")
    return data, preds, txt, terms


def twin(path):
    """A copy of the file ``path`` beside it (``p.jsonl`` -> ``p.twin.jsonl``): the same system under another name,
    for a comparison with an identical system (one file given twice is refused, issue 35 F19); returns the copy."""
    import shutil
    from pathlib import Path

    path = Path(path)
    copy = path.with_name(path.stem + ".twin" + path.suffix)
    shutil.copyfile(path, copy)
    return copy


def text_files(tmp_path, references: list, hypotheses: list) -> tuple:
    """``(ref.txt, hyp.txt)`` in ``tmp_path``: one segment per line, UTF-8, for the text-file commands."""
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("".join(f"{r}\n" for r in references), encoding="utf-8")
    hyp.write_text("".join(f"{h}\n" for h in hypotheses), encoding="utf-8")
    return ref, hyp

