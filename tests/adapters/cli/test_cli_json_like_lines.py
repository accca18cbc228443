"""Lines that start with ``{`` or ``[`` are malformed JSON, never plain text (issue 35, break-it leftovers): a
truncated JSONL file, or rows written with ``str(dict)`` (single quotes), were diagnosed as "a text file, one
prediction per line" by the records door (and got the "looks like plain text" hint at the ``--data`` door), which
sent the user to ``--data`` for a file that is broken JSON. Now each such line is named ``file:line`` as malformed
JSON (with a hint for single quotes); a file of real text lines keeps its one-line message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.cli import run_cli as run
from zheval.io import json_error_message

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "zheval" / "data" / "duck_sample.jsonl"
ROWS = [{"prediction": "你好", "reference": "你好"}, {"prediction": "再见", "reference": "再 见"},
        {"prediction": "谢谢", "reference": "不客气"}]
COMMANDS = [["score"], ["score", "--stream"], ["explain"]]


@pytest.mark.parametrize("command", COMMANDS)
def test_python_dict_lines_are_malformed_json_at_each_line(tmp_path, command):
    f = tmp_path / "p.jsonl"
    f.write_text("".join(str(r) + "\n" for r in ROWS), encoding="utf-8")
    res = run(*command, "-p", f, "-q")
    assert res.exit_code == 2, res.output
    assert "text file" not in res.stderr and "--data FILE" not in res.stderr, res.stderr
    for line in (1, 2, 3):  # str(dict) opens with "{'": the property name at column 2 is single-quoted
        assert (f"{f}:{line}: malformed JSON object: Expecting property name enclosed in double quotes at column 2 "
                "(single quotes are not JSON: is it Python's str() of a dict? write each row with json.dumps)"
                ) in res.stderr, res.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_a_truncated_jsonl_file_is_malformed_json_at_its_last_line(tmp_path, command):
    f = tmp_path / "p.jsonl"
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS)
    f.write_text(text[:-6], encoding="utf-8")  # cut inside the third line's reference
    last = text[:-6].splitlines()[-1]
    assert last == '{"prediction": "谢谢", "reference": "'
    res = run(*command, "-p", f, "-q")
    assert res.exit_code == 2, res.output
    assert "text file" not in res.stderr, res.stderr
    col = len('{"prediction": "谢谢", "reference": ') + 1  # json's column of the unterminated string's quote
    assert f"{f}:3: malformed JSON object: Unterminated string starting at column {col}" in res.stderr, res.stderr
    one = tmp_path / "one.jsonl"
    one.write_text(last, encoding="utf-8")  # one line only, cut short: 1 of 1 lines "not JSON" before
    res = run(*command, "-p", one, "-q")
    assert res.exit_code == 2 and f"{one}:1: malformed JSON object: Unterminated string" in res.stderr, res.stderr
    assert "text file" not in res.stderr


def test_the_data_door_gives_no_plain_text_hint_for_such_lines(tmp_path):
    items = [json.loads(x) for x in DATA.read_text("utf-8").splitlines() if x.strip()]
    f = tmp_path / "p.jsonl"
    f.write_text("".join(str({"id": it["id"], "prediction": it["responses"][0]}) + "\n" for it in items),
                 encoding="utf-8")
    res = run("score", "-d", DATA, "-p", f, "-q", "--bootstrap", 0)
    assert res.exit_code == 2, res.output
    assert "looks like plain text" not in res.stderr and "not JSON: if it holds one prediction" not in res.stderr
    assert f"{f}:1: malformed JSON object: Expecting property name enclosed in double quotes" in res.stderr


def test_text_lines_still_get_the_one_text_file_message(tmp_path):
    f = tmp_path / "p.jsonl"
    f.write_text("你好\n再见\n谢谢\n", encoding="utf-8")
    res = run("score", "-p", f, "-q")
    assert res.exit_code == 2 and f"{f}:1: this looks like a text file" in res.stderr, res.stderr


@pytest.mark.parametrize("line, want", [
    ("[1, 2", "malformed JSON array: Expecting ',' delimiter at column 6"),
    ('  {"a": 1} {"b": 2}', "malformed JSON object: Extra data at column 12"),
    ("你好", "malformed JSON: Expecting value at column 1"),
    ("{'a': 1}", "malformed JSON object: Expecting property name enclosed in double quotes at column 2 (single "
                 "quotes are not JSON: is it Python's str() of a dict? write each row with json.dumps)"),
])
def test_json_error_message_names_what_the_line_starts_as(line, want):
    with pytest.raises(json.JSONDecodeError) as exc:
        json.loads(line)
    assert json_error_message(exc.value) == want


@pytest.mark.parametrize("junk", ["\x1a", "\x00\x00\x00\x00", "oops"])
@pytest.mark.parametrize("stream", [False, True])
def test_one_bad_line_beside_json_rows_is_that_lines_problem(tmp_path, junk, stream):
    # a one-row JSONL file with one junk line at the end is JSONL with a bad line, not "a text file"
    f = tmp_path / "p.jsonl"
    f.write_text('{"predict": "今天天气好", "label": "今天天气很好"}\n' + junk + "\n", encoding="utf-8")
    res = run("score", "-p", f, "-q", "--bootstrap", 0, *(["--stream"] if stream else []))
    assert res.exit_code == 2, res.output
    assert "looks like a text file" not in res.stderr
    assert f"{f}:2: malformed JSON: Expecting value at column 1" in res.stderr


def test_bad_lines_after_a_first_json_row_are_their_problems(tmp_path):
    f = tmp_path / "p.jsonl"
    f.write_text('{"predict": "你好", "label": "你好呀"}\n你好\n再见\n', encoding="utf-8")
    res = run("score", "-p", f, "-q", "--bootstrap", 0)
    assert res.exit_code == 2 and "looks like a text file" not in res.stderr, res.stderr
    assert f"{f}:2: malformed JSON" in res.stderr and f"{f}:3: malformed JSON" in res.stderr


def test_text_lines_with_a_json_line_inside_are_still_a_text_file(tmp_path):
    f = tmp_path / "p.jsonl"
    f.write_text('你好\n{"predict": "你好", "label": "你好呀"}\n再见\n', encoding="utf-8")
    res = run("score", "-p", f, "-q", "--bootstrap", 0)
    assert res.exit_code == 2 and f"{f}:1: this looks like a text file" in res.stderr, res.stderr
