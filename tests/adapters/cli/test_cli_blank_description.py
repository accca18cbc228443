"""Break-it pass (wording): a blank line of ``\\u00a0\\u200b`` (NBSP, zero-width space) was described as "only
invisible characters: '\\u200b'" -- ``str.strip`` took the NBSP away, so the one character a reader could not guess
was left out. A blank text is described with every character it holds but the ASCII space, escaped, and as what
they are (NBSP is whitespace, U+200B an invisible character): at the text-file doors (bleu, rouge, chrf,
bertscore: hypotheses and references), in the library's empty-reference error and in the report's most repeated
prediction. The expected strings are written out by hand."""

from __future__ import annotations

import pytest

import zheval

from helpers.cli import run_cli as run, write_jsonl

REFS = ["猫坐在垫子上", "今天天气很好"]


def _lines(path, lines):
    path.write_text("".join(t + "\n" for t in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("text,said", [
    ("\u00a0\u200b", r"only whitespace and invisible characters: '\xa0\u200b'"),
    ("\u200b\u00a0", r"only whitespace and invisible characters: '\u200b\xa0'"),
    (" \u200b ", r"only invisible characters: '\u200b'"),  # the ASCII space prints as itself
    ("\t\u200b", r"only whitespace and invisible characters: '\t\u200b'"),
    ("\ufeff\u200e", r"only invisible characters: '\ufeff\u200e'"),
    ("\u3000", r"only whitespace: '\u3000'"),
    ("\u00a0", r"only whitespace: '\xa0'"),
    ("\u3164", r"only invisible characters: '\u3164'"),  # a Hangul filler: printable to Python, invisible
    ("", ""), ("  \t", ""),
])
def test_every_character_is_listed(text, said):
    from zheval.results.diagnostics import describe_blank

    assert describe_blank(text) == said


@pytest.mark.parametrize("command", ["bleu", "rouge", "chrf", "bertscore"])
def test_the_text_doors_list_the_nbsp(tmp_path, command):
    ref = _lines(tmp_path / "ref.txt", REFS)
    hyp = _lines(tmp_path / "hyp.txt", ["猫在垫子上", "\u00a0\u200b"])
    if command == "bertscore":
        pytest.importorskip("torch")  # the command needs its extra before it reads a file
        pytest.importorskip("transformers")
    extra = ("--model", tmp_path) if command == "bertscore" else ()  # refused at reading, before any model
    res = run(command, ref, "-i", hyp, *extra)
    assert res.exit_code == 2, res.output
    assert (f"{hyp}:2: empty line (only whitespace and invisible characters: '\\xa0\\u200b'): an empty hypothesis"
            in res.output), res.output


def test_a_reference_line_of_ideographic_space_is_described(tmp_path):
    ref = _lines(tmp_path / "ref.txt", ["猫坐在垫子上", "\u3000"])
    hyp = _lines(tmp_path / "hyp.txt", ["猫在垫子上", "好"])
    res = run("bleu", ref, "-i", hyp)
    assert res.exit_code == 2
    assert f"{ref}:2: empty line (only whitespace: '\\u3000'): an empty reference cannot be scored" in res.output


def test_the_library_empty_reference_error_lists_every_character():
    with pytest.raises(zheval.EmptyReferenceError) as err:
        zheval.compute_bleu(["猫"], [["\u00a0\u200b"]])
    assert "'\\xa0\\u200b' has only whitespace and invisible or format characters" in str(err.value)
    with pytest.raises(zheval.EmptyReferenceError) as err:
        zheval.compute_bleu(["猫"], [["\u3164"]])  # printable to repr, so it was quoted unescaped (invisible)
    assert "'\\u3164' is blank after normalisation" in str(err.value)


def test_the_most_repeated_blank_prediction_is_described(tmp_path):
    rec = write_jsonl(tmp_path / "blank.jsonl", [{"predict": "\u00a0\u200b", "label": "好的"},
                                                 {"predict": "\u00a0\u200b", "label": "不客气"},
                                                 {"predict": "嗯", "label": "谢谢"}])
    res = run("score", "-p", rec, "-q", "--bootstrap", 0)
    assert res.exit_code == 0, res.output
    assert "(blank: '\\xa0\\u200b') (2)" in res.stdout, res.stdout
