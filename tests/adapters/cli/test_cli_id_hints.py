"""Ids that match but for their writing get a hint at every door that reports unmatched ids (issue 35, break-it
pass 6): the same id in NFC and NFD (printed alike; the combining mark shown escaped) and an id whose leading zeros a
spreadsheet removed (``001`` vs ``1``) -- in ``zheval compare`` of records files, ``zheval agree``'s sheet, its
``--scores`` and its ``--judge-ratings`` (`zheval.adapters.duck.mismatch.id_hints`)."""

from __future__ import annotations

import csv
import io
import json
import unicodedata

import zheval.cli.judge  # noqa: F401  (registers the command)
from helpers.cli import run_cli, write_jsonl
from zheval.adapters.duck.mismatch import id_hints

NFC = [unicodedata.normalize("NFC", f"café-{k}") for k in range(4)]
NFD = [unicodedata.normalize("NFD", x) for x in NFC]
PAIRS = [("今天天气很好", "今天天气不错"), ("明天有雨", "明天下雨"), ("我们去公园", "我们去公园散步"), ("你好", "你好啊")]
NFC_HINT = "differ from an id of {} only in Unicode normalisation (NFC vs NFD; they print alike)"
ZERO_HINT = "ids look like numbers whose leading zeros were removed (a spreadsheet?)"


def test_id_hints_pairs_each_cause_and_nothing_else():
    assert NFC[0] != NFD[0]
    out = id_hints(NFC[:2], NFD[:2] + ["x"], "A", "B")
    assert len(out) == 1 and out[0].startswith("2 id(s) of A " + NFC_HINT.format("B"))
    assert "'cafe\\u0301-0' in B" in out[0]
    out = id_hints(["001", "002", "abc"], [1, "2", "0abc"], "the key", "the sheet")
    assert len(out) == 1 and out[0].startswith("2 id(s) of the key equal an id of the sheet but for leading zeros, "
                                               "e.g. '001' in the key and 1 in the sheet")
    assert ZERO_HINT in out[0]
    assert id_hints(["1"], ["001"], "A", "B")[0].startswith("1 id(s) of A equal an id of B but for leading zeros")
    assert id_hints(["0"], ["00"]) != [] and id_hints(["a1"], ["a01"]) == [] and id_hints(["q1"], ["q2"]) == []


def _records(path, ids):
    return write_jsonl(path, [{"id": i, "prediction": p, "reference": r} for i, (p, r) in zip(ids, PAIRS)])


def test_compare_of_records_files_hints(tmp_path):
    a = _records(tmp_path / "a.jsonl", NFC)
    res = run_cli("compare", "-p", a, _records(tmp_path / "b.jsonl", NFD), "--id-field", "id")
    assert res.exit_code == 2
    assert f"4 id(s) of {a} " + NFC_HINT.format(tmp_path / "b.jsonl") in res.output
    a = _records(tmp_path / "a0.jsonl", ["001", "002", "003", "004"])
    res = run_cli("compare", "-p", a, _records(tmp_path / "b0.jsonl", ["1", "2", "3", "4"]), "--id-field", "id")
    assert res.exit_code == 2 and ZERO_HINT in res.output


def _judge(tmp_path, ids, rated):
    path = _records(tmp_path / "preds.jsonl", ids)
    ratings = tmp_path / "ratings.jsonl"
    ratings.write_text("".join(json.dumps({"id": i, "overall": 3}, ensure_ascii=False) + "\n" for i in rated),
                       encoding="utf-8")
    return run_cli("agree", "--predictions", path, "--judge-ratings", ratings, "--format", "json", "--bootstrap", "0")


def test_judge_ratings_hints(tmp_path):
    res = _judge(tmp_path, NFC, NFD)
    assert res.exit_code == 2 and "4 id(s) of " in res.stderr
    assert NFC_HINT.format("the judge ratings file") in res.stderr
    res = _judge(tmp_path, ["01", "02", "03", "04"], ["1", "2", "3", "4"])
    assert res.exit_code == 2 and ZERO_HINT in res.stderr


