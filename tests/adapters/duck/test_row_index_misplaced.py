"""A row index whose lines are out of place — not only shuffled, but ROTATED (the last line moved first: shards
concatenated in the wrong order), a block rotated, adjacent lines swapped — with one flaw (an offset, one ``null``,
one empty CSV cell) was paired by line order with only the generic note (break-it: BLEU 0.0103 instead of 0.3107 on
8 items of the sample, 0.0094 instead of 0.354 on 66), since a rotation leaves one line outside the longest in-order
run. Index names were missed (``Unnamed: 0``, ``num``, ``#``, ``item``, ``題號`` …, ``"q3"`` under ``qid``), and
ordinary integer fields of small files (``score`` 3, 1, 2; ``rank`` 1..8) were refused as a row index. Now each line
is held to the number its place gives (``s + i``): a field named as an index is refused unless its numbers never
decrease or all lines but one hold ``s + i``; ``rank``, ``score`` … are never read; other names are warned of (or
refused, exactly numbering 8 lines or more). The data: the first 8 (or all 66) items of the bundled sample and its
predictions; the right numbers are sacrebleu's corpus BLEU (``zh`` tokens, every reference of each item) computed
here, of the predictions paired with their items — or, for a file kept as it is, of line j with item j."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest

from helpers.cli import run_cli, write_jsonl
from helpers.duck_sample import in_line_order, ITEMS, PREDS, refused, report, sample_bleu, sample_data

ROTATED = [7, 0, 1, 2, 3, 4, 5, 6]  # line j holds item ROTATED[j]: the last line moved first
SHUFFLED = [3, 0, 1, 2, 5, 4, 7, 6]


def _lines(order, field, value) -> list:
    """One row per line j: item ``order[j]``'s prediction, ``field`` = ``value(j, k)`` (``"drop"``: no field)."""
    rows = []
    for j, k in enumerate(order):
        v = value(j, k)
        rows.append({"prediction": PREDS[k]} if v == "drop" else {field: v, "prediction": PREDS[k]})
    return rows


def _csv(path, rows, field) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, ["prediction", field], lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return path


@pytest.mark.parametrize("flaw", ["offset", "null", "null-1-based", "left-offset"])
def test_a_rotated_row_index_with_one_flaw_is_refused(tmp_path, flaw):
    data = sample_data(tmp_path)
    order = [1, 2, 3, 4, 5, 6, 7, 0] if flaw == "left-offset" else ROTATED  # left: the first line moved last
    value = {"offset": lambda j, k: 1000 + k, "left-offset": lambda j, k: 1000 + k,
             "null": lambda j, k: None if j == 4 else k, "null-1-based": lambda j, k: None if j == 4 else k + 1}[flaw]
    rows = _lines(order, "idx", value)
    path = write_jsonl(tmp_path / "rot.jsonl", rows)
    msg = refused(data, path)
    start = {"offset": 1000, "left-offset": 1000, "null": 0, "null-1-based": 1}[flaw]
    first = order[0]
    held = rows[0]["idx"]
    assert msg.startswith(f"predictions ({path}) have no 'id' field, but their field 'idx' numbers their lines in "
                          "another order than the lines': it holds "), msg
    wrong = 8 if "offset" in flaw else 7  # every numbered line out of place (one of them null)
    assert (f"numbering the items from {start}, {wrong} of them are not on the line their number gives ({path}:1 "
            f"has 'idx' {held}, item {first}'s number, but by its place is paired with item 0 of the data, "
            f"'{ITEMS[0]['id']}')") in msg, msg
    if "null" in flaw:
        assert f"1 line(s) hold no number in it (first: {path}:5 has 'idx' None)" in msg, msg
    assert msg.endswith("if 'idx' does not number the items, remove it from the file"), msg
    # what line order scored (silently, before) against the right number (sacrebleu, items paired by hand)
    assert sample_bleu([PREDS[k] for k in order], 8) < 0.05 < 0.3 < sample_bleu(PREDS[:8], 8)


