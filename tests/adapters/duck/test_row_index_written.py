"""Row indices written in ways the rule did not read, and index-like names it refused (break-it: each shuffled case
below was paired silently by line order, BLEU 0.0052 instead of 0.3107 on 8 items of the sample): whole numbers
written as decimals (``"3.0"``: pandas' float column, in CSV, TSV and JSONL, also with one empty cell), prefixes
holding a digit or written in two cases (``"gsm8k_3"``, ``"c3-q3"``, ``"task1_q3"``, ``"v2-3"``, ``"Q3"``/``"q3"``),
one text placeholder (``"nan"``, ``"N/A"`` …) among prefixed values; a correctly ordered file with ``idx_in_batch``
(``i % 64``), ``index_in_shard`` or ``idx_on_gpu`` was refused, and so were count-like ``sent_num`` and
``speaker_id``; a loose numbering in line order (a repeat, a gap) was noted without the field or its first line
whose number differs from its place. The right numbers are sacrebleu's corpus BLEU (``zh``), computed here."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.cli import write_jsonl
from helpers.duck_sample import in_line_order, PREDS, refused, report, sample_bleu, sample_data

SHUFFLED = [3, 0, 6, 1, 7, 2, 5, 4]  # line j holds item SHUFFLED[j]


def _table(path: Path, field: str, values: list, order: list, sep: str) -> Path:
    lines = [f"prediction{sep}{field}"] + [f"{PREDS[k]}{sep}{v}" for v, k in zip(values, order)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_shuffled_sample_is_far_from_its_own_bleu():
    # the cases below: the same 8 predictions, shuffled; paired by line order they score far below their BLEU
    assert sample_bleu([PREDS[k] for k in SHUFFLED], 8) < 0.05 < 0.25 < sample_bleu(PREDS[:8], 8)


@pytest.mark.parametrize("form", ["csv", "tsv", "jsonl", "csv-empty", "jsonl-empty", "csv-00", "jsonl-00"])
def test_a_row_index_written_as_decimals_is_refused(tmp_path, form):
    data = sample_data(tmp_path)
    written = {"dot": "{}.", "00": "{}.00"}.get(form.split("-")[-1], "{}.0")
    values = [written.format(k) for k in SHUFFLED]
    if form.endswith("empty"):
        values[4] = ""
    if form.startswith("jsonl"):
        path = write_jsonl(tmp_path / "p.jsonl", [{"prediction": PREDS[k], "idx": v} for v, k in zip(values, SHUFFLED)])
    else:
        path = _table(tmp_path / f"p.{form[:3]}", "idx", values, SHUFFLED, "\t" if form == "tsv" else ",")
    msg = refused(data, path)
    assert "'idx'" in msg and "another order" in msg, msg


def test_a_row_index_written_as_decimals_in_line_order_is_kept(tmp_path):
    data = sample_data(tmp_path)
    path = _table(tmp_path / "p.csv", "idx", [f"{k}.0" for k in range(8)], range(8), ",")
    rep = report(data, path)
    assert rep.score("bleu").value == pytest.approx(sample_bleu(PREDS[:8], 8), abs=1e-12)
    assert "which their field 'idx' agrees with" in rep.notes[0], rep.notes


@pytest.mark.parametrize("field,written", [("qid", "gsm8k_{}"), ("qid", "c3-q{}"), ("qid", "task1_q{}"),
                                           ("qid", "v2-{}"), ("qid", "Q{}|q{}"), ("id_", "gsm8k_{:04d}")])
def test_prefixes_holding_a_digit_or_in_two_cases_are_read(tmp_path, field, written):
    data = sample_data(tmp_path)
    forms = written.split("|")
    values = [forms[j % len(forms)].format(k) for j, k in enumerate(SHUFFLED)]
    path = write_jsonl(tmp_path / "p.jsonl", [{"prediction": PREDS[k], field: v} for v, k in zip(values, SHUFFLED)])
    msg = refused(data, path)
    assert f"{field!r}" in msg and "another order" in msg, msg
    ordered = [{"prediction": PREDS[k], field: forms[k % len(forms)].format(k)} for k in range(8)]
    rep = report(data, write_jsonl(tmp_path / "ok.jsonl", ordered))
    assert rep.score("bleu").value == pytest.approx(sample_bleu(PREDS[:8], 8), abs=1e-12)


@pytest.mark.parametrize("placeholder", ["nan", "None", "null", "NaN", "-", "N/A"])
def test_one_text_placeholder_among_prefixed_values_is_a_line_without_a_number(tmp_path, placeholder):
    data = sample_data(tmp_path)
    values = [f"q{k}" for k in SHUFFLED]
    values[5] = placeholder
    path = write_jsonl(tmp_path / "p.jsonl", [{"prediction": PREDS[k], "qid": v} for v, k in zip(values, SHUFFLED)])
    msg = refused(data, path)
    assert "'qid'" in msg and "hold no number" in msg and repr(placeholder) in msg, msg


@pytest.mark.parametrize("field", ["idx_in_batch", "index_in_shard", "idx_on_gpu", "batch_idx", "worker_index"])
def test_a_position_within_a_batch_shard_or_gpu_is_never_a_row_index(tmp_path, field):
    # 66 items in the data's order, the field i % 64 (0..63, 0, 1) and a 'batch' i // 64: kept, line j with item j
    data = sample_data(tmp_path, 66)
    rows = [{"prediction": p, "batch": i // 64, field: i % 64} for i, p in enumerate(PREDS[:66])]
    rep = report(data, write_jsonl(tmp_path / "p.jsonl", rows))
    assert rep.score("bleu").value == pytest.approx(sample_bleu(PREDS[:66], 66), abs=1e-12)


@pytest.mark.parametrize("field,values", [("sent_num", [2, 1, 3]), ("speaker_id", [3, 1, 4, 0, 2]),
                                          ("user_id", [3, 1, 4, 0, 2]), ("doc_id", [2, 0, 1])])
def test_an_id_or_count_of_something_else_than_the_item_is_at_most_warned_of(tmp_path, field, values):
    in_line_order(tmp_path, field, values)  # not refused: scored as line order pairs them, sacrebleu's BLEU


@pytest.mark.parametrize("field", ["sample_id", "item_id", "qid", "question_id", "example_id", "row_id", "line_id"])
def test_item_index_names_stay_refused(tmp_path, field):
    data = sample_data(tmp_path)
    path = write_jsonl(tmp_path / "p.jsonl", [{"prediction": PREDS[k], field: k} for k in SHUFFLED])
    assert "another order" in refused(data, path)


@pytest.mark.parametrize("values,line,value,item", [([0, 1, 2, 2, 4, 5, 6, 7], 4, 2, 3),
                                                    ([0, 1, 2, 4, 5, 6, 7, 8], 4, 4, 3)])
def test_a_loose_numbering_in_line_order_is_noted_with_its_first_line_off_its_place(tmp_path, values, line, value,
                                                                                   item):
    data = sample_data(tmp_path)
    path = write_jsonl(tmp_path / "p.jsonl", [{"prediction": PREDS[k], "idx": v} for k, v in enumerate(values)])
    rep = report(data, path)
    assert rep.score("bleu").value == pytest.approx(sample_bleu(PREDS[:8], 8), abs=1e-12)
    note = rep.notes[0]
    assert "'idx'" in note and f"{path}:{line} has 'idx' {value}" in note, note
    assert f"paired with item {item}" in note, note
