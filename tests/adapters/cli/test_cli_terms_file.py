"""A ``--terms`` file is read by the one reader and its rule: an empty or blank-only file is an error (``no items
in FILE``, as for every input file), and a JSON or JSONL file of terms is refused (it would be read as terms that
never match)."""

from __future__ import annotations

import pytest

from helpers.cli import run_cli as run

REFS = "快递柜在哪里\n"


def _files(tmp_path, terms_bytes: bytes):
    plain = tmp_path / "r.txt"
    plain.write_text(REFS, encoding="utf-8")
    terms = tmp_path / "terms.txt"
    terms.write_bytes(terms_bytes)
    return plain, terms


@pytest.mark.parametrize("content", [b"", b"\n   \n\t\n"])
def test_an_empty_or_blank_terms_file_is_an_error(tmp_path, content):
    plain, terms = _files(tmp_path, content)
    res = run("bleu", plain, "-i", plain, "--terms", terms)
    assert res.exit_code == 2, res.output
    assert f"no items in {terms} (the file is empty or has only blank lines)" in res.stderr


@pytest.mark.parametrize("content, line", [
    ('{"term": "快递柜"}\n{"term": "小黄鸭"}\n', 1),
    ('["快递柜", "小黄鸭"]\n', 1),
    ('快递柜\n{"term": "小黄鸭"}\n', 2),
])
def test_a_json_line_is_refused_naming_the_line(tmp_path, content, line):
    plain, terms = _files(tmp_path, content.encode("utf-8"))
    res = run("rouge", plain, "-i", plain, "--terms", terms)
    assert res.exit_code == 2, res.output
    assert f"{terms}:{line}: looks like JSON" in res.stderr
    assert "a --terms file is plain text, one term per line" in res.stderr


@pytest.mark.parametrize("content, line, said", [
    ('["快递柜"\n', 1, "malformed JSON array"),
    ('快递柜\n{"term": "小黄鸭"\n', 2, "malformed JSON object"),
    ('["快递柜", \'小黄鸭\']\n', 1, "malformed JSON array"),
    ("[快递柜\n", 1, "malformed JSON array"),
])
def test_a_malformed_json_line_is_refused_too(tmp_path, content, line, said):
    """``["快递柜"`` (JSON cut short) became the literal term ``["快递柜"``, which never matches, while the valid
    JSON line was refused: a line meant as JSON (a ``"`` in it, or its bracket left open) is refused whether it
    parses or not."""
    plain, terms = _files(tmp_path, content.encode("utf-8"))
    res = run("rouge", plain, "-i", plain, "--terms", terms)
    assert res.exit_code == 2, res.output
    assert f"{terms}:{line}: {said}" in res.stderr
    assert "a --terms file is plain text, one term per line" in res.stderr


def test_a_json_document_over_several_lines_is_refused(tmp_path):
    plain, terms = _files(tmp_path, '[\n  "快递柜",\n  "小黄鸭"\n]\n'.encode("utf-8"))
    res = run("rouge", plain, "-i", plain, "--terms", terms)
    assert res.exit_code == 2, res.output
    assert f"{terms}: is a JSON document: a --terms file is plain text, one term per line" in res.stderr


def test_bracketed_terms_that_are_not_json_are_kept(tmp_path):
    # [UNK] and {name} start like JSON but do not parse as JSON: plain terms
    plain, terms = _files(tmp_path, "[UNK]\n{name}\n快递柜\n".encode("utf-8"))
    res = run("bleu", plain, "-i", plain, "--terms", terms, "-b", "-w", 2)
    assert res.exit_code == 0, res.output
    assert float(res.stdout) == 100.0  # identical files


@pytest.mark.parametrize("content, line, said, instead", [
    ('"快递柜"\n', 1, 'is a JSON string ("快递柜")', "write 快递柜 on a line of its own"),
    ("小黄鸭\n['快递柜']\n", 2, "is a Python list (['快递柜'])", "write 快递柜 on a line of its own"),
    ("'快递柜'\n", 1, "is a Python string ('快递柜')", "write 快递柜 on a line of its own"),
    ("{'term': '快递柜'}\n", 1, "is a Python dict ({'term': '快递柜'})", "write 快递柜 on a line of its own"),
    ('["快递柜", \'小黄鸭\']\n', 1, "malformed JSON array", "write 快递柜, 小黄鸭, each on a line of its own"),
    ('["快递柜", "小黄鸭"]\n', 1, "looks like JSON", "write 快递柜, 小黄鸭, each on a line of its own"),
])
def test_a_quoted_or_python_literal_line_is_refused_with_what_to_write(tmp_path, content, line, said, instead):
    """``"快递柜"`` (a JSON string) and ``['快递柜']`` (Python's ``str()`` of a list) were read as the terms
    ``"快递柜"`` and ``['快递柜']``, whose quotes and brackets never match a text: refused at FILE:line, saying the
    terms to write instead."""
    plain, terms = _files(tmp_path, content.encode("utf-8"))
    res = run("rouge", plain, "-i", plain, "--terms", terms)
    assert res.exit_code == 2, res.output
    assert f"{terms}:{line}: {said}" in res.stderr, res.stderr
    assert "a --terms file is plain text, one term per line" in res.stderr and instead in res.stderr, res.stderr


def test_terms_that_only_start_like_a_literal_are_kept(tmp_path):
    plain, terms = _files(tmp_path, "'s\n\"快递柜\" 和 \"小黄鸭\"\n[快递柜]\n快递柜\n".encode("utf-8"))
    res = run("bleu", plain, "-i", plain, "--terms", terms, "-b", "-w", 2)
    assert res.exit_code == 0, res.output
    assert float(res.stdout) == 100.0
