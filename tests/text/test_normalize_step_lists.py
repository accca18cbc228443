"""Normalisation step lists (issue 35: is ``--normalize punct+nopunct`` two contradicting steps?). It is not:
``punct`` unifies the forms of one mark (``“`` → ``"``, ``−`` U+2212 → ``-``) and ``nopunct`` then removes
punctuation, in the canonical order whatever order they are named in -- the default steps with ``nopunct``
(``remove_punct=True``) are exactly that pair. What is refused: a step named twice, now also by ``Normalizer``
itself (it kept one silently), a ``str`` given to ``Normalizer`` (read letter by letter), and ``default`` / ``none``
joined to steps, with a message saying they stand alone. Expected texts are written out by hand."""

from __future__ import annotations

import pytest

from helpers.cli import run_cli
from zheval.text.normalize import Normalizer, get_normalizer


def test_punct_then_nopunct_unify_then_remove():
    text = "“好”！温度−3度"
    # nopunct alone: “ ” ！ (categories Pi, Pf, Po) removed, the minus sign U+2212 (Sm, a symbol) kept
    assert get_normalizer("nopunct")(text) == "好温度−3度"
    # punct first makes U+2212 the hyphen-minus, the same mark as '-', which nopunct removes as it removes '-3''s '-'
    assert get_normalizer("punct+nopunct")(text) == "好温度3度"
    assert get_normalizer("punct+nopunct")("-3") == get_normalizer("nopunct")("-3") == "3"
    assert get_normalizer("nopunct+punct").name == "punct+nopunct"  # the canonical order, as documented
    assert get_normalizer("default", remove_punct=True).name == "nfkc+zw+punct+nopunct+space+lower"


@pytest.mark.parametrize("steps, error, says", [
    (("nfkc", "nfkc"), ValueError, "names the step 'nfkc' more than once"),
    (["punct", "nopunct", "punct"], ValueError, "names the step 'punct' more than once"),
    ("nfkc", TypeError, "Normalizer steps must be a tuple of step names, got 'nfkc'"),
    (("nfkc", None), TypeError, "Normalizer steps must be a tuple of step names"),
])
def test_normalizer_refuses_what_get_normalizer_refuses(steps, error, says):
    with pytest.raises(error) as info:
        Normalizer(steps)
    assert says in str(info.value), str(info.value)


@pytest.mark.parametrize("spec, alone", [("default+nopunct", "default"), ("none+punct", "none"),
                                         (["nfkc", "default"], "default")])
def test_default_and_none_among_steps_are_told_to_stand_alone(spec, alone):
    with pytest.raises(ValueError) as info:
        get_normalizer(spec)
    assert f"{alone!r} stands alone" in str(info.value) and "nfkc+zw+punct+space+lower" in str(info.value)


def test_the_cli_refuses_a_repeated_step_and_default_joined_to_steps(tmp_path):
    ref, hyp = tmp_path / "r.txt", tmp_path / "h.txt"
    ref.write_text("今天天气很好！\n", encoding="utf-8")
    hyp.write_text("今天天气不错！\n", encoding="utf-8")
    res = run_cli("bleu", ref, "-i", hyp, "--normalize", "punct+nopunct+punct")
    assert res.exit_code == 2 and "names the step 'punct' more than once" in res.output, res.output
    res = run_cli("bleu", ref, "-i", hyp, "--normalize", "default+nopunct")
    assert res.exit_code == 2 and "'default' stands alone" in res.output, res.output
    res = run_cli("bleu", ref, "-i", hyp, "--normalize", "punct+nopunct")
    assert res.exit_code == 0 and "norm:punct+nopunct" in res.output, res.output
