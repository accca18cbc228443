"""Rubric templates read as ``str.format`` reads them (issue 35): ``{{prediction}}`` is literal text, not the
placeholder; conversions, format specs, attributes, indexes, positional and unknown placeholders are refused with a
plain message naming the file and the placeholder; a key given twice in the rubric file is refused. Expected texts
are written by hand."""

from __future__ import annotations

import json

import pytest

from zheval.compute.judge_rubric import read_rubric, source_problem


def _rubric(tmp_path, template, **extra):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"system": "s", "criteria": ["overall"], "template": template, **extra}),
                    encoding="utf-8")
    return path


def test_a_literal_prediction_is_not_the_placeholder(tmp_path):
    path = _rubric(tmp_path, "参考：{references}\n回答：{{prediction}}")
    with pytest.raises(ValueError, match=r"r\.json: 'template' must contain the placeholder \{prediction\}"):
        read_rubric(str(path))


@pytest.mark.parametrize("template, shown", [
    ("{prediction!s}", "{prediction!s}"), ("{prediction:>5}", "{prediction:>5}"),
    ("{prediction}{references.x}", "{references.x}"), ("{prediction[0]}", "{prediction[0]}"),
    ("{prediction}{source!r}", "{source!r}")])
def test_conversions_formats_attributes_indexes_are_refused(tmp_path, template, shown):
    path = _rubric(tmp_path, template)
    with pytest.raises(ValueError) as info:
        read_rubric(str(path))
    assert str(info.value).startswith(f"{path}: the template's placeholder {shown} has a conversion, format or "
                                      "attribute/index; write it plainly as {")


@pytest.mark.parametrize("template, words", [
    ("{prediction}{}", "a positional placeholder {}"), ("{prediction}{0}", "a positional placeholder {0}"),
    ("{prediction}{answer}", "an unknown placeholder {answer}"),
    ("{prediction} }", "a brace that is not a placeholder")])
def test_positional_unknown_and_stray_braces_are_refused_in_plain_words(tmp_path, template, words):
    path = _rubric(tmp_path, template)
    with pytest.raises(ValueError) as info:
        read_rubric(str(path))
    text = str(info.value)
    assert text.startswith(f"{path}: the template has {words}") and "Error(" not in text
    assert text.endswith("write literal braces as {{ }}")


def test_source_is_found_by_the_parser_not_by_substring(tmp_path):
    literal = read_rubric(str(_rubric(tmp_path, "{{source}} {prediction}")))
    assert source_problem(literal, given=True) == ("the rubric's template (r.json) has no {source}: the source "
                                                   "texts would change nothing")
    assert source_problem(literal, given=False) is None
    empty_spec = read_rubric(str(_rubric(tmp_path, "{source:} {prediction}")))  # the same as {source}
    assert source_problem(empty_spec, given=False) == "the rubric's template (r.json) asks for {source}"
    assert source_problem(empty_spec, given=True) is None


def test_template_fields_are_the_formatters_names():
    from zheval.compute.judge_rubric import template_fields

    assert template_fields("{{x}} {source:} {prediction}") == {"source", "prediction"}
    with pytest.raises(ValueError, match=r"^r\.json: the template has an unknown placeholder \{x\}"):
        template_fields("{x}", "r.json")


def test_a_key_given_twice_is_refused(tmp_path):
    path = tmp_path / "r.json"
    path.write_text('{"system": "s", "criteria": ["overall"], "scale": [1, 10], "scale": [1, 5]}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"r\.json: key 'scale' given more than once in the rubric file"):
        read_rubric(str(path))
