"""A TSV written with CSV quoting (pandas' ``df.to_csv(path, sep="\\t")``: a cell ``a"b`` is written ``"a""b"``)
is refused naming file:line and the column, by the whole-file reader and the streaming one (issue 35: TSV is read
without quoting, so the quotes stayed in the text, silently). Refused rather than read as CSV: a plain TSV whose
text really is ``"a""b"`` could not be told apart. Quotes that are no CSV quoting stay text, as before."""

from __future__ import annotations

import pytest

from zheval.io import read_rows
from zheval.io.chunks import iter_row_chunks

from helpers.tsv_readers import refused_by_both


def _read_both(path):
    whole = read_rows(path).rows
    streamed = [row for chunk in iter_row_chunks(path, chunk_rows=1) for row in chunk]
    assert whole == streamed
    return whole


def test_a_tsv_pandas_wrote_with_quotes_isrefused_by_both(tmp_path):
    pd = pytest.importorskip("pandas")
    path = tmp_path / "preds.tsv"
    pd.DataFrame({"id": ["1", "2", "3"], "prediction": ['他说"好的"', "今天天气很好", '"引号"'],
                  "label": ["好的", "不错", "x"]}).to_csv(path, sep="\t", index=False)
    # pandas' own writing, as the issue saw it (not our reading of it)
    assert path.read_text(encoding="utf-8").splitlines()[1] == '1\t"他说""好的"""\t好的'
    problems = refused_by_both(path)
    assert len(problems) == 2, problems
    assert problems[0].startswith(f"{path}:2: cell 2 ('\"他说\"\"好的\"\"\"', column 'prediction') is written with "
                                  "CSV quoting")
    assert problems[1].startswith(f"{path}:4: cell 2 ('\"\"\"引号\"\"\"', column 'prediction')")
    assert "save the file as CSV (.csv) or JSON Lines, or write the TSV without quoting (pandas: " \
           "quoting=csv.QUOTE_NONE)" in problems[0]
    # that advice read back: the same frame without quoting is read with every text as it is
    import csv

    frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    frame.to_csv(path, sep="\t", index=False, quoting=csv.QUOTE_NONE)
    assert [r["prediction"] for _, r in _read_both(path)] == ['他说"好的"', "今天天气很好", '"引号"']


def test_a_header_cell_so_quoted_is_refused_too(tmp_path):
    path = tmp_path / "h.tsv"
    path.write_text('id\t"pre""d"\n1\t好\n', encoding="utf-8")
    assert refused_by_both(path) == [f"{path}:1: " + refused_by_both(path)[0].split(":1: ", 1)[1]]
    assert "cell 2 ('\"pre\"\"d\"')" in refused_by_both(path)[0]


@pytest.mark.parametrize("cell", ['"好的"', 'a""b', '"a"b"', '""', '"', '"""', '好""', '""好'])
def test_quotes_that_are_no_csv_quoting_stay_text(tmp_path, cell):
    path = tmp_path / "t.tsv"
    path.write_text(f"id\tprediction\n1\t{cell}\n", encoding="utf-8")
    assert _read_both(path) == [(2, {"id": "1", "prediction": cell})]
