"""``zheval score --html`` / ``zheval compare --html`` as a user runs them: the page is written beside the other
outputs with the same numbers, bad ``--html`` / ``--html-metric`` requests fail before any work, and the per-item
scores the page needs do not leak into the other outputs without ``--items``."""

from __future__ import annotations

import json
import re

import pytest

from helpers.cli import TWO_DOMAIN_PREDS as PREDS, TWO_DOMAIN_ROWS as ROWS, run_cli as run, write_jsonl


def _files(tmp_path):
    data, preds = write_jsonl(tmp_path / "test.jsonl", ROWS), tmp_path / "preds.txt"
    preds.write_text("\n".join(PREDS) + "\n", encoding="utf-8")
    return data, preds


def test_score_html_beside_json_without_items(tmp_path):
    data, preds = _files(tmp_path)
    out, html = tmp_path / "r.json", tmp_path / "r.html"
    res = run("score", "-d", data, "-p", preds, "--bootstrap", 50, "-q", "-f", "json", "-o", out, "--html", html)
    assert res.exit_code == 0, res.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert "items" not in report  # kept for the page only
    page = html.read_text(encoding="utf-8")
    for g in report["groups"]:
        for v in g["scores"].values():
            assert f'data-value="{v["value"]!r}"' in page
    assert page.count('<article class="sample"') >= 4 and "<mark" in page
    assert f"wrote {html}" in res.output


def test_score_html_metric_bleu_and_items_kept(tmp_path):
    data, preds = _files(tmp_path)
    out, html = tmp_path / "r.json", tmp_path / "r.html"
    res = run("score", "-d", data, "-p", preds, "--bootstrap", 0, "-q", "-f", "json", "-o", out, "--html", html,
              "--html-metric", "bleu", "--items")
    assert res.exit_code == 0, res.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert len(report["items"]) == 4
    assert "Chosen by BLEU per item (sentence BLEU)" in html.read_text(encoding="utf-8")


def test_bad_html_requests_fail_before_work(tmp_path):
    data, preds = _files(tmp_path)
    html = tmp_path / "r.html"
    res = run("score", "-d", data, "-p", preds, "--html", html, "--html-metric", "rougeL", "--rouge-types", "rouge1")
    assert res.exit_code == 2
    assert "--html-metric 'rougeL' is not reported by this run; choose one of: bleu, rouge1" in res.output
    res = run("score", "-d", data, "-p", preds, "--html", html, "--html-metric", "bleu", "--metrics", "rouge")
    assert res.exit_code == 2 and "choose one of: rouge1, rouge2, rougeL" in res.output
    res = run("score", "-d", data, "-p", preds, "--html", data)
    assert res.exit_code == 2 and "--html must differ from the input file" in res.output
    res = run("score", "-d", data, "-p", preds, "-o", html, "--html", html)
    assert res.exit_code == 2 and "--output and --html must be different files" in res.output
    res = run("score", "-d", data, "-p", preds, "--html", tmp_path / "missing" / "r.html")
    assert res.exit_code == 2 and "output directory does not exist" in res.output
    assert not html.exists()


def test_compare_html(tmp_path):
    data, preds = _files(tmp_path)
    other = tmp_path / "b.txt"
    other.write_text("\n".join(reversed(PREDS)) + "\n", encoding="utf-8")
    out, html = tmp_path / "c.json", tmp_path / "c.html"
    res = run("compare", "-d", data, "-p", preds, other, "--bootstrap", 50, "-q", "-f", "json", "-o", out,
              "--html", html, "--by", "none")  # overall rows (small groups have no p-value)
    assert res.exit_code == 0, res.output
    report = json.loads(out.read_text(encoding="utf-8"))
    page = html.read_text(encoding="utf-8")
    assert 'id="comparison"' in page
    for r in report["comparison"]:
        assert f'data-value="{r["delta"]!r}"' in page and f'data-value="{r["p_value"]!r}"' in page


