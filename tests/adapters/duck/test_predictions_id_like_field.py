"""Predictions without an ``id`` field whose ids sit under another field (``qid``, ``uid``, ``item_id``) were paired
with the items by line order with only a note (issue 35 break-it: a shuffled ``qid`` file of the sample scored
ROUGE-L 0.142 / BLEU 0.016 instead of 0.529 / 0.354, exit 0). Now such a field in another order than the data's is
refused (naming the file, the field and ``--id-field qid`` / ``id_field='qid'``), and in the data's order the
pairing is kept with a warning naming the field. The right numbers are computed here by pairing the lines by the
field by hand and scoring them with sacrebleu and rouge-score (CJK text without punctuation: zheval's char tokens
are sacrebleu's ``zh`` tokens and single characters)."""

from __future__ import annotations

import csv
import json

import pytest

from helpers.cli import run_cli, write_jsonl
from helpers.shuffled_items import IDS, ORDER, PREDS, REFS, every_command
from zheval.adapters.duck import PredictionMismatchError, evaluate_predictions, load_duck
from zheval.adapters.duck.predictions import read_predictions
from zheval.adapters.records import predictions_from_records, read_records


class _Chars:
    def tokenize(self, text):
        return list(text)


def _expected(preds: list) -> tuple:
    """(BLEU, mean ROUGE-L F with the best reference) of ``preds`` (one per item, in item order): sacrebleu's corpus
    BLEU with its ``zh`` tokens, rouge-score's ROUGE-L on characters."""
    import sacrebleu
    from rouge_score import rouge_scorer

    bleu = sacrebleu.corpus_bleu(preds, [[r[0] for r in REFS], [r[1] for r in REFS]], tokenize="zh").score / 100
    scorer = rouge_scorer.RougeScorer(["rougeL"], tokenizer=_Chars())
    rl = [max(scorer.score(ref, p)["rougeL"].fmeasure for ref in refs) for p, refs in zip(preds, REFS)]
    return bleu, sum(rl) / len(rl)


@pytest.fixture
def data(tmp_path):
    rows = [{"id": i, "query": f"问题{k}", "responses": r, "domain": None, "difficulty": None} for k, (i, r) in enumerate(zip(IDS, REFS))]
    return write_jsonl(tmp_path / "data.jsonl", rows)


def _shuffled(tmp_path, field="qid", ids=IDS, name="shuf.jsonl"):
    return write_jsonl(tmp_path / name, [{field: ids[k], "prediction": PREDS[k]} for k in ORDER])


def _in_order(tmp_path, field="qid"):
    return write_jsonl(tmp_path / "ord.jsonl", [{"prediction": p, field: i} for i, p in zip(IDS, PREDS)])


def _scores(res) -> tuple:
    rep = json.loads(res.stdout)
    overall = rep["groups"][0]["scores"]
    return overall["bleu"]["value"], overall["rougeL"]["value"], rep


@pytest.mark.parametrize("field", ["qid", "uid", "item_id"])
def test_a_shuffled_file_with_ids_under_another_field_is_refused_by_the_library(tmp_path, data, field):
    path = _shuffled(tmp_path, field)
    recipe = f"read_records(FILE, id_field={field!r}, with_references=False) and predictions_from_records"
    with pytest.raises(PredictionMismatchError) as err:
        evaluate_predictions(load_duck(data), str(path), bootstrap=0)
    msg = str(err.value)
    assert msg.startswith(f"predictions ({path}) have no 'id' field, but their field {field!r} holds exactly the "
                          f"data's 6 ids, in another order ({path}:1 has {field!r} 'duck-3', where item 0 of the data "
                          "is 'duck-0')"), msg
    assert recipe in msg, msg
    # the way out the message names gives the numbers of the lines paired by the field by hand
    ds = load_duck(data)
    joined = predictions_from_records(read_records(path, id_field=field, with_references=False))
    rep = evaluate_predictions(ds, joined, bootstrap=0, by=())
    bleu, rouge_l = _expected(PREDS)
    assert rep.score("bleu").value == pytest.approx(bleu, abs=1e-12)
    assert rep.score("rougeL").value == pytest.approx(rouge_l, abs=1e-12)


