"""``zheval compare`` gives each system the diagnostics ``zheval score`` gives one (issue 35: nothing reinterpreted
silently): an empty prediction, predictions that do not end a sentence (truncated), a length ratio beyond ±30%, in
the table and in the JSON (``diagnostics`` per system label with its file, ``warnings`` prefixed with the label);
without ``--data``, the notes ``score`` gives of a records file's rows (empty reference cells, quoted cells over
several lines), per system. The expected counts are worked out in comments from the three items of
`helpers.cli.ROWS`, whose six references all end in 。 or ？ (no reference is truncated)."""

from __future__ import annotations

import json

from helpers.cli import PREDS, ROWS, run_cli as run, write_jsonl
from zheval.text.normalize import BLANK_SCORED


def _systems(tmp_path, a_texts, b_texts):
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    a = write_jsonl(tmp_path / "a.jsonl", [{"id": p["id"], "prediction": t} for p, t in zip(PREDS, a_texts)])
    b = write_jsonl(tmp_path / "b.jsonl", [{"id": p["id"], "prediction": t} for p, t in zip(PREDS, b_texts)])
    return data, a, b


def _compare(data, a, b, *more):
    res = run("compare", "-d", data, "-p", a, b, "--bootstrap", 20, "-q", "--by", "none", *more)
    assert res.exit_code == 0, res.output
    return res


GOOD = [p["prediction"] for p in PREDS]  # 请在订单页申请退货。 / 我陪着你，想聊聊吗？ / 明天记得穿外套。: all end a sentence


def test_an_empty_prediction_is_warned_for_its_system_only(tmp_path):
    # B's q2 is empty: 1 empty prediction of 3, in B; A has none
    data, a, b = _systems(tmp_path, GOOD, [GOOD[0], "", GOOD[2]])
    doc = json.loads(_compare(data, a, b, "-f", "json").stdout)
    empty = [w for w in doc["warnings"] if "empty prediction" in w]
    assert empty == [f"B: 1 empty prediction(s) ({BLANK_SCORED})"], doc["warnings"]
    diag = doc["diagnostics"]
    assert list(diag) == ["A", "B"]
    assert (diag["A"]["source"], diag["B"]["source"]) == (str(a), str(b))
    assert (diag["A"]["empty_predictions"], diag["B"]["empty_predictions"]) == (0, 1)
    assert diag["B"]["empty_ids"] == ["q2"] and diag["B"]["endings"]["empty"] == 1
    table = _compare(data, a, b).stdout
    assert f"  ! B: 1 empty prediction(s) ({BLANK_SCORED})" in table and "A: 1 empty" not in table
    assert f"  B ({b}):" in table and "    empty predictions: 1 (q2)" in table
    assert f"  A ({a}):" in table and "    empty predictions: 0" in table


def test_predictions_that_do_not_end_a_sentence_are_warned_for_their_system_only(tmp_path):
    # A's q3 stops after a comma (mid-clause): 1 of 3 = 33% truncated, above 5% and above twice the references'
    # 0%; B ends every reply
    data, a, b = _systems(tmp_path, [GOOD[0], GOOD[1], "明天记得穿外套，"], GOOD)
    doc = json.loads(_compare(data, a, b, "-f", "json").stdout)
    cut = [w for w in doc["warnings"] if "do not end a sentence" in w]
    assert len(cut) == 1 and cut[0].startswith("A: 33% of predictions do not end a sentence (above 5%; "
                                               "references: 0%)"), doc["warnings"]
    # compare has no table without the truncated predictions: the warning points to zheval score for it
    assert "zheval score of these predictions (without --stream) shows the scores without them" in cut[0]
    diag = doc["diagnostics"]
    assert (diag["A"]["truncated"], diag["B"]["truncated"]) == (1, 0)
    assert diag["A"]["endings"] == {"final": 2, "no_final_punct": 0, "mid_word": 1, "empty": 0}
    assert diag["A"]["truncation_rate"] == 1 / 3 and diag["A"]["reference_truncation_rate"] == 0.0
    table = _compare(data, a, b).stdout
    assert "  ! A: 33% of predictions do not end a sentence" in table and "B: 33%" not in table
    assert "    truncation: 1/3 (33.3%) do not end a sentence (no final punctuation 0, mid-clause 1)" in table


def test_both_diagnostics_name_their_systems_with_three_systems(tmp_path):
    # A clean; B one empty (q1); C one truncated (q2 without its final ？: 我陪着你，想聊聊吗 just stops)
    data, a, b = _systems(tmp_path, GOOD, ["", GOOD[1], GOOD[2]])
    c = write_jsonl(tmp_path / "c.jsonl", [{"id": p["id"], "prediction": t} for p, t in
                                           zip(PREDS, [GOOD[0], "我陪着你，想聊聊吗", GOOD[2]])])
    doc = json.loads(_compare(data, a, b, c, "-f", "json").stdout)
    assert [w for w in doc["warnings"] if "empty prediction" in w] == [f"B: 1 empty prediction(s) ({BLANK_SCORED})"]
    assert [w[:38] for w in doc["warnings"] if "do not end a sentence" in w] == \
        ["C: 33% of predictions do not end a sen"]
    assert {k: (v["empty_predictions"], v["truncated"], v["endings"]["no_final_punct"])
            for k, v in doc["diagnostics"].items()} == {"A": (0, 0, 0), "B": (1, 0, 0), "C": (0, 1, 1)}
    assert doc["diagnostics"]["C"]["source"] == str(c)