@pytest.mark.parametrize("options", [
    [],
    ["--metrics", "rouge", "--rouge-types", "rougeW,rougeSU4,rougeLsum"],
    ["--metrics", "bleu", "--html-metric", "bleu"],
    ["--preset", "sacrebleu-zh", "--metrics", "bleu"],
    ["-t", "jieba", "--punct", "drop"],
    ["--multi-ref", "mean", "--rouge-types", "rouge1,rougeL"],
    ["--multi-ref", "best_recall", "--smooth", "floor", "--max-order", "2"],
], ids=lambda o: " ".join(o) or "defaults")
def test_explanations_give_the_reported_item_numbers(tmp_path, options):
    """Under every scoring option the explanation shown for an item gives the JSON report's per-item numbers
    (sentence BLEU, ROUGE F per type), exactly: the page explains the scoring the report used."""
    data, preds = _files(tmp_path)
    out, html = tmp_path / "r.json", tmp_path / "r.html"
    res = run("score", "-d", data, "-p", preds, "--bootstrap", 0, "-q", "-f", "json", "-o", out, "--html", html,
              "--items", "--by", "domain", *options)
    assert res.exit_code == 0, res.output
    items = json.loads(out.read_text(encoding="utf-8"))["items"]
    page = html.read_text(encoding="utf-8")
    articles = page.split('<article class="sample"')[1:]
    assert len(articles) >= 3
    checked = 0
    for a in articles:
        item = items[int(re.search(r'data-index="(\d+)"', a).group(1))]
        for rt, value in re.findall(r'<td class="num" data-type="(\w+)" data-value="([^"]+)"', a):
            assert float(value) == item[rt], (rt, item["id"])
            checked += 1
        bleu = re.search(r'class="sentence-bleu" data-value="([^"]+)"', a)
        if "sentence_bleu" in item:
            assert float(bleu.group(1)) == item["sentence_bleu"], item["id"]
            checked += 1
        else:
            assert bleu is None
    assert checked >= len(articles)
    assert "does not describe the reported number" not in page


def _item_scores(page: str, item_id: str) -> dict:
    """``{metric: data-value}`` of the item header and ``{type: data-value}`` of its explanation's item score."""
    art = re.search(r'<article class="sample" data-id="%s".*?</article>' % re.escape(item_id), page, re.S).group(0)
    head = dict(re.findall(r'class="item-score" data-metric="(\w+)" data-value="([^"]*)"', art))
    expl = dict(re.findall(r'<td class="num" data-type="(\w+)" data-value="([^"]*)"><b>', art))
    return head, expl


def test_html_explains_the_first_k_references_of_max_refs(tmp_path):
    # duck-test-0004 (4 references) with --max-refs 1: ROUGE-1 on the first reference, by hand 15 clipped unigram
    # hits, P 15/22, R 15/29, F 30/51 = 0.5882 -- the item header and its explanation agree, no mismatch note
    from zheval.adapters.duck import sample_files

    html = tmp_path / "mr1.html"
    with sample_files() as f:
        res = run("score", "--data", f["data"], "--predictions", f["predictions"], "--max-refs", 1, "--html", html,
                  "-q", "--bootstrap", 0)
    assert res.exit_code == 0, res.output
    page = html.read_text(encoding="utf-8")
    assert "does not describe the reported number" not in page
    for art_id in re.findall(r'<article class="sample" data-id="([^"]+)"', page):
        head, expl = _item_scores(page, art_id)
        for t, v in expl.items():
            assert float(v) == float(head[t]), (art_id, t)
    if 'data-id="duck-test-0004"' in page:
        head, expl = _item_scores(page, "duck-test-0004")
        assert float(expl["rouge1"]) == pytest.approx(30 / 51, abs=1e-12)


@pytest.mark.parametrize("char, expanded", [("‼", "！！"), ("½", "1⁄2"), ("㍿", "株式会社"), ("⑴", "(1)")])
def test_html_with_a_character_whose_nfkc_is_several_tokens(tmp_path, char, expanded):
    rec = tmp_path / "bang.jsonl"
    rec.write_text(json.dumps({"predict": f"太好了{char}", "label": f"太好了{expanded}"}, ensure_ascii=False) + "\n"
                   + json.dumps({"predict": "好的", "label": "好的"}, ensure_ascii=False) + "\n", encoding="utf-8")
    html = tmp_path / "bang.html"
    res = run("score", "-p", rec, "--html", html, "-q", "--bootstrap", 0)
    assert res.exit_code == 0, res.output
    page = html.read_text(encoding="utf-8")
    # the prediction is shown once, its expanding character in ONE highlighted mark (every token of it matches)
    pred = re.search(r'<span class="text prediction">(.*?)</span></div>', page, re.S).group(1)
    assert re.sub(r"<[^>]+>", "", pred) == f"太好了{char}"
    assert pred.count(f">{char}</mark>") == 1


