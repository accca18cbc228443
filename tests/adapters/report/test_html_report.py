"""The HTML report (``zheval score ... --html``) in a real browser: Debian's headless Chromium, driven by selenium
through Debian's chromedriver (the set-up of scripts/space_screenshot.py, via scripts/html_report_screenshot.py),
opens the ``file://`` page the command wrote and the test reads the DOM:

* every score cell (value, interval, n) equals the JSON report the same command wrote (``--format json``), both
  the exact value in ``data-value`` and the rounded text shown;
* the items shown per group are the lowest, median and highest by ROUGE-L, recomputed here from the JSON's
  per-item scores (``--items``) and the data file's groups by the documented rule;
* each highlighted span's text is the original text at the token span that ``zheval.explain`` (called here on the
  item's texts with the command's options) reports as matched, for the prediction and the winning reference;
* Chinese is text in the page and in the plots (SVG ``<text>``), the page loaded no resource (no network) and
  names none in a ``src``/``href``;

and takes a screenshot into the test's temp folder (``ZHEVAL_HTML_SCREENSHOT=path.png`` copies it there).

Two inputs: the embedded 小黄鸭 sample (66 queries with Chinese domain/difficulty labels, an empty prediction) and
the shared real CrossWOZ groups (each item's last reply as the prediction, the other replies as references).
Needs Debian's ``chromium`` and ``chromium-driver`` (.ci/run installs them) and selenium: skipped without them
locally, a failure under ``CI=true``. About 25 s on a shared 2-core machine (most of it scoring and Chromium's
start).
"""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest

from helpers import read_jsonl
from helpers.browser import load_script, stop_module_without_browser

page_kit = load_script("html_report_screenshot.py", "zheval_html_report_screenshot")
stop_module_without_browser(page_kit)

from helpers.cli import run_cli  # noqa: E402
from zheval import explain  # noqa: E402
from zheval.text.controls import visible_controls  # noqa: E402
from zheval.adapters.duck import sample_files  # noqa: E402

ROUGE_TYPES = ["rouge1", "rouge2", "rougeL"]

# JS: the page as data (one round trip).
READ_PAGE = r"""
const cells = [...document.querySelectorAll('#scores tbody tr')].map(tr => ({
  group: tr.dataset.group, n: tr.querySelector('[data-field="n"]').innerText.trim(),
  cells: [...tr.querySelectorAll('td.score')].map(td => ({metric: td.dataset.metric, value: td.dataset.value,
          low: td.dataset.low, high: td.dataset.high, text: td.innerText.trim()}))}));
const marks = el => [...el.querySelectorAll('mark.hit')].map(m => [Number(m.dataset.token), m.textContent]);
const samples = [...document.querySelectorAll('.group-samples')].map(g => ({
  group: g.dataset.group,
  items: [...g.querySelectorAll('article.sample')].map(a => ({
    id: a.dataset.id, index: Number(a.dataset.index), bands: a.dataset.bands.split(' '),
    prediction: a.querySelector('.prediction').textContent,
    prediction_marks: marks(a.querySelector('.prediction')),
    winner: a.querySelector('.reference.winner') ? Number(a.querySelector('.reference.winner').dataset.reference) : null,
    winner_text: a.querySelector('.reference.winner') ? a.querySelector('.reference.winner').textContent : null,
    winner_marks: a.querySelector('.reference.winner') ? marks(a.querySelector('.reference.winner')) : [],
    scores: Object.fromEntries([...a.querySelectorAll('.item-score')].map(s => [s.dataset.metric, s.dataset.value])),
  }))}));
const svgText = [...document.querySelectorAll('#plots svg text')].map(t => t.textContent);
return {cells, samples, svgText, body: document.body.innerText, warnings: document.getElementById('warnings').innerText,
        resources: performance.getEntriesByType('resource').map(e => e.name)};
"""