def test_a_length_ratio_beyond_30_percent_is_warned_for_its_system(tmp_path):
    # B answers 好的。 (3 characters: the default normaliser keeps the marks) to every item. Reference lengths:
    #   q1 refs 您好，请在订单页申请退货。 (13) 可以在订单页面申请退货。 (12): mean 12.5; 好的。 3 -> 3/12.5 = 0.24
    #   q2 refs 我在这里陪着你，想聊聊吗？ (13) 听起来你很难受，愿意说说吗？ (14): mean 13.5 -> 3/13.5
    #   q3 refs 明天降温，记得穿外套。 (11) 天气转凉，建议加一件外套。 (13): mean 12 -> 3/12 = 0.25
    ratio = (3 / 12.5 + 3 / 13.5 + 3 / 12) / 3  # 0.237..., 76% shorter
    data, a, b = _systems(tmp_path, GOOD, ["好的。"] * 3)
    doc = json.loads(_compare(data, a, b, "-f", "json").stdout)
    assert abs(doc["diagnostics"]["B"]["length_ratio"] - ratio) < 1e-12
    short = [w for w in doc["warnings"] if "shorter than the references" in w]
    assert short == [f"B: predictions are on average 76% shorter than the references (ratio {ratio:.2f}, beyond "
                     "±30%): BLEU's brevity penalty and ROUGE precision/recall are affected"], doc["warnings"]


def test_records_files_get_the_notes_score_gives_of_their_rows_per_system(tmp_path):
    # without --data: A's gold2 is empty on row b (line 3) and its row c holds a quoted cell over two lines
    # (lines 4-5); B is the same rows written on one line each, gold2 given everywhere
    a = tmp_path / "a.csv"
    a.write_text("id,pred,gold1,gold2\na,今天天气很好。,今天天气不错。,天气很好。\nb,我喜欢猫。,我爱猫。,\n"
                 "c,\"他去了\n北京。\",他去北京了。,他去了北京。\n", encoding="utf-8")
    b = tmp_path / "b.csv"
    b.write_text("id,pred,gold1,gold2\na,天气很好。,今天天气不错。,天气很好。\nb,猫。,我爱猫。,\n"
                 "c,北京。,他去北京了。,他去了北京。\n", encoding="utf-8")
    res = run("compare", "-p", a, b, "--pred-field", "pred", "--ref-field", "gold1", "--ref-field", "gold2",
              "--bootstrap", 20, "-q", "-f", "json")
    assert res.exit_code == 0, res.output
    notes = json.loads(res.stdout)["notes"]
    cells = "1 row(s) have an empty 'gold2' cell: no reference there (those rows are scored with the references they have)"
    assert f"A: {cells}" in notes and f"B: {cells}" in notes, notes
    assert [n for n in notes if "quoted cell over several lines" in n] == [
        f"A: 1 row(s) hold a quoted cell over several lines (first at {a}:4): if every row should be one line, a "
        "stray \" at the start of a cell merged the lines after it into that cell"]
    assert "empty 'gold2' cell" not in res.stderr  # in the report, not on stderr as well


def test_max_refs_line_in_each_system_diagnostics(tmp_path):
    """Issue 35 leftovers: ``zheval score --max-refs K`` says in its diagnostics how many items had fewer references
    and how many were cut; ``zheval compare --max-refs K`` said it only in a note on stderr. Now each system's
    diagnostics carry the same line, in the table, the JSON (``reference_limit``) and Markdown, and the HTML page."""
    replies = ["取件码在短信里。", "可以看短信。", "打开订单页就能看到。", "取件码一般在短信通知里。", "联系快递员。",
               "在驿站小程序里也能看到。", "您好，取件码在短信里。"]
    counts = [7, 2, 6, 3, 2, 5]  # K = 3: fewer 2 (the two 2s), cut 3 (7, 6, 5), 4 + 3 + 2 = 9 references left out
    rows = [{"id": f"q{i}", "query": "取件码在哪看？", "responses": [replies[(i + j) % 7] for j in range(k)],
             "domain": "售后支持", "difficulty": None} for i, k in enumerate(counts)]
    data = write_jsonl(tmp_path / "d.jsonl", rows)
    a = write_jsonl(tmp_path / "a.jsonl", [{"id": r["id"], "prediction": "取件码在短信里。"} for r in rows])
    b = write_jsonl(tmp_path / "b.jsonl", [{"id": r["id"], "prediction": "看短信。"} for r in rows])
    line = ("references: scored with the first 3 of every item; 2 of 6 item(s) had fewer (they keep theirs), 3 had "
            "more (cut; 9 reference(s) left out)")
    doc = json.loads(_compare(data, a, b, "--max-refs", 3, "-f", "json").stdout)
    for label in ("A", "B"):
        assert doc["diagnostics"][label]["reference_limit"] == {"max_refs": 3, "items": 6, "fewer": 2, "truncated": 3,
                                                                "dropped_references": 9}
        assert doc["diagnostics"][label]["ref_count_distribution"] == {"2": 2, "3": 4}  # after the cut
    table = _compare(data, a, b, "--max-refs", 3).stdout
    assert table.count(f"    {line}") == 2 and table.index(f"  A ({a}):") < table.index(line) < table.index(f"  B ({b}):")
    md = _compare(data, a, b, "--max-refs", 3, "-f", "markdown").stdout
    assert md.count(f"    - {line}") == 2, md
    html = tmp_path / "c.html"
    _compare(data, a, b, "--max-refs", 3, "--html", html)
    assert html.read_text(encoding="utf-8").count(line) == 2
    doc = json.loads(_compare(*_systems(tmp_path, GOOD, GOOD), "-f", "json").stdout)  # no --max-refs: no such key
    assert "reference_limit" not in doc["diagnostics"]["A"]
