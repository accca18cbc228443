"""Identical systems never look significant: two systems with the very same outputs get sacrebleu's smallest p-value
1/(resamples + 1) (no resample can exceed a zero difference strictly, and the +1 keeps p above 0), so every output
of a paired test says "no difference" beside that p -- compare's table, Markdown, JSON and HTML, with the paired
bootstrap and with approximate randomisation, and the text-file commands' paired bootstrap (table and JSON)."""

from __future__ import annotations

import json
import re

import pytest

from helpers.cli import ROWS, run_cli, write_jsonl

PREDS = [{"id": "q1", "prediction": "请在订单页申请退货。"}, {"id": "q2", "prediction": "我陪着你，想聊聊吗？"},
         {"id": "q3", "prediction": "明天记得穿外套。"}]


@pytest.fixture()
def files(tmp_path):
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    a = write_jsonl(tmp_path / "a.jsonl", PREDS)
    b = write_jsonl(tmp_path / "b.jsonl", PREDS)
    return data, a, b


@pytest.mark.parametrize("test", ["bootstrap", "ar"])
def test_compare_every_output(files, tmp_path, test):
    data, a, b = files
    common = ["compare", "-d", data, "-p", a, b, "--bootstrap", 100, "--test", test, "-q", "--by", "none"]
    if test == "ar":
        common += ["--resamples", 200]
    pmin = 1 / (101 if test == "bootstrap" else 201)
    res = run_cli(*common, "-f", "json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["comparison"] and all(r["no_difference"] and r["delta"] == 0 for r in d["comparison"])
    assert all(r["p_value"] == pytest.approx(pmin, abs=1e-15) for r in d["comparison"])
    assert any(n.startswith("no difference:") for n in d["notes"])
    for fmt in ("table", "markdown"):
        res = run_cli(*common, "-f", fmt)
        assert res.exit_code == 0, res.output
        rows = [x for x in res.stdout.splitlines() if re.match(r"^\|? ?overall ", x)]
        assert len(rows) == len(d["comparison"]), res.stdout
        assert all(re.search(r"%.4f \(no difference\) ?\|?$" % pmin, x) for x in rows), res.stdout
        assert "no difference: the systems' outputs are identical line for line" in res.stdout
    html = tmp_path / "cmp.html"
    res = run_cli(*common, "--html", html)
    assert res.exit_code == 0, res.output
    page = html.read_text(encoding="utf-8")
    cells = re.findall(r'data-field="p_value" data-value="[^"]*">([^<]*)</td>', page)
    assert len(cells) == len(d["comparison"]) and all("(no difference)" in c for c in cells)
    assert "no difference: the systems&#39; outputs are identical line for line" in page


@pytest.mark.parametrize("cmd", ["bleu", "rouge"])
def test_text_file_paired_bootstrap(tmp_path, cmd):
    ref, a, b = tmp_path / "ref.txt", tmp_path / "a.txt", tmp_path / "b.txt"
    ref.write_text("今天天气很好\n我们去公园散步吧\n好的，我马上处理\n", encoding="utf-8")
    for f in (a, b):
        f.write_text("今天天气不错\n我们去公园吧\n好的，马上处理\n", encoding="utf-8")
    res = run_cli(cmd, ref, "-i", a, b, "--bootstrap", 100, "-f", "json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["paired"] and all(p["no_difference"] and p["delta"] == 0 for p in d["paired"])
    assert all(p["p_value"] == pytest.approx(1 / 101, abs=1e-15) for p in d["paired"])
    res = run_cli(cmd, ref, "-i", a, b, "--bootstrap", 100)
    assert res.exit_code == 0, res.output
    rows = [x for x in res.stdout.splitlines() if x.startswith(str(b) + " ")]
    assert rows and all(x.endswith("0.0099 (no difference)") for x in rows), res.stdout
    assert "no difference: " in res.stdout and "not evidence of a difference" in res.stdout
