"""A shuffled predictions file without ids whose row-index field (``idx``, ``row``, ``sample_id`` …) numbers the
lines with one flaw — a line without it, ``null``, an empty CSV cell, a repeated number, a gap (one number missing,
another beyond N), numbers from 1000 — was paired with the items by line order with only a note (break-it: BLEU
0.049 instead of 0.939), since only an exact ``0``..``N-1`` / ``1``..``N`` was refused. Now a field with an index-like
name whose distinct whole numbers lie within a run of N on four lines in five, out of line order on many lines, is
refused by every door; the same numbers in line order are kept, and the same values under another name (``length``,
``score``, ``tokens``) are never read as a row index. A field numbering the lines from 0 in their order where the
data's ids are 1..N is a row index, not the data's ids "in another order" (as it was refused). Right numbers are
sacrebleu's ``zh`` BLEU of the predictions in item order, computed here (CJK text without punctuation)."""

from __future__ import annotations

import csv
import json

import pytest

from helpers.cli import write_jsonl
from helpers.shuffled_items import IDS, ORDER, PREDS, REFS, every_command
from zheval.adapters.duck import PredictionMismatchError, evaluate_predictions, load_duck


# the flawed numberings: item k's value on line j (None: the line has no value written; "drop": no key at all)
FLAWS = {
    "missing": lambda j, k: "drop" if j == 0 else k,  # line 1 without the field
    "null": lambda j, k: None if j == 2 else k,  # line 3 "idx": null
    "duplicate": lambda j, k: 3 if k == 0 else k,  # item 0's line repeats item 3's number
    "gap": lambda j, k: 9 if k == 5 else k,  # 5 missing, 9 > N
    "offset": lambda j, k: 1000 + k,  # numbered from 1000
}


def _bleu(preds: list, refs=REFS) -> float:
    """sacrebleu's corpus BLEU (``zh`` tokens) of ``preds``, one per item in item order, as a fraction."""
    import sacrebleu

    return sacrebleu.corpus_bleu(preds, [[r[0] for r in refs], [r[1] for r in refs]], tokenize="zh").score / 100


@pytest.fixture
def data(tmp_path):
    rows = [{"id": i, "query": f"问题{k}", "responses": r, "domain": None, "difficulty": None}
            for k, (i, r) in enumerate(zip(IDS, REFS))]
    return write_jsonl(tmp_path / "data.jsonl", rows)


def _rows(flaw: str, order, field="idx") -> list:
    rows = []
    for j, k in enumerate(order):
        value = FLAWS[flaw](j, k)
        rows.append({"prediction": PREDS[k]} if value == "drop" else {field: value, "prediction": PREDS[k]})
    return rows


def _refused(data, path) -> str:
    with pytest.raises(PredictionMismatchError) as err:
        evaluate_predictions(load_duck(data), str(path), bootstrap=0)
    return str(err.value)


def _bleu_of(data, path) -> float:
    return evaluate_predictions(load_duck(data), str(path), bootstrap=0, by=()).score("bleu").value


@pytest.mark.parametrize("flaw", list(FLAWS))
def test_a_shuffled_file_with_a_flawed_row_index_is_refused_and_kept_in_line_order(tmp_path, data, flaw):
    path = write_jsonl(tmp_path / "shuf.jsonl", _rows(flaw, ORDER))
    msg = _refused(data, path)
    assert msg.startswith(f"predictions ({path}) have no 'id' field, but their field 'idx' numbers their lines in "
                          "another order than the lines': "), msg
    # the first line whose number is not the one its place gives (line j holds s + j), and the items it pairs
    first = {"missing": f"{path}:2 has 'idx' 0, item 0's number, but by its place is paired with item 1 of the data, "
                        "'duck-1')",
             "offset": f"{path}:1 has 'idx' 1003, item 3's number, but by its place is paired with item 0 of the "
                       "data, 'duck-0')"}.get(
        flaw, f"{path}:1 has 'idx' 3, item 3's number, but by its place is paired with item 0 of the data, 'duck-0')")
    wrong = {"duplicate": 5, "gap": 5, "offset": 5}.get(flaw, 4)
    start = 1000 if flaw == "offset" else 0
    assert f"numbering the items from {start}, {wrong} of them are not on the line their number gives" in msg, msg
    assert first in msg, msg
    extra = {"missing": f"1 line(s) hold no number in it (first: {path}:1 has no 'idx')",
             "null": f"1 line(s) hold no number in it (first: {path}:3 has 'idx' None)",
             "duplicate": f"1 line(s) repeat an earlier line's number (first: {path}:2 has 'idx' 3, as {path}:1 does)"}
    if flaw in extra:
        assert extra[flaw] in msg and "sort the file's lines by it, after giving each line its own number;" in msg, msg
    else:
        assert "line(s)" not in msg and f"If 'idx' numbers the data's items from {start}, sort the file's lines by " \
            "it; or write the items' ids in an 'id' field" in msg, msg
    assert msg.endswith("if 'idx' does not number the items, remove it from the file"), msg
    # the same flawed numbers in line order: kept, each line paired with its own item (sacrebleu by hand)
    kept = write_jsonl(tmp_path / "ord.jsonl", _rows(flaw, range(6)))
    assert _bleu_of(data, kept) == pytest.approx(_bleu(PREDS), abs=1e-12)
    if flaw in ("gap", "offset"):  # the way out the refusal names: the lines sorted by the field
        rows = sorted(_rows(flaw, ORDER), key=lambda r: r["idx"])
        assert _bleu_of(data, write_jsonl(tmp_path / "sorted.jsonl", rows)) == pytest.approx(_bleu(PREDS), abs=1e-12)


