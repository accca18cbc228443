"""Every door reads its files the same way (issue 24's kind): the same bad file — another encoding, a ``.gz`` that
is not gzip, CR-only line ends, an empty file, a malformed JSON line, a duplicate id, a missing field — given to
the 小黄鸭 data file, the predictions file joined to it, the records door, the text-file commands, ``--terms`` and
``zheval agree``'s ratings sheet gives exit 2, no traceback, one ``what: N problem(s)`` heading and the same
``file:line: …`` (``file: …`` for the whole file) message; and a good file compressed with gzip is read by each."""

from __future__ import annotations

import csv
import gzip
import io

import pytest

from helpers.cli import PREDS, ROWS, run_cli as run, write_jsonl

RATING_COLUMNS = ("relevance", "informativeness", "naturalness")  # the rating columns zheval sample writes
RATING_ROWS = [["id", "query", "prediction", "references", *RATING_COLUMNS]] + [
    [p["id"], r["query"], p["prediction"], r["responses"][0], "4", "3", "5"] for p, r in zip(PREDS, ROWS)]


def _csv(rows) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


def _jsonl(rows) -> str:
    import json

    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


#: door -> (file name, good content, the command with BAD for the file under test)
DOORS = {
    "data": ("data.jsonl", _jsonl(ROWS), lambda f, g: ("score", "--data", f, "-p", g["preds"])),
    "predictions": ("preds.jsonl", _jsonl(PREDS), lambda f, g: ("score", "--data", g["data"], "-p", f)),
    "records": ("rec.jsonl", _jsonl([{"id": p["id"], "predict": p["prediction"], "label": r["responses"][0]}
                                     for p, r in zip(PREDS, ROWS)]), lambda f, g: ("score", "-p", f)),
    "records-csv": ("rec.csv", _csv([["id", "predict", "label"]] + [[p["id"], p["prediction"], r["responses"][0]]
                                                                    for p, r in zip(PREDS, ROWS)]),
                    lambda f, g: ("score", "-p", f)),
    "text": ("ref.txt", "".join(r["responses"][0] + "\n" for r in ROWS), lambda f, g: ("bleu", f, "-i", g["hyp"])),
    "terms": ("terms.txt", "订单页\n外套\n", lambda f, g: ("score", "--data", g["data"], "-p", g["preds"], "--terms", f)),
    "ratings": ("sheet.csv", _csv(RATING_ROWS), lambda f, g: ("agree", "--ratings", f, "--key", g["key"])),
}

#: fault -> (doors it applies to, how the good content becomes bad, the expected message, with {f} the bad file)
FAULTS = {
    "utf16": (list(DOORS), lambda t: t.encode("utf-16"), "{f}: looks like UTF-16 LE (byte-order mark FF FE), not UTF-8"),
    "gb18030": (list(DOORS), lambda t: t.encode("gb18030"), "{f}: is not UTF-8 ("),
    "not-gzip": (list(DOORS), lambda t: t.encode(), "{f}: is named .gz but is not gzip-compressed"),
    "cr-only": (list(DOORS), lambda t: t.replace("\n", "\r").encode(),
                "{f}: its lines end in CR (\\r) only"),
    "empty": (["data", "predictions", "records", "records-csv", "text", "ratings"], lambda t: b"",
              "no items in {f} (the file is empty or has only blank lines"),
    "bad-json": (["data", "predictions", "records"], lambda t: t.replace("\n", "\n{\"id\": ", 1).encode(),
                 "{f}:2: malformed JSON"),
    "duplicate-id": (["data", "predictions", "records", "records-csv", "ratings"], None,
                     "{f}:{line}: id 'q1': duplicate id (first seen at {f}:{first})"),
    "missing-field": (["data", "predictions", "records"], None, "{f}:2: id 'q2': {what}"),
}

#: door -> (the field taken out of row 2, how the door says it is missing)
MISSING = {"data": ("query", "missing key(s) ['query']"),
           "predictions": ("prediction", "no prediction field; expected exactly one of ['predict', 'prediction']"),
           "records": ("label", "missing field(s) ['label']")}


def _without_field(door: str, text: str) -> bytes:
    import json

    rows = [json.loads(x) for x in text.splitlines()]
    del rows[1][MISSING[door][0]]
    return _jsonl(rows).encode()


def _duplicate(door: str, text: str) -> tuple:
    """The file with its first row repeated at the end: (bytes, line of the repeat, line of the first)."""
    lines = text.splitlines(keepends=True)
    head = 1 if door in ("records-csv", "ratings") else 0
    return "".join(lines + [lines[head]]).encode(), len(lines) + 1, head + 1


@pytest.fixture()
def good(tmp_path):
    d = tmp_path / "good"
    d.mkdir()
    g = {"data": write_jsonl(d / "data.jsonl", ROWS), "preds": write_jsonl(d / "preds.jsonl", PREDS)}
    g["hyp"] = d / "hyp.txt"
    g["hyp"].write_text("".join(p["prediction"] + "\n" for p in PREDS), encoding="utf-8")
    g["key"] = d / "key.json"
    res = run("sample", "--data", g["data"], "-p", g["preds"], "--k", 3, "--seed", 1, "-o", d / "s.csv", "--key",
              g["key"], "-q")
    assert res.exit_code == 0, res.output
    import json

    assert tuple(json.loads(g["key"].read_text(encoding="utf-8"))["rating_columns"]) == RATING_COLUMNS
    return g


CASES = [(door, fault) for fault, (doors, _, _) in FAULTS.items() for door in doors]


@pytest.mark.parametrize("door, fault", CASES, ids=[f"{d}-{f}" for d, f in CASES])
def test_the_same_bad_file_gets_the_same_message_at_every_door(tmp_path, good, door, fault):
    name, text, command = DOORS[door]
    doors, damage, expected = FAULTS[fault]
    f = tmp_path / (name + ".gz" if fault == "not-gzip" else name)
    line = first = 0
    if fault == "duplicate-id":
        data, line, first = _duplicate(door, text)
    elif fault == "missing-field":
        data = _without_field(door, text)
    else:
        data = damage(text)
    f.write_bytes(data)
    res = run(*command(f, good), "-q") if door != "text" and door != "ratings" else run(*command(f, good))
    assert res.exit_code == 2, (door, fault, res.output)
    assert "Traceback" not in res.output
    err = res.stderr
    assert err.startswith("zheval: error: ") and ("problem(s)\n  " in err or "no items in" in err), err
    what = MISSING[door][1] if fault == "missing-field" else ""
    assert expected.format(f=f, line=line, first=first, what=what) in err, err


@pytest.mark.parametrize("door", list(DOORS))
def test_a_gzip_compressed_good_file_is_read_at_every_door(tmp_path, good, door):
    name, text, command = DOORS[door]
    plain = tmp_path / name
    plain.write_text(text, encoding="utf-8")
    gz = tmp_path / (name + ".gz")
    gz.write_bytes(gzip.compress(text.encode()))
    extra = ("-q",) if door not in ("text", "ratings") else ()
    want, got = run(*command(plain, good), *extra), run(*command(gz, good), *extra)
    assert want.exit_code == 0 and got.exit_code == 0, (want.output, got.output)
    assert got.stdout.replace(str(gz), str(plain)) == want.stdout
