"""``zheval agree --predictions`` writes data where a person reads it: its HTML page shows control characters of
group values, ids and the judge's failure answers as the visible escapes of ``zheval score --html`` and isolates
each in ``<bdi>``; a group whose value is ``overall`` is labelled ``grp=overall`` (as ``zheval score`` does) in the
table, Markdown, JSON and HTML, and never mixes with the overall rows; every pair without a correlation is named
with its group and reason; an option of the sheet mode is refused in the three-layer mode."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

import zheval.cli.agree  # noqa: F401  (registers the command)
from helpers.chat_server import ChatServer
from helpers.cli import run_cli, write_jsonl

NASTY_GROUP = "g\x00\x07\r\x9b\u202e"
NASTY_ID = "d\u202e\x1b"
# every character the page must not hold raw: C0 but \n and \t, DEL, C1, the bidi controls, U+2028/U+2029
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
ITEMS = [  # (id, prediction, reference, group, rating)
    ("a", "今天天气很好", "今天天气不错", "overall", 4),
    ("b", "我们去公园散步", "我们去公园", "overall", 2),
    ("c", "明天有雨", "明天下雨", "overall", 5),
    (NASTY_ID, "你好啊", "你好朋友", NASTY_GROUP, 3),
    ("e", "谢谢你的帮助", "谢谢帮助", "x", 3),
    ("f", "再见了", "再见", "x", 3),
    ("g", "我喜欢北京", "我爱北京", "x", 3),
]
METRICS = ["BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L", "chrF"]


@pytest.fixture()
def files(tmp_path):
    preds = write_jsonl(tmp_path / "preds.jsonl", [{"id": i, "prediction": p, "reference": r, "grp": g}
                                                  for i, p, r, g, _ in ITEMS])
    ratings = write_jsonl(tmp_path / "r.jsonl", [{"id": i, "overall": s, "prediction_sha256": hashlib.sha256(
        p.encode("utf-8")).hexdigest(), "references_sha256": hashlib.sha256(json.dumps(
            [r], ensure_ascii=False).encode("utf-8")).hexdigest()}
        for i, p, r, _, s in ITEMS])  # as zheval judge --output writes it
    return preds, ratings


def _agree(files, *extra):
    preds, ratings = files
    return run_cli("agree", "-p", preds, "--judge-ratings", ratings, "--group-field", "grp", "--bootstrap", 0, *extra)


def test_the_html_page_shows_controls_as_escapes_and_isolates_data(files, tmp_path):
    res = _agree(files, "--html", tmp_path / "out.html")
    assert res.exit_code == 0, res.output
    html = (tmp_path / "out.html").read_text(encoding="utf-8")
    assert RAW.search(html) is None, repr(RAW.search(html))
    assert "<td><bdi>grp=g\\x00\\x07\\r\\x9b\\u202e</bdi></td>" in html  # the escapes of zheval score --html
    assert "<td><bdi>grp=overall</bdi></td>" in html and "<td><bdi>overall</bdi></td>" in html
    assert ("<li><bdi>grp=x</bdi>: <bdi>BLEU</bdi>, <bdi>ROUGE-1</bdi>, <bdi>ROUGE-2</bdi>, <bdi>ROUGE-L</bdi>, "
            "<bdi>chrF</bdi> vs <bdi>rating:overall</bdi>: no correlation (constant ratings over the 3 items)</li>"
            in html)


def test_a_live_judges_failure_answers_and_ids_are_escaped_and_isolated(tmp_path):
    # RANGE-ALWAYS: the scripted judge answers overall 0 (out of range: a failure); ECHO: its reason repeats the
    # prediction, so the failure's answer holds the prediction's U+202E and U+009B raw (JSON escapes only C0)
    rows = [{"id": "a", "prediction": "今天天气很好", "reference": "今天天气不错"},
            {"id": "b", "prediction": "我们去公园散步", "reference": "我们去公园"},
            {"id": "c", "prediction": "明天有雨", "reference": "明天下雨"},
            {"id": "e", "prediction": "谢谢你的帮助呀", "reference": "谢谢帮助"},
            {"id": NASTY_ID, "prediction": "ECHO RANGE-ALWAYS 坏\u202e\x9b[2J", "reference": "好"}]
    path = write_jsonl(tmp_path / "preds.jsonl", rows)
    with ChatServer() as server:
        res = run_cli("agree", "-p", path, "--judge-url", server.base_url, "--judge-model", "m", "--api-key", "k",
                      "--judge-cache-dir", tmp_path / "cache", "--bootstrap", 0, "--html", tmp_path / "out.html")
    assert res.exit_code == 0, res.output
    html = (tmp_path / "out.html").read_text(encoding="utf-8")
    assert "Judge failures (1)" in html
    assert RAW.search(html) is None, repr(RAW.search(html))
    section = html.split("Judge failures (1)")[1]
    failure = re.search(r"<li><bdi>(.*?)</bdi>: (.*?); answer: <bdi>(.*?)</bdi></li>", section, flags=re.S)
    assert failure is not None, section
    assert failure.group(1) == "d\\u202e\\x1b"
    assert "坏\\u202e\\x9b[2J" in failure.group(3)


def test_a_group_named_overall_is_grp_overall_everywhere(files):
    res = _agree(files, "--format", "json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    labels = [r["group"] for r in doc["rows"]]
    assert labels == (["overall"] * 5 + ["grp=overall"] * 5 + ["grp=g\x00\x07\r\x9b\u202e"] * 5 + ["grp=x"] * 5)
    assert [(r["dimension"], r["value"], r["n"]) for r in doc["rows"][::5]] == [
        ("overall", None, 7), ("grp", "overall", 3), ("grp", NASTY_GROUP, 1), ("grp", "x", 3)]
    # which metric agrees best: the five overall rows only, each metric once
    assert sorted(doc["best"]["rating:overall"]) == sorted(METRICS)
    table = _agree(files)
    assert table.exit_code == 0, table.output
    lines = table.stdout.splitlines()
    assert sum(1 for x in lines if x.startswith("grp=overall ")) == 5
    assert sum(1 for x in lines if x.startswith("overall ")) == 5
    best = next(x for x in lines if x.startswith("  rating:overall: "))
    assert best.count(" > ") + best.count(" = ") == 4  # five entries (tied ρ joined by =: test_cli_agree_ties)
    md = _agree(files, "--format", "markdown")
    assert md.stdout.count("| grp=overall |") == 5 and md.stdout.count("| overall |") == 5


def test_every_pair_without_a_correlation_is_named_with_its_group_and_reason(files):
    res = _agree(files)
    assert res.exit_code == 0, res.output
    notes = res.stdout.split("\nnotes\n")[1].splitlines()
    # the n-gram signatures follow the interval note (test_cli_layers_signatures)
    assert [n.split(" signature: ")[0] for n in notes[1:4]] == ["  bleu", "  rouge", "  chrf"]
    notes = notes[:1] + notes[4:]
    assert notes == [
        "  no bootstrap intervals (--bootstrap 0)",
        "  grp=g\\x00\\x07\\r\\x9b\\u202e: BLEU, ROUGE-1, ROUGE-2, ROUGE-L, chrF vs rating:overall: no correlation "
        "(n=1: a correlation needs at least 3 items)",
        "  grp=x: BLEU, ROUGE-1, ROUGE-2, ROUGE-L, chrF vs rating:overall: no correlation (constant ratings over the "
        "3 items)",
    ]


def test_the_sheet_modes_options_are_refused_with_predictions(files, tmp_path):
    res = _agree(files, "--ratings-columns", "overall")
    assert res.exit_code == 2
    assert ("--ratings-columns belongs to the review sheet mode (--ratings/--key) of zheval agree, not to the "
            "three-layer mode (--predictions)") in res.stderr


def test_every_option_of_agree_has_a_mode():
    import typer.main

    from zheval.cli.agree import LAYERS, MODE_OF, SHEET
    from zheval.cli.commands import app

    command = typer.main.get_command(app).commands["agree"]
    assert {p.name for p in command.params} == set(MODE_OF)
    assert {MODE_OF[n] for n in ("ratings", "key", "ratings_columns", "scores")} == {SHEET}
    assert MODE_OF["html"] == MODE_OF["judge_ratings"] == MODE_OF["layer_tokenizer"] == LAYERS
    assert [n for n, m in MODE_OF.items() if m is None] == ["bootstrap", "seed", "fmt", "output"]


def test_an_option_of_the_other_mode_is_refused_even_at_its_default(tmp_path):
    # before: "--tokenizer char" (the three-layer mode's default) passed unnoticed in sheet mode, since the check
    # compared values with the defaults; it is judged by what the user typed (checked before any file is read)
    for typed in (["--tokenizer", "char"], ["--tokenizer", "jieba"]):
        res = run_cli("agree", "--ratings", tmp_path / "sheet.csv", "--key", tmp_path / "key.json", *typed)
        assert res.exit_code == 2, res.output
        assert ("--tokenizer belongs to the three-layer mode (--predictions) of zheval agree, not to the review "
                "sheet mode (--ratings/--key)") in res.stderr