@pytest.mark.parametrize("field", ["index", "sample_id", "qid", "row", "line", "lineNo", "序号"])
def test_other_index_names_are_refused_too(tmp_path, data, field):
    path = write_jsonl(tmp_path / "shuf.jsonl", _rows("offset", ORDER, field))
    assert f"but their field {field!r} numbers their lines in another order" in _refused(data, path)


def test_every_command_refuses_a_flawed_row_index(tmp_path, data):
    path = write_jsonl(tmp_path / "shuf.jsonl", _rows("null", ORDER))
    for args, res in every_command(tmp_path, data, path):
        assert res.exit_code == 2, (args, res.output)
        assert f"predictions ({path}) have no 'id' field, but their field 'idx' numbers their lines in another " \
               "order" in res.stderr, (args, res.stderr)
        assert "(or in another field, joined by it with --id-field NAME)" in res.stderr, (args, res.stderr)


def _csv(path, rows) -> str:
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, ["prediction", "row"], lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return path


def test_a_csv_with_an_empty_cell_in_its_row_index_is_refused(tmp_path, data):
    # row 1..6 shuffled, the third data line's cell empty: refused; the same in line order is kept
    rows = [{"prediction": PREDS[k], "row": "" if j == 2 else k + 1} for j, k in enumerate(ORDER)]
    path = _csv(tmp_path / "shuf.csv", rows)
    msg = _refused(data, path)
    assert msg.startswith(f"predictions ({path}) have no 'id' field, but their field 'row' numbers their lines in "
                          f"another order than the lines': it holds 5 distinct whole numbers from 1 to 5 on 5 of "
                          f"their 6 lines; numbering the items from 1, 4 of them are not on the line their number "
                          f"gives ({path}:2 has 'row' '4', item 3's number, but by its place is paired with item 0 of "
                          f"the data, 'duck-0'); 1 line(s) hold no number in it (first: {path}:4 has 'row' '')"), msg
    kept = _csv(tmp_path / "ord.csv", [{"prediction": p, "row": "" if k == 2 else k + 1} for k, p in enumerate(PREDS)])
    assert _bleu_of(data, kept) == pytest.approx(_bleu(PREDS), abs=1e-12)


@pytest.mark.parametrize("other", ["length", "score", "tokens", "num_tokens"])
def test_the_same_numbers_under_a_name_that_is_no_index_are_not_a_row_index(tmp_path, data, other):
    # values 1000 + k shuffled: refused under 'idx', paired by line order (as the note says) under a count's name;
    # the line-order BLEU by hand: line j's prediction against item j's references
    rows = _rows("offset", ORDER)
    assert "numbers their lines" in _refused(data, write_jsonl(tmp_path / "idx.jsonl", rows))
    path = write_jsonl(tmp_path / "other.jsonl", [{other: r["idx"], "prediction": r["prediction"]} for r in rows])
    rep = evaluate_predictions(load_duck(data), str(path), bootstrap=0, by=())
    assert rep.score("bleu").value == pytest.approx(_bleu([PREDS[k] for k in ORDER]), abs=1e-12)
    assert rep.notes[0].startswith(f"the predictions ({path}) have no 'id' field: they were paired"), rep.notes


@pytest.mark.parametrize("values", [[1, 0, 1, 1, 0, 0], [0, 0, 7, 7, 3, 3], [17, 4203, 88, 951, 3, 12000]])
def test_repeated_or_spread_values_under_an_index_name_are_no_numbering(tmp_path, data, values):
    # a 0/1 flag, mostly repeated values, values spread far beyond N: not a numbering of the lines, even as 'idx';
    # the loose numbering beside them (one line without 'idx') is refused
    refused = write_jsonl(tmp_path / "num.jsonl", _rows("missing", ORDER))
    assert "numbers their lines in another order" in _refused(data, refused)
    path = write_jsonl(tmp_path / "p.jsonl", [{"idx": v, "prediction": PREDS[k]} for v, k in zip(values, ORDER)])
    assert _bleu_of(data, path) == pytest.approx(_bleu([PREDS[k] for k in ORDER]), abs=1e-12)