def _crosswoz_files(tmp_path):
    """A 小黄鸭 file and predictions from the shared CrossWOZ groups: prediction = the item's last reply, references =
    the other replies (2-4); a difficulty label by the number of those references (4: 易, 3: 中, 2: 难; only so that
    there are several groups: the 小黄鸭 format allows these labels only), the domain null."""
    rows, preds = [], []
    for r in read_jsonl("crosswoz_same_query_groups.jsonl"):
        *refs, last = r["responses"]
        difficulty = {4: "易", 3: "中", 2: "难"}[len(refs)]
        rows.append({"id": r["id"], "query": r["query"], "responses": refs, "domain": None, "difficulty": difficulty})
        preds.append({"id": r["id"], "prediction": last})
    data, predictions = tmp_path / "crosswoz.jsonl", tmp_path / "crosswoz_predictions.jsonl"
    data.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in rows), encoding="utf-8")
    predictions.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in preds), encoding="utf-8")
    return data, predictions


def _score(tmp_path, name, data, predictions, by):
    """Run ``zheval score`` in-process: JSON (with --items) and HTML of the same run."""
    out_json, out_html = tmp_path / f"{name}.json", tmp_path / f"{name}.html"
    res = run_cli("score", "--data", data, "--predictions", predictions, "--bootstrap", 200, "--by", by, "--items",
                  "-q", "-f", "json", "-o", out_json, "--html", out_html, "--min-refs", 2)
    assert res.exit_code == 0, res.output
    return json.loads(out_json.read_text(encoding="utf-8")), out_html, read_jsonl_path(data)


