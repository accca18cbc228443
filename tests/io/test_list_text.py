"""`zheval.io.list_text`: the one rule for a reference that is a list written as text (JSON or Python literal, a list
of strings, in brackets after stripping spaces) and the one message that says so; other bracketed texts are texts."""

from __future__ import annotations

import pytest

from zheval.io import list_text, list_text_message

LISTS = {"['猫趴在垫子上面', '猫在垫子上']": ["猫趴在垫子上面", "猫在垫子上"], '["北京", "上海"]': ["北京", "上海"],
         ' ["a"] \n': ["a"], "[]": [], "['it\\'s', \"b\"]": ["it's", "b"], '["\\u732b"]': ["猫"]}
TEXTS = ["[图片]", "[1]", "[1, 2]", "[注释] 见上", "[[\"a\"]]", "[图片][图片]", "[\"a\"] 后", "[", "]", "猫", "",
         "[" * 50000 + "]" * 50000, "['a', 1]", "[None]", None, ["a"]]


@pytest.mark.parametrize("text", LISTS)
def test_a_list_of_strings_in_text_is_read_as_its_strings(text):
    assert list_text(text) == LISTS[text]


@pytest.mark.parametrize("text", TEXTS, ids=range(len(TEXTS)))
def test_other_bracketed_texts_are_texts(text):
    assert list_text(text) is None


def test_the_message_names_the_count_the_first_line_and_the_remedy():
    got = list_text_message(3, 2, "x.csv", 4, "'references'")
    assert got == ("x.csv: 3 reference(s) in 2 row(s) are a list written as text (first at x.csv:4, 'references'): "
                   "each is scored as ONE text, brackets and quotes included; if they are meant as several references, "
                   "pandas' to_csv writes a list cell as its repr: write the lists as JSONL or Parquet arrays, or one "
                   "column per reference (ref_field=[\"ref1\", \"ref2\"])")


def test_the_command_line_writes_the_remedy_as_its_options():
    from zheval.cli.option_names import in_field_options

    said = in_field_options(list_text_message(1, 1, "ref_x.csv", 2, "'ref_field'"), "score")
    assert said.endswith("(--ref-field ref1 --ref-field ref2)") and "'ref_field'" in said and "ref_x.csv" in said
    assert in_field_options("group_fields=['a b', \"c\"]") == "--group-field 'a b' --group-field c"


def test_texts_passed_from_python_are_not_checked():
    from zheval import compute_bleu

    # the caller's Python strings: a list literal is a text there, scored as it is
    got = compute_bleu(["['猫', '狗']"], [["['猫', '狗']"]], tokenizer="char")
    assert got["bleu"] == pytest.approx(1.0)


def test_a_line_is_a_json_string_only_when_whole_and_quoted():
    """Break-it 21: the rule of text lines written as JSON string literals (`zheval.io.json_strings`)."""
    from zheval.io import JsonStringLines, json_escaped, json_string

    assert json_string('"\\u4eca\\u5929"') == "今天" and json_escaped('"\\u4eca\\u5929"')
    assert json_string('"好的"') == "好的" and not json_escaped('"好的"')  # quoted speech: no escape
    for text in ['好的', '"好" 和 "坏"', '“好的”', '"未闭合', '["a"]', '"a\\qb"']:
        assert json_string(text) is None, text
    count = lambda *lines: JsonStringLines.count(enumerate(lines, 1))  # noqa: E731
    assert not count('"好的"').refused  # one line, no escape: as likely speech as JSON
    assert count('"\\u597d"').refused and count('"好的"', "", '"谢谢"').refused
    mixed = count("好的", '"\\u597d"', '"谢谢"', '"a\\nb"')
    assert not mixed.refused and mixed.warned and (mixed.escaped, mixed.first_escaped, mixed.nonblank) == (2, 2, 4)
    assert not count("好的", '"谢谢"').warned


def test_lines_in_quotes_without_an_escape_count_when_half_the_file_is_so():
    """Break-it (JSON quotes): lines '"你好"' (json.dumps with ensure_ascii=False: no escape) were never counted unless
    every line was one; they are when at least two and half the non-blank lines are JSON string literals, and the
    warning quotes the file's first such line (control characters escaped) instead of a fixed "\\u4eca"."""
    from zheval.io import JsonStringLines, json_escapes_message, quoted_counted

    count = lambda *lines: JsonStringLines.count(enumerate(lines, 1))  # noqa: E731
    assert quoted_counted(2, 4) and not quoted_counted(1, 1) and not quoted_counted(2, 5)
    assert not count("好的", "谢谢", '"你好"').warned  # one answer in quotes among raw ones: text
    half = count("好的", '"你好"', "", '"谢谢"', "再见")  # 2 of 4 non-blank lines
    assert half.warned and not half.refused and half.counted == 2
    said = json_escapes_message(half, "h.txt")
    assert said.startswith('h.txt: 2 of 4 non-blank line(s) are JSON string literals, 0 with escapes (first at '
                           'h.txt:2: "你好"): each is scored as written'), said
    odd = '"\\u4f60\u202e\\n' + "好" * 50 + '"'  # an escape, a raw U+202E (JSON allows it), a long line
    one = count("好的", "再见", odd, "谢谢")
    said = json_escapes_message(one, "h.txt")
    assert '(first at h.txt:3: "\\u4f60\\u202e\\n' + "好" * 30 + "…)" in said, said
    assert "\u202e" not in said and "\\u4eca" not in said
