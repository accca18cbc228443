"""zheval sample / zheval agree end to end on real dialogue data (CrossWOZ same-query groups): the sheet has the
sampled items and no score, the key names every item; after rating, agree's correlations equal a hand Spearman and a
hand Kendall tau-b computed here from the key's scores and the ratings, overall and per domain. Bad input: --k larger
than the data, ids that do not match the key (listed), an id twice (both lines), a non-numeric rating (file:line,
with multi-line reference cells before it), empty cells (counted and listed, not dropped), a file that is not a key,
an unknown --by-metric."""

from __future__ import annotations

import csv
import io
import json

import pytest

from oracles.rank_correlation import hand_kendall_b, hand_spearman
from helpers.cli import run_cli as run, write_jsonl

DOMAINS = ("生活咨询", "售后支持", "情感陪伴")


@pytest.fixture()
def files(tmp_path, crosswoz_groups):
    groups = [g for g in crosswoz_groups if len(g["responses"]) >= 3][:60]
    data = [{"id": f"q{k}", "query": g["query"], "responses": g["responses"][1:], "domain": DOMAINS[k % 3],
             "difficulty": None} for k, g in enumerate(groups)]
    preds = [{"id": f"q{k}", "prediction": g["responses"][0]} for k, g in enumerate(groups)]
    return write_jsonl(tmp_path / "data.jsonl", data), write_jsonl(tmp_path / "preds.jsonl", preds), data


def _sample(tmp_path, files, k=30, *extra):
    data, preds, _ = files
    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.json"
    res = run("sample", "-d", data, "-p", preds, "--k", k, "--seed", 9, "-o", sheet, "--key", key, "-q", *extra)
    assert res.exit_code == 0, res.output
    return sheet, key


def _read_sheet(sheet):
    text = sheet.read_text(encoding="utf-8-sig")
    return list(csv.reader(io.StringIO(text, newline="")))


def _write_sheet(path, rows):
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


def _rate(rows, rate):
    """Fill the rating columns: rate(id, column index) -> cell text."""
    head = rows[0]
    cols = [head.index(c) for c in ("relevance", "informativeness", "naturalness")]
    out = [head]
    for r in rows[1:]:
        r = list(r)
        for j, c in enumerate(cols):
            r[c] = rate(r[0], j)
        out.append(r)
    return out


