"""`zheval.io.list_text`: the one rule for a list written as text (JSON or Python literal, a list of strings, in
brackets after stripping spaces); other bracketed texts are texts; texts from Python are never checked."""

from __future__ import annotations

import pytest

from zheval.io import list_text_problem

LISTS = ["['猫趴在垫子上面', '猫在垫子上']", '["猫趴在垫子上面", "猫在垫子上"]', ' ["a"] \n', "[]", "['it\\'s', \"b\"]",
         '["\\u732b"]']
TEXTS = ["[图片]", "[1]", "[1, 2]", "[注释] 见上", "[[\"a\"]]", "[图片][图片]", "[\"a\"] 后", "[", "]", "猫", "",
         "[" * 50000 + "]" * 50000, "['a', 1]", "[None]"]


@pytest.mark.parametrize("text", LISTS)
def test_a_list_of_strings_in_text_is_a_problem_naming_the_field(text):
    got = list_text_problem(text, "'references'")
    assert got.startswith("'references' is a list written as text (") and "--ref-field ref1 --ref-field ref2" in got


@pytest.mark.parametrize("text", TEXTS)
def test_other_bracketed_texts_are_texts(text):
    assert list_text_problem(text, "'references'") is None


def test_texts_passed_from_python_are_not_checked():
    from zheval import compute_bleu

    # the caller's Python strings: a list literal is a text there, scored as it is
    got = compute_bleu(["['猫', '狗']"], [["['猫', '狗']"]], tokenizer="char")
    assert got["bleu"] == pytest.approx(1.0)