def _sheet_and_key(tmp_path, crosswoz_groups, ids):
    groups = [g for g in crosswoz_groups if len(g["responses"]) >= 3][:len(ids)]
    data = [{"id": i, "query": g["query"], "responses": g["responses"][1:], "domain": None, "difficulty": None}
            for i, g in zip(ids, groups)]
    preds = [{"id": i, "prediction": g["responses"][0]} for i, g in zip(ids, groups)]
    sheet, key = tmp_path / "sheet.csv", tmp_path / "key.json"
    res = run_cli("sample", "-d", write_jsonl(tmp_path / "d.jsonl", data), "-p", write_jsonl(tmp_path / "p.jsonl", preds),
                  "--k", len(ids), "--seed", 1, "-o", sheet, "--key", key, "-q")
    assert res.exit_code == 0, res.output
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8-sig"), newline="")))
    for r in rows[1:]:
        r[-3:] = ["3", "4", "5"]
    return rows, key


def _write(path, rows):
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


def test_agree_sheet_and_scores_hints(tmp_path, crosswoz_groups):
    ids = [f"café-{k}" for k in range(6)]
    rows, key = _sheet_and_key(tmp_path, crosswoz_groups, [unicodedata.normalize("NFC", i) for i in ids])
    nfd = [rows[0]] + [[unicodedata.normalize("NFD", r[0]), *r[1:]] for r in rows[1:]]
    res = run_cli("agree", "--ratings", _write(tmp_path / "nfd.csv", nfd), "--key", key)
    assert res.exit_code == 2 and "6 id(s) of the key " + NFC_HINT.format("the sheet") in res.output
    good = _write(tmp_path / "good.csv", rows)
    scores = tmp_path / "s.csv"
    scores.write_text("id,bs\n" + "".join(f"{r[0]},0.5\n" for r in nfd[1:]), encoding="utf-8")
    res = run_cli("agree", "--ratings", good, "--key", key, "--scores", scores, "--bootstrap", 0)
    assert res.exit_code == 2 and "6 id(s) of the key " + NFC_HINT.format("the scores file") in res.output
    (tmp_path / "z").mkdir()
    zrows, zkey = _sheet_and_key(tmp_path / "z", crosswoz_groups, [f"{k:03d}" for k in range(1, 7)])
    stripped = [zrows[0]] + [[r[0].lstrip("0"), *r[1:]] for r in zrows[1:]]
    res = run_cli("agree", "--ratings", _write(tmp_path / "z.csv", stripped), "--key", zkey)
    assert res.exit_code == 2 and ZERO_HINT in res.output


def test_explain_id_hints(tmp_path):
    """``explain --id`` said only "no item with this id" when the id was typed NFD for an NFC id, without the
    leading zeros of the file's id, or with spaces around it: each gets a hint. Worded for a typed id (issue 35
    leftovers): the shared hints spoke of "both files" and "a spreadsheet", which explain's --id is not; now the hint
    names the id as the file writes it."""
    path = _records(tmp_path / "r.jsonl", [NFC[0], "007", "8", "x"])
    for typed, head, hint in (
            (NFD[0], "--id 'cafe\\u0301-0': no item with this id in ",
             f"--id 'cafe\\u0301-0' differs from the id 'café-0' of {path} only in Unicode normalisation (NFC vs NFD; "
             f"they print alike): ids are matched exactly, so type the id as {path} writes it"),
            ("7", "--id '7': no item with this id in ",
             f"--id '7' equals the id '007' of {path} but for leading zeros: ids are matched as text, so give "
             "--id '007'"),
            (" 8", "--id ' 8': no item with this id in ",
             f"--id ' 8' has spaces around it: ids are matched exactly, so it is not the id '8' of {path}")):
        res = run_cli("explain", "-p", path, "--id-field", "id", "--id", typed)
        assert res.exit_code == 2, res.output
        assert f"{head}{path}; " in res.stderr and hint in res.stderr, res.stderr
        assert "spreadsheet" not in res.stderr and "both files" not in res.stderr and "id(s) of --id" not in res.stderr
    res = run_cli("explain", "-p", path, "--id-field", "id", "--id", "y")
    assert res.exit_code == 2 and res.stderr.rstrip().endswith(f"--id 'y': no item with this id in {path}")