def test_highlight_error_names_the_item():
    from zheval.adapters.report.html_page import GroupSamples, Sample, render_html
    from zheval.adapters.report.tables import GroupScore, MetricValue, Report

    ex = {"prediction": {"text": "ab", "tokens": [{"token": "b", "start": 1, "end": 2}, {"token": "a", "start": 0,
                                                                                          "end": 1}]},
          "references": [], "highlight": {"prediction": [], "reference": None}}
    with pytest.raises(ValueError, match=r"^item 'q7' \(row 3\): token 1 span \[0, 1\) does not fit"):
        item = {"id": "q7", "prediction": "ab", "rouge1": 0.5}
        rep = Report(kind="score", title="t", metrics=[("rouge1", "ROUGE-1")],
                     groups=[GroupScore("overall", "all", 1, {"rouge1": MetricValue(0.5)})], params={"by": []},
                     items=[item])
        render_html(rep, [GroupSamples("overall", 1, [Sample(["lowest"], 3, item, ex)])])


@pytest.mark.parametrize("test", ["ar", "bootstrap"])
def test_compare_html_three_systems_names_the_system_and_the_test(tmp_path, test):
    data, preds = _files(tmp_path)
    b, c = tmp_path / "b.txt", tmp_path / "c.txt"
    b.write_text("\n".join(p[:4] for p in PREDS) + "\n", encoding="utf-8")
    c.write_text("\n".join(reversed(PREDS)) + "\n", encoding="utf-8")
    html, out = tmp_path / "cmp3.html", tmp_path / "cmp3.json"
    extra = ["--resamples", 200] if test == "ar" else []
    res = run("compare", "-d", data, "-p", preds, b, c, "--test", test, *extra, "--bootstrap", 50, "-q",
              "--html", html, "-f", "json", "-o", out)
    assert res.exit_code == 0, res.output
    page = html.read_text(encoding="utf-8")
    rows = json.loads(out.read_text(encoding="utf-8"))["comparison"]
    assert "<th>system X</th>" in page and "Comparison (each system X − A)" in page
    got = re.findall(r'<tr data-group="([^"]*)" data-metric="([^"]*)" data-system="([^"]*)" data-test="([^"]*)">\n'
                     r'<td>(?:<bdi>)?[^<]*(?:</bdi>)?</td><td class="num">\d+</td><td>[^<]*</td>\n<td data-field="system">([^<]*)</td>',
                     page)
    assert [(g, m, s, t, s2) for g, m, s, t, s2 in got] == [(r["group"], r["metric"], r["system"], test, r["system"])
                                                          for r in rows]
    assert {r["system"] for r in rows} == {"B", "C"}
    if test == "ar":
        assert "p (approximate-randomisation p-value, 200 trials)" in page
        assert "paired-bootstrap p-value" not in page.split('id="interval-note">')[1].split("</p>")[0]
        assert "approximate-randomisation p-value, 200 trials" in page.split('id="interval-note">')[1].split("</p>")[0]
    else:
        assert "p (paired-bootstrap p-value, 50 resamples)" in page and "approximate-randomisation" not in page