def test_the_rotated_offset_sorted_by_its_number_and_in_order_is_kept(tmp_path):
    # the way out the refusal names, and 1000 + i in line order: each line its own item (sacrebleu by hand)
    data = sample_data(tmp_path)
    rows = _lines(ROTATED, "idx", lambda j, k: 1000 + k)
    assert "numbers their lines in another order" in refused(data, write_jsonl(tmp_path / "r.jsonl", rows))
    kept = write_jsonl(tmp_path / "s.jsonl", sorted(rows, key=lambda r: r["idx"]))
    assert report(data, kept).score("bleu").value == pytest.approx(sample_bleu(PREDS[:8], 8), abs=1e-12)


def test_a_rotated_csv_sample_id_with_one_empty_cell_is_refused(tmp_path):
    data = sample_data(tmp_path)
    rows = [{"prediction": PREDS[k], "sample_id": "" if j == 3 else k} for j, k in enumerate(ROTATED)]
    path = _csv(tmp_path / "rot.csv", rows, "sample_id")
    msg = refused(data, path)
    assert (f"numbering the items from 0, 7 of them are not on the line their number gives ({path}:2 has "
            f"'sample_id' '7', item 7's number, but by its place is paired with item 0 of the data, "
            f"'{ITEMS[0]['id']}'); 1 line(s) hold no number in it (first: {path}:5 has 'sample_id' '')") in msg, msg


def _null_at(line: int):
    return lambda j, k: None if j == line else k


@pytest.mark.parametrize("case", ["block rotation", "adjacent swaps", "16 shuffled"])
def test_misplaced_lines_of_a_larger_file_with_one_null_are_refused(tmp_path, case):
    data = sample_data(tmp_path, 66)
    order = list(range(66))
    if case == "block rotation":  # lines 20..29 hold items 29, 20 … 28
        order[20:30] = [29] + list(range(20, 29))
    elif case == "adjacent swaps":  # 10 pairs of neighbours swapped
        for j in range(0, 20, 2):
            order[j], order[j + 1] = order[j + 1], order[j]
    else:
        block = order[30:46]
        random.Random(7).shuffle(block)
        order[30:46] = block
    rows = _lines(order, "idx", _null_at(25 if case == "block rotation" else 50))
    msg = refused(data, write_jsonl(tmp_path / "p.jsonl", rows))
    moved = sum(k != j for j, k in enumerate(order))
    assert f"numbering the items from 0, {moved - (case == 'block rotation')} of them are not on the line" in msg, msg
    assert sample_bleu([PREDS[k] for k in order], 66) < sample_bleu(PREDS, 66)


_INDEX_NAMES = ["Unnamed: 0", "num", "#", "item", "sample", "example", "example_num", "ids", "題號", "序號", "編號",
                "行號", "No."]


@pytest.mark.parametrize("field", _INDEX_NAMES)
def test_index_names_that_were_missed_are_refused(tmp_path, field):
    data = sample_data(tmp_path)
    path = write_jsonl(tmp_path / "p.jsonl", _lines(SHUFFLED, field, _null_at(2)))
    msg = refused(data, path)
    assert msg.startswith(f"predictions ({path}) have no 'id' field, but their field {field!r} numbers their lines "
                          "in another order than the lines': it holds 7 distinct whole numbers from 0 to 7 on 7 of "
                          "their 8 lines; numbering the items from 0, "), msg