def read_jsonl_path(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _expected_samples(report, rows, by):
    """{group label: [(item index, bands)]} by the documented rule, from the JSON's per-item ROUGE-L."""
    scores = [it["rougeL"] for it in report["items"]]
    groups = [("overall", list(range(len(rows))))]
    for dim in by:
        values = sorted({r[dim] for r in rows if r[dim] is not None}) + ([None] if any(r[dim] is None for r in rows) else [])
        for v in values:
            groups.append((f"{dim}={'null' if v is None else v}", [i for i, r in enumerate(rows) if r[dim] == v]))
    out = {}
    for label, idx in groups:
        order = sorted(idx, key=lambda i: (scores[i], i))
        picks = {}
        for band, pos in (("lowest", 0), ("median", (len(order) - 1) // 2), ("highest", len(order) - 1)):
            picks.setdefault(order[pos], []).append(band)
        out[label] = list(picks.items())
    return out


def _fmt_cell(v):
    text = f"{v['value']:.3f}"
    if v.get("no_interval"):
        return text + " (no interval)"
    if v["low"] is None:
        return text
    return f"{text} [{v['low']:.3f}, {v['high']:.3f}]"


def _check_page(shown, report, rows, by, page_source):
    # the score tables: every group and metric of the JSON report, value and interval exact and as shown
    groups = report["groups"]
    assert [c["group"] for c in shown["cells"]] == [
        "overall" if g["dimension"] == "overall" else f"{g['dimension']}={'null' if g['value'] is None else g['value']}"
        for g in groups]  # JSON null is the missing value, labelled null
    metrics = [m["name"] for m in report["metrics"]]
    for row, g in zip(shown["cells"], groups):
        assert row["n"] == str(g["n"])
        assert [c["metric"] for c in row["cells"]] == metrics
        for c in row["cells"]:
            v = g["scores"][c["metric"]]
            assert float(c["value"]) == v["value"], (row["group"], c)
            assert (float(c["low"]) if c["low"] else None) == v["low"]
            assert (float(c["high"]) if c["high"] else None) == v["high"]
            assert c["text"] == _fmt_cell(v), (row["group"], c)

    # the samples: lowest / median / highest per group by ROUGE-L, from the JSON's per-item scores
    expected = _expected_samples(report, rows, by)
    assert [g["group"] for g in shown["samples"]] == list(expected)
    n_marks = 0
    for g in shown["samples"]:
        assert [(s["index"], s["bands"]) for s in g["items"]] == expected[g["group"]], g["group"]
        for s in g["items"]:
            item, row = report["items"][s["index"]], rows[s["index"]]
            assert s["id"] == item["id"] == row["id"]
            assert float(s["scores"]["rougeL"]) == item["rougeL"]
            assert float(s["scores"]["bleu"]) == item["sentence_bleu"]
            # the highlights: the explanation's matched tokens, as the original text at their spans
            ex = explain(item["prediction"], row["responses"], rouge_types=ROUGE_TYPES)
            hl = ex["highlight"]
            pred = ex["prediction"]
            # the page shows the text by the terminal's rule (a data's LRM U+200E as \u200e), the JSON keeps it exact
            assert s["prediction"].replace("(empty prediction)", "") == visible_controls(item["prediction"])
            assert item["prediction"] == pred["text"]
            assert s["prediction_marks"] == [[k, visible_controls(pred["text"][pred["tokens"][k]["start"]:
                                                                              pred["tokens"][k]["end"]])]
                                             for k in hl["prediction"]]
            ref = ex["references"][hl["reference"]]
            assert s["winner"] == hl["reference"]
            assert s["winner_text"] == row["responses"][hl["reference"]]
            assert s["winner_marks"] == [[k, ref["text"][ref["tokens"][k]["start"]:ref["tokens"][k]["end"]]]
                                         for k in hl["reference_tokens"]]
            # a matched token is the same token on both sides (as normalised text), in order
            assert sorted(pred["tokens"][k]["token"] for k in hl["prediction"]) == \
                sorted(ref["tokens"][k]["token"] for k in hl["reference_tokens"])
            assert ex["rouge"]["rougeL"]["score"]["fmeasure"] == item["rougeL"]
            n_marks += len(s["prediction_marks"])
    assert n_marks > 0

    # nothing fetched, nothing to fetch
    assert shown["resources"] == []
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", page_source, re.I)
    assert not re.search(r"url\(\s*['\"]?(?:https?:)?//|@import", page_source, re.I)
    assert "<script" not in page_source.lower()
    assert "does not describe the reported number" not in shown["body"]


@pytest.mark.commands  # Chromium: .ci/commands
def test_html_report_in_browser(tmp_path):
    with sample_files() as files:
        sample = _score(tmp_path, "sample", files["data"], files["predictions"], "domain,difficulty")
    crosswoz = _score(tmp_path, "crosswoz", *_crosswoz_files(tmp_path), "difficulty")
    with page_kit.headless_chromium(1300, 1000) as driver:
        for (report, html, rows), by in ((sample, ["domain", "difficulty"]), (crosswoz, ["difficulty"])):
            page_kit.open_report(driver, html)
            shown = driver.execute_script(READ_PAGE)
            _check_page(shown, report, rows, by, html.read_text(encoding="utf-8"))
            # Chinese as text: in the page (group labels, predictions) and in the plot's SVG text
            han = re.compile(r"[\u4e00-\u9fff]")
            labels = [(g["dimension"], g["value"]) for g in report["groups"]
                      if g["dimension"] != "overall" and g["value"] is not None]
            assert labels
            for dim, label in labels:
                assert f"{dim}={label}" in shown["body"]
                assert label in shown["svgText"], (label, shown["svgText"][:20])
            assert any(han.search(t) for t in shown["svgText"])
            for w in report["warnings"]:
                assert w in shown["warnings"]
        # the screenshot of the sample report (the last one opened is crosswoz: reopen the sample)
        page_kit.open_report(driver, sample[1])
        png = page_kit.screenshot(driver, tmp_path / "html_report.png")
    assert png.stat().st_size > 50_000
    target = os.environ.get("ZHEVAL_HTML_SCREENSHOT")
    if target:
        shutil.copyfile(png, target)