def test_sample_then_agree_equals_hand_correlations(tmp_path, files):
    sheet, key = _sample(tmp_path, files)
    rows = _read_sheet(sheet)
    kd = json.loads(key.read_text(encoding="utf-8"))
    assert rows[0] == ["id", "query", "prediction", "references", "relevance", "informativeness", "naturalness"]
    assert len(rows) == 31 and [r[0] for r in rows[1:]] == [it["id"] for it in kd["items"]]
    assert all(r[4:] == ["", "", ""] for r in rows[1:])
    assert [s["sampled"] for s in kd["strata"]] == [10, 10, 10]
    scores = {it["id"]: it["scores"] for it in kd["items"]}

    def rate(rid, j):  # deterministic ratings: relevance follows ROUGE-L, the others are arbitrary with ties
        n = int(rid[1:])
        return [str(1 + round(4 * scores[rid]["rougeL"])), str(1 + n % 5), str(1 + (n // 3) % 3)][j]

    filled = _write_sheet(tmp_path / "filled.csv", _rate(rows, rate))
    out = tmp_path / "agree.json"
    res = run("agree", "--ratings", filled, "--key", key, "--bootstrap", 200, "-f", "json", "-o", out)
    assert res.exit_code == 0, res.output
    rep = json.loads(out.read_text(encoding="utf-8"))
    doms = {it["id"]: it["domain"] for it in kd["items"]}
    got = {(r["group"], r["metric"], r["rating"]): r for r in rep["rows"]}
    assert len(got) == 4 * 4 * 3  # (overall + 3 domains) x 4 metrics x 3 ratings
    for group in ("overall", *[f"domain={d}" for d in DOMAINS]):
        ids = [r[0] for r in rows[1:] if group == "overall" or group == f"domain={doms[r[0]]}"]
        for metric in ("bleu", "rouge1", "rouge2", "rougeL"):
            for j, col in enumerate(("relevance", "informativeness", "naturalness")):
                x = [round(scores[i][metric], 12) for i in ids]  # equal but for the last bits: tied (SCORE_TIE_TOLERANCE)
                y = [float(rate(i, j)) for i in ids]
                row = got[(group, metric, col)]
                assert row["n"] == len(ids) and row["empty"] == 0
                assert row["spearman"] == pytest.approx(hand_spearman(x, y), abs=1e-12)
                assert row["kendall"] == pytest.approx(hand_kendall_b(x, y), abs=1e-12)
                assert row["spearman_low"] <= row["spearman_high"]
    table = run("agree", "--ratings", filled, "--key", key, "--bootstrap", 50).output
    assert "Spearman ρ [95% CI]" in table and "domain=情感陪伴" in table


def test_k_larger_than_the_data_and_unknown_metric(tmp_path, files):
    data, preds, rows = files
    res = run("sample", "-d", data, "-p", preds, "--k", len(rows) + 1, "-o", tmp_path / "s.csv", "--key",
              tmp_path / "k.json", "-q")
    assert res.exit_code == 2 and f"--k {len(rows) + 1} is larger than the data" in res.output
    assert f"has {len(rows)} items" in res.output and not (tmp_path / "s.csv").exists()
    res = run("sample", "-d", data, "-p", preds, "--k", 5, "--by-metric", "rougeLsum", "-o", tmp_path / "s.csv",
              "--key", tmp_path / "k.json", "-q")
    assert res.exit_code == 2 and "--by-metric 'rougeLsum' is not a computed metric" in res.output
    res = run("sample", "-d", data, "-p", preds, "--k", 0, "-q")
    assert res.exit_code == 2 and "--k" in res.output


@pytest.mark.parametrize("k", [1, 2])
def test_k_below_three_is_refused_as_agree_could_never_use_the_sheet(tmp_path, files, k):
    # issue 35: --k 1 wrote a sheet zheval agree can never use (a correlation needs 3 rated items) and printed
    # "(1 items to rate: ...)"
    data, preds, _ = files
    sheet, key = tmp_path / "s.csv", tmp_path / "k.json"
    res = run("sample", "-d", data, "-p", preds, "--k", k, "-o", sheet, "--key", key, "-q")
    assert res.exit_code == 2, res.output
    assert (f"--k {k} is too few: zheval agree needs at least 3 rated items for a correlation; give --k 3 or more"
            in res.stderr)
    assert not sheet.exists() and not key.exists()
    res = run("sample", "-d", data, "-p", preds, "--k", 3, "-o", sheet, "--key", key)
    assert res.exit_code == 0, res.output
    assert f"wrote {sheet} (3 items to rate: " in res.stderr


def _line_of(path, rid):
    """1-based physical line where the row of ``rid`` starts (the sheet's cells span several lines)."""
    for n, line in enumerate(path.read_text(encoding="utf-8-sig").split("\n"), 1):
        if line.startswith(rid + ","):
            return n
    raise AssertionError(rid)


def test_ratings_that_do_not_match_the_key_are_listed(tmp_path, files):
    sheet, key = _sample(tmp_path, files, 9)
    rows = _rate(_read_sheet(sheet), lambda rid, j: "3")
    # one id renamed (so it is unknown and the key's id is missing), one row twice
    bad = [rows[0], ["q999", *rows[1][1:]], *rows[2:], rows[3]]
    f = _write_sheet(tmp_path / "bad.csv", bad)
    res = run("agree", "--ratings", f, "--key", key)
    assert res.exit_code == 2
    msg = res.output
    assert "1 id(s) of the sheet are not in the key: 'q999'" in msg
    assert f"1 id(s) of the key are not in the sheet: '{rows[1][0]}'" in msg
    dup_first = _line_of(f, rows[3][0])
    assert f"id '{rows[3][0]}': duplicate id (first seen at {f}:{dup_first})" in msg


def test_non_numeric_rating_names_file_and_line(tmp_path, files):
    sheet, key = _sample(tmp_path, files, 9)
    rows = _rate(_read_sheet(sheet), lambda rid, j: "4")
    target = rows[5][0]
    rows[5][rows[0].index("informativeness")] = "good"
    rows[6][rows[0].index("relevance")] = "nan"
    f = _write_sheet(tmp_path / "bad.csv", rows)
    res = run("agree", "--ratings", f, "--key", key)
    assert res.exit_code == 2
    assert f"{f}:{_line_of(f, target)}: informativeness of id '{target}' is 'good', not a number" in res.output
    assert f"{f}:{_line_of(f, rows[6][0])}: relevance of id '{rows[6][0]}' is 'nan', not a number" in res.output


def test_empty_cells_are_counted_and_listed(tmp_path, files):
    sheet, key = _sample(tmp_path, files, 12)
    kd = json.loads(key.read_text(encoding="utf-8"))
    rows = _read_sheet(sheet)
    skipped = {rows[2][0], rows[7][0]}
    scores = {it["id"]: it["scores"]["rouge1"] for it in kd["items"]}

    def rate(rid, j):
        if j == 2 and rid in skipped:
            return ""
        return str(1 + round(4 * scores[rid]) if j != 1 else 1 + int(rid[1:]) % 4)

    f = _write_sheet(tmp_path / "filled.csv", _rate(rows, rate))
    out = tmp_path / "agree.json"
    res = run("agree", "--ratings", f, "--key", key, "--bootstrap", 0, "-f", "json", "-o", out)
    assert res.exit_code == 0, res.output
    rep = json.loads(out.read_text(encoding="utf-8"))
    assert sorted(rep["empty"]["naturalness"]) == sorted(skipped)
    assert rep["empty"]["relevance"] == [] and rep["empty"]["informativeness"] == []
    row = next(r for r in rep["rows"] if r["group"] == "overall" and r["metric"] == "rouge1" and r["rating"] == "naturalness")
    assert row["n"] == 10 and row["empty"] == 2
    ids = [r[0] for r in rows[1:] if r[0] not in skipped]
    assert row["spearman"] == pytest.approx(hand_spearman([scores[i] for i in ids], [float(rate(i, 2)) for i in ids]))
    assert any(n.startswith("naturalness: 2 empty cells") for n in rep["notes"])
    table = run("agree", "--ratings", f, "--key", key, "--bootstrap", 0).output
    assert "naturalness: 2 empty cells" in table


def test_not_a_key_and_a_sheet_without_rating_columns(tmp_path, files):
    sheet, key = _sample(tmp_path, files, 6)
    copy = tmp_path / "copy.csv"
    copy.write_bytes(sheet.read_bytes())
    res = run("agree", "--ratings", sheet, "--key", copy)
    assert res.exit_code == 2 and "not a review key" in res.output
    res = run("agree", "--ratings", sheet, "--key", sheet)  # one file as both: said so, before it is read
    assert res.exit_code == 2
    assert f"--key {sheet} is --ratings {sheet}: the same file given more than once" in res.output
    f = _write_sheet(tmp_path / "cols.csv", [["id", "relevance"], ["q1", "3"]])
    res = run("agree", "--ratings", f, "--key", key)
    assert res.exit_code == 2 and f"{f}:1: the header lacks column(s) informativeness, naturalness" in res.output


@pytest.mark.parametrize("encoding, says", [
    ("utf-16", "looks like UTF-16 LE (byte-order mark FF FE)"),  # a spreadsheet's "Unicode text"
    ("utf-32", "looks like UTF-32 LE"),
    ("gb18030", "looks like GB18030/GBK"),  # "CSV" saved in a Chinese locale
])
def test_a_sheet_in_another_encoding_is_named_once(tmp_path, files, encoding, says):
    sheet, key = _sample(tmp_path, files, 9)
    rows = _rate(_read_sheet(sheet), lambda rid, j: "4")
    f = _write_sheet(tmp_path / "rated.csv", rows)
    f.write_bytes(f.read_text(encoding="utf-8").encode(encoding))
    res = run("agree", "--ratings", f, "--key", key)
    assert res.exit_code == 2
    assert f"{f}: " in res.output and says in res.output and "re-save it as UTF-8" in res.output
    assert "not valid UTF-8" not in res.output
    # the same sheet as UTF-8 with a byte-order mark (what spreadsheets write as "CSV UTF-8") is read
    f.write_bytes(b"\xef\xbb\xbf" + f.read_bytes().decode(encoding).encode("utf-8"))
    assert run("agree", "--ratings", f, "--key", key).exit_code == 0


def test_sample_never_overwrites_a_sheet_or_key_and_puts_the_key_beside_the_sheet(tmp_path, monkeypatch):
    from zheval.adapters.duck import sample_files

    monkeypatch.chdir(tmp_path)
    with sample_files() as f:
        args = ["sample", "-d", f["data"], "-p", f["predictions"], "--k", 6, "-q"]
        res = run(*args, "--seed", 1)
        assert res.exit_code == 0, res.output
        sheet, key = tmp_path / "review_sheet.csv", tmp_path / "review_sheet.key.json"
        assert sheet.exists() and key.exists() and not (tmp_path / "review_key.json").exists()
        rows = _read_sheet(sheet)
        col = rows[0].index("relevance")
        filled = [rows[0]] + [r[:col] + ["5"] + r[col + 1:] for r in rows[1:]]
        _write_sheet(sheet, filled)
        before, key_before = sheet.read_bytes(), key.read_bytes()
        res = run(*args, "--seed", 1)  # the same command again: refused, the ratings kept
        assert res.exit_code == 2
        assert "--output review_sheet.csv and --key review_sheet.key.json exist(s) already" in res.output
        assert "--force" in res.output
        assert sheet.read_bytes() == before and key.read_bytes() == key_before
        # another sheet elsewhere: its key goes beside it, the first key is untouched
        (tmp_path / "out").mkdir()
        res = run(*args, "--seed", 2, "-o", tmp_path / "out" / "sheet2.csv")
        assert res.exit_code == 0, res.output
        assert (tmp_path / "out" / "sheet2.key.json").exists() and key.read_bytes() == key_before
        res = run("agree", "--ratings", sheet, "--key", key, "--bootstrap", 0)
        assert res.exit_code == 0, res.output
        # an existing key alone is refused too; --force overwrites both
        sheet.unlink()
        res = run(*args, "--seed", 1)
        assert res.exit_code == 2 and "--key review_sheet.key.json exist(s) already" in res.output
        res = run(*args, "--seed", 1, "--force")
        assert res.exit_code == 0, res.output
        assert all(r[col] == "" for r in _read_sheet(sheet)[1:])


def _scores_file(path, ids, cell=lambda rid: "0.5", id_text=lambda rid: rid):
    path.write_text("id,bertscore\n" + "".join(f"{id_text(i)},{cell(i)}\n" for i in ids), encoding="utf-8")
    return path


def test_ratings_and_scores_follow_the_one_number_rule(tmp_path, files):
    # issue 35 S1: Python's float() read 4_0 as 40 and ４ as 4; the one number rule (zheval/io/numbers.py) refuses
    # them, naming file:line, the column, the id and why
    sheet, key = _sample(tmp_path, files, 9)
    rows = _rate(_read_sheet(sheet), lambda rid, j: str(1 + (len(rid) + j) % 5))
    good = _write_sheet(tmp_path / "good.csv", rows)
    ids = [it["id"] for it in json.loads(key.read_text(encoding="utf-8"))["items"]]
    assert run("agree", "--ratings", good, "--key", key, "--scores", _scores_file(tmp_path / "s.csv", ids),
               "--bootstrap", 0).exit_code == 0
    col = rows[0].index("relevance")
    bad_rows = [list(r) for r in rows]
    bad_rows[2][col], bad_rows[3][col], bad_rows[4][col] = "4_0", "４", "1e400"
    f = _write_sheet(tmp_path / "bad.csv", bad_rows)
    res = run("agree", "--ratings", f, "--key", key)
    assert res.exit_code == 2, res.output
    for r, shown, why in ((bad_rows[2], "'4_0'", "'_' is not accepted in a number"), (bad_rows[3], "'４'", "FULLWIDTH DIGIT FOUR"),
                          (bad_rows[4], "'1e400'", "too large")):
        assert f"{f}:{_line_of(f, r[0])}: relevance of id '{r[0]}' is {shown}, not a number (" in res.output
        assert why in res.output
    s = _scores_file(tmp_path / "bad_scores.csv", ids, cell=lambda rid: "1_0" if rid == ids[1] else "0.5")
    res = run("agree", "--ratings", good, "--key", key, "--scores", s, "--bootstrap", 0)
    assert res.exit_code == 2, res.output
    assert f"{s}:3: bertscore of id '{ids[1]}' is '1_0', not a finite number ('_' is not accepted" in res.output


def test_scores_ids_are_never_stripped(tmp_path, files):
    # issue 35 P12: one id rule everywhere, the stricter one of score --data: an id with spaces around it is not the
    # key's id (agree --scores used to strip it)
    sheet, key = _sample(tmp_path, files, 9)
    good = _write_sheet(tmp_path / "good.csv", _rate(_read_sheet(sheet), lambda rid, j: str(1 + (len(rid) + j) % 5)))
    ids = [it["id"] for it in json.loads(key.read_text(encoding="utf-8"))["items"]]
    s = _scores_file(tmp_path / "s.csv", ids, id_text=lambda rid: f" {rid}" if rid == ids[0] else rid)
    res = run("agree", "--ratings", good, "--key", key, "--scores", s, "--bootstrap", 0)
    assert res.exit_code == 2, res.output
    assert f"{s}:2: id ' {ids[0]}' has spaces around it: ids are matched exactly" in res.output
    assert f"1 item(s) of the key have no score here: '{ids[0]}'" in res.output
    # the ratings sheet too (the same reader)
    rows = _read_sheet(good)
    rows[1][0] = rows[1][0] + " "
    res = run("agree", "--ratings", _write_sheet(tmp_path / "spaced.csv", rows), "--key", key, "--bootstrap", 0)
    assert res.exit_code == 2 and f"id '{rows[1][0]}' has spaces around it" in res.output


def test_agree_says_what_is_wrong_reads_tsv_and_keeps_names_exact(tmp_path, files):
    # issue 35 break-it round: 1e-400 was silently 0.0 (tied with a real 0); the '_' hint was "write 40 for 4_0"
    # whatever the cell; a bad value was headed "does not match its key"; a .tsv scores file was read as CSV; a
    # scores header " bertscore" was trimmed to "bertscore" (the records door keeps names exact)
    sheet, key = _sample(tmp_path, files, 9)
    rows = _rate(_read_sheet(sheet), lambda rid, j: str(1 + (len(rid) + j) % 5))
    good = _write_sheet(tmp_path / "good.csv", rows)
    ids = [it["id"] for it in json.loads(key.read_text(encoding="utf-8"))["items"]]
    col = rows[0].index("relevance")
    bad_rows = [list(r) for r in rows]
    bad_rows[1][col], bad_rows[2][col] = "1e-400", "1_000"
    f = _write_sheet(tmp_path / "bad.csv", bad_rows)
    res = run("agree", "--ratings", f, "--key", key)
    assert res.exit_code == 2, res.output
    assert f"the ratings sheet {f} has 2 cell(s) that are not numbers" in res.output
    assert "does not match" not in res.output and "write 40" not in res.output
    assert f"{f}:{_line_of(f, bad_rows[1][0])}: relevance of id '{bad_rows[1][0]}' is '1e-400', not a number " \
           "(too small for a number" in res.output
    assert "'1_000', not a number ('_' is not accepted in a number" in res.output
    s = _scores_file(tmp_path / "s.csv", ids, cell=lambda rid: "1e-999" if rid == ids[2] else "0.5")
    res = run("agree", "--ratings", good, "--key", key, "--scores", s, "--bootstrap", 0)
    assert res.exit_code == 2 and f"{s}:4: bertscore of id '{ids[2]}' is '1e-999', not a finite number (too small" \
        in res.output, res.output
    tsv = tmp_path / "s.tsv"
    tsv.write_text("id\tbertscore\n" + "".join(f"{i}\t0.{k}\n" for k, i in enumerate(ids)), encoding="utf-8")
    res = run("agree", "--ratings", good, "--key", key, "--scores", tsv, "--bootstrap", 0, "-f", "json")
    assert res.exit_code == 0, res.output
    assert "bertscore" in res.stdout
    spaced = tmp_path / "sp.csv"
    spaced.write_text("id, bertscore\n" + "".join(f"{i},0.5\n" for i in ids), encoding="utf-8")
    res = run("agree", "--ratings", good, "--key", key, "--scores", spaced, "--bootstrap", 0)
    assert res.exit_code == 2 and f"{spaced}:1: the column name ' bertscore' has spaces around it" in res.output


def _rated(tmp_path, files, k=9):
    """A sampled key and its sheet rated ``1 + (len(id) + column index + item index) % 5``: (key, good sheet, rows,
    ids in sheet order, the key's items by id)."""
    sheet, key = _sample(tmp_path, files, k)
    rows = _rate(_read_sheet(sheet), lambda rid, j: str(1 + (int(rid[1:]) + j) % 5))
    kd = json.loads(key.read_text(encoding="utf-8"))
    return key, _write_sheet(tmp_path / "good.csv", rows), rows, [r[0] for r in rows[1:]], kd


def _agree_with_scores_column(tmp_path, good, key, ids, name) -> tuple:
    """``zheval agree`` of the rated sheet ``good`` with a --scores file ``s.csv`` of one column ``name`` (0.5 for
    every id in ``ids``): ``(the --scores path, the result)``."""
    s = tmp_path / "s.csv"
    s.write_text(f"id,{name}\n" + "".join(f"{i},0.5\n" for i in ids), encoding="utf-8")
    return s, run("agree", "--ratings", good, "--key", key, "--scores", s, "--bootstrap", 0)


def test_a_scores_column_named_like_a_printed_label_or_a_rating_column_is_refused(tmp_path, files):
    # break-it F2: a --scores column 'sentence BLEU' (the printed label of the key's bleu) gave two rows 'sentence
    # BLEU' in the table; a column 'relevance' gave a row with metric relevance and rating relevance
    key, good, rows, ids, kd = _rated(tmp_path, files)
    assert [m["label"] for m in kd["metrics"]] == ["sentence BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L"]
    for name, clash in (("sentence BLEU", "the printed label of the key's metric 'bleu'"),
                        ("ROUGE-L", "the printed label of the key's metric 'rougeL'"),
                        ("rougeL", "the key's metric 'rougeL'"),
                        ("relevance", "a rating column of the sheet"),
                        ("naturalness", "a rating column of the sheet")):
        s, res = _agree_with_scores_column(tmp_path, good, key, ids, name)
        assert res.exit_code == 2, res.output
        assert f"{s}:1: column '{name}' is also {clash}: the table would show two rows alike; rename the " \
               "column" in res.output, res.output
    # a rating column the key has, not chosen by --ratings-columns, is refused too (it is a column of the sheet)
    s.write_text("id,relevance\n" + "".join(f"{i},0.5\n" for i in ids), encoding="utf-8")
    res = run("agree", "--ratings", good, "--key", key, "--ratings-columns", "naturalness", "--scores", s,
              "--bootstrap", 0)
    assert res.exit_code == 2 and f"column 'relevance' is also a rating column of the sheet" in res.output
    # the same column in two --scores files: the second is refused, naming the first
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    for f in (a, b):
        f.write_text("id,bs_f1\n" + "".join(f"{i},0.5\n" for i in ids), encoding="utf-8")
    res = run("agree", "--ratings", good, "--key", key, "--scores", a, "--scores", b, "--bootstrap", 0)
    assert res.exit_code == 2 and f"{b}:1: column 'bs_f1' is also a column of --scores {a}" in res.output
    # a name that is none of them, loosely too, is read
    s.write_text("id,sentence BLEU2\n" + "".join(f"{i},0.5\n" for i in ids), encoding="utf-8")
    assert run("agree", "--ratings", good, "--key", key, "--scores", s, "--bootstrap", 0).exit_code == 0


def test_a_scores_column_named_like_another_apart_from_case_spaces_dashes_or_width_is_refused(tmp_path, files):
    # break-it 18 A: the clash was checked by exact spelling only: 'Relevance' gave a metric row 'Relevance' beside
    # the rating 'relevance'; 'rougel', 'Rouge L', 'sentence_bleu' were read beside ROUGE-L and sentence BLEU
    key, good, rows, ids, kd = _rated(tmp_path, files)
    tail = " apart from case, spaces, '_'/'-' or width: the table would show two rows alike; rename the column"
    for name, clash in (("Relevance", "'relevance', a rating column of the sheet,"),
                        ("rougel", "the key's metric 'rougeL'"),
                        ("Rouge L", "the key's metric 'rougeL'"),
                        ("ROUGE_L", "the key's metric 'rougeL'"),
                        ("ｒｏｕｇｅ－ｌ", "the key's metric 'rougeL'"),  # full width (NFKC)
                        ("sentence_bleu", "'sentence BLEU', the printed label of the key's metric 'bleu',"),
                        ("Sentence BLEU", "'sentence BLEU', the printed label of the key's metric 'bleu',"),
                        ("Rouge 1", "the key's metric 'rouge1'")):
        s, res = _agree_with_scores_column(tmp_path, good, key, ids, name)
        assert res.exit_code == 2, res.output
        assert f"{s}:1: column '{name}' is {clash}{tail}" in res.output, res.output
    # a column of an earlier --scores file, and an earlier column of the same file
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("id,bs_f1\n" + "".join(f"{i},0.5\n" for i in ids), encoding="utf-8")
    b.write_text("id,BS-F1\n" + "".join(f"{i},0.5\n" for i in ids), encoding="utf-8")
    res = run("agree", "--ratings", good, "--key", key, "--scores", a, "--scores", b, "--bootstrap", 0)
    assert res.exit_code == 2 and f"{b}:1: column 'BS-F1' is 'bs_f1', a column of --scores {a},{tail}" in res.output
    b.write_text("id,bs_f1,BS F1\n" + "".join(f"{i},0.5,0.25\n" for i in ids), encoding="utf-8")
    res = run("agree", "--ratings", good, "--key", key, "--scores", b, "--bootstrap", 0)
    assert res.exit_code == 2 and f"{b}:1: column 'BS F1' is 'bs_f1', another column of this file,{tail}" \
        in res.output, res.output


def test_ratings_and_scores_read_every_format_of_the_file_doors(tmp_path, files):
    # break-it F4: --scores s.jsonl was read as CSV (18 "a \" inside the unquoted cell" errors advising JSONL),
    # s.parquet as CSV text ("not valid UTF-8" x3)
    import gzip

    import pyarrow as pa
    import pyarrow.parquet as pq

    key, good, rows, ids, kd = _rated(tmp_path, files)
    bs = {rid: 0.1 * ((3 * n) % 7) for n, rid in enumerate(ids)}  # ties at nothing: 0, .3, .6, .2, .5, .1, .4, 0, .3
    rel = {r[0]: float(r[4]) for r in rows[1:]}
    want = hand_spearman([bs[i] for i in ids], [rel[i] for i in ids])
    jl = tmp_path / "s.jsonl"
    jl.write_text("".join(json.dumps({"id": i, "bs": bs[i]}) + "\n" for i in ids), encoding="utf-8")
    jgz = tmp_path / "s.jsonl.gz"
    jgz.write_bytes(gzip.compress(jl.read_bytes()))
    pqf = tmp_path / "s.parquet"
    pq.write_table(pa.table({"id": ids, "bs": [bs[i] for i in ids]}), pqf)
    # the sheet as JSON Lines (ratings as numbers, an empty cell as null), as TSV and as Parquet
    sheet_jl = tmp_path / "sheet.jsonl"
    sheet_jl.write_text("".join(json.dumps({"id": r[0], "relevance": int(r[4]), "informativeness": int(r[5]),
                                            "naturalness": None}) + "\n" for r in rows[1:]), encoding="utf-8")
    sheet_tsv = tmp_path / "sheet.tsv"
    sheet_tsv.write_text("id\trelevance\tinformativeness\tnaturalness\n"
                         + "".join(f"{r[0]}\t{r[4]}\t{r[5]}\t\n" for r in rows[1:]), encoding="utf-8")
    sheet_pq = tmp_path / "sheet.parquet"
    pq.write_table(pa.table({"id": ids, "relevance": [int(r[4]) for r in rows[1:]],
                             "informativeness": [int(r[5]) for r in rows[1:]],
                             "naturalness": pa.array([None] * len(ids), pa.int64())}), sheet_pq)
    for sheet in (sheet_jl, sheet_tsv, sheet_pq):
        for s in (jl, jgz, pqf):
            res = run("agree", "--ratings", sheet, "--key", key, "--scores", s, "--bootstrap", 0, "-f", "json")
            assert res.exit_code == 0, (sheet, s, res.output)
            rep = json.loads(res.stdout)
            row = [r for r in rep["rows"] if (r["group"], r["metric"], r["rating"]) == ("overall", "bs", "relevance")]
            assert row[0]["spearman"] == pytest.approx(want, abs=1e-12) and row[0]["n"] == 9
            assert rep["empty"]["naturalness"] == ids  # null / an empty TSV cell: no rating, counted
    # a JSON string is not a score; a JSON Lines row lacking a rating column another row has is named
    jl.write_text("".join(json.dumps({"id": i, "bs": "0.5" if i == ids[1] else 0.5}) + "\n" for i in ids),
                  encoding="utf-8")
    res = run("agree", "--ratings", good, "--key", key, "--scores", jl, "--bootstrap", 0)
    assert res.exit_code == 2 and f"{jl}:2: bs of id '{ids[1]}' is '0.5', not a finite number (a JSON string" \
        in res.output, res.output
    sheet_jl.write_text("".join(json.dumps({"id": r[0], "relevance": 3, "informativeness": 3, "naturalness": 3}
                                           if k != 2 else {"id": r[0], "relevance": 3, "informativeness": 3}) + "\n"
                                for k, r in enumerate(rows[1:])), encoding="utf-8")
    res = run("agree", "--ratings", sheet_jl, "--key", key, "--bootstrap", 0)
    assert res.exit_code == 2 and f"{sheet_jl}:3: no 'naturalness' (the other rows have it; null is no rating)" \
        in res.output, res.output


def test_a_spreadsheet_tsv_and_an_unknown_name_are_refused_once(tmp_path, files):
    # break-it F4: the sheet re-saved as TSV by a spreadsheet (multi-line cells quoted) gave 30 errors "4 cell(s),
    # but the header has 7 columns"; a name that says no format was read as CSV whatever it held
    key, good, rows, ids, kd = _rated(tmp_path, files)
    buf = io.StringIO()
    csv.writer(buf, delimiter="\t", lineterminator="\n").writerows(rows)  # what a spreadsheet writes as TSV
    t = tmp_path / "ok.tsv"
    t.write_text(buf.getvalue(), encoding="utf-8")
    res = run("agree", "--ratings", t, "--key", key, "--bootstrap", 0)
    assert res.exit_code == 2, res.output
    assert "1 problem(s)" in res.output and "but the header has 7 columns" not in res.output
    assert f"{t}:2: a cell opens with a \" on this line and is not closed on it, and " in res.output
    assert "a TSV written by a spreadsheet, which quotes a cell that holds a line break or a tab? TSV is read " \
           "without quoting (one row per line, cells split at every tab, a \" is text); save the file as CSV or " \
           "JSON Lines" in res.output
    for name in ("sheet.txt", "sheet", "sheet.xlsx"):
        f = tmp_path / name
        f.write_bytes(good.read_bytes())
        res = run("agree", "--ratings", f, "--key", key, "--bootstrap", 0)
        assert res.exit_code == 2, res.output
        assert f"{f}: the file's name does not say its format: the ratings sheet is read as CSV (.csv), TSV " \
               "(.tsv), JSON Lines (.jsonl, .json, .ndjson) or Parquet (.parquet, .pq), each also " \
               "gzip-compressed (.gz), chosen by the name; rename the file" in res.output, res.output
        assert "1 problem(s)" in res.output
    s = tmp_path / "scores.dat"
    s.write_text("id,bs\n" + "".join(f"{i},0.5\n" for i in ids), encoding="utf-8")
    res = run("agree", "--ratings", good, "--key", key, "--scores", s, "--bootstrap", 0)
    assert res.exit_code == 2 and f"{s}: the file's name does not say its format: the scores file is read as " \
        "CSV (.csv)" in res.output


def test_a_row_of_empty_cells_is_counted_not_skipped_silently(tmp_path, files):
    # break-it F5: a sheet row ",,,,,," (a spreadsheet's empty row) was skipped without a word
    key, good, rows, ids, kd = _rated(tmp_path, files)
    f = _write_sheet(tmp_path / "holes.csv", rows[:3] + [[""] * 7] + rows[3:] + [[""] * 7])
    lines = [k for k, ln in enumerate(f.read_text(encoding="utf-8").split("\n"), 1) if ln == ",,,,,,"]
    assert len(lines) == 2
    res = run("agree", "--ratings", f, "--key", key, "--bootstrap", 0, "-f", "json")
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    assert rep["empty_rows"] == lines
    assert f"2 empty row(s) of the sheet skipped (every cell empty: no id, no rating): lines {lines[0]}, " \
           f"{lines[1]}" in rep["notes"]
    table = run("agree", "--ratings", f, "--key", key, "--bootstrap", 0).output
    assert f"2 empty row(s) of the sheet skipped (every cell empty: no id, no rating): lines {lines[0]}, " \
           f"{lines[1]}" in table
    assert json.loads(run("agree", "--ratings", good, "--key", key, "--bootstrap", 0, "-f",
                          "json").stdout)["empty_rows"] == []
    # a scores file has no empty cell (a score is not a rating a rater may skip): its empty row is an error
    s = tmp_path / "s.csv"
    s.write_text("id,bs\n" + "".join(f"{i},0.5\n" for i in ids[:2]) + ",\n" + "".join(f"{i},0.5\n" for i in ids[2:]),
                 encoding="utf-8")
    res = run("agree", "--ratings", good, "--key", key, "--scores", s, "--bootstrap", 0)
    assert res.exit_code == 2 and f"{s}:4: the row is empty (no id, no score)" in res.output, res.output


def test_json_numbers_of_ratings_and_scores_are_read_as_written(tmp_path, files):
    # break-it issue 35 F1/F7 at the JSON Lines and Parquet doors of --ratings/--scores: 1e-400 was the score 0.0
    # and -1e-400 the rating 0.0 without a word (json.loads rounds them), while a CSV cell 1e-400 is refused; a
    # Parquet string column was advised to "write a rating as a JSON number, without quotes"
    import pyarrow as pa
    import pyarrow.parquet as pq

    key, good, rows, ids, _ = _rated(tmp_path, files)
    jl = tmp_path / "s.jsonl"
    jl.write_text("".join('{"id": "%s", "bs": %s}\n' % (i, "1e-400" if n == 1 else "0.5") for n, i in
                          enumerate(ids)), encoding="utf-8")
    res = run("agree", "--ratings", good, "--key", key, "--scores", jl, "--bootstrap", 0)
    assert res.exit_code == 2
    assert (f"{jl}:2: bs of id '{ids[1]}' is 1e-400, not a finite number (too small for a number (a non-zero value "
            "that underflows to 0.0))") in res.output, res.output
    sheet = tmp_path / "sheet.jsonl"
    sheet.write_text("".join('{"id": "%s", "relevance": %s, "informativeness": 3, "naturalness": 1E400}\n'
                             % (r[0], "-1e-400" if k == 0 else r[4]) for k, r in enumerate(rows[1:])), encoding="utf-8")
    res = run("agree", "--ratings", sheet, "--key", key, "--bootstrap", 0)
    assert res.exit_code == 2
    assert (f"{sheet}:1: relevance of id '{ids[0]}' is -1e-400, not a number (too small for a number (a non-zero "
            "value that underflows to 0.0))") in res.output, res.output
    assert (f"{sheet}:1: naturalness of id '{ids[0]}' is 1E400, not a number (too large for a number (overflows to "
            "infinity))") in res.output, res.output
    pqf = tmp_path / "s.parquet"
    pq.write_table(pa.table({"id": ids, "bs": ["0.5"] * len(ids)}), pqf)
    res = run("agree", "--ratings", good, "--key", key, "--scores", pqf, "--bootstrap", 0)
    assert res.exit_code == 2 and "JSON" not in res.output
    assert (f"{pqf}:1: bs of id '{ids[0]}' is '0.5', not a finite number (a string in a Parquet column: store the "
            "ratings in a numeric column (int or float), not a string one)") in res.output, res.output



def test_a_parquet_decimal_column_is_named_a_decimal_column(tmp_path, files):
    # break-it issue 35: "Decimal('0.50'), not a finite number (a Decimal is not a number)"
    from decimal import Decimal

    import pyarrow as pa
    import pyarrow.parquet as pq

    key, good, _, ids, _ = _rated(tmp_path, files)
    pqf = tmp_path / "s.parquet"
    pq.write_table(pa.table({"id": ids, "bs": pa.array([Decimal("0.50")] * len(ids), pa.decimal128(4, 2))}), pqf)
    res = run("agree", "--ratings", good, "--key", key, "--scores", pqf, "--bootstrap", 0)
    assert res.exit_code == 2
    assert (f"{pqf}:1: bs of id '{ids[0]}' is in a decimal column (Decimal('0.50')): store ratings as int or "
            "float") in res.output, res.output
    assert "a Decimal is not a number" not in res.output


@pytest.mark.parametrize("extra, named", [
    (["--html", "sh.html"], "--html"),
    (["--judge-ratings", "r.jsonl"], "--judge-ratings"),
    (["--judge-url", "http://127.0.0.1:9/v1", "--judge-model", "m"], "--judge-url, --judge-model"),
    (["--bertscore-model", "bert"], "--bertscore-model"),
    (["--tokenizer", "word"], "--tokenizer"),
    (["--group-field", "domain", "--source-field", "query", "--pred-field", "p"],
     "--pred-field, --group-field, --source-field"),
])
def test_agree_on_a_sheet_refuses_the_three_layer_options(tmp_path, files, extra, named):
    """Each option of the three-layer mode given with a sheet is an error naming it (it was ignored: --html wrote
    nothing and said nothing, exit 0)."""
    sheet, key = _sample(tmp_path, files)
    filled = _write_sheet(tmp_path / "filled.csv", _rate(_read_sheet(sheet), lambda rid, j: str(1 + int(rid[1:]) % 5)))
    res = run("agree", "--ratings", filled, "--key", key, "--bootstrap", 0,
              *[str(tmp_path / x) if x.endswith((".html", ".jsonl")) else x for x in extra])
    assert res.exit_code == 2, res.output
    assert res.stderr == (f"zheval: error: {named} {'belong' if ',' in named else 'belongs'} to the three-layer mode "
                          "(--predictions) of zheval agree, not to the review sheet mode (--ratings/--key); give the "
                          "options of one mode (docs/cli.md)\n")
    assert not (tmp_path / "sh.html").exists()
    ok = run("agree", "--ratings", filled, "--key", key, "--bootstrap", 0)
    assert ok.exit_code == 0, ok.output
