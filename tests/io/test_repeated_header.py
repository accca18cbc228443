"""A data row equal to the header (two CSV/TSV files joined with ``cat``: the second one's header is read as a
row) is refused naming file:line at every reader (read_rows, iter_row_chunks) and every door of the CLI (score,
score --stream, compare), as the byte-order mark inside a file is (break-it-6 item 1). Before, an item with id
``id``, prediction ``predict`` and reference ``label`` was scored."""

from __future__ import annotations

import pytest

from helpers.cli import run_cli
from zheval.io import FileFormatError, read_rows
from zheval.io.chunks import iter_row_chunks

ONE = "id,predict,label\na1,今天天气不错。,今天天气很好啊。\na2,我要去北京。,我想去北京旅游。\n"
JOINED = ONE + ONE.replace("\na", "\nb")  # `cat B.csv B.csv` with the second file's ids renamed: header on line 4


def _expected(f) -> str:
    return (f"{f}:4: this row repeats the header (id, predict, label): files joined together (the second one's "
            "header is then read as a row)? remove the line")


@pytest.mark.parametrize("kind", ["csv", "tsv"])
def test_readers_refuse_a_repeated_header_naming_its_line(tmp_path, kind):
    f = tmp_path / f"joined.{kind}"
    f.write_text(JOINED if kind == "csv" else JOINED.replace(",", "\t"), encoding="utf-8")
    with pytest.raises(FileFormatError) as e:
        read_rows(f)
    assert [str(p) for p in e.value.problems] == [_expected(f)]
    with pytest.raises(FileFormatError) as e:
        list(iter_row_chunks(f, chunk_rows=2))
    assert [str(p) for p in e.value.problems] == [_expected(f)]


def test_a_row_differing_from_the_header_in_one_cell_is_a_row(tmp_path):
    f = tmp_path / "ok.csv"
    f.write_text("id,predict,label\nid,predict,标签\n", encoding="utf-8")
    assert [r for _, r in read_rows(f).rows] == [{"id": "id", "predict": "predict", "label": "标签"}]


@pytest.mark.parametrize("extra", [["--items", "-f", "json"], ["--stream"]])
def test_score_refuses_a_repeated_header(tmp_path, extra):
    f = tmp_path / "joined.csv"
    f.write_text(JOINED, encoding="utf-8")
    res = run_cli("score", "-p", f, "--bootstrap", "0", *extra)
    assert res.exit_code == 2 and _expected(f) in res.stderr and '"id": "id"' not in res.stdout


def test_compare_refuses_a_repeated_header(tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "joined.csv"
    a.write_text(ONE + ONE.replace("\na", "\nb").split("\n", 1)[1], encoding="utf-8")
    b.write_text(JOINED, encoding="utf-8")
    res = run_cli("compare", "-p", a, b, "--bootstrap", "200", "--metrics", "bleu")
    assert res.exit_code == 2 and _expected(b) in res.stderr


@pytest.mark.parametrize("kind", ["csv", "tsv"])
def test_a_repeated_header_differing_in_case_or_spaces_is_refused(tmp_path, kind):
    """A second file whose header is ``ID,Predict,Label`` (or `` id , predict,LABEL``) joined after one whose header
    is ``id,predict,label`` was scored as an item (id ``ID``, prediction ``Predict``, reference ``Label``)."""
    for i, second in enumerate(["ID,Predict,Label", " id , predict,LABEL"]):
        text = ONE + ONE.replace("\na", "\nb").replace("id,predict,label", second, 1)
        f = tmp_path / f"joined{i}.{kind}"
        f.write_text(text if kind == "csv" else text.replace(",", "\t"), encoding="utf-8")
        shown = ", ".join(second.split(","))
        want = (f"{f}:4: this row repeats the header (id, predict, label) but for case or spaces ({shown}): files "
                "joined together (the second one's header is then read as a row)? remove the line")
        for read in (read_rows, lambda f: list(iter_row_chunks(f, chunk_rows=2))):
            with pytest.raises(FileFormatError) as e:
                read(f)
            assert [str(p) for p in e.value.problems] == [want]


def test_a_row_equal_to_the_header_but_for_case_in_some_cells_only_is_a_row(tmp_path):
    """Only a row whose every cell is its header cell (case and spaces aside) is refused."""
    f = tmp_path / "ok.csv"
    f.write_text("id,predict,label\nID,Predict,标签\n", encoding="utf-8")
    assert [r for _, r in read_rows(f).rows] == [{"id": "ID", "predict": "Predict", "label": "标签"}]


def test_pandas_index_column_is_refused_with_the_fix(tmp_path):
    # break-it 24 (minor): DataFrame.to_csv(path) writes its unnamed index first; the refusal said the header has an
    # empty column name, true, without the fix
    import pandas as pd

    f = tmp_path / "preds.csv"
    pd.DataFrame({"id": ["a1"], "predict": ["好"], "label": ["好的"]}).to_csv(f)
    assert f.read_text(encoding="utf-8").splitlines()[0] == ",id,predict,label"
    with pytest.raises(FileFormatError) as e:
        read_rows(f)
    [problem] = [str(p) for p in e.value.problems]
    assert problem.startswith(f"{f}:1: the header has an empty column name (column(s) [1]); pandas' "
                              "DataFrame.to_csv writes its index there, unnamed: save with index=False"), problem
    other = tmp_path / "other.csv"
    other.write_text("id,,label\na1,好,好的\n", encoding="utf-8")
    with pytest.raises(FileFormatError) as e:
        read_rows(other)
    assert [str(p) for p in e.value.problems] == [
        f"{other}:1: the header has an empty column name (column(s) [2]); give every column a name"]