def test_one_mistyped_number_in_line_order_is_kept_two_lines_swapped_with_a_flaw_are_refused(tmp_path, data):
    typo = [{"idx": 57 if k == 3 else k + 100, "prediction": p} for k, p in enumerate(PREDS)]  # 100..105, one 57
    assert _bleu_of(data, write_jsonl(tmp_path / "typo.jsonl", typo)) == pytest.approx(_bleu(PREDS), abs=1e-12)
    swapped = [{"idx": v, "prediction": PREDS[k]} for v, k in zip([101, 100, 103, 102, 105, None], [1, 0, 3, 2, 5, 4])]
    assert "numbering the items from 100, 5 of them are not on the line their number gives" in _refused(data, write_jsonl(tmp_path / "swap.jsonl", swapped))


def _numeric_data(tmp_path, first: int):
    rows = [{"id": k + first, "query": f"问题{k}", "responses": r, "domain": None, "difficulty": None}
            for k, r in enumerate(REFS)]
    return write_jsonl(tmp_path / "num.jsonl", rows)


@pytest.mark.parametrize("ids_from,idx_from", [(1, 0), (0, 1)])
def test_a_row_index_from_0_in_line_order_where_the_ids_start_at_1_is_kept(tmp_path, ids_from, idx_from):
    # was refused: "their field 'idx' holds the data's ids on 5 of its 6 lines, in another order" (false)
    data = _numeric_data(tmp_path, ids_from)
    path = write_jsonl(tmp_path / "p.jsonl", [{"idx": k + idx_from, "prediction": p} for k, p in enumerate(PREDS)])
    rep = evaluate_predictions(load_duck(data), str(path), bootstrap=0, by=())
    assert rep.score("bleu").value == pytest.approx(_bleu(PREDS), abs=1e-12)
    assert rep.notes[0] == (f"the predictions ({path}) have no 'id' field: they were paired with the items by line "
                            f"order, which their field 'idx' agrees with (it numbers the lines from {idx_from} in "
                            "their order); add an 'id' field to join them by id"), rep.notes
    # shuffled, it is refused
    shuf = write_jsonl(tmp_path / "s.jsonl", [{"idx": k + idx_from, "prediction": PREDS[k]} for k in ORDER])
    assert "in another order" in _refused(data, shuf)
    if ids_from == 1:  # 2 … 7 where the ids are 1 … 6 (numbered from neither 0 nor 1): ids moved one line, refused
        moved = write_jsonl(tmp_path / "m.jsonl", [{"idx": k + 2, "prediction": p} for k, p in enumerate(PREDS)])
        assert "their field 'idx' holds the data's ids on 5 of its 6 lines, in another order" in _refused(data, moved)


def test_ids_under_another_field_missing_on_the_first_line_are_found(tmp_path, data):
    # the fields of every line are looked at: 'qid' absent from line 1 was never looked at ("have no ids")
    rows = [{"prediction": PREDS[k]} if j == 0 else {"qid": IDS[k], "prediction": PREDS[k]}
            for j, k in enumerate(ORDER)]
    path = write_jsonl(tmp_path / "q.jsonl", rows)
    assert _refused(data, path).startswith(f"predictions ({path}) have no 'id' field, but their field 'qid' holds "
                                           "the data's ids on 5 of its 6 lines, in another order")


def test_index_names():
    from zheval.adapters.duck.row_index import index_named

    assert all(index_named(n) for n in ["idx", "index", "sample_id", "qid", "sampleId", "QID", "line_no", "row_index",
                                        "idx_in_data", "序号", "题号"])
    assert not any(index_named(n) for n in ["length", "score", "tokens", "num_tokens", "label", "timestamp", "n",
                                            "count", "model", "rank", "turn_id", "token_num"])


def test_integer_ids_in_the_data_order_on_most_lines_are_no_row_index(tmp_path):
    # the data's ids 4, 1, 6, 2, 5, 3 (close together, not increasing) under 'qid' in the data's order, one line
    # without it: paired by line order with the warning of ids on most lines, never refused as a shuffled row index;
    # without 'qid' on line 1 the field was not looked at (no warning)
    perm = [4, 1, 6, 2, 5, 3]
    rows = [{"id": perm[k], "query": f"问题{k}", "responses": r, "domain": None, "difficulty": None}
            for k, r in enumerate(REFS)]
    data = write_jsonl(tmp_path / "perm.jsonl", rows)
    for missing in (0, 3):
        path = write_jsonl(tmp_path / f"p{missing}.jsonl", [{"prediction": p} if k == missing else
                                                            {"qid": perm[k], "prediction": p}
                                                            for k, p in enumerate(PREDS)])
        rep = evaluate_predictions(load_duck(data), str(path), bootstrap=0, by=())
        assert rep.score("bleu").value == pytest.approx(_bleu(PREDS), abs=1e-12)
        assert [w for w in rep.warnings if f"their field 'qid' holds the items' ids in the data's order on 5 of its "
                f"6 lines, but 1 line(s) do not hold the id of the item they are paired with (first: {path}:"
                f"{missing + 1} has 'qid' None" in w], rep.warnings
