"""Break-it pass 19: a rating or score cell of a CSV file was stripped of any Unicode whitespace before the number
rule ran, so ``5\\xa0``, ``\\u30005``, ``5\\x1c``, ``5\\x0c`` read as 5 silently (ROUGE-L vs relevance moved). Only
spaces and tabs are stripped now (the number rule's own allowance); any other such character is refused at
``FILE:line``, naming the column and the character. And a ``--scores`` JSON object ``{id: score}`` is refused saying
what it is and how to write it. Expected values: SciPy, never zheval's output."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from scipy.stats import spearmanr

import zheval
import zheval.cli.agree  # noqa: F401  (registers the command)
from helpers.cli import run_cli as run

DATA = Path(zheval.__file__).parent / "data"
BAD = {"\u00a0": "'\\xa0' (U+00A0 NO-BREAK SPACE)", "\u3000": "'\\u3000' (U+3000 IDEOGRAPHIC SPACE)",
       "\x0b": "'\\x0b' (U+000B, a control character)", "\x0c": "'\\x0c' (U+000C, a control character)",
       "\x1c": "'\\x1c' (U+001C, a control character)", "\x85": "'\\x85' (U+0085, a control character)"}


def _sheet(tmp_path):
    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.json"
    res = run("sample", "--data", DATA / "duck_sample.jsonl", "-p", DATA / "duck_sample_predictions.jsonl",
              "--k", 12, "--seed", 7, "-o", sheet, "--key", key, "-q")
    assert res.exit_code == 0, res.output
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8-sig"), newline="")))
    items = {it["id"]: it["scores"] for it in json.loads(key.read_text(encoding="utf-8"))["items"]}
    return rows, key, items


def _rated(tmp_path, rows, first: str):
    head, body = rows[0], [list(r) for r in rows[1:]]
    col = head.index("relevance")
    for i, r in enumerate(body):
        r[col] = str(i % 5 + 1)
    body[0][col] = first
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([head] + body)
    rated = tmp_path / "rated.csv"
    rated.write_text(out.getvalue(), encoding="utf-8")
    return rated, [r[0] for r in body], [i % 5 + 1 for i in range(len(body))]


def _rho(res, metric):
    return next(r["spearman"] for r in json.loads(res.stdout)["rows"]
                if r["group"] == "overall" and r["rating"] == "relevance" and r["metric"] == metric)


@pytest.mark.parametrize("ch", list(BAD))
@pytest.mark.parametrize("where", ["before", "after"])
def test_a_rating_cell_with_another_space_is_refused_at_its_line(tmp_path, ch, where):
    rows, key, _ = _sheet(tmp_path)
    rated, ids, _ = _rated(tmp_path, rows, ch + "5" if where == "before" else "5" + ch)
    res = run("agree", "--ratings", rated, "--key", key, "--bootstrap", 0, "-f", "json")
    assert res.exit_code == 2, res.output
    written = repr(ch + "5" if where == "before" else "5" + ch)
    assert (f"{rated}:2: relevance of id {ids[0]!r} is {written}, not a number ({BAD[ch]} has no place in a "
            "number)") in res.stderr, res.stderr


@pytest.mark.parametrize("ch", list(BAD))
def test_a_scores_cell_with_another_space_is_refused_at_its_line(tmp_path, ch):
    rows, key, items = _sheet(tmp_path)
    rated, ids, _ = _rated(tmp_path, rows, "5")
    ext = tmp_path / "ext.csv"
    ext.write_text("id,mine\n" + "".join(f"{i},{items[i]['rougeL']!r}{ch if n == 2 else ''}\n"
                                         for n, i in enumerate(ids)), encoding="utf-8")
    res = run("agree", "--ratings", rated, "--key", key, "--scores", ext, "--bootstrap", 0, "-f", "json")
    assert res.exit_code == 2, res.output
    written = repr(repr(items[ids[2]]["rougeL"]) + ch)
    assert (f"{ext}:4: mine of id {ids[2]!r} is {written}, not a finite number ({BAD[ch]} "
            "has no place in a number)") in res.stderr, res.stderr


@pytest.mark.parametrize("pad", [("5 ", " "), ("\t5", "\t")])
def test_spaces_and_tabs_around_a_number_are_still_read(tmp_path, pad):
    rows, key, items = _sheet(tmp_path)
    rated, ids, ratings = _rated(tmp_path, rows, pad[0])
    ratings[0] = 5
    ext = tmp_path / "ext.csv"
    ext.write_text("id,mine\n" + "".join(f"{i},{pad[1]}{items[i]['rougeL']!r}{pad[1]}\n" for i in ids),
                   encoding="utf-8")
    res = run("agree", "--ratings", rated, "--key", key, "--scores", ext, "--bootstrap", 0, "-f", "json")
    assert res.exit_code == 0, res.output
    want = float(spearmanr([items[i]["rougeL"] for i in ids], ratings).statistic)
    assert _rho(res, "mine") == pytest.approx(want, abs=1e-12)
    assert _rho(res, "rougeL") == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("indent", [None, 2])
def test_a_scores_json_object_of_ids_is_named_with_how_to_write_it(tmp_path, indent):
    rows, key, items = _sheet(tmp_path)
    rated, ids, _ = _rated(tmp_path, rows, "5")
    scd = tmp_path / "scd.json"
    scd.write_text(json.dumps({i: items[i]["rougeL"] for i in ids}, indent=indent) + "\n", encoding="utf-8")
    res = run("agree", "--ratings", rated, "--key", key, "--scores", scd, "--bootstrap", 0)
    assert res.exit_code == 2, res.output
    assert "no id column" not in res.stderr
    assert (f"one JSON object mapping {len(ids)} id(s) to values, not rows: write one JSON Lines row per id, "
            f"{{\"id\": ..., \"score\": ...}} (e.g. jq -c 'to_entries[] | {{id: .key, score: .value}}' {scd} > "
            f"{tmp_path / 'scd.jsonl'}), or a CSV with the header id,score") in res.stderr, res.stderr
    assert (f"{scd}:1: one JSON object" if indent is None else f"{scd}: is one JSON object spread") in res.stderr


@pytest.mark.parametrize("ch", ["\u00a0", "\x0c"])
def test_a_judge_ratings_cell_with_another_space_is_refused_at_its_line(tmp_path, ch):
    from helpers.cli import write_jsonl

    records = write_jsonl(tmp_path / "r.jsonl", [{"id": i, "prediction": p, "label": "今天天气好"}
                                                 for i, p in (("a", "今天天气好"), ("b", "今天"), ("c", "明天"))])
    ratings = tmp_path / "judge.csv"
    ratings.write_text(f"id,overall\na,5\nb,3{ch}\nc,1\n", encoding="utf-8")
    res = run("agree", "--predictions", records, "--judge-ratings", ratings, "--format", "json", "--bootstrap", 0)
    assert res.exit_code == 2, res.output
    assert (f"{ratings}:3: overall of id 'b' is {'3' + ch!r}, not a number ({BAD[ch]} has no place in a "
            "number)") in res.stderr, res.stderr