NFKC_TOO = "and full-width or other compatibility characters (NFKC)"


def test_id_hints_compose_full_width_with_zeros_and_decimals():
    """``'００７'`` vs ``'7'`` (full-width and zero-padded at once) got no hint: each cause was looked for alone
    (NFKC gives '007', not '7'; the zeros of '００７' are not ASCII). Leading zeros and decimals are now looked for
    after NFKC, and the line names both causes."""
    from zheval.adapters.duck.mismatch import id_pairs

    assert id_pairs(["００７"], ["7"]).zeros == [("００７", "7")]
    assert id_pairs([7], ["００７"]).zeros == [(7, "００７")]
    assert id_pairs(["７.０"], [7]).decimals == [("７.０", 7)] and id_pairs(["００７.０"], ["7"]).decimals
    pairs = id_pairs(["００７"], ["7"])
    assert not pairs.nfc and not pairs.compat and not pairs.decimals  # one kind per pair
    out = id_hints(["００７"], ["7"], "A", "B")
    assert out == [f"1 id(s) of A equal an id of B but for leading zeros {NFKC_TOO}, e.g. '００７' in A and '7' in B: "
                   + ZERO_HINT + "; write the ids as text in both files (in a spreadsheet: format the id column as Text "
                   "before opening or pasting)"], out
    out = id_hints(["７.０"], ["7"], "A", "B")
    assert len(out) == 1 and out[0].startswith(f"1 id(s) of A equal an id of B but for a decimal '.0' {NFKC_TOO}")
    out = id_hints(["００７", "001"], ["7", "1"], "A", "B")  # one of the two needed NFKC
    assert len(out) == 1 and "but for leading zeros (some also in full-width or other compatibility characters: " \
                             "NFKC)" in out[0], out
    # the single causes are worded as before, and ids that differ otherwise get nothing
    assert NFKC_TOO not in id_hints(["007"], ["7"])[0] and id_hints(["７"], ["7"])[0].count("NFKC") == 3
    assert id_hints(["００７"], ["8"]) == [] and id_hints(["ａ07"], ["a7"]) == []


def test_score_and_explain_hint_full_width_zero_padded_ids(tmp_path):
    rows = [{"id": i, "query": "q", "responses": list(p), "domain": None, "difficulty": None}
            for i, p in zip(("００７", "２", "x", "y"), PAIRS)]
    data = write_jsonl(tmp_path / "d.jsonl", rows)
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": i, "prediction": p[0]} for i, p in zip(("7", "２", "x", "y"), PAIRS)])
    res = run_cli("score", "--data", data, "-p", preds, "-q", "--bootstrap", "0")
    assert res.exit_code == 2, res.output
    assert f"but for leading zeros {NFKC_TOO}, e.g. '００７' in the dataset and '7' in the predictions" in res.stderr, \
        res.stderr
    good = write_jsonl(tmp_path / "g.jsonl", [{"id": r["id"], "prediction": p[0]} for r, p in zip(rows, PAIRS)])
    res = run_cli("explain", "--data", data, "-p", good, "-q", "--id", "7")
    assert res.exit_code == 2, res.output
    assert (f"--id '7' equals the id '００７' of {data} but for leading zeros {NFKC_TOO}: ids are matched as text, so "
            "give --id '００７'") in res.stderr, res.stderr


def test_explain_names_the_id_the_typed_one_stands_for_best(tmp_path):
    """``--id 7.0`` with the ids ``'007'`` and ``7``: the hint named ``'007'`` (the first id of the file with the key
    ``7``) while ``--id 7`` finds the item; now it names ``'7'`` first and ``'007'`` beside it."""
    rows = [{"id": i, "prediction": "今天天气很好", "label": "今天天气不错"} for i in ("a", "007", 7)]
    path = write_jsonl(tmp_path / "r.jsonl", rows)
    for typed, best, other, why in (("7.0", "7", "007", "a decimal '.0'"), ("07", "7", "007", "leading zeros"),
                                    ("007.0", "007", "7", "a decimal '.0'")):
        res = run_cli("explain", "-p", path, "-q", "--id", typed)
        assert res.exit_code == 2, res.output
        assert (f"--id {typed!r} equals the id {best!r} of {path} but for {why}: ids are matched as text, so give "
                f"--id {best!r} (or --id {other!r}, which it equals too)") in res.stderr, res.stderr
    assert run_cli("explain", "-p", path, "-q", "--id", "7").exit_code == 0


