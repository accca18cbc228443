"""Integer and float options follow the file doors' number rule (zheval.io.numbers): ``--seed 1_2`` was 12,
``--bootstrap 1000.0`` the integer 1000 and ``--max-refs 0_1`` 1, without a word (Python's int()/float() and
typer's coercion read them); now each is refused naming the value and why, on every int/float option of every
command, at typer's floor (0.16, .ci/lowest-versions) and newest."""

from __future__ import annotations

import typing

import pytest
import typer

from helpers.cli import run_cli
from zheval.cli.option_numbers import number_parser
from zheval.cli.params import OPTIONS


def _numeric_options():
    for name, (annotation, param) in OPTIONS.items():
        kind = {int: int, typing.Optional[int]: int, float: float, typing.Optional[float]: float}.get(annotation)
        if kind is not None:
            yield name, kind, param


@pytest.mark.parametrize("name, kind, param", list(_numeric_options()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_numeric_option_reads_numbers_by_the_one_rule(name, kind, param):
    parse = param.parser
    assert parse is not None, f"{name} has no number parser"
    bad = ["1_2", "４", "٣", "0x10", "1,5", "nan", "inf", "", "1e400"] + (["12.0", "1e3", "+1.5"] if kind is int else [])
    for value in bad:
        with pytest.raises(typer.BadParameter, match="is not (an integer|a number)"):
            parse(value)


def test_the_parser_by_hand():
    p = number_parser(int, 1, 10)
    assert p("3") == 3 and p(" 3 ") == 3 and p("+3") == 3 and p(7) == 7
    assert type(p("3")) is int
    with pytest.raises(typer.BadParameter, match=r"0 is not in the range 1<=x<=10\."):
        p("0")
    with pytest.raises(typer.BadParameter, match=r"'12.0' is not an integer \(digits 0-9 with an optional sign\)"):
        p("12.0")
    f = number_parser(float, 0)
    assert f("0.5") == 0.5 and f("1e-3") == 0.001 and f(".5") == 0.5 and type(f("2")) is float
    with pytest.raises(typer.BadParameter, match=r"-1.0 is not in the range x>=0\."):
        f("-1")
    with pytest.raises(typer.BadParameter, match="'_' is not accepted"):
        f("1_0")


@pytest.mark.parametrize("args, message", [
    (["--seed", "1_2"], "'1_2' is not an integer ('_' is not accepted"),
    (["--bootstrap", "1000.0"], "'1000.0' is not an integer (digits 0-9"),
    (["--max-refs", "0_1"], "'0_1' is not an integer"),
    (["--folds", "2.0"], "'2.0' is not an integer"),
    (["--bootstrap", "２"], "U+FF12 FULLWIDTH DIGIT TWO"),
    (["--max-refs", "0"], "0 is not in the range x>=1."),
])
def test_score_refuses_what_int_would_have_read(tmp_path, args, message):
    path = tmp_path / "rec.jsonl"
    path.write_text('{"prediction": "好的", "reference": "好的呀"}\n{"prediction": "谢谢", "reference": "谢谢你"}\n',
                    encoding="utf-8")
    r = run_cli("score", "-p", path, *args)
    assert r.exit_code == 2 and message in r.output, r.output
