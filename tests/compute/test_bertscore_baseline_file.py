"""A ``baseline_path`` file is read as bert-score reads it -- row ``layer`` after the header, by position
(``pandas.read_csv(path).iloc[layer]``) -- and its LAYER cell, which bert-score ignores, must be the layer used
(issue 35: a file with its rows out of order or a layer missing gave another layer's baseline, silently). Every
baseline file bert-score 0.3.13 ships (all languages) is accepted and read as pandas reads it; files that are not of
that form are refused naming ``file:line``, through the library and ``zheval bertscore --baseline-path``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from zheval.compute import bertscore as bs

ROWS = ["0,0.1,0.2,0.3", "1,0.4,0.5,0.6", "2,0.7,0.8,0.9"]


def _file(tmp_path, lines, name="base.csv"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_every_file_bert_score_ships_is_read_as_pandas_reads_it():
    bert_score = pytest.importorskip("bert_score")
    pd = pytest.importorskip("pandas")
    files = sorted((Path(bert_score.__file__).parent / "rescale_baseline").glob("*/*.tsv"))
    assert len(files) > 60
    for path in files:
        frame = pd.read_csv(path)
        for layer in range(len(frame)):
            expected = frame.iloc[layer].to_numpy()[1:].astype(np.float32)
            assert np.array_equal(bs.read_baseline(str(path), layer), expected), (path, layer)


def test_the_row_of_the_layer_is_read(tmp_path):
    path = _file(tmp_path, ["LAYER,P,R,F", *ROWS])
    assert bs.read_baseline(path, 1).tolist() == pytest.approx([0.4, 0.5, 0.6])
    # pandas' own ways of writing the column: a float column, a BOM, CRLF, a blank line (skipped as pandas does)
    path = _file(tmp_path, ["\ufeffLAYER,P,R,F", "0.0,0.1,0.2,0.3\r", "", "1.0,0.4,0.5,0.6\r"])
    assert bs.read_baseline(path, 1).tolist() == pytest.approx([0.4, 0.5, 0.6])


@pytest.mark.parametrize("lines, layer, where, says", [
    (["LAYER,P,R,F", ROWS[0], ROWS[2], ROWS[1]], 1, ":3", "has LAYER '2'"),   # rows out of order
    (["LAYER,P,R,F", ROWS[0], ROWS[2]], 1, ":3", "has LAYER '2'"),             # layer 1 missing
    (["LAYER,P,R,F", "1,0.4,0.5,0.6", "2,0.7,0.8,0.9"], 0, ":2", "has LAYER '1'"),  # counted from 1
    ([ROWS[0], ROWS[1], ROWS[2]], 1, ":1", "header LAYER,P,R,F"),              # no header
    (["F,R,P,LAYER", *ROWS], 1, ":1", "header LAYER,P,R,F"),                   # columns in another order
    (["LAYER,P,R,F", ROWS[0], "1,0.4,0.5,0.6,0.7"], 1, ":3", "(4 cells)"),     # a fifth cell
    (["LAYER,P,R,F", ROWS[0], "x,0.4,0.5,0.6"], 1, ":3", "has LAYER 'x'"),
    (["LAYER,P,R,F", ROWS[0], "1,0.4,zz,0.6"], 1, ":3", "numbers"),
])
def test_a_file_not_of_that_form_is_refused_naming_the_line(tmp_path, lines, layer, where, says):
    path = _file(tmp_path, lines)
    with pytest.raises(ValueError) as info:
        bs.read_baseline(path, layer)
    assert f"{path}{where}: " in str(info.value) and says in str(info.value), str(info.value)


def test_the_cli_refuses_a_file_whose_row_is_another_layer(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from helpers.cli import run_cli
    from helpers.tiny_bert import make_tiny_bert

    model = make_tiny_bert(tmp_path / "tiny", layers=2, seed=2)
    ref, hyp = tmp_path / "r.txt", tmp_path / "h.txt"
    ref.write_text("今天天气很好\n", encoding="utf-8")
    hyp.write_text("今天天气不错\n", encoding="utf-8")
    base = _file(tmp_path, ["LAYER,P,R,F", ROWS[0], ROWS[2], ROWS[1]])
    common = ["--model", model, "--layer", "1", "--device", "cpu", "--rescale-with-baseline"]
    res = run_cli("bertscore", ref, "-i", hyp, *common, "--baseline-path", base)
    assert res.exit_code == 2, res.output
    assert f"--baseline-path {base}:3: " in res.output and "has LAYER '2'" in res.output, res.output
    res = run_cli("bertscore", ref, "-i", hyp, *common, "--baseline-path", _file(tmp_path, ["LAYER,P,R,F", *ROWS],
                                                                                 "good.csv"))
    assert res.exit_code == 0, res.output