def test_an_id_pairs_in_its_closest_kind_only_and_hints_say_the_closest_first():
    """``'７'`` missing, ``'007'`` and ``'7'`` extra: ``'７'`` was paired twice, as leading zeros with ``'007'`` (said
    first) and as full-width with ``'7'`` -- two instructions for one id. Now it pairs with ``'7'`` only (equal
    after NFKC alone is closer), whatever the order of the extra ids, and the lines go closest first: NFC, NFKC,
    leading zeros, a decimal '.0'."""
    from zheval.adapters.duck.mismatch import id_pairs

    for extra in (["007", "7"], ["7", "007"]):
        assert id_pairs(["７"], extra) == ([], [], [("７", "7")], []), extra
    assert id_pairs(["0007"], ["７", "7"]).zeros == [("0007", "7")]  # the extra id that needs no NFKC
    out = id_hints(["７", "001", "2.0", NFC[0]], ["007", "7", "1", "2", NFD[0]], "A", "B")
    assert [h.split(" id(s) of A ")[1][:30] for h in out] == [
        "differ from an id of B only in", "equal an id of B once full-wid", "equal an id of B but for leadi",
        "equal an id of B but for a dec"], out
    assert out[2].startswith("1 id(s) of A equal an id of B but for leading zeros, e.g. '001' in A and '1' in B"), out


def test_score_says_the_closest_pair_of_an_id(tmp_path):
    rows = [{"id": i, "query": "q", "responses": list(p), "domain": None, "difficulty": None}
            for i, p in zip(("７", "２", "x", "y"), PAIRS)]
    data = write_jsonl(tmp_path / "d.jsonl", rows)
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": i, "prediction": p[0]}
                                               for i, p in zip(("007", "２", "x", "y", "7"), PAIRS + PAIRS[:1])])
    res = run_cli("score", "--data", data, "-p", preds, "-q", "--bootstrap", "0")
    assert res.exit_code == 2, res.output
    assert "1 id(s) of the dataset equal an id of the predictions once full-width or other compatibility " \
           "characters are written plainly (NFKC), e.g. '７' in the dataset and '7' in the predictions" in res.stderr
    assert "leading zeros" not in res.stderr, res.stderr


def test_explain_gives_one_instruction_for_the_closest_id(tmp_path):
    """``--id ７`` with the ids ``'007'`` and ``7`` named ``'007'`` first (but for leading zeros and NFKC) and then
    ``'7'`` (NFKC only), each with its own "give --id": one hint now, for the closest id -- NFKC alone, then spaces
    or case, then leading zeros or a decimal '.0'."""
    rows = [{"id": i, "prediction": "今天天气很好", "label": "今天天气不错"} for i in ("007", 7, "07A", "7a", "ABC")]
    path = write_jsonl(tmp_path / "r.jsonl", rows)
    for typed, hint in (
            ("７", f"--id '７' equals the id '7' of {path} once its full-width or other compatibility characters are "
                   "written plainly (NFKC): ids are matched exactly, so give --id '7'"),
            ("07a", f"--id '07a' equals the id '07A' of {path} but for case: ids are matched exactly, so give "
                    "--id '07A'"),  # not '7a', but for leading zeros
            ("abc", f"--id 'abc' equals the id 'ABC' of {path} but for case: ids are matched exactly, so give "
                    "--id 'ABC'"),
            ("７ ", f"--id '７ ' equals the id '7' of {path} but for spaces around it and full-width or other "
                    "compatibility characters (NFKC): ids are matched exactly, so give --id '7'")):
        res = run_cli("explain", "-p", path, "-q", "--id", typed)
        assert res.exit_code == 2, res.output
        assert res.stderr.rstrip().endswith(f"no item with this id in {path}; {hint}"), res.stderr
        assert res.stderr.count("give --id") == 1, res.stderr
