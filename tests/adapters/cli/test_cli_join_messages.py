"""What ``zheval score`` says when predictions do not match the items (issue 35, break-it pass 5): trailing blank
lines of a text predictions file are named as blank lines (F13, the wording of ``zheval bleu``'s text files), and
ids that differ only in Unicode normalisation — printed alike — get a hint with the combining mark escaped (F17);
break-it pass 6: a line holding a lone CR (two predictions merged) is named in the count error, and ``zheval bleu -``
says references are not read from standard input."""

from __future__ import annotations

import unicodedata

from helpers.cli import PREDS, ROWS, run_cli, write_jsonl


def test_trailing_blank_lines_of_a_text_file_are_named(tmp_path):
    data = write_jsonl(tmp_path / "d.jsonl", ROWS)
    two = tmp_path / "p.txt"
    two.write_text("".join(p["prediction"] + "\n" for p in PREDS) + "\n\n", encoding="utf-8")
    res = run_cli("score", "--data", data, "-p", two, "-q")
    assert res.exit_code == 2
    assert "5 predictions for 3 items (last prediction at line 5); lines 4–5 are blank" in res.output
    assert "a line break too many at the end?" in res.output
    one = tmp_path / "p1.txt"
    one.write_text("".join(p["prediction"] + "\n" for p in PREDS) + "\n", encoding="utf-8")
    res = run_cli("score", "--data", data, "-p", one, "-q")
    assert res.exit_code == 2 and "4 predictions for 3 items (last prediction at line 4); line 4 is blank" in res.output
    text = tmp_path / "p2.txt"  # an extra line with text is no blank line: no such hint
    text.write_text("".join(p["prediction"] + "\n" for p in PREDS) + "多一行\n", encoding="utf-8")
    res = run_cli("score", "--data", data, "-p", text, "-q")
    assert res.exit_code == 2 and "4 predictions for 3 items" in res.output and "is blank" not in res.output and "are blank" not in res.output


def test_ids_differing_only_in_normalisation_get_a_hint(tmp_path):
    nfc = unicodedata.normalize("NFC", "café-1")
    nfd = unicodedata.normalize("NFD", "café-1")
    assert nfc != nfd and len(nfd) == len(nfc) + 1
    rows = [{**ROWS[0], "id": nfc}] + ROWS[1:]
    preds = [{**PREDS[0], "id": nfd}] + PREDS[1:]
    res = run_cli("score", "--data", write_jsonl(tmp_path / "d.jsonl", rows), "-p",
                  write_jsonl(tmp_path / "p.jsonl", preds), "-q")
    assert res.exit_code == 2 and "1 missing, 1 extra" in res.output
    assert "1 id(s) of the dataset differ from an id of the predictions only in Unicode normalisation (NFC vs NFD" in res.output
    assert "'cafe\\u0301-1' in the predictions" in res.output  # the combining acute accent, escaped
    other = [{**PREDS[0], "id": "cafe-1"}] + PREDS[1:]  # a real mismatch: no hint
    res = run_cli("score", "--data", write_jsonl(tmp_path / "d.jsonl", rows), "-p",
                  write_jsonl(tmp_path / "p2.jsonl", other), "-q")
    assert res.exit_code == 2 and "1 missing, 1 extra" in res.output and "normalisation" not in res.output


def test_a_lone_cr_merging_two_predictions_is_named_by_its_line(tmp_path):
    # break-it 6 item 4: one line ending in a lone CR (lines end at LF or CRLF; a lone CR is text) made two
    # predictions one, and the count error said only "2 predictions for 3 items"
    data = write_jsonl(tmp_path / "d.jsonl", ROWS)
    f = tmp_path / "p.txt"
    f.write_bytes((PREDS[0]["prediction"] + "\r" + PREDS[1]["prediction"] + "\n" + PREDS[2]["prediction"] + "\n")
                  .encode("utf-8"))
    res = run_cli("score", "--data", data, "-p", f, "-q")
    assert res.exit_code == 2
    assert ("2 predictions for 3 items (last prediction at line 2); line 1 holds a lone carriage return (CR, \\r) "
            "inside: a line end of another system, two predictions merged into one?") in res.output


def test_bleu_refuses_standard_input_for_references(tmp_path):
    # break-it 6 item 4: `zheval bleu - -i hyp.txt` said "reference file not found: -"; sacrebleu's CLI reads
    # references from files only (hypotheses from standard input or -i)
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("今天天气很好\n", encoding="utf-8")
    for cmd in ("bleu", "rouge", "chrf"):
        res = run_cli(cmd, "-", "-i", hyp, input="今天天气不错\n")
        assert res.exit_code == 2 and "not found" not in res.output
        assert "standard input ('-') is not accepted for references: references are read from files" in res.output