@pytest.mark.parametrize("field", ["n", "k"])
def test_n_and_k_numbering_the_lines_out_of_place_are_warned_of(tmp_path, field):
    # 'n' and 'k' count things as often as they number lines: paired by line order as before, but said
    data = sample_data(tmp_path)
    rows = _lines(SHUFFLED, field, _null_at(2))
    path = write_jsonl(tmp_path / "p.jsonl", rows)
    rep = report(data, path)
    assert rep.score("bleu").value == pytest.approx(sample_bleu([PREDS[k] for k in SHUFFLED], 8), abs=1e-12)
    want = (f"the predictions ({path}) have no 'id' field and were paired with the items by line order, but their "
            f"field {field!r} looks like a numbering of the lines in another order than theirs: it holds 7 distinct "
            "whole numbers from 0 to 7 on 7 of their 8 lines; numbering the items from 0, 7 of them are not on the "
            f"line their number gives ({path}:1 has {field!r} 3, item 3's number, but by its place is paired with "
            f"item 0 of the data, '{ITEMS[0]['id']}')")
    assert [w for w in rep.warnings if w.startswith(want)], rep.warnings
    res = run_cli("score", "-d", data, "-p", path, "--bootstrap", 0, "-f", "json", "-q", "--by", "none")
    assert res.exit_code == 0, res.output
    warned = [w for w in json.loads(res.stdout)["warnings"] if w.startswith(want)]
    assert warned and "joined by it with --id-field NAME)" in warned[0], warned
    # sorted by it, the warning goes and each line is scored against its own item
    fixed = write_jsonl(tmp_path / "f.jsonl", [rows[SHUFFLED.index(k)] for k in range(8)])
    rep = report(data, fixed)
    assert not [w for w in rep.warnings if "looks like a numbering" in w], rep.warnings
    assert rep.score("bleu").value == pytest.approx(sample_bleu(PREDS[:8], 8), abs=1e-12)


@pytest.mark.parametrize("field,write,null", [("qid", lambda k: f"q{k}", None), ("item_id", lambda k: f"item-{k}", 2),
                                              ("sample_id", lambda k: f"sample_{k:04d}", 5),
                                              ("题号", lambda k: f"第{k + 1}题", None)])
def test_indices_with_a_shared_prefix_are_read_as_numbers(tmp_path, field, write, null):
    data = sample_data(tmp_path)
    rows = _lines(SHUFFLED, field, lambda j, k: None if j == null else write(k))
    path = write_jsonl(tmp_path / "p.jsonl", rows)
    msg = refused(data, path)
    assert msg.startswith(f"predictions ({path}) have no 'id' field, but their field {field!r} numbers their "), msg
    assert f"({path}:1 has {field!r} {write(3)!r}" in msg and "sort the file's lines by its number" in msg, msg
    # in line order: kept, each line its own item
    kept = write_jsonl(tmp_path / "k.jsonl", _lines(range(8), field, lambda j, k: write(k)))
    assert report(data, kept).score("bleu").value == pytest.approx(sample_bleu(PREDS[:8], 8), abs=1e-12)


@pytest.mark.parametrize("field,values", [("score", [3, 1, 2]), ("tokens", [2, 0, 1]), ("rating", [2, 3, 1]),
                                          ("turn", [1, 0, 2]), ("rank", [3, 1, 8, 2, 5, 4, 7, 6])])
def test_integer_fields_that_are_no_row_index_are_not_refused(tmp_path, field, values):
    # a score, a token count, a rating, a dialogue turn, a rank (a permutation by definition) were refused as a
    # row index in another order; they are paired by line order, as the note says, without a warning
    rep, path = in_line_order(tmp_path, field, values)
    assert rep.notes[0] == (f"the predictions ({path}) have no 'id' field: they were paired with the items by line "
                            "order (add an 'id' field to join them by id)"), rep.notes
    assert not [w for w in rep.warnings if field in w], rep.warnings