@pytest.mark.parametrize("value", ["$a^$", "$x^2$"])
def test_group_labels_are_drawn_literally(tmp_path, value):
    rec = tmp_path / "math.jsonl"
    rec.write_text(json.dumps({"predict": "今天天气很好", "label": "今天天气不错", "cat": value}, ensure_ascii=False)
                   + "\n" + json.dumps({"predict": "好的", "label": "好的", "cat": "b"}) + "\n", encoding="utf-8")
    html, png, svg = tmp_path / "math.html", tmp_path / "math.png", tmp_path / "math.svg"
    res = run("score", "-p", rec, "--group-field", "cat", "--html", html, "--plot", png, "-q", "--bootstrap", 0)
    assert res.exit_code == 0, res.output
    assert png.read_bytes().startswith(b"\x89PNG")
    page = html.read_text(encoding="utf-8")
    texts = [re.sub(r"\s+", " ", t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", page)]
    assert any(value in t for t in texts), texts  # the SVG tick label is the value itself, not rendered math
    res = run("score", "-p", rec, "--group-field", "cat", "--plot", svg, "-q", "--bootstrap", 0)
    assert res.exit_code == 0, res.output


def test_html_shows_the_breakdowns(tmp_path):
    from zheval.adapters.duck import sample_files

    html, out = tmp_path / "r.html", tmp_path / "r.json"
    with sample_files() as f:
        res = run("score", "--data", f["data"], "--predictions", f["predictions"], "--folds", 3, "--buckets",
                  "default", "--max-refs", 2, "--html", html, "-f", "json", "-o", out, "-q", "--bootstrap", 50)
    assert res.exit_code == 0, res.output
    page = html.read_text(encoding="utf-8")
    b = json.loads(out.read_text(encoding="utf-8"))["breakdowns"]
    section = page.split('<section id="breakdowns">')[1].split("</section>")[0]
    cells = [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
             for row in re.findall(r"<tr>(.*?)</tr>", section)]
    # Distinct-n per group, as the JSON has it (3 decimals), predictions / references
    from zheval.adapters.report.tables import group_label  # a missing group value (JSON null) reads `null`

    div = {("overall" if g["dimension"] == "overall" else f"{g['dimension']}={group_label(g['value'])}"): g
           for g in b["diversity"]}
    seen = 0
    for row in cells:
        if row and row[0] in div and len(row) == 6:
            g = div[row[0]]
            assert row[2] == f"{g['distinct']['distinct_1']:.3f} / {g['reference_distinct']['distinct_1']:.3f}"
            seen += 1
    assert seen == len(div)
    assert "random folds" in section and "scores by reference length" in section and "Distinct-n" in section
    for name, m in b["folds"]["metrics"].items():
        assert " ".join(f"{v:.3f}" for v in m["folds"]) in section
    if b["truncation_excluded"]["groups"]:
        assert "truncated prediction(s)" in section
    assert "scored with the first 2 of every item" in page


def test_html_with_a_group_per_item_is_cut_and_says_so(tmp_path):
    # 600 items grouped by a per-row field: 600 groups > every limit of zheval.adapters.report.html_limits
    from zheval.adapters.report.html_limits import MAX_PLOT_GROUPS, MAX_SAMPLE_GROUPS, MAX_TABLE_GROUPS

    assert MAX_PLOT_GROUPS < 600 and MAX_SAMPLE_GROUPS < 600 and MAX_TABLE_GROUPS < 600
    rec = tmp_path / "many.jsonl"
    rec.write_text("".join(json.dumps({"predict": PREDS[i % 4], "label": ROWS[i % 4]["responses"][0], "g": f"g{i:03d}",
                                       "cat": "ab"[i % 2]}, ensure_ascii=False) + "\n" for i in range(600)),
                   encoding="utf-8")
    html, out = tmp_path / "many.html", tmp_path / "many.json"
    res = run("score", "-p", rec, "--group-field", "g", "--group-field", "cat", "--html", html, "-q",
              "--bootstrap", 20, "-f", "json", "-o", out)
    assert res.exit_code == 0, res.output
    assert "zheval: note: the page leaves out part of 'g': it has 600 groups — one per item" in res.output
    page = html.read_text(encoding="utf-8")
    assert "the page leaves out part of &#39;g&#39;" in page
    table = page.split('<table id="scores">')[1].split("</table>")[0]
    assert len(re.findall(r'<tr class="group" data-group="g=', table)) == MAX_TABLE_GROUPS
    assert f"… {600 - MAX_TABLE_GROUPS:,} more groups of g (in the JSON report)" in table
    assert len(re.findall(r'<tr class="group" data-group="cat=', table)) == 2  # the other column is whole
    assert re.findall(r'<figure data-dimension="([^"]+)"', page) == ["cat"]  # g is not plotted
    groups = re.findall(r'<div class="group-samples" data-group="([^"]+)"', page)
    assert groups == ["overall", "cat=a", "cat=b"]
    assert len(json.loads(out.read_text(encoding="utf-8"))["groups"]) == 1 + 600 + 2  # the JSON has every group