def test_integer_ids_are_the_ids_by_the_id_rule(tmp_path):
    rows = [{"id": str(k + 7), "query": f"问题{k}", "responses": r, "domain": None, "difficulty": None} for k, r in enumerate(REFS)]
    data = write_jsonl(tmp_path / "data.jsonl", rows)
    path = write_jsonl(tmp_path / "shuf.jsonl", [{"qid": k + 7, "prediction": PREDS[k]} for k in ORDER])
    with pytest.raises(PredictionMismatchError, match=r"field 'qid' holds exactly the data's 6 ids.*has 'qid' '10'"):
        evaluate_predictions(load_duck(data), str(path), bootstrap=0)


@pytest.mark.parametrize("kind", ["csv", "tsv", "parquet"])
def test_tables_are_refused_too(tmp_path, data, kind):
    path = tmp_path / f"shuf.{kind}"
    rows = [{"prediction": PREDS[k], "item_id": IDS[k]} for k in ORDER]
    if kind == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(rows), path)
    else:
        with path.open("w", encoding="utf-8", newline="") as f:
            w = csv.DictWriter(f, ["prediction", "item_id"], delimiter="," if kind == "csv" else "\t",
                               lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    first = {"csv": 2, "tsv": 2}.get(kind, 1)  # a table's first row is under its header line
    with pytest.raises(PredictionMismatchError, match=rf"their field 'item_id' holds exactly the data's 6 ids, in "
                                                      rf"another order \(.*shuf\.{kind}:{first} has 'item_id' 'duck-3'"):
        evaluate_predictions(load_duck(data), str(path), bootstrap=0)
    with pytest.raises(PredictionMismatchError, match=r"their field 'item_id' holds"):  # read by pred_field too
        evaluate_predictions(load_duck(data), predictions_from_records(
            read_records(path, pred_field="prediction", with_references=False)), bootstrap=0)


def test_every_command_refuses_it_naming_the_option(tmp_path, data):
    path = _shuffled(tmp_path)
    for args, res in every_command(tmp_path, data, path):
        assert res.exit_code == 2, (args, res.output)
        assert f"predictions ({path}) have no 'id' field, but their field 'qid' holds exactly the data's 6 ids" \
            in res.stderr, (args, res.stderr)
        assert "Join them by that field with --id-field qid;" in res.stderr, (args, res.stderr)
        assert "read_records" not in res.stderr, res.stderr


def test_the_id_field_option_gives_the_numbers_of_the_lines_paired_by_it(tmp_path, data):
    res = run_cli("score", "-d", data, "-p", _shuffled(tmp_path), "--id-field", "qid", "--bootstrap", 0, "-f", "json",
                  "-q", "--by", "none")
    assert res.exit_code == 0, res.output
    bleu, rouge_l, _ = _scores(res)
    assert (bleu, rouge_l) == pytest.approx(_expected(PREDS), abs=1e-12)


def test_a_field_with_the_ids_in_the_data_order_is_paired_with_a_warning(tmp_path, data):
    path = _in_order(tmp_path)
    res = run_cli("score", "-d", data, "-p", path, "--bootstrap", 0, "-f", "json", "-q", "--by", "none")
    assert res.exit_code == 0, res.output
    bleu, rouge_l, rep = _scores(res)
    assert (bleu, rouge_l) == pytest.approx(_expected(PREDS), abs=1e-12)
    want = (f"the predictions ({path}) have no 'id' field and were paired with the items by line order, but their "
            "field 'qid' holds the items' ids (in the data's order, so each prediction is paired with its id): join "
            "them by that field, so that the ids are checked, with --id-field qid")
    assert want in rep["warnings"], rep["warnings"]
    lib = evaluate_predictions(load_duck(data), str(path), bootstrap=0)  # the library's words
    assert any("with read_records(FILE, id_field='qid', with_references=False) and predictions_from_records" in w
               for w in lib.warnings), lib.warnings
    res = run_cli("compare", "-d", data, "-p", write_jsonl(tmp_path / "a.jsonl", [{"prediction": p} for p in PREDS]),
                  path, "-f", "json", "-q")
    assert res.exit_code == 0, res.output
    assert f"B: {want}" in json.loads(res.stdout)["warnings"], res.stdout
    for args in (("explain", "-d", data, "-p", path, "--id", "duck-0"),
                 ("sample", "-d", data, "-p", path, "-k", 3, "-o", tmp_path / "s.csv", "--key", tmp_path / "k.json")):
        res = run_cli(*args, "-q")
        assert res.exit_code == 0, res.output
        assert f"warning: {want}" in res.stderr, (args, res.stderr)


def test_no_warning_without_a_field_holding_exactly_the_ids(tmp_path, data):
    rows = [{"prediction": p, "qid": i, "n": k, "half": IDS[k % 3]} for k, (i, p) in enumerate(zip(IDS, PREDS))]
    rows[2]["qid"] = "duck-99"  # one id not of the data
    path = write_jsonl(tmp_path / "p.jsonl", rows)
    rep = evaluate_predictions(load_duck(data), str(path), bootstrap=0)
    assert not [w for w in rep.warnings if "holds the items' ids (in the data's order" in w], rep.warnings
    # but the one line whose 'qid' is not its item's id is named (break-it: paired by its place without a word)
    gaps = [w for w in rep.warnings if "'id' field" in w]
    assert gaps == [f"the predictions ({path}) have no 'id' field and were paired with the items by line order; "
                    "their field 'qid' holds the items' ids in the data's order on 5 of its 6 lines, but 1 line(s) do "
                    f"not hold the id of the item they are paired with (first: {path}:3 has 'qid' 'duck-99', paired "
                    "by its place with item 2 of the data, 'duck-2'): is each such line's prediction for the item it "
                    "is paired with? Write the data's ids in that field and join them by it with read_records(FILE, "
                    "id_field='qid', with_references=False) and predictions_from_records, so that the ids are "
                    "checked"], rep.warnings
    res = run_cli("score", "-d", data, "-p", path, "--bootstrap", 0, "-q", "-f", "json")
    assert res.exit_code == 0 and any("join them by it with --id-field qid, so that the ids are checked" in w
                                      for w in json.loads(res.stdout)["warnings"]), res.output
    rows = [{"prediction": p, "half": IDS[k % 3]} for k, p in enumerate(PREDS)]  # 3 of 6 in order, then repeats
    rep = evaluate_predictions(load_duck(data), str(write_jsonl(tmp_path / "h.jsonl", rows)), bootstrap=0)
    assert [w for w in rep.warnings if "their field 'half' holds the items' ids in the data's order on 3 of its 6 "
            "lines, but 3 line(s) do not hold the id of the item they are paired with (first: " in w], rep.warnings
    assert any("paired with the items by line order" in n for n in rep.notes), rep.notes
    assert read_predictions(path).id_like_field is None
    rep = evaluate_predictions(load_duck(data), PREDS, bootstrap=0)  # a list in memory: nothing to look at
    assert not [w for w in rep.warnings if "'id' field" in w], rep.warnings


def test_data_with_its_ids_under_another_field_is_refused(tmp_path):
    """The reverse: a 小黄鸭 file whose ids are under ``qid`` is refused at its lines (its ids are ``id``, always),
    never paired with the predictions' ids in any order."""
    rows = [{"qid": i, "query": f"问题{k}", "responses": r, "domain": None, "difficulty": None} for k, (i, r) in enumerate(zip(IDS, REFS))]
    data = write_jsonl(tmp_path / "data.jsonl", rows)
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": IDS[k], "prediction": PREDS[k]} for k in ORDER])
    res = run_cli("score", "-d", data, "-p", preds, "--bootstrap", 0, "-q")
    assert res.exit_code == 2, res.output
    assert f"{data}:1: missing key(s) ['id']" in res.stderr, res.stderr


@pytest.mark.parametrize("how", ["one_edited", "upper", "spaces_fullwidth"])
def test_a_shuffled_field_holding_most_of_the_ids_is_refused_too(tmp_path, data, how):
    """Break-it of the exact rule: one id edited (``x`` prefixed: 5 of 6 match), every id in upper case, or ids
    with spaces around them or full-width letters — a shuffled file was paired by line order (exit 0, a note)."""
    ids = {"one_edited": ["x" + IDS[0]] + IDS[1:], "upper": [i.upper() for i in IDS],
           "spaces_fullwidth": [f" duck-{k} " if k % 2 else f"ＤＵＣＫ-{k}" for k in range(len(IDS))]}[how]
    path = _shuffled(tmp_path, ids=ids)
    with pytest.raises(PredictionMismatchError) as err:
        evaluate_predictions(load_duck(data), str(path), bootstrap=0)
    msg = str(err.value)
    n = 5 if how == "one_edited" else 6
    assert msg.startswith(f"predictions ({path}) have no 'id' field, but their field 'qid' holds the data's ids on "
                          f"{n} of its 6 lines, in another order ({path}:1 has 'qid' {ids[3]!r}, the id 'duck-3' of "
                          "item 3, where item 0 of the data is 'duck-0')"), msg
    if how == "one_edited":  # line 2 holds item 0's edited id
        assert f"1 line(s) hold none of the data's ids (first: {path}:2 has 'qid' 'xduck-0')" in msg, msg
    else:
        assert ("6 of them only once case, spaces around them, full-width characters (NFKC), a decimal '.0' or "
                "leading zeros") in msg
    assert "read_records(FILE, id_field='qid', with_references=False) and predictions_from_records" in msg, msg
    res = run_cli("score", "-d", data, "-p", path, "--bootstrap", 0, "-q")
    assert res.exit_code == 2, res.output
    assert "Write the data's ids in that field and join them by it with --id-field qid;" in res.stderr, res.stderr
    # the way out: the data's ids written in the field, joined by it == the lines paired by hand (sacrebleu)
    fixed = _shuffled(tmp_path, name="fixed.jsonl")
    joined = predictions_from_records(read_records(fixed, id_field="qid", with_references=False))
    rep = evaluate_predictions(load_duck(data), joined, bootstrap=0, by=())
    assert (rep.score("bleu").value, rep.score("rougeL").value) == pytest.approx(_expected(PREDS), abs=1e-12)


def test_a_field_matching_fewer_than_half_the_lines_or_in_order_is_not_refused(tmp_path, data):
    few = ["a", "b", "c", "d"] + IDS[4:]  # 2 of 6 (lines 5-6 hold items 4-5's ids: in order anyway)
    rows = [{"qid": few[k], "prediction": PREDS[k]} for k in [1, 0, 3, 2, 4, 5]]
    rows[4]["qid"], rows[5]["qid"] = IDS[5], IDS[4]  # 2 of 6 matched, out of order: under half
    rep = evaluate_predictions(load_duck(data), str(write_jsonl(tmp_path / "few.jsonl", rows)), bootstrap=0)
    assert any("paired with the items by line order" in n for n in rep.notes), rep.notes
    upper = write_jsonl(tmp_path / "up.jsonl", [{"qid": i.upper(), "prediction": p} for i, p in zip(IDS, PREDS)])
    rep = evaluate_predictions(load_duck(data), str(upper), bootstrap=0, by=())  # in the data's order: kept
    assert (rep.score("bleu").value, rep.score("rougeL").value) == pytest.approx(_expected(PREDS), abs=1e-12)


def test_compare_of_records_files_both_with_qid_names_the_id_field(tmp_path):
    """``compare -p A B`` of records files without ``id`` but with ``qid``, B shuffled: refused by the reference
    check (as before), now naming ``--id-field``; joined by it, B's numbers are those of its lines paired by hand."""
    a = write_jsonl(tmp_path / "a.jsonl", [{"qid": i, "prediction": p, "reference": r[0]}
                                           for i, p, r in zip(IDS, PREDS, REFS)])
    b = write_jsonl(tmp_path / "b.jsonl", [{"qid": IDS[k], "prediction": PREDS[k], "reference": REFS[k][0]}
                                           for k in ORDER])
    res = run_cli("compare", "-p", a, b, "-q")
    assert res.exit_code == 2, res.output
    assert "its references differ from those of" in res.stderr, res.stderr
    assert (f"{b}: both files have the field 'qid', whose values match on 6 of 6 rows in another order: if it holds "
            "the items' ids, join the rows by it with --id-field 'qid'") in res.stderr, res.stderr
    res = run_cli("compare", "-p", a, b, "--id-field", "qid", "-q", "-f", "json", "--bootstrap", 2)
    assert res.exit_code == 0, res.output
    import sacrebleu

    want = sacrebleu.corpus_bleu(PREDS, [[r[0] for r in REFS]], tokenize="zh").score / 100  # B's lines by hand
    row = next(r for r in json.loads(res.stdout)["comparison"] if r["metric"] == "bleu")
    assert row["score_b"] == pytest.approx(want, abs=1e-12) and row["score_a"] == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("written", [lambda k: float(k + 1), lambda k: f"{k + 1}.0"])
def test_integer_ids_written_as_floats_are_found_too(tmp_path, written):
    # break-it pass 17: an int id column pandas wrote as floats (2.0, or "2.0" in a CSV) was skipped, so the shuffled
    # file was paired by line order without a word (BLEU 0.678 where the right join gives 1.0)
    rows = [{"id": k + 1, "query": f"问题{k}", "responses": r, "domain": None, "difficulty": None}
            for k, r in enumerate(REFS)]
    data = write_jsonl(tmp_path / "data.jsonl", rows)
    path = write_jsonl(tmp_path / "shuf.jsonl", [{"qid": written(k), "prediction": PREDS[k]} for k in ORDER])
    with pytest.raises(PredictionMismatchError, match=r"field 'qid' holds the data's ids on 6 of its 6 lines, in "
                                                      r"another order"):
        evaluate_predictions(load_duck(data), str(path), bootstrap=0)


def test_the_prediction_and_label_fields_are_never_taken_for_ids(tmp_path):
    # break-it pass 17: numeric answers ("1", "3" …) and labels equal to the data's integer ids were read as an id
    # field and the file refused ("--id-field prediction"); they are the texts scored, paired by line order as said
    refs = [[str(k + 1)] for k in [2, 0, 1, 3, 5, 4]]  # item k's one reference; the labels below equal them
    rows = [{"id": k + 1, "query": f"问题{k}", "responses": r, "domain": None, "difficulty": None}
            for k, r in enumerate(refs)]
    data = write_jsonl(tmp_path / "data.jsonl", rows)
    answers = ["1", "3", "2", "4", "答案是5", "我不知道"]
    numeric = write_jsonl(tmp_path / "pn.jsonl", [{"prediction": a} for a in answers])
    labelled = write_jsonl(tmp_path / "pl.jsonl", [{"predict": f"答案是{r[0]}", "label": r[0]} for r in refs])
    for path in (numeric, labelled):
        res = run_cli("score", "--data", data, "-p", path, "--min-refs", 1, "--bootstrap", 0, "--by", "none",
                      "-f", "json", "-q")
        assert res.exit_code == 0, res.output
        assert "--id-field" not in res.output
    # the numeric answers' BLEU by hand: sacrebleu on the lines paired in order
    import sacrebleu

    got = json.loads(run_cli("score", "--data", data, "-p", numeric, "--min-refs", 1, "--bootstrap", 0, "--by",
                             "none", "--metrics", "bleu", "--preset", "sacrebleu-zh", "-f", "json", "-q").stdout)
    want = sacrebleu.corpus_bleu(answers, [[r[0] for r in refs]], tokenize="zh").score / 100
    assert got["groups"][0]["scores"]["bleu"]["value"] == pytest.approx(want, abs=1e-12)


# A field numbering the lines (a row index: 0..N-1 or 1..N, integers or digit strings) holds no id of the data but
# says which item each line is (break-it: a shuffled ``idx`` file was paired by line order with the note "the
# predictions have no ids", BLEU 0.028 instead of 0.249, exit 0). In another order than the lines' it is refused by
# every door; in their order the pairing is kept and the note names the field instead of saying "no ids".
_ROW_FIELDS = ["idx", "index", "sample_id", "qid", "row", "line"]


def _numbered(tmp_path, field, start=0, as_text=False, order=ORDER, name="rows.jsonl", extra=None):
    rows = [{field: str(k + start) if as_text else k + start, "prediction": PREDS[k], **(extra or {})} for k in order]
    return write_jsonl(tmp_path / name, rows)


def _sorted_by(path, field, tmp_path):
    """The way out the refusal names: the file's lines sorted by the field."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return write_jsonl(tmp_path / "sorted.jsonl", sorted(rows, key=lambda r: int(r[field])))


@pytest.mark.parametrize("start,as_text", [(0, False), (1, False), (0, True), (1, True)])
@pytest.mark.parametrize("field", _ROW_FIELDS)
def test_a_shuffled_file_numbered_by_a_row_index_is_refused_by_the_library(tmp_path, data, field, start, as_text):
    path = _numbered(tmp_path, field, start, as_text)
    with pytest.raises(PredictionMismatchError) as err:
        evaluate_predictions(load_duck(data), str(path), bootstrap=0)
    msg = str(err.value)
    first = repr(str(3 + start)) if as_text else 3 + start
    assert msg.startswith(f"predictions ({path}) have no 'id' field, but their field {field!r} numbers their 6 lines "
                          f"from {start} to {start + 5} in another order than the lines' ({path}:1 has {field!r} "
                          f"{first}, but by its place is paired with item 0 of the data, 'duck-0')"), msg
    assert f"If {field!r} numbers the data's items from {start}, sort the file's lines by it;" in msg, msg
    assert "id_field=\"NAME\", with_references=False) and predictions_from_records" in msg, msg
    # the records door of the library (predictions_from_records) is refused the same way
    with pytest.raises(PredictionMismatchError, match=rf"their field '{field}' numbers their 6 lines"):
        evaluate_predictions(load_duck(data), predictions_from_records(
            read_records(path, pred_field="prediction", with_references=False)), bootstrap=0)
    # the way out: sorted by the field, the lines are paired with their items (sacrebleu / rouge-score by hand)
    rep = evaluate_predictions(load_duck(data), str(_sorted_by(path, field, tmp_path)), bootstrap=0, by=())
    assert (rep.score("bleu").value, rep.score("rougeL").value) == pytest.approx(_expected(PREDS), abs=1e-12)


def test_every_command_refuses_a_row_index_in_another_order_naming_the_option(tmp_path, data):
    path = _numbered(tmp_path, "idx")
    for args, res in every_command(tmp_path, data, path):
        assert res.exit_code == 2, (args, res.output)
        assert (f"predictions ({path}) have no 'id' field, but their field 'idx' numbers their 6 lines from 0 to 5 "
                "in another order") in res.stderr, (args, res.stderr)
        assert "(or in another field, joined by it with --id-field NAME)" in res.stderr, (args, res.stderr)
        assert "have no ids" not in res.stderr and "read_records" not in res.stderr, res.stderr


@pytest.mark.parametrize("kind", ["csv", "tsv", "parquet"])
def test_a_table_numbered_in_another_order_is_refused_too(tmp_path, data, kind):
    path = tmp_path / f"shuf.{kind}"
    rows = [{"prediction": PREDS[k], "row": k + 1} for k in ORDER]
    if kind == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(rows), path)
    else:
        with path.open("w", encoding="utf-8", newline="") as f:
            w = csv.DictWriter(f, ["prediction", "row"], delimiter="," if kind == "csv" else "\t", lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    first = {"csv": 2, "tsv": 2}.get(kind, 1)
    value = 4 if kind == "parquet" else "'4'"  # a CSV cell is a string of digits
    with pytest.raises(PredictionMismatchError, match=rf"their field 'row' numbers their 6 lines from 1 to 6 in "
                                                      rf"another order than the lines' \(.*shuf\.{kind}:{first} has "
                                                      rf"'row' {value},"):
        evaluate_predictions(load_duck(data), str(path), bootstrap=0)


@pytest.mark.parametrize("start", [0, 1])
def test_a_row_index_in_the_lines_order_is_paired_and_named_in_the_note(tmp_path, data, start):
    path = _numbered(tmp_path, "idx", start, order=range(len(PREDS)))
    res = run_cli("score", "-d", data, "-p", path, "--bootstrap", 0, "-f", "json", "-q", "--by", "none")
    assert res.exit_code == 0, res.output
    bleu, rouge_l, rep = _scores(res)
    assert (bleu, rouge_l) == pytest.approx(_expected(PREDS), abs=1e-12)
    want = (f"the predictions ({path}) have no 'id' field: they were paired with the items by line order, which their "
            f"field 'idx' agrees with (it numbers the lines from {start} in their order); add an 'id' field to join "
            "them by id")
    assert rep["notes"] == [want], rep["notes"]
    lib = evaluate_predictions(load_duck(data), str(path), bootstrap=0)
    assert lib.notes[:1] == [want], lib.notes
    res = run_cli("explain", "-d", data, "-p", path, "--id", "duck-0", "-q")
    assert res.exit_code == 0 and "have no ids" not in res.output + res.stderr, res.output


def test_the_note_says_no_ids_only_of_a_file_without_other_fields(tmp_path, data):
    bare = write_jsonl(tmp_path / "bare.jsonl", [{"prediction": p} for p in PREDS])
    rep = evaluate_predictions(load_duck(data), str(bare), bootstrap=0)
    assert rep.notes[0] == (f"the predictions ({bare}) have no ids: they were paired with the items by line order "
                            "(add an 'id' field to join them by id)"), rep.notes
    other = write_jsonl(tmp_path / "other.jsonl", [{"prediction": p, "model": "m"} for p in PREDS])
    rep = evaluate_predictions(load_duck(data), str(other), bootstrap=0)
    assert rep.notes[0].startswith(f"the predictions ({other}) have no 'id' field: they were paired"), rep.notes
    qid = _in_order(tmp_path)  # the items' ids under 'qid', in the data's order: named in the note too
    rep = evaluate_predictions(load_duck(data), str(qid), bootstrap=0)
    assert rep.notes[0] == (f"the predictions ({qid}) have no 'id' field: they were paired with the items by line "
                            "order, which their field 'qid' agrees with (it holds the items' ids in the data's order)")


def test_a_count_mismatch_of_a_file_with_fields_says_no_id_field(tmp_path, data):
    path = _numbered(tmp_path, "idx", order=list(range(len(PREDS))) + [0])
    with pytest.raises(PredictionMismatchError) as err:
        evaluate_predictions(load_duck(data), str(path), bootstrap=0)
    assert str(err.value).startswith(f"predictions ({path}) have no 'id' field, so they are matched in dataset order, "
                                     "but there are 7 predictions for 6 items"), str(err.value)


def test_two_lines_numbered_backwards_are_not_refused(tmp_path):
    """A yes/no field (``1``, ``0``) of a two-line file says nothing of the order: paired by line order as noted."""
    rows = [{"id": IDS[k], "query": f"问题{k}", "responses": REFS[k], "domain": None, "difficulty": None} for k in (0, 1)]
    data = write_jsonl(tmp_path / "two.jsonl", rows)
    path = write_jsonl(tmp_path / "p.jsonl", [{"prediction": PREDS[k], "ok": 1 - k} for k in (0, 1)])
    rep = evaluate_predictions(load_duck(data), str(path), bootstrap=0)
    assert rep.notes[0].startswith(f"the predictions ({path}) have no 'id' field: they were paired"), rep.notes


def test_a_stored_reference_refusal_of_a_file_paired_by_line_order_says_no_id_field(tmp_path, data):
    path = write_jsonl(tmp_path / "lf.jsonl", [{"prediction": p, "references": [REFS[(k + 1) % 6][0]], "idx": k}
                                               for k, p in enumerate(PREDS)])
    with pytest.raises(PredictionMismatchError) as err:
        evaluate_predictions(load_duck(data), str(path), bootstrap=0)
    assert str(err.value).startswith(f"predictions ({path}) have no 'id' field, so they are paired with the items by "
                                     "line order, but 6 of 6 items store a 'references'"), str(err.value)