def test_another_name_numbering_few_lines_is_warned_of_and_eight_refused(tmp_path):
    data = sample_data(tmp_path, 3)
    path = write_jsonl(tmp_path / "p.jsonl", [{"prediction": PREDS[k], "value": v} for k, v in enumerate([2, 0, 1])])
    rep = report(data, path)
    assert rep.score("bleu").value == pytest.approx(sample_bleu(PREDS[:3], 3), abs=1e-12)
    assert [w for w in rep.warnings if w.startswith(
        f"the predictions ({path}) have no 'id' field and were paired with the items by line order, but their field "
        "'value' looks like a numbering of the lines in another order than theirs: it numbers their 3 lines from 0 to "
        f"2; numbering the items from 0, 3 of them are not on the line their number gives ({path}:1 has 'value' 2, "
        "item 2's number")], rep.warnings
    data = sample_data(tmp_path, 8)
    path = write_jsonl(tmp_path / "q.jsonl", _lines(SHUFFLED, "value", lambda j, k: k))
    assert refused(data, path).startswith(f"predictions ({path}) have no 'id' field, but their field 'value' numbers "
                                           "their 8 lines from 0 to 7 in another order than the lines'")


_KEPT = [[0, 1, 2, 4, 5, 6, 7, 9], [0, 1, 2, 3, 99, 5, 6, 7], [5, 1, 2, 3, 4, 5, 6, 7], [4, 2, 3, 4, 5, 6, 7, 8],
         [1000, 1001, None, 1003, 1004, 1005, 1006, 1007], [100, 101, 102, 57, 104, 105, 106, 107]]


def test_numbers_in_line_order_with_one_flaw_are_kept_and_the_same_rotated_refused(tmp_path):
    # gaps in order, one mistyped number (also on the first line of a numbering from 0 or 1, or below the start),
    # a null: kept, each line its own item; the same values rotated (last line first) are refused (the gaps and
    # the null rotated were paired by line order)
    data = sample_data(tmp_path)
    for n, values in enumerate(_KEPT):
        kept = write_jsonl(tmp_path / f"k{n}.jsonl", [{"idx": v, "prediction": p} for v, p in zip(values, PREDS)])
        assert report(data, kept).score("bleu").value == pytest.approx(sample_bleu(PREDS[:8], 8), abs=1e-12), values
        rotated = write_jsonl(tmp_path / f"r{n}.jsonl", [{"idx": values[k], "prediction": PREDS[k]} for k in ROTATED])
        assert "numbers their lines in another order" in refused(data, rotated), values


def test_every_command_refuses_a_rotated_row_index(tmp_path):
    data = sample_data(tmp_path)
    path = write_jsonl(tmp_path / "rot.jsonl", _lines(ROTATED, "idx", lambda j, k: 1000 + k))
    first = ITEMS[0]["id"]
    for args in (("score", "-d", data, "-p", path, "--bootstrap", 0),
                 ("explain", "-d", data, "-p", path, "--id", first),
                 ("sample", "-d", data, "-p", path, "-k", 3, "-o", tmp_path / "s.csv", "--key", tmp_path / "k.json")):
        res = run_cli(*args, "-q")
        assert res.exit_code == 2, (args, res.output)
        assert f"predictions ({path}) have no 'id' field, but their field 'idx' numbers their lines in another " \
               "order" in res.stderr and "joined by it with --id-field NAME" in res.stderr, (args, res.stderr)


def test_name_kinds():
    from zheval.adapters.duck.row_index import name_kind

    assert {n: name_kind(n) for n in ["Unnamed: 3", "__index_level_0__", "num", "#", "題號", "example_num", "qid"]} \
        == dict.fromkeys(["Unnamed: 3", "__index_level_0__", "num", "#", "題號", "example_num", "qid"], "index")
    never = ["rank", "score", "rating", "tokens", "num_tokens", "token_num", "turn", "turn_id", "length", "len",
             "label", "count", "timestamp", "得分", "gpu", "shard", "batch_idx", "local_rank"]
    assert {n: name_kind(n) for n in never} == dict.fromkeys(never, "never")
    assert {n: name_kind(n) for n in ["n", "k", "value", "model"]} == dict.fromkeys(["n", "k", "value", "model"], "other")
