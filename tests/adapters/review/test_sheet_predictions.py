"""A filled review sheet is checked against the predictions its key was scored on (issue 35 F3): the key records the
SHA-256 of each sampled item's exact prediction, and ``zheval agree`` refuses a sheet whose prediction cells are other
texts (another system's sheet shares the ids), naming the count and the ids; the sheet's escaping is undone first, so
control characters, backslashes and line breaks round-trip. A key without digests or a sheet without a prediction
column cannot be checked, and a note says so. Digests are computed here with ``hashlib`` on the texts written out."""

from __future__ import annotations

import csv
import hashlib
import io
import json

from helpers.cli import ROWS, run_cli, write_jsonl

PREDS_B = [{"id": "q1", "prediction": "退货请联系客服。"}, {"id": "q2", "prediction": "别难过。"},
           {"id": "q3", "prediction": "穿外套。"}]
ODD = [{"id": "q1", "prediction": "路径 C:\\temp\r\n第二行"}, {"id": "q2", "prediction": "我陪着你\x1b[2J\t好吗"},
       {"id": "q3", "prediction": "明天\\n记得\u202e穿外套。"}]


def _sample(tmp_path, name, preds):
    data = write_jsonl(tmp_path / "data.jsonl", ROWS)
    p = write_jsonl(tmp_path / f"{name}.jsonl", preds)
    res = run_cli("sample", "--data", data, "-p", p, "--k", "3", "-o", tmp_path / f"{name}.csv")
    assert res.exit_code == 0, res.output
    return tmp_path / f"{name}.csv", tmp_path / f"{name}.key.json"


def _fill(sheet, out, drop=(), edit=None, newline="\r\n"):
    """The sheet with ratings typed in (rows' relevance 1, 3, 5, ...), re-written by the csv module with ``newline``
    for every line break, the ``drop`` columns left out and the ``edit`` predictions ({id: text}) typed over."""
    rows = list(csv.DictReader(io.StringIO(sheet.read_text(encoding="utf-8-sig"), newline="")))
    for k, r in enumerate(rows):
        r.update(relevance=str(1 + 2 * k), informativeness=str(5 - k), naturalness=str(2 + k))
        if edit and r["id"] in edit:
            r["prediction"] = edit[r["id"]]
    cols = [c for c in rows[0] if c not in drop]
    buf = io.StringIO(newline="")
    w = csv.DictWriter(buf, fieldnames=cols, lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    w.writerows(rows)
    text = buf.getvalue()  # every line break, inside a cell too, as newline (a spreadsheet's re-save)
    out.write_bytes((text.replace("\n", "\r\n") if newline == "\r\n" else text).encode("utf-8"))
    return out


def _agree(sheet, key):
    return run_cli("agree", "--ratings", sheet, "--key", key, "--bootstrap", "0", "--format", "json")


def test_the_key_records_the_sha256_of_each_prediction(tmp_path):
    _, key = _sample(tmp_path, "A", ODD)
    items = json.loads(key.read_text(encoding="utf-8"))["items"]
    want = {p["id"]: hashlib.sha256(p["prediction"].encode("utf-8")).hexdigest() for p in ODD}
    assert {it["id"]: it["prediction_sha256"] for it in items} == want


def test_another_systems_sheet_is_refused_naming_count_and_ids(tmp_path):
    _, key_a = _sample(tmp_path, "A", [{"id": r["id"], "prediction": p} for r, p in
                                       zip(ROWS, ["请在订单页申请退货。", "我陪着你，想聊聊吗？", "明天记得穿外套。"])])
    sheet_b, _ = _sample(tmp_path, "B", PREDS_B)
    res = _agree(_fill(sheet_b, tmp_path / "B_filled.csv"), key_a)
    assert res.exit_code == 2, res.output
    assert "the prediction of 3 of 3 item(s) is not the prediction the key was scored on" in res.stderr
    for rid in ("'q1'", "'q2'", "'q3'"):
        assert rid in res.stderr
    assert "the prediction cells are not for editing" in res.stderr


def test_one_edited_prediction_cell_is_refused(tmp_path):
    sheet, key = _sample(tmp_path, "A", ODD)
    res = _agree(_fill(sheet, tmp_path / "f.csv", edit={"q2": "我陪着你"}), key)
    assert res.exit_code == 2, res.output
    assert "the prediction of 1 of 3 item(s)" in res.stderr and "'q2' (line" in res.stderr
    assert "'q1'" not in res.stderr


def test_escaped_predictions_round_trip_and_a_crlf_resave_is_the_same_text(tmp_path):
    sheet, key = _sample(tmp_path, "A", ODD)
    for newline in ("\r\n", "\n"):
        res = _agree(_fill(sheet, tmp_path / "f.csv", newline=newline), key)
        assert res.exit_code == 0, res.output
        assert not any("prediction" in n for n in json.loads(res.stdout)["notes"])


def test_a_typed_sheet_may_hold_the_exact_prediction(tmp_path):
    _, key = _sample(tmp_path, "A", ODD)
    rows = [{"id": p["id"], "prediction": p["prediction"], "relevance": k, "informativeness": 3, "naturalness": 5 - k}
            for k, p in enumerate(ODD)]
    res = _agree(write_jsonl(tmp_path / "f.jsonl", rows), key)
    assert res.exit_code == 0, res.output
    rows[0]["prediction"] = "别的"
    res = _agree(write_jsonl(tmp_path / "g.jsonl", rows), key)
    assert res.exit_code == 2 and "the prediction of 1 of 3 item(s)" in res.stderr and "'q1'" in res.stderr


def test_a_key_without_digests_and_a_sheet_without_predictions_say_so(tmp_path):
    sheet, key = _sample(tmp_path, "A", ODD)
    old = json.loads(key.read_text(encoding="utf-8"))
    for it in old["items"]:
        del it["prediction_sha256"]
    (tmp_path / "old.key.json").write_text(json.dumps(old, ensure_ascii=False), encoding="utf-8")
    res = _agree(_fill(sheet, tmp_path / "f.csv"), tmp_path / "old.key.json")
    assert res.exit_code == 0, res.output
    assert any("records no prediction digest (prediction_sha256) for 3 of 3 item(s)" in n
               for n in json.loads(res.stdout)["notes"])
    res = _agree(_fill(sheet, tmp_path / "g.csv", drop=("prediction",)), key)
    assert res.exit_code == 0, res.output
    assert any("has no 'prediction' column" in n for n in json.loads(res.stdout)["notes"])
